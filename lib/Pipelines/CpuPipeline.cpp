//===- CpuPipeline.cpp - Stride to LLVM on the CPU ------------------------===//

#include "stride/Pipelines/Pipelines.h"
#include "stride/Pipelines/GpuPipeline.h"

#include "stride/Conversion/Passes.h"
#include "stride/Dialect/Stride/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Shard/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include <cstdlib>
#include <thread>

using namespace mlir;
using namespace mlir::stride;

namespace {
/// The value of $STRIDE_NUM_THREADS when it is a positive integer.
std::optional<unsigned> threadsFromEnvironment() {
  const char *text = std::getenv("STRIDE_NUM_THREADS");
  unsigned value = 0;
  if (!text || StringRef(text).trim().getAsInteger(10, value) || value == 0)
    return std::nullopt;
  return value;
}
} // namespace

unsigned mlir::stride::resolveThreads(unsigned requested) {
  if (requested > 0)
    return requested;
  if (std::optional<unsigned> fromEnv = threadsFromEnvironment())
    return *fromEnv;
  return std::max(1u, std::thread::hardware_concurrency());
}

std::string mlir::stride::checkThreadsEnvironment() {
  const char *text = std::getenv("STRIDE_NUM_THREADS");
  if (!text || threadsFromEnvironment())
    return "";
  return "STRIDE_NUM_THREADS must be a positive integer, got '" +
         std::string(text) + "'";
}

void mlir::stride::buildStrideToLinalgPipeline(
    OpPassManager &pm, const CpuPipelineOptions &options) {
  pm.addPass(createStrideInferShapes());
  pm.addPass(createStridePropagateLayout(
      StridePropagateLayoutOptions{options.policy, options.keepResultLayouts}));
  pm.addPass(createStrideGeneralize());
  if (options.distribute > 0) {
    // Each rank's program on its blocks; the local layouts are the policy's
    // for the dense blocks the runner hands every rank.
    pm.addPass(createStrideDistribute(
        StrideDistributeOptions{std::to_string(unsigned(options.distribute)),
                                options.distributeStrategy}));
    pm.addNestedPass<func::FuncOp>(shard::createPartition());
    pm.addPass(createConvertShardToStrideMpi());
    // Partitioning may add named ops (the division of a split mean).
    pm.addPass(createStrideGeneralize());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createStridePropagateLayout(
        StridePropagateLayoutOptions{options.policy, false}));
  } else {
    pm.addPass(createStrideDropShardings());
  }
  if (options.fuse)
    pm.addPass(createStrideFuse());
  pm.addPass(createStrideCoalesce());
  // The pipeline is a function of its options alone: threads=0 is one thread
  // here, and drivers resolve $STRIDE_NUM_THREADS and the cores (JitKernel).
  pm.addPass(createStrideBufferize(
      StrideBufferizeOptions{std::max(1u, unsigned(options.threads))}));
  // A private function may return a buffer it does not own (an scf.for
  // result that is its argument's buffer): with dynamic ownership it hands
  // the ownership bit back instead of cloning, since nothing later in this
  // pipeline lowers bufferization.clone of a strided buffer.
  bufferization::BufferDeallocationPipelineOptions deallocation;
  deallocation.privateFunctionDynamicOwnership = true;
  bufferization::buildBufferDeallocationPipeline(pm, deallocation);
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
  // The CPU's matmul micro-kernels and transpose blocking do not apply to
  // the GPU kernels (gpu-host has already mapped every linalg op).
  if (options.matmulKernels && !options.gpuHost)
    pm.addPass(createStrideTileMatmul());
  if (options.blockTransposes && !options.gpuHost)
    pm.addPass(createStrideBlockTransposes());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(createConvertVectorToSCFPass(
      VectorTransferToSCFOptions().enableFullUnroll()));
  unsigned threads = std::max(1u, unsigned(options.threads));
  if (threads > 1)
    pm.addPass(createConvertSCFToOpenMPPass(
        ConvertSCFToOpenMPPassOptions{threads}));
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertMathToFuncs());
  // math.log1p as log(1 + x) loses every digit near 0: libm's log1p instead.
  pm.addPass(createConvertMathToLLVMPass(
      ConvertMathToLLVMPassOptions{/*approximateLog1p=*/false}));
  pm.addPass(createConvertMathToLibmPass());
  // Memrefs before scf: the memref.alloca_scope that scf-to-openmp puts
  // around a threaded loop body must still hold a single block.
  pm.addPass(createConvertVectorToLLVMPass());
  FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
  memrefOptions.useGenericFunctions = options.cachedTemporaries;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  // Negative strides make the linearized index negative: no nuw on it.
  pm.addPass(createStrideDropGepNuw());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
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
