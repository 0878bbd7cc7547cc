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

// The first index of a maximum does not combine across ranks.
// expected-remark @+1 {{split along dim 0}}
func.func @argmax_split(%a: tensor<6x4xf32>) -> (tensor<6x4xf32>, tensor<4xi64>) {
  %0 = stride.exp %a : tensor<6x4xf32> -> tensor<6x4xf32>
  // expected-error @+1 {{'stride.argmax' op cannot reduce over a dimension split across processes}}
  %1 = stride.argmax %a axes [0] : tensor<6x4xf32> -> tensor<4xi64>
  return %0, %1 : tensor<6x4xf32>, tensor<4xi64>
}
