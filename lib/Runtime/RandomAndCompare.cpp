//===- RandomAndCompare.cpp - Deterministic values, comparisons -----------===//
//
// What tests and runners need besides I/O: reproducible random arrays and
// element-wise comparison with tolerances.
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

/// splitmix64: tiny, fast and fully specified by integer arithmetic, so the
/// stream is the same on every platform and compiler (std::uniform_*
/// distributions are not).
uint64_t splitmix64(uint64_t &state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

} // namespace

Array randomArray(DType dtype, const std::vector<int64_t> &shape,
                  uint64_t seed) {
  Array array = zeros(dtype, shape);
  uint64_t state = seed;
  uint8_t *out = array.data.data();
  int64_t count = array.numel();
  for (int64_t i = 0; i < count; ++i) {
    uint64_t bits = splitmix64(state);
    switch (dtype) {
    case DType::F32:
      // 24 random bits scaled to [0, 4): exact in a float mantissa.
      store(out, i, static_cast<float>(bits >> 40) * 0x1p-22f - 2.0f);
      break;
    case DType::F64:
      store(out, i, static_cast<double>(bits >> 11) * 0x1p-51 - 2.0);
      break;
    case DType::I32:
      store(out, i, static_cast<int32_t>(((bits >> 32) * 11) >> 32) - 5);
      break;
    case DType::I64:
      store(out, i, static_cast<int64_t>(((bits >> 32) * 11) >> 32) - 5);
      break;
    case DType::I1:
      store(out, i, static_cast<uint8_t>(bits >> 63));
      break;
    }
  }
  return array;
}

namespace {

int64_t elementAsInt(const Array &array, int64_t index) {
  const uint8_t *base = array.data.data();
  switch (array.dtype) {
  case DType::I32:
    return load<int32_t>(base, index);
  case DType::I64:
    return load<int64_t>(base, index);
  case DType::I1:
    return base[index] ? 1 : 0;
  default:
    return 0;
  }
}

} // namespace

std::string compareArrays(const Array &actual, const Array &expected,
                          double rtol, double atol) {
  if (actual.dtype != expected.dtype)
    return std::string("dtype ") + dtypeName(actual.dtype) + " but expected " +
           dtypeName(expected.dtype);
  if (actual.shape != expected.shape)
    return "shape " + formatShape(actual.shape) + " but expected " +
           formatShape(expected.shape);
  int64_t count = expected.numel();
  if (!isFloat(expected.dtype)) {
    for (int64_t i = 0; i < count; ++i) {
      int64_t a = elementAsInt(actual, i), e = elementAsInt(expected, i);
      if (a != e)
        return "element " + formatIndex(expected.shape, i) + " is " +
               formatElement(actual, i) + " but expected " +
               formatElement(expected, i);
    }
    return "";
  }
  for (int64_t i = 0; i < count; ++i) {
    double a = elementAsDouble(actual, i), e = elementAsDouble(expected, i);
    bool close;
    if (std::isnan(a) || std::isnan(e))
      close = std::isnan(a) && std::isnan(e);
    else if (std::isinf(a) || std::isinf(e))
      close = a == e;
    else
      close = std::fabs(a - e) <= atol + rtol * std::fabs(e);
    if (!close)
      return "element " + formatIndex(expected.shape, i) + " is " +
             formatElement(actual, i) + " but expected " +
             formatElement(expected, i);
  }
  return "";
}

bool allClose(const Array &a, const Array &b, double rtol, double atol) {
  return compareArrays(a, b, rtol, atol).empty();
}

} // namespace stride::runtime
