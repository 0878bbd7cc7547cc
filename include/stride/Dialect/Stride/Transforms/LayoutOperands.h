//===- LayoutOperands.h - What an op's result layout is decided from ------===//
//
// Shared by stride-propagate-layout, which decides result layouts, and by
// stride-compile's layout graph, which records the same decisions for the
// runtime: both must see the same operands, the same conversions and the
// same cast-or-copy ops.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_DIALECT_STRIDE_TRANSFORMS_LAYOUTOPERANDS_H
#define STRIDE_DIALECT_STRIDE_TRANSFORMS_LAYOUTOPERANDS_H

#include "stride/Layout/Strides.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

namespace mlir::stride {

/// The values an elementwise op's result layout is decided from, one per
/// operand, and whether the op converts each inside its loop (NumPy's
/// `Operand::converted`).
struct LayoutOperands {
  SmallVector<Value> values;
  SmallVector<bool> converted;
};

/// The operands an op's layout is decided from. A `stride.cast` marked
/// `stride.promotion` is the op's own type promotion (NumPy 1.24's rules).
/// Under numpy the ufunc loop converts inside the loop, so the layout comes
/// from the uncast value. PyTorch's TensorIterator instead converts, with
/// `.to()` (on the CPU), exactly the inputs whose dtype is not its own
/// common dtype (torch.result_type) and decides from the converted tensors:
/// under torch a promotion cast is kept (it is laid out by copyLikeStrides)
/// when PyTorch would convert that input too, and seen through when its
/// source already has PyTorch's common dtype (float32 + int32 is float64
/// under NumPy's rules, float32 under PyTorch's: PyTorch converts only the
/// int32 input).
LayoutOperands layoutOperands(::stride::layout::Policy policy,
                              ValueRange operands);

/// A cast, or a stride.broadcast that yields its one input unchanged (a
/// copy): the eager libraries allocate these like their input (astype,
/// `.to()`, copy, clone), not like an elementwise op's result.
bool isCastOrCopy(Operation *op);

} // namespace mlir::stride

#endif // STRIDE_DIALECT_STRIDE_TRANSFORMS_LAYOUTOPERANDS_H
