//===- StrideDialect.cpp - Stride dialect ---------------------------------===//

#include "stride/Dialect/Stride/IR/StrideDialect.h"
#include "stride/Dialect/Stride/IR/StrideOps.h"

#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace mlir::stride;

#include "stride/Dialect/Stride/IR/StrideOpsDialect.cpp.inc"

void StrideDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "stride/Dialect/Stride/IR/StrideOps.cpp.inc"
      >();
}
