// RUN: stride-opt %s --split-input-file --pass-pipeline='builtin.module(stride-distribute{grid=2},func.func(shard-partition))' --verify-diagnostics | FileCheck %s

// A sum over the split dim: each rank sums its block, an all-reduce adds.
// CHECK-LABEL: func.func @sum_split
// CHECK-SAME: (%[[A:.*]]: tensor<3x4xf32>
// CHECK: %[[S:.*]] = stride.sum %[[A]] axes [0] : tensor<3x4xf32> -> tensor<4xf32>
// CHECK: %[[R:.*]] = shard.all_reduce %[[S]] on @stride_grid grid_axes = [0] : tensor<4xf32> -> tensor<4xf32>
// CHECK: return %{{.*}}, %[[R]]
// expected-remark @+1 {{split along dim 0}}
func.func @sum_split(%a: tensor<6x4xf32>) -> (tensor<6x4xf32>, tensor<4xf32>) {
  %0 = stride.exp %a : tensor<6x4xf32> -> tensor<6x4xf32>
  %1 = stride.sum %a axes [0] : tensor<6x4xf32> -> tensor<4xf32>
  return %0, %1 : tensor<6x4xf32>, tensor<4xf32>
}

// -----

// A mean over the split dim: the ranks' means, summed, divided by 2.
// CHECK-LABEL: func.func @mean_split
// CHECK: %[[M:.*]] = stride.mean
// CHECK: %[[R:.*]] = shard.all_reduce %[[M]]
// CHECK: %[[N:.*]] = arith.constant 2.000000e+00 : f64
// CHECK: stride.div %[[R]], %[[N]]
// expected-remark @+1 {{split along dim 0}}
func.func @mean_split(%a: tensor<6x4xf64>) -> (tensor<6x4xf64>, tensor<4xf64>) {
  %0 = stride.exp %a : tensor<6x4xf64> -> tensor<6x4xf64>
  %1 = stride.mean %a axes [0] : tensor<6x4xf64> -> tensor<4xf64>
  return %0, %1 : tensor<6x4xf64>, tensor<4xf64>
}

// -----

// The first indices of a maximum do not combine across ranks: the rank
// gathers the split reduced dim whole and reduces it alone.
// CHECK-LABEL: func.func @argmax_split
// CHECK-SAME: (%[[A:.*]]: tensor<3x4xf32>
// CHECK: %[[G:.*]] = shard.all_gather %[[A]] on @stride_grid grid_axes = [0] gather_axis = 0 : tensor<3x4xf32> -> tensor<6x4xf32>
// CHECK: %[[I:.*]] = stride.argmax %[[G]] axes [0] : tensor<6x4xf32> -> tensor<4xi64>
// CHECK-NOT: all_reduce
// CHECK: return %{{.*}}, %[[I]]
// expected-remark @+1 {{split along dim 0}}
func.func @argmax_split(%a: tensor<6x4xf32>) -> (tensor<6x4xf32>, tensor<4xi64>) {
  %0 = stride.exp %a : tensor<6x4xf32> -> tensor<6x4xf32>
  %1 = stride.argmax %a axes [0] : tensor<6x4xf32> -> tensor<4xi64>
  return %0, %1 : tensor<6x4xf32>, tensor<4xi64>
}

// -----

// An argument read whole (by a comparison that a replicated reduction
// reads) and by blocks (by the split select): the rank receives its block,
// and the whole value is gathered from it.
// CHECK-LABEL: func.func @argument_read_whole_and_split
// CHECK-SAME: (%[[A:.*]]: tensor<1x3xf32> {stride.split_dims = array<i64: 0>}
// CHECK: %[[G:.*]] = shard.all_gather %[[A]] on @stride_grid grid_axes = [0] gather_axis = 0 : tensor<1x3xf32> -> tensor<2x3xf32>
// CHECK: stride.cmp ge, %{{.*}}, %{{.*}} : f32, tensor<2x3xf32> -> tensor<2x3xi1>
// CHECK: %[[ANY:.*]] = stride.any %{{.*}} axes [0] keepdims : tensor<2x3xi1> -> tensor<1x3xi1>
// CHECK: stride.select %[[ANY]], %[[A]], %[[A]] : tensor<1x3xi1>, tensor<1x3xf32>, tensor<1x3xf32> -> tensor<1x3xf32>
// expected-remark @+1 {{split along dim 0}}
func.func @argument_read_whole_and_split(%a: tensor<2x3xf32>, %s: f32) -> tensor<2x3xf32> {
  %0 = stride.cmp ge, %s, %a : f32, tensor<2x3xf32> -> tensor<2x3xi1>
  %1 = stride.any %0 axes [0] keepdims : tensor<2x3xi1> -> tensor<1x3xi1>
  %2 = stride.select %1, %a, %a : tensor<1x3xi1>, tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}

// -----

// A 0-d first result splits the input of the first reduction that
// combines (the sum, not the argmin before it, whose first indices would
// need the whole input back); the argmin, an earlier user of the split
// argument, gathers it.
// CHECK-LABEL: func.func @split_for_a_later_reduction
// CHECK-SAME: (%[[A:.*]]: tensor<3x3xf32> {stride.split_dims = array<i64: 0>}
// CHECK: %[[G:.*]] = shard.all_gather %[[A]] on @stride_grid grid_axes = [0] gather_axis = 0 : tensor<3x3xf32> -> tensor<6x3xf32>
// CHECK: stride.argmin %[[G]] : tensor<6x3xf32> -> tensor<i64>
// CHECK: %[[S:.*]] = stride.sum %[[A]] : tensor<3x3xf32> -> tensor<f32>
// CHECK: shard.all_reduce %[[S]]
// expected-remark @+1 {{split along dim 0 (size 6) of the input of the first 'stride.sum'}}
func.func @split_for_a_later_reduction(%a: tensor<6x3xf32>) -> (tensor<f32>, tensor<i64>) {
  %0 = stride.argmin %a : tensor<6x3xf32> -> tensor<i64>
  %1 = stride.sum %a : tensor<6x3xf32> -> tensor<f32>
  return %1, %0 : tensor<f32>, tensor<i64>
}

// -----

// Views take a block of their operand to a block of their result: the
// permute reads the argument's other dim, and a squeeze without dims gets
// its dims listed, since a rank's block may have size 1 where the value
// does not.
// CHECK-LABEL: func.func @views
// CHECK-SAME: (%[[A:.*]]: tensor<4x3xf32> {stride.split_dims = array<i64: 0>}, %[[B:.*]]: tensor<3x1x4xf32> {stride.split_dims = array<i64: 2>})
// CHECK: %[[T:.*]] = stride.permute %[[A]] [1, 0] : tensor<4x3xf32> -> tensor<3x4xf32>
// CHECK: %[[S:.*]] = stride.squeeze %[[B]] dims [1] : tensor<3x1x4xf32> -> tensor<3x4xf32>
// CHECK: %[[U:.*]] = stride.unsqueeze %{{.*}}[0] : tensor<3x4xf32> -> tensor<1x3x4xf32>
// CHECK: stride.transpose %[[U]] [0, 2] : tensor<1x3x4xf32> -> tensor<4x3x1xf32>
// CHECK-NOT: shard.all
// expected-remark @+1 {{split along dim 0 (size 8) of the first result}}
func.func @views(%a: tensor<8x3xf32>, %b: tensor<3x1x8xf32>) -> tensor<8x3x1xf32> {
  %t = stride.permute %a [1, 0] : tensor<8x3xf32> -> tensor<3x8xf32, #stride.layout<strides = [1, 3]>>
  %s = stride.squeeze %b : tensor<3x1x8xf32> -> tensor<3x8xf32>
  %r = stride.add %t, %s : tensor<3x8xf32, #stride.layout<strides = [1, 3]>>, tensor<3x8xf32> -> tensor<3x8xf32>
  %u = stride.unsqueeze %r [0] : tensor<3x8xf32> -> tensor<1x3x8xf32>
  %w = stride.transpose %u [0, 2] : tensor<1x3x8xf32> -> tensor<8x3x1xf32, #stride.layout<strides = [1, 8, 24]>>
  %c = stride.neg %w : tensor<8x3x1xf32, #stride.layout<strides = [1, 8, 24]>> -> tensor<8x3x1xf32>
  return %c : tensor<8x3x1xf32>
}
