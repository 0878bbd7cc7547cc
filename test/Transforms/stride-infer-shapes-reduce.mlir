// RUN: stride-opt %s --stride-infer-shapes --split-input-file | FileCheck %s

// Reductions refine unranked results: reduced axes removed, or kept as 1.
// CHECK-LABEL: func.func @shapes
// CHECK-SAME: -> (tensor<5xf32>, tensor<1x5x1xf32>, tensor<i64>, tensor<4x6xf64>, tensor<4x5xi64>, tensor<1x1x1xi1>)
func.func @shapes(%x: tensor<4x5x6xf32>, %i: tensor<4x5x6xi32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xi64>, tensor<*xf64>, tensor<*xi64>, tensor<*xi1>) {
  // CHECK: stride.sum {{.*}} -> tensor<5xf32>
  %0 = stride.sum %x axes [0, -1] : tensor<4x5x6xf32> -> tensor<*xf32>
  // CHECK: stride.amax {{.*}} keepdims {{.*}} -> tensor<1x5x1xf32>
  %1 = stride.amax %x axes [2, 0] keepdims : tensor<4x5x6xf32> -> tensor<*xf32>
  // CHECK: stride.sum {{.*}} -> tensor<i64>
  %2 = stride.sum %i : tensor<4x5x6xi32> -> tensor<*xi64>
  // CHECK: stride.mean {{.*}} -> tensor<4x6xf64>
  %3 = stride.mean %i axes [1] : tensor<4x5x6xi32> -> tensor<*xf64>
  // CHECK: stride.argmax {{.*}} -> tensor<4x5xi64>
  %4 = stride.argmax %x axes [-1] : tensor<4x5x6xf32> -> tensor<*xi64>
  // CHECK: stride.all {{.*}} -> tensor<1x1x1xi1>
  %5 = stride.all %x keepdims : tensor<4x5x6xf32> -> tensor<*xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<*xf32>, tensor<*xf32>, tensor<*xi64>, tensor<*xf64>, tensor<*xi64>, tensor<*xi1>
}

// -----

// Dynamic kept dims stay dynamic; a reduced dynamic dim needs no check.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: -> (tensor<?xf32>, tensor<?x1xf32>)
// CHECK-NOT: cf.assert
func.func @dynamic(%x: tensor<?x?xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %0 = stride.sum %x axes [1] : tensor<?x?xf32> -> tensor<*xf32>
  %1 = stride.prod %x axes [1] keepdims : tensor<?x?xf32> -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}

// -----

// A reduction of an elementwise result whose shape inference refined.
// CHECK-LABEL: func.func @chain
// CHECK: stride.add {{.*}} -> tensor<3x4xf32>
// CHECK: stride.sum {{.*}} : tensor<3x4xf32> -> tensor<3xf32>
// CHECK: stride.sub {{.*}} : tensor<3x4xf32>, tensor<3x1xf32> -> tensor<3x4xf32>
func.func @chain(%a: tensor<3x4xf32>, %b: tensor<4xf32>) -> tensor<*xf32> {
  %0 = stride.add %a, %b : tensor<3x4xf32>, tensor<4xf32> -> tensor<*xf32>
  %1 = stride.sum %0 axes [1] : tensor<*xf32> -> tensor<*xf32>
  %2 = stride.sum %0 axes [1] keepdims : tensor<*xf32> -> tensor<*xf32>
  %3 = stride.sub %0, %2 : tensor<*xf32>, tensor<*xf32> -> tensor<*xf32>
  return %3 : tensor<*xf32>
}

// -----

// 0-d inputs: every reduction gives a 0-d result.
// CHECK-LABEL: func.func @scalar
// CHECK-SAME: -> tensor<f32>
func.func @scalar(%x: tensor<f32>) -> tensor<*xf32> {
  %0 = stride.amax %x : tensor<f32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// amax, amin, argmax and argmin check a dynamic reduced axis for size 0 at
// run time; sums and kept axes need no check.
// CHECK-LABEL: func.func @empty_check
// CHECK: %[[D:.*]] = tensor.dim %{{.*}}, %c1
// CHECK: %[[NZ:.*]] = arith.cmpi ne, %[[D]], %c0
// CHECK: cf.assert %[[NZ]], "stride.amax at {{.*}}: reduces axis 1 of run-time size 0: amax of an empty axis has no identity"
// CHECK: stride.amax {{.*}} {stride.shape_checked}
// CHECK-NOT: cf.assert
// CHECK: return
func.func @empty_check(%x: tensor<?x?xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %0 = stride.amax %x axes [1] : tensor<?x?xf32> -> tensor<*xf32>
  %1 = stride.sum %x axes [1] : tensor<?x?xf32> -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}
