// RUN: stride-opt %s | stride-opt | FileCheck %s
// RUN: stride-opt %s --mlir-print-op-generic | stride-opt | FileCheck %s

// Every op round-trips through its custom form and the generic form.

// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<4x3xf32>, %s: f32) {
  // CHECK: stride.neg %{{.*}} : tensor<4x3xf32> -> tensor<4x3xf32>
  %0 = stride.neg %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: stride.abs %{{.*}} : tensor<4x3xf32> -> tensor<*xf32>
  %1 = stride.abs %x : tensor<4x3xf32> -> tensor<*xf32>
  // CHECK: stride.exp %{{.*}} : tensor<4x3xf32> -> tensor<?x3xf32>
  %2 = stride.exp %x : tensor<4x3xf32> -> tensor<?x3xf32>
  // CHECK: stride.log
  %3 = stride.log %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: stride.sqrt
  %4 = stride.sqrt %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: stride.tanh
  %5 = stride.tanh %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: stride.sigmoid %{{.*}} : f32 -> tensor<f32>
  %6 = stride.sigmoid %s : f32 -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @binary
func.func @binary(%a: tensor<2x1x4xf32>, %b: tensor<3x1xf32>, %s: f32,
                  %i: tensor<5xi32>) {
  // CHECK: stride.add %{{.*}}, %{{.*}} : tensor<2x1x4xf32>, tensor<3x1xf32> -> tensor<2x3x4xf32>
  %0 = stride.add %a, %b : tensor<2x1x4xf32>, tensor<3x1xf32> -> tensor<2x3x4xf32>
  // CHECK: stride.sub %{{.*}}, %{{.*}} : f32, tensor<3x1xf32> -> tensor<3x1xf32>
  %1 = stride.sub %s, %b : f32, tensor<3x1xf32> -> tensor<3x1xf32>
  // CHECK: stride.mul
  %2 = stride.mul %a, %s : tensor<2x1x4xf32>, f32 -> tensor<*xf32>
  // CHECK: stride.div
  %3 = stride.div %i, %i : tensor<5xi32>, tensor<5xi32> -> tensor<5xi32>
  // CHECK: stride.maximum
  %4 = stride.maximum %a, %b : tensor<2x1x4xf32>, tensor<3x1xf32> -> tensor<2x3x4xf32>
  // CHECK: stride.minimum
  %5 = stride.minimum %a, %b : tensor<2x1x4xf32>, tensor<3x1xf32> -> tensor<2x3x4xf32>
  // CHECK: stride.pow
  %6 = stride.pow %a, %s : tensor<2x1x4xf32>, f32 -> tensor<2x1x4xf32>
  return
}

// CHECK-LABEL: func.func @cmp_select_cast
func.func @cmp_select_cast(%a: tensor<4x1xf32>, %b: tensor<3xf32>, %i: tensor<3xi32>) {
  // CHECK: %[[M:.*]] = stride.cmp lt, %{{.*}}, %{{.*}} : tensor<4x1xf32>, tensor<3xf32> -> tensor<4x3xi1>
  %m = stride.cmp lt, %a, %b : tensor<4x1xf32>, tensor<3xf32> -> tensor<4x3xi1>
  // CHECK: stride.cmp ne
  %n = stride.cmp ne, %i, %i : tensor<3xi32>, tensor<3xi32> -> tensor<3xi1>
  // CHECK: stride.select %[[M]], %{{.*}}, %{{.*}} : tensor<4x3xi1>, tensor<4x1xf32>, tensor<3xf32> -> tensor<4x3xf32>
  %s = stride.select %m, %a, %b : tensor<4x3xi1>, tensor<4x1xf32>, tensor<3xf32> -> tensor<4x3xf32>
  // CHECK: stride.cast %{{.*}} : tensor<3xi32> -> tensor<3xf64>
  %c = stride.cast %i : tensor<3xi32> -> tensor<3xf64>
  return
}

// CHECK-LABEL: func.func @broadcast
func.func @broadcast(%x: tensor<4x3xf32>, %c: f32, %d: tensor<4x3xf32, #stride.layout<strides = [1, 4]>>) {
  // CHECK: stride.broadcast ins(%{{.*}}, %{{.*}} : f32, tensor<4x3xf32>) -> tensor<4x3xf32> {
  // CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
  // CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
  // CHECK-NEXT: stride.yield %[[S]] : f32
  %0 = stride.broadcast ins(%c, %x : f32, tensor<4x3xf32>) -> tensor<4x3xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    stride.yield %s : f32
  }
  // CHECK: stride.broadcast ins(%{{.*}} : tensor<4x3xf32>) outs(%{{.*}} : tensor<4x3xf32, #stride.layout<strides = [1, 4]>>) -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>> attributes {iteration = [array<i64: 1, 0>]}
  %1 = stride.broadcast ins(%x : tensor<4x3xf32>) outs(%d : tensor<4x3xf32, #stride.layout<strides = [1, 4]>>) -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>> attributes {iteration = [array<i64: 1, 0>]} {
  ^bb0(%a: f32):
    stride.yield %a : f32
  }
  // An all-scalar broadcast yields a 0-d tensor; two results.
  // CHECK: stride.broadcast ins(%{{.*}} : f32) -> tensor<f32>, tensor<f32>
  %2:2 = stride.broadcast ins(%c : f32) -> tensor<f32>, tensor<f32> {
  ^bb0(%a: f32):
    %n = arith.negf %a : f32
    stride.yield %a, %n : f32, f32
  }
  return
}

// CHECK-LABEL: func.func @matmul
func.func @matmul(%a: tensor<3x1x2x4xf32>, %b: tensor<1x5x4x6xf32>, %v: tensor<4xf32>) {
  // CHECK: stride.matmul %{{.*}}, %{{.*}} : tensor<3x1x2x4xf32>, tensor<1x5x4x6xf32> -> tensor<3x5x2x6xf32>
  %0 = stride.matmul %a, %b : tensor<3x1x2x4xf32>, tensor<1x5x4x6xf32> -> tensor<3x5x2x6xf32>
  // CHECK: stride.matmul %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32> -> tensor<f32>
  %1 = stride.matmul %v, %v : tensor<4xf32>, tensor<4xf32> -> tensor<f32>
  // CHECK: stride.matmul %{{.*}}, %{{.*}} : tensor<3x1x2x4xf32>, tensor<4xf32> -> tensor<*xf32>
  %2 = stride.matmul %a, %v : tensor<3x1x2x4xf32>, tensor<4xf32> -> tensor<*xf32>
  return
}

// Both layout forms, including dynamic, zero and negative strides.
// CHECK-LABEL: func.func @layouts
// CHECK-SAME: tensor<4x2x3xf32, #stride.layout<strides = [1, 12, 4]>>
// CHECK-SAME: tensor<?x?x?xf32, #stride.layout<perm = [1, 2, 0]>>
// CHECK-SAME: tensor<5x3x2xf32, #stride.layout<strides = [?, 0, -5]>>
func.func @layouts(%a: tensor<4x2x3xf32, #stride.layout<strides = [1, 12, 4]>>,
                   %b: tensor<?x?x?xf32, #stride.layout<perm = [1, 2, 0]>>,
                   %c: tensor<5x3x2xf32, #stride.layout<strides = [?, 0, -5]>>) {
  return
}

// NumPy's elementwise op set: float, integer, bool and predicate ops, clip.
// CHECK-LABEL: func.func @numpy_ops
func.func @numpy_ops(%x: tensor<4x3xf64>, %y: tensor<3xf64>, %i: tensor<5xi64>,
                     %b: tensor<2xi1>, %s: f64) {
  // CHECK: stride.arcsinh %{{.*}} : tensor<4x3xf64> -> tensor<4x3xf64>
  %0 = stride.arcsinh %x : tensor<4x3xf64> -> tensor<4x3xf64>
  // CHECK: stride.arctan2 %{{.*}}, %{{.*}} : tensor<4x3xf64>, tensor<3xf64> -> tensor<4x3xf64>
  %1 = stride.arctan2 %x, %y : tensor<4x3xf64>, tensor<3xf64> -> tensor<4x3xf64>
  // CHECK: stride.isnan %{{.*}} : tensor<4x3xf64> -> tensor<4x3xi1>
  %2 = stride.isnan %x : tensor<4x3xf64> -> tensor<4x3xi1>
  // CHECK: stride.floor_divide %{{.*}}, %{{.*}} : tensor<5xi64>, tensor<5xi64> -> tensor<5xi64>
  %3 = stride.floor_divide %i, %i : tensor<5xi64>, tensor<5xi64> -> tensor<5xi64>
  // CHECK: stride.right_shift %{{.*}}, %{{.*}} : tensor<5xi64>, tensor<5xi64> -> tensor<*xi64>
  %4 = stride.right_shift %i, %i : tensor<5xi64>, tensor<5xi64> -> tensor<*xi64>
  // CHECK: stride.logical_xor %{{.*}}, %{{.*}} : tensor<2xi1>, tensor<2xi1> -> tensor<2xi1>
  %5 = stride.logical_xor %b, %b : tensor<2xi1>, tensor<2xi1> -> tensor<2xi1>
  // CHECK: stride.bitwise_not %{{.*}} : tensor<5xi64> -> tensor<5xi64>
  %6 = stride.bitwise_not %i : tensor<5xi64> -> tensor<5xi64>
  // CHECK: stride.clip %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3xf64>, f64, tensor<3xf64> -> tensor<4x3xf64>
  %7 = stride.clip %x, %s, %y : tensor<4x3xf64>, f64, tensor<3xf64> -> tensor<4x3xf64>
  return
}
