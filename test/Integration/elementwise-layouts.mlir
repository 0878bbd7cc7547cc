// Elementwise programs on inputs in every kind of layout, checked against NumPy.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t a="rand(4,2,3)" b="rand(3)" c="np.tile(rand(1,3), (4,1))" s="np.float32(0.5)"
// RUN: stride-run %s --entry permuted --input %t/a.npy --input %t/b.npy --output-dir %t | FileCheck %s --check-prefix=PERM
// RUN: %npytool check %t "np.exp(a) + b" %t/out0.npy
// RUN: stride-run %s --entry sliced --input %t/a.npy --input %t/s.npy --output-dir %t | FileCheck %s --check-prefix=SLICED
// RUN: %npytool check %t "np.float32(0.5) * np.tanh(a) - a" %t/out0.npy
// RUN: stride-run %s --entry broadcast_zero --input %t/c.npy --input %t/b.npy --output-dir %t | FileCheck %s --check-prefix=BCAST
// RUN: %npytool check %t "np.maximum(c, b) / (1 + np.abs(b))" %t/out0.npy
// RUN: stride-run %s --entry negative --policy numpy --input %t/c.npy --input %t/c.npy --output-dir %t | FileCheck %s --check-prefix=NEG
// RUN: %npytool check %t "c - 2 * c" %t/out0.npy

// The seed's permuted view (strides (1, 12, 4)): PyTorch's output strides.
// PERM: output #0: f32 4x2x3 strides [1, 12, 4]
func.func @permuted(%a: tensor<4x2x3xf32, #stride.layout<strides = [1, 12, 4]>>, %b: tensor<3xf32>) -> tensor<*xf32> {
  %0 = stride.exp %a : tensor<4x2x3xf32, #stride.layout<strides = [1, 12, 4]>> -> tensor<*xf32>
  %1 = stride.add %0, %b : tensor<*xf32>, tensor<3xf32> -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

// A sliced view with gaps (strides (2, 24, 8)) and a scalar first operand.
// SLICED: output #0: f32 4x2x3 strides [1, 12, 4]
func.func @sliced(%a: tensor<4x2x3xf32, #stride.layout<strides = [2, 24, 8]>>, %s: f32) -> tensor<*xf32> {
  %0 = stride.tanh %a : tensor<4x2x3xf32, #stride.layout<strides = [2, 24, 8]>> -> tensor<*xf32>
  %1 = stride.mul %s, %0 : f32, tensor<*xf32> -> tensor<*xf32>
  %2 = stride.sub %1, %a : tensor<*xf32>, tensor<4x2x3xf32, #stride.layout<strides = [2, 24, 8]>> -> tensor<*xf32>
  return %2 : tensor<*xf32>
}

// An expanded input (stride 0 along dim 0) is read without materializing it.
// BCAST: output #0: f32 4x3 strides [3, 1]
func.func @broadcast_zero(%c: tensor<4x3xf32, #stride.layout<strides = [0, 1]>>, %b: tensor<3xf32>) -> tensor<*xf32> {
  %0 = stride.maximum %c, %b : tensor<4x3xf32, #stride.layout<strides = [0, 1]>>, tensor<3xf32> -> tensor<*xf32>
  %one = arith.constant 1.0 : f32
  %1 = stride.abs %b : tensor<3xf32> -> tensor<*xf32>
  %2 = stride.add %one, %1 : f32, tensor<*xf32> -> tensor<*xf32>
  %3 = stride.div %0, %2 : tensor<*xf32>, tensor<*xf32> -> tensor<*xf32>
  return %3 : tensor<*xf32>
}

// Negative strides (reversed views) under the NumPy policy: the output is
// dense with positive strides in NumPy's order.
// NEG: output #0: f32 4x3 strides [1, 4]
func.func @negative(%x: tensor<4x3xf32, #stride.layout<strides = [1, -4]>>, %y: tensor<4x3xf32, #stride.layout<strides = [-1, 4]>>) -> tensor<*xf32> {
  %two = arith.constant 2.0 : f32
  %0 = stride.mul %two, %y : f32, tensor<4x3xf32, #stride.layout<strides = [-1, 4]>> -> tensor<*xf32>
  %1 = stride.sub %x, %0 : tensor<4x3xf32, #stride.layout<strides = [1, -4]>>, tensor<*xf32> -> tensor<*xf32>
  return %1 : tensor<*xf32>
}
