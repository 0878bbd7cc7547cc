//===- Passes.h - Stride dialect passes -------------------------*- C++ -*-===//

#ifndef STRIDE_DIALECT_STRIDE_TRANSFORMS_PASSES_H
#define STRIDE_DIALECT_STRIDE_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
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

#define GEN_PASS_DECL
#include "stride/Dialect/Stride/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "stride/Dialect/Stride/Transforms/Passes.h.inc"
} // namespace mlir::stride

#endif // STRIDE_DIALECT_STRIDE_TRANSFORMS_PASSES_H
