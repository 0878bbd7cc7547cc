//===- GpuDeviceAlloc.cpp - Host-side temporaries to device memory -------===//

#include "stride/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEGPUDEVICEALLOC
#include "stride/Conversion/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;

namespace {

struct StrideGpuDeviceAlloc
    : public stride::impl::StrideGpuDeviceAllocBase<StrideGpuDeviceAlloc> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocs;
    getOperation().walk([&](memref::AllocOp op) {
      if (!op->getParentOfType<gpu::LaunchOp>())
        allocs.push_back(op);
    });
    for (memref::AllocOp alloc : allocs) {
      // A buffer the host itself touches (other than through views handed
      // to kernels) stays in host memory.
      OpBuilder b(alloc);
      auto device = gpu::AllocOp::create(
          b, alloc.getLoc(), alloc.getType(), /*asyncToken=*/Type(),
          /*asyncDependencies=*/ValueRange(), alloc.getDynamicSizes(),
          alloc.getSymbolOperands(), /*hostShared=*/false);
      for (Operation *user :
           llvm::make_early_inc_range(alloc.getResult().getUsers())) {
        if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
          OpBuilder db(dealloc);
          gpu::DeallocOp::create(db, dealloc.getLoc(), /*asyncToken=*/Type(),
                                 ValueRange(), device.getMemref());
          dealloc.erase();
        }
      }
      alloc.getResult().replaceAllUsesWith(device.getMemref());
      alloc.erase();
    }
  }
};

} // namespace
