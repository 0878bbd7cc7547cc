//===- GpuPipeline.h - Stride to NVVM and a GPU binary ----------*- C++ -*-===//

#ifndef STRIDE_PIPELINES_GPUPIPELINE_H
#define STRIDE_PIPELINES_GPUPIPELINE_H

#include "stride/Pipelines/Pipelines.h"

namespace mlir::stride {

/// Whether gpu-module-to-binary can find ptxas (the toolkit CMake found,
/// CUDA_HOME or PATH), i.e. whether format=fatbin works here. Drivers ask;
/// the pipeline does not.
bool hasPtxas();

/// Linalg on memrefs to kernels in a GPU binary and host LLVM: the back
/// half of target=gpu.
void buildGpuLoweringPipeline(OpPassManager &pm,
                              const StridePipelineOptions &options);

/// Linalg on memrefs to GPU kernels run on the host: each linalg.generic
/// becomes a gpu.launch (as for target=gpu) whose grid and block
/// stride-gpu-launch-to-host-loops enumerates. What target=gpu-host runs
/// before the CPU lowering.
void buildGpuKernelsOnHostPipeline(OpPassManager &pm, int64_t blockSize,
                                   int64_t maxBlocks);

/// Each linalg.generic on memrefs to a gpu.launch, temporaries in device
/// memory when `deviceMemory`.
void buildLinalgToGpuLaunchesPipeline(OpPassManager &pm, int64_t blockSize,
                                      int64_t maxBlocks, bool deviceMemory);

} // namespace mlir::stride

#endif // STRIDE_PIPELINES_GPUPIPELINE_H
