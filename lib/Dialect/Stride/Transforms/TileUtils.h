//===- TileUtils.h - Helpers shared by the CPU tiling passes ----*- C++ -*-===//
//
// stride-tile-matmul and stride-block-transposes both tile a linalg op on
// buffers, peel the tile loops so the main iterations have static tiles, and
// hand each static tile to the linalg vectorizer. These are the steps they
// share.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_DIALECT_STRIDE_TRANSFORMS_TILEUTILS_H
#define STRIDE_DIALECT_STRIDE_TRANSFORMS_TILEUTILS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir::stride {

/// Peels every `scf.for` among `loops` whose step is not 1, so that its main
/// iterations cover whole steps (static tiles once canonicalized) and one
/// partial iteration runs the rest.
void peelTileLoops(RewriterBase &rewriter, ArrayRef<LoopLikeOpInterface> loops);

/// Applies the canonicalization patterns of every loaded dialect and op to
/// `root`: folds the `affine.min` sizes of peeled tiles into constants in
/// the subview types and the linalg operands.
void canonicalizeAll(Operation *root);

/// `op` without the loops set in `drop`, each of static size 1: operand
/// dimensions indexed by a dropped loop are removed by rank-reducing
/// subviews, and the indexing maps lose those loops. The vectorizer then sees
/// only the loops that carry vector lanes. `op` is erased.
linalg::GenericOp dropUnitLoops(RewriterBase &rewriter, linalg::GenericOp op,
                                const llvm::SmallBitVector &drop);

} // namespace mlir::stride

#endif // STRIDE_DIALECT_STRIDE_TRANSFORMS_TILEUTILS_H
