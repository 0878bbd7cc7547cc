/* Stride's C API from a plain C program: dialect registration, the
 * #stride.layout attribute, pass and pipeline registration, running a
 * textual pipeline, compiling a kernel and calling it on strided buffers,
 * and every error these report.
 *
 * RUN: stride-capi-test 2>&1 | FileCheck %s
 */

#include "stride-c/Dialects.h"
#include "stride-c/Kernel.h"
#include "stride-c/Registration.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/RegisterEverything.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The label printError prints before a message. */
#define LABEL(s) ((void *)(uintptr_t)(s))

static void printString(MlirStringRef s, void *userData) {
  (void)userData;
  fwrite(s.data, 1, s.length, stdout);
}

static void printError(MlirStringRef s, void *userData) {
  printf("%s: ", (const char *)userData);
  fwrite(s.data, 1, s.length, stdout);
  printf("\n");
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic d, void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirDiagnosticPrint(d, printString, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

static void check(int ok, const char *what) {
  if (!ok) {
    printf("FAILED: %s\n", what);
    exit(1);
  }
}

static MlirContext makeContext(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  strideRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);
  return ctx;
}

static void testDialect(MlirContext ctx) {
  printf("-- dialect\n");
  MlirDialect dialect =
      mlirDialectHandleLoadDialect(mlirGetDialectHandle__stride__(), ctx);
  check(!mlirDialectIsNull(dialect), "the stride dialect loads");
  MlirStringRef ns = mlirDialectGetNamespace(dialect);
  printf("namespace %.*s\n", (int)ns.length, ns.data);
  // CHECK-LABEL: -- dialect
  // CHECK: namespace stride
}

static void testLayoutAttr(MlirContext ctx) {
  printf("-- layout\n");
  int64_t strides[] = {1, 12, strideLayoutAttrGetDynamicStride(), -4, 0};
  MlirAttribute strided = strideLayoutAttrGetStrided(ctx, 5, strides);
  mlirAttributePrint(strided, printString, NULL);
  printf("\nis layout %d, permuted %d, rank %ld, stride[3] %ld\n",
         strideAttributeIsALayout(strided),
         strideLayoutAttrIsPermuted(strided),
         (long)strideLayoutAttrGetRank(strided),
         (long)strideLayoutAttrGetStride(strided, 3));
  check(strideLayoutAttrGetStride(strided, 2) ==
            strideLayoutAttrGetDynamicStride(),
        "a dynamic stride reads back as dynamic");
  // CHECK-LABEL: -- layout
  // CHECK: #stride.layout<strides = [1, 12, ?, -4, 0]>
  // CHECK: is layout 1, permuted 0, rank 5, stride[3] -4

  int64_t perm[] = {1, 2, 0};
  MlirAttribute permuted = strideLayoutAttrGetPermuted(ctx, 3, perm);
  mlirAttributePrint(permuted, printString, NULL);
  printf("\npermuted %d, rank %ld, dim[0] %ld\n",
         strideLayoutAttrIsPermuted(permuted),
         (long)strideLayoutAttrGetRank(permuted),
         (long)strideLayoutAttrGetPermDim(permuted, 0));
  // CHECK: #stride.layout<perm = [1, 2, 0]>
  // CHECK: permuted 1, rank 3, dim[0] 1

  MlirAttribute parsed = mlirAttributeParseGet(
      ctx, mlirStringRefCreateFromCString("#stride.layout<perm = [1, 2, 0]>"));
  check(mlirAttributeEqual(parsed, permuted),
        "a parsed layout equals the constructed one");
  MlirAttribute notLayout = mlirAttributeParseGet(
      ctx, mlirStringRefCreateFromCString("[1, 2]"));
  check(!strideAttributeIsALayout(notLayout), "an array is not a layout");

  // An invalid permutation: a null attribute and a diagnostic.
  int64_t badPerm[] = {0, 0};
  MlirAttribute bad = strideLayoutAttrGetPermuted(ctx, 2, badPerm);
  printf("invalid perm gives null: %d\n", mlirAttributeIsNull(bad));
  // CHECK: diagnostic: layout 'perm = [0, 0]' is not a permutation of 0..1
  // CHECK: invalid perm gives null: 1

  MlirType withLayout = mlirTypeParseGet(
      ctx, mlirStringRefCreateFromCString(
               "tensor<4x3xf32, #stride.layout<strides = [1, 4]>>"));
  mlirAttributePrint(strideTensorTypeGetLayout(withLayout), printString, NULL);
  MlirType plain =
      mlirTypeParseGet(ctx, mlirStringRefCreateFromCString("tensor<4x3xf32>"));
  printf("\nrow-major tensor has no layout: %d\n",
         mlirAttributeIsNull(strideTensorTypeGetLayout(plain)));
  // CHECK: #stride.layout<strides = [1, 4]>
  // CHECK: row-major tensor has no layout: 1
}

static const char *kBroadcast =
    "func.func @f(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<*xf32> {\n"
    "  %0 = stride.add %a, %b : tensor<2x3xf32>, tensor<3xf32> -> "
    "tensor<*xf32>\n"
    "  return %0 : tensor<*xf32>\n"
    "}\n"
    "func.func @other(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %c = arith.constant 1.0 : f32\n"
    "  %e = tensor.empty() : tensor<4xf32>\n"
    "  %f = linalg.fill ins(%c : f32) outs(%e : tensor<4xf32>) -> "
    "tensor<4xf32>\n"
    "  return %f : tensor<4xf32>\n"
    "}\n";

static void testPipelines(MlirContext ctx) {
  printf("-- pipelines\n");
  // Upstream passes are the embedder's choice; Stride's registration is
  // idempotent.
  mlirRegisterAllPasses();
  strideRegisterAllPasses();
  strideRegisterAllPipelines();
  strideRegisterAllPasses();
  strideRegisterAllPipelines();

  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kBroadcast));
  check(!mlirModuleIsNull(module), "the module parses");
  MlirLogicalResult r = strideRunPassPipeline(
      module,
      mlirStringRefCreateFromCString(
          "canonicalize,stride-infer-shapes,stride-propagate-layout{policy="
          "numpy},cse"),
      printError, LABEL("pipeline"));
  check(mlirLogicalResultIsSuccess(r), "the pipeline runs");
  mlirOperationPrint(mlirModuleGetOperation(module), printString, NULL);
  // CHECK-LABEL: -- pipelines
  // CHECK-LABEL: func.func @f(
  // CHECK: stride.add {{.*}} -> tensor<2x3xf32>
  // CHECK-LABEL: func.func @other(
  // CHECK: linalg.fill

  r = strideRunPassPipeline(
      module,
      mlirStringRefCreateFromCString("builtin.module(stride-no-such-pass)"),
      printError, LABEL("unknown pass"));
  check(mlirLogicalResultIsFailure(r), "an unknown pass fails");
  // CHECK: unknown pass: invalid pass pipeline 'builtin.module(stride-no-such-pass)': {{.*}}'stride-no-such-pass' does not refer to a registered pass or pass pipeline

  // An option value the pass does not know: the pipeline does not parse.
  r = strideRunPassPipeline(
      module,
      mlirStringRefCreateFromCString("stride-propagate-layout{policy=bogus}"),
      printError, LABEL("bad policy"));
  check(mlirLogicalResultIsFailure(r), "an unknown policy fails the pipeline");
  // CHECK: bad policy: invalid pass pipeline 'stride-propagate-layout{policy=bogus}': failed to add `stride-propagate-layout` with options `policy=bogus`
  mlirModuleDestroy(module);

  // A pass that fails: the diagnostics reach the context's handler and the
  // error message.
  module = mlirModuleCreateParse(
      ctx, mlirStringRefCreateFromCString(
               "func.func @bad(%a: tensor<3x4xf32>, %b: tensor<5xf32>) {\n"
               "  %0 = stride.exp %a : tensor<3x4xf32> -> tensor<*xf32>\n"
               "  %1 = stride.add %0, %b : tensor<*xf32>, tensor<5xf32> -> tensor<*xf32>\n"
               "  return\n}\n"));
  check(!mlirModuleIsNull(module), "the module with shapes known only after refinement parses");
  r = strideRunPassPipeline(
      module, mlirStringRefCreateFromCString("stride-infer-shapes"),
      printError, LABEL("bad shapes"));
  check(mlirLogicalResultIsFailure(r), "a failing pass fails the pipeline");
  // CHECK: diagnostic: 'stride.add' op cannot broadcast operand 0 of shape 3x4 and operand 1 of shape 5
  // CHECK: bad shapes: pass pipeline 'stride-infer-shapes' failed:
  // CHECK-NEXT: 'stride.add' op cannot broadcast operand 0 of shape 3x4 and operand 1 of shape 5
  mlirModuleDestroy(module);

  r = strideRunPassPipeline((MlirModule){NULL}, mlirStringRefCreateFromCString(""),
                            printError, LABEL("null"));
  check(mlirLogicalResultIsFailure(r), "a null module fails");
  // CHECK: null: cannot run a pass pipeline on a null module
}

static const char *kAxpb =
    "func.func @axpb(%alpha: f32, %x: tensor<?x?xf32>, %b: tensor<?xf32>)\n"
    "    -> tensor<*xf32> {\n"
    "  %0 = stride.mul %x, %alpha : tensor<?x?xf32>, f32 -> tensor<*xf32>\n"
    "  %1 = stride.add %0, %b : tensor<*xf32>, tensor<?xf32> -> "
    "tensor<*xf32>\n"
    "  return %1 : tensor<*xf32>\n"
    "}\n";

static void printParam(const char *what, StrideKernelParam p) {
  printf("%s: buffer %d, element %d, sizes [", what, p.isBuffer, p.element);
  for (intptr_t d = 0; d < p.rank; ++d)
    printf("%s%ld", d ? ", " : "", (long)p.sizes[d]);
  printf("], strides [");
  for (intptr_t d = 0; d < p.rank; ++d)
    printf("%s%ld", d ? ", " : "", (long)p.strides[d]);
  printf("]\n");
}

static void testKernel(MlirContext ctx) {
  printf("-- kernel\n");
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kAxpb));
  check(!mlirModuleIsNull(module), "the kernel module parses");

  // x is the transpose of a row-major 3x2 array; b takes every other
  // element of a 6-element array.
  float xStorage[6] = {0, 1, 2, 3, 4, 5}; /* x[i][j] = xStorage[i + 2j] */
  float bStorage[6] = {10, -1, 20, -1, 30, -1};
  int64_t xSizes[] = {2, 3}, xStrides[] = {1, 2};
  int64_t bSizes[] = {3}, bStrides[] = {2};
  StrideBuffer args[] = {{NULL, -1, NULL, NULL},
                         {xStorage, 2, xSizes, xStrides},
                         {bStorage, 1, bSizes, bStrides}};
  StrideKernel kernel = strideKernelCompile(
      module, mlirStringRefCreateFromCString("axpb"), 3, args,
      mlirStringRefCreateFromCString("policy=torch"), printError, LABEL("compile"));
  check(!strideKernelIsNull(kernel), "the kernel compiles");
  printf("inputs %ld, outputs %ld\n", (long)strideKernelGetNumInputs(kernel),
         (long)strideKernelGetNumOutputs(kernel));
  printParam("input 0", strideKernelGetInput(kernel, 0));
  printParam("input 1", strideKernelGetInput(kernel, 1));
  StrideKernelParam out = strideKernelGetOutput(kernel, 0);
  printParam("output 0", out);
  // The layout PyTorch gives x * 2.5 + b: x's column-major order.
  // CHECK-LABEL: -- kernel
  // CHECK: inputs 3, outputs 1
  // CHECK: input 0: buffer 0, element 0, sizes [], strides []
  // CHECK: input 1: buffer 1, element 0, sizes [2, 3], strides [1, 2]
  // CHECK: output 0: buffer 1, element 0, sizes [2, 3], strides [1, 2]

  // The caller allocates the output in the reported layout.
  float result[6];
  for (int i = 0; i < 6; ++i)
    result[i] = NAN;
  StrideBuffer buffers[] = {args[1], args[2],
                            {result, out.rank, out.sizes, out.strides}};
  StrideScalar alpha = {.f32 = 2.5f};
  MlirLogicalResult r =
      strideKernelCall(kernel, 3, buffers, 1, &alpha, printError, LABEL("call"));
  check(mlirLogicalResultIsSuccess(r), "the kernel runs");
  int mismatches = 0;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) {
      float expected = xStorage[i + 2 * j] * 2.5f + bStorage[2 * j];
      float got = result[i * out.strides[0] + j * out.strides[1]];
      mismatches += got != expected;
    }
  printf("mismatches %d\n", mismatches);
  // CHECK: mismatches 0

  // Errors when calling: every one names what is wrong.
  r = strideKernelCall(kernel, 2, buffers, 1, &alpha, printError, LABEL("count"));
  // CHECK: count: the kernel takes 3 buffers (2 inputs, then outputs), got 2
  r = strideKernelCall(kernel, 3, buffers, 0, NULL, printError, LABEL("scalars"));
  // CHECK: scalars: the kernel takes 1 scalars, got 0
  int64_t wrongSizes[] = {3, 3};
  StrideBuffer wrong[] = {{xStorage, 2, wrongSizes, xStrides}, args[2],
                          buffers[2]};
  r = strideKernelCall(kernel, 3, wrong, 1, &alpha, printError, LABEL("size"));
  // CHECK: size: input buffer #0 has size 3 in dim 0, the kernel expects 2
  int64_t rowMajor[] = {3, 1};
  StrideBuffer wrongOut[] = {args[1], args[2], {result, 2, xSizes, rowMajor}};
  r = strideKernelCall(kernel, 3, wrongOut, 1, &alpha, printError, LABEL("stride"));
  // CHECK: stride: output buffer #0 has stride 3 in dim 0, the kernel expects 1
  StrideBuffer wrongRank[] = {args[1], {bStorage, 2, xSizes, xStrides},
                              buffers[2]};
  r = strideKernelCall(kernel, 3, wrongRank, 1, &alpha, printError, LABEL("rank"));
  // CHECK: rank: input buffer #1 has rank 2, the kernel expects rank 1
  int64_t negativeSizes[] = {-1, 3};
  StrideBuffer negative[] = {{xStorage, 2, negativeSizes, xStrides}, args[2],
                             buffers[2]};
  r = strideKernelCall(kernel, 3, negative, 1, &alpha, printError,
                       LABEL("negative"));
  // CHECK: negative: input buffer #0 has negative size -1 in dim 0
  StrideBuffer noSizes[] = {args[1], args[2], {result, 2, NULL, NULL}};
  r = strideKernelCall(kernel, 3, noSizes, 1, &alpha, printError,
                       LABEL("no sizes"));
  // CHECK: no sizes: output buffer #0 has no sizes or strides
  StrideBuffer nullData[] = {{NULL, 2, xSizes, xStrides}, args[2], buffers[2]};
  r = strideKernelCall(kernel, 3, nullData, 1, &alpha, printError, LABEL("null"));
  check(mlirLogicalResultIsFailure(r), "a null buffer fails");
  // CHECK: null: input buffer #0 has a null data pointer
  strideKernelDestroy(kernel);

  // A negative stride (b reversed) under the NumPy policy, and the
  // contiguous policy's row-major result.
  int64_t bReversed[] = {-2};
  StrideBuffer reversed[] = {{NULL, -1, NULL, NULL},
                             {xStorage, 2, xSizes, xStrides},
                             {bStorage + 4, 1, bSizes, bReversed}};
  kernel = strideKernelCompile(
      module, mlirStringRefCreateFromCString("axpb"), 3, reversed,
      mlirStringRefCreateFromCString("policy=contiguous"), printError,
      LABEL("compile"));
  check(!strideKernelIsNull(kernel), "the reversed kernel compiles");
  out = strideKernelGetOutput(kernel, 0);
  printParam("contiguous output", out);
  // CHECK: contiguous output: buffer 1, element 0, sizes [2, 3], strides [3, 1]
  StrideBuffer reversedCall[] = {reversed[1], reversed[2],
                                 {result, out.rank, out.sizes, out.strides}};
  r = strideKernelCall(kernel, 3, reversedCall, 1, &alpha, printError, LABEL("call"));
  check(mlirLogicalResultIsSuccess(r), "the reversed kernel runs");
  mismatches = 0;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) {
      float expected = xStorage[i + 2 * j] * 2.5f + bStorage[4 - 2 * j];
      mismatches += result[3 * i + j] != expected;
    }
  printf("reversed mismatches %d\n", mismatches);
  // CHECK: reversed mismatches 0
  strideKernelDestroy(kernel);

  // Errors when compiling.
  kernel = strideKernelCompile(module, mlirStringRefCreateFromCString("nope"),
                               0, NULL, mlirStringRefCreateFromCString(""),
                               printError, LABEL("entry"));
  check(strideKernelIsNull(kernel), "an unknown entry fails");
  // CHECK: entry: cannot compile @nope: the module has no function named 'nope'
  kernel = strideKernelCompile(
      module, mlirStringRefCreateFromCString("axpb"), 3, args,
      mlirStringRefCreateFromCString("bogus=1"), printError, LABEL("options"));
  check(strideKernelIsNull(kernel), "unknown options fail");
  // CHECK: options: cannot compile @axpb: invalid options 'bogus=1': <Pass-Options-Parser>: no such option bogus
  kernel = strideKernelCompile(module, mlirStringRefCreateFromCString("axpb"),
                               2, args, mlirStringRefCreateFromCString(""),
                               printError, LABEL("arity"));
  check(strideKernelIsNull(kernel), "too few argument layouts fail");
  // CHECK: arity: cannot compile @axpb: @axpb takes 3 arguments, got 2
  StrideBuffer scalarForTensor[] = {args[0], {NULL, -1, NULL, NULL}, args[2]};
  kernel = strideKernelCompile(module, mlirStringRefCreateFromCString("axpb"),
                               3, scalarForTensor,
                               mlirStringRefCreateFromCString(""), printError,
                               LABEL("kind"));
  check(strideKernelIsNull(kernel), "a scalar for a tensor fails");
  // CHECK: kind: cannot compile @axpb: argument #1 is a tensor but a scalar was given
  StrideBuffer noLayout[] = {args[0], {xStorage, 2, NULL, NULL}, args[2]};
  kernel = strideKernelCompile(module, mlirStringRefCreateFromCString("axpb"),
                               3, noLayout, mlirStringRefCreateFromCString(""),
                               printError, LABEL("layout"));
  check(strideKernelIsNull(kernel), "a rank without sizes fails");
  // CHECK: layout: cannot compile @axpb: argument #1 has rank 2 but no sizes or strides
  int64_t fourSizes[] = {4};
  StrideBuffer misfit[] = {args[0], args[1], {bStorage, 1, fourSizes, bStrides}};
  kernel = strideKernelCompile(module, mlirStringRefCreateFromCString("axpb"),
                               3, misfit, mlirStringRefCreateFromCString(""),
                               printError, LABEL("shapes"));
  check(strideKernelIsNull(kernel), "shapes that do not broadcast fail");
  // CHECK: diagnostic: 'stride.add' op cannot broadcast operand 0 of shape 2x3 and operand 1 of shape 4
  // CHECK: shapes: cannot compile @axpb: lowering to linalg failed
  // CHECK-NEXT: loc("-":4:8): 'stride.add' op cannot broadcast operand 0 of shape 2x3 and operand 1 of shape 4
  kernel = strideKernelCompile((MlirModule){NULL},
                               mlirStringRefCreateFromCString("axpb"), 0, NULL,
                               mlirStringRefCreateFromCString(""), printError,
                               LABEL("null module"));
  check(strideKernelIsNull(kernel), "a null module fails");
  // CHECK: null module: cannot compile @axpb: the module is null
  strideKernelCall((StrideKernel){NULL}, 0, NULL, 0, NULL, printError,
                   LABEL("null kernel"));
  // CHECK: null kernel: cannot call a null kernel
  mlirModuleDestroy(module);
}

/* The one acceptance rule shared with the Python extension (describeBuffer;
 * the same buffers are tried from Python in test_extension.py,
 * test_the_buffer_rule_the_c_api_shares): a kernel of a 1x3 row-major input
 * and a dynamic-stride vector. */
static const char *kRule =
    "func.func @r(%a: tensor<1x3xf32>, %b: tensor<?xf32, "
    "#stride.layout<strides = [?]>>) -> (tensor<*xf32>, tensor<*xf32>) {\n"
    "  %0 = stride.neg %a : tensor<1x3xf32> -> tensor<*xf32>\n"
    "  %1 = stride.neg %b : tensor<?xf32, #stride.layout<strides = [?]>> -> "
    "tensor<*xf32>\n"
    "  return %0, %1 : tensor<*xf32>, tensor<*xf32>\n"
    "}\n";

static void testBufferRule(MlirContext ctx) {
  printf("-- one rule\n");
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kRule));
  StrideKernel kernel = strideKernelCompile(
      module, mlirStringRefCreateFromCString("r"), 0, NULL,
      mlirStringRefCreateFromCString(""), printError, LABEL("compile"));
  check(!strideKernelIsNull(kernel), "the rule kernel compiles");
  float base[12], out0[3], out1[4];
  for (int i = 0; i < 12; ++i)
    base[i] = (float)i;
  int64_t rowSizes[] = {1, 3}, rowStrides[] = {7, 1}, vecSizes[] = {4},
          vecStrides[] = {1}, outStrides[] = {3, 1};
  StrideBuffer ok[] = {{base, 2, rowSizes, rowStrides},
                       {base, 1, vecSizes, vecStrides},
                       {out0, 2, rowSizes, outStrides},
                       {out1, 1, vecSizes, vecStrides}};
  MlirLogicalResult r =
      strideKernelCall(kernel, 4, ok, 0, NULL, printError, LABEL("size-1"));
  printf("any stride on a size-1 dim: %d, %g %g %g\n",
         (int)mlirLogicalResultIsSuccess(r), out0[0], out0[1], out0[2]);
  // CHECK: any stride on a size-1 dim: 1, -0 -1 -2
  int64_t stepTwo[] = {3, 2}, wideSizes[] = {1, 4}, reversed[] = {-1};
  StrideBuffer strided[] = {{base, 2, rowSizes, stepTwo}, ok[1], ok[2], ok[3]};
  strideKernelCall(kernel, 4, strided, 0, NULL, printError, LABEL("rule"));
  // CHECK: rule: input buffer #0 has stride 2 in dim 1, the kernel expects 1
  StrideBuffer wide[] = {{base, 2, wideSizes, rowStrides}, ok[1], ok[2], ok[3]};
  strideKernelCall(kernel, 4, wide, 0, NULL, printError, LABEL("rule"));
  // CHECK: rule: input buffer #0 has size 4 in dim 1, the kernel expects 3
  StrideBuffer backwards[] = {ok[0], {base + 3, 1, vecSizes, reversed}, ok[2],
                              ok[3]};
  strideKernelCall(kernel, 4, backwards, 0, NULL, printError, LABEL("rule"));
  // CHECK: rule: input buffer #1 has a negative stride in dim 0, which this kernel was not compiled for (its stride there is dynamic)
  strideKernelDestroy(kernel);
  mlirModuleDestroy(module);
}

int main(void) {
  MlirContext ctx = makeContext();
  testDialect(ctx);
  testLayoutAttr(ctx);
  testPipelines(ctx);
  testKernel(ctx);
  testBufferRule(ctx);
  mlirContextDestroy(ctx);
  printf("-- done\n");
  // CHECK: -- done
  return 0;
}
