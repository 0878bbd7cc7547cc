//===- Views.h - Shapes, strides and offsets of view operations -*- C++ -*-===//
//
// What the eager libraries give for a view of an array: its shape, element
// strides and offset (in elements, from the viewed array's first element),
// and whether the result is a view at all (a reshape may copy). One
// function per operation, with the policy deciding where PyTorch 1.13 and
// NumPy 1.24 differ (see docs/Layout.md, "Views"):
//
//  * permute / transpose / swapaxes / .T: the dims reordered, in both;
//  * slicing (start:stop:step per dim): Python's clamping; NumPy resets an
//    empty dim to start 0 and step 1, PyTorch keeps its clamped start, and
//    PyTorch refuses steps below 1;
//  * expand (torch) / broadcast_to (numpy): stretched size-1 and new dims get
//    stride 0; NumPy also zeroes the stride of a size-1 dim that stays 1;
//  * squeeze: the size-1 dims removed; unsqueeze: PyTorch's new stride is
//    size * stride of the dim it precedes (1 at the end), NumPy's
//    expand_dims is a reshape;
//  * flip: NumPy's view with negative strides; PyTorch copies (empty_like);
//  * reshape: PyTorch's view stride computation (`computeStride`) or a
//    contiguous copy; NumPy's same-shape view, C-contiguous fast path and
//    `_attempt_nocopy_reshape`, or a C-order copy.
//
// Sizes and strides may be kDynamic; what they decide is then kDynamic too
// (see each function). No MLIR types, like the rest of the layout algebra.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_LAYOUT_VIEWS_H
#define STRIDE_LAYOUT_VIEWS_H

#include "stride/Layout/Shape.h"
#include "stride/Layout/Strides.h"

#include <optional>
#include <string>
#include <vector>

namespace stride::layout {

/// The result of a view operation.
struct View {
  Shape shape;
  Strides strides;
  /// Elements from the operand's first element to the result's; kDynamic
  /// when unknown. 0 for a copy.
  int64_t offset = 0;
  /// False when the library copies: the result is a new array laid out with
  /// `strides`.
  bool isView = true;
};

struct ViewResult {
  View view;
  /// A sentence in lower case naming the operand's shape and the offending
  /// dim, ready for a diagnostic.
  std::optional<std::string> error;
  bool ok() const { return !error; }
};

/// One dim of a basic slice, Python's `start:stop:step`; a missing part is
/// std::nullopt.
struct SliceSpec {
  std::optional<int64_t> start, stop, step;
};

/// Python's slice.indices(length) followed by the length of the range:
/// (start, step, count).
struct SliceRange {
  int64_t start, step, count;
};
SliceRange resolveSlice(const SliceSpec &spec, int64_t length);

/// `x.permute(perm)` / `np.transpose(x, perm)`: result dim i is dim perm[i].
ViewResult permuteView(const Shape &shape, const Strides &strides,
                       const std::vector<int64_t> &perm);
/// `x[s0, s1, ...]` with one SliceSpec per leading dim (fewer than the rank
/// leave the other dims whole).
ViewResult sliceView(Policy policy, const Shape &shape, const Strides &strides,
                     const std::vector<SliceSpec> &slices);
/// `np.flip(x, dims)`; under torch a copy laid out like empty_like.
ViewResult flipView(Policy policy, const Shape &shape, const Strides &strides,
                    const std::vector<int64_t> &dims);
/// `x.expand(target)` / `np.broadcast_to(x, target)`; -1 keeps a size.
ViewResult expandView(Policy policy, const Shape &shape, const Strides &strides,
                      const Shape &target);
/// `x.squeeze(dims)`: every listed dim must have size 1 (or be dynamic);
/// without dims, every static size-1 dim goes.
ViewResult squeezeView(const Shape &shape, const Strides &strides,
                       const std::optional<std::vector<int64_t>> &dims);
/// `x.unsqueeze(dim)` / `np.expand_dims(x, dim)`, 0 <= dim <= rank.
ViewResult unsqueezeView(Policy policy, const Shape &shape,
                         const Strides &strides, int64_t dim);
/// `x.reshape(target)`, at most one -1.
ViewResult reshapeView(Policy policy, const Shape &shape, const Strides &strides,
                       const Shape &target);

/// The target of a reshape with its -1 resolved against `shape`'s element
/// count (kDynamic where a size is unknown), or the error both libraries
/// give.
std::optional<Shape> inferReshapeShape(const Shape &shape, const Shape &target,
                                       std::string *error);

} // namespace stride::layout

#endif // STRIDE_LAYOUT_VIEWS_H
