// exp split by rows, then its result resharded by columns (an all-to-all)
// for neg; the same program without the annotations is reshard-plain.mlir.
shard.grid @g(shape = 2)
func.func @main(%a: tensor<4x6xi32>) -> tensor<4x6xi32> {
  %0 = stride.mul %a, %a : tensor<4x6xi32>, tensor<4x6xi32> -> tensor<4x6xi32>
  %s0 = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %1 = shard.shard %0 to %s0 : tensor<4x6xi32>
  %s1 = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %2 = shard.shard %1 to %s1 annotate_for_users : tensor<4x6xi32>
  %3 = stride.neg %2 : tensor<4x6xi32> -> tensor<4x6xi32>
  return %3 : tensor<4x6xi32>
}
