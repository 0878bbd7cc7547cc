//===- Bufferize.cpp - stride-bufferize: One-Shot for Stride modules ------===//

#include "Kernels.h"
#include "Preparation.h"

#include "stride/Dialect/Stride/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEBUFFERIZE
#include "stride/Dialect/Stride/Transforms/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;
using namespace mlir::stride;

namespace {
/// An entry's tensor inputs (its first `numInputs` arguments) are the
/// caller's buffers (NumPy arrays, for stride.compile): One-Shot must not
/// write them in place, or a caller would see its input change, and two
/// inputs that alias at run time (one array passed twice) would meet a
/// write that the analysis, which takes distinct arguments for distinct
/// buffers, thought safe. A destination that is an input is then written
/// out of place. Only the output arguments are written; callers keep them
/// apart from every input (docs/composition.md).
void readOnlyInputs(func::FuncOp func, unsigned numInputs) {
  BoolAttr no = BoolAttr::get(func.getContext(), false);
  for (unsigned i = 0; i < numInputs; ++i)
    if (isa<TensorType>(func.getArgument(i).getType()))
      func.setArgAttr(i, bufferization::BufferizationDialect::kWritableAttrName,
                      no);
}

struct StrideBufferizePass
    : mlir::stride::impl::StrideBufferizeBase<StrideBufferizePass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder builder(module.getContext());
    if (threads > 1)
      module.walk([&](Operation *op) {
        // A row loop's blocks are small, and the loop itself is what
        // threads split.
        if ((isa<BroadcastOp, MatmulOp, MapReduceOp>(op) || isReduction(op)) &&
            !op->getParentOp()->hasAttr(kRowBlockAttr))
          op->setAttr(kThreadsAttr, builder.getI64IntegerAttr(threads));
      });
    if (gpuReductions)
      module.walk([&](Operation *op) {
        if (isReduction(op) || isa<MapReduceOp>(op))
          op->setAttr(kPlainReductionAttr, builder.getUnitAttr());
      });
    foldCastRoundTrips(module);
    if (gramBlock > 0)
      markGramProducts(module, gramBlock);
    if (failed(expandViewCopies(module)))
      return signalPassFailure();
    SymbolTableCollection symbols;
    SymbolUserMap users(symbols, module);
    for (func::FuncOp func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && func.isPublic() &&
          users.getUsers(func).empty()) {
        unsigned numInputs = func.getNumArguments();
        resultsToDestinations(func);
        readOnlyInputs(func, numInputs);
      }
    // After the entries' results became destinations, which they copy into.
    copyReturnedConstants(module);
    annotateArgumentBufferLayouts(module);
    // Last: the steps above build Stride ops, which still take ui8.
    makeIntegersSignless(module);

    bufferization::OneShotBufferizationOptions options;
    options.bufferizeFunctionBoundaries = true;
    options.allowReturnAllocsFromLoops = true;
    options.setFunctionBoundaryTypeConversion(
        bufferization::LayoutMapOption::InferLayoutMap);
    options.allocationFn = allocateStrided;
    // linalg.copy lowers to loops; memref.copy of a strided buffer would
    // call memrefCopy from a runtime library the JIT does not load.
    options.memCpyFn = [](OpBuilder &b, Location loc, Value from, Value to) {
      linalg::CopyOp::create(b, loc, from, to);
      return success();
    };
    bufferization::BufferizationState state;
    if (failed(bufferization::runOneShotModuleBufferize(module, options,
                                                        state)))
      return signalPassFailure();
    for (func::FuncOp func : module.getOps<func::FuncOp>())
      dropOutputResults(func);
    // A private function that returns an argument's buffer (one it updated
    // in place, say) would otherwise hand the deallocation pipeline a
    // result to clone; callers use their own buffer instead.
    if (failed(bufferization::dropEquivalentBufferResults(module)))
      return signalPassFailure();
    module.walk([](linalg::CopyOp copy) { eraseSelfCopy(copy); });
    if (failed(lowerRowBlockLoops(module, threads)))
      return signalPassFailure();
  }

  /// One-Shot's own allocations (copies for a call operand, a loop's
  /// iter_arg) in a strided layout: memref.alloc takes identity layouts
  /// only. A layout of static strides (negative ones included) gets a flat
  /// buffer of its span viewed with them; one with dynamic strides an
  /// identity buffer cast to it.
  static FailureOr<Value> allocateStrided(OpBuilder &b, Location loc,
                                          MemRefType type, ValueRange dynamic,
                                          unsigned alignment) {
    IntegerAttr align =
        alignment ? b.getI64IntegerAttr(alignment) : IntegerAttr();
    if (type.getLayout().isIdentity())
      return memref::AllocOp::create(b, loc, type, dynamic, align).getResult();
    auto identity = MemRefType::get(type.getShape(), type.getElementType(),
                                    MemRefLayoutAttrInterface(),
                                    type.getMemorySpace());
    if (memref::CastOp::areCastCompatible(identity, type)) {
      Value buffer = memref::AllocOp::create(b, loc, identity, dynamic, align);
      return memref::CastOp::create(b, loc, type, buffer).getResult();
    }
    auto [strides, offset] = type.getStridesAndOffset();
    if (!type.hasStaticShape() || llvm::any_of(strides, ShapedType::isDynamic))
      return failure();
    // A negative stride starts its dim at the far end: element [0, ..., 0]
    // sits `start` elements into the buffer, the lowest address at 0.
    int64_t span = 1, start = 0;
    for (auto [size, stride] : llvm::zip(type.getShape(), strides)) {
      span += size == 0 ? 0 : (size - 1) * std::abs(stride);
      if (stride < 0 && size > 0)
        start += (size - 1) * -stride;
    }
    if (llvm::is_contained(type.getShape(), 0))
      span = start = 0;
    if (!ShapedType::isDynamic(offset) && offset != start)
      return failure();
    auto flat = MemRefType::get({span}, type.getElementType(),
                                MemRefLayoutAttrInterface(),
                                type.getMemorySpace());
    Value buffer = memref::AllocOp::create(b, loc, flat, ValueRange(), align);
    auto atZero = MemRefType::get(
        type.getShape(), type.getElementType(),
        StridedLayoutAttr::get(b.getContext(), start, strides),
        type.getMemorySpace());
    Value view = memref::ReinterpretCastOp::create(
        b, loc, atZero, buffer, start, type.getShape(), strides);
    if (atZero == type)
      return view;
    return memref::CastOp::create(b, loc, type, view).getResult();
  }

  /// A constant tensor bufferizes to a read-only global; returned from a
  /// function, its caller would take the buffer for its own and may write
  /// it in place (an insert_slice into the call's result), and so would
  /// the next iteration of a loop that yields it. Functions and loops
  /// return a copy instead.
  static void copyReturnedConstants(ModuleOp module) {
    module.walk([](Operation *ret) {
      // A loop yields its next iteration's carried buffer, which the body
      // may write in place just the same.
      if (!isa<func::ReturnOp>(ret) &&
          !(isa<scf::YieldOp>(ret) &&
            isa<scf::ForOp, scf::WhileOp>(ret->getParentOp())))
        return;
      for (OpOperand &operand : ret->getOpOperands())
        copyConstantReaching(operand);
    });
  }

  /// Makes `operand` (returned or carried) read a copy of the constant it
  /// comes from, through casts and the branches of scf.if: the copy goes
  /// where the constant leaves, before the return or the branch's yield.
  static void copyConstantReaching(OpOperand &operand) {
    Value value = operand.get();
    while (auto cast = value.getDefiningOp<tensor::CastOp>())
      value = cast.getSource();
    if (auto result = dyn_cast<OpResult>(value)) {
      if (auto branch = dyn_cast<scf::IfOp>(result.getOwner())) {
        for (Region *region :
             {&branch.getThenRegion(), &branch.getElseRegion()})
          if (!region->empty())
            copyConstantReaching(region->front().getTerminator()->getOpOperand(
                result.getResultNumber()));
        return;
      }
    }
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || !value.getDefiningOp<arith::ConstantOp>())
      return;
    Operation *user = operand.getOwner();
    OpBuilder b(user);
    Value copy = bufferization::AllocTensorOp::create(b, user->getLoc(), type,
                                                      ValueRange(), value);
    if (copy.getType() != operand.get().getType())
      copy = tensor::CastOp::create(b, user->getLoc(), operand.get().getType(),
                                    copy);
    operand.set(copy);
  }

  /// A chain of tensor.casts that comes back to its source's type (through
  /// tensor<*xf32>, say: what the shape passes leave where a refined value
  /// meets a user that kept the declared type) is the source itself.
  /// Bufferized, the unranked step would lose the layout and the way back
  /// would need an allocation of a type it cannot size.
  ///
  /// A chain that passes through an unranked type to another ranked type
  /// of the same rank is one cast from its ranked source: memref<*x...> in
  /// between would reach ops that need a rank (a subview of a call's
  /// result).
  static void foldCastRoundTrips(ModuleOp module) {
    module.walk([](tensor::CastOp cast) {
      Value source = cast.getSource();
      bool throughUnranked = false;
      while (auto inner = source.getDefiningOp<tensor::CastOp>()) {
        throughUnranked |= isa<UnrankedTensorType>(source.getType());
        source = inner.getSource();
      }
      if (source == cast.getSource())
        return;
      if (source.getType() == cast.getType()) {
        cast.getResult().replaceAllUsesWith(source);
        return;
      }
      auto from = dyn_cast<RankedTensorType>(source.getType());
      auto to = dyn_cast<RankedTensorType>(cast.getType());
      if (throughUnranked && from && to && from.getRank() == to.getRank() &&
          tensor::CastOp::areCastCompatible(from, to)) {
        OpBuilder b(cast);
        cast.getResult().replaceAllUsesWith(
            tensor::CastOp::create(b, cast.getLoc(), to, source).getResult());
      }
    });
  }

  /// An op that wrote in place into a slice of a buffer leaves One-Shot's
  /// copy of the slice into itself: the tensor.insert_slice's target is a
  /// second memref.subview with the same operands as the one the op wrote.
  /// Such a copy moves nothing.
  static void eraseSelfCopy(linalg::CopyOp copy) {
    if (!copy.hasPureBufferSemantics())
      return;
    Value from = copy.getInputs()[0], to = copy.getOutputs()[0];
    auto sameView = [](Value a, Value b) {
      if (a == b)
        return true;
      auto x = a.getDefiningOp<memref::SubViewOp>();
      auto y = b.getDefiningOp<memref::SubViewOp>();
      return x && y &&
             OperationEquivalence::isEquivalentTo(
                 x, y, OperationEquivalence::IgnoreLocations);
    };
    if (sameView(from, to))
      copy.erase();
  }
};
} // namespace
