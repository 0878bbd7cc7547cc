//===- Transforms.h - Stride's GPU codegen as functions ---------*- C++ -*-===//
//
// What stride-map-linalg-to-gpu, stride-gpu-device-alloc and
// stride-gpu-launch-to-host-loops do, callable on any op without a pass
// manager. The passes are thin wrappers over these; Passes.td describes the
// algorithms. The options struct is the pass's own (generated from
// Passes.td), so the defaults are written once.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_CODEGEN_GPU_TRANSFORMS_H
#define STRIDE_CODEGEN_GPU_TRANSFORMS_H

#include "stride/Codegen/GPU/Passes.h"

namespace mlir::stride {

/// Turns every linalg.generic on buffers under `root` into a gpu.launch
/// (batched matmuls into the shared-memory tiled kernel when
/// `options.tiledMatmul`). Fails, with an error, on an option out of range,
/// an op on tensors or a named linalg op.
LogicalResult mapLinalgToGpu(Operation *root,
                             const StrideMapLinalgToGpuOptions &options = {});

/// Moves every memref.alloc/dealloc under `root` outside a launch to
/// gpu.alloc/gpu.dealloc (device memory), each waited on at once.
void allocateOnDevice(Operation *root);

/// Rewrites every gpu.launch under `root` into host loops over its grid and
/// block, barriers by loop fission. Fails, with an error on the launch, on
/// one whose threads the loops cannot emulate.
LogicalResult launchesToHostLoops(Operation *root);

} // namespace mlir::stride

#endif // STRIDE_CODEGEN_GPU_TRANSFORMS_H
