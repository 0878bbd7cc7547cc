//===- InitAllPipelines.h - Register Stride's named pipelines ---*- C++ -*-===//
//
// Makes the named pipelines (stride-cpu-pipeline, stride-to-linalg-pipeline)
// available to textual pipelines, so that an embedder can nest them inside a
// larger pipeline of its own passes.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_INITALLPIPELINES_H
#define STRIDE_INITALLPIPELINES_H

namespace stride {
/// Registers every named Stride pipeline with the global pass registry.
/// Idempotent.
void registerAllPipelines();
} // namespace stride

#endif // STRIDE_INITALLPIPELINES_H
