//===- BufferizableOpInterfaceImpl.cpp - Stride ops in One-Shot Bufferize -===//
//
// Stride ops bufferize directly to strided-view kernels rather than going
// through linalg on tensors first: a tensor-level linalg.generic cannot say
// "read this operand with stride 0 / mirrored / with a run-time size-1
// select", so those views only exist once there are buffers.
//
//===----------------------------------------------------------------------===//

#include "../AttachModels.h"
#include "Kernels.h"
#include "Preparation.h"

#include "stride/Dialect/Stride/Transforms/BufferizableOpInterfaceImpl.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/InterleavedRange.h"

using namespace mlir;
using namespace mlir::stride;
using namespace mlir::bufferization;

namespace {

/// A destination that carries only a shape: a tensor.empty, an alloc_tensor
/// without contents (One-Shot's out-of-place destination, since the kernel
/// never reads it), or what those became once bufferized (a to_tensor of an
/// allocation nothing else uses).
bool isFresh(Value init) {
  if (init.getDefiningOp<tensor::EmptyOp>())
    return true;
  if (auto alloc = init.getDefiningOp<AllocTensorOp>())
    return !alloc.getCopy();
  if (auto toTensor = init.getDefiningOp<ToTensorOp>()) {
    auto alloc = toTensor.getBuffer().getDefiningOp<memref::AllocOp>();
    return alloc && alloc->hasOneUse();
  }
  return false;
}

/// Destinations that only carry a shape make the results new buffers in
/// their own layouts: such a destination bufferizes with the identity
/// layout, which would lose the propagated strides.
bool allocatesResults(BroadcastOp op) {
  return llvm::all_of(op.getInits(), isFresh);
}

bool isInit(BroadcastOp op, OpOperand &operand) {
  return operand.getOperandNumber() >= op.getInputs().size();
}

unsigned threadsOf(Operation *op) {
  auto attr = op->getAttrOfType<IntegerAttr>(kThreadsAttr);
  return attr ? std::max<int64_t>(attr.getInt(), 1) : 1;
}

FailureOr<BufferLikeType> allocatedType(Operation *op, Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return op->emitOpError()
           << "result #" << cast<OpResult>(value).getResultNumber()
           << " is unranked; run stride-infer-shapes before bufferization";
  return cast<BufferLikeType>(memrefTypeFor(type));
}

/// The buffers of `values`: memrefs for tensors, scalars unchanged.
FailureOr<SmallVector<Value>> buffersOf(RewriterBase &rewriter,
                                        ValueRange values,
                                        const BufferizationOptions &options,
                                        const BufferizationState &state) {
  SmallVector<Value> buffers;
  for (Value v : values) {
    if (!isa<TensorType>(v.getType())) {
      buffers.push_back(v);
      continue;
    }
    FailureOr<Value> buffer = getBuffer(rewriter, v, options, state);
    if (failed(buffer))
      return failure();
    auto type = dyn_cast<RankedTensorType>(v.getType());
    buffers.push_back(
        type ? inOperandLayout(rewriter, v.getLoc(), type, *buffer) : *buffer);
  }
  return buffers;
}

/// The buffer `view` views when it is a whole new allocation made in
/// `block` by KernelBuilder::allocate (a flat memref.alloc, reinterpreted,
/// cast), else null.
memref::AllocOp freshAllocation(Value view, Block *block) {
  auto cast = view.getDefiningOp<memref::CastOp>();
  auto reinterpret =
      cast ? cast.getSource().getDefiningOp<memref::ReinterpretCastOp>()
           : nullptr;
  auto alloc = reinterpret
                   ? reinterpret.getSource().getDefiningOp<memref::AllocOp>()
                   : nullptr;
  if (!alloc || alloc->getBlock() != block || !alloc->hasOneUse() ||
      !reinterpret->hasOneUse())
    return nullptr;
  return alloc;
}

/// An output copy (see kOutputCopyAttr) whose input is a new allocation of
/// the output's type: the producer writes the output argument instead and
/// the copy disappears. Safe because the output argument is written by
/// nothing else and read by nobody before the return.
bool forwardIntoOutput(RewriterBase &rewriter, BroadcastOp op, Value input,
                       Value dest) {
  // Function arguments are still tensors while the body bufferizes.
  Value argument = dest;
  if (auto toBuffer = dest.getDefiningOp<ToBufferOp>())
    argument = toBuffer.getTensor();
  if (!op->hasAttr(kOutputCopyAttr) || input.getType() != dest.getType() ||
      !isa<BlockArgument>(argument) || !freshAllocation(input, op->getBlock()))
    return false;
  Operation *cast = input.getDefiningOp();
  Operation *reinterpret = cast->getOperand(0).getDefiningOp();
  Operation *alloc = reinterpret->getOperand(0).getDefiningOp();
  rewriter.replaceAllUsesWith(input, dest);
  rewriter.eraseOp(cast);
  rewriter.eraseOp(reinterpret);
  rewriter.eraseOp(alloc);
  return true;
}

/// Whether a buffer of static `sizes` and element `strides` puts two
/// elements at one address. Stride-0 dims are the lowering's own error.
/// Cheap sufficient test first (sorted by stride, each dim's stride clears
/// the extent of the smaller ones: NumPy's and Python's `out=` check), then
/// the offsets themselves, which a static destination small enough to
/// interleave keeps few.
bool repeatsElements(ArrayRef<int64_t> sizes, ArrayRef<int64_t> strides) {
  SmallVector<std::pair<int64_t, int64_t>> dims;
  int64_t count = 1;
  for (auto [n, s] : llvm::zip(sizes, strides)) {
    if (n == 0)
      return false;
    count *= n;
    if (n > 1)
      dims.push_back({std::abs(s), n});
  }
  llvm::sort(dims);
  int64_t extent = 1;
  bool nested = true;
  for (auto [s, n] : dims) {
    if (s == 0)
      return false;
    if (s < extent) {
      nested = false;
      break;
    }
    extent += s * (n - 1);
  }
  if (nested)
    return false;
  if (count > (int64_t(1) << 20))
    return true; // too many to list; refused rather than guessed
  SmallVector<int64_t> offsets{0};
  for (auto [s, n] : dims) {
    SmallVector<int64_t> next;
    for (int64_t base : offsets)
      for (int64_t i = 0; i < n; ++i)
        next.push_back(base + i * s);
    offsets = std::move(next);
  }
  llvm::sort(offsets);
  return std::adjacent_find(offsets.begin(), offsets.end()) != offsets.end();
}

/// NumPy leaves the result unspecified when an output's elements overlap,
/// and a kernel would write several results to one address: refused, as
/// Python refuses such an `out=`.
LogicalResult checkDestinationLayouts(BroadcastOp op) {
  for (auto [i, result] : llvm::enumerate(op.getResults())) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type || !type.hasStaticShape())
      continue;
    SmallVector<int64_t> strides = getStridesOf(type);
    if (llvm::any_of(strides, ShapedType::isDynamic) ||
        !repeatsElements(type.getShape(), strides))
      continue;
    return op.emitOpError()
           << "destination #" << i << " of shape "
           << llvm::interleaved(type.getShape(), "x") << " has strides ["
           << llvm::interleaved(strides)
           << "], which put several elements at one address; a destination "
              "must not repeat elements";
  }
  return success();
}

struct BroadcastOpInterface
    : public BufferizableOpInterface::ExternalModel<BroadcastOpInterface,
                                                    BroadcastOp> {
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const AnalysisState &) const {
    // The body sees only the inputs: destinations are written, never read.
    return !isInit(cast<BroadcastOp>(op), operand);
  }

  bool bufferizesToMemoryWrite(Operation *op, OpOperand &operand,
                               const AnalysisState &) const {
    auto broadcast = cast<BroadcastOp>(op);
    return isInit(broadcast, operand) && !allocatesResults(broadcast);
  }

  /// One-Shot asks this about an input and a destination that are
  /// equivalent buffers (so of one shape): writing the destination in place
  /// is then safe when iteration p reads the input's element p before
  /// writing element p, and no other iteration reads it. The kernel does
  /// exactly that for an input that is not broadcast: each iteration (or
  /// vector block, or thread chunk) loads its inputs before storing, and
  /// views only change the order of iterations, not which element each one
  /// touches. A broadcast input (lower rank, or a static size-1 dim against
  /// a larger one) is read at many iterations: not element-wise, so a
  /// destination it aliases is written out of place, as NumPy's "every
  /// input read before any output is written" requires.
  bool bufferizesToElementwiseAccess(Operation *op, const AnalysisState &,
                                     ArrayRef<OpOperand *> operands) const {
    auto broadcast = cast<BroadcastOp>(op);
    auto resultType =
        dyn_cast<RankedTensorType>(broadcast.getResult(0).getType());
    if (!resultType)
      return false;
    return llvm::all_of(operands, [&](OpOperand *operand) {
      if (isInit(broadcast, *operand))
        return true;
      auto type = dyn_cast<RankedTensorType>(operand->get().getType());
      if (!type || type.getRank() != resultType.getRank())
        return false;
      for (auto [own, full] :
           llvm::zip(type.getShape(), resultType.getShape()))
        if (!ShapedType::isDynamic(own) && !ShapedType::isDynamic(full) &&
            own != full)
          return false;
      return true;
    });
  }

  AliasingValueList getAliasingValues(Operation *op, OpOperand &operand,
                                      const AnalysisState &) const {
    auto broadcast = cast<BroadcastOp>(op);
    if (!isInit(broadcast, operand) || allocatesResults(broadcast))
      return {};
    unsigned i = operand.getOperandNumber() - broadcast.getInputs().size();
    return {{op->getResult(i), BufferRelation::Equivalent}};
  }

  bool bufferizesToAllocation(Operation *op, Value) const {
    return allocatesResults(cast<BroadcastOp>(op));
  }

  FailureOr<BufferLikeType>
  getBufferType(Operation *op, Value value, const BufferizationOptions &options,
                const BufferizationState &state,
                SmallVector<Value> &invocationStack) const {
    auto broadcast = cast<BroadcastOp>(op);
    if (allocatesResults(broadcast))
      return allocatedType(op, value);
    Value init = broadcast.getInits()[cast<OpResult>(value).getResultNumber()];
    return bufferization::getBufferType(init, options, state, invocationStack);
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto broadcast = cast<BroadcastOp>(op);
    auto resultType =
        dyn_cast<RankedTensorType>(broadcast.getResult(0).getType());
    if (!resultType)
      return op->emitOpError() << "result shape is unknown; run "
                                  "stride-infer-shapes before bufferization";
    if (failed(checkDestinationLayouts(broadcast)))
      return failure();
    rewriter.setInsertionPoint(op);
    FailureOr<SmallVector<Value>> inputs =
        buffersOf(rewriter, broadcast.getInputs(), options, state);
    if (failed(inputs))
      return failure();
    KernelBuilder kernels(rewriter, threadsOf(op));
    SmallVector<Value> dests;
    SmallVector<OpFoldResult> sizes;
    if (broadcast.getInputs().size() == 1 && broadcast.getNumResults() == 1 &&
        !allocatesResults(broadcast) &&
        isa<TensorType>(broadcast.getInputs()[0].getType())) {
      FailureOr<Value> dest =
          getBuffer(rewriter, broadcast.getInits()[0], options, state);
      if (failed(dest))
        return failure();
      if (forwardIntoOutput(rewriter, broadcast, inputs->front(), *dest)) {
        replaceOpWithBufferizedValues(rewriter, op, *dest);
        return success();
      }
    }
    if (allocatesResults(broadcast)) {
      sizes = kernels.broadcastSizes(op->getLoc(), resultType, *inputs);
      for (Value result : broadcast.getResults())
        dests.push_back(kernels.allocate(
            op->getLoc(), cast<RankedTensorType>(result.getType()), sizes));
    } else {
      FailureOr<SmallVector<Value>> inits =
          buffersOf(rewriter, broadcast.getInits(), options, state);
      if (failed(inits))
        return failure();
      dests = std::move(*inits);
      sizes = kernels.sizesOf(dests.front());
    }
    if (failed(kernels.emitBroadcast(broadcast, *inputs, dests, sizes)))
      return failure();
    replaceOpWithBufferizedValues(rewriter, op, dests);
    return success();
  }
};

/// The analysis half of an op that reads its operands and writes only new
/// buffers (its results, allocated in their layouts): a matmul and a named
/// elementwise op. `Model` adds bufferize.
template <typename Model, typename OpTy>
struct AllocatingOpInterface
    : public BufferizableOpInterface::ExternalModel<Model, OpTy> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &,
                               const AnalysisState &) const {
    return false;
  }
  AliasingValueList getAliasingValues(Operation *, OpOperand &,
                                      const AnalysisState &) const {
    return {};
  }
  bool bufferizesToAllocation(Operation *, Value) const { return true; }

  FailureOr<BufferLikeType>
  getBufferType(Operation *op, Value value, const BufferizationOptions &,
                const BufferizationState &, SmallVector<Value> &) const {
    return allocatedType(op, value);
  }
};

using MakeDest = function_ref<Value(ArrayRef<OpFoldResult>)>;

/// An op whose one result is a new buffer in its layout, filled by the
/// kernel `Model::emitKernel` builds from the buffers of its operands and
/// allocating that result (of the sizes it computes) through `makeDest`.
template <typename Model, typename OpTy>
struct NewBufferOpInterface : public AllocatingOpInterface<Model, OpTy> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType)
      return op->emitOpError() << "shapes are unknown; run "
                                  "stride-infer-shapes before bufferization";
    rewriter.setInsertionPoint(op);
    FailureOr<SmallVector<Value>> operands =
        buffersOf(rewriter, op->getOperands(), options, state);
    if (failed(operands))
      return failure();
    KernelBuilder kernels(rewriter, threadsOf(op));
    Value dest;
    auto makeDest = [&](ArrayRef<OpFoldResult> sizes) {
      dest = kernels.allocate(op->getLoc(), resultType, sizes);
      return dest;
    };
    if (failed(Model::emitKernel(op, kernels, *operands, makeDest)))
      return failure();
    replaceOpWithBufferizedValues(rewriter, op, dest);
    return success();
  }
};

struct MatmulOpInterface
    : public NewBufferOpInterface<MatmulOpInterface, MatmulOp> {
  static LogicalResult emitKernel(Operation *op, KernelBuilder &kernels,
                                  ArrayRef<Value> operands, MakeDest makeDest) {
    return kernels.emitMatmul(cast<MatmulOp>(op), operands[0], operands[1],
                              makeDest);
  }
};

/// A reduction (named, or stride.map_reduce) allocates its result in its
/// propagated layout and fills it with KernelBuilder::emitReduce or
/// emitMapReduce.
template <typename OpTy>
struct ReduceOpInterface
    : public NewBufferOpInterface<ReduceOpInterface<OpTy>, OpTy> {
  static LogicalResult emitKernel(Operation *op, KernelBuilder &kernels,
                                  ArrayRef<Value> operands, MakeDest makeDest) {
    // stride.map_reduce reads every operand, a named reduction its one.
    return isa<MapReduceOp>(op)
               ? kernels.emitMapReduce(cast<MapReduceOp>(op), operands,
                                       makeDest)
               : kernels.emitReduce(op, operands.front(), makeDest);
  }
};

/// A named elementwise op bufferizes as the one-op stride.broadcast it is
/// sugar for: it is generalized in place and that broadcast is bufferized
/// (its results allocated in their layouts), so a plain One-Shot Bufferize
/// takes named ops without stride-generalize first.
template <typename OpTy>
struct NamedOpInterface
    : public AllocatingOpInterface<NamedOpInterface<OpTy>, OpTy> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    BroadcastOp broadcast =
        generalizeNamedOp(rewriter, cast<ScalarBodyOpInterface>(op));
    return cast<BufferizableOpInterface>(broadcast.getOperation())
        .bufferize(rewriter, options, state);
  }
};

} // namespace

void mlir::stride::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, StrideDialect *) {
    BroadcastOp::attachInterface<BroadcastOpInterface>(*context);
    MatmulOp::attachInterface<MatmulOpInterface>(*context);
    MapReduceOp::attachInterface<ReduceOpInterface<MapReduceOp>>(*context);
    attachToGroup<OpGroup::Reduction, ReduceOpInterface>(context);
    attachViewBufferizationModels(context);
    // A new named op in StrideOps.td gets NamedOpInterface too.
    attachToGroup<OpGroup::Elementwise, NamedOpInterface>(context);
  });
}
