//===- LayoutRule.h - How an op's result layouts are decided ----*- C++ -*-===//
//
// The answer of LayoutRuleOpInterface: which of the eager libraries' rules
// lays out an op's results, and which operands it reads. stride-propagate-
// layout decides result layouts by it, and stride-compile's layout graph
// records the same rule for the runtime, so the two cannot disagree on an
// op.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_DIALECT_STRIDE_IR_LAYOUTRULE_H
#define STRIDE_DIALECT_STRIDE_IR_LAYOUTRULE_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::stride {

enum class LayoutRuleKind {
  /// Broadcast the operands; the policy's elementwise strides
  /// (layout::computeOutputStrides, NumPy's ufunc loop).
  Elementwise,
  /// Like Elementwise, as np.where (no NumPy trivial loop).
  Where,
  /// A cast or copy of one operand: allocated like it (copyLikeStrides).
  Copy,
  /// A matrix product (matmulShape, matmulOutputStrides).
  Matmul,
  /// A reduction over the op's axes (reduceShape, reduceOutputStrides).
  Reduce,
  /// A view of the operand, or the copy its library makes (lib/Layout/Views).
  View,
  /// The results are the operands (destinations): their strides are kept.
  Destination,
};

struct LayoutRule {
  LayoutRuleKind kind = LayoutRuleKind::Elementwise;
  /// The values the rule reads.
  SmallVector<Value> operands;
};

} // namespace mlir::stride

#endif // STRIDE_DIALECT_STRIDE_IR_LAYOUTRULE_H
