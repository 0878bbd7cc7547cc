//===- TileUtils.h - Helpers shared by the CPU tiling passes ----*- C++ -*-===//
//
// stride-tile-matmul and stride-block-transposes both tile a linalg op on
// buffers, peel the tile loops so the main iterations have static tiles, and
// hand each static tile to the linalg vectorizer. These are the steps they
// share.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_CODEGEN_CPU_TILEUTILS_H
#define STRIDE_CODEGEN_CPU_TILEUTILS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir::stride {

/// The attributes that mark the register tiles each pass turns into vector
/// code once peeling has made their shapes static: stride-tile-matmul's
/// micro-kernels and stride-block-transposes' transposing tiles. Each pass
/// vectorizes only its own.
constexpr StringLiteral kMicroTile = "stride.micro_tile";
constexpr StringLiteral kRegisterTile = "stride.transpose_tile";

/// Marks a reduction's lanes generic (set by stride-bufferize, see
/// lib/Dialect/Stride/Transforms/Bufferization/Reduce.cpp): its last loop is
/// the static lanes, its outputs are the kernel's own lane buffers, which
/// stride-vectorize-lanes keeps in vector registers.
constexpr StringLiteral kLanesAttr = "stride.lanes";

/// Bytes of a cache line on the CPUs Stride targets (x86-64, AArch64).
constexpr int64_t kCacheLine = 64;

/// The ops of type `OpTy` under `root` marked with `attr`, which is
/// removed from every one of them; those of static shape are returned (a
/// tile whose shape peeling left dynamic stays scalar code).
template <typename OpTy>
SmallVector<OpTy> takeStaticTiles(Operation *root, StringRef attr) {
  SmallVector<OpTy> tiles;
  root->walk([&](OpTy op) {
    if (!op->hasAttr(attr))
      return;
    op->removeAttr(attr);
    if (!op.hasDynamicShape())
      tiles.push_back(op);
  });
  return tiles;
}

/// The static stride with which `loop` moves through `operand` of `op`: the
/// stride of the operand's dim of size other than 1 that `loop` indexes, 0
/// when there is none (the loop does not move it); nullopt when the
/// operand is not a strided memref or that stride is dynamic.
std::optional<int64_t> strideAlong(linalg::LinalgOp op, OpOperand &operand,
                                   unsigned loop);

/// Tiles `op` with `scf::tileUsingSCF` by `sizes` (0: that loop is not
/// tiled), the tile loops nested in `interchange` order when it is not
/// empty, then erases `op`. On failure `op` stays and the error says it
/// "could not be tiled into <what>".
FailureOr<scf::SCFTilingResult> tileAndErase(RewriterBase &rewriter,
                                             linalg::LinalgOp op,
                                             ArrayRef<int64_t> sizes,
                                             ArrayRef<int64_t> interchange,
                                             StringRef what);

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

#endif // STRIDE_CODEGEN_CPU_TILEUTILS_H
