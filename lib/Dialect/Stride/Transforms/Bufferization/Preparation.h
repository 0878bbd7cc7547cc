//===- Preparation.h - Tensor-level steps before One-Shot Bufferize -*- C++ -*-===//

#ifndef STRIDE_LIB_DIALECT_STRIDE_TRANSFORMS_BUFFERIZATION_PREPARATION_H
#define STRIDE_LIB_DIALECT_STRIDE_TRANSFORMS_BUFFERIZATION_PREPARATION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::stride {

/// Discardable attribute on Stride ops: into how many chunks the kernel's
/// outer loop may be split (see stride-bufferize's `threads`).
constexpr llvm::StringLiteral kThreadsAttr = "stride.threads";
/// Discardable attribute on a stride.matmul whose operand is the other's
/// transpose: the columns per block of its symmetric kernel (see
/// stride-bufferize's `gram-block`).
constexpr llvm::StringLiteral kGramBlockAttr = "stride.gram_block";
/// Discardable unit attribute on a reduction: emit it as one plain
/// linalg.generic whose payload combines with a single op (no compensated
/// lanes or row blocks, which are CPU vectorization devices); see
/// stride-bufferize's `gpu-reductions`.
constexpr llvm::StringLiteral kPlainReductionAttr = "stride.plain_reduction";
/// On a reduction's main lanes generic whose lanes are contiguous: the
/// contract stride-vectorize-lanes reads (lib/Codegen/CPU/TileUtils.h).
constexpr llvm::StringLiteral kLanesAttr = "stride.lanes";
/// On the linalg.generic of a plain argmax ("max") or argmin ("min"):
/// outputs (value, index), the first index of the best value, NaN best;
/// with kUnsignedAttr the values order without a sign. The contract
/// stride-map-linalg-to-gpu reads (lib/Codegen/GPU/BlockReduction.cpp).
constexpr llvm::StringLiteral kArgReduceAttr = "stride.arg_reduce";
/// Marks the copy resultsToDestinations puts before a return: its input may
/// be computed in the output argument directly (see the broadcast model).
constexpr llvm::StringLiteral kOutputCopyAttr = "stride.output_copy";
/// Attribute on a function: how many trailing arguments are outputs.
constexpr llvm::StringLiteral kNumOutputsAttr = "stride.num_outputs";
/// Attribute on a function between resultsToDestinations and
/// dropOutputResults: the positions of the results that got an output
/// argument (the ranked tensors; after bufferization the types no longer
/// tell, since an unranked tensor may bufferize to a ranked memref).
constexpr llvm::StringLiteral kOutputResultsAttr = "stride.output_results";

/// Discardable attribute on a reduction (stride.sum, ..., stride.map_reduce)
/// whose reduced elements were unsigned integers before
/// makeIntegersSignless: its kernel compares, widens and converts them
/// without a sign. As an argument attribute of a function: the argument's
/// elements were unsigned (stride/Driver reads it back).
constexpr llvm::StringLiteral kUnsignedAttr = "stride.unsigned";

/// Rewrites every unsigned integer type in `module` (ui8 ... ui64, inside
/// tensors, memrefs, function types and type attributes) to the signless
/// integer of its width, after marking the reductions of unsigned elements
/// with kUnsignedAttr, and drops the scalar bodies' casts between the two
/// that became identities. One-Shot Bufferize and the kernels it builds
/// (linalg, arith) then see signless types only.
void makeIntegersSignless(ModuleOp module);

/// Marks with kGramBlockAttr = `block` every stride.matmul in `module`
/// whose operands view the same matrices, one of them transposed (x @ x.T,
/// x.T @ x, einsum's "ij,kj->ik"; see matrixSource in Matmul.cpp).
void markGramProducts(ModuleOp module, int64_t block);

/// Sets `bufferization.buffer_layout` on every ranked tensor argument of the
/// functions with a body (see stride-buffer-layouts).
void annotateArgumentBufferLayouts(ModuleOp module);

/// Turns `func`'s tensor results into trailing tensor arguments that the
/// returned values are computed into (see stride-bufferize).
void resultsToDestinations(func::FuncOp func);

/// After bufferization: removes the results that resultsToDestinations
/// routed into output arguments.
void dropOutputResults(func::FuncOp func);

/// After One-Shot: the row loops of stride-fuse-rows (kRowBlockAttr) keep
/// their temporaries on the stack, one alloca scope per iteration, and
/// become scf.parallel loops (threads > 1, enough bytes) or scf.for loops.
LogicalResult lowerRowBlockLoops(ModuleOp module, unsigned threads);

/// Rewrites every view op marked `copy` (the library copies) into a copy
/// (a one-op stride.broadcast into a tensor.empty) and a view, so that
/// One-Shot Bufferize sees only real views (ViewBufferization.cpp).
LogicalResult expandViewCopies(ModuleOp module);

/// Attaches the view ops' BufferizableOpInterface models: each bufferizes
/// to a memref.reinterpret_cast of its operand's buffer.
void attachViewBufferizationModels(MLIRContext *context);

} // namespace mlir::stride

#endif // STRIDE_LIB_DIALECT_STRIDE_TRANSFORMS_BUFFERIZATION_PREPARATION_H
