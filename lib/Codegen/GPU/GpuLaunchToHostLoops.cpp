//===- GpuLaunchToHostLoops.cpp - Enumerate a launch on the host ---------===//
//
// Test-only: each gpu.launch runs on the host inside loops over the grid,
// and its body, split at every gpu.barrier, inside loops over the block's
// threads (loop fission, as MCUDA and POCL do), so GPU kernels' values,
// shared-memory ones included, are checked on machines without a GPU.
//
//===----------------------------------------------------------------------===//

#include "stride/Codegen/GPU/Transforms.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEGPULAUNCHTOHOSTLOOPS
#include "stride/Codegen/GPU/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;

namespace {

/// Why `launch` cannot run on the host with the grid enumerated, or "".
std::string unsupportedReason(gpu::LaunchOp launch) {
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty())
    return "is asynchronous";
  if (launch.hasClusterSize())
    return "uses thread block clusters";
  if (launch.getDynamicSharedMemorySize())
    return "uses dynamic shared memory";
  if (!launch.getBody().hasOneBlock())
    return "has a body of several blocks";
  std::string reason;
  launch.getBody().walk([&](Operation *op) {
    if (isa<gpu::SubgroupReduceOp, gpu::ShuffleOp>(op))
      reason = "exchanges values between threads (" +
               op->getName().getStringRef().str() + ")";
  });
  return reason;
}

bool containsBarrier(Operation *op) {
  return op->walk([](gpu::BarrierOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

gpu::BarrierOp firstBarrier(Operation *op) {
  gpu::BarrierOp found;
  op->walk([&](gpu::BarrierOp b) {
    found = b;
    return WalkResult::interrupt();
  });
  return found;
}

/// Lowers one launch. Block level: loops over block z, y, x; control flow
/// that contains a barrier is re-created there (its operands must be
/// block-uniform). Thread level: each maximal run of barrier-free ops (a
/// segment) is cloned inside loops over thread z, y, x.
class LaunchLowering {
public:
  explicit LaunchLowering(gpu::LaunchOp launch) : launch(launch) {}

  LogicalResult run() {
    Location loc = launch.getLoc();
    if (failed(checkAttributionUses()))
      return failure();
    OpBuilder b(launch);
    SmallVector<Value> reduceBuffers;
    if (failed(expandAllReduces(b, reduceBuffers)))
      return failure();
    zero = arith::ConstantIndexOp::create(b, loc, 0);
    one = arith::ConstantIndexOp::create(b, loc, 1);
    Value grid[3] = {launch.getGridSizeX(), launch.getGridSizeY(),
                     launch.getGridSizeZ()};
    blockSize[0] = launch.getBlockSizeX();
    blockSize[1] = launch.getBlockSizeY();
    blockSize[2] = launch.getBlockSizeZ();
    // Outermost first: block z, y, x.
    Value blockIv[3];
    for (int d = 2; d >= 0; --d) {
      auto loop = scf::ForOp::create(b, loc, zero, grid[d], one);
      blockIv[d] = loop.getInductionVar();
      b.setInsertionPoint(loop.getBody()->getTerminator());
    }
    IRMapping blockMap;
    gpu::KernelDim3 ids = launch.getBlockIds(), gsz = launch.getGridSize(),
                    bsz = launch.getBlockSize();
    Value idArgs[3] = {ids.x, ids.y, ids.z};
    Value gArgs[3] = {gsz.x, gsz.y, gsz.z}, bArgs[3] = {bsz.x, bsz.y, bsz.z};
    for (int d = 0; d < 3; ++d) {
      blockMap.map(idArgs[d], blockIv[d]);
      blockMap.map(gArgs[d], grid[d]);
      blockMap.map(bArgs[d], blockSize[d]);
      blockIds[d] = blockIv[d];
      gridSize[d] = grid[d];
    }
    // Workgroup memory: one host buffer per block. Private memory: one
    // buffer per block holding every thread's copy, indexed first by the
    // thread ids (z, y, x); its loads and stores get those indices.
    SmallVector<Value> buffers;
    for (BlockArgument arg : launch.getWorkgroupAttributions()) {
      auto type = cast<MemRefType>(arg.getType());
      Value buf = memref::AllocOp::create(
          b, loc, MemRefType::get(type.getShape(), type.getElementType()));
      blockMap.map(arg, buf);
      buffers.push_back(buf);
    }
    for (BlockArgument arg : launch.getPrivateAttributions()) {
      auto type = cast<MemRefType>(arg.getType());
      SmallVector<int64_t> shape(3, ShapedType::kDynamic);
      llvm::append_range(shape, type.getShape());
      Value buf = memref::AllocOp::create(
          b, loc, MemRefType::get(shape, type.getElementType()),
          ValueRange{blockSize[2], blockSize[1], blockSize[0]});
      blockMap.map(arg, buf);
      privateBuffers.insert(buf);
      buffers.push_back(buf);
    }
    if (failed(lowerBlock(launch.getBody().front(), b, blockMap)))
      return failure();
    for (Value buf : buffers)
      memref::DeallocOp::create(b, loc, buf);
    // The all-reduce buffers were allocated before the block loops.
    OpBuilder after(launch->getBlock(), std::next(launch->getIterator()));
    for (Value buf : reduceBuffers)
      memref::DeallocOp::create(after, loc, buf);
    launch.erase();
    return success();
  }

private:
  /// Rewrites each gpu.all_reduce of the kernel into what it means with
  /// barriers: every thread stores its value into a host buffer of one slot
  /// per thread, a barrier, thread 0 combines the slots in thread order into
  /// a result slot, a barrier, every thread loads the result. The fission
  /// below then runs it; the combination order differs from the GPU's tree
  /// (float sums round differently, within the tests' tolerances).
  LogicalResult expandAllReduces(OpBuilder &b,
                                 SmallVector<Value> &reduceBuffers) {
    SmallVector<gpu::AllReduceOp> reduces;
    launch.getBody().walk([&](gpu::AllReduceOp op) { reduces.push_back(op); });
    if (reduces.empty())
      return success();
    Location loc = launch.getLoc();
    Value threads = arith::MulIOp::create(
        b, loc, launch.getBlockSizeX(),
        arith::MulIOp::create(b, loc, launch.getBlockSizeY(),
                              launch.getBlockSizeZ()));
    gpu::KernelDim3 tids = launch.getThreadIds(), bsz = launch.getBlockSize();
    for (gpu::AllReduceOp reduce : reduces) {
      Region &body = reduce.getBody();
      if (!reduce.getOp() && !body.hasOneBlock())
        return reduce.emitOpError("cannot run on the host: its combiner "
                                  "region has several blocks");
      Type type = reduce.getType();
      Location rl = reduce.getLoc();
      Value slots = memref::AllocOp::create(
          b, loc, MemRefType::get({ShapedType::kDynamic}, type),
          ValueRange{threads});
      Value result =
          memref::AllocOp::create(b, loc, MemRefType::get({1}, type));
      reduceBuffers.append({slots, result});

      OpBuilder kb(reduce);
      Value linear = arith::AddIOp::create(
          kb, rl, tids.x,
          arith::MulIOp::create(
              kb, rl, bsz.x,
              arith::AddIOp::create(
                  kb, rl, tids.y,
                  arith::MulIOp::create(kb, rl, bsz.y, tids.z))));
      memref::StoreOp::create(kb, rl, reduce.getValue(), slots, linear);
      gpu::BarrierOp::create(kb, rl);
      Value c0 = arith::ConstantIndexOp::create(kb, rl, 0);
      Value c1 = arith::ConstantIndexOp::create(kb, rl, 1);
      Value count = arith::MulIOp::create(
          kb, rl, bsz.x, arith::MulIOp::create(kb, rl, bsz.y, bsz.z));
      Value isFirst =
          arith::CmpIOp::create(kb, rl, arith::CmpIPredicate::eq, linear, c0);
      auto first = scf::IfOp::create(kb, rl, isFirst, /*withElse=*/false);
      OpBuilder fb = OpBuilder::atBlockTerminator(first.thenBlock());
      Value start = memref::LoadOp::create(fb, rl, slots, c0);
      auto fold = scf::ForOp::create(
          fb, rl, c1, count, c1, ValueRange{start},
          [&](OpBuilder &lb, Location, Value i, ValueRange acc) {
            Value next = memref::LoadOp::create(lb, rl, slots, i);
            Value combined;
            if (std::optional<gpu::AllReduceOperation> kind = reduce.getOp()) {
              combined = vector::makeArithReduction(
                  lb, rl, gpu::convertReductionKind(*kind), acc[0], next);
            } else {
              IRMapping mapping;
              mapping.map(body.getArgument(0), acc[0]);
              mapping.map(body.getArgument(1), next);
              for (Operation &inner : body.front().without_terminator())
                lb.clone(inner, mapping);
              combined = mapping.lookupOrDefault(
                  body.front().getTerminator()->getOperand(0));
            }
            scf::YieldOp::create(lb, rl, combined);
          });
      memref::StoreOp::create(fb, rl, fold.getResult(0), result, c0);
      gpu::BarrierOp::create(kb, rl);
      Value reduced = memref::LoadOp::create(kb, rl, result, c0);
      reduce.replaceAllUsesWith(reduced);
      reduce.erase();
    }
    return success();
  }

  /// Workgroup and private buffers are read and written with memref.load
  /// and memref.store only, which the host rewrites to its own buffers.
  LogicalResult checkAttributionUses() {
    auto check = [&](ArrayRef<BlockArgument> args,
                     StringRef kind) -> LogicalResult {
      for (auto [i, arg] : llvm::enumerate(args))
        for (OpOperand &use : arg.getUses()) {
          Operation *user = use.getOwner();
          bool asMemref =
              (isa<memref::LoadOp>(user) && use.getOperandNumber() == 0) ||
              (isa<memref::StoreOp>(user) && use.getOperandNumber() == 1);
          if (!asMemref)
            return user->emitOpError("uses ")
                   << kind << " attribution #" << i
                   << " other than as the memref of a memref.load or "
                      "memref.store, which the host emulation cannot rewrite";
        }
      return success();
    };
    if (failed(check(launch.getWorkgroupAttributions(), "workgroup")))
      return failure();
    return check(launch.getPrivateAttributions(), "private");
  }

  bool isInKernel(Value v) {
    return launch.getBody().isAncestor(v.getParentRegion());
  }

  /// The host value of a gpu id or size op, or null (thread ids: null
  /// outside a segment).
  Value idValue(Operation *op) const {
    if (auto id = dyn_cast<gpu::BlockIdOp>(op))
      return blockIds[static_cast<int>(id.getDimension())];
    if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
      return threadIds[0] ? threadIds[static_cast<int>(id.getDimension())]
                          : Value();
    if (auto id = dyn_cast<gpu::GridDimOp>(op))
      return gridSize[static_cast<int>(id.getDimension())];
    if (auto id = dyn_cast<gpu::BlockDimOp>(op))
      return blockSize[static_cast<int>(id.getDimension())];
    return Value();
  }

  /// Makes `v` available under `map` at `b`: values of the kernel computed
  /// in an earlier segment (or at block level) are recomputed here when
  /// their defining ops are free of memory effects and have no regions.
  /// Returns the value that cannot be made available, or null on success.
  Value materialize(Value v, OpBuilder &b, IRMapping &map) {
    if (!isInKernel(v) || map.contains(v))
      return Value();
    Operation *def = v.getDefiningOp();
    if (!def)
      return v; // a thread id outside a segment, or an inner loop's iv
    if (Value id = idValue(def)) {
      map.map(v, id);
      return Value();
    }
    if (def->getNumRegions() != 0 || !isMemoryEffectFree(def) ||
        isa<gpu::ThreadIdOp>(def))
      return v;
    for (Value operand : def->getOperands())
      if (Value missing = materialize(operand, b, map))
        return missing;
    b.clone(*def, map);
    return Value();
  }

  /// Lowers the ops of `block` (a kernel block, or the body of block-level
  /// control flow) at block level.
  LogicalResult lowerBlock(Block &block, OpBuilder &b, IRMapping &map) {
    SmallVector<Operation *> segment;
    auto flush = [&]() -> LogicalResult {
      if (segment.empty())
        return success();
      LogicalResult r = emitSegment(segment, b, map);
      segment.clear();
      return r;
    };
    for (Operation &op : block.without_terminator()) {
      if (!containsBarrier(&op)) {
        segment.push_back(&op);
        continue;
      }
      if (failed(flush()))
        return failure();
      if (isa<gpu::BarrierOp>(op))
        continue;
      if (failed(lowerUniformControl(op, b, map)))
        return failure();
    }
    return flush();
  }

  /// Re-creates scf.for / scf.if containing a barrier at block level; their
  /// operands must be block-uniform (computed without thread ids).
  LogicalResult lowerUniformControl(Operation &op, OpBuilder &b,
                                    IRMapping &map) {
    gpu::BarrierOp barrier = firstBarrier(&op);
    auto refuse = [&](const Twine &why) -> InFlightDiagnostic {
      InFlightDiagnostic diag =
          barrier.emitOpError("cannot run on the host: it is inside '")
          << op.getName() << "', " << why;
      diag.attachNote(op.getLoc()) << "the enclosing control flow";
      return diag;
    };
    if (!isa<scf::ForOp, scf::IfOp>(op))
      return refuse("which the host emulation does not split; only scf.for "
                    "and scf.if with block-uniform operands may contain a "
                    "barrier");
    if (op.getNumResults() != 0)
      return refuse("which yields values; a barrier's enclosing loops and "
                    "conditions must not carry values");
    SmallVector<Value> operands;
    for (Value operand : op.getOperands()) {
      if (Value missing = materialize(operand, b, map)) {
        InFlightDiagnostic diag = refuse(
            "whose operands are not block-uniform (they depend on thread ids "
            "or on values with memory effects)");
        Operation *def = operand.getDefiningOp();
        if (!def)
          def = missing.getDefiningOp();
        if (def)
          diag.attachNote(def->getLoc()) << "non-uniform value defined here";
        return diag;
      }
      operands.push_back(map.lookupOrDefault(operand));
    }
    Location loc = op.getLoc();
    if (auto forOp = dyn_cast<scf::ForOp>(op)) {
      auto loop =
          scf::ForOp::create(b, loc, operands[0], operands[1], operands[2]);
      IRMapping inner = map;
      inner.map(forOp.getInductionVar(), loop.getInductionVar());
      OpBuilder ib(loop.getBody()->getTerminator());
      return lowerBlock(*forOp.getBody(), ib, inner);
    }
    auto ifOp = cast<scf::IfOp>(op);
    bool hasElse = !ifOp.getElseRegion().empty();
    auto copy = scf::IfOp::create(b, loc, operands[0], hasElse);
    IRMapping thenMap = map;
    OpBuilder tb(copy.thenBlock()->getTerminator());
    if (failed(lowerBlock(*ifOp.thenBlock(), tb, thenMap)))
      return failure();
    if (!hasElse)
      return success();
    IRMapping elseMap = map;
    OpBuilder eb(copy.elseBlock()->getTerminator());
    return lowerBlock(*ifOp.elseBlock(), eb, elseMap);
  }

  /// Clones barrier-free `ops` inside loops over the block's threads.
  LogicalResult emitSegment(ArrayRef<Operation *> ops, OpBuilder &b,
                            const IRMapping &outer) {
    Location loc = ops.front()->getLoc();
    OpBuilder tb = b;
    for (int d = 2; d >= 0; --d) {
      auto loop = scf::ForOp::create(tb, loc, zero, blockSize[d], one);
      threadIds[d] = loop.getInductionVar();
      tb.setInsertionPoint(loop.getBody()->getTerminator());
    }
    IRMapping map = outer;
    gpu::KernelDim3 tids = launch.getThreadIds();
    map.map(tids.x, threadIds[0]);
    map.map(tids.y, threadIds[1]);
    map.map(tids.z, threadIds[2]);
    LogicalResult result = success();
    for (Operation *op : ops) {
      if (Value v = idValue(op)) {
        map.map(op->getResult(0), v);
        continue;
      }
      // Values from earlier segments: rematerialized, or an error.
      SetVector<Value> used(op->getOperands().begin(), op->getOperands().end());
      getUsedValuesDefinedAbove(op->getRegions(), used);
      for (Value v : used) {
        Value missing = materialize(v, tb, map);
        if (!missing)
          continue;
        InFlightDiagnostic diag = op->emitOpError(
            "cannot run on the host: it uses a value computed before a "
            "gpu.barrier that is not free of memory effects (only such "
            "values are recomputed after the barrier)");
        if (Operation *def = missing.getDefiningOp())
          diag.attachNote(def->getLoc())
              << "the value, defined by '" << def->getName() << "'";
        result = failure();
        break;
      }
      if (failed(result))
        break;
      Operation *copy = tb.clone(*op, map);
      copy->walk([&](Operation *inner) {
        // Ids read inside nested regions: their uses are all inside `copy`.
        if (Value v = idValue(inner)) {
          inner->getResult(0).replaceAllUsesWith(v);
          inner->erase();
          return;
        }
        // Private buffers: this thread's copy.
        auto prefix = [&](Value memref, MutableOperandRange indices) {
          if (!privateBuffers.contains(memref))
            return;
          SmallVector<Value> idx{threadIds[2], threadIds[1], threadIds[0]};
          llvm::append_range(idx, ValueRange(indices));
          indices.assign(idx);
        };
        if (auto load = dyn_cast<memref::LoadOp>(inner))
          prefix(load.getMemRef(), load.getIndicesMutable());
        else if (auto store = dyn_cast<memref::StoreOp>(inner))
          prefix(store.getMemRef(), store.getIndicesMutable());
      });
    }
    threadIds[0] = threadIds[1] = threadIds[2] = Value();
    return result;
  }

  gpu::LaunchOp launch;
  Value blockIds[3], gridSize[3], blockSize[3];
  Value threadIds[3]; // set while a segment is emitted
  Value zero, one;    // loop bounds, created once before the launch
  llvm::SmallPtrSet<Value, 4> privateBuffers;
};

} // namespace

LogicalResult mlir::stride::launchesToHostLoops(Operation *root) {
  SmallVector<gpu::LaunchOp> launches;
  root->walk([&](gpu::LaunchOp op) { launches.push_back(op); });
  for (gpu::LaunchOp launch : launches) {
    if (std::string reason = unsupportedReason(launch); !reason.empty())
      return launch.emitOpError("cannot run on the host: the kernel ")
             << reason;
    if (failed(LaunchLowering(launch).run()))
      return failure();
  }
  return success();
}

namespace {
struct StrideGpuLaunchToHostLoops
    : public stride::impl::StrideGpuLaunchToHostLoopsBase<
          StrideGpuLaunchToHostLoops> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(stride::launchesToHostLoops(getOperation())))
      signalPassFailure();
  }
};

} // namespace
