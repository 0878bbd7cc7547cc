//===- InitAllPasses.h - Register Stride's passes ---------------*- C++ -*-===//
//
// Makes every Stride pass (stride-infer-shapes, ..., stride-bufferize, the GPU
// lowerings) available to textual pipelines and to mlir-opt style command
// lines.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_INITALLPASSES_H
#define STRIDE_INITALLPASSES_H

namespace stride {
/// Registers the Stride dialect's passes and Stride's conversion passes with
/// the global pass registry. Idempotent.
void registerAllPasses();
} // namespace stride

#endif // STRIDE_INITALLPASSES_H
