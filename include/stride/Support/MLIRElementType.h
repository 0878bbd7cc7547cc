//===- MLIRElementType.h - Element types as MLIR types ----------*- C++ -*-===//
//
// The MLIR half of the element-type table (stride/Support/ElementType.h):
// which mlir::Type each row is. Kept apart so the table itself stays free of
// LLVM and MLIR for the runtime libraries.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_SUPPORT_MLIRELEMENTTYPE_H
#define STRIDE_SUPPORT_MLIRELEMENTTYPE_H

#include "stride/Support/ElementType.h"

#include "mlir/IR/Types.h"

#include <optional>

namespace mlir::stride {

using ::stride::ElementType;

/// The row whose MLIR type is exactly `type`; std::nullopt for every other
/// type (f16, index, si32, vectors, ...).
std::optional<ElementType> elementTypeOf(Type type);

/// The MLIR type of `type` in `context`.
Type getMLIRElementType(ElementType type, MLIRContext *context);

} // namespace mlir::stride

#endif // STRIDE_SUPPORT_MLIRELEMENTTYPE_H
