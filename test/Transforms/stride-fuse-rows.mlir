// RUN: stride-opt %s --split-input-file --stride-fuse-rows | FileCheck %s
// RUN: stride-opt %s --split-input-file --stride-fuse-rows=block-bytes=1024 | FileCheck %s --check-prefix=SMALL
// RUN: stride-opt %s --split-input-file --stride-fuse-rows --verify-diagnostics -o /dev/null

// Softmax after stride-fuse: the max, the exp of the difference, the sum and
// the division run on blocks of 8 rows (8 x 1024 f32 is 32 KiB), reading
// slices of %x and writing the division into a slice of the loop's output.
// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:.*]]: tensor<4096x1024xf32>)
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<4096x1024xf32>
// CHECK: %[[LOOP:.*]] = scf.forall (%[[I:.*]]) = (0) to (4096) step (8) shared_outs(%[[OUT:.*]] = %[[INIT]])
// CHECK-DAG: %[[XS:.*]] = tensor.extract_slice %[[X]][%[[I]], 0] [8, 1024] [1, 1]
// CHECK-DAG: %[[DEST:.*]] = tensor.extract_slice %[[OUT]][%[[I]], 0] [8, 1024] [1, 1]
// CHECK: %[[M:.*]] = stride.amax %[[XS]] axes [-1] keepdims : tensor<8x1024xf32> -> tensor<8x1xf32>
// CHECK: %[[E:.*]] = stride.broadcast ins(%[[XS]], %[[M]] : tensor<8x1024xf32>, tensor<8x1xf32>) -> tensor<8x1024xf32>
// CHECK: math.exp
// CHECK: %[[S:.*]] = stride.sum %[[E]] axes [-1] keepdims : tensor<8x1024xf32> -> tensor<8x1xf32>
// CHECK: %[[R:.*]] = stride.broadcast ins(%[[E]], %[[S]] : tensor<8x1024xf32>, tensor<8x1xf32>) outs(%[[DEST]] : tensor<8x1024xf32>)
// CHECK: arith.divf
// CHECK: tensor.parallel_insert_slice %[[R]] into %[[OUT]][%[[I]], 0] [8, 1024] [1, 1]
// CHECK: } {stride.row_block = 8 : i64}
// CHECK: return %[[LOOP]]
func.func @softmax(%x: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  %m = stride.amax %x axes [-1] keepdims : tensor<4096x1024xf32> -> tensor<4096x1xf32>
  %e = stride.broadcast ins(%x, %m : tensor<4096x1024xf32>, tensor<4096x1xf32>) -> tensor<4096x1024xf32> {
  ^bb0(%a: f32, %b: f32):
    %d = arith.subf %a, %b : f32
    %x1 = math.exp %d : f32
    stride.yield %x1 : f32
  }
  %s = stride.sum %e axes [-1] keepdims : tensor<4096x1024xf32> -> tensor<4096x1xf32>
  %r = stride.broadcast ins(%e, %s : tensor<4096x1024xf32>, tensor<4096x1xf32>) -> tensor<4096x1024xf32> {
  ^bb0(%a: f32, %b: f32):
    %q = arith.divf %a, %b : f32
    stride.yield %q : f32
  }
  return %r : tensor<4096x1024xf32>
}

// -----

// Layer norm after stride-fuse: a mean, a map_reduce for the variance, an
// op on the reduced shape and the final broadcast. The weights (no leading
// dim) and the scalar epsilon are read whole; the map_reduce's `mapped`
// type becomes the block's.
// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: (%[[X:.*]]: tensor<64x512xf32>, %[[W:.*]]: tensor<512xf32>)
// CHECK: %[[EPS:.*]] = arith.constant
// CHECK: scf.forall (%[[I:.*]]) = (0) to (64) step (16)
// CHECK: %[[XS:.*]] = tensor.extract_slice %[[X]][%[[I]], 0] [16, 512] [1, 1]
// CHECK: %[[M:.*]] = stride.mean %[[XS]] axes [1] keepdims : tensor<16x512xf32> -> tensor<16x1xf32>
// CHECK: %[[V:.*]] = stride.map_reduce "mean" ins(%[[XS]], %[[M]] : tensor<16x512xf32>, tensor<16x1xf32>) axes [1] keepdims mapped(tensor<16x512xf32>) : tensor<16x1xf32>
// CHECK: %[[SD:.*]] = stride.broadcast ins(%[[V]], %[[EPS]] : tensor<16x1xf32>, f32) -> tensor<16x1xf32>
// CHECK: stride.broadcast ins(%[[W]], %[[SD]], %[[XS]], %[[M]] : tensor<512xf32>, tensor<16x1xf32>, tensor<16x512xf32>, tensor<16x1xf32>) outs(
func.func @layer_norm(%x: tensor<64x512xf32>, %w: tensor<512xf32>) -> tensor<64x512xf32> {
  %m = stride.mean %x axes [1] keepdims : tensor<64x512xf32> -> tensor<64x1xf32>
  %v = stride.map_reduce "mean" ins(%x, %m : tensor<64x512xf32>, tensor<64x1xf32>) axes [1] keepdims mapped(tensor<64x512xf32>) : tensor<64x1xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.subf %a, %b : f32
    %q = arith.mulf %c, %c : f32
    stride.yield %q : f32
  }
  %eps = arith.constant 1.0e-5 : f32
  %sd = stride.broadcast ins(%v, %eps : tensor<64x1xf32>, f32) -> tensor<64x1xf32> {
  ^bb0(%a: f32, %b: f32):
    %p = arith.addf %a, %b : f32
    %s = math.sqrt %p : f32
    stride.yield %s : f32
  }
  %r = stride.broadcast ins(%w, %sd, %x, %m : tensor<512xf32>, tensor<64x1xf32>, tensor<64x512xf32>, tensor<64x1xf32>) -> tensor<64x512xf32> {
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
    %0 = arith.subf %c, %d : f32
    %1 = arith.divf %0, %b : f32
    %2 = arith.mulf %1, %a : f32
    stride.yield %2 : f32
  }
  return %r : tensor<64x512xf32>
}

// -----

// A 3-d input reduced over its last two dims: blocks of the leading dim,
// whole in the others; a leaf with the leading dim of size 1 is read whole.
// By default one block holds all 6 rows (no loop); with block-bytes=1024 the
// block is the largest divisor of 6 whose rows (256 bytes each) fit.
// CHECK-LABEL: func.func @two_trailing_dims
// CHECK-NOT: scf.forall
// SMALL-LABEL: func.func @two_trailing_dims
// SMALL-SAME: (%[[X:.*]]: tensor<6x4x16xf32>, %[[B:.*]]: tensor<1x4x16xf32>)
// SMALL: scf.forall (%[[I:.*]]) = (0) to (6) step (3)
// SMALL: tensor.extract_slice %[[X]][%[[I]], 0, 0] [3, 4, 16] [1, 1, 1]
// SMALL-NOT: tensor.extract_slice %[[B]]
// SMALL: stride.sum {{.*}} axes [1, 2] keepdims : tensor<3x4x16xf32> -> tensor<3x1x1xf32>
// SMALL: stride.broadcast ins({{.*}}, %[[B]] : tensor<3x4x16xf32>, tensor<3x1x1xf32>, tensor<1x4x16xf32>) outs(
func.func @two_trailing_dims(%x: tensor<6x4x16xf32>, %b: tensor<1x4x16xf32>) -> tensor<6x4x16xf32> {
  %s = stride.sum %x axes [1, 2] keepdims : tensor<6x4x16xf32> -> tensor<6x1x1xf32>
  %r = stride.broadcast ins(%x, %s, %b : tensor<6x4x16xf32>, tensor<6x1x1xf32>, tensor<1x4x16xf32>) -> tensor<6x4x16xf32> {
  ^bb0(%a: f32, %c: f32, %d: f32):
    %0 = arith.subf %a, %c : f32
    %1 = arith.mulf %0, %d : f32
    stride.yield %1 : f32
  }
  return %r : tensor<6x4x16xf32>
}

// -----

// Whole in one block (the default 32 KiB holds all 6 rows): no loop of one
// iteration. With block-bytes=1024 one row (4 KiB) is more than a block, so
// the block is one row.
// CHECK-LABEL: func.func @one_iteration
// CHECK-NOT: scf.forall
// SMALL-LABEL: func.func @one_iteration
// SMALL: scf.forall (%{{.*}}) in (6)
func.func @one_iteration(%x: tensor<6x1024xf32>) -> tensor<6x1024xf32> {
  %s = stride.sum %x axes [1] keepdims : tensor<6x1024xf32> -> tensor<6x1xf32>
  %r = stride.broadcast ins(%x, %s : tensor<6x1024xf32>, tensor<6x1xf32>) -> tensor<6x1024xf32> {
  ^bb0(%a: f32, %b: f32):
    %0 = arith.divf %a, %b : f32
    stride.yield %0 : f32
  }
  return %r : tensor<6x1024xf32>
}

// -----

// Not fused: the reduction is over the leading dim (a column sum keeps no
// rows to block), and a reduction without keepdims does not broadcast back.
// CHECK-LABEL: func.func @leading_or_dropped
// CHECK-NOT: scf.forall
// CHECK: return
func.func @leading_or_dropped(%x: tensor<512x64xf32>) -> (tensor<512x64xf32>, tensor<512xf32>) {
  %s = stride.sum %x axes [0] keepdims : tensor<512x64xf32> -> tensor<1x64xf32>
  %r = stride.broadcast ins(%x, %s : tensor<512x64xf32>, tensor<1x64xf32>) -> tensor<512x64xf32> {
  ^bb0(%a: f32, %b: f32):
    %0 = arith.divf %a, %b : f32
    stride.yield %0 : f32
  }
  %t = stride.sum %x axes [1] : tensor<512x64xf32> -> tensor<512xf32>
  return %r, %t : tensor<512x64xf32>, tensor<512xf32>
}

// -----

// Not fused: the sum is also returned, so it cannot move into the loop, and
// without it the group holds no reduction (the exp's result feeds the sum).
// CHECK-LABEL: func.func @reduction_escapes
// CHECK-NOT: scf.forall
// CHECK: return
func.func @reduction_escapes(%x: tensor<512x64xf32>) -> (tensor<512x64xf32>, tensor<512x1xf32>) {
  %e = stride.exp %x : tensor<512x64xf32> -> tensor<512x64xf32>
  %s = stride.sum %e axes [1] keepdims : tensor<512x64xf32> -> tensor<512x1xf32>
  %r = stride.broadcast ins(%e, %s : tensor<512x64xf32>, tensor<512x1xf32>) -> tensor<512x64xf32> {
  ^bb0(%a: f32, %b: f32):
    %0 = arith.divf %a, %b : f32
    stride.yield %0 : f32
  }
  return %r, %s : tensor<512x64xf32>, tensor<512x1xf32>
}

// -----

// Not fused: an operand that is not row-major (a transposed layout) would
// make a block of rows a strided slice; the group is left as it is.
// CHECK-LABEL: func.func @strided_leaf
// CHECK-NOT: scf.forall
// CHECK: return
func.func @strided_leaf(%x: tensor<512x64xf32, #stride.layout<strides = [1, 512]>>) -> tensor<512x64xf32> {
  %s = stride.sum %x axes [1] keepdims : tensor<512x64xf32, #stride.layout<strides = [1, 512]>> -> tensor<512x1xf32>
  %r = stride.broadcast ins(%x, %s : tensor<512x64xf32, #stride.layout<strides = [1, 512]>>, tensor<512x1xf32>) -> tensor<512x64xf32> {
  ^bb0(%a: f32, %b: f32):
    %0 = arith.divf %a, %b : f32
    stride.yield %0 : f32
  }
  return %r : tensor<512x64xf32>
}

// -----

// With the module's stride.explain, the pass says what it built and why it
// declined: here a strided operand, and a prime number of short rows (one
// row of 16 bytes per block).
module attributes {stride.explain} {
  func.func @explained(%x: tensor<512x64xf32>, %y: tensor<512x64xf32, #stride.layout<strides = [1, 512]>>, %z: tensor<4099x4xf32>) -> (tensor<512x64xf32>, tensor<512x64xf32>, tensor<4099x4xf32>) {
    %s = stride.sum %x axes [1] keepdims : tensor<512x64xf32> -> tensor<512x1xf32>
    // expected-remark @below {{stride-explain: row loop: 2 ops (a reduction over the trailing dims, its producers and the ops that broadcast it back) run on blocks of 128 of the 512 rows}}
    %r = stride.broadcast ins(%x, %s : tensor<512x64xf32>, tensor<512x1xf32>) -> tensor<512x64xf32> {
    ^bb0(%a: f32, %b: f32):
      %0 = arith.divf %a, %b : f32
      stride.yield %0 : f32
    }
    %t = stride.sum %y axes [1] keepdims : tensor<512x64xf32, #stride.layout<strides = [1, 512]>> -> tensor<512x1xf32>
    // expected-remark @below {{stride-explain: row loop: not built: an operand from outside is not a static row-major tensor}}
    %q = stride.broadcast ins(%y, %t : tensor<512x64xf32, #stride.layout<strides = [1, 512]>>, tensor<512x1xf32>) -> tensor<512x64xf32> {
    ^bb0(%a: f32, %b: f32):
      %0 = arith.divf %a, %b : f32
      stride.yield %0 : f32
    }
    %u = stride.sum %z axes [1] keepdims : tensor<4099x4xf32> -> tensor<4099x1xf32>
    // expected-remark @below {{stride-explain: row loop: not built: the largest block that divides the 4099 rows takes 16 bytes, under 1/32 of block-bytes}}
    %p = stride.broadcast ins(%z, %u : tensor<4099x4xf32>, tensor<4099x1xf32>) -> tensor<4099x4xf32> {
    ^bb0(%a: f32, %b: f32):
      %0 = arith.divf %a, %b : f32
      stride.yield %0 : f32
    }
    return %r, %q, %p : tensor<512x64xf32>, tensor<512x64xf32>, tensor<4099x4xf32>
  }
}
