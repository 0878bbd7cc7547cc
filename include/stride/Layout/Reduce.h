//===- Reduce.h - Shapes and strides of reduction results -------*- C++ -*-===//
//
// Which shape and strides the result of a reduction (sum, prod, amax, amin,
// mean, argmax, argmin, any, all) gets, as the eager libraries allocate it:
//
//  * Torch / Contiguous - PyTorch allocates reduction results contiguous
//                 (row-major, size-1 dims at their inner neighbour's extent).
//  * Numpy      - the ufunc reductions (add.reduce, ...) allocate through
//                 nditer in order K: the kept dims (and, with keepdims, the
//                 size-1 reduced ones) are laid out in the input's axis
//                 order, nditer's stable sort by |stride| that treats size-1
//                 dims as stride 0 (ambiguous); an empty result gets all-zero
//                 strides. argmax/argmin copy the input with the axis moved
//                 last and allocate their result C-contiguous (an empty one
//                 with all-zero strides too).
//
// All strides are in elements. No MLIR types in the interface.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_LAYOUT_REDUCE_H
#define STRIDE_LAYOUT_REDUCE_H

#include "stride/Layout/Shape.h"
#include "stride/Layout/Strides.h"

#include <optional>
#include <string>
#include <vector>

namespace stride::layout {

/// The axes a reduction over `rank` dims reduces, as flags per dim:
/// `axes` absent means all; negative axes count from the end. A 0-d input
/// accepts axis 0 and -1 (PyTorch's scalar wrapping) and reduces nothing.
/// On an out-of-range or repeated axis, returns std::nullopt and sets
/// `error` to a lower-case sentence naming it.
std::optional<std::vector<bool>>
reducedAxes(int64_t rank, const std::optional<std::vector<int64_t>> &axes,
            std::string &error);

/// The result shape: the reduced dims removed, or size 1 with `keepdims`.
/// Sizes may be kDynamic.
Shape reduceShape(const Shape &input, const std::vector<bool> &reduced,
                  bool keepdims);

/// The result strides of a reduction of `input` (concrete sizes and
/// strides) over the `reduced` dims. `indexResult` is argmax/argmin, which
/// NumPy computes on a contiguous copy and allocates C-contiguous (all-zero
/// strides too when the result is empty).
Strides reduceOutputStrides(Policy policy, const Operand &input,
                            const std::vector<bool> &reduced, bool keepdims,
                            bool indexResult);

/// NumPy's nditer axis order of `shape`/`strides` (size-1 dims as stride 0,
/// stable insertion sort by |stride|), innermost dim first.
std::vector<int64_t> numpyReduceAxisOrder(const Shape &shape,
                                          const Strides &strides);

} // namespace stride::layout

#endif // STRIDE_LAYOUT_REDUCE_H
