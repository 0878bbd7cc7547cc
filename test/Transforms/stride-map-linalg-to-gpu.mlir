// RUN: stride-opt %s --split-input-file --stride-map-linalg-to-gpu --canonicalize --cse | FileCheck %s
// RUN: stride-opt %s --split-input-file --stride-map-linalg-to-gpu="block-size=32 max-blocks=2" --canonicalize | FileCheck %s --check-prefix=SMALL
// RUN: stride-opt %s --split-input-file --stride-map-linalg-to-gpu="register-tile=1 tiled-matmul=false" --canonicalize --cse | FileCheck %s --check-prefix=NOTILE
// RUN: stride-opt %s --split-input-file --stride-map-linalg-to-gpu="tiled-matmul=false" --canonicalize --cse | FileCheck %s --check-prefix=GRID
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
