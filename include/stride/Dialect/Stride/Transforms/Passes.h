//===- Passes.h - Stride dialect passes -------------------------*- C++ -*-===//

#ifndef STRIDE_DIALECT_STRIDE_TRANSFORMS_PASSES_H
#define STRIDE_DIALECT_STRIDE_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "stride/Dialect/Stride/IR/StrideDialect.h"
#include "stride/Dialect/Stride/Transforms/PolicyOption.h"

namespace mlir::stride {
/// Discardable attribute on the scf.forall that stride-fuse-rows builds: its
/// block of rows. stride-bufferize gives such a loop's temporaries stack
/// space and makes it an scf.parallel or an scf.for.
constexpr llvm::StringLiteral kRowBlockAttr = "stride.row_block";

/// Unit attribute on a module: the passes that decide how kernels run
/// (stride-fuse-rows, the threads of stride-bufferize, stride-tile-matmul,
/// stride-block-transposes) say what they decided and why as remarks that
/// start with "stride-explain: ". stride.explain sets it.
constexpr llvm::StringLiteral kExplainAttr = "stride.explain";

/// True when the module holding `op` (or `op` itself) asks for remarks.
inline bool explainsDecisions(Operation *op) {
  ModuleOp module = dyn_cast<ModuleOp>(op);
  if (!module)
    module = op->getParentOfType<ModuleOp>();
  return module && module->hasAttr(kExplainAttr);
}

#define GEN_PASS_DECL
#include "stride/Dialect/Stride/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "stride/Dialect/Stride/Transforms/Passes.h.inc"
} // namespace mlir::stride

#endif // STRIDE_DIALECT_STRIDE_TRANSFORMS_PASSES_H
