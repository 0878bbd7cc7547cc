// RUN: stride-opt %s --stride-infer-shapes --stride-propagate-layout --stride-generalize --stride-fuse --split-input-file | FileCheck %s

// stride-fuse sees through views of intermediates: the view moves onto the
// producer's inputs, and the producer fuses into the consumer.

// (a + b).T * c is one stride.broadcast over a.T, b.T and c; the result
// keeps the type (and strides) it had before fusion.
// CHECK-LABEL: func.func @transposed_sum
// CHECK-DAG: %[[AT:.*]] = stride.permute %arg0 [1, 0] : tensor<4x3xf32> -> tensor<3x4xf32, #stride.layout<strides = [1, 3]>>
// CHECK-DAG: %[[BT:.*]] = stride.permute %arg1 [1, 0] : tensor<4x3xf32> -> tensor<3x4xf32, #stride.layout<strides = [1, 3]>>
// CHECK: %[[R:.*]] = stride.broadcast ins({{.*}}%[[AT]], %[[BT]]{{.*}}) -> tensor<3x4xf32, #stride.layout<strides = [1, 3]>>
// CHECK: arith.addf
// CHECK: arith.mulf
// CHECK-NOT: stride.broadcast
// CHECK: return %[[R]]
func.func @transposed_sum(%a: tensor<4x3xf32>, %b: tensor<4x3xf32>, %c: tensor<3x4xf32>) -> tensor<*xf32> {
  %s = stride.add %a, %b : tensor<4x3xf32>, tensor<4x3xf32> -> tensor<*xf32>
  %t = stride.permute %s [1, 0] : tensor<*xf32> -> tensor<*xf32>
  %r = stride.mul %t, %c : tensor<*xf32>, tensor<3x4xf32> -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// -----

// An input broadcast by the producer is expanded to the producer's shape
// first (stride 0), then viewed; a scalar stays a scalar. Chains of views
// sink one after the other.
// CHECK-LABEL: func.func @broadcast_input
// CHECK: stride.expand %arg1 [2, 5] : tensor<5xf32> -> tensor<2x5xf32, #stride.layout<strides = [0, 1]>>
// CHECK: stride.slice %{{.*}} [:, 1::2] : tensor<2x5xf32, #stride.layout<strides = [0, 1]>> -> tensor<2x2xf32, #stride.layout<strides = [0, 2], offset = 1>>
// CHECK: stride.permute %{{.*}} [1, 0] : tensor<2x2xf32, #stride.layout<strides = [0, 2], offset = 1>> -> tensor<2x2xf32, #stride.layout<strides = [2, 0], offset = 1>>
// CHECK: stride.broadcast ins(
// CHECK: arith.mulf
// CHECK: arith.subf
// CHECK-NOT: stride.broadcast
func.func @broadcast_input(%a: tensor<2x5xf32>, %b: tensor<5xf32>, %c: tensor<2x2xf32>) -> tensor<*xf32> {
  %two = arith.constant 2.0 : f32
  %m = stride.mul %b, %two : tensor<5xf32>, f32 -> tensor<*xf32>
  %s = stride.sub %a, %m : tensor<2x5xf32>, tensor<*xf32> -> tensor<*xf32>
  %v = stride.slice %s [:, 1::2] : tensor<*xf32> -> tensor<*xf32>
  %t = stride.permute %v [1, 0] : tensor<*xf32> -> tensor<*xf32>
  %r = stride.add %t, %c : tensor<*xf32>, tensor<2x2xf32> -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// -----

// A view that is returned, or a producer that someone else reads, stays:
// the intermediate is needed anyway.
// CHECK-LABEL: func.func @kept
// CHECK: %[[S:.*]] = stride.broadcast ins(%arg0, %arg1
// CHECK: stride.permute %[[S]]
// CHECK: stride.permute %[[S]]
func.func @kept(%a: tensor<4x3xf32>, %b: tensor<4x3xf32>, %c: tensor<3x4xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %s = stride.add %a, %b : tensor<4x3xf32>, tensor<4x3xf32> -> tensor<*xf32>
  %t = stride.permute %s [1, 0] : tensor<*xf32> -> tensor<*xf32>
  %u = stride.permute %s [1, 0] : tensor<*xf32> -> tensor<*xf32>
  %r = stride.mul %t, %c : tensor<*xf32>, tensor<3x4xf32> -> tensor<*xf32>
  return %r, %u : tensor<*xf32>, tensor<*xf32>
}

// -----

// A producer of scalars alone (a filled 0-d value) viewed as 1x5 stays a
// 0-d producer behind its view: sunk, it would read only a scalar into a
// 1x5 result, which stride.broadcast's shape rule refuses.
// CHECK-LABEL: func.func @scalar_producer
// CHECK: %[[F:.*]] = stride.broadcast ins(%arg0 : f64) -> tensor<f64>
// CHECK: %[[E:.*]] = stride.expand %[[F]] [1, 5]
// CHECK: stride.broadcast ins(%[[E]] : {{.*}}) -> tensor<1x5xf64>
func.func @scalar_producer(%x: f64) -> tensor<*xf64> {
  %0 = stride.broadcast ins(%x : f64) -> tensor<*xf64> {
  ^bb0(%a: f64):
    stride.yield %a : f64
  }
  %1 = stride.expand %0 [1, 5] : tensor<*xf64> -> tensor<*xf64>
  %2 = stride.broadcast ins(%1 : tensor<*xf64>) -> tensor<*xf64> {
  ^bb0(%a: f64):
    stride.yield %a : f64
  }
  return %2 : tensor<*xf64>
}
