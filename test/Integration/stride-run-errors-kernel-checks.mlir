// Every kind of run-time shape check that stride-infer-shapes puts into a
// kernel compiled as written (--dynamic) stops stride-run with the check's
// message and exit status 1. Each function's result is static, so the kernel
// runs (no shape probe is needed for the output) and its own check fires.
// RUN: not stride-run %s --entry others --dynamic --random-inputs --shape 3 --shape 5 2>&1 | FileCheck %s --check-prefix=OTHERS
// RUN: not stride-run %s --entry destination --dynamic --random-inputs --shape 3 --shape 3 --shape 4 2>&1 | FileCheck %s --check-prefix=DEST-DYNAMIC
// RUN: not stride-run %s --entry destination --dynamic --random-inputs --shape 4 --shape 3 --shape 4 2>&1 | FileCheck %s --check-prefix=DEST-STATIC
// RUN: not stride-run %s --entry dot --dynamic --random-inputs --shape 3 --shape 4 2>&1 | FileCheck %s --check-prefix=CONTRACTED
// RUN: not stride-run %s --entry batch --dynamic --random-inputs --shape 3x2x3 --shape 2x3x2 2>&1 | FileCheck %s --check-prefix=BATCH
// The same functions run when the sizes fit.
// RUN: stride-run %s --entry others --dynamic --random-inputs --shape 1 --shape 5 | FileCheck %s --check-prefix=OK0D
// RUN: stride-run %s --entry destination --dynamic --random-inputs --shape 1 --shape 3 --shape 3 | FileCheck %s --check-prefix=OK0D
// RUN: stride-run %s --entry dot --dynamic --random-inputs --shape 4 --shape 4 | FileCheck %s --check-prefix=OK0D
// RUN: stride-run %s --entry batch --dynamic --random-inputs --shape 1x2x3 --shape 2x3x2 | FileCheck %s --check-prefix=OKBATCH

// OK0D: output #0: f32 0-d strides []
// OKBATCH: output #0: f32 2x2x2 strides [4, 2, 1]

// Two dynamic sizes meet: each must be 1 or the other's size.
// OTHERS: stride.add at {{.*}}stride-run-errors-kernel-checks.mlir:{{[0-9]+}}:{{[0-9]+}}, result dimension 0: operand #1 dim 0 has a run-time size that does not broadcast: it must be 1 or the size of the other operands there
// OTHERS: stride-run: error: a run-time check in the kernel failed (see the message above)
func.func @others(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<*xf32> {
  %0 = stride.add %a, %b : tensor<?xf32>, tensor<?xf32> -> tensor<*xf32>
  %1 = stride.matmul %0, %0 : tensor<*xf32>, tensor<*xf32> -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

// A dynamic destination: a dynamic input (named with its dim) and a static
// one (named without) must be 1 or the destination's size.
// DEST-DYNAMIC: stride.broadcast at {{.*}}:{{[0-9]+}}:{{[0-9]+}}, result dimension 0: operand #0 dim 0 has a run-time size that does not broadcast: it must be 1 or the destination's size there
// DEST-DYNAMIC: stride-run: error: a run-time check in the kernel failed (see the message above)
// DEST-STATIC: stride.broadcast at {{.*}}:{{[0-9]+}}:{{[0-9]+}}, result dimension 0: operand #1 has a run-time size that does not broadcast: it must be 1 or the destination's size there
// DEST-STATIC: stride-run: error: a run-time check in the kernel failed (see the message above)
func.func @destination(%a: tensor<?xf32>, %b: tensor<3xf32>, %d: tensor<?xf32>) -> tensor<*xf32> {
  %0 = stride.broadcast ins(%a, %b : tensor<?xf32>, tensor<3xf32>) outs(%d : tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    stride.yield %s : f32
  }
  %1 = stride.matmul %0, %0 : tensor<?xf32>, tensor<?xf32> -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

// Dynamic contracted dims must be equal.
// CONTRACTED: stride.matmul at {{.*}}:{{[0-9]+}}:{{[0-9]+}}: contracted dimensions differ at run time
// CONTRACTED: stride-run: error: a run-time check in the kernel failed (see the message above)
func.func @dot(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<*xf32> {
  %0 = stride.matmul %a, %b : tensor<?xf32>, tensor<?xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// A dynamic matmul batch dim must be 1 or the static batch size.
// BATCH: stride.matmul at {{.*}}:{{[0-9]+}}:{{[0-9]+}}, batch dimension 0: operand #0 dim 0 has a run-time size that does not broadcast: it must be 1 or 2
// BATCH: stride-run: error: a run-time check in the kernel failed (see the message above)
func.func @batch(%a: tensor<?x2x3xf32>, %b: tensor<2x3x2xf32>) -> tensor<*xf32> {
  %0 = stride.matmul %a, %b : tensor<?x2x3xf32>, tensor<2x3x2xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
