// RUN: stride-opt %s --split-input-file --stride-map-linalg-to-gpu --canonicalize --cse | FileCheck %s
// RUN: stride-opt %s --split-input-file --stride-map-linalg-to-gpu="block-size=32 max-blocks=2" --canonicalize | FileCheck %s --check-prefix=SMALL
// RUN: stride-opt %s --split-input-file --stride-map-linalg-to-gpu="register-tile=1 tiled-matmul=false" --canonicalize --cse | FileCheck %s --check-prefix=NOTILE
// RUN: stride-opt %s --split-input-file --stride-map-linalg-to-gpu="tiled-matmul=false" --canonicalize --cse | FileCheck %s --check-prefix=GRID
// RUN: stride-opt %s --split-input-file --stride-map-linalg-to-gpu="block-reductions=false" --canonicalize --cse | FileCheck %s --check-prefix=NOTREE
// RUN: not stride-opt %s --split-input-file --stride-map-linalg-to-gpu="register-tile=0" 2>&1 | FileCheck %s --check-prefix=BADTILE
// BADTILE: error: register-tile must be in [1, 16], got 0

// A static elementwise kernel (the demo's exp(a) + bias): 24 points, one
// block of 256 threads (so the block id folds to 0 and the first point is
// threadIdx.x), a grid-stride loop over the linear index, split back
// with the output's stride-1 loop fastest; the broadcast and strided inputs
// are read in place through their views.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @static_elementwise
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG:     %[[C24:.*]] = arith.constant 24 : index
// CHECK:         gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%[[GX:[a-z0-9_]+]] = %[[C1]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]]) threads(%[[TX:[a-z0-9_]+]], %{{.*}}, %{{.*}}) in (%[[BDX:[a-z0-9_]+]] = %[[C256]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]])
// CHECK:           %[[STEP:.*]] = arith.muli %[[GX]], %[[BDX]]
// CHECK:           scf.for %[[I:.*]] = %[[TX]] to %[[C24]] step %[[STEP]]
// CHECK:             %[[IDX:.*]]:3 = affine.delinearize_index %[[I]] into (2, 3, 4)
// CHECK:             %[[A:.*]] = memref.load %arg0[%[[IDX]]#0, %[[IDX]]#1, %[[IDX]]#2]
// CHECK:             %[[B:.*]] = memref.load %arg1[%[[IDX]]#0, %[[IDX]]#1, %[[IDX]]#2]
// CHECK:             %[[E:.*]] = math.exp %[[A]]
// CHECK:             %[[S:.*]] = arith.addf %[[E]], %[[B]]
// CHECK:             memref.store %[[S]], %arg2[%[[IDX]]#0, %[[IDX]]#1, %[[IDX]]#2]
// CHECK:           gpu.terminator
// SMALL-LABEL: func.func @static_elementwise
// SMALL:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1, {{.*}} threads({{.*}}) in (%{{.*}} = %c32,
func.func @static_elementwise(%a: memref<2x3x4xf32, strided<[24, 8, 2], offset: ?>>,
                              %b: memref<2x3x4xf32, strided<[0, 1, 0], offset: ?>>,
                              %out: memref<2x3x4xf32, strided<[12, 4, 1], offset: ?>>) {
  linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %b : memref<2x3x4xf32, strided<[24, 8, 2], offset: ?>>, memref<2x3x4xf32, strided<[0, 1, 0], offset: ?>>)
      outs(%out : memref<2x3x4xf32, strided<[12, 4, 1], offset: ?>>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %e = math.exp %x : f32
    %s = arith.addf %e, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A column-major output: loop d0 has the output's stride 1, so it is the
// fastest index (last in the delinearization) and threadIdx.x walks it.
// 1000 points give 4 blocks of 256 threads; with max-blocks=2 the grid is
// capped and the grid-stride loop covers the rest.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @column_major_output
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         gpu.launch blocks(%[[BX:[a-z0-9_]+]], %{{.*}}, %{{.*}}) in (%[[GX:[a-z0-9_]+]] = %[[C4]], {{.*}} threads(%[[TX:[a-z0-9_]+]], %{{.*}}, %{{.*}}) in (%[[BDX:[a-z0-9_]+]] =
// CHECK:           %[[BASE:.*]] = arith.muli %[[BX]], %[[BDX]]
// CHECK:           %[[FIRST:.*]] = arith.addi %[[BASE]], %[[TX]]
// CHECK:           %[[STEP:.*]] = arith.muli %[[GX]], %[[BDX]]
// CHECK:           scf.for %[[I:.*]] = %[[FIRST]] to %{{.*}} step %[[STEP]]
// CHECK:             %[[IDX:.*]]:2 = affine.delinearize_index %[[I]] into (40, 25)
// CHECK:             memref.store %{{.*}}, %arg1[%[[IDX]]#1, %[[IDX]]#0]
// SMALL-LABEL: func.func @column_major_output
// SMALL:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c2,
func.func @column_major_output(%a: memref<25x40xf32>,
                               %out: memref<25x40xf32, strided<[1, 25]>>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<25x40xf32>) outs(%out : memref<25x40xf32, strided<[1, 25]>>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  }
  return
}

// -----

// Dynamic sizes: the number of points and of blocks is computed at run time
// (at least one block, at most max-blocks), and the loop bound is the run-time
// size; an empty tensor launches one block whose threads do nothing.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @dynamic_sizes
// CHECK:         %[[D0:.*]] = memref.dim %arg0, %c0
// CHECK:         %[[D1:.*]] = memref.dim %arg0, %c1
// CHECK:         %[[N:.*]] = arith.muli %[[D0]], %[[D1]]
// CHECK:         %[[NB:.*]] = arith.ceildivui %[[N]], %c256
// CHECK:         %[[NB1:.*]] = arith.maxui %[[NB]], %c1
// CHECK:         %[[NB2:.*]] = arith.minui %[[NB1]], %c8192
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %[[NB2]],
// CHECK:           scf.for %[[I:.*]] = %{{.*}} to %[[N]] step
// CHECK:             affine.delinearize_index %[[I]] into (%[[D0]], %[[D1]])
func.func @dynamic_sizes(%a: memref<?x?xf64, strided<[?, ?], offset: ?>>,
                         %out: memref<?x?xf64, strided<[?, 1], offset: ?>>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<?x?xf64, strided<[?, ?], offset: ?>>) outs(%out : memref<?x?xf64, strided<[?, 1], offset: ?>>) {
  ^bb0(%x: f64, %o: f64):
    %n = arith.negf %x : f64
    linalg.yield %n : f64
  }
  return
}

// -----

// A batched matmul (loops b, m, k, n; k reduces), n fastest. With
// register-tile=1: one thread per output element, the k loop in the thread
// with the sum in a register, starting from the output's value, stored once.
#lhs = affine_map<(b, m, k, n) -> (b, m, k)>
#rhs = affine_map<(b, m, k, n) -> (b, k, n)>
#res = affine_map<(b, m, k, n) -> (b, m, n)>
// NOTILE-LABEL: func.func @batched_matmul
// NOTILE:         gpu.launch
// NOTILE:           scf.for %[[I:.*]] =
// NOTILE:             %[[IDX:.*]]:3 = affine.delinearize_index %[[I]] into (2, 3, 5)
// NOTILE:             %[[INIT:.*]] = memref.load %arg2[%[[IDX]]#0, %[[IDX]]#1, %[[IDX]]#2]
// NOTILE:             %[[SUM:.*]] = scf.for %[[K:.*]] = %c0 to %c4 step %c1 iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32)
// NOTILE:               %[[L:.*]] = memref.load %arg0[%[[IDX]]#0, %[[IDX]]#1, %[[K]]]
// NOTILE:               %[[R:.*]] = memref.load %arg1[%[[IDX]]#0, %[[K]], %[[IDX]]#2]
// NOTILE:               %[[P:.*]] = arith.mulf %[[L]], %[[R]]
// NOTILE:               %[[NEXT:.*]] = arith.addf %[[ACC]], %[[P]]
// NOTILE:               scf.yield %[[NEXT]]
// NOTILE:             memref.store %[[SUM]], %arg2[%[[IDX]]#0, %[[IDX]]#1, %[[IDX]]#2]
// With tiled-matmul=false and register-tile=4, a thread computes 4 rows m of one column n:
// the m loop has ceil(3/4) = 1 tile, the rhs element at k is loaded once for
// the 4 accumulators, the 4th row (past the end) is clamped to row 2 for
// loads and not stored.
// GRID-LABEL: func.func @batched_matmul
// GRID:           scf.for %[[I:.*]] = %{{.*}} to %c10
// GRID:             %[[IDX:.*]]:2 = affine.delinearize_index %[[I]] into (2, 5)
// GRID:             %[[I0:.*]] = memref.load %arg2[%[[IDX]]#0, %c0, %[[IDX]]#1]
// GRID:             %[[I1:.*]] = memref.load %arg2[%[[IDX]]#0, %c1, %[[IDX]]#1]
// GRID:             %[[I2:.*]] = memref.load %arg2[%[[IDX]]#0, %c2, %[[IDX]]#1]
// GRID:             %[[SUM:.*]]:4 = scf.for %[[K:.*]] = %c0 to %c4 step %c1 iter_args(%[[A0:.*]] = %[[I0]], %[[A1:.*]] = %[[I1]], %[[A2:.*]] = %[[I2]], %[[A3:.*]] = %[[I2]]) -> (f32, f32, f32, f32)
// GRID:               %[[R:.*]] = memref.load %arg1[%[[IDX]]#0, %[[K]], %[[IDX]]#1]
// GRID:               %[[L0:.*]] = memref.load %arg0[%[[IDX]]#0, %c0, %[[K]]]
// GRID:               arith.mulf %[[L0]], %[[R]]
// GRID:               %[[L1:.*]] = memref.load %arg0[%[[IDX]]#0, %c1, %[[K]]]
// GRID:               arith.mulf %[[L1]], %[[R]]
// GRID:               scf.yield
// GRID:             memref.store %[[SUM]]#0, %arg2[%[[IDX]]#0, %c0, %[[IDX]]#1]
// GRID:             memref.store %[[SUM]]#1, %arg2[%[[IDX]]#0, %c1, %[[IDX]]#1]
// GRID:             memref.store %[[SUM]]#2, %arg2[%[[IDX]]#0, %c2, %[[IDX]]#1]
// GRID-NOT:         memref.store
// GRID:             gpu.terminator
// By default the batched matmul is the tiled shared-memory kernel. M = 3,
// N = 5 and K = 4 are static and small, so the tile shrinks to 3 x 5
// threads of one output each and BK = 4: one block per batch (2), A (k has
// stride 1) staged k-fastest into a 4 x (3 + 1) tile, B (n has stride 1)
// n-fastest into a 4 x 5 tile; the batch index of A is read through its
// stride-0 view. The accumulator starts from C's value, and C is stored
// back under the edge guard.
// CHECK-LABEL: func.func @batched_matmul
// CHECK:         gpu.launch blocks(%[[BX:[a-z0-9_]+]], %{{.*}}, %{{.*}}) in (%[[GX:[a-z0-9_]+]] = %c2, %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[TX:[a-z0-9_]+]], %[[TY:[a-z0-9_]+]], %{{.*}}) in (%{{.*}} = %c5, %{{.*}} = %c3, %{{.*}} = %c1)
// CHECK-SAME:      workgroup(%[[SA:.*]] : memref<4x4xf32, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<4x5xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME:      private(%[[ACC:.*]] : memref<1x1xf32, #gpu.address_space<private>>)
// CHECK:           scf.for %[[T:.*]] = %[[BX]] to %c2 step %[[GX]]
// CHECK:             %[[INSIDE:.*]] = arith.andi
// CHECK:             %[[INIT:.*]] = scf.if %[[INSIDE]] -> (f32)
// CHECK:               memref.load %arg2[%[[T]], %[[TY]], %[[TX]]]
// CHECK:             memref.store %[[INIT]], %[[ACC]][%c0, %c0]
// CHECK:             memref.load %arg0[%[[T]], %{{.*}}, %{{.*}}] : memref<2x3x4xf32, strided<[0, 4, 1], offset: ?>>
// CHECK:             memref.store %{{.*}}, %[[SA]]
// CHECK:             memref.load %arg1[%[[T]], %{{.*}}, %{{.*}}] : memref<2x4x5xf32>
// CHECK:             memref.store %{{.*}}, %[[SB]]
// CHECK:             gpu.barrier
// CHECK:             %[[A0:.*]] = memref.load %[[ACC]][%c0, %c0]
// CHECK:             %[[SUM:.*]] = scf.for %[[KK:.*]] = %c0 to %c4 step %c1 iter_args(%[[S:.*]] = %[[A0]]) -> (f32)
// CHECK:               %[[X:.*]] = memref.load %[[SA]][%[[KK]], %[[TY]]]
// CHECK:               %[[Y:.*]] = memref.load %[[SB]][%[[KK]], %[[TX]]]
// CHECK:               %[[P:.*]] = arith.mulf %[[X]], %[[Y]]
// CHECK:               arith.addf %[[S]], %[[P]]
// CHECK:             memref.store %[[SUM]], %[[ACC]][%c0, %c0]
// CHECK:             gpu.barrier
// CHECK:             scf.if %[[INSIDE]]
// CHECK:               %[[R:.*]] = memref.load %[[ACC]][%c0, %c0]
// CHECK:               memref.store %[[R]], %arg2[%[[T]], %[[TY]], %[[TX]]]
func.func @batched_matmul(%a: memref<2x3x4xf32, strided<[0, 4, 1], offset: ?>>,
                          %b: memref<2x4x5xf32>, %c: memref<2x3x5xf32>) {
  linalg.generic {indexing_maps = [#lhs, #rhs, #res], iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<2x3x4xf32, strided<[0, 4, 1], offset: ?>>, memref<2x4x5xf32>) outs(%c : memref<2x3x5xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// linalg.index in the payload reads the loop indices of the point.
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @uses_index
// CHECK:           scf.for %[[I:.*]] =
// CHECK:             %[[V:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK:             memref.store %[[V]], %arg0[%[[I]]]
func.func @uses_index(%out: memref<7xi64>) {
  linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%out : memref<7xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i64
    linalg.yield %v : i64
  }
  return
}

// -----

// Dynamic sizes and strides, f32: the full tile (16 x 16 threads, 4 x 4
// outputs each, BK = 16). The grid is the number of 64 x 64 tiles, at most
// max-blocks; blocks walk the tiles (grid-stride) and split each tile index
// into its tile row and column. A is staged k-fastest (its strides are
// unknown: row-major assumed), so its tile rows are padded to 65; B is
// staged n-fastest. Edge guards on every load and store, two barriers per
// K step, and the short last step in its own branch.
#a2 = affine_map<(m, k, n) -> (m, k)>
#b2 = affine_map<(m, k, n) -> (k, n)>
#c2 = affine_map<(m, k, n) -> (m, n)>
// CHECK-LABEL: func.func @dynamic_matmul
// CHECK-DAG:     %[[M:.*]] = memref.dim %arg0, %c0
// CHECK-DAG:     %[[K:.*]] = memref.dim %arg0, %c1
// CHECK-DAG:     %[[N:.*]] = memref.dim %arg1, %c1
// CHECK:         %[[TM:.*]] = arith.ceildivui %[[M]], %c64
// CHECK:         %[[TN:.*]] = arith.ceildivui %[[N]], %c64
// CHECK:         %[[TILES:.*]] = arith.muli %[[TM]], %[[TN]]
// CHECK:         %[[NB:.*]] = arith.maxui %[[TILES]], %c1
// CHECK:         %[[CAP:.*]] = arith.minui %[[NB]], %c8192
// CHECK:         gpu.launch blocks(%[[BX:[a-z0-9_]+]], %{{.*}}, %{{.*}}) in (%[[GX:[a-z0-9_]+]] = %[[CAP]], %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[TX:[a-z0-9_]+]], %[[TY:[a-z0-9_]+]], %{{.*}}) in (%{{.*}} = %c16, %{{.*}} = %c16, %{{.*}} = %c1)
// CHECK-SAME:      workgroup(%[[SA:.*]] : memref<16x65xf32, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<16x64xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME:      private(%[[ACC:.*]] : memref<4x4xf32, #gpu.address_space<private>>)
// CHECK:           scf.for %[[T:.*]] = %[[BX]] to %[[TILES]] step %[[GX]]
// CHECK:             %[[TILE:.*]]:2 = affine.delinearize_index %[[T]] into (%[[TM]], %[[TN]])
// CHECK:             %[[ROW0:.*]] = arith.muli %[[TILE]]#0, %c64
// CHECK:             %[[COL0:.*]] = arith.muli %[[TILE]]#1, %c64
// CHECK:             memref.store %{{.*}}, %[[ACC]][%c3, %c3]
// CHECK:             scf.for %[[K0:.*]] = %c0 to %[[K]] step %c16
// CHECK:               %[[LIN:.*]] = arith.addi %{{.*}}, %[[TX]]
// CHECK:               %[[RA:.*]] = arith.divui %[[LIN]], %c16
// CHECK:               %[[KA:.*]] = arith.remui %[[LIN]], %c16
// CHECK:               %[[GR:.*]] = arith.addi %[[ROW0]], %[[RA]]
// CHECK:               %[[GK:.*]] = arith.addi %[[K0]], %[[KA]]
// CHECK-DAG:               %[[KIN:.*]] = arith.cmpi ult, %[[GK]], %[[K]]
// CHECK-DAG:               %[[RIN:.*]] = arith.cmpi ult, %[[GR]], %[[M]]
// CHECK:               %[[IN:.*]] = arith.andi %[[RIN]], %[[KIN]]
// CHECK:               %[[V:.*]] = scf.if %[[IN]] -> (f32)
// CHECK:                 memref.load %arg0[%[[GR]], %[[GK]]]
// CHECK:               } else {
// CHECK:                 scf.yield %cst
// CHECK:               memref.store %[[V]], %[[SA]][%[[KA]], %[[RA]]]
// CHECK:               memref.store %{{.*}}, %[[SB]]
// CHECK:               gpu.barrier
// CHECK:               %[[LEFT:.*]] = arith.subi %[[K]], %[[K0]]
// CHECK:               %[[FULL:.*]] = arith.cmpi uge, %[[LEFT]], %c16
// CHECK:               scf.if %[[FULL]] {
// CHECK:                 scf.for %{{.*}} = %c0 to %c16 step %c1 iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK:               } else {
// CHECK:                 scf.for %{{.*}} = %c0 to %[[LEFT]] step %c1 iter_args(
// CHECK:               gpu.barrier
// CHECK-COUNT-16:    memref.store %{{.*}}, %arg2[
func.func @dynamic_matmul(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>,
                          %b: memref<?x?xf32, strided<[?, ?], offset: ?>>,
                          %c: memref<?x?xf32, strided<[?, 1], offset: ?>>) {
  linalg.generic {indexing_maps = [#a2, #b2, #c2], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>)
      outs(%c : memref<?x?xf32, strided<[?, 1], offset: ?>>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// f64 with a transposed A (m has stride 1): BK = 8 (same bytes per tile as
// f32), A staged m-fastest so its loads coalesce and its tile is unpadded;
// 100 = 64 + 36 rows need two tile rows and guards; K = 32 is a multiple of
// 8, so every step is full (no short-step branch).
#a2 = affine_map<(m, k, n) -> (m, k)>
#b2 = affine_map<(m, k, n) -> (k, n)>
#c2 = affine_map<(m, k, n) -> (m, n)>
// CHECK-LABEL: func.func @transposed_f64
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c4, {{.*}} threads({{.*}}) in (%{{.*}} = %c16, %{{.*}} = %c16, %{{.*}} = %c1)
// CHECK-SAME:      workgroup(%[[SA:.*]] : memref<8x64xf64, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<8x64xf64, #gpu.address_space<workgroup>>)
// CHECK-SAME:      private(%{{.*}} : memref<4x4xf64, #gpu.address_space<private>>)
// CHECK:           scf.for %[[K0:.*]] = %c0 to %c32 step %c8
// CHECK:             %[[KA:.*]] = arith.divui %[[LIN:.*]], %c64
// CHECK:             %[[RA:.*]] = arith.remui %[[LIN]], %c64
// CHECK:             memref.load %arg0[%{{.*}}, %{{.*}}] : memref<100x32xf64, strided<[1, 100]>>
// CHECK:             memref.store %{{.*}}, %[[SA]][%[[KA]], %[[RA]]]
// CHECK:             gpu.barrier
// CHECK-NOT:         arith.cmpi uge
// CHECK:             scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args
// CHECK:             gpu.barrier
func.func @transposed_f64(%a: memref<100x32xf64, strided<[1, 100]>>,
                          %b: memref<32x80xf64>, %c: memref<100x80xf64>) {
  linalg.generic {indexing_maps = [#a2, #b2, #c2], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<100x32xf64, strided<[1, 100]>>, memref<32x80xf64>)
      outs(%c : memref<100x80xf64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %p = arith.mulf %x, %y : f64
    %s = arith.addf %acc, %p : f64
    linalg.yield %s : f64
  }
  return
}

// -----

// A matrix-vector product has no n loop in B: not a tiled matmul, it keeps
// the grid-stride kernel (no shared memory, no barrier).
#a2 = affine_map<(m, k) -> (m, k)>
#b1 = affine_map<(m, k) -> (k)>
#c1 = affine_map<(m, k) -> (m)>
// CHECK-LABEL: func.func @matvec_keeps_grid_stride
// CHECK:         gpu.launch
// CHECK-NOT:       workgroup
// CHECK-NOT:       gpu.barrier
// CHECK:           scf.for %{{.*}} = %c0 to %c7 step %c1 iter_args
// CHECK:         gpu.terminator
func.func @matvec_keeps_grid_stride(%a: memref<9x7xf32>, %b: memref<7xf32>, %c: memref<9xf32>) {
  linalg.generic {indexing_maps = [#a2, #b1, #c1], iterator_types = ["parallel", "reduction"]}
      ins(%a, %b : memref<9x7xf32>, memref<7xf32>) outs(%c : memref<9xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Row sums of a row-major 8x1000 array: the input is densest along the
// reduced loop, so blocks take the rows (8 tasks, one chunk each: 1000
// points give each of 256 threads fewer than 16) and a block's threads
// stride along the row from the combiner's identity; gpu.all_reduce combines
// them and thread 0 adds the result to the output's initial value.
#rows_in = affine_map<(i, j) -> (i, j)>
#rows_out = affine_map<(i, j) -> (i)>
// CHECK-LABEL: func.func @row_sums_block_tree
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%[[GX:.*]] = %c8, %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%[[BS:.*]] = %c256
// CHECK:           scf.for %[[ROW:.*]] = %[[BX]] to %c8 step %[[GX]] {
// CHECK:             %[[PART:.*]] = scf.for %[[J:.*]] = %[[TX]] to %c1000 step %[[BS]] iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK:               %[[X:.*]] = memref.load %arg0[%[[ROW]], %[[J]]]
// CHECK:               %[[NEXT:.*]] = arith.addf %[[ACC]], %[[X]]
// CHECK:               scf.yield %[[NEXT]]
// CHECK:             %[[ALL:.*]] = gpu.all_reduce add %[[PART]] uniform
// CHECK:             scf.if
// CHECK:               %[[OLD:.*]] = memref.load %arg1[%[[ROW]]]
// CHECK:               %[[NEW:.*]] = arith.addf %[[OLD]], %[[ALL]]
// CHECK:               memref.store %[[NEW]], %arg1[%[[ROW]]]
// CHECK:             gpu.barrier
// CHECK-NOT:     gpu.launch
// CHECK:         return
// With block-reductions=false the thread-per-row loop stays.
// NOTREE-LABEL: func.func @row_sums_block_tree
// NOTREE-NOT:     gpu.all_reduce
// NOTREE:         scf.for %{{.*}} = %c0 to %c1000 step %c1 iter_args
func.func @row_sums_block_tree(%x: memref<8x1000xf32>, %out: memref<8xf32>) {
  linalg.generic {indexing_maps = [#rows_in, #rows_out], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x1000xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A full sum of a dynamic vector: one output, so its points are split into
// chunks (as many as fill 1024 tasks with at least 16 points per thread),
// the first launch writes each chunk's sum to a partial buffer, the second
// combines the chunks of each output into it; the buffer is freed after.
#full_in = affine_map<(i) -> (i)>
#full_out = affine_map<(i) -> ()>
// CHECK-LABEL: func.func @full_sum_two_launches
// CHECK:         %[[N:.*]] = memref.dim %arg0, %c0
// CHECK:         %[[USEFUL:.*]] = arith.ceildivui %[[N]], %c4096
// CHECK:         %[[FEW:.*]] = arith.minui %[[USEFUL]], %c1024
// CHECK:         %[[CHUNKS:.*]] = arith.maxui %[[FEW]], %c1
// CHECK:         %[[PARTIAL:.*]] = memref.alloc(%[[CHUNKS]]) : memref<?xf64>
// CHECK:         gpu.launch
// CHECK:           %[[LEN:.*]] = arith.ceildivui %[[N]], %[[CHUNKS]]
// CHECK:           gpu.all_reduce add
// CHECK:           memref.store %{{.*}}, %[[PARTIAL]][
// CHECK:           gpu.barrier
// CHECK:         gpu.launch
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[CHUNKS]] step
// CHECK:             memref.load %[[PARTIAL]][
// CHECK:           gpu.all_reduce add
// CHECK:           memref.load %arg1[]
// CHECK:           memref.store %{{.*}}, %arg1[]
// CHECK:         memref.dealloc %[[PARTIAL]]
func.func @full_sum_two_launches(%x: memref<?xf64>, %out: memref<f64>) {
  linalg.generic {indexing_maps = [#full_in, #full_out], iterator_types = ["reduction"]}
      ins(%x : memref<?xf64>) outs(%out : memref<f64>) {
  ^bb0(%v: f64, %acc: f64):
    %s = arith.addf %acc, %v : f64
    linalg.yield %s : f64
  }
  return
}

// -----

// Column sums of a row-major 64x2048 array: the input is densest along the
// output's loop and there are 2048 outputs, so a thread per column reads
// coalesced rows; no tree.
#cols_in = affine_map<(j, i) -> (i, j)>
#cols_out = affine_map<(j, i) -> (j)>
// CHECK-LABEL: func.func @column_sums_keep_threads
// CHECK-NOT:     gpu.all_reduce
// CHECK:         scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args
// CHECK:         return
func.func @column_sums_keep_threads(%x: memref<64x2048xf32>, %out: memref<2048xf32>) {
  linalg.generic {indexing_maps = [#cols_in, #cols_out], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x2048xf32>) outs(%out : memref<2048xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// An i8 maximum over the last dim: the partials are exchanged as i32,
// sign-extended for the signed order, and truncated back.
#max_in = affine_map<(i, j) -> (i, j)>
#max_out = affine_map<(i, j) -> (i)>
// CHECK-LABEL: func.func @i8_max_widened
// CHECK-DAG:     %[[MIN:.*]] = arith.constant -128 : i8
// CHECK:         scf.for %{{.*}} iter_args(%{{.*}} = %[[MIN]]) -> (i8)
// CHECK:           arith.maxsi
// CHECK:         %[[WIDE:.*]] = arith.extsi %{{.*}} : i8 to i32
// CHECK:         %[[ALL:.*]] = gpu.all_reduce maxsi %[[WIDE]] uniform
// CHECK:         arith.trunci %[[ALL]] : i32 to i8
func.func @i8_max_widened(%x: memref<3x500xi8>, %out: memref<3xi8>) {
  linalg.generic {indexing_maps = [#max_in, #max_out], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<3x500xi8>) outs(%out : memref<3xi8>) {
  ^bb0(%v: i8, %acc: i8):
    %m = arith.maxsi %acc, %v : i8
    linalg.yield %m : i8
  }
  return
}

// -----

// An argmax-like payload (two outputs combined by selects) is not a
// single-op combiner: it keeps the thread-per-output loop.
#am_in = affine_map<(i, j) -> (i, j)>
#am_out = affine_map<(i, j) -> (i)>
// CHECK-LABEL: func.func @pair_payload_keeps_threads
// CHECK-NOT:     gpu.all_reduce
// CHECK:         return
func.func @pair_payload_keeps_threads(%x: memref<3x500xf32>, %v: memref<3xf32>, %i: memref<3xi64>) {
  linalg.generic {indexing_maps = [#am_in, #am_out, #am_out], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<3x500xf32>) outs(%v, %i : memref<3xf32>, memref<3xi64>) {
  ^bb0(%a: f32, %best: f32, %at: i64):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i64
    %gt = arith.cmpf ogt, %a, %best : f32
    %nv = arith.select %gt, %a, %best : f32
    %ni = arith.select %gt, %jj, %at : i64
    linalg.yield %nv, %ni : f32, i64
  }
  return
}

// -----

// The same pair marked by stride-bufferize as an argmax
// (`stride.arg_reduce = "max"`, the payload comparing indices): a block tree
// of two all-reduces, the maximum value, then the smallest index among the
// threads holding it (a NaN matching a NaN maximum), the thread's pair kept
// in private memory across the first; thread 0 merges the block's pair into
// the output's by the same rule.
#am_in = affine_map<(i, j) -> (i, j)>
#am_out = affine_map<(i, j) -> (i)>
// CHECK-LABEL: func.func @argmax_block_tree
// CHECK:         gpu.launch
// CHECK-SAME:      private(%[[PV:.*]] : memref<1xf32, #gpu.address_space<private>>, %[[PI:.*]] : memref<1xi64, #gpu.address_space<private>>)
// CHECK:           %[[PAIR:.*]]:2 = scf.for {{.*}} -> (f32, i64)
// CHECK:           memref.store %[[PAIR]]#0, %[[PV]]
// CHECK:           memref.store %[[PAIR]]#1, %[[PI]]
// CHECK:           %[[BEST:.*]] = gpu.all_reduce maximumf %[[PAIR]]#0 uniform
// CHECK:           %[[V:.*]] = memref.load %[[PV]]
// CHECK:           %[[I:.*]] = memref.load %[[PI]]
// CHECK:           arith.cmpf oeq, %[[V]], %[[BEST]]
// CHECK:           %[[CAND:.*]] = arith.select %{{.*}}, %[[I]], %c9223372036854775807_i64
// CHECK:           gpu.all_reduce minsi %[[CAND]] uniform
func.func @argmax_block_tree(%x: memref<3x500xf32>, %v: memref<3xf32>, %i: memref<3xi64>) {
  linalg.generic {indexing_maps = [#am_in, #am_out, #am_out], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<3x500xf32>) outs(%v, %i : memref<3xf32>, memref<3xi64>)
      attrs = {stride.arg_reduce = "max"} {
  ^bb0(%a: f32, %best: f32, %at: i64):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i64
    %gt = arith.cmpf ogt, %a, %best : f32
    %eq = arith.cmpf oeq, %a, %best : f32
    %lt = arith.cmpi slt, %jj, %at : i64
    %tie = arith.andi %eq, %lt : i1
    %take = arith.ori %gt, %tie : i1
    %nv = arith.select %take, %a, %best : f32
    %ni = arith.select %take, %jj, %at : i64
    linalg.yield %nv, %ni : f32, i64
  }
  return
}
