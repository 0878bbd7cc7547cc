//===- LayoutOperands.cpp - What an op's result layout is decided from ---===//

#include "stride/Dialect/Stride/Transforms/LayoutOperands.h"

#include "stride/Dialect/Stride/IR/StrideOps.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::stride;
namespace layout = ::stride::layout;

namespace {
/// PyTorch's type promotion (c10::promoteTypes) of two of Stride's element
/// types: bool yields to anything, a float beats an integer whatever their
/// widths, and within a category the wider type wins.
Type torchPromote(Type a, Type b) {
  if (!a || a == b)
    return b;
  if (!b)
    return a;
  if (a.isInteger(1))
    return b;
  if (b.isInteger(1))
    return a;
  if (isa<FloatType>(a) != isa<FloatType>(b))
    return isa<FloatType>(a) ? a : b;
  return a.getIntOrFloatBitWidth() >= b.getIntOrFloatBitWidth() ? a : b;
}

/// c10's combine_categories: a lower-priority operand (0-d tensor, Python
/// scalar) changes the result only when it is of a higher category.
Type torchCombine(Type higher, Type lower) {
  if (!higher)
    return lower;
  if (isa<FloatType>(higher))
    return higher;
  if (higher.isInteger(1) || (lower && isa<FloatType>(lower)))
    return torchPromote(higher, lower);
  return higher;
}

/// The dtype TensorIterator computes in (torch.result_type) for operands of
/// these element types: dimensioned tensors first, then 0-d tensors, then
/// scalars, which count as PyTorch's wrapped numbers (a float one as the
/// default dtype, float32).
Type torchCommonType(ArrayRef<Value> sources) {
  Type dims, zeros, wrapped;
  for (Value v : sources) {
    Type type = v.getType();
    Type element = getElementTypeOrSelf(type);
    if (!element.isIntOrFloat())
      return {};
    auto ranked = dyn_cast<RankedTensorType>(type);
    if (!isa<TensorType>(type)) {
      if (isa<FloatType>(element))
        element = Float32Type::get(type.getContext());
      else if (!element.isInteger(1))
        element = IntegerType::get(type.getContext(), 64);
      wrapped = torchPromote(wrapped, element);
    } else if (ranked && ranked.getRank() == 0) {
      zeros = torchPromote(zeros, element);
    } else {
      dims = torchPromote(dims, element);
    }
  }
  return torchCombine(dims, torchCombine(zeros, wrapped));
}
} // namespace

LayoutOperands mlir::stride::layoutOperands(layout::Policy policy,
                                            ValueRange operands) {
  auto promotion = [](Value v) {
    auto cast = v.getDefiningOp<CastOp>();
    return cast && cast->hasAttr("stride.promotion") ? cast : CastOp();
  };
  SmallVector<Value> sources;
  for (Value v : operands)
    sources.push_back(promotion(v) ? promotion(v).getOperand() : v);
  Type torchCommon = policy == layout::Policy::Torch
                         ? torchCommonType(sources)
                         : Type();
  LayoutOperands result;
  for (auto [v, source] : llvm::zip_equal(operands, sources)) {
    bool seeThrough = false;
    if (promotion(v)) {
      if (policy == layout::Policy::Numpy)
        seeThrough = true;
      else if (policy == layout::Policy::Torch)
        seeThrough = torchCommon && getElementTypeOrSelf(source.getType()) ==
                                        torchCommon;
    }
    result.values.push_back(seeThrough ? source : v);
    result.converted.push_back(seeThrough &&
                               policy == layout::Policy::Numpy);
  }
  return result;
}

bool mlir::stride::isCastOrCopy(Operation *op) {
  if (isa<CastOp>(op))
    return true;
  auto broadcast = dyn_cast<BroadcastOp>(op);
  if (!broadcast || broadcast->getNumOperands() != 1 ||
      broadcast->getNumResults() != 1)
    return false;
  Block &body = broadcast.getBodyBlock();
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  return yield && &body.front() == yield.getOperation() &&
         yield->getNumOperands() == 1 &&
         yield->getOperand(0) == body.getArgument(0);
}
