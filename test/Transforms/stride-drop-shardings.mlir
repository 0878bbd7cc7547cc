// RUN: stride-opt %s --split-input-file --stride-drop-shardings --verify-diagnostics | FileCheck %s

// Annotations go; the values flow through unchanged.
// CHECK-NOT: shard.
// CHECK-LABEL: func.func @annotated
// CHECK-SAME: (%[[A:.*]]: tensor<4x6xf32>)
// CHECK: %[[E:.*]] = stride.exp %[[A]]
// CHECK: %[[N:.*]] = stride.neg %[[E]]
// CHECK: return %[[N]]
shard.grid @g(shape = 2)
func.func @annotated(%a: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %0 = stride.exp %a : tensor<4x6xf32> -> tensor<4x6xf32>
  %s0 = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %1 = shard.shard %0 to %s0 : tensor<4x6xf32>
  %s1 = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %2 = shard.shard %1 to %s1 annotate_for_users : tensor<4x6xf32>
  %3 = stride.neg %2 : tensor<4x6xf32> -> tensor<4x6xf32>
  return %3 : tensor<4x6xf32>
}

// -----

// A collective has no meaning in one process.
shard.grid @g(shape = 2)
func.func @collective(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'shard.all_reduce' is a collective between processes; run the program with distribute=N (stride-run --distribute)}}
  %0 = shard.all_reduce %a on @g grid_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
