//===- MapLinalgToGpu.cpp - linalg.generic to grid-stride gpu.launch ------===//
//
// One kernel per linalg.generic: the parallel loops are linearized, walked
// with a grid-stride loop and split back with affine.delinearize_index, the
// output's stride-1 loop fastest; reduction loops stay in the thread.
//
//===----------------------------------------------------------------------===//

#include "stride/Codegen/GPU/Transforms.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"

#include "BlockReduction.h"
#include "GenericPayload.h"
#include "TiledMatmul.h"

#include <algorithm>
#include <functional>

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEMAPLINALGTOGPU
#include "stride/Codegen/GPU/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;
using namespace mlir::stride::gpu_mapping;

namespace {

/// The parallel loops in the order they are delinearized: slowest first.
/// The loop along which the first output moves with the smallest static
/// stride goes last, so consecutive threads write consecutive addresses.
SmallVector<unsigned> parallelLoopOrder(linalg::GenericOp op) {
  SmallVector<unsigned> loops;
  for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray()))
    if (it == utils::IteratorType::parallel)
      loops.push_back(i);
  if (op.getNumDpsInits() == 0)
    return loops;
  OpOperand *out = op.getDpsInitOperand(0);
  auto type = dyn_cast<MemRefType>(out->get().getType());
  if (!type)
    return loops;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return loops;
  AffineMap map = op.getMatchingIndexingMap(out);
  // The stride of each loop in the output; loops absent from it rank first.
  DenseMap<unsigned, int64_t> loopStride;
  for (auto [r, expr] : llvm::enumerate(map.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim)
      continue;
    if (ShapedType::isDynamic(strides[r]))
      return loops;
    loopStride[dim.getPosition()] = std::abs(strides[r]);
  }
  std::stable_sort(loops.begin(), loops.end(), [&](unsigned a, unsigned b) {
    int64_t sa = loopStride.lookup(a), sb = loopStride.lookup(b);
    bool ha = loopStride.count(a), hb = loopStride.count(b);
    if (ha != hb)
      return !ha; // broadcast loops of the output: outermost
    // Larger strides outer; ties (size-1 dims) keep the loop order.
    return sa > sb;
  });
  return loops;
}

/// One run of mapLinalgToGpu with its options.
struct LinalgGpuMapper : stride::StrideMapLinalgToGpuOptions {
  explicit LinalgGpuMapper(const stride::StrideMapLinalgToGpuOptions &options)
      : StrideMapLinalgToGpuOptions(options) {}

  LogicalResult mapOne(linalg::GenericOp op) {
    if (!op.hasPureBufferSemantics())
      return op.emitOpError("needs memref operands to map to the GPU; "
                            "bufferize first");
    if (op->getParentOfType<gpu::LaunchOp>())
      return success();
    for (OpOperand &out : op.getDpsInitsMutable())
      for (AffineExpr e : op.getMatchingIndexingMap(&out).getResults())
        if (auto dim = dyn_cast<AffineDimExpr>(e);
            dim && op.getIteratorTypesArray()[dim.getPosition()] !=
                       utils::IteratorType::parallel)
          return op.emitOpError("output #")
                 << out.getOperandNumber() - op.getNumDpsInputs()
                 << " is indexed by reduction loop d" << dim.getPosition()
                 << "; only parallel loops may index outputs";

    if (tiledMatmul)
      if (std::optional<MatmulLoops> loops = matchTiledMatmul(op)) {
        buildTiledMatmul(op, *loops, maxBlocks);
        return success();
      }
    if (blockReductions)
      if (std::optional<BlockReduction> plan =
              matchBlockReduction(op, parallelLoopOrder(op))) {
        buildBlockReduction(op, *plan, blockSize, maxBlocks);
        return success();
      }

    Location loc = op.getLoc();
    OpBuilder b(op);
    SmallVector<Value> sizes = loopSizes(b, loc, op);

    SmallVector<unsigned> parallel = parallelLoopOrder(op);
    SmallVector<unsigned> reduction;
    for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray()))
      if (it != utils::IteratorType::parallel)
        reduction.push_back(i);

    // Register tiling of reductions: each thread computes `tile` outputs
    // along a row loop, one that the output uses but some input does not
    // (matmul's m: the rhs row loaded at each k serves all of them). The
    // fastest loop stays one point per thread, so stores still coalesce.
    int64_t tile = 1;
    int rowLoop = -1;
    if (!reduction.empty() && registerTile > 1 && parallel.size() >= 2) {
      AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
      for (int k = static_cast<int>(parallel.size()) - 2; k >= 0 && rowLoop < 0;
           --k) {
        unsigned p = parallel[k];
        bool inOutput = outMap.isFunctionOfDim(p);
        bool someInputSkips =
            llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *in) {
              return isa<MemRefType>(in->get().getType()) &&
                     !op.getMatchingIndexingMap(in).isFunctionOfDim(p);
            });
        if (inOutput && someInputSkips)
          rowLoop = p;
      }
      if (rowLoop >= 0)
        tile = registerTile;
    }
    SmallVector<Value> extent(sizes);
    if (rowLoop >= 0)
      extent[rowLoop] = arith::CeilDivUIOp::create(b, loc, sizes[rowLoop],
                                                   indexConst(b, loc, tile));

    Value total = indexConst(b, loc, 1);
    for (unsigned p : parallel)
      total = arith::MulIOp::create(b, loc, total, extent[p]);
    Value block = indexConst(b, loc, blockSize);
    Value one = indexConst(b, loc, 1);
    Value blocks = arith::CeilDivUIOp::create(b, loc, total, block);
    blocks = arith::MaxUIOp::create(b, loc, blocks, one);
    blocks =
        arith::MinUIOp::create(b, loc, blocks, indexConst(b, loc, maxBlocks));

    auto launch =
        gpu::LaunchOp::create(b, loc, blocks, one, one, block, one, one);
    Block &launchBody = launch.getBody().front();
    OpBuilder kb = OpBuilder::atBlockBegin(&launchBody);
    gpu::TerminatorOp::create(kb, loc);
    kb.setInsertionPointToStart(&launchBody);

    Value bid = launch.getBlockIds().x, tid = launch.getThreadIds().x;
    Value bdim = launch.getBlockSize().x, gdim = launch.getGridSize().x;
    Value first = arith::AddIOp::create(
        kb, loc, arith::MulIOp::create(kb, loc, bid, bdim), tid);
    Value step = arith::MulIOp::create(kb, loc, gdim, bdim);
    auto loop = scf::ForOp::create(kb, loc, first, total, step);
    kb.setInsertionPoint(loop.getBody()->getTerminator());

    // Loop indices of this point.
    SmallVector<Value> ivs(sizes.size());
    delinearize(kb, loc, loop.getInductionVar(), parallel, extent, ivs);

    auto loadOperand = [&](OpBuilder &ob, OpOperand &operand,
                           ArrayRef<Value> at) -> Value {
      Value v = operand.get();
      if (!isa<MemRefType>(v.getType()))
        return v; // a scalar operand
      SmallVector<Value> idx =
          applyMap(ob, loc, op.getMatchingIndexingMap(&operand), at);
      return memref::LoadOp::create(ob, loc, v, idx);
    };
    auto storeOutputs = [&](OpBuilder &ob, ValueRange values,
                            ArrayRef<Value> at) {
      for (auto [out, v] : llvm::zip(op.getDpsInitsMutable(), values)) {
        SmallVector<Value> idx =
            applyMap(ob, loc, op.getMatchingIndexingMap(&out), at);
        memref::StoreOp::create(ob, loc, v, out.get(), idx);
      }
    };

    Block &payload = op.getRegion().front();
    if (reduction.empty()) {
      SmallVector<Value> args;
      for (OpOperand *in : op.getDpsInputOperands())
        args.push_back(loadOperand(kb, *in, ivs));
      for (OpOperand &out : op.getDpsInitsMutable())
        args.push_back(payload.getArgument(out.getOperandNumber()).use_empty()
                           ? Value()
                           : loadOperand(kb, out, ivs));
      storeOutputs(kb, clonePayload(kb, op, args, ivs), ivs);
    } else {
      // Accumulate in registers over the reduction loops: `tile` points
      // along the row loop (indices clamped to its last row for loads, the
      // stores of rows past the end skipped), each with its accumulators.
      Value rowBase, lastRow;
      if (rowLoop >= 0) {
        rowBase = arith::MulIOp::create(kb, loc, ivs[rowLoop],
                                        indexConst(kb, loc, tile));
        lastRow = arith::SubIOp::create(kb, loc, sizes[rowLoop], one);
      }
      auto pointIvs = [&](OpBuilder &pb, int64_t t) {
        SmallVector<Value> at(ivs);
        if (rowLoop >= 0) {
          Value row =
              arith::AddIOp::create(pb, loc, rowBase, indexConst(pb, loc, t));
          at[rowLoop] = arith::MinUIOp::create(pb, loc, row, lastRow);
        }
        return at;
      };
      unsigned numOutputs = op.getNumDpsInits();
      SmallVector<Value> init;
      for (int64_t t = 0; t < tile; ++t) {
        SmallVector<Value> at = pointIvs(kb, t);
        for (OpOperand &out : op.getDpsInitsMutable())
          init.push_back(loadOperand(kb, out, at));
      }
      Value zero = indexConst(kb, loc, 0);
      std::function<SmallVector<Value>(OpBuilder &, unsigned, ValueRange)>
          nest = [&](OpBuilder &nb, unsigned level,
                     ValueRange acc) -> SmallVector<Value> {
        if (level == reduction.size()) {
          SmallVector<SmallVector<Value>> at;
          for (int64_t t = 0; t < tile; ++t)
            at.push_back(pointIvs(nb, t));
          // Inputs that do not move along the row loop are read once.
          SmallVector<Value> shared;
          for (OpOperand *in : op.getDpsInputOperands())
            shared.push_back(
                rowLoop >= 0 &&
                        op.getMatchingIndexingMap(in).isFunctionOfDim(rowLoop)
                    ? Value()
                    : loadOperand(nb, *in, at[0]));
          SmallVector<Value> next;
          for (int64_t t = 0; t < tile; ++t) {
            SmallVector<Value> args;
            for (auto [in, v] : llvm::zip(op.getDpsInputOperands(), shared))
              args.push_back(v ? v : loadOperand(nb, *in, at[t]));
            ValueRange mine = acc.slice(t * numOutputs, numOutputs);
            args.append(mine.begin(), mine.end());
            SmallVector<Value> yielded = clonePayload(nb, op, args, at[t]);
            next.append(yielded.begin(), yielded.end());
          }
          return next;
        }
        auto red = scf::ForOp::create(
            nb, loc, zero, sizes[reduction[level]], one, acc,
            [&](OpBuilder &ib, Location, Value iv, ValueRange iterArgs) {
              ivs[reduction[level]] = iv;
              SmallVector<Value> next = nest(ib, level + 1, iterArgs);
              scf::YieldOp::create(ib, loc, next);
            });
        return SmallVector<Value>(red.getResults());
      };
      SmallVector<Value> result = nest(kb, 0, init);
      for (int64_t t = 0; t < tile; ++t) {
        ValueRange mine = ValueRange(result).slice(t * numOutputs, numOutputs);
        if (rowLoop < 0) {
          storeOutputs(kb, mine, ivs);
          continue;
        }
        Value row =
            arith::AddIOp::create(kb, loc, rowBase, indexConst(kb, loc, t));
        Value inside = arith::CmpIOp::create(kb, loc, arith::CmpIPredicate::ult,
                                             row, sizes[rowLoop]);
        auto guard = scf::IfOp::create(kb, loc, inside, /*withElse=*/false);
        OpBuilder gb = OpBuilder::atBlockBegin(guard.thenBlock());
        gb.setInsertionPoint(guard.thenBlock()->getTerminator());
        SmallVector<Value> at(ivs);
        at[rowLoop] = row;
        storeOutputs(gb, mine, at);
      }
    }
    op.erase();
    return success();
  }

  LogicalResult run(Operation *root) {
    if (blockSize < 1 || blockSize > 1024) {
      root->emitError("block-size must be in [1, 1024], got ")
          << static_cast<int64_t>(blockSize);
      return failure();
    }
    if (maxBlocks < 1) {
      root->emitError("max-blocks must be positive, got ")
          << static_cast<int64_t>(maxBlocks);
      return failure();
    }
    if (registerTile < 1 || registerTile > 16) {
      root->emitError("register-tile must be in [1, 16], got ")
          << static_cast<int64_t>(registerTile);
      return failure();
    }
    SmallVector<linalg::GenericOp> generics;
    root->walk([&](linalg::GenericOp op) { generics.push_back(op); });
    for (linalg::GenericOp op : generics)
      if (failed(mapOne(op)))
        return failure();
    // Named structured ops must have been generalized.
    WalkResult named = root->walk([&](linalg::LinalgOp op) {
      if (op->getParentOfType<gpu::LaunchOp>())
        return WalkResult::advance();
      op.emitOpError("is not a linalg.generic; run "
                     "linalg-generalize-named-ops before "
                     "stride-map-linalg-to-gpu");
      return WalkResult::interrupt();
    });
    return failure(named.wasInterrupted());
  }
};

} // namespace

LogicalResult
mlir::stride::mapLinalgToGpu(Operation *root,
                             const StrideMapLinalgToGpuOptions &options) {
  return LinalgGpuMapper(options).run(root);
}

namespace {
struct StrideMapLinalgToGpu
    : public stride::impl::StrideMapLinalgToGpuBase<StrideMapLinalgToGpu> {
  using Base::Base;

  void runOnOperation() override {
    stride::StrideMapLinalgToGpuOptions options;
    options.blockSize = blockSize;
    options.maxBlocks = maxBlocks;
    options.registerTile = registerTile;
    options.tiledMatmul = tiledMatmul;
    options.blockReductions = blockReductions;
    if (failed(stride::mapLinalgToGpu(getOperation(), options)))
      signalPassFailure();
  }
};
} // namespace
