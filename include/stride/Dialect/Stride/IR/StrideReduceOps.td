//===- StrideReduceOps.td - Stride reductions --------------*- tablegen -*-===//
//
// Reductions over some or all axes of a tensor of any layout, with NumPy's
// and PyTorch's result dtypes. Included at the end of StrideOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_DIALECT_STRIDE_IR_STRIDEREDUCEOPS_TD
#define STRIDE_DIALECT_STRIDE_IR_STRIDEREDUCEOPS_TD

// A named reduction: `input` reduced over `axes` (absent: all axes, NumPy's
// `axis=None`; negative axes count from the end), the reduced axes removed
// from the result or, with `keepdims`, kept with size 1. `meaning` is the
// summary's noun phrase, `sentence` the description's first sentence (without
// the NumPy reference), `rule` the op's own rule, `resultRule` the result's
// element type in words; `kindName` names the C++ ReduceKind.
class Stride_ReduceOp<string mnemonic, string kindName, string meaning,
                      string sentence, string numpy, string rule,
                      string resultRule, string example>
    : Stride_Op<mnemonic, [Pure,
        DeclareOpInterfaceMethods<Stride_InferResultShapeOpInterface,
            ["inferResultShape", "getBroadcastOperands"]>,
        DeclareOpInterfaceMethods<Stride_LayoutRuleOpInterface>]> {
  let summary = meaning # " over some or all axes";
  let description = sentence # ", like `" # numpy # "`. " # rule # " "
    # resultRule
    # " `axes` absent means all axes (NumPy's `axis=None`); negative axes "
    # "count from the end; a repeated or out-of-range axis is an error. The "
    # "reduced axes are removed from the result, or kept with size 1 under "
    # "`keepdims`. The result's layout is the policy's (see "
    # "`stride-propagate-layout`): PyTorch's contiguous, NumPy's the input's "
    # "memory order.\n\nExample:\n\n```mlir\n" # example # "\n```";
  let arguments = (ins Stride_Tensor:$input,
                       OptionalAttr<DenseI64ArrayAttr>:$axes,
                       UnitAttr:$keepdims);
  let results = (outs Stride_Tensor:$result);
  let assemblyFormat = [{
    $input (`axes` $axes^)? (`keepdims` $keepdims^)? attr-dict `:`
    type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  string kind = kindName;
  let extraClassDefinition =
    "::mlir::stride::ReduceKind $cppClass::getKind() {\n"
    "  return ::mlir::stride::ReduceKind::" # kindName # ";\n}\n"
    "::llvm::LogicalResult $cppClass::verify() {\n"
    "  return ::mlir::stride::verifyReduceOp(getOperation());\n}\n"
    "::mlir::FailureOr<::mlir::RankedTensorType> "
    "$cppClass::inferResultShape() {\n"
    "  return ::mlir::stride::inferReduceResult(getOperation());\n}\n"
    "::mlir::ValueRange $cppClass::getBroadcastOperands() {\n"
    "  return ::mlir::ValueRange();\n}\n"
    "::mlir::stride::LayoutRule $cppClass::getLayoutRule() {\n"
    "  return {::mlir::stride::LayoutRuleKind::Reduce, {getInput()}};\n}\n";
  let extraClassDeclaration = [{
    /// Which reduction this op is.
    static ::mlir::stride::ReduceKind getKind();
  }];
}

def Stride_SumOp : Stride_ReduceOp<"sum", "Sum", "the sum",
    "Sums the elements of `input` along `axes`", "numpy.sum",
    "Float sums are compensated (Kahan), at least as accurate as NumPy's "
    "pairwise summation; an empty sum is 0.",
    "Integers and `i1` sum to `i64` (bools count), floats keep their type.",
    "%s = stride.sum %x axes [0, -1] : tensor<4x5x6xi32> -> tensor<5xi64>">;
def Stride_ProdOp : Stride_ReduceOp<"prod", "Prod", "the product",
    "Multiplies the elements of `input` along `axes`", "numpy.prod",
    "An empty product is 1; integer products wrap.",
    "Integers and `i1` multiply to `i64`, floats keep their type.",
    "%p = stride.prod %x keepdims : tensor<4x5xf32> -> tensor<1x1xf32>">;
def Stride_AmaxOp : Stride_ReduceOp<"amax", "Max", "the maximum",
    "Takes the largest element of `input` along `axes`", "numpy.amax",
    "NaN propagates (any NaN gives NaN); an axis of size 0 is an error, as "
    "in both libraries.",
    "The result has the input's element type (`i1`: logical or).",
    "%m = stride.amax %x axes [1] keepdims : tensor<4x5xf32> -> tensor<4x1xf32>">;
def Stride_AminOp : Stride_ReduceOp<"amin", "Min", "the minimum",
    "Takes the smallest element of `input` along `axes`", "numpy.amin",
    "NaN propagates (any NaN gives NaN); an axis of size 0 is an error, as "
    "in both libraries.",
    "The result has the input's element type (`i1`: logical and).",
    "%m = stride.amin %x axes [0] : tensor<4x5xi32> -> tensor<5xi32>">;
def Stride_MeanOp : Stride_ReduceOp<"mean", "Mean", "the arithmetic mean",
    "Averages the elements of `input` along `axes`", "numpy.mean",
    "The mean is the compensated sum divided by the number of reduced "
    "elements, in the result type (an empty mean is NaN).",
    "Floats keep their type; integers and `i1` give `f64` as in NumPy (under "
    "policy `torch` that is an error, as PyTorch refuses them).",
    "%m = stride.mean %x axes [-1] : tensor<4x5xf32> -> tensor<4xf32>">;
def Stride_ArgmaxOp : Stride_ReduceOp<"argmax", "Argmax",
    "the index of the maximum",
    "Gives the index of the largest element of `input` along `axes`",
    "numpy.argmax",
    "Ties give the first index and a NaN counts as the largest (its first "
    "index); at most one axis, and without `axes` the index is into the "
    "row-major flattened input; an empty axis is an error.",
    "The result is `i64`.",
    "%i = stride.argmax %x axes [1] : tensor<4x5xf32> -> tensor<4xi64>">;
def Stride_ArgminOp : Stride_ReduceOp<"argmin", "Argmin",
    "the index of the minimum",
    "Gives the index of the smallest element of `input` along `axes`",
    "numpy.argmin",
    "Ties give the first index and a NaN counts as the smallest (its first "
    "index); at most one axis, and without `axes` the index is into the "
    "row-major flattened input; an empty axis is an error.",
    "The result is `i64`.",
    "%i = stride.argmin %x : tensor<4x5xf32> -> tensor<i64>">;
def Stride_AnyOp : Stride_ReduceOp<"any", "Any",
    "whether any element is nonzero",
    "Tests whether any element of `input` along `axes` is nonzero",
    "numpy.any", "NaN counts as nonzero; an empty `any` is false.",
    "The result is `i1`.",
    "%b = stride.any %x axes [0] : tensor<4x5xf32> -> tensor<5xi1>">;
def Stride_AllOp : Stride_ReduceOp<"all", "All",
    "whether every element is nonzero",
    "Tests whether every element of `input` along `axes` is nonzero",
    "numpy.all", "NaN counts as nonzero; an empty `all` is true.",
    "The result is `i1`.",
    "%b = stride.all %x axes [0, 1] keepdims : tensor<4x5xi32> -> tensor<1x1xi1>">;

def Stride_MapReduceOp : Stride_Op<"map_reduce", [
    SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<Stride_LayoutRuleOpInterface>]> {
  let summary = "a reduction of an elementwise computation, in one pass";
  let description = [{
    Reduces, as the named reduction `kind` does (`sum`, `prod`, `amax`,
    `amin`, `mean`, `argmax`, `argmin`, `any` or `all`; an index kind gives
    the first index of the extremum, NaN first, as NumPy's, and is lowered
    only for inputs of non-negative strides), the tensor that the region would compute
    elementwise from the broadcast of its `ins` operands, without
    materializing it: Julia's `sum(f.(x))` and `mapreduce`. `mapped` is the
    type (shape and layout) of that virtual tensor; its layout decides the
    loop order, as the named reduction's input layout does. `axes` and
    `keepdims` mean what they mean for the named reductions, and the result
    has the named reduction's shape, element type and layout. The region
    takes one scalar per `ins` operand and yields one scalar of `mapped`'s
    element type. `stride-fuse` makes this op from an elementwise
    `stride.broadcast` whose only use is a reduction; it rounds as the two ops
    did (the same float sum blocking).

    Example:

    ```mlir
    %s = stride.map_reduce "sum" ins(%x, %y : tensor<8x1024xf32>, tensor<1024xf32>)
        axes [1] mapped(tensor<8x1024xf32>) : tensor<8xf32> {
    ^bb0(%a: f32, %b: f32):
      %p = arith.mulf %a, %b : f32
      stride.yield %p : f32
    }
    ```
  }];
  let arguments = (ins StrAttr:$kind,
                       Variadic<Stride_TensorOrScalar>:$inputs,
                       OptionalAttr<DenseI64ArrayAttr>:$axes,
                       UnitAttr:$keepdims,
                       TypeAttrOf<AnyRankedTensor>:$mapped);
  let results = (outs Stride_Tensor:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $kind `ins` `(` $inputs `:` type($inputs) `)`
    (`axes` $axes^)? (`keepdims` $keepdims^)? `mapped` `(` $mapped `)` `:`
    type($result) attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
  }];
}

#endif // STRIDE_DIALECT_STRIDE_IR_STRIDEREDUCEOPS_TD
