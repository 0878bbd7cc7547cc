// The cases are written for 256-byte cache blocks; DEFAULT checks the
// default, 512 bytes (128 x 128 f32 blocks).
// RUN: stride-opt %s --stride-block-transposes=tile-bytes=256 --split-input-file | FileCheck %s
// RUN: stride-opt %s '--stride-block-transposes=tile-bytes=256 register-bytes=0' --split-input-file | FileCheck %s --check-prefix=SCALAR
// RUN: stride-opt %s --stride-block-transposes --split-input-file | FileCheck %s --check-prefix=DEFAULT

#id = affine_map<(i, j) -> (i, j)>

// a.T + b: the lhs is contiguous along loop 0, the result along loop 1, so
// both loops are tiled 64 x 64 (f32, 256 bytes) in their original order, and
// each block into 16 x 16 register tiles. The lhs tile is read through a
// transposed view, one contiguous 16-lane row per cache line, and transposed
// in registers by shuffles; 4096 divides evenly, so no scalar tile is left.
// That is the version for rows that start on a cache line (the output's and
// the lhs's first element at a 64-byte boundary, checked at run time); the
// other version splits off the leading columns and rows up to the first
// boundary as scalar edge ops and blocks the rest, whose sizes are dynamic.
// CHECK-LABEL: func.func @transposed_add
// CHECK: memref.extract_aligned_pointer_as_index %{{.*}} : memref<4096x4096xf32> -> index
// CHECK: memref.extract_aligned_pointer_as_index %{{.*}} : memref<4096x4096xf32, strided<[1, 4096]>> -> index
// CHECK: scf.if %{{.*}} {
// DEFAULT-LABEL: func.func @transposed_add
// DEFAULT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c128{{.*}} {
// DEFAULT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c128{{.*}} {
// DEFAULT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c16{{.*}} {
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %c64{{.*}} {
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %c64{{.*}} {
// CHECK: %[[A:.*]] = memref.subview {{.*}}[%[[I]], %[[J]]] [64, 64] {{.*}} to memref<64x64xf32, strided<[1, 4096], offset: ?>>
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %c16{{.*}} {
// CHECK: scf.for %[[S:.*]] = %{{.*}} to %{{.*}} step %c16{{.*}} {
// CHECK: %[[AT:.*]] = memref.subview %[[A]][%[[R]], %[[S]]] [16, 16] {{.*}} to memref<16x16xf32, strided<[1, 4096], offset: ?>>
// CHECK: %[[T:.*]] = memref.transpose %[[AT]] (d0, d1) -> (d1, d0) : {{.*}} to memref<16x16xf32, strided<[4096, 1], offset: ?>>
// CHECK: %[[ROWS:.*]] = vector.transfer_read %[[T]]{{.*}} : memref<16x16xf32, strided<[4096, 1], offset: ?>>, vector<16x16xf32>
// CHECK: vector.extract %[[ROWS]][0] : vector<16xf32> from vector<16x16xf32>
// CHECK: vector.shuffle {{.*}} : vector<16xf32>, vector<16xf32>
// CHECK: %[[B:.*]] = vector.transfer_read {{.*}} : memref<16x16xf32, strided<[4096, 1], offset: ?>>, vector<16x16xf32>
// CHECK: %[[SUM:.*]] = arith.addf %{{.*}}, %[[B]] : vector<16x16xf32>
// CHECK: vector.transfer_write %[[SUM]]
// CHECK-NOT: linalg.generic
// CHECK: } else {
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : memref<4096x?xf32, strided<[4096, 1]>>)
// CHECK: memref.extract_aligned_pointer_as_index
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : memref<?x?xf32, strided<[4096, 1], offset: ?>>)
// CHECK: scf.for {{.*}} step %c64
// CHECK: scf.for {{.*}} step %c64
// CHECK: vector.transfer_write
// CHECK: return
// With register-bytes=0 the cache blocks stay scalar generics.
// SCALAR-LABEL: func.func @transposed_add
// SCALAR: scf.for
// SCALAR: scf.for
// SCALAR-NOT: vector.
// SCALAR: linalg.generic {{.*}} ins({{.*}} : memref<64x64xf32, strided<[1, 4096], offset: ?>>, memref<64x64xf32, strided<[4096, 1], offset: ?>>)
func.func @transposed_add(%a: memref<4096x4096xf32, strided<[1, 4096]>>, %b: memref<4096x4096xf32>, %c: memref<4096x4096xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<4096x4096xf32, strided<[1, 4096]>>, memref<4096x4096xf32>) outs(%c : memref<4096x4096xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// A dynamic loop (a thread's chunk) and a column count that the tiles do
// not divide: f64 blocks of 32 x 32 and register tiles of 8 x 8; the peeled
// main tiles are static and vectorized, the edges stay scalar generics.
// CHECK-LABEL: func.func @dynamic_edges
// CHECK: scf.for {{.*}} step %c32
// CHECK: scf.for {{.*}} step %c32
// CHECK: memref.transpose {{.*}} to memref<8x8xf64, strided<[4096, 1], offset: ?>>
// CHECK: vector.transfer_read {{.*}} : memref<8x8xf64, strided<[4096, 1], offset: ?>>, vector<8x8xf64>
// CHECK: vector.shuffle
// CHECK: %[[DIFF:.*]] = arith.subf {{.*}} : vector<8x8xf64>
// CHECK: vector.transfer_write %[[DIFF]]
// CHECK: linalg.generic {{.*}} ins({{.*}} : memref<8x?xf64, strided<[1, 4096], offset: ?>>, memref<8x?xf64, strided<[100, 1], offset: ?>>)
// CHECK: linalg.generic {{.*}} ins({{.*}} : memref<?x?xf64, strided<[1, 4096], offset: ?>>, memref<?x?xf64, strided<[100, 1], offset: ?>>)
func.func @dynamic_edges(%a: memref<?x100xf64, strided<[1, 4096]>>, %b: memref<?x100xf64, strided<[100, 1]>>, %c: memref<?x100xf64, strided<[100, 1]>>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<?x100xf64, strided<[1, 4096]>>, memref<?x100xf64, strided<[100, 1]>>) outs(%c : memref<?x100xf64, strided<[100, 1]>>) {
  ^bb0(%x: f64, %y: f64, %z: f64):
    %s = arith.subf %x, %y : f64
    linalg.yield %s : f64
  }
  return
}

// -----

#id = affine_map<(n, c, h, w) -> (n, c, h, w)>

// NHWC input, NCHW result: the c and w loops are blocked and vectorized;
// the unit n and h loops of each register tile are dropped, so the tile is
// a 2-D vector read from rank-2 views.
// CHECK-LABEL: func.func @nhwc_to_nchw
// CHECK: memref.subview {{.*}} [1, 16, 1, 16] [1, 1, 1, 1] : {{.*}} to memref<16x16xf32, strided<[1, 64], offset: ?>>
// CHECK: memref.transpose {{.*}} to memref<16x16xf32, strided<[64, 1], offset: ?>>
// CHECK: vector.transfer_read {{.*}} : memref<16x16xf32, strided<[64, 1], offset: ?>>, vector<16x16xf32>
// CHECK: math.exp {{.*}} : vector<16x16xf32>
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @nhwc_to_nchw(%a: memref<2x64x8x64xf32, strided<[32768, 1, 4096, 64]>>, %c: memref<2x64x8x64xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a : memref<2x64x8x64xf32, strided<[32768, 1, 4096, 64]>>) outs(%c : memref<2x64x8x64xf32>) {
  ^bb0(%x: f32, %z: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// A boolean result gets cache blocks but no register tiles: memrefs of i1
// hold a byte per element, while a vector load of i1 would read packed bits.
// CHECK-LABEL: func.func @boolean_result
// CHECK: scf.for {{.*}} step %c64
// CHECK: scf.for {{.*}} step %c64
// CHECK-NOT: vector.transfer_read
// CHECK: linalg.generic {{.*}} outs({{.*}} : memref<64x64xi1, strided<[256, 1], offset: ?>>)
// CHECK-NOT: vector.transfer_read
// CHECK: return
func.func @boolean_result(%a: memref<256x256xf32, strided<[1, 256]>>, %b: memref<256x256xf32>, %c: memref<256x256xi1>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<256x256xf32, strided<[1, 256]>>, memref<256x256xf32>) outs(%c : memref<256x256xi1>) {
  ^bb0(%x: f32, %y: f32, %z: i1):
    %s = arith.cmpf olt, %x, %y : f32
    linalg.yield %s : i1
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// Operands that agree on their contiguous loop are left alone.
// CHECK-LABEL: func.func @same_grain
// CHECK-NOT: scf.for
// CHECK: linalg.generic
func.func @same_grain(%a: memref<4096x4096xf32>, %b: memref<4096x4096xf32>, %c: memref<4096x4096xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<4096x4096xf32>, memref<4096x4096xf32>) outs(%c : memref<4096x4096xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// A column broadcast across the rows (a[:, k][:, None] + b, stride 0 along
// the result's contiguous loop) is read once per row, whatever its own
// grain: left alone, not blocked.
// CHECK-LABEL: func.func @broadcast_column
// CHECK-NOT: scf.for
// CHECK: linalg.generic
func.func @broadcast_column(%col: memref<4096x4096xf32, strided<[4096, 0]>>, %b: memref<4096x4096xf32>, %c: memref<4096x4096xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%col, %b : memref<4096x4096xf32, strided<[4096, 0]>>, memref<4096x4096xf32>) outs(%c : memref<4096x4096xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// Dynamic strides give no grain to compare with: left alone.
// CHECK-LABEL: func.func @dynamic_strides
// CHECK-NOT: scf.for
// CHECK: linalg.generic
func.func @dynamic_strides(%a: memref<4096x4096xf32, strided<[?, ?]>>, %c: memref<4096x4096xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4096x4096xf32, strided<[?, ?]>>) outs(%c : memref<4096x4096xf32>) {
  ^bb0(%x: f32, %z: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// Loops no longer than a cache block (f64: 32 elements) get no cache
// blocks, only 8 x 8 register tiles.
// CHECK-LABEL: func.func @short
// CHECK: scf.for {{.*}} step %c8
// CHECK-NOT: step %c32
// CHECK: vector.transfer_read {{.*}} vector<8x8xf64>
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @short(%a: memref<32x32xf64, strided<[1, 32]>>, %c: memref<32x32xf64>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<32x32xf64, strided<[1, 32]>>) outs(%c : memref<32x32xf64>) {
  ^bb0(%x: f64, %z: f64):
    linalg.yield %x : f64
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// Loops shorter than a register tile are left alone.
// CHECK-LABEL: func.func @tiny
// CHECK-NOT: scf.for
// CHECK: linalg.generic
func.func @tiny(%a: memref<4x4xf64, strided<[1, 4]>>, %c: memref<4x4xf64>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4x4xf64, strided<[1, 4]>>) outs(%c : memref<4x4xf64>) {
  ^bb0(%x: f64, %z: f64):
    linalg.yield %x : f64
  }
  return
}

// -----

// A mirrored operand (a negative stride walked backwards: map 63 - i) is
// left alone: tiling slices every operand as if its indices grew with the
// loop, which would start the mirrored slices past its end (issue 25: the
// kernel of tanh(a.T) * b - exp(c[::-1]) failed to verify after blocking).
#id = affine_map<(i, j) -> (i, j)>
#rev = affine_map<(i, j) -> (63 - i, 0)>
#row = affine_map<(i, j) -> (j)>
// CHECK-LABEL: func.func @mirrored_operand
// CHECK-NOT: scf.for
// CHECK: linalg.generic
// CHECK-NOT: scf.for
// DEFAULT-LABEL: func.func @mirrored_operand
// DEFAULT-NOT: scf.for
func.func @mirrored_operand(%a: memref<64x48xf32, strided<[1, 64]>>,
                            %b: memref<48xf32>,
                            %c: memref<64x1xf32, strided<[1, 1], offset: ?>>,
                            %o: memref<64x48xf32>) {
  linalg.generic {indexing_maps = [#id, #row, #rev, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a, %b, %c : memref<64x48xf32, strided<[1, 64]>>, memref<48xf32>,
                       memref<64x1xf32, strided<[1, 1], offset: ?>>)
      outs(%o : memref<64x48xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %out: f32):
    %t = math.tanh %x : f32
    %m = arith.mulf %t, %y : f32
    %e = math.exp %z : f32
    %s = arith.subf %m, %e : f32
    linalg.yield %s : f32
  }
  return
}
