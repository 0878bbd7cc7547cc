//===- TiledMatmul.h - Batched matmul as a shared-memory tiled kernel -----===//

#ifndef STRIDE_LIB_CONVERSION_LINALGTOGPU_TILEDMATMUL_H
#define STRIDE_LIB_CONVERSION_LINALGTOGPU_TILEDMATMUL_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::stride::gpu_mapping {

/// The loops of a matmul-shaped linalg.generic: two memref inputs A and B,
/// one memref output, one reduction loop k used by both inputs, exactly one
/// parallel loop m used by A and the output but not B, exactly one parallel
/// loop n used by B and the output but not A; every other parallel loop is a
/// batch loop (used by any operand, stride 0 where broadcast).
struct MatmulLoops {
  unsigned m, n, k;
  SmallVector<unsigned> batch;
};

/// The loops of `op` if it is a matmul the tiled kernel handles: the shape
/// above, integer or float elements, a payload without linalg.index.
std::optional<MatmulLoops> matchTiledMatmul(linalg::GenericOp op);

/// Replaces the launch-free `op` (matching `loops`) by one gpu.launch of the
/// tiled kernel, with at most `maxBlocks` blocks; erases `op`.
void buildTiledMatmul(linalg::GenericOp op, const MatmulLoops &loops,
                      int64_t maxBlocks);

} // namespace mlir::stride::gpu_mapping

#endif // STRIDE_LIB_CONVERSION_LINALGTOGPU_TILEDMATMUL_H
