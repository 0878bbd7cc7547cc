//===- ReduceOps.h - Helpers shared by the Stride reductions ----*- C++ -*-===//
//
// Included by StrideOps.h before the generated op classes: the reduction
// ops (StrideReduceOps.td) name ReduceKind and these functions.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_DIALECT_STRIDE_IR_REDUCEOPS_H
#define STRIDE_DIALECT_STRIDE_IR_REDUCEOPS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

#include <optional>

namespace mlir::stride {

/// The named reductions.
enum class ReduceKind { Sum, Prod, Max, Min, Mean, Argmax, Argmin, Any, All };

/// The op's name without the dialect ("sum", "amax", ...).
StringRef reduceKindName(ReduceKind kind);

/// The inverse of reduceKindName; std::nullopt for any other name.
std::optional<ReduceKind> parseReduceKind(StringRef name);

/// The kind of a named reduction op, or std::nullopt for any other op
/// (stride.map_reduce included: its first operand is not the reduced
/// tensor).
std::optional<ReduceKind> getReduceKind(Operation *op);
inline bool isReduction(Operation *op) {
  return op && getReduceKind(op).has_value();
}

/// The element type a reduction of `kind` gives for input elements `input`
/// (the one both libraries agree on; mean of integers is NumPy's f64).
Type reduceResultElementType(ReduceKind kind, Type input);

/// Per input dim, whether a reduction op reduces it (its `axes`, or all);
/// for stride.map_reduce, per dim of its `mapped` type. Null when the input
/// is unranked or the axes are invalid.
std::optional<SmallVector<bool>> getReducedDims(Operation *op);
bool getKeepdims(Operation *op);

/// The shared verifier of the reduction ops.
LogicalResult verifyReduceOp(Operation *op);

/// The result type of a reduction (dynamic dims where the input has them),
/// null when the input is unranked, failure after a diagnostic when the
/// axes are invalid.
FailureOr<RankedTensorType> inferReduceResult(Operation *op);

} // namespace mlir::stride

#endif // STRIDE_DIALECT_STRIDE_IR_REDUCEOPS_H
