// RUN: stride-opt %s --split-input-file --convert-shard-to-stride-mpi --verify-diagnostics | FileCheck %s

// A sum all-reduce reads its operand's buffer, writes a fresh one through
// the f32 runtime function (kind 0 = sum), and the grid symbol goes away.
// CHECK-NOT: shard.grid
// CHECK-LABEL: func.func @all_reduce
// CHECK: %[[IN:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<4x3xf32> to memref<4x3xf32>
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<4x3xf32>
// CHECK: %[[UIN:.*]] = memref.cast %[[IN]] : memref<4x3xf32> to memref<*xf32>
// CHECK: %[[UOUT:.*]] = memref.cast %[[OUT]] : memref<4x3xf32> to memref<*xf32>
// CHECK: %[[KIND:.*]] = arith.constant 0 : i32
// CHECK: call @stride_mpi_allreduce_f32(%[[UIN]], %[[UOUT]], %[[KIND]])
// CHECK: %[[R:.*]] = bufferization.to_tensor %[[OUT]] restrict writable
// CHECK: return %[[R]]
// CHECK: func.func private @stride_mpi_allreduce_f32(memref<*xf32>, memref<*xf32>, i32)
shard.grid @g(shape = 2)
func.func @all_reduce(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0 = shard.all_reduce %x on @g grid_axes = [0] reduction = sum : tensor<4x3xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// Max of i64 is kind 3 of the i64 function.
// CHECK-LABEL: func.func @all_reduce_max
// CHECK: %[[KIND:.*]] = arith.constant 3 : i32
// CHECK: call @stride_mpi_allreduce_i64(%{{.*}}, %{{.*}}, %[[KIND]])
shard.grid @g(shape = 4)
func.func @all_reduce_max(%x: tensor<8xi64>) -> tensor<8xi64> {
  %0 = shard.all_reduce %x on @g grid_axes = [0] reduction = max : tensor<8xi64> -> tensor<8xi64>
  return %0 : tensor<8xi64>
}

// -----

// An all-gather passes the gathered dim; an all-to-all its split and
// concat dims.
// CHECK-LABEL: func.func @gather_and_all_to_all
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<4x6xf64>
// CHECK: %[[DIM:.*]] = arith.constant 1 : i64
// CHECK: call @stride_mpi_allgather_f64(%{{.*}}, %{{.*}}, %[[DIM]])
// CHECK: memref.alloc() : memref<2x6xf64>
// CHECK-DAG: %[[SPLIT:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[CONCAT:.*]] = arith.constant 1 : i64
// CHECK: call @stride_mpi_alltoall_f64(%{{.*}}, %{{.*}}, %[[SPLIT]], %[[CONCAT]])
shard.grid @g(shape = 2)
func.func @gather_and_all_to_all(%x: tensor<4x3xf64>) -> (tensor<4x6xf64>, tensor<2x6xf64>) {
  %0 = shard.all_gather %x on @g grid_axes = [0] gather_axis = 1 : tensor<4x3xf64> -> tensor<4x6xf64>
  %1 = shard.all_to_all %x on @g grid_axes = [0] split_axis = 0 concat_axis = 1 : tensor<4x3xf64> -> tensor<2x6xf64>
  return %0, %1 : tensor<4x6xf64>, tensor<2x6xf64>
}

// -----

// An all-slice is local: the rank's block, at an offset from the rank.
// CHECK-LABEL: func.func @all_slice
// CHECK: %[[RANK:.*]] = call @stride_mpi_comm_rank() : () -> i32
// CHECK: arith.index_cast %[[RANK]] : i32 to index
// CHECK: tensor.extract_slice
// CHECK-NOT: shard.
shard.grid @g(shape = 2)
func.func @all_slice(%x: tensor<8x3xf32>) -> tensor<4x3xf32> {
  %0 = shard.all_slice %x on @g grid_axes = [0] slice_axis = 0 : tensor<8x3xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// Collectives without a runtime function are errors, never left behind.
shard.grid @g(shape = 2)
func.func @broadcast(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{convert-shard-to-stride-mpi: 'shard.broadcast' has no lowering to Stride's MPI runtime}}
  %0 = shard.broadcast %x on @g grid_axes = [0] root = [0] : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// On a 2x3 grid a collective runs among the ranks its grid axes span: the
// group is asked for with the grid's sizes (0 for unused dims) and the axes
// as nibbles (axis + 1, first axis lowest), and passed to the _group
// function.
// CHECK-LABEL: func.func @grid_2d
// CHECK: %[[G0:.*]] = arith.constant 2 : i64
// CHECK-NEXT: %[[G1:.*]] = arith.constant 3 : i64
// CHECK-NEXT: %[[G2:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[G3:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[AXIS1:.*]] = arith.constant 2 : i64
// CHECK-NEXT: %[[GROUP:.*]] = call @stride_mpi_grid_group(%[[G0]], %[[G1]], %[[G2]], %[[G3]], %[[AXIS1]]) : (i64, i64, i64, i64, i64) -> i32
// CHECK: call @stride_mpi_allreduce_group_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[GROUP]]) : (memref<*xf32>, memref<*xf32>, i32, i32) -> ()
// CHECK: %[[BOTH:.*]] = arith.constant 33 : i64
// CHECK: %[[GROUP2:.*]] = call @stride_mpi_grid_group(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[BOTH]])
// CHECK: call @stride_mpi_allgather_group_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[GROUP2]])
// CHECK: %[[AXIS0:.*]] = arith.constant 1 : i64
// CHECK: %[[GROUP3:.*]] = call @stride_mpi_grid_group(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[AXIS0]])
// CHECK: call @stride_mpi_alltoall_group_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[GROUP3]])
// CHECK: func.func private @stride_mpi_grid_group(i64, i64, i64, i64, i64) -> i32
shard.grid @g(shape = 2x3)
func.func @grid_2d(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<24xf32>, tensor<4xf32>) {
  %0 = shard.all_reduce %x on @g grid_axes = [1] : tensor<4xf32> -> tensor<4xf32>
  %1 = shard.all_gather %x on @g grid_axes = [0, 1] gather_axis = 0 : tensor<4xf32> -> tensor<24xf32>
  %2 = shard.all_to_all %x on @g grid_axes = [0] split_axis = 0 concat_axis = 0 : tensor<4xf32> -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<24xf32>, tensor<4xf32>
}

// -----

// Grids of more than four dims have no process groups in the runtime.
shard.grid @g(shape = 2x1x1x1x2)
func.func @grid_5d(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{grid @g has 5 dims; Stride's MPI runtime takes grids of up to 4 dims}}
  %0 = shard.all_reduce %x on @g grid_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
