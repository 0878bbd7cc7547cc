//===- Coalesce.h - Loop order and dimension coalescing ---------*- C++ -*-===//
//
// How a kernel walks memory: PyTorch TensorIterator's loop order (its
// reorder_dimensions) followed by its coalesce_dimensions, which merges
// neighbouring loops that every operand steps through contiguously. Fewer,
// longer loops mean less index arithmetic and longer vectorizable inner runs.
//
// Coalescing never changes which element pairs with which, so results (and
// the output strides chosen in Strides.h) are unaffected.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_LAYOUT_COALESCE_H
#define STRIDE_LAYOUT_COALESCE_H

#include "stride/Layout/Strides.h"

namespace stride::layout {

/// Each input's strides right-aligned to `outShape`'s rank, with stride 0 for
/// dims the input lacks and for its size-1 dims that are stretched to a
/// different size. A size-1 dim that stays size 1 keeps its stride, because
/// TensorIterator's ordering looks at it.
std::vector<Strides> broadcastStrides(const std::vector<Operand> &inputs,
                                      const Shape &outShape);

/// TensorIterator's reorder_dimensions: the dims of `shape` in loop order,
/// INNERMOST FIRST. Operands are compared in the order given (outputs first
/// when there are outputs); each must already be broadcast to `shape`.
/// Starting from reverse C order, an insertion sort puts smaller strides
/// inner: stride 0 compares equal to anything, the first operand whose
/// strides differ decides, equal strides put the smaller size inner (else
/// later operands are asked), and an undecided comparison does not stop the
/// scan.
std::vector<int64_t> iterationOrder(const Shape &shape,
                                    const std::vector<Strides> &operandStrides);

struct IterationSpace {
  /// Loop sizes, INNERMOST FIRST (TensorIterator's order).
  Shape sizes;
  /// Per operand (in the order given), its element stride for each loop,
  /// innermost first.
  std::vector<Strides> strides;
  /// Per loop, the original dims it covers, innermost first within the loop.
  std::vector<std::vector<int64_t>> dims;
};

/// Loop nest for an elementwise kernel. `operandStrides` lists the outputs
/// first, then the inputs, all broadcast to `outShape`'s rank (broadcast dims
/// have stride 0; see broadcastStrides). The loops follow iterationOrder, then
/// adjacent loops merge when either has size 1 or every operand satisfies
/// stride[inner] * size[inner] == stride[outer]. Zero-size dims are kept
/// (as TensorIterator does), so such a nest simply runs no iterations. A
/// rank-0 shape gives no loops: the body runs once.
IterationSpace coalesce(const Shape &outShape,
                        const std::vector<Strides> &operandStrides);

} // namespace stride::layout

#endif // STRIDE_LAYOUT_COALESCE_H
