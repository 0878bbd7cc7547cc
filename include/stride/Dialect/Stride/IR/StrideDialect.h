//===- StrideDialect.h - Stride dialect -------------------------*- C++ -*-===//

#ifndef STRIDE_DIALECT_STRIDE_IR_STRIDEDIALECT_H
#define STRIDE_DIALECT_STRIDE_IR_STRIDEDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Dialect.h"

#include "stride/Dialect/Stride/IR/StrideOpsDialect.h.inc"

#endif // STRIDE_DIALECT_STRIDE_IR_STRIDEDIALECT_H
