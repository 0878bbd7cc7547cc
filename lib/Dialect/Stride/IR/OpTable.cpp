//===- OpTable.cpp - The named elementwise ops, as data -------------------===//

#include "stride/Dialect/Stride/IR/OpTable.h"

#include "stride/Dialect/Stride/IR/StrideDialect.h"
#include "stride/Dialect/Stride/IR/StrideOps.h"
#include "stride/Support/ElementType.h"
#include "stride/Support/MLIRElementType.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::stride;

std::vector<ElementwiseOpInfo>
mlir::stride::getElementwiseOpTable(MLIRContext &context) {
  context.getOrLoadDialect<StrideDialect>();
  std::vector<ElementwiseOpInfo> table;
  for (RegisteredOperationName name : context.getRegisteredOperations()) {
    if (name.getDialectNamespace() != StrideDialect::getDialectNamespace())
      continue;
    auto *iface = name.getInterface<ScalarBodyOpInterface>();
    if (!iface)
      continue;
    ElementwiseOpInfo info;
    info.mnemonic = name.stripDialect().str();
    info.ufunc = iface->getUfuncName().str();
    info.dtypeUfunc = iface->getDtypeUfuncName().str();
    info.arity = iface->getArity();
    info.resultRule = iface->getResultElementRule().str();
    for (const ::stride::ElementTypeInfo &row : ::stride::kElementTypes)
      if (iface->acceptsElementType(getMLIRElementType(row.type, &context)))
        info.elementTypes.push_back(row.name);
    table.push_back(std::move(info));
  }
  llvm::sort(table, [](const ElementwiseOpInfo &a, const ElementwiseOpInfo &b) {
    return a.mnemonic < b.mnemonic;
  });
  return table;
}
