//===- MLIRElementType.cpp - Element types as MLIR types ------------------===//

#include "stride/Support/MLIRElementType.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::stride;

namespace {
/// The builder's getters, and the unsigned integer types it has none for.
struct ElementTypeBuilder : Builder {
  using Builder::Builder;
  Type getUI8Type() { return getIntegerType(8, /*isSigned=*/false); }
  Type getUI16Type() { return getIntegerType(16, /*isSigned=*/false); }
  Type getUI32Type() { return getIntegerType(32, /*isSigned=*/false); }
  Type getUI64Type() { return getIntegerType(64, /*isSigned=*/false); }
};
} // namespace

Type mlir::stride::getMLIRElementType(ElementType type, MLIRContext *context) {
  ElementTypeBuilder builder(context);
  switch (type) {
#define STRIDE_ELEMENT_MLIR(E, id, T, descr, numpy, cls, getter)               \
  case ElementType::E:                                                         \
    return builder.getter();
    STRIDE_ELEMENT_TYPES(STRIDE_ELEMENT_MLIR)
#undef STRIDE_ELEMENT_MLIR
  }
  llvm_unreachable("not an ElementType enumerator");
}

std::optional<ElementType> mlir::stride::elementTypeOf(Type type) {
  // Types are uniqued in their context: equality is identity, and the
  // candidates are built in the type's own context.
  for (const ::stride::ElementTypeInfo &info : ::stride::kElementTypes)
    if (getMLIRElementType(info.type, type.getContext()) == type)
      return info.type;
  return std::nullopt;
}
