//===- NpyTest.cpp - .npy reading and writing, array helpers --------------===//
//
// Fixtures in test/Inputs/npy come from NumPy (make_fixtures.py), so reading
// them checks compatibility with the real writer; the malformed cases that
// need exact bytes are built here.
//
//===----------------------------------------------------------------------===//

#include "stride/Runtime/Npy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <unistd.h>

using namespace stride::runtime;
using ::stride::ElementType;
using ::stride::kAllElementTypes;

namespace {

std::string fixture(const std::string &name) {
  return std::string(STRIDE_NPY_FIXTURES) + "/" + name;
}

/// A per-process file name, so concurrent test runs do not collide.
std::string tempPath(const std::string &name) {
  return ::testing::TempDir() + "stride-npy-" + std::to_string(getpid()) +
         "-" + name;
}

void writeBytes(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string readBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

Array loadOk(const std::string &path) {
  NpyResult result = readNpy(path);
  EXPECT_TRUE(result.array.has_value()) << result.error;
  EXPECT_EQ(result.error, "");
  return result.array.value_or(Array{});
}

std::string loadError(const std::string &path) {
  NpyResult result = readNpy(path);
  EXPECT_FALSE(result.array.has_value());
  EXPECT_EQ(result.error.rfind(path + ": ", 0), 0u)
      << "error does not start with the path: " << result.error;
  return result.error;
}

template <typename T>
Array makeArray(ElementType dtype, std::vector<int64_t> shape,
                std::vector<T> values) {
  Array array;
  array.dtype = dtype;
  array.shape = std::move(shape);
  array.data.resize(values.size() * sizeof(T));
  std::memcpy(array.data.data(), values.data(), array.data.size());
  return array;
}

/// A version 1.0 file around `dict` (padded like NumPy) and `data`.
std::string npyBytes(const std::string &dict, const std::string &data) {
  std::string header = dict;
  while ((10 + header.size() + 1) % 64)
    header += ' ';
  header += '\n';
  std::string bytes = "\x93NUMPY\x01";
  bytes += '\0';
  bytes += static_cast<char>(header.size() & 0xFF);
  bytes += static_cast<char>(header.size() >> 8);
  return bytes + header + data;
}

std::string f32Header(const std::string &shape) {
  return "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
}

/// Writes `bytes` to a temp file and returns the error reading it gives.
std::string errorFor(const std::string &name, const std::string &bytes) {
  std::string path = tempPath(name);
  writeBytes(path, bytes);
  std::string error = loadError(path);
  std::remove(path.c_str());
  return error.substr(path.size() + 2);
}

} // namespace

//===----------------------------------------------------------------------===//
// Array helpers (the element-type table: unittests/Support)
//===----------------------------------------------------------------------===//

TEST(Array, NumelAndByteSize) {
  EXPECT_EQ(zeros(ElementType::F32, {}).numel(), 1);
  EXPECT_EQ(zeros(ElementType::F64, {2, 3}).data.size(), 48u);
  EXPECT_EQ(zeros(ElementType::I32, {4, 0, 2}).numel(), 0);
  EXPECT_EQ(checkedByteSize(ElementType::I64, {3, 5}), 120);
  EXPECT_EQ(checkedByteSize(ElementType::F32, {2, -1}), std::nullopt);
  EXPECT_EQ(checkedByteSize(ElementType::F32, {int64_t(1) << 62}),
            std::nullopt);
  EXPECT_EQ(checkedByteSize(ElementType::I1, {int64_t(1) << 62}), int64_t(1)
                                                                      << 62);
  EXPECT_EQ(checkedByteSize(ElementType::F32, {1 << 21, 1 << 21, 1 << 21}),
            std::nullopt);
}

TEST(Array, FormatShapeIndexAndElement) {
  EXPECT_EQ(formatShape({4, 2, 3}), "4x2x3");
  EXPECT_EQ(formatShape({0, 3}), "0x3");
  EXPECT_EQ(formatShape({}), "0-d");
  EXPECT_EQ(formatIndex({2, 3, 4}, 23), "[1, 2, 3]");
  EXPECT_EQ(formatIndex({}, 0), "[]");
  Array f = makeArray<float>(ElementType::F32, {2}, {0.1f, -2.5f});
  EXPECT_EQ(formatElement(f, 0), "0.100000001");
  EXPECT_EQ(formatElement(f, 1), "-2.5");
  EXPECT_EQ(formatElement(makeArray<int64_t>(ElementType::I64, {1}, {-7}), 0),
            "-7");
  EXPECT_EQ(formatElement(makeArray<uint8_t>(ElementType::I1, {2}, {0, 1}), 1),
            "true");
}

TEST(RandomArray, DeterministicAndInRange) {
  for (ElementType dtype : kAllElementTypes) {
    Array a = randomArray(dtype, {7, 9}, 42);
    EXPECT_TRUE(identical(a, randomArray(dtype, {7, 9}, 42)));
    EXPECT_FALSE(identical(a, randomArray(dtype, {7, 9}, 43)));
    bool sawNegative = false;
    for (int64_t i = 0; i < a.numel(); ++i) {
      double v = elementAsDouble(a, i);
      if (isFloat(dtype)) {
        EXPECT_GE(v, -2.0);
        EXPECT_LT(v, 2.0);
      } else if (dtype == ElementType::I1) {
        EXPECT_TRUE(a.data[i] == 0 || a.data[i] == 1);
      } else if (isUnsigned(dtype)) { // 0 ... 10: no wrapped negatives
        EXPECT_LE(v, 10.0);
        EXPECT_EQ(v, std::floor(v));
      } else {
        EXPECT_GE(v, -5.0);
        EXPECT_LE(v, 5.0);
        EXPECT_EQ(v, std::floor(v));
      }
      sawNegative |= v < 0;
    }
    EXPECT_EQ(sawNegative, dtype != ElementType::I1 && !isUnsigned(dtype))
        << elementTypeName(dtype);
  }
  // Pinned values: a change to the generator changes every benchmark input
  // and reference file, so it should be deliberate.
  Array pinned = randomArray(ElementType::I32, {4}, 1);
  EXPECT_EQ(compareArrays(
                pinned,
                makeArray<int32_t>(ElementType::I32, {4}, {1, 3, 5, -1}), 0, 0),
            "");
  // f32 values are multiples of 2^-22 so f64 holds them exactly.
  Array f = randomArray(ElementType::F32, {100}, 5);
  for (int64_t i = 0; i < f.numel(); ++i) {
    double scaled = elementAsDouble(f, i) * std::ldexp(1.0, 22);
    EXPECT_EQ(scaled, std::floor(scaled));
  }
}

TEST(Compare, TolerancesNanInfAndIntegers) {
  Array e =
      makeArray<double>(ElementType::F64, {4}, {1.0, NAN, INFINITY, -0.0});
  Array a =
      makeArray<double>(ElementType::F64, {4}, {1.0 + 1e-9, NAN, INFINITY, 0});
  EXPECT_TRUE(allClose(a, e, 1e-8, 0));
  EXPECT_FALSE(allClose(a, e, 1e-10, 0));
  EXPECT_EQ(compareArrays(a, e, 1e-10, 0),
            "element [0] is 1.0000000010000001 but expected 1");
  EXPECT_TRUE(allClose(a, e, 0, 1e-8));

  Array nanVsNumber =
      makeArray<double>(ElementType::F64, {4}, {1, 0, INFINITY, 0});
  EXPECT_FALSE(allClose(nanVsNumber, e, 1, 1));
  Array negInf =
      makeArray<double>(ElementType::F64, {4}, {1, NAN, -INFINITY, 0});
  EXPECT_FALSE(allClose(negInf, e, 1, 1));

  // Integers compare exactly, even where doubles could not tell them apart.
  int64_t big = int64_t(1) << 53;
  Array i = makeArray<int64_t>(ElementType::I64, {1, 2}, {big, 3});
  Array j = makeArray<int64_t>(ElementType::I64, {1, 2}, {big + 1, 3});
  EXPECT_EQ(compareArrays(i, j, 1, 1),
            "element [0, 0] is 9007199254740992 but expected 9007199254740993");

  EXPECT_EQ(compareArrays(zeros(ElementType::F32, {2}),
                          zeros(ElementType::F64, {2}), 0, 0),
            "dtype f32 but expected f64");
  EXPECT_EQ(compareArrays(zeros(ElementType::F32, {2, 3}),
                          zeros(ElementType::F32, {3, 2}), 0, 0),
            "shape 2x3 but expected 3x2");
  EXPECT_TRUE(allClose(zeros(ElementType::I1, {0, 4}),
                       zeros(ElementType::I1, {0, 4}), 0, 0));
}

//===----------------------------------------------------------------------===//
// Round trips through our own writer and reader
//===----------------------------------------------------------------------===//

TEST(NpyRoundTrip, EveryDTypeAndRankZeroToFour) {
  const std::vector<std::vector<int64_t>> shapes = {
      {}, {5}, {2, 3}, {2, 3, 4}, {2, 1, 3, 2}, {0}, {3, 0, 2}, {1, 1, 1, 1}};
  std::string path = tempPath("roundtrip.npy");
  uint64_t seed = 0;
  for (ElementType dtype : kAllElementTypes) {
    for (const std::vector<int64_t> &shape : shapes) {
      SCOPED_TRACE(std::string(elementTypeName(dtype)) + " " +
                   formatShape(shape));
      Array array = randomArray(dtype, shape, ++seed);
      ASSERT_EQ(writeNpy(path, array), "");
      // The data starts on a 64-byte boundary, as NumPy lays files out.
      EXPECT_EQ((readBytes(path).size() - array.data.size()) % 64, 0u);
      Array back = loadOk(path);
      EXPECT_TRUE(identical(back, array));
    }
  }
  std::remove(path.c_str());
}

TEST(NpyRoundTrip, FloatBitsSurvive) {
  float nanPayload;
  uint32_t bits = 0x7FC01234;
  std::memcpy(&nanPayload, &bits, 4);
  Array array = makeArray<float>(ElementType::F32, {6},
                                 {nanPayload, -0.0f, INFINITY, -INFINITY,
                                  std::numeric_limits<float>::denorm_min(),
                                  std::numeric_limits<float>::max()});
  std::string path = tempPath("bits.npy");
  ASSERT_EQ(writeNpy(path, array), "");
  EXPECT_TRUE(identical(loadOk(path), array));
  std::remove(path.c_str());
}

TEST(NpyRoundTrip, HugeRankUsesVersionTwoHeader) {
  // A header over 64 KiB does not fit version 1.0's 2-byte length field.
  Array array = zeros(ElementType::I32, std::vector<int64_t>(25000, 1));
  std::string path = tempPath("v2.npy");
  ASSERT_EQ(writeNpy(path, array), "");
  std::string bytes = readBytes(path);
  EXPECT_EQ(bytes[6], 2);
  EXPECT_TRUE(identical(loadOk(path), array));
  std::remove(path.c_str());
}

TEST(NpyWrite, Errors) {
  Array bad = zeros(ElementType::F32, {2, 3});
  bad.data.pop_back();
  std::string path = tempPath("bad.npy");
  EXPECT_EQ(writeNpy(path, bad), path + ": array data holds 23 bytes but "
                                        "shape 2x3 of f32 needs 24");
  std::string noDir = tempPath("no-such-dir/x.npy");
  EXPECT_EQ(writeNpy(noDir, zeros(ElementType::F32, {1})),
            noDir + ": cannot open for writing: No such file or directory");
}

TEST(NpyWrite, BoolsAreWrittenAsZeroOrOne) {
  Array array = makeArray<uint8_t>(ElementType::I1, {3}, {0, 7, 1});
  std::string path = tempPath("bool.npy");
  ASSERT_EQ(writeNpy(path, array), "");
  EXPECT_TRUE(identical(loadOk(path),
                        makeArray<uint8_t>(ElementType::I1, {3}, {0, 1, 1})));
  std::remove(path.c_str());
}

//===----------------------------------------------------------------------===//
// Files written by NumPy
//===----------------------------------------------------------------------===//

namespace {

Array cF32Expected() {
  std::vector<float> values;
  for (int i = 0; i < 24; ++i)
    values.push_back(static_cast<float>(i) * 0.5f - 3.0f);
  return makeArray<float>(ElementType::F32, {2, 3, 4}, values);
}

} // namespace

TEST(NpyFixtures, COrderAndFortranOrder) {
  EXPECT_TRUE(identical(loadOk(fixture("c_f32.npy")), cF32Expected()));
  EXPECT_TRUE(identical(loadOk(fixture("fortran_f32.npy")), cF32Expected()));
  // Not square, so a transpose that mixed up the dims would show.
  EXPECT_TRUE(identical(
      loadOk(fixture("fortran_i32.npy")),
      makeArray<int32_t>(ElementType::I32, {3, 2}, {0, 1, 10, 11, 20, 21})));
}

TEST(NpyFixtures, EveryDType) {
  EXPECT_TRUE(identical(
      loadOk(fixture("f64.npy")),
      makeArray<double>(ElementType::F64, {3, 2},
                        {1.5, -2.25, 1e300, -0.0, INFINITY, 5e-324})));
  EXPECT_TRUE(
      identical(loadOk(fixture("i32.npy")),
                makeArray<int32_t>(ElementType::I32, {5},
                                   {std::numeric_limits<int32_t>::min(), -1, 0,
                                    1, std::numeric_limits<int32_t>::max()})));
  EXPECT_TRUE(
      identical(loadOk(fixture("i64.npy")),
                makeArray<int64_t>(ElementType::I64, {2, 2},
                                   {std::numeric_limits<int64_t>::min(), -1, 0,
                                    std::numeric_limits<int64_t>::max()})));
  EXPECT_TRUE(identical(
      loadOk(fixture("bool.npy")),
      makeArray<uint8_t>(ElementType::I1, {2, 3}, {1, 0, 1, 0, 0, 1})));
}

TEST(NpyFixtures, ScalarAndEmpty) {
  EXPECT_TRUE(identical(loadOk(fixture("scalar_f64.npy")),
                        makeArray<double>(ElementType::F64, {}, {3.25})));
  EXPECT_TRUE(identical(loadOk(fixture("empty_f32.npy")),
                        zeros(ElementType::F32, {0, 3})));
}

TEST(NpyFixtures, FormatVersionsTwoAndThree) {
  EXPECT_TRUE(identical(
      loadOk(fixture("v2_i64.npy")),
      makeArray<int64_t>(ElementType::I64, {3, 2}, {0, 1, 2, 3, 4, 5})));
  EXPECT_TRUE(identical(loadOk(fixture("v3_f32.npy")),
                        makeArray<float>(ElementType::F32, {4}, {0, 1, 2, 3})));
}

TEST(NpyFixtures, BigEndianIsByteSwapped) {
  EXPECT_TRUE(
      identical(loadOk(fixture("be_f32.npy")),
                makeArray<float>(ElementType::F32, {2, 3},
                                 {-2.5f, -1.5f, -0.5f, 0.5f, 1.5f, 2.5f})));
}

TEST(NpyFixtures, MalformedFilesGiveClearErrors) {
  std::string path = fixture("truncated.npy");
  EXPECT_EQ(loadError(path), path + ": truncated: header says 24 elements of "
                                    "4 bytes but only 60 bytes follow");
  path = fixture("bad_magic.npy");
  EXPECT_EQ(loadError(path), path + ": not a .npy file (bad magic)");
  path = fixture("bad_header.npy");
  EXPECT_EQ(loadError(path),
            path + ": bad header (expected ',' or ')' in 'shape'): {'descr': "
                   "'<f4', 'fortran_order': False, 'shape': (2, 3},");
  path = fixture("complex_c8.npy");
  EXPECT_EQ(loadError(path),
            path + ": unsupported dtype '<c8' (expected "
                   "float32, float64, int32, int64, "
                   "bool, int8, int16, uint8, uint16, uint32 or uint64)");
}

//===----------------------------------------------------------------------===//
// Malformed and unusual headers, built byte by byte
//===----------------------------------------------------------------------===//

TEST(NpyHeaders, AcceptedVariants) {
  std::string fourFloats(16, '\0');
  for (const char *dict : {
           "{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (4,)}",
           "{'shape': (4L,), 'descr': '<f4', 'fortran_order': False}",
           "{ 'descr' : '=f4' ,'fortran_order':False,'shape':( 4 , ) , }",
           "{'descr': '|f4', 'fortran_order': True, 'shape': (4,), }",
           "{'descr': 'f4', 'fortran_order': False, 'shape': (2, 2)}",
       }) {
    SCOPED_TRACE(dict);
    std::string path = tempPath("variant.npy");
    writeBytes(path, npyBytes(dict, fourFloats));
    Array array = loadOk(path);
    EXPECT_EQ(array.dtype, ElementType::F32);
    EXPECT_EQ(array.numel(), 4);
    std::remove(path.c_str());
  }
}

TEST(NpyHeaders, Errors) {
  std::string eight(8, '\0');
  EXPECT_EQ(errorFor("empty.npy", ""), "not a .npy file (bad magic)");
  EXPECT_EQ(errorFor("short.npy", "\x93NUM"), "not a .npy file (bad magic)");
  EXPECT_EQ(errorFor("magic.npy", "\x93NUMPY"),
            "truncated: the file ends inside the version bytes");
  EXPECT_EQ(errorFor("nolen.npy", std::string("\x93NUMPY\x02\x00\x10", 9)),
            "truncated: the file ends inside the header length");
  EXPECT_EQ(errorFor("v4.npy", std::string("\x93NUMPY\x04\x00\x10\x00", 10)),
            "unsupported .npy format version 4.0 (expected 1.0, 2.0 or 3.0)");
  EXPECT_EQ(errorFor("v11.npy", std::string("\x93NUMPY\x01\x01\x10\x00", 10)),
            "unsupported .npy format version 1.1 (expected 1.0, 2.0 or 3.0)");
  EXPECT_EQ(errorFor("longhdr.npy",
                     std::string("\x93NUMPY\x01\x00\x00\x01", 10) + "{}"),
            "truncated: header length says 256 bytes but only 2 bytes follow");
  EXPECT_EQ(errorFor("hugehdr.npy",
                     std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff", 12)),
            "header length 4294967295 is implausibly large (at most 1048576 "
            "bytes are accepted)");

  // Each header, the data after it, and the error it gives: the whole
  // error, or (prefix) its start.
  struct HeaderCase {
    std::string dict, data, error;
    bool prefix;
  };
  const HeaderCase cases[] = {
      {"{'descr': '<f4', 'shape': (2,)}", eight,
       "bad header (missing key 'fortran_order'): {'descr': '<f4', "
       "'shape': (2,)}",
       false},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': "
       "(2,), 'extra': 1}",
       eight, "bad header (unexpected key 'extra'): {", true},
      {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': "
       "False, 'shape': (2,)}",
       eight, "bad header (duplicate key 'descr'): ", true},
      {f32Header("(2, -1)"), eight,
       "bad header (negative dimension in 'shape'):", true},
      {f32Header("(99999999999999999999,)"), eight,
       "bad header (dimension in 'shape' does not fit in 64 bits): {'", true},
      {"{'descr': '<f4', 'fortran_order': maybe, 'shape': "
       "(2,)}",
       eight, "bad header (expected True or False for 'fortran_order')", true},
      {f32Header("(2,)") + " junk", eight,
       "bad header (unexpected text after '}'):", true},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': "
       "(2,)",
       eight, "bad header (expected ',' or '}' after the va", true},
      {"not a dict", eight, "bad header (expected '{'): not a dict", false},
      // Control bytes in a header are not echoed to the terminal.
      {std::string("\x01\x02"), eight, "bad header (expected '{'): ??", false},
      {"{'descr': '<f2', 'fortran_order': False, 'shape': "
       "(2,)}",
       "abcd",
       "unsupported dtype '<f2' (expected float32, float64, int32, int64, "
       "bool, int8, int16, uint8, uint16, uint32 or uint64)",
       false},
      {"{'descr': [('a', '<f4'), ('b', '<i4')], "
       "'fortran_order': False, 'shape': (1,)}",
       eight,
       "unsupported dtype [('a', '<f4'), ('b', '<i4')] (expected "
       "float32, float64, int32, int64, bool, int8, int16, uint8, uint16, "
       "uint32 or uint64)",
       false},
  };
  for (const HeaderCase &c : cases) {
    std::string error = errorFor("header.npy", npyBytes(c.dict, c.data));
    EXPECT_EQ(c.prefix ? error.substr(0, c.error.size()) : error, c.error)
        << c.dict;
  }
}

TEST(NpyHeaders, SizesThatLie) {
  // The element count overflows: caught before any arithmetic wraps.
  EXPECT_EQ(errorFor("overflow.npy",
                     npyBytes(f32Header("(4611686018427387904, 4)"), "")),
            "shape 4611686018427387904x4 is too large (its size in bytes "
            "overflows 64 bits)");
  // Plausible-looking but far beyond the file: rejected without allocating.
  EXPECT_EQ(
      errorFor("huge.npy", npyBytes(f32Header("(1000000000000,)"), "12345678")),
      "truncated: header says 1000000000000 elements of 4 bytes but "
      "only 8 bytes follow");
  EXPECT_EQ(errorFor("trailing.npy", npyBytes(f32Header("(1,)"), "12345678")),
            "4 unexpected bytes after the data (header says 1 elements of 4 "
            "bytes)");
}

TEST(NpyHeaders, FilesThatCannotBeRead) {
  std::string missing = tempPath("does-not-exist.npy");
  EXPECT_EQ(loadError(missing),
            missing + ": cannot open: No such file or directory");
  std::string dir = ::testing::TempDir();
  EXPECT_FALSE(readNpy(dir).error.empty());
}

TEST(NpyHeaders, EveryTruncationAndByteFlipIsHandled) {
  // Every prefix of a valid file, and each header byte replaced by a few
  // troublesome values: each must load consistently or fail cleanly (run
  // under a sanitizer, this also proves no out-of-bounds reads).
  std::string good = readBytes(fixture("fortran_i32.npy"));
  ASSERT_FALSE(good.empty());
  std::string path = tempPath("mutant.npy");
  auto check = [&](const std::string &bytes) {
    writeBytes(path, bytes);
    NpyResult result = readNpy(path);
    EXPECT_NE(result.array.has_value(), !result.error.empty());
    if (result.array) {
      std::optional<int64_t> size =
          checkedByteSize(result.array->dtype, result.array->shape);
      ASSERT_TRUE(size.has_value());
      EXPECT_EQ(static_cast<size_t>(*size), result.array->data.size());
    }
  };
  for (size_t length = 0; length < good.size(); ++length) {
    writeBytes(path, good.substr(0, length));
    EXPECT_FALSE(readNpy(path).array.has_value()) << "prefix " << length;
  }
  for (size_t at = 0; at < good.size() - 24; ++at)
    for (char value : {'\0', '\xff', '(', ')', ',', '9', '\'', '}', ' '}) {
      std::string mutant = good;
      mutant[at] = value;
      check(mutant);
    }
  std::remove(path.c_str());
}

//===----------------------------------------------------------------------===//
// NumPy reads what we write
//===----------------------------------------------------------------------===//

TEST(NpyInterop, NumpyLoadsOurFiles) {
  const char *python = "/usr/bin/python3";
  if (access(python, X_OK) != 0)
    GTEST_SKIP() << python << " not found; cannot check files with NumPy";
  if (std::system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << python << " has no numpy; cannot check files with NumPy";

  // Values NumPy can recompute: element i of each file is (i - 3) in its
  // dtype (i % 2 for bool); the script checks dtype, shape and values.
  struct Case {
    ElementType dtype;
    std::vector<int64_t> shape;
    const char *numpyDtype;
  };
  const std::vector<Case> cases = {
      {ElementType::F32, {2, 3}, "<f4"},    {ElementType::F64, {4}, "<f8"},
      {ElementType::I32, {2, 1, 3}, "<i4"}, {ElementType::I64, {}, "<i8"},
      {ElementType::I1, {3, 2}, "|b1"},     {ElementType::F32, {0, 2}, "<f4"},
      {ElementType::I8, {2, 3}, "|i1"},     {ElementType::I16, {5}, "<i2"},
      {ElementType::U8, {2, 2}, "|u1"},     {ElementType::U16, {3}, "<u2"},
      {ElementType::U32, {1, 2}, "<u4"},    {ElementType::U64, {4}, "<u8"}};
  std::string script = "import numpy as np, sys\nok = True\n";
  std::vector<std::string> paths;
  for (size_t c = 0; c < cases.size(); ++c) {
    Array array = zeros(cases[c].dtype, cases[c].shape);
    for (int64_t i = 0; i < array.numel(); ++i) {
      visitElementType(array.dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        T v = std::is_same_v<T, bool> ? static_cast<T>(i % 2)
                                      : static_cast<T>(i - 3);
        std::memcpy(&array.data[i * sizeof(T)], &v, sizeof(T));
      });
    }
    std::string path = tempPath("interop" + std::to_string(c) + ".npy");
    ASSERT_EQ(writeNpy(path, array), "");
    paths.push_back(path);
    std::string shape = "(";
    for (int64_t dim : cases[c].shape)
      shape += std::to_string(dim) + ",";
    shape += ")";
    std::string expected = cases[c].dtype == ElementType::I1
                               ? "(np.arange(n) % 2).astype(bool)"
                               : std::string("(np.arange(n) - 3).astype('") +
                                     cases[c].numpyDtype + "')";
    script += "a = np.load(sys.argv[" + std::to_string(c + 1) +
              "], allow_pickle=False)\n"
              "n = int(np.prod(" + shape + "))\n"
              "e = " + expected + ".reshape(" + shape + ")\n"
              "if a.dtype.str != '" + cases[c].numpyDtype +
              "' or a.shape != e.shape or not np.array_equal(a, e):\n"
              "    print('mismatch in', sys.argv[" + std::to_string(c + 1) +
              "], a.dtype.str, a.shape, a)\n"
              "    ok = False\n";
  }
  script += "sys.exit(0 if ok else 1)\n";
  std::string scriptPath = tempPath("interop.py");
  writeBytes(scriptPath, script);
  std::string command = std::string(python) + " " + scriptPath;
  for (const std::string &path : paths)
    command += " " + path;
  EXPECT_EQ(std::system(command.c_str()), 0) << "script:\n" << script;
  for (const std::string &path : paths)
    std::remove(path.c_str());
  std::remove(scriptPath.c_str());
}
