// RUN: stride-opt %s --split-input-file --stride-distribute=grid=2 --verify-diagnostics

// No dim of the result divides over the grid: uneven shards are refused.
// expected-error @+1 {{no dim of the result (7x3) that strategy auto may split divides over 2 ranks; uneven shards are not supported}}
func.func @uneven(%a: tensor<7x3xf32>) -> tensor<7x3xf32> {
  %0 = stride.neg %a : tensor<7x3xf32> -> tensor<7x3xf32>
  return %0 : tensor<7x3xf32>
}

// -----

// A user's sharding that splits a dim unevenly is refused.
shard.grid @g(shape = 2)
// expected-error @+1 {{dim 0 of %arg0 (size 5) does not split evenly into 2 blocks; uneven shards are not supported}}
func.func @user_uneven(%a: tensor<5x4xf32>) -> tensor<5x4xf32> {
  %0 = stride.exp %a : tensor<5x4xf32> -> tensor<5x4xf32>
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %1 = shard.shard %0 to %s : tensor<5x4xf32>
  return %1 : tensor<5x4xf32>
}

// -----

// Slices have no sharding rule yet: a block of the result is not a block
// of the operand.
func.func @view(%a: tensor<4x6xf32>) -> tensor<2x6xf32, #stride.layout<strides = [12, 1], offset = 6>> {
  // expected-error @+1 {{'stride.slice' has no sharding rule yet; only elementwise ops, reductions, stride.matmul and the views permute, transpose, squeeze and unsqueeze distribute}}
  %0 = stride.slice %a [1::2] : tensor<4x6xf32> -> tensor<2x6xf32, #stride.layout<strides = [12, 1], offset = 6>>
  return %0 : tensor<2x6xf32, #stride.layout<strides = [12, 1], offset = 6>>
}

// -----

// Dynamic shapes cannot be split at compile time.
// expected-error @+1 {{argument %arg0 has a dynamic shape (?x4); distribution needs static shapes}}
func.func @dynamic(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = stride.neg %a : tensor<?x4xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
