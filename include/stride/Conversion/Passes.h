//===- Passes.h - Stride conversion passes ----------------------*- C++ -*-===//

#ifndef STRIDE_CONVERSION_PASSES_H
#define STRIDE_CONVERSION_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::stride {
#define GEN_PASS_DECL
#include "stride/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "stride/Conversion/Passes.h.inc"
} // namespace mlir::stride

#endif // STRIDE_CONVERSION_PASSES_H
