//===- Transforms.h - Stride's CPU codegen as functions ---------*- C++ -*-===//
//
// What stride-tile-matmul and stride-block-transposes do, callable on any
// op without a pass manager (as upstream's linalg transforms are). The
// passes are thin wrappers over these; Passes.td describes the algorithms.
// The options structs are the passes' own (generated from Passes.td), so the
// defaults are written once. As for upstream's tiling, the context must have
// linalg's TilingInterface models registered
// (linalg::registerTilingInterfaceExternalModels; registerAllDialects in
// stride/InitAllDialects.h does it).
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_CODEGEN_CPU_TRANSFORMS_H
#define STRIDE_CODEGEN_CPU_TRANSFORMS_H

#include "stride/Codegen/CPU/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::stride {

/// Cache-blocks, register-blocks and vectorizes every (batched) matrix
/// product on buffers under `root`; orders the loops of matrix-vector
/// products for LLVM's vectorizer. Fails, with an error on the op, on an
/// option out of range or a product that could not be tiled.
LogicalResult tileMatmuls(Operation *root,
                          const StrideTileMatmulOptions &options = {});

/// Cache-blocks (and, where the body allows, vectorizes register tiles of)
/// every elementwise linalg.generic on buffers under `root` whose operands
/// disagree on their contiguous loop. Fails, with an error on the op, on an
/// option out of range or an op that could not be tiled.
LogicalResult blockTransposes(Operation *root,
                              const StrideBlockTransposesOptions &options = {});

/// Vectorizes every reduction lanes generic under `root` (marked
/// `stride.lanes`) with its accumulators in vector registers across the
/// loops that do not move them. Fails, with an error on the op, on one
/// that could not be tiled or vectorized.
LogicalResult vectorizeLanes(Operation *root);

/// Lowers every elementwise linalg.generic on buffers under `root` whose
/// payload chains transcendental functions to loops whose innermost loop
/// runs in stages over blocks (see stride-split-math-chains). Fails, with
/// an error, on an option out of range or a generic that could not be
/// lowered.
LogicalResult splitMathChains(Operation *root,
                              const StrideSplitMathChainsOptions &options = {});

/// `math.absi` of an n-D vector (n >= 2) as `x < 0 ? 0 - x : x`, which the
/// LLVM lowering takes (it takes only scalars and 1-D vectors).
void populateMatrixAbsIPatterns(RewritePatternSet &patterns);

/// `math.exp` on float64 (scalars and vectors) as the inline polynomial
/// described with stride-expand-math.
void populateExpandMathPatterns(RewritePatternSet &patterns);

/// `math.powf` with a constant integral exponent (|n| <= 64) as the binary
/// powering described with stride-expand-powers.
void populateExpandPowersPatterns(RewritePatternSet &patterns);

} // namespace mlir::stride

#endif // STRIDE_CODEGEN_CPU_TRANSFORMS_H
