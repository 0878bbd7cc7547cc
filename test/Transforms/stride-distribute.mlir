// RUN: stride-opt %s --split-input-file --stride-distribute=grid=2 --verify-diagnostics | FileCheck %s

// A transposed argument makes dim 1 the result's outermost dim in memory:
// auto splits it, the row operand follows (its only dim is that loop), the
// scalar stays unannotated, and the encodings are dropped (ranks hold dense
// blocks).
// CHECK: shard.grid @stride_grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @transposed
// CHECK-SAME: (%{{.*}}: tensor<8x4xf32> {stride.split_dims = array<i64: 1>}, %{{.*}}: tensor<4xf32> {stride.split_dims = array<i64: 0>}, %{{.*}}: f32) -> (tensor<8x4xf32> {stride.split_dims = array<i64: 1>})
// CHECK-SAME: stride.grid = array<i64: 2>
// CHECK: %[[S:.*]] = shard.sharding @stride_grid split_axes = {{\[\[\], \[0\]\]}}
// CHECK: stride.add
// CHECK-NOT: #stride.layout
// CHECK: return
// expected-remark @+1 {{split along dim 1 (size 4) of the first result, outermost in memory}}
func.func @transposed(%a: tensor<8x4xf32, #stride.layout<strides = [1, 8]>>,
                      %b: tensor<4xf32>, %c: f32)
    -> tensor<8x4xf32, #stride.layout<strides = [1, 8]>> {
  %0 = stride.add %a, %b : tensor<8x4xf32, #stride.layout<strides = [1, 8]>>, tensor<4xf32> -> tensor<8x4xf32, #stride.layout<strides = [1, 8]>>
  %1 = stride.mul %0, %c : tensor<8x4xf32, #stride.layout<strides = [1, 8]>>, f32 -> tensor<8x4xf32, #stride.layout<strides = [1, 8]>>
  return %1 : tensor<8x4xf32, #stride.layout<strides = [1, 8]>>
}

// -----

// A size-1 (broadcast) dim is never split: the column operand is split
// with the rows, the row operand is whole on every rank.
// CHECK-LABEL: func.func @broadcast
// CHECK-SAME: (%{{.*}}: tensor<8x1xf32> {stride.split_dims = array<i64: 0>}, %{{.*}}: tensor<1x6xf32>) -> (tensor<8x6xf32> {stride.split_dims = array<i64: 0>})
// expected-remark @+1 {{split along dim 0}}
func.func @broadcast(%a: tensor<8x1xf32>, %b: tensor<1x6xf32>) -> tensor<8x6xf32> {
  %0 = stride.sub %a, %b : tensor<8x1xf32>, tensor<1x6xf32> -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

// -----

// A matmul splits its rows (M) under auto: the left operand by rows, the
// right one whole.
// CHECK-LABEL: func.func @matmul_rows
// CHECK-SAME: (%{{.*}}: tensor<8x6xf32> {stride.split_dims = array<i64: 0>}, %{{.*}}: tensor<6x4xf32>) -> (tensor<8x4xf32> {stride.split_dims = array<i64: 0>})
// expected-remark @+1 {{split along the rows (dim 0, size 8) of the first stride.matmul}}
func.func @matmul_rows(%a: tensor<8x6xf32>, %b: tensor<6x4xf32>) -> tensor<8x4xf32> {
  %0 = stride.matmul %a, %b : tensor<8x6xf32>, tensor<6x4xf32> -> tensor<8x4xf32>
  %1 = stride.tanh %0 : tensor<8x4xf32> -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

// A batched matmul splits its batch; a broadcast batch operand is whole.
// CHECK-LABEL: func.func @matmul_batch
// CHECK-SAME: (%{{.*}}: tensor<4x3x5xf32> {stride.split_dims = array<i64: 0>}, %{{.*}}: tensor<1x5x2xf32>) -> (tensor<4x3x2xf32> {stride.split_dims = array<i64: 0>})
// expected-remark @+1 {{a batch dim (dim 0, size 4)}}
func.func @matmul_batch(%a: tensor<4x3x5xf32>, %b: tensor<1x5x2xf32>) -> tensor<4x3x2xf32> {
  %0 = stride.matmul %a, %b : tensor<4x3x5xf32>, tensor<1x5x2xf32> -> tensor<4x3x2xf32>
  return %0 : tensor<4x3x2xf32>
}

// -----

// Rows that the grid does not divide fall back to the contracted dim.
// CHECK-LABEL: func.func @matmul_k
// CHECK-SAME: (%{{.*}}: tensor<7x6xf32> {stride.split_dims = array<i64: 1>}, %{{.*}}: tensor<6x3xf32> {stride.split_dims = array<i64: 0>}) -> tensor<7x3xf32>
// expected-remark @+1 {{the contracted dim (K = 6)}}
func.func @matmul_k(%a: tensor<7x6xf32>, %b: tensor<6x3xf32>) -> tensor<7x3xf32> {
  %0 = stride.matmul %a, %b : tensor<7x6xf32>, tensor<6x3xf32> -> tensor<7x3xf32>
  return %0 : tensor<7x3xf32>
}

// -----

// Shardings written in the input are kept (here: columns, not rows).
// CHECK-LABEL: func.func @user
// CHECK-SAME: {stride.split_dims = array<i64: 1>}
// CHECK-SAME: -> (tensor<4x6xf32> {stride.split_dims = array<i64: 1>})
shard.grid @g(shape = 2)
// expected-remark @+1 {{the shardings written in the input}}
func.func @user(%a: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %0 = stride.exp %a : tensor<4x6xf32> -> tensor<4x6xf32>
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %1 = shard.shard %0 to %s : tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// -----

// A second reader of a split argument reads it through the same annotation
// (else it would take the rank's block for the whole array), and an
// argument nothing splits is marked whole on every rank.
// CHECK-LABEL: func.func @two_readers
// CHECK-DAG: %[[B:.*]] = shard.shard %arg1 to %{{.*}} annotate_for_users
// CHECK-DAG: %[[A:.*]] = shard.shard %arg0 to %{{.*}} annotate_for_users
// CHECK: stride.exp %[[A]]
// CHECK: stride.mean %[[A]]
// CHECK: stride.neg %[[B]]
// expected-remark @+1 {{split along dim 0}}
func.func @two_readers(%a: tensor<8x6xf32>, %b: tensor<3xf32>) -> (tensor<8x6xf32>, tensor<f32>, tensor<3xf32>) {
  %0 = stride.exp %a : tensor<8x6xf32> -> tensor<8x6xf32>
  %1 = stride.mean %a : tensor<8x6xf32> -> tensor<f32>
  %2 = stride.neg %b : tensor<3xf32> -> tensor<3xf32>
  return %0, %1, %2 : tensor<8x6xf32>, tensor<f32>, tensor<3xf32>
}
