# cmake -DINPUT=<file> -DOUTPUT=<file.inc> -DNAME=<identifier> -P EmbedBinary.cmake
# Writes INPUT's bytes as a C array `static const unsigned char NAME[]`, so a
# library can carry a build-time artifact (Stride's vector math bitcode)
# without a file to find at run time.
file(READ "${INPUT}" bytes HEX)
string(LENGTH "${bytes}" length)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${bytes}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
math(EXPR size "${length} / 2")
file(WRITE "${OUTPUT}"
  "// Generated from ${INPUT} by cmake/EmbedBinary.cmake.\n"
  "static const unsigned char ${NAME}[${size}] = {\n${bytes}};\n")
