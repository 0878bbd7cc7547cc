//===- ReduceOps.cpp - Stride reductions: verifiers and shape rule --------===//

#include "stride/Dialect/Stride/IR/StrideOps.h"
#include "stride/Layout/Reduce.h"

#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::stride;
namespace layout = ::stride::layout;

StringRef mlir::stride::reduceKindName(ReduceKind kind) {
  switch (kind) {
  case ReduceKind::Sum: return "sum";
  case ReduceKind::Prod: return "prod";
  case ReduceKind::Max: return "amax";
  case ReduceKind::Min: return "amin";
  case ReduceKind::Mean: return "mean";
  case ReduceKind::Argmax: return "argmax";
  case ReduceKind::Argmin: return "argmin";
  case ReduceKind::Any: return "any";
  case ReduceKind::All: return "all";
  }
  return "";
}

std::optional<ReduceKind> mlir::stride::parseReduceKind(StringRef name) {
  for (ReduceKind kind : {ReduceKind::Sum, ReduceKind::Prod, ReduceKind::Max,
                          ReduceKind::Min, ReduceKind::Mean, ReduceKind::Argmax,
                          ReduceKind::Argmin, ReduceKind::Any, ReduceKind::All})
    if (reduceKindName(kind) == name)
      return kind;
  return std::nullopt;
}

std::optional<ReduceKind> mlir::stride::getReduceKind(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<ReduceKind>>(op)
      .Case<SumOp, ProdOp, AmaxOp, AminOp, MeanOp, ArgmaxOp, ArgminOp, AnyOp,
            AllOp>([](auto reduce) { return decltype(reduce)::getKind(); })
      .Default([](Operation *) { return std::nullopt; });
}

Type mlir::stride::reduceResultElementType(ReduceKind kind, Type input) {
  MLIRContext *context = input.getContext();
  switch (kind) {
  case ReduceKind::Sum:
  case ReduceKind::Prod:
    // NumPy's add/multiply.reduce take integers to the platform's int or
    // uint: int64 for signed ones and bool, uint64 for unsigned ones.
    if (isa<FloatType>(input))
      return input;
    return IntegerType::get(context, 64,
                            input.isUnsignedInteger() ? IntegerType::Unsigned
                                                      : IntegerType::Signless);
  case ReduceKind::Mean:
    return isa<FloatType>(input) ? input : Float64Type::get(context);
  case ReduceKind::Argmax:
  case ReduceKind::Argmin:
    return IntegerType::get(context, 64);
  case ReduceKind::Any:
  case ReduceKind::All:
    return IntegerType::get(context, 1);
  case ReduceKind::Max:
  case ReduceKind::Min:
    return input;
  }
  return input;
}

static std::optional<std::vector<int64_t>> axesOf(Operation *op) {
  auto axes = op->getAttrOfType<DenseI64ArrayAttr>("axes");
  if (!axes)
    return std::nullopt;
  return std::vector<int64_t>(axes.asArrayRef().begin(),
                              axes.asArrayRef().end());
}

bool mlir::stride::getKeepdims(Operation *op) {
  return op->hasAttr("keepdims");
}

std::optional<SmallVector<bool>> mlir::stride::getReducedDims(Operation *op) {
  auto mapReduce = dyn_cast<MapReduceOp>(op);
  auto type = mapReduce
                  ? dyn_cast<RankedTensorType>(mapReduce.getMapped())
                  : dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!type)
    return std::nullopt;
  std::string error;
  std::optional<std::vector<bool>> reduced =
      layout::reducedAxes(type.getRank(), axesOf(op), error);
  if (!reduced)
    return std::nullopt;
  return SmallVector<bool>(reduced->begin(), reduced->end());
}

FailureOr<RankedTensorType> mlir::stride::inferReduceResult(Operation *op) {
  auto type = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!type)
    return RankedTensorType();
  std::string error;
  std::optional<std::vector<bool>> reduced =
      layout::reducedAxes(type.getRank(), axesOf(op), error);
  if (!reduced)
    return op->emitOpError() << error;
  layout::Shape shape = layout::reduceShape(
      layout::Shape(type.getShape().begin(), type.getShape().end()), *reduced,
      getKeepdims(op));
  return RankedTensorType::get(
      shape, getElementTypeOrSelf(op->getResult(0).getType()));
}

LogicalResult mlir::stride::verifyReduceOp(Operation *op) {
  ReduceKind kind = *getReduceKind(op);
  StringRef name = reduceKindName(kind);
  Type inputElement = getElementTypeOrSelf(op->getOperand(0).getType());
  Type resultElement = getElementTypeOrSelf(op->getResult(0).getType());
  Type expected = reduceResultElementType(kind, inputElement);
  if (resultElement != expected)
    return op->emitOpError()
           << "result has element type " << resultElement << " but " << name
           << " of " << inputElement << " elements gives " << expected;
  std::optional<std::vector<int64_t>> axes = axesOf(op);
  bool indexResult = kind == ReduceKind::Argmax || kind == ReduceKind::Argmin;
  if (indexResult && axes && axes->size() > 1)
    return op->emitOpError()
           << "reduces " << axes->size() << " axes but " << name
           << " takes one axis, or none for the flattened input";
  auto type = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!type) {
    if (axes)
      for (size_t i = 0; i < axes->size(); ++i)
        for (size_t j = 0; j < i; ++j)
          if ((*axes)[i] == (*axes)[j])
            return op->emitOpError() << "axis " << (*axes)[i] << " repeats";
    return success();
  }
  FailureOr<RankedTensorType> inferred = inferReduceResult(op);
  if (failed(inferred))
    return failure();
  bool noIdentity = kind == ReduceKind::Max || kind == ReduceKind::Min ||
                    indexResult;
  if (noIdentity) {
    std::string error;
    std::vector<bool> reduced =
        *layout::reducedAxes(type.getRank(), axes, error);
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (reduced[d] && type.getDimSize(d) == 0)
        return op->emitOpError()
               << "reduces axis " << d << " of size 0: " << name
               << " of an empty axis has no identity (NumPy and PyTorch "
                  "refuse it)";
  }
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (result &&
      failed(verifyCompatibleShape(result.getShape(), inferred->getShape())))
    return op->emitOpError()
           << "result has type " << result << " but reducing "
           << op->getOperand(0).getType() << " gives shape "
           << layout::formatShape(layout::Shape(inferred->getShape().begin(),
                                                inferred->getShape().end()));
  return success();
}

LayoutRule MapReduceOp::getLayoutRule() {
  // Reduces the broadcast of its inputs (its `mapped` type).
  return {LayoutRuleKind::Reduce, SmallVector<Value>(getInputs())};
}

LogicalResult MapReduceOp::verify() {
  std::optional<ReduceKind> kind = parseReduceKind(getKind());
  if (!kind)
    return emitOpError() << "kind '" << getKind() << "' is not a reduction";
  auto mapped = cast<RankedTensorType>(getMapped());
  Block &body = getBodyBlock();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError() << "body takes " << body.getNumArguments()
                         << " arguments for " << getInputs().size()
                         << " inputs";
  for (auto [i, input, arg] : llvm::enumerate(getInputs(), body.getArguments()))
    if (getElementTypeOrSelf(input.getType()) != arg.getType())
      return emitOpError() << "body argument #" << i << " has type "
                           << arg.getType() << " but input #" << i
                           << " has elements of "
                           << getElementTypeOrSelf(input.getType());
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getValues().size() != 1 ||
      yield.getValues()[0].getType() != mapped.getElementType())
    return emitOpError() << "body must yield one " << mapped.getElementType()
                         << " (the mapped "
                            "element type)";
  Type resultElement = getElementTypeOrSelf(getResult().getType());
  Type expected = reduceResultElementType(*kind, mapped.getElementType());
  if (resultElement != expected)
    return emitOpError() << "result has element type " << resultElement
                         << " but " << getKind() << " of "
                         << mapped.getElementType() << " elements gives "
                         << expected;
  std::string error;
  std::optional<std::vector<int64_t>> axes = axesOf(*this);
  std::optional<std::vector<bool>> reduced =
      layout::reducedAxes(mapped.getRank(), axes, error);
  if (!reduced)
    return emitOpError() << error;
  layout::Shape shape = layout::reduceShape(
      layout::Shape(mapped.getShape().begin(), mapped.getShape().end()),
      *reduced, stride::getKeepdims(*this));
  auto result = dyn_cast<RankedTensorType>(getResult().getType());
  if (!result || failed(verifyCompatibleShape(result.getShape(), shape)))
    return emitOpError() << "result has type " << getResult().getType()
                         << " but reducing " << mapped << " gives shape "
                         << layout::formatShape(shape);
  return success();
}
