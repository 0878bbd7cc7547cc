//===- Passes.h - Stride's GPU codegen passes -------------------*- C++ -*-===//

#ifndef STRIDE_CODEGEN_GPU_PASSES_H
#define STRIDE_CODEGEN_GPU_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace mlir::stride {
#define GEN_PASS_DECL
#include "stride/Codegen/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "stride/Codegen/GPU/Passes.h.inc"
} // namespace mlir::stride

#endif // STRIDE_CODEGEN_GPU_PASSES_H
