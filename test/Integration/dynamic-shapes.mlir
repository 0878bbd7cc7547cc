// Dynamic dims end to end: compiled as written (--dynamic), a dim that is 1 at
// run time broadcasts (stride 0), and incompatible sizes fail cleanly.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t a="rand(1,4)" b="rand(4)" c="rand(3,1)" e="rand(3)" f="rand(5)"
// RUN: stride-run %s --dynamic --input %t/a.npy --input %t/b.npy --output-dir %t | FileCheck %s --check-prefix=ROW
// RUN: %npytool check %t "np.exp(a + b)" %t/out0.npy
// RUN: stride-run %s --dynamic --input %t/c.npy --input %t/b.npy --output-dir %t | FileCheck %s --check-prefix=OUTER
// RUN: %npytool check %t "np.exp(c + b)" %t/out0.npy
// RUN: stride-run %s --random-inputs --seed 3 --shape 2x1 --shape 5 | FileCheck %s --check-prefix=RANDOM
// RUN: not stride-run %s --entry fixed --dynamic --input %t/e.npy --input %t/f.npy 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: not stride-run %s --entry fixed --input %t/e.npy --input %t/f.npy 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: not stride-run %s --dynamic --input %t/a.npy --input %t/f.npy 2>&1 | FileCheck %s --check-prefix=PROBE
// RUN: not stride-run %s --entry permuted --dynamic --random-inputs --shape 1x3 --shape 4x3 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: stride-run %s --entry permuted --dynamic --random-inputs --shape 3x4 --shape 3x4 | FileCheck %s --check-prefix=PERMUTED

// ROW: output #0: f32 1x4 strides [4, 1]
// OUTER: output #0: f32 3x4 strides [4, 1]
// RANDOM: output #0: f32 2x5 strides [5, 1]
func.func @main(%a: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<*xf32> {
  %0 = stride.add %a, %b : tensor<?x?xf32>, tensor<?xf32> -> tensor<*xf32>
  %1 = stride.exp %0 : tensor<*xf32> -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

// The result is static (5), so the dynamic kernel runs and its own check
// stops it; without --dynamic the runner's shape inference stops it first.
// KERNEL: stride.add at {{.*}}dynamic-shapes.mlir:{{[0-9]+}}:{{[0-9]+}}, result dimension 0: operand #0 dim 0 has a run-time size that does not broadcast: it must be 1 or 5
// KERNEL: stride-run: error: a run-time check in the kernel failed (see the message above)
// HOST: error: 'stride.add' op cannot broadcast operand 0 of shape 3 and operand 1 of shape 5
// PROBE: 'stride.add' op cannot broadcast operand 0 of shape 1x4 and operand 1 of shape 5
// PROBE: stride-run: error: the inputs' shapes do not fit @main
func.func @fixed(%e: tensor<?xf32>, %f: tensor<5xf32>) -> tensor<*xf32> {
  %0 = stride.add %e, %f : tensor<?xf32>, tensor<5xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// The kernel compiled as written writes a column-major result (strides
// [1, ?], decided with representative sizes); a broadcast 1x3 row gives torch
// a row-major layout for 4x3, which that kernel cannot write, so the run is
// refused rather than written wrongly. Same-shaped inputs are fine.
// REFUSED: stride-run: error: result #0 of @permuted gets shape 4x3 and strides [3, 1] for these inputs, which the kernel compiled for shape ?x? and strides [1, ?] cannot write
// PERMUTED: output #0: f32 3x4 strides [1, 3]
func.func @permuted(%a: tensor<?x?xf32, #stride.layout<perm = [1, 0]>>, %b: tensor<?x?xf32>) -> tensor<*xf32> {
  %0 = stride.add %a, %b : tensor<?x?xf32, #stride.layout<perm = [1, 0]>>, tensor<?x?xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
