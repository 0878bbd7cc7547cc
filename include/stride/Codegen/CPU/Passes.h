//===- Passes.h - Stride's CPU codegen passes -------------------*- C++ -*-===//

#ifndef STRIDE_CODEGEN_CPU_PASSES_H
#define STRIDE_CODEGEN_CPU_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::stride {
#define GEN_PASS_DECL
#include "stride/Codegen/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "stride/Codegen/CPU/Passes.h.inc"
} // namespace mlir::stride

#endif // STRIDE_CODEGEN_CPU_PASSES_H
