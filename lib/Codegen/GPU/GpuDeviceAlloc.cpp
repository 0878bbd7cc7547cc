//===- GpuDeviceAlloc.cpp - Host-side temporaries to device memory -------===//

#include "stride/Codegen/GPU/Transforms.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEGPUDEVICEALLOC
#include "stride/Codegen/GPU/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;

void mlir::stride::allocateOnDevice(Operation *root) {
  SmallVector<memref::AllocOp> allocs;
  root->walk([&](memref::AllocOp op) {
    if (!op->getParentOfType<gpu::LaunchOp>())
      allocs.push_back(op);
  });
  // gpu-to-llvm lowers only the async forms (one dependency each), so
  // each allocation and deallocation waits on its own token right away.
  auto tokenType = gpu::AsyncTokenType::get(root->getContext());
  for (memref::AllocOp alloc : allocs) {
    OpBuilder b(alloc);
    Location loc = alloc.getLoc();
    Value ready =
        gpu::WaitOp::create(b, loc, tokenType, ValueRange()).getAsyncToken();
    auto device = gpu::AllocOp::create(
        b, loc, alloc.getType(), tokenType, ValueRange{ready},
        alloc.getDynamicSizes(), alloc.getSymbolOperands(),
        /*hostShared=*/false);
    gpu::WaitOp::create(b, loc, Type(), ValueRange{device.getAsyncToken()});
    for (Operation *user :
         llvm::make_early_inc_range(alloc.getResult().getUsers())) {
      if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
        OpBuilder db(dealloc);
        Location dloc = dealloc.getLoc();
        Value before = gpu::WaitOp::create(db, dloc, tokenType, ValueRange())
                           .getAsyncToken();
        auto free = gpu::DeallocOp::create(
            db, dloc, tokenType, ValueRange{before}, device.getMemref());
        gpu::WaitOp::create(db, dloc, Type(), ValueRange{free.getAsyncToken()});
        dealloc.erase();
      }
    }
    alloc.getResult().replaceAllUsesWith(device.getMemref());
    alloc.erase();
  }
}

namespace {
struct StrideGpuDeviceAlloc
    : public stride::impl::StrideGpuDeviceAllocBase<StrideGpuDeviceAlloc> {
  using Base::Base;

  void runOnOperation() override { stride::allocateOnDevice(getOperation()); }
};
} // namespace
