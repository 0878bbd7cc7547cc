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

/// The category a value has in torch.result_type: a dimensioned tensor, a
/// 0-d tensor, or a scalar (a wrapped number; a float one counts as the
/// default dtype, float32).
enum class Priority { Dims, Zero, Wrapped };

Priority priorityOf(Value v) {
  auto ranked = dyn_cast<RankedTensorType>(v.getType());
  if (!isa<TensorType>(v.getType()))
    return Priority::Wrapped;
  return ranked && ranked.getRank() == 0 ? Priority::Zero : Priority::Dims;
}

CastOp promotionOf(Value v) {
  auto cast = v.getDefiningOp<CastOp>();
  return cast && cast->hasAttr("stride.promotion") ? cast : CastOp();
}
} // namespace

Type TorchDtypes::common(ValueRange values) {
  Type dims, zeros, wrapped;
  for (Value v : values) {
    Type element = get(v);
    if (!element || !element.isIntOrFloat())
      return {};
    switch (priorityOf(v)) {
    case Priority::Wrapped:
      if (isa<FloatType>(element))
        element = Float32Type::get(v.getContext());
      else if (!element.isInteger(1))
        element = IntegerType::get(v.getContext(), 64);
      wrapped = torchPromote(wrapped, element);
      break;
    case Priority::Zero:
      zeros = torchPromote(zeros, element);
      break;
    case Priority::Dims:
      dims = torchPromote(dims, element);
      break;
    }
  }
  return torchCombine(dims, torchCombine(zeros, wrapped));
}

/// The values PyTorch's dtype of `value`'s op is computed from; empty when
/// it is Stride's own result type.
static SmallVector<Value> torchDtypeSources(Value value) {
  Operation *op = value.getDefiningOp();
  // A reduction's result type is its own (int sums are int64 in both).
  if (!op || !isa<StrideDialect>(op->getDialect()) || isa<MatmulOp>(op) ||
      isReduction(op))
    return {};
  if (getElementTypeOrSelf(value.getType()).isInteger(1))
    return {}; // comparisons, predicates and logic give bool in both
  if (auto cast = dyn_cast<CastOp>(op))
    return promotionOf(value) ? SmallVector<Value>{cast.getOperand()}
                              : SmallVector<Value>{};
  if (auto select = dyn_cast<SelectOp>(op))
    return {select.getTrueValue(), select.getFalseValue()};
  if (isa<BroadcastOp>(op) && !isCastOrCopy(op))
    return {};
  return SmallVector<Value>(op->getOperands());
}

Type TorchDtypes::compute(Value value) {
  Type own = getElementTypeOrSelf(value.getType());
  SmallVector<Value> sources = torchDtypeSources(value);
  if (sources.empty())
    return own;
  Type common = this->common(sources);
  if (!common || !own.isIntOrFloat())
    return own;
  // An op that gives a float for integer inputs (true division, sqrt, ...)
  // gives PyTorch's default dtype.
  if (isa<FloatType>(own) && !isa<FloatType>(common))
    return Float32Type::get(value.getContext());
  if (isa<FloatType>(own) != isa<FloatType>(common))
    return own;
  return common;
}

Type TorchDtypes::get(Value value) {
  if (auto it = cache.find(value); it != cache.end())
    return it->second;
  // Resolve the sources first, without recursion.
  SmallVector<Value> stack{value};
  while (!stack.empty()) {
    Value top = stack.back();
    if (cache.count(top)) {
      stack.pop_back();
      continue;
    }
    bool ready = true;
    for (Value source : torchDtypeSources(top))
      if (!cache.count(source)) {
        stack.push_back(source);
        ready = false;
      }
    if (!ready)
      continue;
    cache[top] = compute(top);
    stack.pop_back();
  }
  return cache[value];
}

LayoutOperands mlir::stride::layoutOperands(layout::Policy policy,
                                            Operation *op, ValueRange operands,
                                            TorchDtypes &torch) {
  SmallVector<Value> sources;
  SmallVector<bool> promoted;
  for (Value v : operands) {
    CastOp cast = promotionOf(v);
    sources.push_back(cast ? cast.getOperand() : v);
    promoted.push_back(static_cast<bool>(cast));
  }
  // PyTorch's where converts only its two values (the condition is bool).
  bool select = isa_and_nonnull<SelectOp>(op) && operands.size() == 3;
  Type torchCommon;
  if (policy == layout::Policy::Torch)
    torchCommon = torch.common(select ? ValueRange(operands).drop_front()
                                      : ValueRange(operands));
  LayoutOperands result;
  for (auto [i, source, cast] : llvm::enumerate(sources, promoted)) {
    result.values.push_back(source);
    result.converted.push_back(cast && policy == layout::Policy::Numpy);
    bool copied = false;
    if (policy == layout::Policy::Torch && !(select && i == 0))
      copied = torchCommon ? torch.get(source) != torchCommon : cast;
    result.copied.push_back(copied);
  }
  return result;
}

/// The op's layout rule, if it has one.
static std::optional<LayoutRuleKind> ruleKindOf(Operation *op) {
  if (auto rule = dyn_cast_or_null<LayoutRuleOpInterface>(op))
    return rule.getLayoutRule().kind;
  return std::nullopt;
}

layout::NumpyLoop mlir::stride::numpyLoopOf(Operation *op) {
  return ruleKindOf(op) == LayoutRuleKind::Where ? layout::NumpyLoop::Where
                                                 : layout::NumpyLoop::Ufunc;
}

bool mlir::stride::isCastOrCopy(Operation *op) {
  return ruleKindOf(op) == LayoutRuleKind::Copy;
}
