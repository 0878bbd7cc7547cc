//===- ArrayAccess.h - Element access for the runtime's files ---*- C++ -*-===//
//
// Private to lib/Runtime: unaligned element loads and stores into an Array's
// bytes, element conversion, the overflow-checked element count and the
// strided walk over every element, used by the array utilities, the
// random/compare helpers, strided buffers and the .npy reader alike.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_LIB_RUNTIME_ARRAYACCESS_H
#define STRIDE_LIB_RUNTIME_ARRAYACCESS_H

#include "stride/Runtime/Npy.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

namespace stride::runtime::detail {

/// a * b for non-negative operands, or std::nullopt on int64_t overflow.
inline std::optional<int64_t> checkedMul(int64_t a, int64_t b) {
  if (a != 0 && b > std::numeric_limits<int64_t>::max() / a)
    return std::nullopt;
  return a * b;
}

inline std::optional<int64_t> checkedNumel(const std::vector<int64_t> &shape) {
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0)
      return std::nullopt;
    std::optional<int64_t> next = checkedMul(count, dim);
    if (!next)
      return std::nullopt;
    count = *next;
  }
  return count;
}

template <typename T> void store(uint8_t *base, int64_t index, T value) {
  std::memcpy(base + index * sizeof(T), &value, sizeof(T));
}

template <typename T> T load(const uint8_t *base, int64_t index) {
  T value;
  std::memcpy(&value, base + index * sizeof(T), sizeof(T));
  return value;
}

/// Element `index` (in C order) of `array` converted to R; a bool is 0 or 1
/// (any nonzero byte is true). Integers convert as C++ does; a float only
/// where R can hold it.
template <typename R> R elementAs(const Array &array, int64_t index) {
  const uint8_t *base = array.data.data();
  return visitElementType(array.dtype, [&](auto tag) -> R {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>)
      return base[index] ? R(1) : R(0);
    else
      return static_cast<R>(load<T>(base, index));
  });
}

/// Calls fn(flatIndex, position) for every logical element in C order, where
/// position is the element offset (from the origin) that the strides give.
/// An odometer keeps this O(1) per element for any rank.
template <typename Fn>
void forEachElement(const std::vector<int64_t> &shape,
                    const std::vector<int64_t> &strides, Fn fn) {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  size_t rank = shape.size();
  std::vector<int64_t> index(rank, 0);
  int64_t position = 0;
  for (int64_t flat = 0; flat < count; ++flat) {
    fn(flat, position);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < shape[d]) {
        position += strides[d];
        break;
      }
      position -= strides[d] * (shape[d] - 1);
      index[d] = 0;
    }
  }
}

} // namespace stride::runtime::detail

#endif // STRIDE_LIB_RUNTIME_ARRAYACCESS_H
