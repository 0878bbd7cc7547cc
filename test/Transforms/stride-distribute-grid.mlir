// RUN: stride-opt %s --split-input-file --pass-pipeline='builtin.module(stride-distribute{grid=2x2},func.func(shard-partition))' --verify-diagnostics | FileCheck %s

// On a 2x2 grid a matmul is split in blocks: grid axis 0 takes the rows
// and axis 1 the columns, so each rank reads a block of rows of the left
// operand and of columns of the right one and needs no communication.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: tensor<4x6xf32> {stride.split_dims = array<i64: 0, -1>}, %[[B:.*]]: tensor<6x2xf32> {stride.split_dims = array<i64: -1, 1>}) -> (tensor<4x2xf32> {stride.split_dims = array<i64: 0, 1>})
// CHECK-SAME: stride.grid = array<i64: 2, 2>
// CHECK-NEXT: %[[C:.*]] = stride.matmul %[[A]], %[[B]] : tensor<4x6xf32>, tensor<6x2xf32> -> tensor<4x2xf32>
// CHECK-NEXT: return %[[C]]
// expected-remark @+1 {{over a 2x2 grid (4 ranks), split along the rows and columns (dim 0 (size 8) and dim 1 (size 4); grid axis 0 -> dim 0, grid axis 1 -> dim 1) of the first stride.matmul}}
func.func @matmul(%a: tensor<8x6xf32>, %b: tensor<6x4xf32>) -> tensor<8x4xf32> {
  %0 = stride.matmul %a, %b : tensor<8x6xf32>, tensor<6x4xf32> -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// Elementwise: both axes split the outermost dim when it divides over all
// four ranks, so each rank's block stays one contiguous run.
// CHECK-LABEL: func.func @rows
// CHECK-SAME: tensor<2x6xf32> {stride.split_dims = array<i64: 0, 0>}
// expected-remark @+1 {{split along dim 0 (size 8); grid axis 0 -> dim 0, grid axis 1 -> dim 0 of the first result}}
func.func @rows(%a: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %0 = stride.exp %a : tensor<8x6xf32> -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

// -----

// When the outermost dim takes only one axis, the next dim takes the other.
// CHECK-LABEL: func.func @two_dims
// CHECK-SAME: tensor<1x3xf32> {stride.split_dims = array<i64: 0, 1>}
// expected-remark @+1 {{split along dim 0 (size 2) and dim 1 (size 6); grid axis 0 -> dim 0, grid axis 1 -> dim 1}}
func.func @two_dims(%a: tensor<2x6xf32>) -> tensor<2x6xf32> {
  %0 = stride.exp %a : tensor<2x6xf32> -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

// Neither M nor N divides: K is split over both axes and the partial
// products are summed by one all-reduce over the whole grid.
// CHECK-LABEL: func.func @k_split
// CHECK-SAME: tensor<3x2xf32> {stride.split_dims = array<i64: 1, 1>}
// CHECK: %[[P:.*]] = stride.matmul
// CHECK: shard.all_reduce %[[P]] on @stride_grid grid_axes = [0, 1]
// expected-remark @+1 {{split along the contracted dim (K = 8) of the first stride.matmul, summed by an all-reduce}}
func.func @k_split(%a: tensor<3x8xf32>, %b: tensor<8x3xf32>) -> tensor<3x3xf32> {
  %0 = stride.matmul %a, %b : tensor<3x8xf32>, tensor<8x3xf32> -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// Swapping the grid axes between two dims is more than upstream's
// partitioner reshards in one step (it gave 4x1 blocks): the pass chains
// single-axis steps, gathers then slices.
// CHECK-LABEL: func.func @swap
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32> {stride.split_dims = array<i64: 0, 1>}) -> (tensor<2x3xf32> {stride.split_dims = array<i64: 1, 0>})
// CHECK: %[[M:.*]] = stride.mul %[[A]], %[[A]]
// CHECK: %[[G0:.*]] = shard.all_gather %[[M]] on @g grid_axes = [0] gather_axis = 0 : tensor<2x3xf32> -> tensor<4x3xf32>
// CHECK: shard.all_gather %{{.*}} on @g grid_axes = [1] gather_axis = 1 : tensor<4x3xf32> -> tensor<4x6xf32>
// CHECK: shard.all_slice %{{.*}} on @g grid_axes = [1] slice_axis = 0 : tensor<4x6xf32> -> tensor<2x6xf32>
// CHECK: %[[S:.*]] = shard.all_slice %{{.*}} on @g grid_axes = [0] slice_axis = 1 : tensor<2x6xf32> -> tensor<2x3xf32>
// CHECK: stride.neg %[[S]] : tensor<2x3xf32> -> tensor<2x3xf32>
shard.grid @g(shape = 2x2)
// expected-remark @+1 {{split along the shardings written in the input}}
func.func @swap(%a: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %0 = stride.mul %a, %a : tensor<4x6xf32>, tensor<4x6xf32> -> tensor<4x6xf32>
  %s0 = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %1 = shard.shard %0 to %s0 : tensor<4x6xf32>
  %s1 = shard.sharding @g split_axes = [[1], [0]] : !shard.sharding
  %2 = shard.shard %1 to %s1 annotate_for_users : tensor<4x6xf32>
  %3 = stride.neg %2 : tensor<4x6xf32> -> tensor<4x6xf32>
  return %3 : tensor<4x6xf32>
}

// -----

// Moving one axis from the end of one dim's list to another's is upstream's
// all-to-all, left to it.
// CHECK-LABEL: func.func @move
// CHECK: shard.all_to_all %{{.*}} on @g grid_axes = [0] split_axis = 1 concat_axis = 0
// CHECK-NOT: shard.all_gather
shard.grid @g(shape = 2x2)
// expected-remark @+1 {{split along the shardings written in the input}}
func.func @move(%a: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %0 = stride.mul %a, %a : tensor<4x6xf32>, tensor<4x6xf32> -> tensor<4x6xf32>
  %s0 = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %1 = shard.shard %0 to %s0 : tensor<4x6xf32>
  %s1 = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %2 = shard.shard %1 to %s1 annotate_for_users : tensor<4x6xf32>
  %3 = stride.neg %2 : tensor<4x6xf32> -> tensor<4x6xf32>
  return %3 : tensor<4x6xf32>
}

// -----

// A user's sharding over a grid of another shape than the run's is refused:
// the runners scatter by the run's grid.
shard.grid @h(shape = 4)
// expected-error @+1 {{the sharding of %arg0 is over grid @h of shape 4, but the run's grid is 2x2 (grid=2x2)}}
func.func @other_grid(%a: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %0 = stride.exp %a : tensor<4x6xf32> -> tensor<4x6xf32>
  %s = shard.sharding @h split_axes = [[0]] : !shard.sharding
  %1 = shard.shard %0 to %s : tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// -----

// Axes listed out of order over one dim are refused: the runners count
// blocks major to minor in axis order.
shard.grid @g(shape = 2x2)
// expected-error @+1 {{the sharding of %arg0 splits dim 0 over grid axes out of ascending order}}
func.func @axes_order(%a: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %0 = stride.exp %a : tensor<8x6xf32> -> tensor<8x6xf32>
  %s = shard.sharding @g split_axes = [[1, 0]] : !shard.sharding
  %1 = shard.shard %0 to %s : tensor<8x6xf32>
  return %1 : tensor<8x6xf32>
}

// -----

// No dim that the grid's axes split evenly: refused.
// expected-error @+1 {{no dim of the result (3x5) that strategy auto may split divides over a 2x2 grid (4 ranks); uneven shards are not supported}}
func.func @uneven(%a: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = stride.exp %a : tensor<3x5xf32> -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// A grid axis that no dim fits splits nothing: rows over axis 0, and the
// two ranks along axis 1 hold the same blocks and compute them alike.
// CHECK-LABEL: func.func @axis_whole
// CHECK-SAME: (%{{.*}}: tensor<3x3xf32> {stride.split_dims = array<i64: 0, -1>}) -> (tensor<3x3xf32> {stride.split_dims = array<i64: 0, -1>})
// expected-remark @+1 {{split along dim 0 (size 6); grid axis 0 -> dim 0, grid axis 1 -> whole of the first result}}
func.func @axis_whole(%a: tensor<6x3xf32>) -> tensor<6x3xf32> {
  %0 = stride.exp %a : tensor<6x3xf32> -> tensor<6x3xf32>
  return %0 : tensor<6x3xf32>
}
