// RUN: stride-opt %s | stride-opt | FileCheck %s
// RUN: stride-opt %s --mlir-print-op-generic | stride-opt | FileCheck %s

// Every reduction round-trips through its custom form and the generic form.

// CHECK-LABEL: func.func @reductions
func.func @reductions(%x: tensor<4x5x6xf32>, %i: tensor<4x5xi32>, %b: tensor<3xi1>) {
  // CHECK: stride.sum %{{.*}} axes [0, -1] : tensor<4x5x6xf32> -> tensor<5xf32>
  %0 = stride.sum %x axes [0, -1] : tensor<4x5x6xf32> -> tensor<5xf32>
  // CHECK: stride.sum %{{.*}} : tensor<4x5xi32> -> tensor<i64>
  %1 = stride.sum %i : tensor<4x5xi32> -> tensor<i64>
  // CHECK: stride.prod %{{.*}} keepdims : tensor<4x5x6xf32> -> tensor<1x1x1xf32>
  %2 = stride.prod %x keepdims : tensor<4x5x6xf32> -> tensor<1x1x1xf32>
  // CHECK: stride.prod %{{.*}} axes [0] : tensor<3xi1> -> tensor<*xi64>
  %3 = stride.prod %b axes [0] : tensor<3xi1> -> tensor<*xi64>
  // CHECK: stride.amax %{{.*}} axes [1] keepdims : tensor<4x5x6xf32> -> tensor<4x1x6xf32>
  %4 = stride.amax %x axes [1] keepdims : tensor<4x5x6xf32> -> tensor<4x1x6xf32>
  // CHECK: stride.amin %{{.*}} axes [0] : tensor<4x5xi32> -> tensor<5xi32>
  %5 = stride.amin %i axes [0] : tensor<4x5xi32> -> tensor<5xi32>
  // CHECK: stride.mean %{{.*}} axes [2] : tensor<4x5x6xf32> -> tensor<4x5xf32>
  %6 = stride.mean %x axes [2] : tensor<4x5x6xf32> -> tensor<4x5xf32>
  // CHECK: stride.mean %{{.*}} : tensor<4x5xi32> -> tensor<f64>
  %7 = stride.mean %i : tensor<4x5xi32> -> tensor<f64>
  // CHECK: stride.argmax %{{.*}} axes [-1] : tensor<4x5x6xf32> -> tensor<4x5xi64>
  %8 = stride.argmax %x axes [-1] : tensor<4x5x6xf32> -> tensor<4x5xi64>
  // CHECK: stride.argmin %{{.*}} : tensor<4x5xi32> -> tensor<i64>
  %9 = stride.argmin %i : tensor<4x5xi32> -> tensor<i64>
  // CHECK: stride.any %{{.*}} axes [0] : tensor<4x5x6xf32> -> tensor<5x6xi1>
  %10 = stride.any %x axes [0] : tensor<4x5x6xf32> -> tensor<5x6xi1>
  // CHECK: stride.all %{{.*}} keepdims : tensor<3xi1> -> tensor<1xi1>
  %11 = stride.all %b keepdims : tensor<3xi1> -> tensor<1xi1>
  return
}

// Unranked inputs and results are accepted before shape inference.
// CHECK-LABEL: func.func @unranked
func.func @unranked(%x: tensor<*xf32>, %d: tensor<?x?xf32, #stride.layout<strides = [1, ?]>>) {
  // CHECK: stride.amax %{{.*}} axes [3] : tensor<*xf32> -> tensor<*xf32>
  %0 = stride.amax %x axes [3] : tensor<*xf32> -> tensor<*xf32>
  // CHECK: stride.sum %{{.*}} axes [1] : tensor<?x?xf32, #stride.layout<strides = [1, ?]>> -> tensor<?xf32>
  %1 = stride.sum %d axes [1] : tensor<?x?xf32, #stride.layout<strides = [1, ?]>> -> tensor<?xf32>
  return
}

// -----

// stride.map_reduce round-trips with a scalar input, axes, keepdims and a
// mapped type with a layout.
// CHECK-LABEL: func.func @map_reduce
// CHECK: stride.map_reduce "sum" ins(%{{.*}}, %{{.*}} : tensor<4x5xf32, #stride.layout<strides = [1, 4]>>, f32) axes [1] keepdims mapped(tensor<4x5xf32, #stride.layout<strides = [1, 4]>>) : tensor<4x1xf32>
// CHECK: arith.mulf
// CHECK: stride.yield
func.func @map_reduce(%x: tensor<4x5xf32, #stride.layout<strides = [1, 4]>>, %c: f32) -> tensor<4x1xf32> {
  %0 = stride.map_reduce "sum" ins(%x, %c : tensor<4x5xf32, #stride.layout<strides = [1, 4]>>, f32) axes [1] keepdims mapped(tensor<4x5xf32, #stride.layout<strides = [1, 4]>>) : tensor<4x1xf32> {
  ^bb0(%a: f32, %b: f32):
    %p = arith.mulf %a, %b : f32
    stride.yield %p : f32
  }
  return %0 : tensor<4x1xf32>
}

// -----

// An index reduction of an expression: stride.map_reduce "argmax" gives
// i64 indices.
// CHECK-LABEL: func.func @map_reduce_argmax
// CHECK: stride.map_reduce "argmax" ins(%{{.*}} : tensor<4xf32>) mapped(tensor<4xf32>) : tensor<i64>
func.func @map_reduce_argmax(%x: tensor<4xf32>) -> tensor<i64> {
  %0 = stride.map_reduce "argmax" ins(%x : tensor<4xf32>) mapped(tensor<4xf32>) : tensor<i64> {
  ^bb0(%a: f32):
    %b = math.absf %a : f32
    stride.yield %b : f32
  }
  return %0 : tensor<i64>
}
