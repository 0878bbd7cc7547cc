//===- ViewOps.cpp - Stride view operations -------------------------------===//
//
// Verifiers, shape rules and the custom syntax of the view ops
// (StrideViewOps.td). The rules themselves are the layout algebra's
// (stride/Layout/Views.h).
//
//===----------------------------------------------------------------------===//

#include "stride/Dialect/Stride/IR/StrideOps.h"

#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::stride;
namespace layout = ::stride::layout;

namespace {
std::vector<int64_t> toVector(ArrayRef<int64_t> values) {
  return std::vector<int64_t>(values.begin(), values.end());
}
} // namespace

//===----------------------------------------------------------------------===//
// Per-op rules
//===----------------------------------------------------------------------===//

layout::ViewResult PermuteOp::computeView(layout::Policy,
                                          const layout::Shape &shape,
                                          const layout::Strides &strides) {
  return layout::permuteView(shape, strides, toVector(getPerm()));
}

layout::ViewResult TransposeOp::computeView(layout::Policy,
                                            const layout::Shape &shape,
                                            const layout::Strides &strides) {
  ArrayRef<int64_t> dims = getDims();
  int64_t rank = shape.size();
  layout::ViewResult result;
  if (dims.size() != 2) {
    result.error = "transpose takes two dims, got " +
                   std::to_string(dims.size());
    return result;
  }
  for (int64_t d : dims)
    if (d < 0 || d >= rank) {
      result.error = "transpose dim " + std::to_string(d) +
                     " is out of range for an operand of shape " +
                     layout::formatShape(shape);
      return result;
    }
  std::vector<int64_t> perm(rank);
  for (int64_t i = 0; i < rank; ++i)
    perm[i] = i;
  std::swap(perm[dims[0]], perm[dims[1]]);
  return layout::permuteView(shape, strides, perm);
}

std::vector<layout::SliceSpec> SliceOp::getSlices() {
  std::vector<layout::SliceSpec> slices;
  auto part = [](int64_t v) {
    return v == kNone ? std::nullopt : std::optional<int64_t>(v);
  };
  for (auto [start, stop, step] :
       llvm::zip(getStarts(), getStops(), getSteps()))
    slices.push_back({part(start), part(stop), part(step)});
  return slices;
}

layout::ViewResult SliceOp::computeView(layout::Policy policy,
                                        const layout::Shape &shape,
                                        const layout::Strides &strides) {
  return layout::sliceView(policy, shape, strides, getSlices());
}

layout::ViewResult ExpandOp::computeView(layout::Policy policy,
                                         const layout::Shape &shape,
                                         const layout::Strides &strides) {
  return layout::expandView(policy, shape, strides, toVector(getShape()));
}

layout::ViewResult SqueezeOp::computeView(layout::Policy,
                                          const layout::Shape &shape,
                                          const layout::Strides &strides) {
  std::optional<std::vector<int64_t>> dims;
  if (getDims())
    dims = toVector(*getDims());
  return layout::squeezeView(shape, strides, dims);
}

layout::ViewResult UnsqueezeOp::computeView(layout::Policy policy,
                                            const layout::Shape &shape,
                                            const layout::Strides &strides) {
  return layout::unsqueezeView(policy, shape, strides, getDim());
}

layout::ViewResult FlipOp::computeView(layout::Policy policy,
                                       const layout::Shape &shape,
                                       const layout::Strides &strides) {
  return layout::flipView(policy, shape, strides, toVector(getDims()));
}

layout::ViewResult ReshapeOp::computeView(layout::Policy policy,
                                          const layout::Shape &shape,
                                          const layout::Strides &strides) {
  return layout::reshapeView(policy, shape, strides, toVector(getShape()));
}

//===----------------------------------------------------------------------===//
// Shared entry points
//===----------------------------------------------------------------------===//

bool mlir::stride::isViewOp(Operation *op) {
  return isa<PermuteOp, TransposeOp, SliceOp, ExpandOp, SqueezeOp,
             UnsqueezeOp, FlipOp, ReshapeOp>(op);
}

layout::ViewResult mlir::stride::computeView(Operation *op,
                                             layout::Policy policy,
                                             const layout::Shape &shape,
                                             const layout::Strides &strides) {
  return TypeSwitch<Operation *, layout::ViewResult>(op)
      .Case<PermuteOp, TransposeOp, SliceOp, ExpandOp, SqueezeOp, UnsqueezeOp,
            FlipOp, ReshapeOp>([&](auto view) {
        return view.computeView(policy, shape, strides);
      })
      .Default([](Operation *) {
        layout::ViewResult result;
        result.error = "not a view op";
        return result;
      });
}

layout::ViewResult mlir::stride::computeViewOfType(Operation *op,
                                                   layout::Policy policy,
                                                   RankedTensorType type) {
  SmallVector<int64_t> strides = getStridesOf(type);
  layout::ViewResult result =
      computeView(op, policy, layout::Shape(type.getShape().begin(),
                                            type.getShape().end()),
                  layout::Strides(strides.begin(), strides.end()));
  if (!result.ok() || !result.view.isView)
    return result;
  LayoutAttr operandLayout = getLayout(type);
  int64_t base = operandLayout ? operandLayout.getOffset() : 0;
  if (ShapedType::isDynamic(base) || ShapedType::isDynamic(result.view.offset))
    result.view.offset = ShapedType::kDynamic;
  else
    result.view.offset += base;
  return result;
}

FailureOr<RankedTensorType> mlir::stride::inferViewResult(Operation *op) {
  auto input = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!input)
    return RankedTensorType();
  if (auto squeeze = dyn_cast<SqueezeOp>(op))
    if (!squeeze.getDims() && !input.hasStaticShape())
      return op->emitOpError()
             << "without dims needs static sizes, but the operand has shape "
             << layout::formatShape(layout::Shape(input.getShape().begin(),
                                                  input.getShape().end()))
             << "; list the dims to remove";
  layout::Strides unknown(input.getRank(), ShapedType::kDynamic);
  // The shapes do not depend on the policy; its own refusals (a negative
  // step under torch) are stride-propagate-layout's.
  layout::ViewResult result = computeView(
      op, layout::Policy::Numpy,
      layout::Shape(input.getShape().begin(), input.getShape().end()),
      unknown);
  if (!result.ok())
    return op->emitOpError() << *result.error;
  return RankedTensorType::get(
      result.view.shape,
      cast<ShapedType>(op->getResult(0).getType()).getElementType());
}

LogicalResult mlir::stride::verifyViewOp(Operation *op) {
  Type inElement = getElementTypeOrSelf(op->getOperand(0).getType());
  Type outElement = getElementTypeOrSelf(op->getResult(0).getType());
  if (inElement != outElement)
    return op->emitOpError() << "result element type " << outElement
                             << " differs from the operand's " << inElement;
  if (auto slice = dyn_cast<SliceOp>(op)) {
    if (slice.getStarts().size() != slice.getStops().size() ||
        slice.getStarts().size() != slice.getSteps().size())
      return op->emitOpError() << "has " << slice.getStarts().size()
                               << " starts, " << slice.getStops().size()
                               << " stops and " << slice.getSteps().size()
                               << " steps; give one of each per slice";
  }
  FailureOr<RankedTensorType> inferred = inferViewResult(op);
  if (failed(inferred))
    return failure();
  auto ranked = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!*inferred || !ranked ||
      succeeded(verifyCompatibleShape(ranked.getShape(),
                                      inferred->getShape())))
    return success();
  return op->emitOpError()
         << "result has type " << ranked << " but the operand gives shape "
         << layout::formatShape(layout::Shape(inferred->getShape().begin(),
                                              inferred->getShape().end()));
}

//===----------------------------------------------------------------------===//
// stride.slice syntax: `%x [1:-1, ::2, :]`
//===----------------------------------------------------------------------===//

ParseResult SliceOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand input;
  SmallVector<int64_t> starts, stops, steps;
  auto parsePart = [&](int64_t &value) -> ParseResult {
    int64_t v;
    OptionalParseResult parsed = parser.parseOptionalInteger(v);
    value = kNone;
    if (!parsed.has_value())
      return success();
    if (failed(*parsed))
      return failure();
    value = v;
    return success();
  };
  auto parseSlice = [&]() -> ParseResult {
    int64_t start, stop, step = kNone;
    if (parsePart(start) || parser.parseColon() || parsePart(stop))
      return failure();
    if (succeeded(parser.parseOptionalColon()) && parsePart(step))
      return failure();
    starts.push_back(start);
    stops.push_back(stop);
    steps.push_back(step);
    return success();
  };
  Type inputType, resultType;
  if (parser.parseOperand(input) ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     parseSlice) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(inputType) || parser.parseArrow() ||
      parser.parseType(resultType) ||
      parser.resolveOperand(input, inputType, result.operands))
    return failure();
  Builder &b = parser.getBuilder();
  Properties &props = result.getOrAddProperties<Properties>();
  props.starts = b.getDenseI64ArrayAttr(starts);
  props.stops = b.getDenseI64ArrayAttr(stops);
  props.steps = b.getDenseI64ArrayAttr(steps);
  result.addTypes(resultType);
  return success();
}

void SliceOp::print(OpAsmPrinter &p) {
  p << " " << getInput() << " [";
  auto part = [&](int64_t v) {
    if (v != kNone)
      p << v;
  };
  llvm::interleaveComma(llvm::zip(getStarts(), getStops(), getSteps()), p,
                        [&](auto slice) {
                          auto [start, stop, step] = slice;
                          part(start);
                          p << ":";
                          part(stop);
                          if (step != kNone) {
                            p << ":";
                            part(step);
                          }
                        });
  p << "]";
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {"starts", "stops", "steps"});
  p << " : " << getInput().getType() << " -> " << getType();
}
