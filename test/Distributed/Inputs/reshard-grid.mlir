// On a 2x2 grid: mul split rows over axis 0 and columns over axis 1, then
// neg with the axes swapped, then a column sum with the rows whole.
shard.grid @g(shape = 2x2)
func.func @main(%a: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<6xf32>) {
  %0 = stride.mul %a, %a : tensor<4x6xf32>, tensor<4x6xf32> -> tensor<4x6xf32>
  %s0 = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %1 = shard.shard %0 to %s0 : tensor<4x6xf32>
  %s1 = shard.sharding @g split_axes = [[1], [0]] : !shard.sharding
  %2 = shard.shard %1 to %s1 annotate_for_users : tensor<4x6xf32>
  %3 = stride.neg %2 : tensor<4x6xf32> -> tensor<4x6xf32>
  %4 = stride.sum %0 axes [0] : tensor<4x6xf32> -> tensor<6xf32>
  return %3, %4 : tensor<4x6xf32>, tensor<6xf32>
}
