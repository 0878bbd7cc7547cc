//===- StridedBuffer.cpp - Arrays in arbitrary strided layouts ------------===//

#include "stride/Runtime/StridedBuffer.h"

#include "ArrayAccess.h"
#include "stride/Layout/Strides.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <new>
#include <type_traits>

namespace stride::runtime {

namespace {

constexpr size_t kAlignment = 64;
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

} // namespace

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape) {
  return ::stride::layout::contiguousStrides(shape);
}

std::string formatStrides(const std::vector<int64_t> &strides) {
  std::string text = "[";
  for (size_t d = 0; d < strides.size(); ++d)
    text += (d ? ", " : "") + std::to_string(strides[d]);
  return text + "]";
}

void StridedBuffer::Free::operator()(uint8_t *p) const {
  ::operator delete(p, std::align_val_t(kAlignment));
}

std::variant<StridedBuffer, std::string>
StridedBuffer::create(ElementType dtype, std::vector<int64_t> shape,
                      std::vector<int64_t> strides) {
  std::string what = "layout " + formatShape(shape) + " with strides " +
                     formatStrides(strides);
  if (shape.size() != strides.size())
    return what + ": " + std::to_string(strides.size()) +
           " strides for a shape of rank " + std::to_string(shape.size());
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] < 0)
      return what + ": dimension " + std::to_string(d) +
             " has negative size " + std::to_string(shape[d]);

  std::optional<int64_t> bytes = checkedByteSize(dtype, shape);
  if (!bytes)
    return what + ": too many elements (the size in bytes overflows 64 bits)";

  // The lowest and highest positions relative to element [0, ..., 0]; each
  // dim reaches stride * (size - 1) in one direction. Every step is checked,
  // since strides come from users and may be anything.
  bool empty = *bytes == 0;
  int64_t low = 0, high = 0;
  std::string tooLarge =
      what + ": the positions it addresses span more than 2^63 bytes";
  for (size_t d = 0; d < shape.size() && !empty; ++d) {
    int64_t steps = shape[d] - 1, stride = strides[d];
    if (steps == 0 || stride == 0)
      continue;
    if (stride == std::numeric_limits<int64_t>::min() ||
        (stride > 0 ? stride : -stride) > kMax / steps)
      return tooLarge;
    int64_t reach = stride * steps;
    if (reach > 0) {
      if (high > kMax - reach)
        return tooLarge;
      high += reach;
    } else {
      if (low < -kMax - reach)
        return tooLarge;
      low += reach;
    }
  }
  int64_t itemSize = static_cast<int64_t>(elementSize(dtype));
  int64_t span = 0;
  if (!empty) {
    // high - low + 1 <= kMax checked in two steps to stay in range.
    if (high > kMax - 1 + low)
      return tooLarge;
    span = high - low + 1;
    if (span > kMax / itemSize)
      return tooLarge;
  }

  // Zero-size arrays still get a (minimal) allocation, so the descriptors
  // handed to kernels never carry null pointers.
  size_t allocBytes = static_cast<size_t>(span * itemSize);
  allocBytes = (allocBytes + kAlignment - 1) / kAlignment * kAlignment;
  if (allocBytes == 0)
    allocBytes = kAlignment;
  void *memory = ::operator new(allocBytes, std::align_val_t(kAlignment),
                                std::nothrow);
  if (!memory)
    return what + ": cannot allocate " + std::to_string(allocBytes) + " bytes";

  StridedBuffer buffer;
  buffer.dtype_ = dtype;
  buffer.shape_ = std::move(shape);
  buffer.strides_ = std::move(strides);
  buffer.storage_.reset(static_cast<uint8_t *>(memory));
  buffer.offset_ = -low;
  buffer.span_ = span;

  uint8_t *base = buffer.storage_.get();
  visitElementType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T>) {
      T nan = std::numeric_limits<T>::quiet_NaN();
      for (size_t at = 0; at + sizeof(T) <= allocBytes; at += sizeof(T))
        std::memcpy(base + at, &nan, sizeof(T));
    } else {
      std::memset(base, 0x5A, allocBytes);
    }
  });
  return buffer;
}

std::variant<StridedBuffer, std::string>
StridedBuffer::createFilled(const Array &values, std::vector<int64_t> strides) {
  auto created = create(values.dtype, values.shape, std::move(strides));
  if (auto *buffer = std::get_if<StridedBuffer>(&created)) {
    std::string error = buffer->fill(values);
    if (!error.empty())
      return error;
  }
  return created;
}

void *StridedBuffer::origin() {
  return storage_.get() + offset_ * elementSize(dtype_);
}

const void *StridedBuffer::origin() const {
  return storage_.get() + offset_ * elementSize(dtype_);
}

std::string StridedBuffer::fill(const Array &values) {
  if (values.dtype != dtype_)
    return std::string("cannot fill a buffer of ") + elementTypeName(dtype_) +
           " with values of " + elementTypeName(values.dtype);
  if (values.shape != shape_)
    return "cannot fill a buffer of shape " + formatShape(shape_) +
           " with values of shape " + formatShape(values.shape);
  size_t itemSize = elementSize(dtype_);
  int64_t count = values.numel();
  if (values.data.size() != static_cast<size_t>(count) * itemSize)
    return "values hold " + std::to_string(values.data.size()) +
           " bytes but shape " + formatShape(shape_) + " needs " +
           std::to_string(static_cast<size_t>(count) * itemSize);
  const uint8_t *in = values.data.data();

  // Broadcast dims first, for a message that names the dim. Checking each
  // one against its slice 0 suffices: equality along every broadcast dim
  // separately makes each group of aliased elements equal.
  std::vector<int64_t> cStrides = rowMajorStrides(shape_);
  for (size_t d = 0; d < shape_.size(); ++d) {
    if (strides_[d] != 0 || shape_[d] < 2)
      continue;
    for (int64_t flat = 0; flat < count; ++flat) {
      int64_t along = flat / cStrides[d] % shape_[d];
      int64_t first = flat - along * cStrides[d];
      if (along && std::memcmp(in + flat * itemSize, in + first * itemSize,
                               itemSize) != 0)
        return "input values differ along dimension " + std::to_string(d) +
               ", which the layout broadcasts (stride 0): element " +
               formatIndex(shape_, flat) + " is " +
               formatElement(values, flat) + " but element " +
               formatIndex(shape_, first) + " is " +
               formatElement(values, first);
    }
  }

  uint8_t *out = static_cast<uint8_t *>(origin());
  detail::forEachElement(shape_, strides_, [&](int64_t flat, int64_t position) {
    std::memcpy(out + position * static_cast<int64_t>(itemSize), in + flat * itemSize, itemSize);
  });

  // Nonzero strides can alias too (e.g. shape 2x2, strides [1, 1]); then the
  // last write wins, which shows up as a value that does not read back.
  std::string error;
  detail::forEachElement(shape_, strides_, [&](int64_t flat, int64_t position) {
    if (error.empty() && std::memcmp(out + position * static_cast<int64_t>(itemSize),
                                     in + flat * itemSize, itemSize) != 0)
      error = "the layout maps several elements to the same memory and the "
              "input gives them different values: element " +
              formatIndex(shape_, flat) + " is " +
              formatElement(values, flat) +
              " but another element at the same address overwrote it";
  });
  return error;
}

Array StridedBuffer::gather() const {
  Array result = zeros(dtype_, shape_);
  size_t itemSize = elementSize(dtype_);
  const uint8_t *in = static_cast<const uint8_t *>(origin());
  uint8_t *out = result.data.data();
  detail::forEachElement(shape_, strides_, [&](int64_t flat, int64_t position) {
    std::memcpy(out + flat * itemSize, in + position * static_cast<int64_t>(itemSize), itemSize);
  });
  return result;
}

} // namespace stride::runtime
