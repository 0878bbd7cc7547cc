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
#include "llvm/ADT/DenseMap.h"

namespace mlir::stride {
/// Stride's layout algebra (lib/Layout), by its short name in the passes.
namespace layout = ::stride::layout;

/// The values an elementwise op's result layout is decided from, one per
/// operand; whether the op converts each inside its loop (NumPy's
/// `Operand::converted`); and whether each is first converted by a copy,
/// i.e. laid out by copyLikeStrides before the op decides (PyTorch's
/// `.to()`).
struct LayoutOperands {
  SmallVector<Value> values;
  SmallVector<bool> converted;
  SmallVector<bool> copied;
};

/// The element types PyTorch would give the values of a function, which
/// differ from Stride's (NumPy 1.24's) where promotion rules differ: int32 +
/// float32 is float32 in PyTorch, float64 in NumPy, and so is everything
/// computed from it. Which inputs PyTorch converts, and hence the layouts it
/// picks, follow these types. Memoized; values are resolved without
/// recursion (long chains are common).
class TorchDtypes {
public:
  /// The element type PyTorch computes `value` in.
  Type get(Value value);
  /// torch.result_type of values (dimensioned tensors first, then 0-d
  /// tensors, then scalars as PyTorch's wrapped numbers), or null when some
  /// element type is not an integer or float.
  Type common(ValueRange values);

private:
  Type compute(Value value);
  llvm::DenseMap<Value, Type> cache;
};

/// The operands an op's layout is decided from. A `stride.cast` marked
/// `stride.promotion` is the op's own type promotion (NumPy 1.24's rules),
/// so the layout comes from the uncast value. Under numpy the ufunc loop
/// converts inside the loop (`converted`). PyTorch's TensorIterator instead
/// converts, with `.to()` (on the CPU), exactly the inputs whose PyTorch
/// dtype is not its own common dtype (torch.result_type), and decides from
/// the converted tensors (`copied`), whether or not Stride casts them.
/// `torch` memoizes PyTorch's dtypes across the ops of a function. `op`'s
/// kind matters for stride.select, whose condition PyTorch never converts.
LayoutOperands layoutOperands(::stride::layout::Policy policy, Operation *op,
                              ValueRange operands, TorchDtypes &torch);

/// A cast, or a stride.broadcast that yields its one input unchanged (a
/// copy): the eager libraries allocate these like their input (astype,
/// `.to()`, copy, clone), not like an elementwise op's result.
bool isCastOrCopy(Operation *op);

/// How NumPy runs `op`: stride.select is np.where, which has no trivial loop
/// (layout::NumpyLoop); every other elementwise op is a ufunc.
::stride::layout::NumpyLoop numpyLoopOf(Operation *op);

} // namespace mlir::stride

#endif // STRIDE_DIALECT_STRIDE_TRANSFORMS_LAYOUTOPERANDS_H
