//===- StrideOps.cpp - Stride operations ----------------------------------===//

#include "stride/Dialect/Stride/IR/StrideOps.h"
#include "stride/Layout/Shape.h"

#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::stride;
namespace layout = ::stride::layout;

#define GET_OP_CLASSES
#include "stride/Dialect/Stride/IR/StrideOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Shape rules shared by the verifiers and stride-infer-shapes
//===----------------------------------------------------------------------===//

static Type elementTypeOf(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.getElementType();
  return type;
}

/// The shape of an operand as the layout algebra sees it: a scalar is 0-d.
static std::optional<layout::Shape> shapeOf(Type type) {
  if (auto ranked = dyn_cast<RankedTensorType>(type))
    return layout::Shape(ranked.getShape().begin(), ranked.getShape().end());
  if (isa<UnrankedTensorType>(type))
    return std::nullopt;
  return layout::Shape();
}

/// A result type is compatible with an inferred one when the ranks agree and
/// every dim known on both sides is equal.
static LogicalResult checkResultType(Operation *op, Type resultType,
                                     RankedTensorType inferred,
                                     unsigned resultIndex) {
  auto ranked = dyn_cast<RankedTensorType>(resultType);
  if (!ranked || !inferred)
    return success();
  bool ok = ranked.getRank() == inferred.getRank();
  for (int64_t i = 0; ok && i < ranked.getRank(); ++i)
    ok = ranked.isDynamicDim(i) || inferred.isDynamicDim(i) ||
         ranked.getDimSize(i) == inferred.getDimSize(i);
  if (ok)
    return success();
  return op->emitOpError() << "result #" << resultIndex << " has type "
                           << resultType << " but the operands give shape "
                           << layout::formatShape(layout::Shape(
                                  inferred.getShape().begin(),
                                  inferred.getShape().end()));
}

FailureOr<RankedTensorType>
mlir::stride::inferElementwiseResult(Operation *op, ValueRange operands,
                                     Type elementType) {
  std::vector<layout::Shape> shapes;
  for (Value v : operands) {
    std::optional<layout::Shape> shape = shapeOf(v.getType());
    if (!shape)
      return RankedTensorType();
    shapes.push_back(std::move(*shape));
  }
  layout::BroadcastResult result = layout::broadcastShapes(shapes);
  if (!result.ok())
    return op->emitOpError() << result.error->message;
  return RankedTensorType::get(result.shape, elementType);
}

FailureOr<RankedTensorType> mlir::stride::inferMatmulResult(MatmulOp op) {
  std::optional<layout::Shape> lhs = shapeOf(op.getLhs().getType());
  std::optional<layout::Shape> rhs = shapeOf(op.getRhs().getType());
  if (!lhs || !rhs)
    return RankedTensorType();
  layout::MatmulResult result = layout::matmulShape(*lhs, *rhs);
  if (!result.ok())
    return op->emitOpError() << result.error->message;
  return RankedTensorType::get(result.info.result,
                               elementTypeOf(op.getLhs().getType()));
}

//===----------------------------------------------------------------------===//
// Named elementwise ops
//===----------------------------------------------------------------------===//

bool mlir::stride::isNamedElementwise(Operation *op) {
  return isa<NegOp, AbsOp, ExpOp, LogOp, SqrtOp, TanhOp, SigmoidOp, AddOp,
             SubOp, MulOp, DivOp, MaximumOp, MinimumOp, PowOp, CmpOp, SelectOp,
             CastOp>(op);
}

static LogicalResult verifySameElementType(Operation *op, ValueRange values,
                                           unsigned firstIndex, Type expected,
                                           StringRef what) {
  for (auto [i, v] : llvm::enumerate(values)) {
    Type t = elementTypeOf(v.getType());
    if (t != expected)
      return op->emitOpError()
             << "operand #" << firstIndex + i << " has element type " << t
             << " but " << what << " has " << expected;
  }
  return success();
}

/// Checks the operands broadcast together and the result fits their shape.
static LogicalResult verifyBroadcastShape(Operation *op, ValueRange operands) {
  Type elementType = elementTypeOf(op->getResult(0).getType());
  FailureOr<RankedTensorType> inferred =
      inferElementwiseResult(op, operands, elementType);
  if (failed(inferred))
    return failure();
  return checkResultType(op, op->getResult(0).getType(), *inferred, 0);
}

/// Unary and binary arithmetic: every operand and the result share one
/// element type; transcendental functions need floats.
static LogicalResult verifyArithmetic(Operation *op) {
  Type resultElement = elementTypeOf(op->getResult(0).getType());
  if (failed(verifySameElementType(op, op->getOperands(), 0, resultElement,
                                   "the result")))
    return failure();
  if (isa<ExpOp, LogOp, SqrtOp, TanhOp, SigmoidOp>(op) &&
      !isa<FloatType>(resultElement))
    return op->emitOpError() << "requires a floating-point element type, got "
                             << resultElement;
  return verifyBroadcastShape(op, op->getOperands());
}

#define STRIDE_ARITH_VERIFIER(OP)                                              \
  LogicalResult OP::verify() { return verifyArithmetic(*this); }
STRIDE_ARITH_VERIFIER(NegOp)
STRIDE_ARITH_VERIFIER(AbsOp)
STRIDE_ARITH_VERIFIER(ExpOp)
STRIDE_ARITH_VERIFIER(LogOp)
STRIDE_ARITH_VERIFIER(SqrtOp)
STRIDE_ARITH_VERIFIER(TanhOp)
STRIDE_ARITH_VERIFIER(SigmoidOp)
STRIDE_ARITH_VERIFIER(AddOp)
STRIDE_ARITH_VERIFIER(SubOp)
STRIDE_ARITH_VERIFIER(MulOp)
STRIDE_ARITH_VERIFIER(DivOp)
STRIDE_ARITH_VERIFIER(MaximumOp)
STRIDE_ARITH_VERIFIER(MinimumOp)
STRIDE_ARITH_VERIFIER(PowOp)
#undef STRIDE_ARITH_VERIFIER

LogicalResult CmpOp::verify() {
  if (!getType().getElementType().isInteger(1))
    return emitOpError() << "result must have element type i1, got "
                         << getType().getElementType();
  if (failed(verifySameElementType(*this, getRhs(), 1,
                                   elementTypeOf(getLhs().getType()),
                                   "operand #0")))
    return failure();
  return verifyBroadcastShape(*this, getOperation()->getOperands());
}

LogicalResult SelectOp::verify() {
  Type condElement = elementTypeOf(getCondition().getType());
  if (!condElement.isInteger(1))
    return emitOpError() << "condition must have element type i1, got "
                         << condElement;
  if (failed(verifySameElementType(*this, {getTrueValue(), getFalseValue()}, 1,
                                   getType().getElementType(), "the result")))
    return failure();
  return verifyBroadcastShape(*this, getOperation()->getOperands());
}

LogicalResult CastOp::verify() {
  return verifyBroadcastShape(*this, getOperation()->getOperands());
}

//===----------------------------------------------------------------------===//
// Scalar bodies of the named ops
//===----------------------------------------------------------------------===//

static Value buildCast(OpBuilder &b, Location loc, Value x, Type to) {
  Type from = x.getType();
  if (from == to)
    return x;
  auto zeroOf = [&](Type t) {
    return arith::ConstantOp::create(b, loc, t, b.getZeroAttr(t)).getResult();
  };
  if (to.isInteger(1)) {
    // Conversion to bool is a test for nonzero, as in NumPy.
    if (isa<FloatType>(from))
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x,
                                   zeroOf(from));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x,
                                 zeroOf(from));
  }
  if (auto toFloat = dyn_cast<FloatType>(to)) {
    if (auto fromFloat = dyn_cast<FloatType>(from)) {
      if (fromFloat.getWidth() < toFloat.getWidth())
        return arith::ExtFOp::create(b, loc, to, x);
      return arith::TruncFOp::create(b, loc, to, x);
    }
    // i1 is unsigned: true converts to 1, not -1.
    if (from.isInteger(1))
      return arith::UIToFPOp::create(b, loc, to, x);
    return arith::SIToFPOp::create(b, loc, to, x);
  }
  if (isa<FloatType>(from))
    return arith::FPToSIOp::create(b, loc, to, x);
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (fromWidth < toWidth) {
    if (from.isInteger(1))
      return arith::ExtUIOp::create(b, loc, to, x);
    return arith::ExtSIOp::create(b, loc, to, x);
  }
  return arith::TruncIOp::create(b, loc, to, x);
}

static Value buildCompare(OpBuilder &b, Location loc, CmpPredicate pred,
                          Value lhs, Value rhs) {
  if (isa<FloatType>(lhs.getType())) {
    // Ordered predicates make every comparison with NaN false, except `ne`,
    // which is true, as in IEEE 754 and NumPy.
    arith::CmpFPredicate p = arith::CmpFPredicate::OEQ;
    switch (pred) {
    case CmpPredicate::eq: p = arith::CmpFPredicate::OEQ; break;
    case CmpPredicate::ne: p = arith::CmpFPredicate::UNE; break;
    case CmpPredicate::lt: p = arith::CmpFPredicate::OLT; break;
    case CmpPredicate::le: p = arith::CmpFPredicate::OLE; break;
    case CmpPredicate::gt: p = arith::CmpFPredicate::OGT; break;
    case CmpPredicate::ge: p = arith::CmpFPredicate::OGE; break;
    }
    return arith::CmpFOp::create(b, loc, p, lhs, rhs);
  }
  // Booleans order false < true, so i1 compares unsigned.
  bool isBool = lhs.getType().isInteger(1);
  arith::CmpIPredicate p = arith::CmpIPredicate::eq;
  switch (pred) {
  case CmpPredicate::eq: p = arith::CmpIPredicate::eq; break;
  case CmpPredicate::ne: p = arith::CmpIPredicate::ne; break;
  case CmpPredicate::lt:
    p = isBool ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt; break;
  case CmpPredicate::le:
    p = isBool ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle; break;
  case CmpPredicate::gt:
    p = isBool ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt; break;
  case CmpPredicate::ge:
    p = isBool ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge; break;
  }
  return arith::CmpIOp::create(b, loc, p, lhs, rhs);
}

/// Emits FloatOp for float operands and IntOp otherwise.
template <typename FloatOp, typename IntOp>
static Value buildBinary(OpBuilder &b, Location loc, ValueRange s) {
  if (isa<FloatType>(s[0].getType()))
    return FloatOp::create(b, loc, s[0], s[1]);
  return IntOp::create(b, loc, s[0], s[1]);
}

Value mlir::stride::buildScalarBody(OpBuilder &b, Location loc, Operation *op,
                                    ValueRange s) {
  Type type = s.empty() ? Type() : s[0].getType();
  bool isFloat = type && isa<FloatType>(type);
  auto constant = [&](double v) {
    return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, v))
        .getResult();
  };
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](NegOp) -> Value {
        if (isFloat)
          return arith::NegFOp::create(b, loc, s[0]);
        Value zero =
            arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
        return arith::SubIOp::create(b, loc, zero, s[0]);
      })
      .Case([&](AbsOp) -> Value {
        if (isFloat)
          return math::AbsFOp::create(b, loc, s[0]);
        return math::AbsIOp::create(b, loc, s[0]);
      })
      .Case([&](ExpOp) { return math::ExpOp::create(b, loc, s[0]); })
      .Case([&](LogOp) { return math::LogOp::create(b, loc, s[0]); })
      .Case([&](SqrtOp) { return math::SqrtOp::create(b, loc, s[0]); })
      .Case([&](TanhOp) { return math::TanhOp::create(b, loc, s[0]); })
      .Case([&](SigmoidOp) -> Value {
        Value negated = arith::NegFOp::create(b, loc, s[0]);
        Value e = math::ExpOp::create(b, loc, negated);
        Value one = constant(1.0);
        Value denom = arith::AddFOp::create(b, loc, one, e);
        return arith::DivFOp::create(b, loc, one, denom);
      })
      .Case([&](AddOp) {
        return buildBinary<arith::AddFOp, arith::AddIOp>(b, loc, s);
      })
      .Case([&](SubOp) {
        return buildBinary<arith::SubFOp, arith::SubIOp>(b, loc, s);
      })
      .Case([&](MulOp) {
        return buildBinary<arith::MulFOp, arith::MulIOp>(b, loc, s);
      })
      .Case([&](DivOp) {
        return buildBinary<arith::DivFOp, arith::DivSIOp>(b, loc, s);
      })
      .Case([&](MaximumOp) {
        return buildBinary<arith::MaximumFOp, arith::MaxSIOp>(b, loc, s);
      })
      .Case([&](MinimumOp) {
        return buildBinary<arith::MinimumFOp, arith::MinSIOp>(b, loc, s);
      })
      .Case([&](PowOp) {
        return buildBinary<math::PowFOp, math::IPowIOp>(b, loc, s);
      })
      .Case([&](CmpOp cmp) {
        return buildCompare(b, loc, cmp.getPredicate(), s[0], s[1]);
      })
      .Case([&](SelectOp) {
        return arith::SelectOp::create(b, loc, s[0], s[1], s[2]).getResult();
      })
      .Case([&](CastOp cast) {
        return buildCast(b, loc, s[0], cast.getType().getElementType());
      })
      .Default([](Operation *) -> Value {
        llvm_unreachable("not a named elementwise op");
      });
}

//===----------------------------------------------------------------------===//
// BroadcastOp
//===----------------------------------------------------------------------===//

void BroadcastOp::build(OpBuilder &builder, OperationState &state,
                        TypeRange resultTypes, ValueRange inputs,
                        ValueRange inits) {
  state.addOperands(inputs);
  state.addOperands(inits);
  state.getOrAddProperties<Properties>().operandSegmentSizes = {
      static_cast<int32_t>(inputs.size()), static_cast<int32_t>(inits.size())};
  state.addTypes(resultTypes);
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Value input : inputs)
    block->addArgument(elementTypeOf(input.getType()), state.location);
}

SmallVector<SmallVector<int64_t>> BroadcastOp::getIterationGroups() {
  SmallVector<SmallVector<int64_t>> groups;
  if (ArrayAttr iteration = getIterationAttr())
    for (Attribute group : iteration)
      groups.push_back(
          llvm::to_vector(cast<DenseI64ArrayAttr>(group).asArrayRef()));
  return groups;
}

LogicalResult BroadcastOp::verify() {
  if (getResults().empty())
    return emitOpError() << "requires at least one result";
  if (!getInits().empty() && getInits().size() != getResults().size())
    return emitOpError() << "has " << getInits().size()
                         << " destinations but " << getResults().size()
                         << " results; give one destination per result or none";
  for (auto [i, init] : llvm::enumerate(getInits()))
    if (init.getType() != getResult(i).getType())
      return emitOpError() << "destination #" << i << " has type "
                           << init.getType() << " but result #" << i
                           << " has type " << getResult(i).getType();
  FailureOr<RankedTensorType> inferred =
      inferElementwiseResult(*this, getInputs(), Builder(getContext()).getI1Type());
  if (failed(inferred))
    return failure();
  for (auto [i, result] : llvm::enumerate(getResults()))
    if (failed(checkResultType(*this, result.getType(), *inferred, i)))
      return failure();
  if (ArrayAttr iteration = getIterationAttr()) {
    auto resultType = dyn_cast<RankedTensorType>(getResult(0).getType());
    int64_t rank = resultType ? resultType.getRank() : -1;
    SmallVector<bool> seen(std::max<int64_t>(rank, 0), false);
    int64_t covered = 0;
    for (Attribute group : iteration) {
      auto dims = dyn_cast<DenseI64ArrayAttr>(group);
      if (!dims || dims.empty())
        return emitOpError() << "'iteration' must hold non-empty arrays of "
                                "result dimensions";
      for (int64_t d : dims.asArrayRef()) {
        if (rank < 0 || d < 0 || d >= rank || seen[d])
          return emitOpError() << "'iteration' must cover each result "
                                  "dimension exactly once";
        seen[d] = true;
        ++covered;
      }
    }
    if (covered != rank)
      return emitOpError()
             << "'iteration' must cover each result dimension exactly once";
  }
  return success();
}

LogicalResult BroadcastOp::verifyRegions() {
  Block &block = getBodyBlock();
  if (block.getNumArguments() != getInputs().size())
    return emitOpError() << "body has " << block.getNumArguments()
                         << " arguments but the op has " << getInputs().size()
                         << " inputs";
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    Type expected = elementTypeOf(input.getType());
    if (block.getArgument(i).getType() != expected)
      return emitOpError() << "body argument #" << i << " has type "
                           << block.getArgument(i).getType()
                           << " but input #" << i << " has element type "
                           << expected;
  }
  auto yield = cast<YieldOp>(block.getTerminator());
  if (yield.getValues().size() != getResults().size())
    return emitOpError() << "body yields " << yield.getValues().size()
                         << " values but the op has " << getResults().size()
                         << " results";
  for (auto [i, value] : llvm::enumerate(yield.getValues())) {
    Type expected = elementTypeOf(getResult(i).getType());
    if (value.getType() != expected)
      return emitOpError() << "body yields " << value.getType()
                           << " for result #" << i << " of element type "
                           << expected;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::verify() {
  Type element = getType().getElementType();
  if (failed(verifySameElementType(*this, getOperation()->getOperands(), 0, element,
                                   "the result")))
    return failure();
  FailureOr<RankedTensorType> inferred = inferMatmulResult(*this);
  if (failed(inferred))
    return failure();
  return checkResultType(*this, getType(), *inferred, 0);
}
