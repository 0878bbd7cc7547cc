//===- ViewBufferization.cpp - Stride view ops in One-Shot Bufferize ------===//
//
// A view op bufferizes to a memref.reinterpret_cast of its operand's buffer:
// no copy, no kernel. Its sizes, strides and offset are computed from the
// operand buffer's (constants where the types know them, run-time values
// otherwise); where the result's #stride.layout gives a static stride the
// two must agree (they do when stride-propagate-layout set the layout), except
// on dims of size 1 and in empty views, whose strides address nothing and
// follow the layout (the policies differ there).
//
// A view op marked `copy` (the library copies: a reshape with no view,
// torch's flip) is first rewritten at the tensor level by expandViewCopies
// into a copy (a one-op stride.broadcast into a tensor.empty, a kernel like
// any other, which reads negative strides correctly) and a real view.
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"
#include "Preparation.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::stride;
using namespace mlir::bufferization;
namespace layout = ::stride::layout;

namespace {

/// The view a bufferized view op builds: per result dim a size and a
/// stride, and the offset of its first element in the buffer.
struct BufferView {
  OpFoldResult offset;
  SmallVector<OpFoldResult> sizes, strides;
};

/// Python's slice.indices and range length at run time, for a dim whose
/// size `meta.sizes[d]` is dynamic: moves `view`'s offset to the first
/// element (not at all for an empty range, NumPy's reset), sets the size to
/// the count and multiplies the stride by the step.
void sliceDynamicDim(OpBuilder &b, Location loc, BufferView &view,
                     const StridedMetadata &meta, int64_t d,
                     const layout::SliceSpec &spec) {
  IndexMath math(b, loc);
  int64_t step = spec.step.value_or(1);
  auto c = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value length = math.value(meta.sizes[d]);
  Value last = arith::SubIOp::create(b, loc, length, c(1));
  auto bound = [&](std::optional<int64_t> v, bool isStart) -> Value {
    if (!v)
      return step > 0 ? (isStart ? c(0) : length) : (isStart ? last : c(-1));
    if (*v < 0)
      return arith::MaxSIOp::create(
          b, loc, arith::AddIOp::create(b, loc, c(*v), length),
          c(step > 0 ? 0 : -1));
    return arith::MinSIOp::create(b, loc, c(*v), step > 0 ? length : last);
  };
  Value start = bound(spec.start, true), stop = bound(spec.stop, false);
  Value diff = step > 0 ? arith::SubIOp::create(b, loc, stop, start)
                        : arith::SubIOp::create(b, loc, start, stop);
  Value nonEmpty = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                         diff, c(0));
  Value steps = arith::AddIOp::create(
      b, loc,
      arith::DivSIOp::create(b, loc, arith::SubIOp::create(b, loc, diff, c(1)),
                             c(std::abs(step))),
      c(1));
  Value count = arith::SelectOp::create(b, loc, nonEmpty, steps, c(0));
  Value first = arith::SelectOp::create(b, loc, nonEmpty, start, c(0));
  view.offset = math.add(view.offset, math.mul(first, meta.strides[d]));
  view.sizes[d] = count;
  view.strides[d] = math.mul(meta.strides[d], math.constant(step));
}

FailureOr<BufferView> computeBufferView(Operation *op, OpBuilder &b,
                                        Value source,
                                        RankedTensorType resultType) {
  Location loc = op->getLoc();
  IndexMath math(b, loc);
  StridedMetadata meta = getStridedMetadata(b, loc, source);
  auto sourceType = cast<MemRefType>(source.getType());
  int64_t rank = sourceType.getRank();
  BufferView view;
  view.offset = meta.offset;
  auto staticSize = [&](int64_t d) -> std::optional<int64_t> {
    return getConstantIntValue(meta.sizes[d]);
  };
  auto result = TypeSwitch<Operation *, LogicalResult>(op)
      .Case<PermuteOp>([&](PermuteOp permute) {
        for (int64_t p : permute.getPerm()) {
          view.sizes.push_back(meta.sizes[p]);
          view.strides.push_back(meta.strides[p]);
        }
        return success();
      })
      .Case<TransposeOp>([&](TransposeOp transpose) {
        auto perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
        std::swap(perm[transpose.getDims()[0]], perm[transpose.getDims()[1]]);
        for (int64_t p : perm) {
          view.sizes.push_back(meta.sizes[p]);
          view.strides.push_back(meta.strides[p]);
        }
        return success();
      })
      .Case<SqueezeOp>([&](SqueezeOp squeeze) {
        SmallVector<bool> drop(rank, false);
        if (std::optional<ArrayRef<int64_t>> dims = squeeze.getDims()) {
          for (int64_t d : *dims)
            drop[d] = true;
        } else {
          for (int64_t d = 0; d < rank; ++d)
            drop[d] = staticSize(d) == 1;
        }
        for (int64_t d = 0; d < rank; ++d)
          if (!drop[d]) {
            view.sizes.push_back(meta.sizes[d]);
            view.strides.push_back(meta.strides[d]);
          }
        return success();
      })
      .Case<UnsqueezeOp>([&](UnsqueezeOp unsqueeze) {
        view.sizes = meta.sizes;
        view.strides = meta.strides;
        int64_t d = unsqueeze.getDim();
        view.sizes.insert(view.sizes.begin() + d, math.constant(1));
        view.strides.insert(view.strides.begin() + d, math.constant(1));
        return success();
      })
      .Case<ExpandOp>([&](ExpandOp expand) {
        ArrayRef<int64_t> target = expand.getShape();
        int64_t lead = target.size() - rank;
        for (auto [i, want] : llvm::enumerate(target)) {
          int64_t d = int64_t(i) - lead;
          if (d < 0) {
            view.sizes.push_back(math.constant(want));
            view.strides.push_back(math.constant(0));
            continue;
          }
          std::optional<int64_t> size = staticSize(d);
          if (want == -1 || (size && *size == want)) {
            view.sizes.push_back(meta.sizes[d]);
            view.strides.push_back(meta.strides[d]);
            continue;
          }
          view.sizes.push_back(math.constant(want));
          view.strides.push_back(
              size ? math.constant(0)
                   : math.selectIfOne(meta.sizes[d], math.constant(0),
                                      meta.strides[d]));
        }
        return success();
      })
      .Case<SliceOp>([&](SliceOp slice) {
        view.sizes = meta.sizes;
        view.strides = meta.strides;
        for (auto [d, spec] : llvm::enumerate(slice.getSlices())) {
          std::optional<int64_t> length = staticSize(d);
          int64_t step = spec.step.value_or(1);
          if (!length) {
            if (!spec.start && !spec.stop && step == 1)
              continue;
            sliceDynamicDim(b, loc, view, meta, d, spec);
            continue;
          }
          layout::SliceRange range = layout::resolveSlice(spec, *length);
          if (range.count <= 0)
            range = {0, 1, 0};
          view.offset = math.add(
              view.offset, math.mul(math.constant(range.start), meta.strides[d]));
          view.sizes[d] = math.constant(range.count);
          view.strides[d] =
              math.mul(meta.strides[d], math.constant(range.step));
        }
        return success();
      })
      .Case<FlipOp>([&](FlipOp flip) {
        view.sizes = meta.sizes;
        view.strides = meta.strides;
        for (int64_t d : flip.getDims()) {
          std::optional<int64_t> size = staticSize(d);
          if (size && *size == 0)
            continue;
          OpFoldResult last =
              size ? math.constant(*size - 1)
                   : OpFoldResult(arith::SubIOp::create(
                                      b, loc, math.value(meta.sizes[d]),
                                      math.value(math.constant(1)))
                                      .getResult());
          view.offset = math.add(view.offset, math.mul(last, meta.strides[d]));
          view.strides[d] = math.mul(meta.strides[d], math.constant(-1));
        }
        return success();
      })
      .Case<ReshapeOp>([&](ReshapeOp reshape) {
        // A reshape that is a view has static strides (the rule needs
        // them): the layout's.
        SmallVector<int64_t> strides = getStridesOf(resultType);
        auto operandType = cast<RankedTensorType>(op->getOperand(0).getType());
        LayoutAttr operandLayout = getLayout(operandType);
        bool rowMajorOperand =
            !operandLayout || (operandLayout.getOffset() == 0 &&
                               operandLayout.isRowMajorFor(operandType.getShape()));
        if ((!resultType.hasStaticShape() ||
             llvm::any_of(strides, ShapedType::isDynamic)) &&
            rowMajorOperand) {
          // A row-major operand (what a copy gives, and a reshape with
          // dynamic sizes is one): the row-major view of the new shape,
          // the inferred dim being the element count over the others.
          OpFoldResult count = math.constant(1);
          for (OpFoldResult size : meta.sizes)
            count = math.mul(count, size);
          int64_t known = 1;
          for (int64_t t : reshape.getShape())
            if (t != -1)
              known *= t;
          for (int64_t t : reshape.getShape()) {
            if (t != -1) {
              view.sizes.push_back(math.constant(t));
              continue;
            }
            std::optional<int64_t> c = getConstantIntValue(count);
            view.sizes.push_back(
                c ? math.constant(known ? *c / known : 0)
                  : OpFoldResult(arith::DivSIOp::create(
                                     b, loc, math.value(count),
                                     math.value(math.constant(
                                         std::max<int64_t>(known, 1))))
                                     .getResult()));
          }
          SmallVector<OpFoldResult> dense(view.sizes.size());
          OpFoldResult running = math.constant(1);
          for (int64_t i = int64_t(view.sizes.size()) - 1; i >= 0; --i) {
            dense[i] = running;
            std::optional<int64_t> c = getConstantIntValue(view.sizes[i]);
            OpFoldResult extent =
                c ? math.constant(std::max<int64_t>(*c, 1))
                  : OpFoldResult(arith::MaxSIOp::create(
                                     b, loc, math.value(view.sizes[i]),
                                     math.value(math.constant(1)))
                                     .getResult());
            running = math.mul(running, extent);
          }
          view.strides = dense;
          return success();
        }
        if (!resultType.hasStaticShape() ||
            llvm::any_of(strides, ShapedType::isDynamic))
          return LogicalResult(
              op->emitOpError()
              << "is a view with unknown strides; run stride-propagate-layout "
                 "(a reshape with dynamic sizes is a copy)");
        for (auto [size, stride] : llvm::zip(resultType.getShape(), strides)) {
          view.sizes.push_back(math.constant(size));
          view.strides.push_back(math.constant(stride));
        }
        return success();
      })
      .Default([&](Operation *) {
        return LogicalResult(op->emitOpError() << "is not a view op");
      });
  if (failed(result))
    return failure();
  // Static result sizes come from the type.
  for (int64_t d = 0; d < resultType.getRank(); ++d)
    if (!resultType.isDynamicDim(d))
      view.sizes[d] = math.constant(resultType.getDimSize(d));
  SmallVector<int64_t> declared = getStridesOf(resultType);
  bool empty = llvm::is_contained(resultType.getShape(), 0);
  for (int64_t d = 0; d < resultType.getRank(); ++d) {
    if (ShapedType::isDynamic(declared[d]))
      continue;
    std::optional<int64_t> computed = getConstantIntValue(view.strides[d]);
    if (empty || resultType.getDimSize(d) == 1 || !computed) {
      // Addresses nothing (or the layout knows it): the layout's.
      view.strides[d] = math.constant(declared[d]);
      continue;
    }
    if (*computed != declared[d])
      return op->emitOpError()
             << "result layout gives dim " << d << " stride " << declared[d]
             << " but the view of its operand has stride " << *computed
             << "; run stride-propagate-layout before bufferization";
  }
  return view;
}

/// `buffer` itself, or a copy of it in `type`'s strides where the buffer's
/// static strides are other ones. A foreign op's result keeps the plain
/// (row-major) type it was written with while its buffer is the one it
/// wrote in place: `tensor.insert_slice` into a laid-out Stride result
/// (`b = a.T * 2; b[0] = 4`) reads the column-major buffer through a
/// cast, and a view of it is computed from the type's strides.
Value inDeclaredStrides(OpBuilder &b, Location loc, RankedTensorType type,
                        Value buffer) {
  auto have = cast<MemRefType>(buffer.getType());
  if (have.getLayout().isIdentity() || !type.hasStaticShape())
    return buffer;
  SmallVector<int64_t> declared = getStridesOf(type);
  SmallVector<int64_t> strides;
  int64_t offset;
  if (llvm::any_of(declared, ShapedType::isDynamic) ||
      failed(have.getStridesAndOffset(strides, offset)) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return buffer;
  bool same = true;
  for (int64_t d = 0; d < type.getRank(); ++d)
    same &= type.getDimSize(d) == 1 || declared[d] == strides[d];
  return same ? buffer : copyInLayout(b, loc, type, buffer);
}

template <typename OpTy>
struct ViewOpInterface
    : public BufferizableOpInterface::ExternalModel<ViewOpInterface<OpTy>,
                                                    OpTy> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return false;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &,
                               const AnalysisState &) const {
    return false;
  }
  AliasingValueList getAliasingValues(Operation *op, OpOperand &,
                                      const AnalysisState &) const {
    return {{op->getResult(0), BufferRelation::Unknown}};
  }

  FailureOr<BufferLikeType>
  getBufferType(Operation *op, Value value, const BufferizationOptions &,
                const BufferizationState &, SmallVector<Value> &) const {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return op->emitOpError()
             << "result is unranked; run stride-infer-shapes before "
                "bufferization";
    return cast<BufferLikeType>(memrefTypeFor(type));
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    if (op->hasAttr("copy"))
      return op->emitOpError()
             << "is a copy (marked `copy`); stride-bufferize rewrites it "
                "into a copy and a view before One-Shot Bufferize";
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType ||
        !isa<RankedTensorType>(op->getOperand(0).getType()))
      return op->emitOpError() << "shapes are unknown; run "
                                  "stride-infer-shapes before bufferization";
    FailureOr<Value> source =
        getBuffer(rewriter, op->getOperand(0), options, state);
    if (failed(source))
      return failure();
    rewriter.setInsertionPoint(op);
    auto operandType = cast<RankedTensorType>(op->getOperand(0).getType());
    source = inOperandLayout(rewriter, op->getLoc(), operandType, *source);
    source = inDeclaredStrides(rewriter, op->getLoc(), operandType, *source);
    FailureOr<BufferView> view =
        computeBufferView(op, rewriter, *source, resultType);
    if (failed(view))
      return failure();
    Value result = memref::ReinterpretCastOp::create(
        rewriter, op->getLoc(), memrefTypeFor(resultType), *source,
        view->offset, view->sizes, view->strides);
    replaceOpWithBufferizedValues(rewriter, op, result);
    return success();
  }
};

template <typename... Ops> void attachViews(MLIRContext *context) {
  (Ops::template attachInterface<ViewOpInterface<Ops>>(*context), ...);
}

} // namespace

void mlir::stride::attachViewBufferizationModels(MLIRContext *context) {
  attachViews<PermuteOp, TransposeOp, SliceOp, ExpandOp, SqueezeOp,
              UnsqueezeOp, FlipOp, ReshapeOp>(context);
}

LogicalResult mlir::stride::expandViewCopies(ModuleOp module) {
  SmallVector<Operation *> copies;
  module.walk([&](Operation *op) {
    if (isViewOp(op) && op->hasAttr("copy"))
      copies.push_back(op);
  });
  for (Operation *op : copies) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    auto input = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!input || !result)
      return op->emitOpError() << "shapes are unknown; run "
                                  "stride-infer-shapes before bufferization";
    op->removeAttr("copy");
    if (isa<ReshapeOp>(op)) {
      // Copy into a row-major tensor of the operand's shape, of which the
      // reshape is a row-major view.
      auto rowMajor =
          RankedTensorType::get(input.getShape(), input.getElementType());
      Value copy = buildCopy(b, loc, op->getOperand(0), rowMajor);
      op->setOperand(0, copy);
      continue;
    }
    // The view as NumPy takes it (a flip with negative strides), then a
    // copy of it in the result's layout.
    layout::ViewResult view =
        computeViewOfType(op, layout::Policy::Numpy, input);
    if (!view.ok())
      return op->emitOpError() << *view.error;
    auto viewType = RankedTensorType::get(
        result.getShape(), result.getElementType(),
        LayoutAttr::get(op->getContext(), ArrayRef<int64_t>(view.view.strides),
                        ArrayRef<int64_t>(), view.view.offset));
    op->getResult(0).setType(viewType);
    b.setInsertionPointAfter(op);
    Value copy = buildCopy(b, loc, op->getResult(0), result);
    op->getResult(0).replaceAllUsesExcept(copy, copy.getDefiningOp());
  }
  return success();
}
