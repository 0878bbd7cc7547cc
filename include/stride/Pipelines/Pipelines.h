//===- Pipelines.h - Stride's pipeline and its one options model -*- C++
//-*-===//
//
// One set of options drives every lowering: the front half (Stride ops on
// tensors to linalg on strided memrefs) is the same for every target, and
// the back half is chosen by `target`. The pipelines are pure functions of
// these options: they never read the environment, so `stride-opt` prints the
// same IR on every machine. Drivers (stride-run, stride-compile, Python, the
// C API) resolve what depends on the machine ($STRIDE_NUM_THREADS and the
// cores, whether ptxas exists) before they build a pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_PIPELINES_PIPELINES_H
#define STRIDE_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "stride/Dialect/Stride/Transforms/PolicyOption.h"

#include <optional>

namespace mlir::stride {

/// Where the kernels run.
enum class Target {
  /// LLVM for the host CPU, large kernels threaded with OpenMP.
  Cpu,
  /// NVVM kernels in a GPU binary; the host calls the mgpu* runtime.
  Gpu,
  /// Tests: the GPU kernels, their grid and block enumerated on the host.
  GpuHost,
};

/// The spelling of `target` in `--target` and the pipeline's `target`
/// option ("cpu", "gpu", "gpu-host"), and back (std::nullopt for any other
/// name), so that every driver names targets as the pipeline does.
const char *targetName(Target target);
std::optional<Target> parseTarget(llvm::StringRef name);

/// Where CMake found the CUDA toolkit and libdevice ("" when absent).
const char *defaultCudaToolkitPath();
const char *defaultLibdevicePath();

/// Every option of Stride's pipelines, each declared once.
struct StridePipelineOptions
    : public PassPipelineOptions<StridePipelineOptions> {
  PassOptions::Option<Target> target{
      *this, "target", llvm::cl::desc("Where the kernels run"),
      llvm::cl::init(Target::Cpu),
      llvm::cl::values(
          clEnumValN(Target::Cpu, "cpu", "the host CPU (the default)"),
          clEnumValN(Target::Gpu, "gpu", "an NVIDIA GPU"),
          clEnumValN(Target::GpuHost, "gpu-host",
                     "tests: the GPU kernels run on the host"))};

  // The front half, the same for every target.
  PassOptions::Option<::stride::layout::Policy> policy{
      *this, "policy",
      llvm::cl::desc("Output strides of: torch, numpy or contiguous"),
      llvm::cl::init(::stride::layout::Policy::Torch), policyOptionValues()};
  PassOptions::Option<bool> fuse{
      *this, "fuse",
      llvm::cl::desc("Fuse elementwise expressions into one kernel "
                     "(stride-fuse)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fuseRows{
      *this, "fuse-rows",
      llvm::cl::desc("target=cpu: run a reduction, its producers and the "
                     "ops that broadcast it back as one loop over blocks of "
                     "rows (stride-fuse-rows)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> keepResultLayouts{
      *this, "keep-result-layouts",
      llvm::cl::desc("Keep the layouts declared on function results (the "
                     "caller's destination buffers) instead of propagating"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> distribute{
      *this, "distribute",
      llvm::cl::desc("Partition every entry over this grid of MPI processes, "
                     "4 or 2x2 (stride-distribute, shard-partition, "
                     "convert-shard-to-stride-mpi); empty or 0: one process"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> distributeStrategy{
      *this, "distribute-strategy",
      llvm::cl::desc("With distribute: auto, rows, cols or k"),
      llvm::cl::init("auto")};

  // The CPU lowering (target=cpu).
  PassOptions::Option<unsigned> threads{
      *this, "threads",
      llvm::cl::desc("target=cpu: run large kernels on this many threads "
                     "(OpenMP); 0 or 1: one thread (drivers resolve "
                     "$STRIDE_NUM_THREADS and the cores for 0)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> matmulKernels{
      *this, "matmul-kernels",
      llvm::cl::desc("target=cpu: cache-block, register-block and vectorize "
                     "matrix products (stride-tile-matmul)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> blockTransposes{
      *this, "block-transposes",
      llvm::cl::desc("target=cpu: cache-block elementwise loops whose "
                     "operands disagree on their contiguous dimension "
                     "(stride-block-transposes)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> splitMathChains{
      *this, "split-math-chains",
      llvm::cl::desc("target=cpu: run elementwise loops that chain "
                     "transcendental functions in stages over blocks "
                     "(stride-split-math-chains)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> expandMath{
      *this, "expand-math",
      llvm::cl::desc("target=cpu: evaluate float64 exp inline as a "
                     "polynomial that LLVM vectorizes (stride-expand-math); "
                     "off by default: the kernel optimizer's own vector exp "
                     "(lib/Pipelines/VectorMath) is faster where it applies, "
                     "libmvec's elsewhere"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> cachedTemporaries{
      *this, "cached-temporaries",
      llvm::cl::desc("target=cpu: allocate kernel temporaries with MLIR's "
                     "generic functions (_mlir_memref_to_llvm_alloc, "
                     "..._free), which the JIT binds to Stride's cache of "
                     "large freed blocks (stride/Runtime/TemporaryCache.h); "
                     "off: malloc and free, for libraries that run without "
                     "Stride"),
      llvm::cl::init(false)};

  // The GPU lowering (target=gpu; block-size and max-blocks also gpu-host).
  PassOptions::Option<int64_t> blockSize{
      *this, "block-size", llvm::cl::desc("GPU threads per block"),
      llvm::cl::init(256)};
  PassOptions::Option<int64_t> maxBlocks{
      *this, "max-blocks",
      llvm::cl::desc("Most GPU blocks per launch; threads loop over the rest"),
      llvm::cl::init(8192)};
  PassOptions::Option<std::string> chip{*this, "chip",
                                        llvm::cl::desc("GPU architecture"),
                                        llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features (sm_90 needs PTX 7.8 or newer)"),
      llvm::cl::init("+ptx80")};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level", llvm::cl::desc("NVPTX optimization level"),
      llvm::cl::init(3)};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("gpu-module-to-binary format: fatbin (needs ptxas), "
                     "bin (cubin, needs ptxas), isa (PTX, which the driver "
                     "JIT-compiles) or llvm"),
      llvm::cl::init("fatbin")};
  PassOptions::Option<std::string> libdevice{
      *this, "libdevice",
      llvm::cl::desc("libdevice bitcode to link (math functions); default: "
                     "the one CMake found"),
      llvm::cl::init(defaultLibdevicePath())};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit with bin/ptxas; default: the one CMake "
                     "found, else CUDA_HOME or PATH"),
      llvm::cl::init(defaultCudaToolkitPath())};
  PassOptions::Option<bool> binary{
      *this, "binary",
      llvm::cl::desc("target=gpu: serialize kernels and lower the host to "
                     "LLVM; false stops after the kernels are NVVM"),
      llvm::cl::init(true)};
};

/// The front half: Stride ops on tensors to linalg on strided memrefs (shape
/// inference, layout propagation, generalization, distribution, fusion,
/// coalescing, stride-bufferize, ownership-based deallocation, on the CPU
/// stride-early-dealloc). Its loops
/// are split for `threads` only when the target is the CPU.
void buildStrideToLinalgPipeline(OpPassManager &pm,
                                 const StridePipelineOptions &options);
/// The back half for `options.target`: linalg on memrefs to the LLVM
/// dialect (CPU), to kernels in a GPU binary and host LLVM (GPU), or to GPU
/// kernels run on the host and then the CPU lowering (gpu-host).
void buildStrideLoweringPipeline(OpPassManager &pm,
                                 const StridePipelineOptions &options);
/// Both halves: `stride-pipeline`, the one entry point.
void buildStridePipeline(OpPassManager &pm,
                         const StridePipelineOptions &options);
/// `stride-to-gpu-launch-pipeline`: the front half, then each linalg.generic
/// to a gpu.launch (stride-map-linalg-to-gpu), temporaries in device memory.
void buildStrideToGpuLaunchPipeline(OpPassManager &pm,
                                    const StridePipelineOptions &options);

/// Registers `stride-pipeline`, its spellings with another default target
/// (`stride-cpu-pipeline`, `stride-gpu-pipeline`,
/// `stride-gpu-host-pipeline`) and the partial pipelines
/// `stride-to-linalg-pipeline` and `stride-to-gpu-launch-pipeline`.
void registerStridePipelines();

} // namespace mlir::stride

#endif // STRIDE_PIPELINES_PIPELINES_H
