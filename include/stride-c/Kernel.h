/*===-- stride-c/Kernel.h - Compile and call Stride kernels from C -*- C -*-===*\
|*                                                                            *|
|* JIT-compiles one function of a module with stride-cpu-pipeline and calls   *|
|* it on caller-owned strided buffers, without copies (destination passing):  *|
|* the compiled kernel reports the shape and strides of every result, the     *|
|* caller allocates result buffers in exactly that layout and passes them     *|
|* after the inputs.                                                          *|
|*                                                                            *|
|* Every function that can fail returns MlirLogicalResult (or a null kernel)  *|
|* and calls its `onError` callback, when not NULL, with one message that     *|
|* names what is wrong.                                                       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef STRIDE_C_KERNEL_H
#define STRIDE_C_KERNEL_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A compiled kernel. It owns its machine code and does not refer to the
 * MLIRContext it was compiled in. */
typedef struct StrideKernel {
  void *ptr;
} StrideKernel;

static inline bool strideKernelIsNull(StrideKernel kernel) {
  return !kernel.ptr;
}

typedef enum StrideElementKind {
  StrideElementF32,
  StrideElementF64,
  StrideElementI32,
  StrideElementI64,
  StrideElementI1,
  StrideElementI8,
  StrideElementI16,
  StrideElementU8,
  StrideElementU16,
  StrideElementU32,
  StrideElementU64,
  StrideElementUnsupported
} StrideElementKind;

/* A strided array in the caller's memory. `data` is the address of element
 * [0, ..., 0]; `strides` are in elements and may be 0 (broadcast) or
 * negative (reversed). For strideKernelCompile only `rank`, `sizes` and
 * `strides` matter, and rank -1 marks a scalar argument. */
typedef struct StrideBuffer {
  void *data;
  intptr_t rank;
  const int64_t *sizes;
  const int64_t *strides;
} StrideBuffer;

/* A scalar argument, read as the type the kernel declares. */
typedef union StrideScalar {
  float f32;
  double f64;
  int32_t i32;
  int64_t i64;
  bool i1;
  int8_t i8;
  int16_t i16;
  uint8_t ui8;
  uint16_t ui16;
  uint32_t ui32;
  uint64_t ui64;
} StrideScalar;

/* One parameter of a compiled kernel. Sizes and strides are
 * strideLayoutAttrGetDynamicStride() where unknown; the arrays live as long
 * as the kernel. */
typedef struct StrideKernelParam {
  bool isBuffer;
  StrideElementKind element;
  intptr_t rank;
  const int64_t *sizes;
  const int64_t *strides;
} StrideKernelParam;

/* Compiles function `entry` of `module` (Stride ops on tensors; the module
 * is not modified). When `args` is not NULL it has one entry per argument of
 * `entry`, and the kernel is specialized to exactly these shapes and
 * strides, so that its results' shapes and strides are known. `options` are
 * stride-cpu-pipeline's, e.g. "policy=numpy threads=4", or empty. The
 * context must know the Stride dialect (the LLVM IR translations the JIT
 * needs are added to it). Returns a null kernel on failure. */
MLIR_CAPI_EXPORTED StrideKernel strideKernelCompile(
    MlirModule module, MlirStringRef entry, intptr_t numArgs,
    const StrideBuffer *args, MlirStringRef options,
    MlirStringCallback onError, void *userData);

MLIR_CAPI_EXPORTED void strideKernelDestroy(StrideKernel kernel);

/* The kernel's inputs (the entry's arguments, tensors and scalars) and its
 * outputs (one buffer per tensor result). */
MLIR_CAPI_EXPORTED intptr_t strideKernelGetNumInputs(StrideKernel kernel);
MLIR_CAPI_EXPORTED intptr_t strideKernelGetNumOutputs(StrideKernel kernel);
/* The `pos`-th input's element type, shape and strides (dynamic where the
 * call decides); `pos` must be below strideKernelGetNumInputs. */
MLIR_CAPI_EXPORTED StrideKernelParam strideKernelGetInput(StrideKernel kernel,
                                                          intptr_t pos);
/* The `pos`-th output's, as the kernel writes it; `pos` must be below
 * strideKernelGetNumOutputs. */
MLIR_CAPI_EXPORTED StrideKernelParam strideKernelGetOutput(StrideKernel kernel,
                                                           intptr_t pos);

/* Calls the kernel. `buffers` holds the tensor inputs in order, then the
 * outputs; `scalars` the scalar inputs in order. Every buffer must have the
 * rank of its parameter and, where the parameter's sizes or strides are
 * static, exactly those. */
MLIR_CAPI_EXPORTED MlirLogicalResult strideKernelCall(
    StrideKernel kernel, intptr_t numBuffers, const StrideBuffer *buffers,
    intptr_t numScalars, const StrideScalar *scalars,
    MlirStringCallback onError, void *userData);

#ifdef __cplusplus
}
#endif

#endif /* STRIDE_C_KERNEL_H */
