// Julia-style fusion end to end: 2*(x+1)*y - exp(x) is one loop nest with no
// temporary buffer and NumPy's values; scalars first; in place; aliasing.
// RUN: stride-opt %s --stride-to-linalg-pipeline | FileCheck %s --check-prefix=IR
// RUN: stride-opt %s '--stride-to-linalg-pipeline=fuse=false' | FileCheck %s --check-prefix=UNFUSED
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t x="rand(64,33)" y="rand(33)" s="np.float32(3)"
// RUN: stride-run %s --entry expression --input %t/x.npy --input %t/y.npy --output-dir %t | FileCheck %s --check-prefix=EXEC
// RUN: %npytool check %t "np.float32(2) * (x + np.float32(1)) * y - np.exp(x)" %t/out0.npy
// RUN: stride-run %s --entry expression --no-fuse --input %t/x.npy --input %t/y.npy --output-dir %t | FileCheck %s --check-prefix=EXEC
// RUN: %npytool check %t "np.float32(2) * (x + np.float32(1)) * y - np.exp(x)" %t/out0.npy
// RUN: stride-run %s --entry in_place --input %t/s.npy --input %t/y.npy --input %t/x.npy --output-dir %t
// RUN: %npytool check %t "s * y - x" %t/out0.npy
// RUN: stride-run %s --entry aliased --input %t/x.npy --input %t/y.npy --output-dir %t
// RUN: %npytool check %t "np.tanh(x) * y + x" %t/out0.npy
// RUN: stride-run %s --entry scalars_only --input %t/s.npy --print | FileCheck %s --check-prefix=SCALARS

// IR-LABEL: func.func @expression
// IR-COUNT-1: linalg.generic
// IR-NOT: linalg.generic
// IR-NOT: memref.alloc
// IR: return
// UNFUSED-LABEL: func.func @expression
// UNFUSED-COUNT-5: linalg.generic
// UNFUSED: memref.alloc
// EXEC: output #0: f32 64x33 strides [33, 1]
func.func @expression(%x: tensor<64x33xf32>, %y: tensor<33xf32>) -> tensor<*xf32> {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %0 = stride.add %x, %one : tensor<64x33xf32>, f32 -> tensor<*xf32>
  %1 = stride.mul %two, %0 : f32, tensor<*xf32> -> tensor<*xf32>
  %2 = stride.mul %1, %y : tensor<*xf32>, tensor<33xf32> -> tensor<*xf32>
  %3 = stride.exp %x : tensor<64x33xf32> -> tensor<*xf32>
  %4 = stride.sub %2, %3 : tensor<*xf32>, tensor<*xf32> -> tensor<*xf32>
  return %4 : tensor<*xf32>
}

// materialize!: the fused expression s*y - x is written into the caller's
// destination d, which keeps its own (column-major) strides.
func.func @in_place(%s: f32, %y: tensor<33xf32>, %d: tensor<64x33xf32, #stride.layout<strides = [1, 64]>>) -> tensor<64x33xf32, #stride.layout<strides = [1, 64]>> {
  %0 = stride.mul %s, %y : f32, tensor<33xf32> -> tensor<*xf32>
  %1 = stride.broadcast ins(%0, %d : tensor<*xf32>, tensor<64x33xf32, #stride.layout<strides = [1, 64]>>) outs(%d : tensor<64x33xf32, #stride.layout<strides = [1, 64]>>) -> tensor<64x33xf32, #stride.layout<strides = [1, 64]>> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.subf %a, %b : f32
    stride.yield %r : f32
  }
  return %1 : tensor<64x33xf32, #stride.layout<strides = [1, 64]>>
}

// The destination is also an input, element for element: x .= tanh.(x) .* y .+ x.
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

// A broadcast of scalars alone gives a 0-d result: -((s + 1) * s) + s.
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
