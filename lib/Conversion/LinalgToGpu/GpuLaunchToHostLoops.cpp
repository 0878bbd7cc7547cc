//===- GpuLaunchToHostLoops.cpp - Enumerate a launch on the host ---------===//
//
// Test-only: the kernel body of each gpu.launch runs inside loops over the
// grid and the block, one thread after another, so GPU kernels' values are
// checked on machines without a GPU.
//
//===----------------------------------------------------------------------===//

#include "stride/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEGPULAUNCHTOHOSTLOOPS
#include "stride/Conversion/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;

namespace {

/// Why `launch` cannot run with threads one after another, or "".
std::string unsupportedReason(gpu::LaunchOp launch) {
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty())
    return "is asynchronous";
  if (launch.hasClusterSize())
    return "uses thread block clusters";
  if (!launch.getWorkgroupAttributions().empty())
    return "uses workgroup (shared) memory";
  if (launch.getDynamicSharedMemorySize())
    return "uses dynamic shared memory";
  if (!launch.getBody().hasOneBlock())
    return "has a body of several blocks";
  std::string reason;
  launch.getBody().walk([&](Operation *op) {
    if (isa<gpu::BarrierOp>(op))
      reason = "synchronizes threads with gpu.barrier";
    else if (isa<gpu::AllReduceOp, gpu::SubgroupReduceOp, gpu::ShuffleOp>(op))
      reason = "exchanges values between threads (" +
               op->getName().getStringRef().str() + ")";
  });
  return reason;
}

struct StrideGpuLaunchToHostLoops
    : public stride::impl::StrideGpuLaunchToHostLoopsBase<
          StrideGpuLaunchToHostLoops> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk([&](gpu::LaunchOp op) { launches.push_back(op); });
    for (gpu::LaunchOp launch : launches) {
      if (std::string reason = unsupportedReason(launch); !reason.empty()) {
        launch.emitOpError("cannot run on the host one thread at a time: "
                           "the kernel ")
            << reason;
        return signalPassFailure();
      }
      Location loc = launch.getLoc();
      OpBuilder b(launch);
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      // Outermost first: block z, y, x, then thread z, y, x.
      Value bounds[6] = {launch.getGridSizeZ(),  launch.getGridSizeY(),
                         launch.getGridSizeX(),  launch.getBlockSizeZ(),
                         launch.getBlockSizeY(), launch.getBlockSizeX()};
      Value ivs[6];
      for (int i = 0; i < 6; ++i) {
        auto loop = scf::ForOp::create(b, loc, zero, bounds[i], one);
        ivs[i] = loop.getInductionVar();
        b.setInsertionPoint(loop.getBody()->getTerminator());
      }

      IRMapping mapping;
      gpu::KernelDim3 blockIds = launch.getBlockIds(),
                      threadIds = launch.getThreadIds(),
                      grid = launch.getGridSize(),
                      block = launch.getBlockSize();
      mapping.map(blockIds.z, ivs[0]);
      mapping.map(blockIds.y, ivs[1]);
      mapping.map(blockIds.x, ivs[2]);
      mapping.map(threadIds.z, ivs[3]);
      mapping.map(threadIds.y, ivs[4]);
      mapping.map(threadIds.x, ivs[5]);
      mapping.map(grid.x, launch.getGridSizeX());
      mapping.map(grid.y, launch.getGridSizeY());
      mapping.map(grid.z, launch.getGridSizeZ());
      mapping.map(block.x, launch.getBlockSizeX());
      mapping.map(block.y, launch.getBlockSizeY());
      mapping.map(block.z, launch.getBlockSizeZ());
      Value dims[4][3] = {
          {ivs[2], ivs[1], ivs[0]},
          {ivs[5], ivs[4], ivs[3]},
          {launch.getGridSizeX(), launch.getGridSizeY(), launch.getGridSizeZ()},
          {launch.getBlockSizeX(), launch.getBlockSizeY(),
           launch.getBlockSizeZ()}};
      // The value an id or size op reads, or null for other ops.
      auto idValue = [&](Operation *op) -> Value {
        if (auto id = dyn_cast<gpu::BlockIdOp>(op))
          return dims[0][static_cast<int>(id.getDimension())];
        if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
          return dims[1][static_cast<int>(id.getDimension())];
        if (auto id = dyn_cast<gpu::GridDimOp>(op))
          return dims[2][static_cast<int>(id.getDimension())];
        if (auto id = dyn_cast<gpu::BlockDimOp>(op))
          return dims[3][static_cast<int>(id.getDimension())];
        return Value();
      };

      for (Operation &op : launch.getBody().front().without_terminator()) {
        if (Value v = idValue(&op)) {
          mapping.map(op.getResult(0), v);
          continue;
        }
        Operation *copy = b.clone(op, mapping);
        // Ids read inside nested regions: their uses are all inside `copy`.
        copy->walk([&](Operation *inner) {
          if (Value v = idValue(inner)) {
            inner->getResult(0).replaceAllUsesWith(v);
            inner->erase();
          }
        });
      }
      launch.erase();
    }
  }
};

} // namespace
