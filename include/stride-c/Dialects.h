/*===-- stride-c/Dialects.h - The Stride dialect from C -----------*- C -*-===*\
|*                                                                            *|
|* The Stride dialect's handle and the #stride.layout attribute, in MLIR's C  *|
|* API conventions: values are MLIR's opaque handles, a failed constructor    *|
|* returns a null attribute after reporting a diagnostic to the context.      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef STRIDE_C_DIALECTS_H
#define STRIDE_C_DIALECTS_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* mlirGetDialectHandle__stride__(): register or load the dialect with
 * mlirDialectHandleRegisterDialect / mlirDialectHandleLoadDialect. */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Stride, stride);

/* The value of an unknown (`?`) stride, the same as
 * mlirShapedTypeGetDynamicStrideOrOffset(). */
MLIR_CAPI_EXPORTED int64_t strideLayoutAttrGetDynamicStride(void);

/* Whether `attr` is a #stride.layout. */
MLIR_CAPI_EXPORTED bool strideAttributeIsALayout(MlirAttribute attr);

/* #stride.layout<strides = [...]>: one element stride per dimension; a
 * stride may be 0, negative or strideLayoutAttrGetDynamicStride(). */
MLIR_CAPI_EXPORTED MlirAttribute strideLayoutAttrGetStrided(
    MlirContext ctx, intptr_t rank, const int64_t *strides);

/* #stride.layout<perm = [...]>: a dense layout, dimensions listed outermost
 * first. Returns a null attribute, after a diagnostic, when `perm` is not a
 * permutation of 0..rank-1. */
MLIR_CAPI_EXPORTED MlirAttribute strideLayoutAttrGetPermuted(
    MlirContext ctx, intptr_t rank, const int64_t *perm);

/* Whether the layout is given as a permutation (else as strides). */
MLIR_CAPI_EXPORTED bool strideLayoutAttrIsPermuted(MlirAttribute attr);

/* The rank the layout describes. */
MLIR_CAPI_EXPORTED intptr_t strideLayoutAttrGetRank(MlirAttribute attr);

/* The `pos`-th stride of a strided layout, or the `pos`-th dimension of a
 * permuted one. `pos` must be below the rank. */
MLIR_CAPI_EXPORTED int64_t strideLayoutAttrGetStride(MlirAttribute attr,
                                                     intptr_t pos);
MLIR_CAPI_EXPORTED int64_t strideLayoutAttrGetPermDim(MlirAttribute attr,
                                                      intptr_t pos);

/* The layout of a ranked tensor type (its encoding), or a null attribute
 * when the tensor has none (row-major) or `type` is not a ranked tensor. */
MLIR_CAPI_EXPORTED MlirAttribute strideTensorTypeGetLayout(MlirType type);

#ifdef __cplusplus
}
#endif

#endif /* STRIDE_C_DIALECTS_H */
