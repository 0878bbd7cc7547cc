//===- Array.cpp - Dense arrays and their elements ------------------------===//
//
// The Array type, dtypes, and element access and formatting; the .npy
// files are in NpyFile.cpp, random values and comparisons in
// RandomAndCompare.cpp.
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

//===----------------------------------------------------------------------===//
// Array
//===----------------------------------------------------------------------===//

int64_t Array::numel() const {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

std::optional<int64_t> checkedByteSize(ElementType dtype,
                                       const std::vector<int64_t> &shape) {
  std::optional<int64_t> count = checkedNumel(shape);
  if (!count)
    return std::nullopt;
  return checkedMul(*count, static_cast<int64_t>(elementSize(dtype)));
}

std::string formatShape(const std::vector<int64_t> &shape) {
  // One spelling of shapes across the project, diagnostics included.
  return layout::formatShape(shape);
}

Array zeros(ElementType dtype, const std::vector<int64_t> &shape) {
  Array array;
  array.dtype = dtype;
  array.shape = shape;
  array.data.assign(static_cast<size_t>(checkedByteSize(dtype, shape).value()),
                    0);
  return array;
}

double elementAsDouble(const Array &array, int64_t index) {
  return elementAs<double>(array, index);
}

std::string formatIndex(const std::vector<int64_t> &shape, int64_t flatIndex) {
  std::vector<int64_t> coords(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    coords[d] = flatIndex % shape[d];
    flatIndex /= shape[d];
  }
  std::string text = "[";
  for (size_t d = 0; d < coords.size(); ++d)
    text += (d ? ", " : "") + std::to_string(coords[d]);
  return text + "]";
}

std::string formatElement(const Array &array, int64_t index) {
  const uint8_t *base = array.data.data();
  return visitElementType(array.dtype, [&](auto tag) -> std::string {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      return base[index] ? "true" : "false";
    } else if constexpr (std::is_floating_point_v<T>) {
      // max_digits10 digits read back to the same value (9 for f32, 17 for
      // f64).
      char buffer[40];
      std::snprintf(buffer, sizeof(buffer), "%.*g",
                    std::numeric_limits<T>::max_digits10,
                    static_cast<double>(load<T>(base, index)));
      return buffer;
    } else {
      return std::to_string(load<T>(base, index));
    }
  });
}

bool identical(const Array &a, const Array &b) {
  return a.dtype == b.dtype && a.shape == b.shape && a.data == b.data;
}

} // namespace stride::runtime
