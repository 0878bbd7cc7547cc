//===- StrideOps.td - Stride operations --------------------*- tablegen -*-===//

#ifndef STRIDE_DIALECT_STRIDE_IR_STRIDEOPS_TD
#define STRIDE_DIALECT_STRIDE_IR_STRIDEOPS_TD

include "stride/Dialect/Stride/IR/StrideDialect.td"
include "stride/Dialect/Stride/IR/StrideAttrs.td"
include "stride/Dialect/Stride/IR/StrideInterfaces.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

// Signless integers are NumPy's signed integers (i1 its bool); unsigned
// integers (ui8 ... ui64) its unsigned ones. arith has no unsigned types:
// the scalar bodies compute on the signless integer of the same width with
// the unsigned ops, and stride-signless-integers rewrites every type to
// signless before bufferization.
def Stride_Scalar : AnyTypeOf<[AnySignlessInteger, AnyUnsignedInteger, AnyFloat],
                              "signless or unsigned integer or float scalar">;
def Stride_Tensor : TensorOf<[AnySignlessInteger, AnyUnsignedInteger, AnyFloat]>;
def Stride_TensorOrScalar : AnyTypeOf<[Stride_Tensor, Stride_Scalar],
                                      "tensor or scalar">;

//===----------------------------------------------------------------------===//
// Base classes
//===----------------------------------------------------------------------===//

class Stride_Op<string mnemonic, list<Trait> traits = []>
    : Op<Stride_Dialect, mnemonic, traits>;

// The element types a named elementwise op accepts: a C++ predicate on the
// element type `t` and the words of its diagnostic ("requires <what> element
// type, got ...").
class Stride_ElementRule<code pred, string what> {
  code predicate = pred;
  string description = what;
}
def Stride_AnyElement : Stride_ElementRule<"true", "any">;
def Stride_FloatElement : Stride_ElementRule<
    "::llvm::isa<::mlir::FloatType>(t)", "a floating-point">;
// NumPy gives int8 for these on bools, a type Stride does not have.
def Stride_NumberElement : Stride_ElementRule<
    "!t.isInteger(1)", "a non-boolean">;
def Stride_IntegerElement : Stride_ElementRule<
    "t.isSignlessInteger() || t.isUnsignedInteger()", "an integer">;
def Stride_NonBoolIntegerElement : Stride_ElementRule<
    "(t.isSignlessInteger() || t.isUnsignedInteger()) && !t.isInteger(1)",
    "a non-boolean integer">;
def Stride_BoolElement : Stride_ElementRule<"t.isInteger(1)", "an i1">;

// Named elementwise ops: sugar for a one-op stride.broadcast. Each op class
// states its scalar body (`scalarBody`, C++ with the builder `b`, the
// location `loc` and the operands' scalars `s`) and its element rule; the
// verifier, the shape rule and the body hook are generated from them.
//
// `verifyKind` is "same" (operands and result share one element type),
// "predicate" (operands share one element type, the result is i1) or
// "custom" (the op writes its own verify()).
class Stride_ElementwiseOp<string mnemonic, list<Trait> traits = []>
    : Stride_Op<mnemonic, !listconcat(traits, [Pure,
        DeclareOpInterfaceMethods<Stride_InferResultShapeOpInterface,
                                  ["inferResultShape"]>,
        DeclareOpInterfaceMethods<Stride_ScalarBodyOpInterface>,
        DeclareOpInterfaceMethods<Stride_LayoutRuleOpInterface>])> {
  let results = (outs Stride_Tensor:$result);
  let hasVerifier = 1;
  code scalarBody = ?;
  // The LayoutRuleKind that lays out the result.
  string layoutRule = "Elementwise";
  Stride_ElementRule elementRule = Stride_AnyElement;
  string verifyKind = "same";
  // The op table front ends read (ScalarBodyOpInterface's static methods):
  // the NumPy ufunc the op implements (empty: reached by a function of its
  // own), the ufunc whose dtype resolution it follows, and its arity.
  string ufunc = "";
  string dtypeUfunc = ufunc;
  int arity = ?;
  let extraClassDefinition = !if(!eq(verifyKind, "custom"), "",
    "::llvm::LogicalResult $cppClass::verify() {\n"
    "  return ::mlir::stride::verifyElementwiseOp(*this, "
    # !if(!eq(verifyKind, "predicate"), "true", "false")
    # ", &$cppClass::acceptsElementType, \"" # elementRule.description
    # "\");\n}\n")
    # "bool $cppClass::acceptsElementType(::mlir::Type t) {\n  (void)t;\n"
    # "  return " # elementRule.predicate # ";\n}\n"
    # "::llvm::StringRef $cppClass::getUfuncName() { return \"" # ufunc
    # "\"; }\n"
    # "::llvm::StringRef $cppClass::getDtypeUfuncName() { return \""
    # dtypeUfunc # "\"; }\n"
    # "unsigned $cppClass::getArity() { return " # arity # "; }\n"
    # "::llvm::StringRef $cppClass::getResultElementRule() { return \""
    # !cond(!eq(verifyKind, "predicate"): "i1", !eq(verifyKind, "same"): "same",
            true: "custom") # "\"; }\n"
    # "::mlir::Value $cppClass::buildScalarBody(::mlir::OpBuilder &b, "
    # "::mlir::Location loc, ::mlir::ValueRange s) {\n  (void)b; (void)loc; "
    # "(void)s;\n" # scalarBody # "\n}\n"
    # "::mlir::FailureOr<::mlir::RankedTensorType> "
    # "$cppClass::inferResultShape() {\n"
    # "  return ::mlir::stride::inferElementwiseResult(*this, "
    # "getOperation()->getOperands(), getType().getElementType());\n}\n"
    # "::mlir::stride::LayoutRule $cppClass::getLayoutRule() {\n"
    # "  return {::mlir::stride::LayoutRuleKind::" # layoutRule # ",\n"
    # "          ::llvm::SmallVector<::mlir::Value>(getOperation()->getOperands())};\n}\n";
}

class Stride_UnaryOp<string mnemonic, string meaning, string numpy,
                     Stride_ElementRule rule, code body>
    : Stride_ElementwiseOp<mnemonic> {
  let summary = meaning # ", elementwise";
  let description = "Computes " # meaning # " of every element, like NumPy's `"
    # numpy # "`. A scalar operand gives a 0-d result. Sugar for a one-op "
    # "`stride.broadcast`.\n\nExample:\n\n```mlir\n%r = stride." # mnemonic
    # " %x : tensor<4x?xf32> -> tensor<4x?xf32>\n```";
  let arguments = (ins Stride_TensorOrScalar:$operand);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
  let elementRule = rule;
  let scalarBody = body;
  let ufunc = !subst("numpy.", "", numpy);
  let arity = 1;
}

class Stride_BinaryOp<string mnemonic, string meaning, string numpy,
                      Stride_ElementRule rule, code body>
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
  let elementRule = rule;
  let scalarBody = body;
  let ufunc = !subst("numpy.", "", numpy);
  let arity = 2;
}

// One math-dialect op on floats.
class Stride_FloatUnaryOp<string mnemonic, string meaning, string numpy,
                          string mathOp>
    : Stride_UnaryOp<mnemonic, meaning, numpy, Stride_FloatElement,
                     "return " # mathOp # "::create(b, loc, s[0]);">;
class Stride_FloatBinaryOp<string mnemonic, string meaning, string numpy,
                           string mathOp>
    : Stride_BinaryOp<mnemonic, meaning, numpy, Stride_FloatElement,
                      "return " # mathOp # "::create(b, loc, s[0], s[1]);">;
// FloatOp on floats, IntOp on integers.
class Stride_ArithBinaryOp<string mnemonic, string meaning, string numpy,
                           string floatOp, string intOp,
                           Stride_ElementRule rule = Stride_AnyElement>
    : Stride_BinaryOp<mnemonic, meaning, numpy, rule,
                      "return buildFloatOrInt<" # floatOp # ", " # intOp
                      # ">(b, loc, s);">;
// One arith op on integers (bools included).
class Stride_IntegerBinaryOp<string mnemonic, string meaning, string numpy,
                             string intOp, Stride_ElementRule rule>
    : Stride_BinaryOp<mnemonic, meaning, numpy, rule,
                      "return buildInt<" # intOp # ">(b, loc, s);">;

// A test of every element, yielding i1.
class Stride_PredicateOp<string mnemonic, string meaning, string numpy,
                         code body>
    : Stride_ElementwiseOp<mnemonic> {
  let summary = "whether each element " # meaning;
  let description = "Yields `true` where the element " # meaning # ", like "
    # "NumPy's `" # numpy # "`. The operand may have any element type "
    # "(integers are always finite); the result is `i1`. Sugar for a one-op "
    # "`stride.broadcast`.\n\nExample:\n\n```mlir\n%m = stride." # mnemonic
    # " %x : tensor<4x?xf32> -> tensor<4x?xi1>\n```";
  let arguments = (ins Stride_TensorOrScalar:$operand);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
  let verifyKind = "predicate";
  let scalarBody = body;
  let ufunc = !subst("numpy.", "", numpy);
  let arity = 1;
}

//===----------------------------------------------------------------------===//
// Unary and binary ops
//===----------------------------------------------------------------------===//

def Stride_NegOp : Stride_UnaryOp<"neg", "the negation", "numpy.negative",
    Stride_NumberElement, "return buildNegate(b, loc, s[0]);">;
def Stride_AbsOp : Stride_UnaryOp<"abs", "the absolute value", "numpy.abs",
    Stride_AnyElement, "return buildAbs(b, loc, s[0]);">;
def Stride_ExpOp : Stride_FloatUnaryOp<"exp", "the exponential", "numpy.exp",
                                       "math::ExpOp">;
def Stride_LogOp : Stride_FloatUnaryOp<"log", "the natural logarithm",
                                       "numpy.log", "math::LogOp">;
def Stride_SqrtOp : Stride_FloatUnaryOp<"sqrt", "the square root",
                                        "numpy.sqrt", "math::SqrtOp">;
def Stride_TanhOp : Stride_FloatUnaryOp<"tanh", "the hyperbolic tangent",
                                        "numpy.tanh", "math::TanhOp">;
def Stride_SigmoidOp : Stride_UnaryOp<"sigmoid", "the logistic function",
    "torch.sigmoid", Stride_FloatElement, "return buildSigmoid(b, loc, s[0]);"> {
  // NumPy has no sigmoid ufunc; its dtypes are exp's.
  let ufunc = "";
  let dtypeUfunc = "exp";
}

def Stride_AddOp : Stride_BinaryOp<"add",
    "the sum (for i1 the logical or, as NumPy's bool add)", "numpy.add",
    Stride_AnyElement,
    "return buildArith<arith::AddFOp, arith::AddIOp, arith::OrIOp>(b, loc, s);">;
def Stride_SubOp : Stride_ArithBinaryOp<"sub", "the difference",
    "numpy.subtract", "arith::SubFOp", "arith::SubIOp", Stride_NumberElement>;
def Stride_MulOp : Stride_BinaryOp<"mul",
    "the product (for i1 the logical and, as NumPy's bool multiply)",
    "numpy.multiply", Stride_AnyElement,
    "return buildArith<arith::MulFOp, arith::MulIOp, arith::AndIOp>(b, loc, s);">;
def Stride_DivOp : Stride_BinaryOp<"div",
    "the quotient (for integers truncating, `x / 0` is 0 and the most "
    "negative value divided by -1 wraps to itself)", "numpy.divide",
    Stride_AnyElement, "return buildDivide(b, loc, s[0], s[1]);">;
def Stride_MaximumOp : Stride_BinaryOp<"maximum",
    "the larger value, propagating NaN (a tie of -0 and +0 gives the rhs, "
    "as NumPy)", "numpy.maximum", Stride_AnyElement,
    "return buildMaxMin(b, loc, s[0], s[1], /*max=*/true);">;
def Stride_MinimumOp : Stride_BinaryOp<"minimum",
    "the smaller value, propagating NaN (a tie of -0 and +0 gives the rhs, "
    "as NumPy)", "numpy.minimum", Stride_AnyElement,
    "return buildMaxMin(b, loc, s[0], s[1], /*max=*/false);">;
def Stride_PowOp : Stride_BinaryOp<"pow", "the power", "numpy.power",
    Stride_NumberElement, "return buildPower(b, loc, s[0], s[1]);">;

//===----------------------------------------------------------------------===//
// NumPy's floating-point ufuncs
//===----------------------------------------------------------------------===//

def Stride_SinOp : Stride_FloatUnaryOp<"sin", "the sine", "numpy.sin",
                                       "math::SinOp">;
def Stride_CosOp : Stride_FloatUnaryOp<"cos", "the cosine", "numpy.cos",
                                       "math::CosOp">;
def Stride_TanOp : Stride_FloatUnaryOp<"tan", "the tangent", "numpy.tan",
                                       "math::TanOp">;
def Stride_ArcsinOp : Stride_FloatUnaryOp<"arcsin", "the inverse sine",
                                          "numpy.arcsin", "math::AsinOp">;
def Stride_ArccosOp : Stride_FloatUnaryOp<"arccos", "the inverse cosine",
                                          "numpy.arccos", "math::AcosOp">;
def Stride_ArctanOp : Stride_FloatUnaryOp<"arctan", "the inverse tangent",
                                          "numpy.arctan", "math::AtanOp">;
def Stride_SinhOp : Stride_FloatUnaryOp<"sinh", "the hyperbolic sine",
                                        "numpy.sinh", "math::SinhOp">;
def Stride_CoshOp : Stride_FloatUnaryOp<"cosh", "the hyperbolic cosine",
                                        "numpy.cosh", "math::CoshOp">;
def Stride_ArcsinhOp : Stride_FloatUnaryOp<"arcsinh",
    "the inverse hyperbolic sine", "numpy.arcsinh", "math::AsinhOp">;
def Stride_ArccoshOp : Stride_FloatUnaryOp<"arccosh",
    "the inverse hyperbolic cosine", "numpy.arccosh", "math::AcoshOp">;
def Stride_ArctanhOp : Stride_FloatUnaryOp<"arctanh",
    "the inverse hyperbolic tangent", "numpy.arctanh", "math::AtanhOp">;
def Stride_Exp2Op : Stride_FloatUnaryOp<"exp2", "two to the power",
                                        "numpy.exp2", "math::Exp2Op">;
def Stride_Expm1Op : Stride_FloatUnaryOp<"expm1",
    "`exp(x) - 1`, accurate near 0", "numpy.expm1", "math::ExpM1Op">;
def Stride_Log2Op : Stride_FloatUnaryOp<"log2", "the base-2 logarithm",
                                        "numpy.log2", "math::Log2Op">;
def Stride_Log10Op : Stride_FloatUnaryOp<"log10", "the base-10 logarithm",
                                         "numpy.log10", "math::Log10Op">;
def Stride_Log1pOp : Stride_FloatUnaryOp<"log1p",
    "`log(1 + x)`, accurate near 0", "numpy.log1p", "math::Log1pOp">;
def Stride_FloorOp : Stride_FloatUnaryOp<"floor", "the largest integer not above",
                                         "numpy.floor", "math::FloorOp">;
def Stride_CeilOp : Stride_FloatUnaryOp<"ceil", "the smallest integer not below",
                                        "numpy.ceil", "math::CeilOp">;
def Stride_TruncOp : Stride_FloatUnaryOp<"trunc", "the value rounded toward zero",
                                         "numpy.trunc", "math::TruncOp">;
def Stride_RintOp : Stride_FloatUnaryOp<"rint",
    "the nearest integer, ties to even", "numpy.rint", "math::RoundEvenOp">;
def Stride_FabsOp : Stride_FloatUnaryOp<"fabs", "the absolute value of a float",
                                        "numpy.fabs", "math::AbsFOp">;
def Stride_CbrtOp : Stride_FloatUnaryOp<"cbrt", "the cube root", "numpy.cbrt",
                                        "math::CbrtOp">;
def Stride_SignOp : Stride_UnaryOp<"sign", "the sign (-1, 0 or 1; NaN stays NaN)",
    "numpy.sign", Stride_NumberElement, "return buildSign(b, loc, s[0]);">;
def Stride_SquareOp : Stride_UnaryOp<"square", "the square", "numpy.square",
    Stride_NumberElement,
    "Value twice[] = {s[0], s[0]};\n"
    "return buildFloatOrInt<arith::MulFOp, arith::MulIOp>(b, loc, twice);">;
def Stride_ReciprocalOp : Stride_UnaryOp<"reciprocal",
    "`1 / x` (for integers truncated, and the most negative value for 0)",
    "numpy.reciprocal", Stride_NumberElement,
    "return buildReciprocal(b, loc, s[0]);">;
def Stride_Arctan2Op : Stride_FloatBinaryOp<"arctan2",
    "the angle of the point (rhs, lhs)", "numpy.arctan2", "math::Atan2Op">;
def Stride_HypotOp : Stride_BinaryOp<"hypot",
    "the hypotenuse, without intermediate overflow", "numpy.hypot",
    Stride_FloatElement, "return buildHypot(b, loc, s[0], s[1]);">;
def Stride_CopysignOp : Stride_FloatBinaryOp<"copysign",
    "lhs's magnitude with rhs's sign", "numpy.copysign", "math::CopySignOp">;

def Stride_IsnanOp : Stride_PredicateOp<"isnan", "is NaN", "numpy.isnan",
    "return buildFloatClass(b, loc, s[0], FloatClass::NaN);">;
def Stride_IsinfOp : Stride_PredicateOp<"isinf", "is infinite", "numpy.isinf",
    "return buildFloatClass(b, loc, s[0], FloatClass::Infinite);">;
def Stride_IsfiniteOp : Stride_PredicateOp<"isfinite",
    "is finite (neither infinite nor NaN)", "numpy.isfinite",
    "return buildFloatClass(b, loc, s[0], FloatClass::Finite);">;

//===----------------------------------------------------------------------===//
// NumPy's integer and boolean ufuncs
//===----------------------------------------------------------------------===//

def Stride_RemainderOp : Stride_BinaryOp<"remainder",
    "the remainder with the divisor's sign (0 for an integer divisor 0)",
    "numpy.remainder", Stride_NumberElement,
    "return buildFloorDivMod(b, loc, s[0], s[1], /*quotient=*/false);">;
def Stride_FmodOp : Stride_BinaryOp<"fmod",
    "the remainder with the dividend's sign, C's fmod (0 for an integer "
    "divisor 0 or -1)",
    "numpy.fmod", Stride_NumberElement,
    "return buildFmod(b, loc, s[0], s[1]);">;
def Stride_FloorDivideOp : Stride_BinaryOp<"floor_divide",
    "the quotient rounded toward minus infinity (0 for an integer divisor 0)",
    "numpy.floor_divide", Stride_NumberElement,
    "return buildFloorDivMod(b, loc, s[0], s[1], /*quotient=*/true);">;
def Stride_BitwiseAndOp : Stride_IntegerBinaryOp<"bitwise_and",
    "the bitwise and", "numpy.bitwise_and", "arith::AndIOp",
    Stride_IntegerElement>;
def Stride_BitwiseOrOp : Stride_IntegerBinaryOp<"bitwise_or",
    "the bitwise or", "numpy.bitwise_or", "arith::OrIOp", Stride_IntegerElement>;
def Stride_BitwiseXorOp : Stride_IntegerBinaryOp<"bitwise_xor",
    "the bitwise exclusive or", "numpy.bitwise_xor", "arith::XOrIOp",
    Stride_IntegerElement>;
def Stride_BitwiseNotOp : Stride_UnaryOp<"bitwise_not", "the bitwise complement",
    "numpy.invert", Stride_IntegerElement, "return buildNot(b, loc, s[0]);">;
def Stride_LeftShiftOp : Stride_BinaryOp<"left_shift",
    "lhs shifted left by rhs bits (0 when rhs is negative or not below the "
    "bit width)", "numpy.left_shift", Stride_NonBoolIntegerElement,
    "return buildShift(b, loc, s[0], s[1], /*left=*/true);">;
def Stride_RightShiftOp : Stride_BinaryOp<"right_shift",
    "lhs shifted right arithmetically by rhs bits (the sign fill when rhs is "
    "negative or not below the bit width)", "numpy.right_shift",
    Stride_NonBoolIntegerElement,
    "return buildShift(b, loc, s[0], s[1], /*left=*/false);">;
def Stride_LogicalAndOp : Stride_IntegerBinaryOp<"logical_and",
    "the logical and", "numpy.logical_and", "arith::AndIOp", Stride_BoolElement>;
def Stride_LogicalOrOp : Stride_IntegerBinaryOp<"logical_or",
    "the logical or", "numpy.logical_or", "arith::OrIOp", Stride_BoolElement>;
def Stride_LogicalXorOp : Stride_IntegerBinaryOp<"logical_xor",
    "the logical exclusive or", "numpy.logical_xor", "arith::XOrIOp",
    Stride_BoolElement>;
def Stride_LogicalNotOp : Stride_UnaryOp<"logical_not", "the logical negation",
    "numpy.logical_not", Stride_BoolElement, "return buildNot(b, loc, s[0]);">;

def Stride_ClipOp : Stride_ElementwiseOp<"clip"> {
  let summary = "elementwise clamp to a range, with broadcasting";
  let description = [{
    Yields `minimum(maximum(x, low), high)` elementwise, like `numpy.clip`:
    NaN in any operand propagates, and where `low > high` the result is
    `high`. The three operands broadcast together by NumPy's rule and share
    the result's element type (booleans order false < true).

    Example:

    ```mlir
    %r = stride.clip %x, %lo, %hi : tensor<4x3xf32>, f32, tensor<3xf32> -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Stride_TensorOrScalar:$x, Stride_TensorOrScalar:$low,
                       Stride_TensorOrScalar:$high);
  let assemblyFormat = [{
    $x `,` $low `,` $high attr-dict `:` type($x) `,` type($low) `,`
    type($high) `->` type($result)
  }];
  let scalarBody = "return buildClip(b, loc, s[0], s[1], s[2]);";
  let arity = 3;
}

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
  let verifyKind = "custom";
  let scalarBody = "return buildCompare(b, loc, getPredicate(), s[0], s[1]);";
  let arity = 2;
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
  let verifyKind = "custom";
  let scalarBody =
      "return arith::SelectOp::create(b, loc, s[0], s[1], s[2]).getResult();";
  let layoutRule = "Where";
  let arity = 3;
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
  let verifyKind = "custom";
  let scalarBody =
      "return buildCast(b, loc, s[0], getType().getElementType());";
  let layoutRule = "Copy";
  let arity = 1;
  let arguments = (ins Stride_TensorOrScalar:$operand);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
}

//===----------------------------------------------------------------------===//
// stride.broadcast
//===----------------------------------------------------------------------===//

def Stride_BroadcastOp : Stride_Op<"broadcast", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<Stride_InferResultShapeOpInterface,
        ["inferResultShape", "getBroadcastOperands", "getDestinations"]>,
    DeclareOpInterfaceMethods<Stride_LayoutRuleOpInterface>,
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
    ParentOneOf<["BroadcastOp", "MapReduceOp"]>, ReturnLike]> {
  let summary = "yields the scalar results of a stride.broadcast body";
  let description = [{
    Terminates the body of `stride.broadcast` (or of `stride.map_reduce`)
    with one scalar per result.

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

def Stride_MatmulOp : Stride_Op<"matmul", [Pure,
    DeclareOpInterfaceMethods<Stride_InferResultShapeOpInterface,
                              ["inferResultShape"]>,
    DeclareOpInterfaceMethods<Stride_LayoutRuleOpInterface>]> {
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

include "stride/Dialect/Stride/IR/StrideReduceOps.td"
include "stride/Dialect/Stride/IR/StrideViewOps.td"

#endif // STRIDE_DIALECT_STRIDE_IR_STRIDEOPS_TD
