// The GPU kernels (stride-map-linalg-to-gpu, as in stride-gpu-pipeline) run
// on the host with the grid and block enumerated (--target=gpu-host: blocks of
// 32 threads, at most 4 blocks, so the grid-stride loops take several turns),
// checked against NumPy: index math, run-time size-1 broadcasting, negative
// strides, permuted outputs, broadcast batched matmul in f32 and f64.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t a="rand(1,300)" b="rand(300)" c="rand(37,1)" x="rand(4,3)" y="rand(4,3)" p="rand(40,7,9)" m="rand(3,1,5,4)" n="rand(1,6,4,7)" md="rand(3,1,5,4).astype(np.float64)" nd="rand(1,6,4,7).astype(np.float64)" e="rand(0,5)" g="rand(3)" f="rand(5)"
// RUN: stride-run %s --target=gpu-host --entry dyn --dynamic --input %t/a.npy --input %t/b.npy --output-dir %t | FileCheck %s --check-prefix=ROW
// RUN: %npytool check %t "np.exp(a + b)" %t/out0.npy
// RUN: stride-run %s --target=gpu-host --entry dyn --dynamic --input %t/c.npy --input %t/b.npy --output-dir %t | FileCheck %s --check-prefix=OUTER
// RUN: %npytool check %t "np.exp(c + b)" %t/out0.npy
// RUN: not stride-run %s --target=gpu-host --entry fixed --dynamic --input %t/g.npy --input %t/f.npy 2>&1 | FileCheck %s --check-prefix=MISMATCH
// RUN: stride-run %s --target=gpu-host --entry negative --input %t/x.npy --input %t/y.npy --output-dir %t | FileCheck %s --check-prefix=NEG
// RUN: %npytool check %t "x * (2 * y)" %t/out0.npy
// RUN: stride-run %s --target=gpu-host --entry permuted --input %t/p.npy --output-dir %t | FileCheck %s --check-prefix=PERM
// RUN: %npytool check %t "np.tanh(p) - p" %t/out0.npy
// RUN: stride-run %s --target=gpu-host --entry matmul32 --input %t/m.npy --input %t/n.npy --output-dir %t | FileCheck %s --check-prefix=MM32
// RUN: %npytool check %t "1 / (1 + np.exp(-np.matmul(m, n)))" %t/out0.npy 1e-5
// RUN: stride-run %s --target=gpu-host --entry matmul64 --input %t/md.npy --input %t/nd.npy --output-dir %t | FileCheck %s --check-prefix=MM64
// RUN: %npytool check %t "np.matmul(md, nd)" %t/out0.npy
// RUN: stride-run %s --target=gpu-host --entry empty --input %t/e.npy --output-dir %t | FileCheck %s --check-prefix=EMPTY
// RUN: %npytool check %t "-e" %t/out0.npy
// RUN: %npytool make %t x="rand(64,33)" r="rand(33)" s="np.float32(3)"
// RUN: stride-run %s --target=gpu-host --entry in_place --input %t/s.npy --input %t/r.npy --input %t/x.npy --output-dir %t
// RUN: %npytool check %t "s * r - x" %t/out0.npy
// RUN: stride-run %s --target=gpu-host --entry aliased --input %t/x.npy --input %t/r.npy --output-dir %t
// RUN: %npytool check %t "np.tanh(x) * r + x" %t/out0.npy
// RUN: stride-run %s --target=gpu-host --entry scalars_only --input %t/s.npy --print | FileCheck %s --check-prefix=SCALARS
// RUN: not stride-run %s --target=tpu --entry empty --input %t/e.npy 2>&1 | FileCheck %s --check-prefix=TARGET

// ROW: output #0: f32 1x300 strides [300, 1]
// OUTER: output #0: f32 37x300 strides [300, 1]
func.func @dyn(%a: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<*xf32> {
  %0 = stride.add %a, %b : tensor<?x?xf32>, tensor<?xf32> -> tensor<*xf32>
  %1 = stride.exp %0 : tensor<*xf32> -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

// A dim of dynamic size that does not broadcast is stopped by the kernel's
// host-side check, before any launch.
// MISMATCH: operand #0 dim 0 has a run-time size that does not broadcast: it must be 1 or 5
// MISMATCH: stride-run: error: a run-time check in the kernel failed
func.func @fixed(%e: tensor<?xf32>, %f: tensor<5xf32>) -> tensor<*xf32> {
  %0 = stride.add %e, %f : tensor<?xf32>, tensor<5xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// NEG: output #0: f32 4x3
func.func @negative(%x: tensor<4x3xf32, #stride.layout<strides = [1, -4]>>, %y: tensor<4x3xf32, #stride.layout<strides = [-1, 4]>>) -> tensor<*xf32> {
  %two = arith.constant 2.0 : f32
  %0 = stride.mul %two, %y : f32, tensor<4x3xf32, #stride.layout<strides = [-1, 4]>> -> tensor<*xf32>
  %1 = stride.mul %x, %0 : tensor<4x3xf32, #stride.layout<strides = [1, -4]>>, tensor<*xf32> -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

// A permuted input gives a permuted output (torch policy); the kernel's
// fastest thread index follows the output's stride-1 dim.
// PERM: output #0: f32 40x7x9 strides [1, 360, 40]
func.func @permuted(%p: tensor<40x7x9xf32, #stride.layout<perm = [1, 2, 0]>>) -> tensor<*xf32> {
  %t = stride.tanh %p : tensor<40x7x9xf32, #stride.layout<perm = [1, 2, 0]>> -> tensor<*xf32>
  %d = stride.sub %t, %p : tensor<*xf32>, tensor<40x7x9xf32, #stride.layout<perm = [1, 2, 0]>> -> tensor<*xf32>
  return %d : tensor<*xf32>
}

// MM32: output #0: f32 3x6x5x7 strides [210, 35, 7, 1]
func.func @matmul32(%m: tensor<3x1x5x4xf32>, %n: tensor<1x6x4x7xf32>) -> tensor<*xf32> {
  %0 = stride.matmul %m, %n : tensor<3x1x5x4xf32>, tensor<1x6x4x7xf32> -> tensor<*xf32>
  %1 = stride.sigmoid %0 : tensor<*xf32> -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

// MM64: output #0: f64 3x6x5x7 strides [210, 35, 7, 1]
func.func @matmul64(%m: tensor<3x1x5x4xf64>, %n: tensor<1x6x4x7xf64>) -> tensor<*xf64> {
  %0 = stride.matmul %m, %n : tensor<3x1x5x4xf64>, tensor<1x6x4x7xf64> -> tensor<*xf64>
  return %0 : tensor<*xf64>
}

// EMPTY: output #0: f32 0x5
func.func @empty(%e: tensor<0x5xf32>) -> tensor<*xf32> {
  %0 = stride.neg %e : tensor<0x5xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// In place (materialize!) into a column-major destination, and a destination
// that is also an input.
func.func @in_place(%s: f32, %y: tensor<33xf32>, %d: tensor<64x33xf32, #stride.layout<strides = [1, 64]>>) -> tensor<64x33xf32, #stride.layout<strides = [1, 64]>> {
  %row = stride.mul %s, %y : f32, tensor<33xf32> -> tensor<*xf32>
  %0 = stride.broadcast ins(%row, %d : tensor<*xf32>, tensor<64x33xf32, #stride.layout<strides = [1, 64]>>) outs(%d : tensor<64x33xf32, #stride.layout<strides = [1, 64]>>) -> tensor<64x33xf32, #stride.layout<strides = [1, 64]>> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.subf %a, %b : f32
    stride.yield %r : f32
  }
  return %0 : tensor<64x33xf32, #stride.layout<strides = [1, 64]>>
}

func.func @aliased(%x: tensor<64x33xf32>, %y: tensor<33xf32>) -> tensor<64x33xf32> {
  %0 = stride.tanh %x : tensor<64x33xf32> -> tensor<*xf32>
  %1 = stride.mul %0, %y : tensor<*xf32>, tensor<33xf32> -> tensor<*xf32>
  %2 = stride.broadcast ins(%1, %x : tensor<*xf32>, tensor<64x33xf32>) outs(%x : tensor<64x33xf32>) -> tensor<64x33xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    stride.yield %r : f32
  }
  return %2 : tensor<64x33xf32>
}

// A 0-d result (no parallel loop: one point): -((s + 1) * s) + s.
// SCALARS: output #0: f32 0-d strides []
// SCALARS-NEXT: -9
func.func @scalars_only(%s: f32) -> tensor<*xf32> {
  %one = arith.constant 1.0 : f32
  %0 = stride.add %s, %one : f32, f32 -> tensor<*xf32>
  %1 = stride.mul %0, %s : tensor<*xf32>, f32 -> tensor<*xf32>
  %2 = stride.neg %1 : tensor<*xf32> -> tensor<*xf32>
  %3 = stride.add %2, %s : tensor<*xf32>, f32 -> tensor<*xf32>
  return %3 : tensor<*xf32>
}

// TARGET: stride-run: error: unknown --target 'tpu' (expected cpu, gpu or gpu-host)
