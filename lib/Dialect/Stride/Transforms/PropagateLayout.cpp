//===- PropagateLayout.cpp - Result layouts as PyTorch or NumPy pick them -===//

#include "ModuleStructure.h"

#include "stride/Dialect/Stride/Transforms/LayoutOperands.h"

#include "stride/Dialect/Stride/IR/StrideOps.h"
#include "stride/Dialect/Stride/Transforms/Passes.h"
#include "stride/Layout/Reduce.h"
#include "stride/Layout/Strides.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEPROPAGATELAYOUT
#include "stride/Dialect/Stride/Transforms/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;
using namespace mlir::stride;

namespace {
/// Stand-in for a dynamic size when only the order of dimensions matters:
/// large enough not to look like a size-1 or broadcast dim.
constexpr int64_t kRepresentativeSize = 2;

/// The element strides of an operand for layout purposes, at `sizes` (its
/// static sizes with dynamic ones replaced). Unknown strides keep the
/// operand's dimension order, so the decision depends only on that order.
layout::Strides operandStrides(Type type, ArrayRef<int64_t> sizes) {
  auto ranked = cast<RankedTensorType>(type);
  SmallVector<int64_t> strides = getStridesOf(ranked);
  if (llvm::none_of(strides, ShapedType::isDynamic))
    return layout::Strides(strides.begin(), strides.end());
  LayoutAttr layout = getLayout(ranked);
  SmallVector<int64_t> order = layout ? layout.getDimOrder(ranked.getShape())
                                      : SmallVector<int64_t>();
  if (order.empty())
    for (int64_t i = 0; i < ranked.getRank(); ++i)
      order.push_back(i);
  return layout::stridesFromPerm(layout::Shape(sizes.begin(), sizes.end()),
                                 std::vector<int64_t>(order.begin(),
                                                      order.end()));
}

/// The layout the policy gives the result of an elementwise op over
/// `operands` (or, with `copyLike`, of a cast or copy of its one operand),
/// run as NumPy runs `loop`, or null when some operand is unranked.
FailureOr<LayoutAttr> elementwiseLayout(layout::Policy policy,
                                        const LayoutOperands &operands,
                                        RankedTensorType result, bool copyLike,
                                        layout::NumpyLoop loop) {
  auto representative = [](ArrayRef<int64_t> shape) {
    layout::Shape sizes;
    for (int64_t s : shape)
      sizes.push_back(ShapedType::isDynamic(s) ? kRepresentativeSize : s);
    return sizes;
  };
  layout::Shape outShape = representative(result.getShape());
  std::vector<layout::Operand> inputs;
  for (auto [v, converted, copied] : llvm::zip_equal(
           operands.values, operands.converted, operands.copied)) {
    Type type = v.getType();
    if (isa<UnrankedTensorType>(type))
      return failure();
    if (!isa<RankedTensorType>(type)) {
      inputs.push_back({}); // a scalar is a 0-d operand
      continue;
    }
    // A dynamic operand dim takes the result's size there: after shape
    // inference it is either that size or 1, and 1 is checked at run time.
    ArrayRef<int64_t> shape = cast<RankedTensorType>(type).getShape();
    layout::Shape sizes(shape.begin(), shape.end());
    size_t offset = outShape.size() - sizes.size();
    for (auto [i, size] : llvm::enumerate(sizes))
      if (ShapedType::isDynamic(size))
        size = outShape[offset + i];
    inputs.push_back({sizes, operandStrides(type, sizes)});
    inputs.back().converted = converted;
    if (copied)
      inputs.back().strides = layout::copyLikeStrides(policy, inputs.back());
  }
  layout::Strides strides =
      copyLike && inputs.size() == 1 && inputs[0].shape == outShape
          ? layout::copyLikeStrides(policy, inputs[0])
          : layout::computeOutputStrides(policy, inputs, outShape, loop);
  MLIRContext *context = result.getContext();
  if (result.hasStaticShape())
    return LayoutAttr::get(context, ArrayRef<int64_t>(strides));
  std::vector<int64_t> perm = layout::permFromStrides(outShape, strides);
  return LayoutAttr::getWithPerm(context, perm);
}

/// PyTorch allocates matmul results row-major. NumPy's matmul is a
/// generalized ufunc: its batch (loop) dims are laid out in `order='K'` of the
/// operands' batch dims and the core dims (m, n) are row-major inside; an
/// empty result has all-zero strides. Null means row-major; shapes that are
/// not static are taken as row-major too.
LayoutAttr matmulLayout(layout::Policy policy, ValueRange operands,
                        RankedTensorType result) {
  if (policy != layout::Policy::Numpy || !result.hasStaticShape() ||
      operands.size() != 2)
    return {};
  auto lhs = dyn_cast<RankedTensorType>(operands[0].getType());
  auto rhs = dyn_cast<RankedTensorType>(operands[1].getType());
  if (!lhs || !rhs || !lhs.hasStaticShape() || !rhs.hasStaticShape())
    return {};
  auto operand = [](RankedTensorType t) {
    SmallVector<int64_t> strides = getStridesOf(t);
    return layout::Operand{layout::Shape(t.getShape().begin(),
                                         t.getShape().end()),
                           layout::Strides(strides.begin(), strides.end())};
  };
  layout::Strides strides = layout::matmulOutputStrides(
      policy, operand(lhs), operand(rhs),
      layout::Shape(result.getShape().begin(), result.getShape().end()));
  return LayoutAttr::get(result.getContext(), ArrayRef<int64_t>(strides));
}

/// What the policy's library refuses of a reduction that Stride's verifier
/// accepts, as a diagnostic: under torch a mean of integers and an argmax
/// or argmin of i1 that PyTorch's kernel would run; under numpy an axis of
/// a 0-d input (except for argmax/argmin, which flatten it first).
LogicalResult checkReducePolicy(layout::Policy policy, Operation *op,
                                ReduceKind kind, RankedTensorType input) {
  Type element = input.getElementType();
  StringRef name = reduceKindName(kind);
  bool index = kind == ReduceKind::Argmax || kind == ReduceKind::Argmin;
  if (policy == layout::Policy::Torch) {
    if (kind == ReduceKind::Mean && !isa<FloatType>(element))
      return op->emitOpError()
             << "mean of " << element
             << " elements is an error under policy torch: PyTorch's mean "
                "needs a floating-point input (cast it first)";
    if (index && element.isInteger(1)) {
      // PyTorch fills a result over a size-1 axis with 0 and runs no kernel
      // on an empty input; otherwise its kernel has no bool version.
      std::optional<SmallVector<bool>> reduced = getReducedDims(op);
      bool runsKernel = true;
      if (op->getAttrOfType<DenseI64ArrayAttr>("axes") && reduced) {
        for (int64_t d = 0; d < input.getRank(); ++d)
          if ((*reduced)[d] && input.getDimSize(d) == 1)
            runsKernel = false;
        if (llvm::is_contained(input.getShape(), 0))
          runsKernel = false;
      }
      if (runsKernel)
        return op->emitOpError()
               << name << " of i1 elements is an error under policy torch: "
               << "PyTorch has no " << name << " kernel for bool";
    }
  }
  if (policy == layout::Policy::Numpy && input.getRank() == 0 && !index) {
    auto axes = op->getAttrOfType<DenseI64ArrayAttr>("axes");
    if (axes && !axes.empty())
      return op->emitOpError()
             << "axis " << axes[0]
             << " is out of range for a 0-d input under policy numpy";
  }
  return success();
}

/// The layout the policy gives a reduction's result (see
/// layout::reduceOutputStrides), or null for row-major.
LayoutAttr reduceLayout(layout::Policy policy, Operation *op, ReduceKind kind,
                        RankedTensorType input, RankedTensorType result) {
  std::optional<SmallVector<bool>> reduced = getReducedDims(op);
  if (!reduced)
    return {};
  layout::Shape sizes;
  for (int64_t s : input.getShape())
    sizes.push_back(ShapedType::isDynamic(s) ? kRepresentativeSize : s);
  layout::Operand operand{sizes, operandStrides(input, sizes)};
  std::vector<bool> flags(reduced->begin(), reduced->end());
  bool keepdims = getKeepdims(op);
  layout::Strides strides = layout::reduceOutputStrides(
      policy, operand, flags, keepdims,
      kind == ReduceKind::Argmax || kind == ReduceKind::Argmin);
  MLIRContext *context = result.getContext();
  if (result.hasStaticShape())
    return LayoutAttr::get(context, ArrayRef<int64_t>(strides));
  layout::Shape outShape = layout::reduceShape(sizes, flags, keepdims);
  return LayoutAttr::getWithPerm(context,
                                 layout::permFromStrides(outShape, strides));
}

LogicalResult propagateReduce(layout::Policy policy, Operation *op,
                              ReduceKind kind) {
  auto input = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!input)
    return success();
  if (failed(checkReducePolicy(policy, op, kind, input)))
    return failure();
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (result)
    op->getResult(0).setType(
        withLayout(result, reduceLayout(policy, op, kind, input, result)));
  return success();
}

/// A foreign op whose result has its destination's type (the `dest` of
/// tensor.insert_slice and tensor.insert, the `outs` of a linalg op) keeps
/// the types it was written with: a destination that became a laid-out
/// Stride result is read through a tensor.cast, a view of the same buffer.
void castForeignDestinations(func::FuncOp func) {
  auto castTo = [](OpOperand &dest, Type type) {
    if (dest.get().getType() == type || !isa<RankedTensorType>(type))
      return;
    OpBuilder b(dest.getOwner());
    dest.set(
        tensor::CastOp::create(b, dest.getOwner()->getLoc(), type, dest.get()));
  };
  func.walk([&](Operation *op) {
    if (auto insert = dyn_cast<tensor::InsertSliceOp>(op))
      castTo(insert.getDestMutable(), insert.getType());
    else if (auto insert = dyn_cast<tensor::InsertOp>(op))
      castTo(insert.getDestMutable(), insert.getType());
    else if (auto dps = dyn_cast<DestinationStyleOpInterface>(op);
             dps && !isa<StrideDialect>(op->getDialect()) &&
             dps.hasPureTensorSemantics())
      for (OpOperand &init : dps.getDpsInitsMutable())
        castTo(init, dps.getTiedOpResult(&init).getType());
  });
}

struct StridePropagateLayoutPass
    : mlir::stride::impl::StridePropagateLayoutBase<StridePropagateLayoutPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(refineModule(getOperation(), Refinement::Layout,
                            [&](func::FuncOp func) {
                              TorchDtypes torch;
                              bool failedAny = false;
                              func->walk([&](Operation *op) {
                                if (isa<StrideDialect>(op->getDialect()) &&
                                    !isa<YieldOp>(op) &&
                                    failed(propagate(policy, op, torch)))
                                  failedAny = true;
                              });
                              if (failedAny)
                                return failure();
                              castForeignDestinations(func);
                              updateSignature(func);
                              return success();
                            })))
      signalPassFailure();
  }

  /// A view's layout: the strides and offset its policy's library gives it
  /// (lib/Layout/Views.cpp), or, where the library copies, the copy's; the
  /// op is then marked `copy`.
  LogicalResult propagateView(layout::Policy policy, Operation *op) {
    auto input = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!input || !type)
      return success();
    layout::ViewResult view = computeViewOfType(op, policy, input);
    if (!view.ok())
      return op->emitOpError() << *view.error;
    if (view.view.strides.size() != size_t(type.getRank()))
      return op->emitOpError() << "result has rank " << type.getRank()
                               << " but the view has rank "
                               << view.view.strides.size();
    if (isa<FlipOp, ReshapeOp>(op)) {
      if (view.view.isView)
        op->removeAttr("copy");
      else
        op->setAttr("copy", UnitAttr::get(op->getContext()));
    }
    auto layout =
        LayoutAttr::get(op->getContext(), ArrayRef<int64_t>(view.view.strides),
                        ArrayRef<int64_t>(),
                        view.view.isView ? view.view.offset : 0);
    op->getResult(0).setType(withLayout(type, layout));
    return success();
  }

  /// Lays out `op`'s results by its LayoutRuleOpInterface rule, the same
  /// rule stride-compile records in a layout graph.
  LogicalResult propagate(layout::Policy policy, Operation *op,
                          TorchDtypes &torch) {
    auto ruled = dyn_cast<LayoutRuleOpInterface>(op);
    if (!ruled)
      return success();
    LayoutRule rule = ruled.getLayoutRule();
    switch (rule.kind) {
    case LayoutRuleKind::Destination:
      return success(); // destinations keep their strides
    case LayoutRuleKind::View:
      return propagateView(policy, op);
    case LayoutRuleKind::Reduce: {
      std::optional<ReduceKind> kind = getReduceKind(op);
      if (!kind)
        return op->emitOpError() << "has a reduce layout rule but is not a "
                                    "reduction";
      return propagateReduce(policy, op, *kind);
    }
    case LayoutRuleKind::Matmul:
      for (OpResult result : op->getResults())
        if (auto type = dyn_cast<RankedTensorType>(result.getType()))
          result.setType(
              withLayout(type, matmulLayout(policy, rule.operands, type)));
      return success();
    case LayoutRuleKind::Elementwise:
    case LayoutRuleKind::Where:
    case LayoutRuleKind::Copy:
      break;
    }
    LayoutOperands seen = layoutOperands(policy, op, rule.operands, torch);
    for (OpResult result : op->getResults()) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (!type)
        continue;
      FailureOr<LayoutAttr> layout = elementwiseLayout(
          policy, seen, type, rule.kind == LayoutRuleKind::Copy,
          rule.kind == LayoutRuleKind::Where ? layout::NumpyLoop::Where
                                             : layout::NumpyLoop::Ufunc);
      if (succeeded(layout))
        result.setType(withLayout(type, *layout));
    }
    return success();
  }

  void updateSignature(func::FuncOp func) {
    if (func.isExternal())
      return;
    if (keepResultLayouts) {
      func.walk([&](func::ReturnOp ret) {
        OpBuilder b(ret);
        for (auto [i, declared] : llvm::enumerate(func.getResultTypes())) {
          auto want = dyn_cast<RankedTensorType>(declared);
          auto have = dyn_cast<RankedTensorType>(ret.getOperand(i).getType());
          if (!want || !have || want.getRank() != have.getRank() ||
              want.getEncoding() == have.getEncoding())
            continue;
          auto target = RankedTensorType::get(
              have.getShape(), have.getElementType(), want.getEncoding());
          // Another spelling of the same strides (a row-major result and
          // `strides = [...]` of the caller's buffer) is the same buffer.
          if (have.hasStaticShape() &&
              getStridesOf(have) == getStridesOf(target)) {
            ret.setOperand(i, tensor::CastOp::create(b, ret.getLoc(), target,
                                                     ret.getOperand(i)));
            continue;
          }
          ret.setOperand(i,
                         buildCopy(b, ret.getLoc(), ret.getOperand(i), target));
        }
      });
    }
    updateResultTypes(func, Refinement::Layout);
  }
};
} // namespace
