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
#include <type_traits>
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

Array randomArray(ElementType dtype, const std::vector<int64_t> &shape,
                  uint64_t seed) {
  Array array = zeros(dtype, shape);
  uint8_t *out = array.data.data();
  int64_t count = array.numel();
  visitElementType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    uint64_t state = seed;
    for (int64_t i = 0; i < count; ++i) {
      uint64_t bits = splitmix64(state);
      if constexpr (std::is_same_v<T, bool>) {
        store(out, i, static_cast<uint8_t>(bits >> 63));
      } else if constexpr (std::is_floating_point_v<T>) {
        // As many random bits as the mantissa holds (24 for f32, 53 for
        // f64), scaled to [0, 4): exact, so no platform rounding enters.
        constexpr int digits = std::numeric_limits<T>::digits;
        store(out, i,
              static_cast<T>(bits >> (64 - digits)) *
                      std::ldexp(T(1), -(digits - 2)) -
                  T(2));
      } else if constexpr (std::is_unsigned_v<T>) {
        store(out, i, static_cast<T>(((bits >> 32) * 11) >> 32));
      } else {
        // Cast after the subtraction: int8/int16 arithmetic promotes to
        // int, and store() writes the type it is given.
        store(out, i,
              static_cast<T>(static_cast<int64_t>(((bits >> 32) * 11) >> 32) -
                             5));
      }
    }
  });
  return array;
}

std::string compareArrays(const Array &actual, const Array &expected,
                          double rtol, double atol) {
  if (actual.dtype != expected.dtype)
    return std::string("dtype ") + elementTypeName(actual.dtype) +
           " but expected " + elementTypeName(expected.dtype);
  if (actual.shape != expected.shape)
    return "shape " + formatShape(actual.shape) + " but expected " +
           formatShape(expected.shape);
  int64_t count = expected.numel();
  if (!isFloat(expected.dtype)) {
    for (int64_t i = 0; i < count; ++i) {
      int64_t a = elementAs<int64_t>(actual, i),
              e = elementAs<int64_t>(expected, i);
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
