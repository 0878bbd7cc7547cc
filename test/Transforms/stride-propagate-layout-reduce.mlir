// RUN: stride-opt %s --stride-infer-shapes --stride-propagate-layout --split-input-file | FileCheck %s --check-prefixes=CHECK,TORCH
// RUN: stride-opt %s --stride-infer-shapes '--stride-propagate-layout=policy=numpy' --split-input-file | FileCheck %s --check-prefixes=CHECK,NUMPY
// RUN: stride-opt %s --stride-infer-shapes '--stride-propagate-layout=policy=contiguous' --split-input-file | FileCheck %s --check-prefixes=CHECK,CONTIG

// Reduction results: PyTorch (and contiguous) allocate row-major; NumPy lays
// the kept dims out in the input's nditer order (docs/Layout.md).

// A transposed input: PyTorch allocates contiguous, NumPy in the input's order.
// CHECK-LABEL: func.func @transposed
// TORCH-SAME: -> (tensor<4x3xf32>, tensor<4x1x3xf32>)
// NUMPY-SAME: -> (tensor<4x3xf32, #stride.layout<strides = [1, 4]>>, tensor<4x1x3xf32, #stride.layout<strides = [1, 12, 4]>>)
// CONTIG-SAME: -> (tensor<4x3xf32>, tensor<4x1x3xf32>)
func.func @transposed(%a: tensor<4x2x3xf32, #stride.layout<strides = [1, 12, 4]>>) -> (tensor<*xf32>, tensor<*xf32>) {
  %0 = stride.sum %a axes [1] : tensor<4x2x3xf32, #stride.layout<strides = [1, 12, 4]>> -> tensor<*xf32>
  %1 = stride.sum %a axes [1] keepdims : tensor<4x2x3xf32, #stride.layout<strides = [1, 12, 4]>> -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}

// -----

// Negative strides count by magnitude; the result's strides are positive.
// CHECK-LABEL: func.func @reversed
// TORCH-SAME: -> (tensor<4x3xf64>, tensor<4x3x1xi1>)
// NUMPY-SAME: -> (tensor<4x3xf64, #stride.layout<strides = [1, 4]>>, tensor<4x3x1xi1, #stride.layout<strides = [1, 4, 4]>>)
func.func @reversed(%a: tensor<4x3x5xf64, #stride.layout<strides = [-1, 20, 4]>>) -> (tensor<*xf64>, tensor<*xi1>) {
  %0 = stride.amax %a axes [2] : tensor<4x3x5xf64, #stride.layout<strides = [-1, 20, 4]>> -> tensor<*xf64>
  %1 = stride.any %a axes [2] keepdims : tensor<4x3x5xf64, #stride.layout<strides = [-1, 20, 4]>> -> tensor<*xi1>
  return %0, %1 : tensor<*xf64>, tensor<*xi1>
}

// -----

// argmax and argmin allocate C-contiguous results under both policies.
// CHECK-LABEL: func.func @argmax
// CHECK-SAME: -> tensor<4x3xi64> {
func.func @argmax(%a: tensor<4x2x3xf32, #stride.layout<strides = [1, 12, 4]>>) -> tensor<*xi64> {
  %0 = stride.argmax %a axes [1] : tensor<4x2x3xf32, #stride.layout<strides = [1, 12, 4]>> -> tensor<*xi64>
  return %0 : tensor<*xi64>
}

// -----

// An empty NumPy result has all-zero strides; PyTorch's is contiguous.
// CHECK-LABEL: func.func @empty
// TORCH-SAME: -> tensor<0x2xf32> {
// NUMPY-SAME: -> tensor<0x2xf32, #stride.layout<strides = [0, 0]>> {
func.func @empty(%a: tensor<0x3x2xf32, #stride.layout<strides = [1, 1, 3]>>) -> tensor<*xf32> {
  %0 = stride.sum %a axes [1] : tensor<0x3x2xf32, #stride.layout<strides = [1, 1, 3]>> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Size-1 dims compare with nothing in NumPy's axis sort.
// CHECK-LABEL: func.func @size_one
// TORCH-SAME: -> tensor<1x1x4xf32> {
// NUMPY-SAME: -> tensor<1x1x4xf32, #stride.layout<strides = [1, 4, 1]>> {
func.func @size_one(%a: tensor<3x1x4xf32, #stride.layout<strides = [1, 1, 3]>>) -> tensor<*xf32> {
  %0 = stride.prod %a axes [0] keepdims : tensor<3x1x4xf32, #stride.layout<strides = [1, 1, 3]>> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// A full reduction is 0-d.
// CHECK-LABEL: func.func @full
// CHECK-SAME: -> (tensor<i64>, tensor<1x1xf64>)
func.func @full(%a: tensor<3x4xi32, #stride.layout<strides = [1, 3]>>, %b: tensor<3x4xf64, #stride.layout<strides = [1, 3]>>) -> (tensor<*xi64>, tensor<*xf64>) {
  %0 = stride.sum %a : tensor<3x4xi32, #stride.layout<strides = [1, 3]>> -> tensor<*xi64>
  %1 = stride.mean %b keepdims : tensor<3x4xf64, #stride.layout<strides = [1, 3]>> -> tensor<*xf64>
  return %0, %1 : tensor<*xi64>, tensor<*xf64>
}

// -----

// Dynamic sizes: the order of the input's dims decides, as a perm.
// CHECK-LABEL: func.func @dynamic
// TORCH-SAME: -> tensor<?x?xf32> {
// NUMPY-SAME: -> tensor<?x?xf32, #stride.layout<perm = [1, 0]>> {
func.func @dynamic(%a: tensor<?x?x?xf32, #stride.layout<perm = [2, 0, 1]>>) -> tensor<*xf32> {
  %0 = stride.amin %a axes [1] : tensor<?x?x?xf32, #stride.layout<perm = [2, 0, 1]>> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// An elementwise op on a reduced result under torch: an i64 sum of i32 is
// PyTorch's int64, not promoted back.
// CHECK-LABEL: func.func @consumer
// CHECK: stride.sum {{.*}} -> tensor<3xi64>
// CHECK: stride.add {{.*}} : tensor<3xi64>, tensor<3xi64> -> tensor<3xi64>
func.func @consumer(%a: tensor<3x4xi32>, %b: tensor<3xi64>) -> tensor<*xi64> {
  %0 = stride.sum %a axes [1] : tensor<3x4xi32> -> tensor<*xi64>
  %1 = stride.add %0, %b : tensor<*xi64>, tensor<3xi64> -> tensor<*xi64>
  return %1 : tensor<*xi64>
}
