/* Upstream dialects by handle, MLIR's C convention, from a plain C program
 * that links only libStrideCAPI: each dialect a Stride program composes with
 * registers and loads through mlirGetDialectHandle__<ns>__(), without
 * mlirRegisterAllDialects or Stride's own registration, and a module using
 * them all parses and verifies.
 *
 * RUN: stride-capi-dialect-handles-test 2>&1 | FileCheck %s
 */

#include "stride-c/Dialects.h"

#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Bufferization.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/Linalg.h"
#include "mlir-c/Dialect/Math.h"
#include "mlir-c/Dialect/MemRef.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/Dialect/Tensor.h"
#include "mlir-c/IR.h"

#include <stdio.h>

static void printString(MlirStringRef s, void *userData) {
  (void)userData;
  fwrite(s.data, 1, s.length, stdout);
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  MlirDialectHandle handles[] = {
      mlirGetDialectHandle__arith__(),  mlirGetDialectHandle__bufferization__(),
      mlirGetDialectHandle__func__(),   mlirGetDialectHandle__linalg__(),
      mlirGetDialectHandle__math__(),   mlirGetDialectHandle__memref__(),
      mlirGetDialectHandle__scf__(),    mlirGetDialectHandle__tensor__(),
      mlirGetDialectHandle__stride__()};
  for (size_t i = 0; i < sizeof handles / sizeof handles[0]; ++i) {
    mlirDialectHandleRegisterDialect(handles[i], ctx);
    MlirDialect d = mlirDialectHandleLoadDialect(handles[i], ctx);
    MlirStringRef ns = mlirDialectGetNamespace(d);
    printf("loaded %.*s\n", (int)ns.length, ns.data);
  }
  // CHECK: loaded arith
  // CHECK: loaded bufferization
  // CHECK: loaded func
  // CHECK: loaded linalg
  // CHECK: loaded math
  // CHECK: loaded memref
  // CHECK: loaded scf
  // CHECK: loaded tensor
  // CHECK: loaded stride

  const char *source =
      "func.func @f(%a: tensor<4xf32>, %n: index) -> tensor<4xf32> {\n"
      "  %c0 = arith.constant 0 : index\n"
      "  %c1 = arith.constant 1 : index\n"
      "  %e = tensor.empty() : tensor<4xf32>\n"
      "  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> tensor<4xf32> {\n"
      "    %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,\n"
      "        affine_map<(d0) -> (d0)>], iterator_types = [\"parallel\"]}\n"
      "        ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {\n"
      "    ^bb0(%in: f32, %out: f32):\n"
      "      %t = math.exp %in : f32\n"
      "      linalg.yield %t : f32\n"
      "    } -> tensor<4xf32>\n"
      "    scf.yield %y : tensor<4xf32>\n"
      "  }\n"
      "  %s = stride.add %r, %a : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>\n"
      "  %m = bufferization.to_buffer %s : tensor<4xf32> to memref<4xf32>\n"
      "  %v = memref.load %m[%c0] : memref<4xf32>\n"
      "  return %s : tensor<4xf32>\n"
      "}\n";
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(source));
  if (mlirModuleIsNull(module)) {
    printf("FAILED: the module does not parse\n");
    return 1;
  }
  MlirOperation op = mlirModuleGetOperation(module);
  printf("verifies %d\n", (int)mlirOperationVerify(op));
  // CHECK: verifies 1
  mlirOperationPrint(op, printString, NULL);
  // CHECK: scf.for
  // CHECK: linalg.generic
  // CHECK: math.exp
  // CHECK: stride.add
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  printf("\n-- done\n");
  // CHECK: -- done
  return 0;
}
