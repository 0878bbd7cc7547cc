//===- GpuPipeline.cpp - Stride to NVVM and a GPU binary -----------------===//

#include "stride/Pipelines/GpuPipeline.h"

#include "stride/Codegen/GPU/Passes.h"
#include "stride/Conversion/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::stride;

const char *mlir::stride::defaultCudaToolkitPath() {
  return STRIDE_CUDA_TOOLKIT_PATH;
}
const char *mlir::stride::defaultLibdevicePath() {
  return STRIDE_LIBDEVICE_PATH;
}

bool mlir::stride::hasPtxas() {
  std::string toolkit = defaultCudaToolkitPath();
  if (!toolkit.empty() &&
      llvm::sys::fs::can_execute(toolkit + "/bin/ptxas"))
    return true;
  if (const char *home = std::getenv("CUDA_HOME"))
    if (llvm::sys::fs::can_execute(std::string(home) + "/bin/ptxas"))
      return true;
  return static_cast<bool>(llvm::sys::findProgramByName("ptxas"));
}

void mlir::stride::buildLinalgToGpuLaunchesPipeline(OpPassManager &pm,
                                                    int64_t blockSize,
                                                    int64_t maxBlocks,
                                                    bool deviceMemory) {
  OpPassManager &fpm = pm.nest<func::FuncOp>();
  fpm.addPass(createLinalgGeneralizeNamedOpsPass());
  fpm.addPass(createStrideMapLinalgToGpu(
      StrideMapLinalgToGpuOptions{blockSize, maxBlocks}));
  if (deviceMemory)
    fpm.addPass(createStrideGpuDeviceAlloc());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void mlir::stride::buildGpuKernelsOnHostPipeline(OpPassManager &pm,
                                                 int64_t blockSize,
                                                 int64_t maxBlocks) {
  buildLinalgToGpuLaunchesPipeline(pm, blockSize, maxBlocks,
                                   /*deviceMemory=*/false);
  pm.addNestedPass<func::FuncOp>(createStrideGpuLaunchToHostLoops());
}

void mlir::stride::buildGpuLoweringPipeline(
    OpPassManager &pm, const StridePipelineOptions &options) {
  buildLinalgToGpuLaunchesPipeline(pm, options.blockSize, options.maxBlocks,
                                   /*deviceMemory=*/true);
  // Constants and index math (hoisted out of the launches by canonicalize
  // and CSE) go back into the kernels: gpu-kernel-outlining no longer sinks
  // them, and as kernel parameters they would hide constant indices (the
  // tiled matmul's private accumulators then stay in local memory).
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());

  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  if (!options.libdevice.empty())
    target.linkLibs.push_back(options.libdevice);
  pm.addPass(createGpuNVVMAttachTarget(target));

  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createLowerAffinePass());
  kernels.addPass(createSCFToControlFlowPass());
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  // Math ops that convert-gpu-to-nvvm has no libdevice function for
  // (math.trunc in MLIR 22) become LLVM intrinsics, which the NVPTX backend
  // selects; without this the kernel cannot be translated to LLVM IR.
  kernels.addPass(createConvertMathToLLVMPass());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());
  if (!options.binary)
    return;

  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  binary.toolkitPath = options.toolkit;
  pm.addPass(createGpuModuleToBinaryPass(binary));

  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertMathToFuncs());
  // gpu-to-llvm converts the host's memref, arith, func and cf ops together
  // with the launches (as upstream's gpu-lower-to-nvvm-pipeline does);
  // convert-to-llvm takes what is left.
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}
