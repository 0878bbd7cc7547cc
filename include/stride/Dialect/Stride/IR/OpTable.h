//===- OpTable.h - The named elementwise ops, as data -----------*- C++ -*-===//
//
// The table front ends build their op sets from: one row per named
// elementwise op, read from the registered ops' ScalarBodyOpInterface (and so
// from StrideOps.td). The Python package serves it as
// `_stride.elementwise_ops()`, so an op defined in TableGen reaches NumPy's
// ufunc protocol, `@stride.jit` and the C API without a Python edit.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_DIALECT_STRIDE_IR_OPTABLE_H
#define STRIDE_DIALECT_STRIDE_IR_OPTABLE_H

#include "mlir/IR/MLIRContext.h"

#include <string>
#include <vector>

namespace mlir::stride {

struct ElementwiseOpInfo {
  std::string mnemonic;    // "exp": the op is `stride.exp`
  std::string ufunc;       // the NumPy ufunc it implements; empty for none
  std::string dtypeUfunc;  // the ufunc whose dtype resolution it follows
  unsigned arity;          // operands
  std::string resultRule;  // "same", "i1" or "custom"
  /// The element types (MLIR spellings of stride::kElementTypes rows) the
  /// operands may have.
  std::vector<std::string> elementTypes;
};

/// Every named elementwise op of the Stride dialect loaded in `context`,
/// ordered by mnemonic.
std::vector<ElementwiseOpInfo> getElementwiseOpTable(MLIRContext &context);

} // namespace mlir::stride

#endif // STRIDE_DIALECT_STRIDE_IR_OPTABLE_H
