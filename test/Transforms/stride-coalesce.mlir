// RUN: stride-opt %s --stride-coalesce --split-input-file | FileCheck %s

// Contiguous operands collapse into one loop.
// CHECK-LABEL: func.func @contiguous
// CHECK: stride.broadcast {{.*}} attributes {iteration = [array<i64: 0, 1, 2>]}
func.func @contiguous(%a: tensor<2x3x4xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = stride.broadcast ins(%a, %b : tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    stride.yield %s : f32
  }
  return %0 : tensor<2x3x4xf32>
}

// -----

// Consistently permuted operands collapse too, walked in memory order
// (dims 1, 2, 0 from outer to inner for strides (1, 12, 4)).
// CHECK-LABEL: func.func @permuted
// CHECK: attributes {iteration = [array<i64: 1, 2, 0>]}
func.func @permuted(%a: tensor<4x2x3xf32, #stride.layout<strides = [1, 12, 4]>>) -> tensor<4x2x3xf32, #stride.layout<strides = [1, 12, 4]>> {
  %0 = stride.broadcast ins(%a : tensor<4x2x3xf32, #stride.layout<strides = [1, 12, 4]>>) -> tensor<4x2x3xf32, #stride.layout<strides = [1, 12, 4]>> {
  ^bb0(%x: f32):
    %e = math.exp %x : f32
    stride.yield %e : f32
  }
  return %0 : tensor<4x2x3xf32, #stride.layout<strides = [1, 12, 4]>>
}

// -----

// (2,3,4) + (3,1): the broadcast operand breaks both merges, three loops of
// sizes 2, 3, 4 from outer to inner (TensorIterator: [4, 3, 2] inner first).
// CHECK-LABEL: func.func @broadcast_column
// CHECK: attributes {iteration = [array<i64: 0>, array<i64: 1>, array<i64: 2>]}
func.func @broadcast_column(%a: tensor<2x3x4xf32>, %b: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %0 = stride.broadcast ins(%a, %b : tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    stride.yield %s : f32
  }
  return %0 : tensor<2x3x4xf32>
}

// -----

// (2,3,4) + (4,): the two outer dims merge (TensorIterator: [4, 6]).
// CHECK-LABEL: func.func @broadcast_row
// CHECK: attributes {iteration = [array<i64: 0, 1>, array<i64: 2>]}
func.func @broadcast_row(%a: tensor<2x3x4xf32>, %b: tensor<4xf32>) -> tensor<2x3x4xf32> {
  %0 = stride.broadcast ins(%a, %b : tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    stride.yield %s : f32
  }
  return %0 : tensor<2x3x4xf32>
}

// -----

// A scalar operand never blocks a merge; a destination's strides count like
// any other operand's (a transposed destination walks its own memory order).
// CHECK-LABEL: func.func @scalar_and_destination
// CHECK: attributes {iteration = [array<i64: 0, 1>]}
// CHECK: attributes {iteration = [array<i64: 1>, array<i64: 0>]}
func.func @scalar_and_destination(%a: tensor<4x3xf32>, %s: f32,
                                  %d: tensor<4x3xf32, #stride.layout<strides = [1, 4]>>) {
  %0 = stride.broadcast ins(%s, %a : f32, tensor<4x3xf32>) -> tensor<4x3xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    stride.yield %m : f32
  }
  %1 = stride.broadcast ins(%a : tensor<4x3xf32>) outs(%d : tensor<4x3xf32, #stride.layout<strides = [1, 4]>>) -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>> {
  ^bb0(%x: f32):
    stride.yield %x : f32
  }
  return
}

// -----

// Size-1 dims merge with anything. A uniform step-2 slice (strides (8, 2)
// for 3x4) would merge; a row stride of 9 does not.
// CHECK-LABEL: func.func @size_one_and_slice
// CHECK: attributes {iteration = [array<i64: 0, 1, 2>]}
// CHECK: attributes {iteration = [array<i64: 0>, array<i64: 1>]}
// CHECK: attributes {iteration = [array<i64: 0, 1>]}
func.func @size_one_and_slice(%a: tensor<3x1x4xf32>, %b: tensor<3x4xf32, #stride.layout<strides = [9, 2]>>,
                              %c: tensor<3x4xf32, #stride.layout<strides = [8, 2]>>) {
  %0 = stride.broadcast ins(%a : tensor<3x1x4xf32>) -> tensor<3x1x4xf32> {
  ^bb0(%x: f32):
    stride.yield %x : f32
  }
  %1 = stride.broadcast ins(%b : tensor<3x4xf32, #stride.layout<strides = [9, 2]>>) -> tensor<3x4xf32> {
  ^bb0(%x: f32):
    stride.yield %x : f32
  }
  %2 = stride.broadcast ins(%c : tensor<3x4xf32, #stride.layout<strides = [8, 2]>>) -> tensor<3x4xf32, #stride.layout<strides = [8, 2]>> {
  ^bb0(%x: f32):
    stride.yield %x : f32
  }
  return
}

// -----

// Dynamic sizes, unknown strides and 0-d results are left without an order.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: iteration
func.func @left_alone(%a: tensor<?x4xf32>, %b: tensor<3x4xf32, #stride.layout<strides = [?, 1]>>, %s: f32) {
  %0 = stride.broadcast ins(%a : tensor<?x4xf32>) -> tensor<?x4xf32> {
  ^bb0(%x: f32):
    stride.yield %x : f32
  }
  %1 = stride.broadcast ins(%b : tensor<3x4xf32, #stride.layout<strides = [?, 1]>>) -> tensor<3x4xf32> {
  ^bb0(%x: f32):
    stride.yield %x : f32
  }
  %2 = stride.broadcast ins(%s : f32) -> tensor<f32> {
  ^bb0(%x: f32):
    stride.yield %x : f32
  }
  return
}
