/*===-- stride-c/Registration.h - Register and run Stride from C --*- C -*-===*\
|*                                                                            *|
|* The C counterparts of stride/InitAll*.h, and running a textual pipeline    *|
|* (Stride's named pipelines nested in upstream passes) on a module.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef STRIDE_C_REGISTRATION_H
#define STRIDE_C_REGISTRATION_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* stride::registerAllDialects: the Stride dialect and func. Upstream
 * dialects are the caller's (mlirRegisterAllDialects). */
MLIR_CAPI_EXPORTED void strideRegisterAllDialects(MlirDialectRegistry registry);

/* stride::registerAllPasses and stride::registerAllPipelines: makes every
 * Stride pass and the named pipelines (stride-cpu-pipeline,
 * stride-to-linalg-pipeline) available to textual pipelines. Idempotent. */
MLIR_CAPI_EXPORTED void strideRegisterAllPasses(void);
MLIR_CAPI_EXPORTED void strideRegisterAllPipelines(void);

/* Runs a textual pass pipeline on `module`, e.g.
 * "builtin.module(canonicalize,stride-to-linalg-pipeline{policy=numpy},cse)".
 * A pipeline not anchored on an op, "canonicalize,cse", runs on the module.
 * On failure returns mlirLogicalResultFailure() and calls `onError` (if not
 * NULL) with a message: the pipeline's parse error, or the diagnostics the
 * passes emitted (which also reach the context's diagnostic handlers). */
MLIR_CAPI_EXPORTED MlirLogicalResult
strideRunPassPipeline(MlirModule module, MlirStringRef pipeline,
                      MlirStringCallback onError, void *userData);

#ifdef __cplusplus
}
#endif

#endif /* STRIDE_C_REGISTRATION_H */
