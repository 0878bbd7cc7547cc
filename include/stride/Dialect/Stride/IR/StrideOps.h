//===- StrideOps.h - Stride operations --------------------------*- C++ -*-===//

#ifndef STRIDE_DIALECT_STRIDE_IR_STRIDEOPS_H
#define STRIDE_DIALECT_STRIDE_IR_STRIDEOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "stride/Dialect/Stride/IR/LayoutRule.h"
#include "stride/Dialect/Stride/IR/ReduceOps.h"
#include "stride/Dialect/Stride/IR/StrideAttrs.h"
#include "stride/Dialect/Stride/IR/StrideDialect.h"
#include "stride/Layout/Views.h"

#include "stride/Dialect/Stride/IR/StrideInterfaces.h.inc"

namespace mlir::stride {
/// The verifier the named elementwise ops generate from their element rule
/// (StrideOps.td): the operands share one element type, which is the
/// result's (or, for a `predicate`, the result is i1); `accepts` holds for
/// it (else "requires <what> element type"); the shapes broadcast.
LogicalResult verifyElementwiseOp(Operation *op, bool predicate,
                                  function_ref<bool(Type)> accepts,
                                  StringRef what);

/// The view ops' shape rule and verifier (ViewOps.cpp): the result shape
/// the operand's shape and the op's attributes give (null when the operand
/// is unranked), failure after a diagnostic when the library would refuse
/// whatever the policy.
FailureOr<RankedTensorType> inferViewResult(Operation *op);
LogicalResult verifyViewOp(Operation *op);
} // namespace mlir::stride

#define GET_OP_CLASSES
#include "stride/Dialect/Stride/IR/StrideOps.h.inc"

namespace mlir::stride {
/// True for the named elementwise ops (neg ... cast), the sugar forms of a
/// one-op stride.broadcast: the ops with a ScalarBodyOpInterface.
bool isNamedElementwise(Operation *op);

/// Replaces named op `named` by the one-op stride.broadcast it is sugar for
/// (its scalar body in the region, its discardable attributes kept), and
/// returns it: what stride-generalize does, and what the named ops'
/// bufferization model does first.
BroadcastOp generalizeNamedOp(RewriterBase &rewriter,
                              ScalarBodyOpInterface named);

/// A one-op stride.broadcast of `value` whose body yields its input, of
/// result type `type`, into `inits` when given (a destination).
Value buildCopyOp(OpBuilder &b, Location loc, Value value, Type type,
                  ValueRange inits);

/// Copies `value` into a new tensor of `type` (the same shape, any layout):
/// a one-op stride.broadcast into a tensor.empty destination.
Value buildCopy(OpBuilder &b, Location loc, Value value,
                RankedTensorType type);

/// Copies `value` into a new tensor whose layout stride-propagate-layout
/// decides, as the policy's library lays out a copy (np.copy, clone): a
/// one-op stride.broadcast without destination.
Value buildClone(OpBuilder &b, Location loc, Value value);

/// The result element type and broadcast shape rule shared by the verifiers
/// and stride-infer-shapes. Returns the inferred ranked result type (dynamic
/// dims where unknown), null when an operand is unranked, or failure after
/// emitting a diagnostic on `op` when static shapes are incompatible.
FailureOr<RankedTensorType> inferElementwiseResult(Operation *op,
                                                   ValueRange operands,
                                                   Type elementType);
FailureOr<RankedTensorType> inferMatmulResult(MatmulOp op);

/// True for the view ops (StrideViewOps.td): permute, transpose, slice,
/// expand, squeeze, unsqueeze, flip, reshape.
bool isViewOp(Operation *op);
/// The view `op` (a view op) computes under `policy` for an operand of
/// `shape` and `strides`: its shape, strides, offset from the operand's
/// first element, and whether it is a view or a copy.
::stride::layout::ViewResult computeView(Operation *op,
                                         ::stride::layout::Policy policy,
                                         const ::stride::layout::Shape &shape,
                                         const ::stride::layout::Strides &strides);
/// The view of a value of type `type` (its static shape and strides, its
/// layout's offset) under `policy`, with the result's offset counted from
/// the start of the buffer `type` views.
::stride::layout::ViewResult computeViewOfType(Operation *op,
                                               ::stride::layout::Policy policy,
                                               RankedTensorType type);
} // namespace mlir::stride

#endif // STRIDE_DIALECT_STRIDE_IR_STRIDEOPS_H
