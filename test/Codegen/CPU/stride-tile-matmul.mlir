// RUN: stride-opt %s --stride-tile-matmul --split-input-file | FileCheck %s

#mk = affine_map<(m, k, n) -> (m, k)>
#kn = affine_map<(m, k, n) -> (k, n)>
#mn = affine_map<(m, k, n) -> (m, n)>

// A 2-D product with remainders: the register tile's accumulator is read
// once before its k loop, updated by FMAs carried through iter_args, written
// once after. The cache blocks of the static dims are peeled too (m: 64 +
// 36 rows), so every edge tile has a static size and is vectorized: the
// last 6 columns (70 = 2 x 32 + 6) as vector<6xf32> FMAs, the last 4 rows
// with the full width. No scalar generic is left.
// CHECK-LABEL: func.func @sgemm
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[ACC:.*]] = vector.transfer_read {{.*}} : memref<8x32xf32, {{.*}}>, vector<8x32xf32>
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[ITER:.*]] = %[[ACC]]) -> (vector<8x32xf32>)
// CHECK: vector.fma {{.*}} : vector<32xf32>
// CHECK: vector.transfer_write %[[SUM]]
// CHECK: vector.fma {{.*}} : vector<6xf32>
// CHECK: vector.transfer_read {{.*}} : memref<4x32xf32, {{.*}}>, vector<4x32xf32>
// CHECK-NOT: linalg.generic
// CHECK-NOT: vector.contract
// CHECK-LABEL: func.func @small_batched
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

// -----

#mk = affine_map<(m, k, n) -> (m, k)>
#kn = affine_map<(m, k, n) -> (k, n)>
#mn = affine_map<(m, k, n) -> (m, n)>

// A matrix-vector product A @ x over a row-major A is read in blocks of 8
// rows whose dot products advance together: one k loop carries the 8 sums
// (loaded before, stored after) and may reassociate them, so LLVM
// vectorizes it with 8 vector partial sums and loads x once per block. The
// 3 rows left over (403 = 50 * 8 + 3) are a static block of their own.
// CHECK-LABEL: func.func @matvec_rows
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C8:.*]] {
// CHECK-COUNT-8: memref.load %{{.*}} : memref<8x1xf64
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (f64, f64, f64, f64, f64, f64, f64, f64)
// CHECK: arith.mulf {{.*}} fastmath<reassoc,contract> : f64
// CHECK: arith.addf {{.*}} fastmath<reassoc,contract> : f64
// CHECK: scf.yield
// CHECK-COUNT-8: memref.store
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (f64, f64, f64) {
// CHECK-NOT: linalg.generic
// CHECK-NOT: vector.
func.func @matvec_rows(%a: memref<403x500xf64>, %x: memref<500x1xf64>, %c: memref<403x1xf64>) {
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %x : memref<403x500xf64>, memref<500x1xf64>) outs(%c : memref<403x1xf64>) {
  ^bb0(%p: f64, %q: f64, %r: f64):
    %m = arith.mulf %p, %q : f64
    %s = arith.addf %r, %m : f64
    linalg.yield %s : f64
  }
  return
}

// -----

#bmk = affine_map<(b, m, k, n) -> (b, m, k)>
#kn = affine_map<(b, m, k, n) -> (k, n)>
#bmn = affine_map<(b, m, k, n) -> (b, m, n)>

// A stack of matrices times one vector (`X @ v`): the vector has no batch
// dim, so the stack's loop b is a second m loop. The one last in the
// output (m) takes the row blocks of A @ x and b is a batch loop, tiled by 1.
// CHECK-LABEL: func.func @stack_matvec_rows
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (f64, f64, f64, f64, f64, f64, f64, f64)
// CHECK: return
func.func @stack_matvec_rows(%a: memref<6x64x300xf64>, %x: memref<300x1xf64>, %c: memref<6x64x1xf64>) {
  linalg.generic {indexing_maps = [#bmk, #kn, #bmn], iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
      ins(%a, %x : memref<6x64x300xf64>, memref<300x1xf64>) outs(%c : memref<6x64x1xf64>) {
  ^bb0(%p: f64, %q: f64, %r: f64):
    %m = arith.mulf %p, %q : f64
    %s = arith.addf %r, %m : f64
    linalg.yield %s : f64
  }
  return
}

// -----

#mk = affine_map<(m, k, n) -> (m, k)>
#kn = affine_map<(m, k, n) -> (k, n)>
#mn = affine_map<(m, k, n) -> (m, n)>

// With a run-time row count (a thread's chunk), the whole blocks are
// unrolled as above and the rows left over stay one reordered generic (k
// innermost, reassociable), one dot product at a time.
// CHECK-LABEL: func.func @matvec_dynamic_rows
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: memref<?x300xf32
// CHECK: arith.addf {{.*}} fastmath<reassoc,contract> : f32
func.func @matvec_dynamic_rows(%a: memref<?x300xf32>, %x: memref<300x1xf32>, %c: memref<?x1xf32>) {
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %x : memref<?x300xf32>, memref<300x1xf32>) outs(%c : memref<?x1xf32>) {
  ^bb0(%p: f32, %q: f32, %r: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %r, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#mk = affine_map<(m, k, n) -> (m, k)>
#kn = affine_map<(m, k, n) -> (k, n)>
#mn = affine_map<(m, k, n) -> (m, n)>

// y @ A over a row-major A: blocks of 8 rows of A outermost, then
// register blocks of 32 f32 outputs, each loaded once, given one FMA per
// row of the block (a broadcast of y[k] times row k) and stored once. Each
// output element still sums in k order. The 20 outputs past the last
// register block are one static block of their own.
// CHECK-LABEL: func.func @vecmat_rows
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %[[C8:.*]] {
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C32:.*]] {
// CHECK: %[[Y:.*]] = vector.load %{{.*}} : memref<8xf32, {{.*}}>, vector<8xf32>
// CHECK: %[[A:.*]] = vector.transfer_read %{{.*}} : memref<8x32xf32, strided<[500, 1], offset: ?>>, vector<8x32xf32>
// CHECK: %[[ACC:.*]] = vector.load %[[OUT:.*]][%{{.*}}] : memref<32xf32, {{.*}}>, vector<32xf32>
// CHECK: %[[Y0:.*]] = vector.extract %[[Y]][0] : f32 from vector<8xf32>
// CHECK: %[[B0:.*]] = vector.broadcast %[[Y0]] : f32 to vector<32xf32>
// CHECK: %[[R0:.*]] = vector.extract %[[A]][0] : vector<32xf32> from vector<8x32xf32>
// CHECK: %[[F0:.*]] = vector.fma %[[B0]], %[[R0]], %[[ACC]] : vector<32xf32>
// CHECK-COUNT-7: vector.fma
// CHECK: vector.store %{{.*}}, %[[OUT]]
// CHECK: vector<8x20xf32>
// CHECK-COUNT-8: vector.fma {{.*}} : vector<20xf32>
// CHECK: return
func.func @vecmat_rows(%y: memref<1x400xf32>, %a: memref<400x500xf32>, %c: memref<1x500xf32>) {
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%y, %a : memref<1x400xf32>, memref<400x500xf32>) outs(%c : memref<1x500xf32>) {
  ^bb0(%p: f32, %q: f32, %r: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %r, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>

// A.T @ x: the matrix is a transposed view whose map lists the output loop
// first. It is read through memref.transpose as A's own rows, so the same
// blocks apply: 8 rows of A by 16 f64 outputs.
// CHECK-LABEL: func.func @transposed_matvec
// (The two transposes fold into A itself.)
// CHECK: memref.transpose %{{.*}} : memref<400x500xf64> to memref<400x500xf64, strided<[500, 1]>>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: vector.transfer_read %{{.*}} : memref<8x16xf64, strided<[500, 1], offset: ?>>, vector<8x16xf64>
// CHECK-COUNT-8: vector.fma {{.*}} : vector<16xf64>
// CHECK: return
func.func @transposed_matvec(%a: memref<400x500xf64>, %x: memref<400x1xf64>, %c: memref<500x1xf64>) {
  %t = memref.transpose %a (i, j) -> (j, i) : memref<400x500xf64> to memref<500x400xf64, strided<[1, 500]>>
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%t, %x : memref<500x400xf64, strided<[1, 500]>>, memref<400x1xf64>) outs(%c : memref<500x1xf64>) {
  ^bb0(%p: f64, %q: f64, %r: f64):
    %m = arith.mulf %p, %q : f64
    %s = arith.addf %r, %m : f64
    linalg.yield %s : f64
  }
  return
}

// -----

#scalar = affine_map<(m, k) -> ()>
#rowk = affine_map<(m, k) -> (m, k)>
#vk = affine_map<(m, k) -> (k)>
#vm = affine_map<(m, k) -> (m)>

// A plain sum of an elementwise expression along a contiguous last loop
// (stride-fuse's map_reduce of alpha * A @ x) is blocked by rows as A @ x
// is: 8 sums carried by one k loop, the scalar read as it is. Only the sum
// and the product feeding it may reassociate or contract; the expression's
// own multiply keeps its rounding.
// CHECK-LABEL: func.func @fused_matrix_vector
// CHECK: scf.for %{{.*}} step %{{.*}} {
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (f64, f64, f64, f64, f64, f64, f64, f64)
// CHECK: %[[S:.*]] = arith.mulf %{{.*}}, %{{.*}} : f64
// CHECK: %[[P:.*]] = arith.mulf %[[S]], %{{.*}} fastmath<contract> : f64
// CHECK: arith.addf %{{.*}}, %[[P]] fastmath<reassoc,contract> : f64
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (f64, f64) {
// CHECK-NOT: linalg.generic
func.func @fused_matrix_vector(%alpha: f64, %a: memref<42x300xf64>, %x: memref<300xf64>, %y: memref<42xf64>) {
  linalg.generic {indexing_maps = [#scalar, #rowk, #vk, #vm], iterator_types = ["parallel", "reduction"]}
      ins(%alpha, %a, %x : f64, memref<42x300xf64>, memref<300xf64>) outs(%y : memref<42xf64>) {
  ^bb0(%s: f64, %p: f64, %q: f64, %r: f64):
    %t = arith.mulf %s, %p : f64
    %m = arith.mulf %t, %q : f64
    %u = arith.addf %r, %m : f64
    linalg.yield %u : f64
  }
  return
}

// -----

#rowk = affine_map<(m, k) -> (m, k)>
#vm = affine_map<(m, k) -> (m)>

// A plain sum whose reduced loop is not contiguous in any input (a column
// sum read through a transposed view) is left as it is.
// CHECK-LABEL: func.func @strided_sum_untouched
// CHECK-NOT: scf.for
// CHECK: linalg.generic
func.func @strided_sum_untouched(%a: memref<42x300xf64, strided<[1, 42]>>, %y: memref<42xf64>) {
  linalg.generic {indexing_maps = [#rowk, #vm], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<42x300xf64, strided<[1, 42]>>) outs(%y : memref<42xf64>) {
  ^bb0(%p: f64, %r: f64):
    %u = arith.addf %r, %p : f64
    linalg.yield %u : f64
  }
  return
}

// -----

#mk = affine_map<(m, k, n) -> (m, k)>
#kn = affine_map<(m, k, n) -> (k, n)>
#mn = affine_map<(m, k, n) -> (m, n)>

// A column-major rhs (x @ x.T) read by too few lhs rows to be packed
// (fewer than pack-reuse), with sizes that are not multiples of the cache
// blocks: the cache-block loops stay whole (partial last blocks), not
// peeled into static edge copies of the micro-kernel, which gather the rhs
// tile element by element and ran 10-20x slower.
// CHECK-LABEL: func.func @colmajor_rhs_edges
// CHECK-NOT: memref.alloc
// CHECK: scf.for %{{.*}} = %c0 to %c1000 step %c256
// CHECK: memref.subview %{{.*}}[0, %{{.*}}] [64, %{{.*}}] [1, 1] : memref<64x1000xf64, strided<[1, 64]>>
// CHECK-NOT: [64, 232]
// CHECK: return
func.func @colmajor_rhs_edges(%a: memref<16x64xf64>, %b: memref<64x1000xf64, strided<[1, 64]>>, %c: memref<16x1000xf64>) {
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<16x64xf64>, memref<64x1000xf64, strided<[1, 64]>>) outs(%c : memref<16x1000xf64>) {
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

// A.T @ B.T (lhs column-major, rhs column-major) that reads each operand
// 100 times: both are first copied into row-major buffers by elementwise
// generics, the product reads the copies, which are freed after it.
// CHECK-LABEL: func.func @packed_operands
// CHECK-SAME: (%[[A:.*]]: memref<100x80xf32, strided<[1, 100]>>, %[[B:.*]]: memref<80x100xf32, strided<[1, 80]>>
// CHECK: %[[PA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<100x80xf32>
// CHECK: linalg.generic {{.*}} ins(%[[A]] : {{.*}}) outs(%[[PA]] : memref<100x80xf32>)
// CHECK: %[[PB:.*]] = memref.alloc() {alignment = 64 : i64} : memref<80x100xf32>
// CHECK: linalg.generic {{.*}} ins(%[[B]] : {{.*}}) outs(%[[PB]] : memref<80x100xf32>)
// CHECK: scf.for
// CHECK: memref.subview %[[PA]][
// CHECK: vector.fma
// CHECK-DAG: memref.dealloc %[[PA]] :
// CHECK-DAG: memref.dealloc %[[PB]] :
func.func @packed_operands(%a: memref<100x80xf32, strided<[1, 100]>>, %b: memref<80x100xf32, strided<[1, 80]>>, %c: memref<100x100xf32>) {
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<100x80xf32, strided<[1, 100]>>, memref<80x100xf32, strided<[1, 80]>>) outs(%c : memref<100x100xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#mk = affine_map<(m, k, n) -> (m, k)>
#kn = affine_map<(m, k, n) -> (k, n)>
#mn = affine_map<(m, k, n) -> (m, n)>

// An lhs broadcast along its rows (stride 0) is not packed: the copy
// would materialize the broadcast.
// CHECK-LABEL: func.func @broadcast_not_packed
// CHECK-NOT: memref.alloc
// CHECK: return
func.func @broadcast_not_packed(%a: memref<64x64xf64, strided<[0, 64]>>, %b: memref<64x64xf64>, %c: memref<64x64xf64>) {
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<64x64xf64, strided<[0, 64]>>, memref<64x64xf64>) outs(%c : memref<64x64xf64>) {
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

// A dot product of two vectors (x @ y: unit m and n broadcast, stride 0)
// stays one untiled loop nest, its multiply and add marked reassociable so
// LLVM sums it in vector partial sums.
// CHECK-LABEL: func.func @dot_product
// CHECK: linalg.generic
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<reassoc,contract> : f64
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc,contract> : f64
func.func @dot_product(%a: memref<1x276xf64, strided<[0, 1]>>, %b: memref<276x1xf64, strided<[1, 0]>>, %c: memref<1x1xf64, strided<[0, 0]>>) {
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<1x276xf64, strided<[0, 1]>>, memref<276x1xf64, strided<[1, 0]>>) outs(%c : memref<1x1xf64, strided<[0, 0]>>) {
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

// An rhs of 8 MB (past rows-outer-bytes): each rhs cache block is copied
// into 16 panels of 16 columns (one buffer, allocated once before the
// blocks), row by row, right inside the k-block loop; the register blocks
// then go row panel by row panel (8 rows outer, 16 columns inner) and each
// micro-kernel reads its rhs tile from the panels.
// CHECK-LABEL: func.func @packed_rhs
// CHECK: %[[PANELS:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x256x16xf64>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[BLOCK:.*]] = memref.subview %{{.*}} [256, 256] [1, 1]
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step
// CHECK: scf.for %[[PANEL:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[V:.*]] = vector.load %[[BLOCK]][%[[ROW]], %{{.*}}]
// CHECK: vector.store %[[V]], %[[PANELS]][%[[PANEL]], %[[ROW]], %{{.*}}]
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c8
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c16
// CHECK: memref.subview %[[PANELS]][%{{.*}}, %{{.*}}, 0] [1, 4, 16] [1, 1, 1] : memref<16x256x16xf64> to memref<4x16xf64, strided<[16, 1], offset: ?>>
// CHECK: vector.fma {{.*}} : vector<16xf64>
// CHECK: memref.dealloc %[[PANELS]]
func.func @packed_rhs(%a: memref<1024x1024xf64>, %b: memref<1024x1024xf64>, %c: memref<1024x1024xf64>) {
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<1024x1024xf64>, memref<1024x1024xf64>) outs(%c : memref<1024x1024xf64>) {
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

// Fewer rows than pack-panels (32 < 64): the rhs is read in place, and a
// small rhs (32 KB) keeps column panels outermost (16 columns, then 8 rows).
// CHECK-LABEL: func.func @rhs_in_place
// CHECK-NOT: memref.alloc
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c16
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c8
// CHECK: memref.subview %arg1
// CHECK: vector.fma {{.*}} : vector<16xf64>
// CHECK-NOT: memref.alloc
func.func @rhs_in_place(%a: memref<32x64xf64>, %b: memref<64x64xf64>, %c: memref<32x64xf64>) {
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<32x64xf64>, memref<64x64xf64>) outs(%c : memref<32x64xf64>) {
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

// A register tile of 20 f32 columns (more than one 64-byte register, not a
// multiple of it) is split into 16 columns and 4: no vector<20xf32>, which
// LLVM would widen to 32 lanes of work.
// CHECK-LABEL: func.func @wide_edge
// CHECK-DAG: vector.fma {{.*}} : vector<16xf32>
// CHECK-DAG: vector.fma {{.*}} : vector<4xf32>
// CHECK-NOT: vector<20xf32>
// CHECK: return
func.func @wide_edge(%a: memref<8x8xf32>, %b: memref<8x20xf32>, %c: memref<8x20xf32>) {
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<8x8xf32>, memref<8x20xf32>) outs(%c : memref<8x20xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#mk = affine_map<(m, k, n) -> (m, k)>
#kn = affine_map<(m, k, n) -> (k, n)>
#mn = affine_map<(m, k, n) -> (m, n)>

// A product in a loop whose rhs does not change: the subview of the last
// (peeled) column block moves out of the loop and is packed once before it,
// into a buffer of its own; the blocks whose subviews stay in the loop get
// theirs, allocated before the loop, so no copy overwrites panels another
// block's tiles still read.
// CHECK-LABEL: func.func @packed_in_loop
// CHECK: %[[EDGE:.*]] = memref.alloc() {{.*}} : memref<3x256x32xf32>
// CHECK: vector.store %{{.*}}, %[[EDGE]]
// CHECK: %[[MAIN:.*]] = memref.alloc() {{.*}} : memref<8x256x32xf32>
// CHECK: scf.for
// CHECK: vector.store %{{.*}}, %[[MAIN]]
// CHECK: memref.subview %[[MAIN]]
// CHECK: memref.subview %[[EDGE]]
// CHECK-DAG: memref.dealloc %[[MAIN]]
// CHECK-DAG: memref.dealloc %[[EDGE]]
func.func @packed_in_loop(%a: memref<128x300xf32>, %b: memref<300x600xf32>, %c: memref<128x600xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "reduction", "parallel"]}
        ins(%a, %b : memref<128x300xf32>, memref<300x600xf32>) outs(%c : memref<128x600xf32>) {
    ^bb0(%x: f32, %y: f32, %z: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %z, %p : f32
      linalg.yield %s : f32
    }
  }
  return
}
