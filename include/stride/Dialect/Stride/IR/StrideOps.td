//===- StrideOps.td - Stride operations --------------------*- tablegen -*-===//

#ifndef STRIDE_DIALECT_STRIDE_IR_STRIDEOPS_TD
#define STRIDE_DIALECT_STRIDE_IR_STRIDEOPS_TD

include "stride/Dialect/Stride/IR/StrideDialect.td"
include "stride/Dialect/Stride/IR/StrideAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Stride_Scalar : AnyTypeOf<[AnyInteger, AnyFloat], "integer or float scalar">;
def Stride_Tensor : TensorOf<[AnyInteger, AnyFloat]>;
def Stride_TensorOrScalar : AnyTypeOf<[Stride_Tensor, Stride_Scalar],
                                      "tensor or scalar">;

//===----------------------------------------------------------------------===//
// Base classes
//===----------------------------------------------------------------------===//

class Stride_Op<string mnemonic, list<Trait> traits = []>
    : Op<Stride_Dialect, mnemonic, traits>;

// Named elementwise ops: sugar for a one-op stride.broadcast. They share the
// broadcasting verifier and the scalar body used by stride-generalize.
class Stride_ElementwiseOp<string mnemonic, list<Trait> traits = []>
    : Stride_Op<mnemonic, !listconcat(traits, [Pure])> {
  let results = (outs Stride_Tensor:$result);
  let hasVerifier = 1;
}

class Stride_UnaryOp<string mnemonic, string meaning, string numpy>
    : Stride_ElementwiseOp<mnemonic> {
  let summary = meaning # ", elementwise";
  let description = "Computes " # meaning # " of every element, like NumPy's `"
    # numpy # "`. A scalar operand gives a 0-d result. Sugar for a one-op "
    # "`stride.broadcast`.\n\nExample:\n\n```mlir\n%r = stride." # mnemonic
    # " %x : tensor<4x?xf32> -> tensor<4x?xf32>\n```";
  let arguments = (ins Stride_TensorOrScalar:$operand);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
}

class Stride_BinaryOp<string mnemonic, string meaning, string numpy>
    : Stride_ElementwiseOp<mnemonic> {
  let summary = meaning # ", elementwise with broadcasting";
  let description = "Computes " # meaning # " elementwise, like NumPy's `"
    # numpy # "`. Operands broadcast by NumPy's rule (right-aligned; sizes equal"
    # " or one of them 1); either may be a scalar. Both have the same element "
    # "type. Sugar for a one-op `stride.broadcast`.\n\nExample:\n\n```mlir\n"
    # "%r = stride." # mnemonic # " %a, %b : tensor<2x1x4xf32>, tensor<3x1xf32>"
    # " -> tensor<2x3x4xf32>\n```";
  let arguments = (ins Stride_TensorOrScalar:$lhs, Stride_TensorOrScalar:$rhs);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Unary and binary ops
//===----------------------------------------------------------------------===//

def Stride_NegOp : Stride_UnaryOp<"neg", "the negation", "numpy.negative">;
def Stride_AbsOp : Stride_UnaryOp<"abs", "the absolute value", "numpy.abs">;
def Stride_ExpOp : Stride_UnaryOp<"exp", "the exponential", "numpy.exp">;
def Stride_LogOp : Stride_UnaryOp<"log", "the natural logarithm", "numpy.log">;
def Stride_SqrtOp : Stride_UnaryOp<"sqrt", "the square root", "numpy.sqrt">;
def Stride_TanhOp : Stride_UnaryOp<"tanh", "the hyperbolic tangent",
                                   "numpy.tanh">;
def Stride_SigmoidOp : Stride_UnaryOp<"sigmoid", "the logistic function",
                                      "torch.sigmoid">;

def Stride_AddOp : Stride_BinaryOp<"add", "the sum", "numpy.add">;
def Stride_SubOp : Stride_BinaryOp<"sub", "the difference", "numpy.subtract">;
def Stride_MulOp : Stride_BinaryOp<"mul", "the product", "numpy.multiply">;
def Stride_DivOp : Stride_BinaryOp<"div", "the quotient (truncating for integers)",
                                   "numpy.divide">;
def Stride_MaximumOp : Stride_BinaryOp<"maximum",
    "the larger value, propagating NaN", "numpy.maximum">;
def Stride_MinimumOp : Stride_BinaryOp<"minimum",
    "the smaller value, propagating NaN", "numpy.minimum">;
def Stride_PowOp : Stride_BinaryOp<"pow", "the power", "numpy.power">;

def Stride_CmpOp : Stride_ElementwiseOp<"cmp"> {
  let summary = "elementwise comparison with broadcasting";
  let description = [{
    Compares two operands elementwise with `predicate` (`eq ne lt le gt ge`)
    and yields `i1`, like NumPy's comparison ufuncs. Operands broadcast by
    NumPy's rule and have the same element type; integers compare signed,
    floats ordered (any comparison with NaN is false except `ne`).

    Example:

    ```mlir
    %m = stride.cmp lt, %a, %b : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xi1>
    ```
  }];
  let arguments = (ins Stride_CmpPredicateAttr:$predicate,
                       Stride_TensorOrScalar:$lhs, Stride_TensorOrScalar:$rhs);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->`
    type($result)
  }];
}

def Stride_SelectOp : Stride_ElementwiseOp<"select"> {
  let summary = "elementwise choice between two operands (where)";
  let description = [{
    Yields `true_value` where `condition` is true and `false_value` elsewhere,
    like `numpy.where(condition, x, y)`. The three operands broadcast together
    by NumPy's rule; the condition has element type `i1` and the two values the
    result's element type.

    Example:

    ```mlir
    %r = stride.select %c, %a, %b : tensor<4x1xi1>, tensor<3xf32>, f32 -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Stride_TensorOrScalar:$condition,
                       Stride_TensorOrScalar:$true_value,
                       Stride_TensorOrScalar:$false_value);
  let assemblyFormat = [{
    $condition `,` $true_value `,` $false_value attr-dict `:` type($condition)
    `,` type($true_value) `,` type($false_value) `->` type($result)
  }];
}

def Stride_CastOp : Stride_ElementwiseOp<"cast"> {
  let summary = "elementwise conversion of the element type";
  let description = [{
    Converts every element to the result's element type, like
    `numpy.ndarray.astype` with `casting='unsafe'`: floats to integers truncate
    toward zero, integers are sign-extended or truncated, and conversions to
    `i1` test for nonzero while `i1` converts to 0 or 1. The shape is unchanged.

    Example:

    ```mlir
    %r = stride.cast %a : tensor<4x3xi32> -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Stride_TensorOrScalar:$operand);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
}

//===----------------------------------------------------------------------===//
// stride.broadcast
//===----------------------------------------------------------------------===//

def Stride_BroadcastOp : Stride_Op<"broadcast", [
    AttrSizedOperandSegments,
    SingleBlockImplicitTerminator<"YieldOp">,
    RecursiveMemoryEffects]> {
  let summary = "fused elementwise computation over broadcast operands";
  let description = [{
    Applies the scalar computation in its region to every element of the
    broadcast of its `ins` operands, like Julia's `Broadcasted` object
    materialized by `materialize` (or `materialize!` when destinations are
    given). Operands broadcast by NumPy's rule; a scalar operand may appear
    anywhere, the first position included. The region's block takes one scalar
    per `ins` operand (its element type) and yields one scalar per result with
    `stride.yield`. Every operand is read once per element and the region runs
    once per element.

    With `outs`, each result is written into the corresponding destination
    tensor, which must already have the result's type (shape and layout): the
    result keeps the destination's strides.

    The optional `iteration` attribute, set by `stride-coalesce`, lists the
    loops from outermost to innermost; each loop covers a group of result
    dimensions (outer to inner) that are contiguous in every operand.

    Example:

    ```mlir
    %r = stride.broadcast ins(%x, %c : tensor<4x3xf32>, f32) -> tensor<4x3xf32> {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      stride.yield %s : f32
    }
    ```
  }];
  let arguments = (ins Variadic<Stride_TensorOrScalar>:$inputs,
                       Variadic<Stride_Tensor>:$inits,
                       OptionalAttr<ArrayAttr>:$iteration);
  let results = (outs Variadic<Stride_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`ins` `(` $inputs^ `:` type($inputs) `)`)?
    (`outs` `(` $inits^ `:` type($inits) `)`)?
    `->` type($results) attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes,
                   "::mlir::ValueRange":$inputs, "::mlir::ValueRange":$inits)>
  ];
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    /// The loops set by stride-coalesce, outermost first, each a group of
    /// result dims; empty when unset.
    ::llvm::SmallVector<::llvm::SmallVector<int64_t>> getIterationGroups();
  }];
}

def Stride_YieldOp : Stride_Op<"yield", [Pure, Terminator,
    HasParent<"BroadcastOp">, ReturnLike]> {
  let summary = "yields the scalar results of a stride.broadcast body";
  let description = [{
    Terminates the body of `stride.broadcast` with one scalar per result.

    Example:

    ```mlir
    stride.yield %s : f32
    ```
  }];
  let arguments = (ins Variadic<Stride_Scalar>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let builders = [OpBuilder<(ins), [{ /* nothing to yield */ }]>];
}

//===----------------------------------------------------------------------===//
// stride.matmul
//===----------------------------------------------------------------------===//

def Stride_MatmulOp : Stride_Op<"matmul", [Pure]> {
  let summary = "matrix product with NumPy matmul semantics";
  let description = [{
    The matrix product of `lhs` and `rhs` following `numpy.matmul` /
    `torch.matmul`: 1-D operands are promoted (a vector on the left gets a
    leading 1, on the right a trailing 1, removed from the result); the last
    two dimensions are multiplied; the leading (batch) dimensions broadcast by
    NumPy's rule and broadcast batches are addressed with stride 0, never
    materialized (burn#1679). 0-d operands are invalid. Both operands and the
    result have the same element type.

    Example:

    ```mlir
    %c = stride.matmul %a, %b : tensor<3x1x2x4xf32>, tensor<1x5x4x6xf32>
                             -> tensor<3x5x2x6xf32>
    ```
  }];
  let arguments = (ins Stride_Tensor:$lhs, Stride_Tensor:$rhs);
  let results = (outs Stride_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

#endif // STRIDE_DIALECT_STRIDE_IR_STRIDEOPS_TD
