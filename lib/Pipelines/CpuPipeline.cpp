//===- CpuPipeline.cpp - Stride to LLVM on the CPU ------------------------===//

#include "stride/Pipelines/Pipelines.h"
#include "stride/Pipelines/GpuPipeline.h"

#include "stride/Codegen/CPU/Passes.h"
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

using namespace mlir;
using namespace mlir::stride;

namespace {
/// The threads the CPU runs kernels on: only target=cpu threads them.
unsigned cpuThreads(const StridePipelineOptions &options) {
  if (options.target != Target::Cpu)
    return 1;
  return std::max(1u, unsigned(options.threads));
}

} // namespace

void mlir::stride::buildStrideToLinalgPipeline(
    OpPassManager &pm, const StridePipelineOptions &options) {
  pm.addPass(createStrideInferShapes());
  pm.addPass(createStrideReassociateMatmuls());
  pm.addPass(createStridePropagateLayout(
      StridePropagateLayoutOptions{options.policy, options.keepResultLayouts}));
  pm.addPass(createStrideGeneralize());
  // "0" is one process, as when distribute was a count.
  bool distributed = !options.distribute.empty() && options.distribute != "0";
  if (distributed) {
    // Each rank's program on its blocks; the local layouts are the policy's
    // for the dense blocks the runner hands every rank.
    pm.addPass(createStrideDistribute(StrideDistributeOptions{
        options.distribute, options.distributeStrategy}));
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
  if (options.fuse) {
    // The GPU's block trees (stride-map-linalg-to-gpu) reduce stored
    // tensors' indices; its pipeline keeps argmax and argmin unfused.
    StrideFuseOptions fuse;
    fuse.indexReductions = options.target == Target::Cpu;
    pm.addPass(createStrideFuse(fuse));
  }
  // The loops over rows hold linalg kernels that only the CPU lowering
  // runs; a partitioned program's blocks are already each rank's.
  if (options.fuse && options.fuseRows && options.target == Target::Cpu &&
      !distributed)
    pm.addPass(createStrideFuseRows());
  pm.addPass(createStrideCoalesce());
  // The pipeline is a function of its options alone: threads=0 is one thread
  // here, and drivers resolve $STRIDE_NUM_THREADS and the cores (JitKernel).
  // On a GPU the launches are the parallelism: no chunked outer loops.
  // GPU targets combine reductions in block trees (stride-map-linalg-to-gpu),
  // which need plain single-op combiners rather than the CPU's lanes. The
  // symmetric products' blocks are tuned for the CPU's tiled products.
  bool cpu = options.target == Target::Cpu;
  StrideBufferizeOptions bufferize;
  bufferize.threads = cpuThreads(options);
  bufferize.gpuReductions = !cpu;
  if (!cpu)
    bufferize.gramBlock = 0;
  pm.addPass(createStrideBufferize(bufferize));
  // A private function may return a buffer it does not own (an scf.for
  // result that is its argument's buffer): with dynamic ownership it hands
  // the ownership bit back instead of cloning, since nothing later in this
  // pipeline lowers bufferization.clone of a strided buffer.
  bufferization::BufferDeallocationPipelineOptions deallocation;
  deallocation.privateFunctionDynamicOwnership = true;
  bufferization::buildBufferDeallocationPipeline(pm, deallocation);
  pm.addPass(createCanonicalizerPass());
  // After the canonicalizer has folded the constant-true conditions around
  // the deallocations. Only on the CPU, where every kernel has finished
  // when the next op starts.
  if (options.target == Target::Cpu)
    pm.addNestedPass<func::FuncOp>(createStrideEarlyDealloc());
  pm.addPass(createCSEPass());
}

namespace {
/// Linalg on memrefs to the LLVM dialect on the CPU: loops (the chunks of
/// threaded kernels to OpenMP), strided metadata, math (intrinsics, libm,
/// integer powers), memref, arith, cf and func to LLVM. `codegen` adds the
/// CPU's matmul micro-kernels and transpose blocking, which do not apply to
/// kernels already mapped to GPU launches.
void buildCpuLoweringPipeline(OpPassManager &pm,
                              const StridePipelineOptions &options,
                              bool codegen) {
  if (codegen && options.matmulKernels)
    pm.addPass(createStrideTileMatmul());
  if (codegen && options.blockTransposes)
    pm.addPass(createStrideBlockTransposes());
  if (codegen)
    pm.addPass(createStrideVectorizeLanes());
  if (codegen && options.splitMathChains)
    pm.addPass(createStrideSplitMathChains());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(createConvertVectorToSCFPass(
      VectorTransferToSCFOptions().enableFullUnroll()));
  unsigned threads = cpuThreads(options);
  if (threads > 1)
    pm.addPass(createConvertSCFToOpenMPPass(
        ConvertSCFToOpenMPPassOptions{threads}));
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  if (codegen)
    pm.addPass(createStrideExpandPowers());
  if (codegen && options.expandMath)
    pm.addPass(createStrideExpandMath());
  pm.addPass(createConvertMathToFuncs());
  // math.expm1 and math.log1p as exp(x) - 1 and log(1 + x) lose every digit
  // near 0: libm's expm1 and log1p instead (vectorized by the optimizer).
  pm.addPass(createStrideExpm1ToLibm());
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
  // i1 elements are bytes: byte loads and stores let LLVM vectorize them.
  pm.addPass(createStrideBoolsAsBytes());
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

} // namespace

const char *mlir::stride::targetName(Target target) {
  switch (target) {
  case Target::Gpu:
    return "gpu";
  case Target::GpuHost:
    return "gpu-host";
  case Target::Cpu:
    break;
  }
  return "cpu";
}

std::optional<Target> mlir::stride::parseTarget(StringRef name) {
  for (Target target : {Target::Cpu, Target::Gpu, Target::GpuHost})
    if (name == targetName(target))
      return target;
  return std::nullopt;
}

void mlir::stride::buildStrideLoweringPipeline(
    OpPassManager &pm, const StridePipelineOptions &options) {
  switch (options.target) {
  case Target::Cpu:
    buildCpuLoweringPipeline(pm, options, /*codegen=*/true);
    return;
  case Target::Gpu:
    buildGpuLoweringPipeline(pm, options);
    return;
  case Target::GpuHost:
    buildGpuKernelsOnHostPipeline(pm, options.blockSize, options.maxBlocks);
    buildCpuLoweringPipeline(pm, options, /*codegen=*/false);
    return;
  }
}

void mlir::stride::buildStridePipeline(OpPassManager &pm,
                                       const StridePipelineOptions &options) {
  buildStrideToLinalgPipeline(pm, options);
  buildStrideLoweringPipeline(pm, options);
}

void mlir::stride::buildStrideToGpuLaunchPipeline(
    OpPassManager &pm, const StridePipelineOptions &options) {
  buildStrideToLinalgPipeline(pm, options);
  buildLinalgToGpuLaunchesPipeline(pm, options.blockSize, options.maxBlocks,
                                   /*deviceMemory=*/true);
}

namespace {
/// The options with another default target, for the pipeline's spellings
/// that name one (`stride-gpu-pipeline` is `stride-pipeline{target=gpu}`).
template <Target T> struct OptionsForTarget : StridePipelineOptions {
  OptionsForTarget() { target = T; }
};

template <Target T>
void registerForTarget(StringRef name, StringRef description) {
  PassPipelineRegistration<OptionsForTarget<T>>(
      name, description,
      [](OpPassManager &pm, const OptionsForTarget<T> &options) {
        buildStridePipeline(pm, options);
      });
}
} // namespace

void mlir::stride::registerStridePipelines() {
  PassPipelineRegistration<StridePipelineOptions>(
      "stride-pipeline",
      "Stride ops on tensors to the LLVM dialect for the chosen target (cpu, "
      "gpu or gpu-host)",
      buildStridePipeline);
  registerForTarget<Target::Cpu>(
      "stride-cpu-pipeline",
      "stride-pipeline with target=cpu: LLVM for the CPU JIT");
  registerForTarget<Target::Gpu>(
      "stride-gpu-pipeline",
      "stride-pipeline with target=gpu: NVVM kernels in a GPU binary and "
      "host LLVM calling the mgpu* runtime");
  registerForTarget<Target::GpuHost>(
      "stride-gpu-host-pipeline",
      "stride-pipeline with target=gpu-host (tests): the GPU kernels run on "
      "the host, grid and block enumerated, lowered as for the CPU");
  PassPipelineRegistration<StridePipelineOptions>(
      "stride-to-linalg-pipeline",
      "Stride ops on tensors to linalg on strided memrefs (the first half of "
      "stride-pipeline)",
      buildStrideToLinalgPipeline);
  PassPipelineRegistration<OptionsForTarget<Target::Gpu>>(
      "stride-to-gpu-launch-pipeline",
      "Stride ops on tensors to gpu.launch kernels on memrefs (the first half "
      "of target=gpu)",
      [](OpPassManager &pm, const OptionsForTarget<Target::Gpu> &options) {
        buildStrideToGpuLaunchPipeline(pm, options);
      });
}
