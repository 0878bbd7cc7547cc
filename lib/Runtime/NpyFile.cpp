//===- NpyFile.cpp - Reading and writing NumPy .npy files -----------------===//
//
// The .npy format (NEP 1): the magic "\x93NUMPY", a major and minor version
// byte, a little-endian header length (2 bytes in 1.0, 4 in 2.0 and 3.0),
// then the header, a Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// padded with spaces and a newline, then the raw element data.
//
//===----------------------------------------------------------------------===//

#include "stride/Runtime/Npy.h"

#include "ArrayAccess.h"
#include "stride/Layout/Shape.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <utility>

namespace stride::runtime {

using namespace detail;

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;
// NumPy itself refuses headers over 10000 bytes by default; far more than a
// dict of three keys needs, yet small enough that a corrupt length field
// cannot make us read gigabytes looking for the end of a header.
constexpr uint64_t kMaxHeaderSize = 1 << 20;

bool hostIsLittleEndian() {
  const uint16_t probe = 1;
  uint8_t first;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

void byteSwapElements(uint8_t *data, size_t bytes, size_t itemSize) {
  for (size_t at = 0; at + itemSize <= bytes; at += itemSize)
    for (size_t i = 0, j = itemSize - 1; i < j; ++i, --j)
      std::swap(data[at + i], data[at + j]);
}

/// The parsed header: everything needed to interpret the data.
struct Header {
  ElementType dtype = ElementType::F32;
  bool littleEndian = true; // byte order of the data in the file
  bool fortranOrder = false;
  std::vector<int64_t> shape;
};

/// A recursive-descent parser for the subset of Python literal syntax that
/// .npy headers use. It accepts what NumPy writes (and what other writers
/// produce: double quotes, no trailing comma, any key order, Python 2 'L'
/// suffixes) and reports the first thing it does not understand.
class HeaderParser {
public:
  explicit HeaderParser(std::string_view header) : text(header) {}

  /// "" on success, else what is wrong (without the path).
  std::string parse(Header &header) {
    bool haveDescr = false, haveOrder = false, haveShape = false;
    skipSpace();
    if (!consume('{'))
      return "expected '{'";
    while (true) {
      skipSpace();
      if (consume('}'))
        break;
      std::string key;
      if (!parseString(key))
        return "expected a quoted key or '}'";
      skipSpace();
      if (!consume(':'))
        return "expected ':' after '" + key + "'";
      skipSpace();
      std::string error;
      if (key == "descr") {
        error = haveDescr ? "duplicate key 'descr'" : parseDescr(header);
        haveDescr = true;
      } else if (key == "fortran_order") {
        error = haveOrder ? "duplicate key 'fortran_order'"
                          : parseBool(header.fortranOrder);
        haveOrder = true;
      } else if (key == "shape") {
        error = haveShape ? "duplicate key 'shape'" : parseShape(header.shape);
        haveShape = true;
      } else {
        error = "unexpected key '" + key + "'";
      }
      if (!error.empty())
        return error;
      skipSpace();
      if (consume('}'))
        break;
      if (!consume(','))
        return "expected ',' or '}' after the value of '" + key + "'";
    }
    skipSpace();
    if (pos != text.size())
      return "unexpected text after '}'";
    if (!haveDescr)
      return "missing key 'descr'";
    if (!haveOrder)
      return "missing key 'fortran_order'";
    if (!haveShape)
      return "missing key 'shape'";
    return "";
  }

  /// Set when 'descr' names a dtype we do not support; the caller reports it
  /// as such rather than as a malformed header.
  std::optional<std::string> unsupportedDescr;

private:
  std::string_view text;
  size_t pos = 0;

  void skipSpace() {
    while (pos < text.size() &&
           (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n' ||
            text[pos] == '\r'))
      ++pos;
  }

  bool consume(char c) {
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }

  bool consumeWord(std::string_view word) {
    if (text.substr(pos, word.size()) != word)
      return false;
    pos += word.size();
    return true;
  }

  /// A '...' or "..." literal without escapes (no dtype or key needs them).
  bool parseString(std::string &out) {
    if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"'))
      return false;
    char quote = text[pos];
    size_t end = text.find(quote, pos + 1);
    if (end == std::string_view::npos)
      return false;
    out = std::string(text.substr(pos + 1, end - pos - 1));
    pos = end + 1;
    return true;
  }

  std::string parseBool(bool &out) {
    if (consumeWord("True"))
      out = true;
    else if (consumeWord("False"))
      out = false;
    else
      return "expected True or False for 'fortran_order'";
    return "";
  }

  std::string parseDescr(Header &header) {
    // Structured dtypes are lists of fields: well-formed, just unsupported.
    if (pos < text.size() && text[pos] == '[') {
      int depth = 0;
      size_t start = pos;
      for (; pos < text.size(); ++pos) {
        depth += text[pos] == '[' ? 1 : text[pos] == ']' ? -1 : 0;
        if (depth == 0)
          break;
      }
      if (pos == text.size())
        return "unterminated list in 'descr'";
      ++pos;
      unsupportedDescr = std::string(text.substr(start, pos - start));
      return "";
    }
    std::string descr;
    if (!parseString(descr))
      return "expected a quoted string for 'descr'";
    std::string_view code = descr;
    bool little = hostIsLittleEndian();
    if (!code.empty() && std::strchr("<>|=", code[0])) {
      if (code[0] == '<')
        little = true;
      else if (code[0] == '>')
        little = false;
      code.remove_prefix(1);
    }
    if (code == "?") // NumPy's character code for bool, an alias of b1
      code = "b1";
    if (std::optional<ElementType> type = parseNpyTypeCode(code))
      header.dtype = *type;
    else
      unsupportedDescr = "'" + descr + "'";
    header.littleEndian = little;
    return "";
  }

  std::string parseShape(std::vector<int64_t> &shape) {
    if (!consume('('))
      return "expected '(' for 'shape'";
    while (true) {
      skipSpace();
      if (consume(')'))
        return "";
      if (pos < text.size() && text[pos] == '-')
        return "negative dimension in 'shape'";
      if (pos >= text.size() || text[pos] < '0' || text[pos] > '9')
        return "expected a dimension or ')' in 'shape'";
      int64_t dim = 0;
      while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
        int digit = text[pos++] - '0';
        if (dim > (std::numeric_limits<int64_t>::max() - digit) / 10)
          return "dimension in 'shape' does not fit in 64 bits";
        dim = dim * 10 + digit;
      }
      consume('L');
      shape.push_back(dim);
      skipSpace();
      if (consume(')'))
        return "";
      if (!consume(','))
        return "expected ',' or ')' in 'shape'";
    }
  }
};

/// The header as it can be shown in a message: trailing padding dropped,
/// unprintable bytes replaced, and cut short if long.
std::string quoteHeader(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\n'))
    text.remove_suffix(1);
  std::string out;
  for (char c : text.substr(0, 120))
    out += (c >= 32 && c < 127) ? c : '?';
  if (text.size() > 120)
    out += "...";
  return out;
}

/// C order from Fortran order: walks the C-order indices, tracking where
/// each element sits in column-major storage (its column-major strides).
std::vector<uint8_t> fortranToC(const std::vector<uint8_t> &src,
                                const std::vector<int64_t> &shape,
                                size_t itemSize) {
  std::vector<uint8_t> dst(src.size());
  std::vector<int64_t> fStrides(shape.size());
  int64_t count = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    fStrides[d] = count;
    count *= shape[d];
  }
  detail::forEachElement(shape, fStrides, [&](int64_t flat, int64_t offset) {
    std::memcpy(&dst[flat * itemSize], &src[offset * itemSize], itemSize);
  });
  return dst;
}

std::string systemError() { return std::strerror(errno); }

} // namespace

NpyResult readNpy(const std::string &path) {
  NpyResult result;
  auto fail = [&](const std::string &message) {
    result.error = path + ": " + message;
    return result;
  };

  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return fail("cannot open: " + systemError());
  in.seekg(0, std::ios::end);
  std::streamoff endPos = in.tellg();
  in.seekg(0, std::ios::beg);
  if (endPos < 0 || !in)
    return fail("cannot determine the file size");
  uint64_t fileSize = static_cast<uint64_t>(endPos);

  // The fixed-size prelude: magic, version, and a header length of 2 or 4
  // bytes. Read what is there, then check piece by piece.
  uint8_t prelude[12] = {};
  size_t preludeRead = static_cast<size_t>(std::min<uint64_t>(fileSize, 12));
  if (!in.read(reinterpret_cast<char *>(prelude), preludeRead))
    return fail("read error: " + systemError());
  if (preludeRead < kMagicSize ||
      std::memcmp(prelude, kMagic, kMagicSize) != 0)
    return fail("not a .npy file (bad magic)");
  if (preludeRead < 8)
    return fail("truncated: the file ends inside the version bytes");
  unsigned major = prelude[6], minor = prelude[7];
  if ((major != 1 && major != 2 && major != 3) || minor != 0)
    return fail("unsupported .npy format version " + std::to_string(major) +
                "." + std::to_string(minor) + " (expected 1.0, 2.0 or 3.0)");
  size_t lengthBytes = major == 1 ? 2 : 4;
  size_t headerStart = 8 + lengthBytes;
  if (preludeRead < headerStart)
    return fail("truncated: the file ends inside the header length");
  uint64_t headerSize = 0;
  for (size_t i = 0; i < lengthBytes; ++i)
    headerSize |= static_cast<uint64_t>(prelude[8 + i]) << (8 * i);
  if (headerSize > kMaxHeaderSize)
    return fail("header length " + std::to_string(headerSize) +
                " is implausibly large (at most " +
                std::to_string(kMaxHeaderSize) + " bytes are accepted)");
  if (headerStart + headerSize > fileSize)
    return fail("truncated: header length says " + std::to_string(headerSize) +
                " bytes but only " + std::to_string(fileSize - headerStart) +
                " bytes follow");

  std::string headerText(static_cast<size_t>(headerSize), '\0');
  in.seekg(static_cast<std::streamoff>(headerStart));
  if (!in.read(headerText.data(), static_cast<std::streamsize>(headerSize)))
    return fail("read error: " + systemError());

  Header header;
  HeaderParser parser(headerText);
  std::string problem = parser.parse(header);
  if (!problem.empty())
    return fail("bad header (" + problem + "): " + quoteHeader(headerText));
  if (parser.unsupportedDescr)
    return fail("unsupported dtype " + *parser.unsupportedDescr +
                " (expected " +
                elementTypeList(&ElementTypeInfo::numpyName, " or ") + ")");

  size_t itemSize = elementSize(header.dtype);
  std::optional<int64_t> numel = checkedNumel(header.shape);
  std::optional<int64_t> dataSize =
      checkedByteSize(header.dtype, header.shape);
  if (!numel || !dataSize)
    return fail("shape " + formatShape(header.shape) +
                " is too large (its size in bytes overflows 64 bits)");

  // Compare with what is really in the file before allocating anything, so
  // a header that lies about its shape cannot trigger a huge allocation.
  uint64_t available = fileSize - headerStart - headerSize;
  uint64_t needed = static_cast<uint64_t>(*dataSize);
  if (available < needed)
    return fail("truncated: header says " + std::to_string(*numel) +
                " elements of " + std::to_string(itemSize) +
                " bytes but only " + std::to_string(available) +
                " bytes follow");
  if (available > needed)
    return fail(std::to_string(available - needed) +
                " unexpected bytes after the data (header says " +
                std::to_string(*numel) + " elements of " +
                std::to_string(itemSize) + " bytes)");

  Array array;
  array.dtype = header.dtype;
  array.shape = header.shape;
  array.data.resize(static_cast<size_t>(needed));
  if (needed && !in.read(reinterpret_cast<char *>(array.data.data()),
                         static_cast<std::streamsize>(needed)))
    return fail("read error: " + systemError());

  if (itemSize > 1 && header.littleEndian != hostIsLittleEndian())
    byteSwapElements(array.data.data(), array.data.size(), itemSize);
  // Any nonzero byte is true to NumPy; kernels expect exactly 0 or 1.
  if (isBool(array.dtype))
    for (uint8_t &byte : array.data)
      byte = byte != 0;
  if (header.fortranOrder && array.shape.size() > 1)
    array.data = fortranToC(array.data, array.shape, itemSize);

  result.array = std::move(array);
  return result;
}

namespace {

/// Python's repr of a shape tuple: "()", "(5,)", "(2, 3)".
std::string shapeTuple(const std::vector<int64_t> &shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

} // namespace

std::string writeNpy(const std::string &path, const Array &array) {
  std::optional<int64_t> bytes = checkedByteSize(array.dtype, array.shape);
  if (!bytes)
    return path + ": cannot write an array of shape " +
           formatShape(array.shape) + " (negative or overflowing dimensions)";
  if (static_cast<uint64_t>(*bytes) != array.data.size())
    return path + ": array data holds " + std::to_string(array.data.size()) +
           " bytes but shape " + formatShape(array.shape) + " of " +
           elementTypeName(array.dtype) + " needs " + std::to_string(*bytes);

  std::string dict =
      std::string("{'descr': '") + elementTypeInfo(array.dtype).npyDescr +
      "', 'fortran_order': False, 'shape': " + shapeTuple(array.shape) + ", }";
  // NumPy pads so that the data starts on a 64-byte boundary, which lets
  // readers map the file and use the data in place.
  size_t preludeSize = 10;
  size_t total = preludeSize + dict.size() + 1;
  size_t padded = (total + 63) / 64 * 64;
  if (padded - preludeSize > 0xFFFF) {
    preludeSize = 12;
    total = preludeSize + dict.size() + 1;
    padded = (total + 63) / 64 * 64;
  }
  std::string header = dict + std::string(padded - total, ' ') + "\n";
  uint32_t headerSize = static_cast<uint32_t>(header.size());

  std::string prelude(kMagic, kMagicSize);
  prelude += static_cast<char>(preludeSize == 10 ? 1 : 2);
  prelude += '\0';
  for (size_t i = 0; i < preludeSize - 8; ++i)
    prelude += static_cast<char>((headerSize >> (8 * i)) & 0xFF);

  // Files are always little-endian with 0/1 bools; copy only when the
  // in-memory bytes differ from that.
  const std::vector<uint8_t> *payload = &array.data;
  std::vector<uint8_t> converted;
  size_t itemSize = elementSize(array.dtype);
  if (isBool(array.dtype)) {
    converted = array.data;
    for (uint8_t &byte : converted)
      byte = byte != 0;
    payload = &converted;
  } else if (!hostIsLittleEndian()) {
    converted = array.data;
    byteSwapElements(converted.data(), converted.size(), itemSize);
    payload = &converted;
  }

  errno = 0;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out)
    return path + ": cannot open for writing: " + systemError();
  out.write(prelude.data(), static_cast<std::streamsize>(prelude.size()));
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  out.write(reinterpret_cast<const char *>(payload->data()),
            static_cast<std::streamsize>(payload->size()));
  out.close();
  if (!out)
    return path + ": write error: " + systemError();
  return "";
}

} // namespace stride::runtime
