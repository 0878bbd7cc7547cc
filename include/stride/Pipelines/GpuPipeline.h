//===- GpuPipeline.h - Stride to NVVM and a GPU binary ----------*- C++ -*-===//

#ifndef STRIDE_PIPELINES_GPUPIPELINE_H
#define STRIDE_PIPELINES_GPUPIPELINE_H

#include "stride/Pipelines/Pipelines.h"

namespace mlir::stride {

/// Where CMake found the CUDA toolkit and libdevice ("" when absent).
const char *defaultCudaToolkitPath();
const char *defaultLibdevicePath();
/// Whether gpu-module-to-binary can find ptxas (the toolkit CMake found,
/// CUDA_HOME or PATH), i.e. whether format=fatbin works here.
bool hasPtxas();

struct GpuPipelineOptions : public PassPipelineOptions<GpuPipelineOptions> {
  PassOptions::Option<::stride::layout::Policy> policy{
      *this, "policy",
      llvm::cl::desc("Output strides of: torch, numpy or contiguous"),
      llvm::cl::init(::stride::layout::Policy::Torch), policyOptionValues()};
  PassOptions::Option<bool> fuse{
      *this, "fuse", llvm::cl::desc("Fuse elementwise expressions"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> keepResultLayouts{
      *this, "keep-result-layouts",
      llvm::cl::desc("Keep the layouts declared on function results"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> blockSize{
      *this, "block-size", llvm::cl::desc("Threads per block"),
      llvm::cl::init(256)};
  PassOptions::Option<int64_t> maxBlocks{
      *this, "max-blocks",
      llvm::cl::desc("Most blocks per launch; threads loop over the rest"),
      llvm::cl::init(8192)};
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("GPU architecture"),
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
                     "bin (cubin, needs ptxas), isa (PTX) or llvm"),
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
      llvm::cl::desc("Serialize kernels and lower the host to LLVM; false "
                     "stops after the kernels are NVVM"),
      llvm::cl::init(true)};

  /// Sets the options of the Stride passes shared with the CPU pipeline.
  void fillStrideOptions(CpuPipelineOptions &cpu) const;
};

/// Stride ops to linalg on memrefs, then each linalg.generic to a
/// gpu.launch (stride-map-linalg-to-gpu), temporaries in device memory.
void buildStrideToGpuLaunchPipeline(OpPassManager &pm,
                                    const GpuPipelineOptions &options);
/// Linalg on memrefs to kernels in a GPU binary and host LLVM (the second
/// half of `stride-gpu-pipeline`; what `gpu` adds to the CPU pipeline).
void buildGpuLinalgToLLVMPipeline(OpPassManager &pm,
                                  const GpuPipelineOptions &options);
/// `stride-gpu-pipeline`: the launches outlined, kernels to NVVM with the
/// target attached, serialized by gpu-module-to-binary, the host to LLVM
/// calling the mgpu* runtime.
void buildStrideGpuPipeline(OpPassManager &pm,
                            const GpuPipelineOptions &options);
/// `stride-gpu-host-pipeline` (tests): the same kernels run on the host by
/// stride-gpu-launch-to-host-loops, then the CPU lowering.
void buildStrideGpuHostPipeline(OpPassManager &pm,
                                const GpuPipelineOptions &options);

/// Linalg on memrefs to GPU kernels run on the host: each linalg.generic
/// becomes a gpu.launch (as in stride-gpu-pipeline) whose grid and block
/// stride-gpu-launch-to-host-loops enumerates. What `gpu-host` adds to the
/// CPU pipeline.
void buildGpuKernelsOnHostPipeline(OpPassManager &pm, int64_t blockSize,
                                   int64_t maxBlocks);

/// Registers `stride-gpu-pipeline`, `stride-to-gpu-launch-pipeline` and
/// `stride-gpu-host-pipeline`.
void registerStrideGpuPipelines();

} // namespace mlir::stride

#endif // STRIDE_PIPELINES_GPUPIPELINE_H
