//===- StrideOps.cpp - Stride operations ----------------------------------===//

#include "stride/Dialect/Stride/IR/StrideOps.h"
#include "stride/Layout/Shape.h"

#include "ScalarBodies.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::stride;
namespace layout = ::stride::layout;

#include "stride/Dialect/Stride/IR/StrideInterfaces.cpp.inc"

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
  if (!ranked || !inferred ||
      succeeded(verifyCompatibleShape(ranked.getShape(), inferred.getShape())))
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
  return isa<ScalarBodyOpInterface>(op);
}

Value mlir::stride::buildCopyOp(OpBuilder &b, Location loc, Value value,
                                Type type, ValueRange inits) {
  auto copy =
      BroadcastOp::create(b, loc, TypeRange{type}, ValueRange{value}, inits);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&copy.getBodyBlock());
  YieldOp::create(b, loc, copy.getBodyBlock().getArgument(0));
  return copy.getResult(0);
}

Value mlir::stride::buildCopy(OpBuilder &b, Location loc, Value value,
                              RankedTensorType type) {
  SmallVector<Value> dynamicSizes;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      dynamicSizes.push_back(tensor::DimOp::create(b, loc, value, i));
  Value empty = tensor::EmptyOp::create(b, loc, type, dynamicSizes);
  return buildCopyOp(b, loc, value, type, empty);
}

Value mlir::stride::buildClone(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  return buildCopyOp(
      b, loc, value,
      RankedTensorType::get(type.getShape(), type.getElementType()),
      ValueRange());
}

BroadcastOp mlir::stride::generalizeNamedOp(RewriterBase &rewriter,
                                            ScalarBodyOpInterface named) {
  Operation *op = named;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  auto broadcast = BroadcastOp::create(rewriter, op->getLoc(),
                                       op->getResultTypes(), op->getOperands(),
                                       ValueRange());
  broadcast->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  rewriter.setInsertionPointToStart(&broadcast.getBodyBlock());
  Value scalar = named.buildScalarBody(rewriter, op->getLoc(),
                                       broadcast.getBodyBlock().getArguments());
  YieldOp::create(rewriter, op->getLoc(), scalar);
  rewriter.replaceOp(op, broadcast.getResults());
  return broadcast;
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

LogicalResult mlir::stride::verifyElementwiseOp(
    Operation *op, bool predicate, function_ref<bool(Type)> accepts,
    StringRef what) {
  Type resultElement = elementTypeOf(op->getResult(0).getType());
  Type operandElement = resultElement;
  if (predicate) {
    if (!resultElement.isInteger(1))
      return op->emitOpError() << "result must have element type i1, got "
                               << resultElement;
    operandElement = elementTypeOf(op->getOperand(0).getType());
    if (failed(verifySameElementType(op, op->getOperands().drop_front(), 1,
                                     operandElement, "operand #0")))
      return failure();
  } else if (failed(verifySameElementType(op, op->getOperands(), 0,
                                          resultElement, "the result"))) {
    return failure();
  }
  if (!accepts(operandElement))
    return op->emitOpError() << "requires " << what
                             << " element type, got " << operandElement;
  return verifyBroadcastShape(op, op->getOperands());
}

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

FailureOr<RankedTensorType> BroadcastOp::inferResultShape() {
  Type element = getNumResults() ? elementTypeOf(getResult(0).getType())
                                 : IntegerType::get(getContext(), 1);
  return inferElementwiseResult(*this, getInputs(), element);
}

ValueRange BroadcastOp::getBroadcastOperands() { return getInputs(); }

ValueRange BroadcastOp::getDestinations() { return getInits(); }

LayoutRule BroadcastOp::getLayoutRule() {
  if (!getInits().empty())
    return {LayoutRuleKind::Destination, SmallVector<Value>(getInits())};
  // A body that yields its one input unchanged is a copy, which the eager
  // libraries allocate like its input (copy, clone).
  Block &body = getBodyBlock();
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  bool copy = getInputs().size() == 1 && getNumResults() == 1 && yield &&
              &body.front() == yield.getOperation() &&
              yield->getNumOperands() == 1 &&
              yield->getOperand(0) == body.getArgument(0);
  return {copy ? LayoutRuleKind::Copy : LayoutRuleKind::Elementwise,
          SmallVector<Value>(getInputs())};
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

LayoutRule MatmulOp::getLayoutRule() {
  return {LayoutRuleKind::Matmul, {getLhs(), getRhs()}};
}

FailureOr<RankedTensorType> MatmulOp::inferResultShape() {
  return inferMatmulResult(*this);
}

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
