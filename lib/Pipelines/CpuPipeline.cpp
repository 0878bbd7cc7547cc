//===- CpuPipeline.cpp - Stride to LLVM on the CPU ------------------------===//

#include "stride/Pipelines/Pipelines.h"
#include "stride/Pipelines/GpuPipeline.h"

#include "stride/Conversion/Passes.h"
#include "stride/Dialect/Stride/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::stride;

void mlir::stride::buildStrideToLinalgPipeline(
    OpPassManager &pm, const CpuPipelineOptions &options) {
  pm.addPass(createStrideInferShapes());
  pm.addPass(createStridePropagateLayout(
      StridePropagateLayoutOptions{options.policy, options.keepResultLayouts}));
  pm.addPass(createStrideGeneralize());
  if (options.fuse)
    pm.addPass(createStrideFuse());
  pm.addPass(createStrideCoalesce());
  pm.addPass(createConvertStrideToLinalg(
      ConvertStrideToLinalgOptions{options.threads}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void mlir::stride::buildLinalgToLLVMPipeline(
    OpPassManager &pm, const CpuPipelineOptions &options) {
  // Small blocks and grids, so that the grid-stride loops of the GPU
  // kernels take several turns on test-sized arrays.
  if (options.gpuHost)
    buildGpuKernelsOnHostPipeline(pm, /*blockSize=*/32, /*maxBlocks=*/4);
  if (options.gpu) {
    GpuPipelineOptions gpu;
    if (!hasPtxas())
      gpu.format = "isa"; // the driver JIT-compiles the PTX
    buildGpuLinalgToLLVMPipeline(pm, gpu);
    return;
  }
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  if (options.threads > 1)
    pm.addPass(createConvertSCFToOpenMPPass(
        ConvertSCFToOpenMPPassOptions{options.threads}));
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertMathToFuncs());
  // math.log1p as log(1 + x) loses every digit near 0: libm's log1p instead.
  pm.addPass(createConvertMathToLLVMPass(
      ConvertMathToLLVMPassOptions{/*approximateLog1p=*/false}));
  pm.addPass(createConvertMathToLibmPass());
  // Memrefs before scf: the memref.alloca_scope that scf-to-openmp puts
  // around a threaded loop body must still hold a single block.
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void mlir::stride::buildStrideCpuPipeline(OpPassManager &pm,
                                          const CpuPipelineOptions &options) {
  buildStrideToLinalgPipeline(pm, options);
  buildLinalgToLLVMPipeline(pm, options);
}

void mlir::stride::registerStridePipelines() {
  PassPipelineRegistration<CpuPipelineOptions>(
      "stride-cpu-pipeline",
      "Stride ops on tensors to the LLVM dialect for the CPU JIT",
      buildStrideCpuPipeline);
  PassPipelineRegistration<CpuPipelineOptions>(
      "stride-to-linalg-pipeline",
      "Stride ops on tensors to linalg on strided memrefs (the first half of "
      "stride-cpu-pipeline)",
      buildStrideToLinalgPipeline);
}
