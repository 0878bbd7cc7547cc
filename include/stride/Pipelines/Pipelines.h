//===- Pipelines.h - Named Stride pipelines ---------------------*- C++ -*-===//

#ifndef STRIDE_PIPELINES_PIPELINES_H
#define STRIDE_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "stride/Dialect/Stride/Transforms/PolicyOption.h"

namespace mlir::stride {

struct CpuPipelineOptions : public PassPipelineOptions<CpuPipelineOptions> {
  PassOptions::Option<::stride::layout::Policy> policy{
      *this, "policy",
      llvm::cl::desc("Output strides of: torch, numpy or contiguous"),
      llvm::cl::init(::stride::layout::Policy::Torch), policyOptionValues()};
  PassOptions::Option<bool> fuse{
      *this, "fuse",
      llvm::cl::desc("Fuse elementwise expressions into one kernel "
                     "(stride-fuse)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> keepResultLayouts{
      *this, "keep-result-layouts",
      llvm::cl::desc("Keep the layouts declared on function results (the "
                     "caller's destination buffers) instead of propagating"),
      llvm::cl::init(false)};
  PassOptions::Option<unsigned> threads{
      *this, "threads",
      llvm::cl::desc("Run large kernels on this many threads (OpenMP); 0 "
                     "or 1: one thread (the pipeline never reads the "
                     "environment: stride-run, Python and the C API resolve "
                     "$STRIDE_NUM_THREADS and the cores for 0)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> matmulKernels{
      *this, "matmul-kernels",
      llvm::cl::desc("Cache-block, register-block and vectorize matrix "
                     "products (stride-tile-matmul)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> blockTransposes{
      *this, "block-transposes",
      llvm::cl::desc("Cache-block elementwise loops whose operands disagree "
                     "on their contiguous dimension (stride-block-transposes)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> cachedTemporaries{
      *this, "cached-temporaries",
      llvm::cl::desc("Allocate kernel temporaries with MLIR's generic "
                     "functions (_mlir_memref_to_llvm_alloc, ..._free), "
                     "which the JIT binds to Stride's cache of large freed "
                     "blocks (stride/Runtime/TemporaryCache.h); off: malloc "
                     "and free, for libraries that run without Stride"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> gpuHost{
      *this, "gpu-host",
      llvm::cl::desc("Tests: compile the kernels as the GPU pipeline does "
                     "(stride-map-linalg-to-gpu) and run them on the host "
                     "with the grid and block enumerated "
                     "(stride-gpu-launch-to-host-loops)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> gpu{
      *this, "gpu",
      llvm::cl::desc("Lower the kernels as stride-gpu-pipeline does (sm_90, "
                     "a fatbin when ptxas is found, else PTX) and the host "
                     "to calls of the mgpu* runtime"),
      llvm::cl::init(false)};
  PassOptions::Option<unsigned> distribute{
      *this, "distribute",
      llvm::cl::desc("Partition every entry over this many MPI processes "
                     "(stride-distribute, shard-partition, "
                     "convert-shard-to-stride-mpi); 0: one process"),
      llvm::cl::init(0)};
  PassOptions::Option<std::string> distributeStrategy{
      *this, "distribute-strategy",
      llvm::cl::desc("With distribute: auto, rows, cols or k"),
      llvm::cl::init("auto")};
};

/// The thread count a driver's request of `requested` threads means: itself
/// when positive; for 0, a positive integer in $STRIDE_NUM_THREADS, else the
/// machine's hardware threads (as PyTorch, numexpr and OpenBLAS default to).
/// Drivers call it once (JitKernel::compile does); the pipelines do not, so
/// their output is the same on every machine.
unsigned resolveThreads(unsigned requested);
/// Checks $STRIDE_NUM_THREADS: empty when unset or a positive integer, else
/// a message naming the bad value (tools report it instead of ignoring it).
std::string checkThreadsEnvironment();

/// Stride ops on tensors to linalg on strided memrefs: shape inference,
/// layout propagation, generalization, fusion (unless disabled), coalescing,
/// stride-bufferize and the ownership-based deallocation pipeline.
void buildStrideToLinalgPipeline(OpPassManager &pm,
                                 const CpuPipelineOptions &options);
/// Linalg on memrefs to the LLVM dialect: loops (the chunks of threaded
/// kernels to OpenMP), strided metadata, math (intrinsics, libm, integer
/// powers), memref, arith, cf and func to LLVM.
void buildLinalgToLLVMPipeline(OpPassManager &pm,
                               const CpuPipelineOptions &options);
/// Both halves: `stride-cpu-pipeline`.
void buildStrideCpuPipeline(OpPassManager &pm,
                            const CpuPipelineOptions &options);

/// Registers `stride-cpu-pipeline` and `stride-to-linalg-pipeline`.
void registerStridePipelines();

} // namespace mlir::stride

#endif // STRIDE_PIPELINES_PIPELINES_H
