//===- StridedBuffer.h - Arrays in arbitrary strided layouts ----*- C++ -*-===//
//
// Kernels take strided memref descriptors (allocated pointer, aligned
// pointer, offset, sizes, strides), so the runner must be able to hand them
// inputs and outputs in any layout a user asks for: permuted, sliced with
// gaps, broadcast (stride 0) or reversed (negative strides). A StridedBuffer
// owns such storage and moves logical values in and out of it.
//
// Unused elements of the allocation hold a sentinel (NaN for floats, 0x5A
// bytes otherwise), so a kernel that reads or writes outside its layout shows
// up as a visible wrong value instead of passing by luck.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_RUNTIME_STRIDEDBUFFER_H
#define STRIDE_RUNTIME_STRIDEDBUFFER_H

#include "stride/Runtime/Npy.h"

#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace stride::runtime {

/// Row-major element strides as torch.empty(shape).stride(): innermost 1,
/// each size multiplying in as max(size, 1). Precondition: the product of
/// max(size, 1) fits in int64_t.
std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape);

/// "[4, 1, -2]".
std::string formatStrides(const std::vector<int64_t> &strides);

class StridedBuffer {
public:
  /// Allocates the smallest 64-byte aligned block that holds every position
  /// of (shape, strides) and fills it with the sentinel. Errors: rank
  /// mismatch, negative sizes, a span or total size that overflows 64 bits,
  /// and allocation failure.
  static std::variant<StridedBuffer, std::string>
  create(ElementType dtype, std::vector<int64_t> shape,
         std::vector<int64_t> strides);

  /// create() with the dtype and shape of `values`, then fill(values).
  static std::variant<StridedBuffer, std::string>
  createFilled(const Array &values, std::vector<int64_t> strides);

  StridedBuffer(StridedBuffer &&) noexcept = default;
  StridedBuffer &operator=(StridedBuffer &&) noexcept = default;
  // Copies would silently duplicate possibly large storage; none is needed.
  StridedBuffer(const StridedBuffer &) = delete;
  StridedBuffer &operator=(const StridedBuffer &) = delete;

  ElementType dtype() const { return dtype_; }
  const std::vector<int64_t> &shape() const { return shape_; }
  const std::vector<int64_t> &strides() const { return strides_; }

  /// Start of the allocation (never null, even for zero-size arrays).
  void *allocated() { return storage_.get(); }
  const void *allocated() const { return storage_.get(); }
  /// Same as allocated(): the allocation itself is 64-byte aligned.
  void *aligned() { return storage_.get(); }
  const void *aligned() const { return storage_.get(); }
  /// Element offset of logical element [0, ..., 0] from aligned(). Positive
  /// when some stride is negative, since those dims walk back towards
  /// aligned(); 0 for arrays with no elements.
  int64_t offset() const { return offset_; }
  /// Elements in the allocation (the span of the layout); 0 when the shape
  /// has a zero-size dim.
  int64_t allocatedElements() const { return span_; }
  /// Address of logical element [0, ..., 0]: aligned() + offset() elements.
  void *origin();
  const void *origin() const;

  /// Copies the logical values of a C-order Array of the same dtype and shape
  /// into their strided positions. A dim with stride 0 and size > 1 holds
  /// one value per slice, so values along it must be equal; more generally
  /// elements that the strides map to the same memory must agree. On error
  /// the buffer's contents are unspecified.
  std::string fill(const Array &values);

  /// The logical values, as a C-order Array.
  Array gather() const;

private:
  struct Free {
    void operator()(uint8_t *p) const;
  };

  StridedBuffer() = default;

  ElementType dtype_ = ElementType::F32;
  std::vector<int64_t> shape_, strides_;
  std::unique_ptr<uint8_t, Free> storage_;
  int64_t offset_ = 0;
  int64_t span_ = 0;
};

} // namespace stride::runtime

#endif // STRIDE_RUNTIME_STRIDEDBUFFER_H
