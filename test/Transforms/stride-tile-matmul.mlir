// RUN: stride-opt %s --stride-tile-matmul --split-input-file | FileCheck %s

#mk = affine_map<(m, k, n) -> (m, k)>
#kn = affine_map<(m, k, n) -> (k, n)>
#mn = affine_map<(m, k, n) -> (m, n)>

// A 2-D product with remainders: the register tile's accumulator is read
// once before its k loop, updated by FMAs carried through iter_args, written
// once after; the peeled edges stay scalar generics.
// CHECK-LABEL: func.func @sgemm
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[ACC:.*]] = vector.transfer_read {{.*}} : memref<8x32xf32, {{.*}}>, vector<8x32xf32>
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[ITER:.*]] = %[[ACC]]) -> (vector<8x32xf32>)
// CHECK: vector.fma {{.*}} : vector<32xf32>
// CHECK: vector.transfer_write %[[SUM]]
// CHECK: linalg.generic
// CHECK-NOT: vector.contract
func.func @sgemm(%a: memref<100x300xf32>, %b: memref<300x70xf32>, %c: memref<100x70xf32>) {
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<100x300xf32>, memref<300x70xf32>) outs(%c : memref<100x70xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#bmk = affine_map<(b, m, k, n) -> (b, m, k)>
#bkn = affine_map<(b, m, k, n) -> (b, k, n)>
#bmn = affine_map<(b, m, k, n) -> (b, m, n)>

// Small static batched products with a broadcast rhs batch: one fully
// vectorized 8x8 tile per batch (f64: 8 lanes), no scalar remainder.
// CHECK-LABEL: func.func @small_batched
// CHECK: scf.for
// CHECK: vector.fma {{.*}} : vector<8xf64>
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @small_batched(%a: memref<64x8x8xf64>, %b: memref<64x8x8xf64, strided<[0, 8, 1]>>, %c: memref<64x8x8xf64>) {
  linalg.generic {indexing_maps = [#bmk, #bkn, #bmn], iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<64x8x8xf64>, memref<64x8x8xf64, strided<[0, 8, 1]>>) outs(%c : memref<64x8x8xf64>) {
  ^bb0(%x: f64, %y: f64, %z: f64):
    %p = arith.mulf %x, %y : f64
    %s = arith.addf %z, %p : f64
    linalg.yield %s : f64
  }
  return
}

// -----

#mk = affine_map<(m, k, n) -> (m, k)>
#kn = affine_map<(m, k, n) -> (k, n)>
#mn = affine_map<(m, k, n) -> (m, n)>

// Integer products are left alone (no FMA micro-kernel for them).
// CHECK-LABEL: func.func @integer
// CHECK-NOT: scf.for
// CHECK: linalg.generic
func.func @integer(%a: memref<100x300xi32>, %b: memref<300x70xi32>, %c: memref<100x70xi32>) {
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<100x300xi32>, memref<300x70xi32>) outs(%c : memref<100x70xi32>) {
  ^bb0(%x: i32, %y: i32, %z: i32):
    %p = arith.muli %x, %y : i32
    %s = arith.addi %z, %p : i32
    linalg.yield %s : i32
  }
  return
}
