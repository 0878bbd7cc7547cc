//===- StrideAttrs.h - Stride attributes ------------------------*- C++ -*-===//

#ifndef STRIDE_DIALECT_STRIDE_IR_STRIDEATTRS_H
#define STRIDE_DIALECT_STRIDE_IR_STRIDEATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TensorEncoding.h"

#include "stride/Dialect/Stride/IR/StrideEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "stride/Dialect/Stride/IR/StrideAttrs.h.inc"

namespace mlir::stride {
/// The `#stride.layout` of a tensor type, or null when it has none (row-major).
LayoutAttr getLayout(Type type);
/// Element strides of a ranked tensor type: its layout's, or row-major ones.
/// Unknown strides are ShapedType::kDynamic.
SmallVector<int64_t> getStridesOf(RankedTensorType type);
/// `type` with `layout` as its encoding; a row-major layout is dropped so that
/// contiguous tensors print as plain `tensor<...>`.
RankedTensorType withLayout(RankedTensorType type, LayoutAttr layout);
} // namespace mlir::stride

#endif // STRIDE_DIALECT_STRIDE_IR_STRIDEATTRS_H
