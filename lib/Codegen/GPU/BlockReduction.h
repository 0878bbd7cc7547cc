//===- BlockReduction.h - Reductions as block trees on the GPU -*- C++ -*-===//
//
// A linalg.generic whose reduction each block computes cooperatively: the
// threads of a block walk one output's reduction points, and their partial
// results meet in gpu.all_reduce (warp shuffles and workgroup memory once
// convert-gpu-to-nvvm lowers it).
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_LIB_CODEGEN_GPU_BLOCKREDUCTION_H
#define STRIDE_LIB_CODEGEN_GPU_BLOCKREDUCTION_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlir::stride::gpu_mapping {

/// How a generic's reduction maps onto block trees.
struct BlockReduction {
  /// The parallel loops, slowest first, and the reduction loops, slowest
  /// first: the fastest one walks the first memref input most densely, so
  /// a warp's loads coalesce.
  SmallVector<unsigned> parallel, reduction;
  /// Per output: the gpu.all_reduce operation combining two partial
  /// results, and its identity (each thread's initial accumulator).
  SmallVector<gpu::AllReduceOperation> kinds;
  SmallVector<TypedAttr> identities;
  /// An argmax ("max") or argmin ("min") marked `stride.arg_reduce` by
  /// stride-bufferize: outputs (value, index), the first index of the best
  /// value (NaN best); `kinds` then holds the value's extremum and
  /// `identities` the value's and index 0.
  bool argReduce = false, argMax = false, argUnsigned = false;
};

/// The block-tree mapping of `op`, or none when its payload does not
/// combine each output with a single associative op of a supported type,
/// or when one thread per output reads the input better (its dense loop is
/// parallel and there are enough outputs to fill the GPU). `parallel` is
/// the grid-stride mapping's order of the parallel loops.
std::optional<BlockReduction> matchBlockReduction(linalg::GenericOp op,
                                                  ArrayRef<unsigned> parallel);

/// Replaces `op` by the block-tree kernels: blocks take (output, chunk)
/// tasks; when an output's reduction is split over several chunks, each
/// chunk's result goes to a partial buffer that a second launch combines.
void buildBlockReduction(linalg::GenericOp op, const BlockReduction &plan,
                         int64_t blockSize, int64_t maxBlocks);

} // namespace mlir::stride::gpu_mapping

#endif // STRIDE_LIB_CODEGEN_GPU_BLOCKREDUCTION_H
