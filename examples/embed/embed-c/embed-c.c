/* embed-c: Stride from C, as a host runtime written in C would use it.
 *
 * Usage: embed-c MODEL.mlir
 *
 * Parses MODEL (Stride functions next to upstream tensor/linalg ones), runs
 * upstream cleanup around Stride's passes on it, prints the result, then
 * compiles @scale_bias for a transposed 4x3 input, calls it on caller-owned
 * buffers in the layout the compiler reports, and checks the values against
 * a plain C loop. Exits non-zero on any failure. */

#include "stride-c/Dialects.h"
#include "stride-c/Kernel.h"
#include "stride-c/Registration.h"

#include "mlir-c/IR.h"
#include "mlir-c/RegisterEverything.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void printString(MlirStringRef s, void *userData) {
  fwrite(s.data, 1, s.length, (FILE *)userData);
}

static char *readFile(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc(size + 1);
  if (text && fread(text, 1, size, f) != (size_t)size) {
    free(text);
    text = NULL;
  }
  if (text)
    text[size] = '\0';
  fclose(f);
  return text;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: embed-c MODEL.mlir\n");
    return 2;
  }
  char *source = readFile(argv[1]);
  if (!source) {
    fprintf(stderr, "embed-c: cannot read %s\n", argv[1]);
    return 1;
  }

  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  strideRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirRegisterAllPasses();
  strideRegisterAllPasses();
  strideRegisterAllPipelines();

  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(source));
  free(source);
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "embed-c: %s does not parse\n", argv[1]);
    return 1;
  }

  const char *pipeline =
      "canonicalize,cse,stride-infer-shapes,stride-propagate-layout{"
      "policy=torch},stride-generalize,stride-fuse,stride-coalesce,"
      "canonicalize,cse";
  if (mlirLogicalResultIsFailure(strideRunPassPipeline(
          module, mlirStringRefCreateFromCString(pipeline), printString,
          stderr)))
    return 1;
  mlirOperationPrint(mlirModuleGetOperation(module), printString, stdout);
  printf("\n");

  /* x[i][j] = xData[i + 4 * j]: the transpose of a row-major 3x4 array. */
  float xData[12], bias[3] = {0.5f, -1.0f, 2.0f};
  for (int k = 0; k < 12; ++k)
    xData[k] = 0.25f * (float)k - 1.0f;
  int64_t xSizes[] = {4, 3}, xStrides[] = {1, 4};
  int64_t biasSizes[] = {3}, biasStrides[] = {1};
  StrideBuffer args[] = {{xData, 2, xSizes, xStrides},
                         {NULL, -1, NULL, NULL},
                         {bias, 1, biasSizes, biasStrides}};
  StrideKernel kernel = strideKernelCompile(
      module, mlirStringRefCreateFromCString("scale_bias"), 3, args,
      mlirStringRefCreateFromCString(""), printString, stderr);
  if (strideKernelIsNull(kernel))
    return 1;

  StrideKernelParam out = strideKernelGetOutput(kernel, 0);
  printf("result layout: sizes [%ld, %ld], strides [%ld, %ld]\n",
         (long)out.sizes[0], (long)out.sizes[1], (long)out.strides[0],
         (long)out.strides[1]);
  float result[12];
  StrideBuffer buffers[] = {args[0], args[2],
                            {result, out.rank, out.sizes, out.strides}};
  StrideScalar alpha = {.f32 = 0.5f};
  if (mlirLogicalResultIsFailure(strideKernelCall(
          kernel, 3, buffers, 1, &alpha, printString, stderr)))
    return 1;

  float maxError = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) {
      float expected = tanhf(xData[i + 4 * j] * 0.5f + bias[j]);
      float got = result[i * out.strides[0] + j * out.strides[1]];
      maxError = fmaxf(maxError, fabsf(got - expected));
      printf("%s%.4f", j ? " " : "", got);
      if (j == 2)
        printf("\n");
    }
  printf("max abs error vs C: %g\n", maxError);
  strideKernelDestroy(kernel);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return maxError <= 1e-6f ? 0 : 1;
}
