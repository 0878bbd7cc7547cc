//===- StrideInterfaces.td - Stride op interfaces ----------*- tablegen -*-===//

#ifndef STRIDE_DIALECT_STRIDE_IR_STRIDEINTERFACES_TD
#define STRIDE_DIALECT_STRIDE_IR_STRIDEINTERFACES_TD

include "mlir/IR/OpBase.td"

def Stride_InferResultShapeOpInterface
    : OpInterface<"InferResultShapeOpInterface"> {
  let description = [{
    An op whose result shape follows from its operands' shapes by a fixed rule
    (NumPy broadcasting, NumPy matmul). The verifiers and
    `stride-infer-shapes` ask the op for the rule instead of switching on op
    kinds.
  }];
  let cppNamespace = "::mlir::stride";
  let methods = [
    InterfaceMethod<[{
        The result shape the operands give, with dynamic dims where unknown
        (the element type is the first result's). Null when an operand is
        unranked; failure, after a diagnostic on the op, when the operands'
        static shapes are incompatible.
      }],
      "::mlir::FailureOr<::mlir::RankedTensorType>", "inferResultShape">,
    InterfaceMethod<[{
        The operands whose shapes the rule reads: all operands, except for
        `stride.broadcast`, whose `ins` broadcast and whose `outs` are
        destinations.
      }],
      "::mlir::ValueRange", "getBroadcastOperands", (ins), [{}], [{
        return $_op->getOperands();
      }]>,
    InterfaceMethod<[{
        The destinations whose types fix the results' types (the `outs` of
        `stride.broadcast`); empty otherwise.
      }],
      "::mlir::ValueRange", "getDestinations", (ins), [{}], [{
        return ::mlir::ValueRange();
      }]>,
  ];
}

def Stride_ScalarBodyOpInterface : OpInterface<"ScalarBodyOpInterface"> {
  let description = [{
    A named elementwise op: sugar for a one-op `stride.broadcast` whose body
    is the scalar computation this interface builds. `stride-generalize` and
    the lowering call it instead of switching on op kinds.
  }];
  let cppNamespace = "::mlir::stride";
  let methods = [
    InterfaceMethod<[{
        Emits the scalar computation on `scalars` (one per operand, of the
        operands' element types) at the builder's position and returns the
        value of the result's element type.
      }],
      "::mlir::Value", "buildScalarBody",
      (ins "::mlir::OpBuilder &":$b, "::mlir::Location":$loc,
           "::mlir::ValueRange":$scalars)>,
    StaticInterfaceMethod<[{
        The name of the NumPy ufunc the op implements (`exp`, `add`,
        `logical_not`), by which front ends reach it; empty for an op that
        front ends reach by a function of their own (`clip`, `cmp`,
        `select`, `cast`).
      }],
      "::llvm::StringRef", "getUfuncName">,
    StaticInterfaceMethod<[{
        The NumPy ufunc whose type resolution (`ufunc.resolve_dtypes`)
        gives the op's dtypes under NumPy's rules: the op's own ufunc, or a
        relative for an op NumPy lacks (`sigmoid` follows `exp`).
      }],
      "::llvm::StringRef", "getDtypeUfuncName">,
    StaticInterfaceMethod<[{
        The number of operands.
      }],
      "unsigned", "getArity">,
    StaticInterfaceMethod<[{
        Whether the operands may have element type `type`.
      }],
      "bool", "acceptsElementType", (ins "::mlir::Type":$type)>,
    StaticInterfaceMethod<[{
        The result's element type: `same` (the operands'), `i1`, or
        `custom` (decided by the op's own rule, as for `stride.cast`).
      }],
      "::llvm::StringRef", "getResultElementRule">,
  ];
}

def Stride_LayoutRuleOpInterface : OpInterface<"LayoutRuleOpInterface"> {
  let description = [{
    An op whose results' layouts follow from its operands' by one of the
    eager libraries' rules (`LayoutRuleKind`: elementwise, where, copy,
    matmul, reduce, view, destination). `stride-propagate-layout` decides
    layouts by the rule, and `stride-compile` records the same rule in an
    entry's layout graph for the runtime, so the two agree on every op.
  }];
  let cppNamespace = "::mlir::stride";
  let methods = [
    InterfaceMethod<[{
        The rule that lays out the op's results and the values it reads.
      }],
      "::mlir::stride::LayoutRule", "getLayoutRule">,
  ];
}

#endif // STRIDE_DIALECT_STRIDE_IR_STRIDEINTERFACES_TD
