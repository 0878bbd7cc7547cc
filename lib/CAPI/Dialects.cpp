//===- Dialects.cpp - C API for the Stride dialect ------------------------===//

#include "stride-c/Dialects.h"

#include "stride/Dialect/Stride/IR/StrideAttrs.h"
#include "stride/Dialect/Stride/IR/StrideDialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using mlir::stride::LayoutAttr;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Stride, stride,
                                      mlir::stride::StrideDialect)

int64_t strideLayoutAttrGetDynamicStride(void) { return ShapedType::kDynamic; }

bool strideAttributeIsALayout(MlirAttribute attr) {
  return isa<LayoutAttr>(unwrap(attr));
}

// getChecked reports an invalid layout to the context's diagnostic handlers
// and returns null, instead of asserting as get() would.
static MlirAttribute getLayout(MlirContext ctx, ArrayRef<int64_t> strides,
                               ArrayRef<int64_t> perm) {
  MLIRContext *context = unwrap(ctx);
  auto emitError = [context] {
    return mlir::emitError(UnknownLoc::get(context));
  };
  return wrap(LayoutAttr::getChecked(emitError, context, strides, perm));
}

MlirAttribute strideLayoutAttrGetStrided(MlirContext ctx, intptr_t rank,
                                         const int64_t *strides) {
  // The empty strides list is the rank-0 layout, spelled `perm = []`.
  return getLayout(ctx, ArrayRef<int64_t>(strides, rank), {});
}

MlirAttribute strideLayoutAttrGetPermuted(MlirContext ctx, intptr_t rank,
                                          const int64_t *perm) {
  return getLayout(ctx, {}, ArrayRef<int64_t>(perm, rank));
}

bool strideLayoutAttrIsPermuted(MlirAttribute attr) {
  return cast<LayoutAttr>(unwrap(attr)).isPermForm();
}

intptr_t strideLayoutAttrGetRank(MlirAttribute attr) {
  return cast<LayoutAttr>(unwrap(attr)).getRank();
}

int64_t strideLayoutAttrGetStride(MlirAttribute attr, intptr_t pos) {
  return cast<LayoutAttr>(unwrap(attr)).getStrides()[pos];
}

int64_t strideLayoutAttrGetPermDim(MlirAttribute attr, intptr_t pos) {
  return cast<LayoutAttr>(unwrap(attr)).getPerm()[pos];
}

MlirAttribute strideTensorTypeGetLayout(MlirType type) {
  return wrap(mlir::stride::getLayout(unwrap(type)));
}
