// RUN: stride-opt %s --stride-vectorize-lanes --canonicalize --cse --split-input-file | FileCheck %s

// An argmax's lanes generic (rows, blocks, lanes; accumulators indexed by
// rows and lanes): a loop over rows, the accumulators read into vectors
// before a loop over blocks that carries them in iter_args, one vector op
// per payload op (the lane index from vector.step), and one write each
// after it.
#in = affine_map<(r, b, l) -> (r, b, l)>
#acc = affine_map<(r, b, l) -> (r, l)>
// CHECK-LABEL: func.func @argmax_lanes
// CHECK-SAME:    (%[[X:.*]]: memref<4x8x16xf32>, %[[V:.*]]: memref<4x16xf32>, %[[I:.*]]: memref<4x16xi32>)
// CHECK:         %[[STEP:.*]] = vector.step : vector<16xindex>
// CHECK:         scf.for %[[R:.*]] = %c0 to %c4 step %c1 {
// CHECK:           %[[V0:.*]] = vector.transfer_read %{{.*}}, %{{.*}} : memref<16xf32, strided<[1], offset: ?>>, vector<16xf32>
// CHECK:           %[[I0:.*]] = vector.transfer_read %{{.*}}, %{{.*}} : memref<16xi32, strided<[1], offset: ?>>, vector<16xi32>
// CHECK:           %[[ACC:.*]]:2 = scf.for %[[B:.*]] = %c0 to %c8 step %c1 iter_args(%[[VA:.*]] = %[[V0]], %[[IA:.*]] = %[[I0]]) -> (vector<16xf32>, vector<16xi32>) {
// CHECK:             %[[XV:.*]] = vector.transfer_read %{{.*}} : memref<16xf32, strided<[1], offset: ?>>, vector<16xf32>
// CHECK:             %[[GT:.*]] = arith.cmpf ugt, %[[XV]], %[[VA]] : vector<16xf32>
// CHECK:             %[[NV:.*]] = arith.select %{{.*}}, %[[XV]], %[[VA]] : vector<16xi1>, vector<16xf32>
// CHECK:             %[[NI:.*]] = arith.select %{{.*}}, %{{.*}}, %[[IA]] : vector<16xi1>, vector<16xi32>
// CHECK:             scf.yield %[[NV]], %[[NI]]
// CHECK:           vector.transfer_write %[[ACC]]#
// CHECK:           vector.transfer_write %[[ACC]]#
// CHECK-NOT:     linalg.generic
func.func @argmax_lanes(%x: memref<4x8x16xf32>, %v: memref<4x16xf32>, %i: memref<4x16xi32>) {
  %c16 = arith.constant 16 : index
  linalg.generic {indexing_maps = [#in, #acc, #acc], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<4x8x16xf32>) outs(%v, %i : memref<4x16xf32>, memref<4x16xi32>)
      attrs = {stride.lanes} {
  ^bb0(%a: f32, %best: f32, %at: i32):
    %b = linalg.index 1 : index
    %l = linalg.index 2 : index
    %bl = arith.muli %b, %c16 : index
    %j = arith.addi %bl, %l : index
    %jj = arith.index_cast %j : index to i32
    %ord = arith.cmpf ord, %best, %best : f32
    %gt = arith.cmpf ugt, %a, %best : f32
    %take = arith.andi %gt, %ord : i1
    %nv = arith.select %take, %a, %best : f32
    %ni = arith.select %take, %jj, %at : i32
    linalg.yield %nv, %ni : f32, i32
  }
  return
}

// -----

// Two reduced loops around the blocks (a sum over axes 0 and 2 of a 3-d
// array, the kept axis outermost): the accumulators move out of both.
#in3 = affine_map<(k, r, b, l) -> (r, k, b, l)>
#acc3 = affine_map<(k, r, b, l) -> (k, l)>
// CHECK-LABEL: func.func @two_reduced_loops
// CHECK:         scf.for %{{.*}} = %c0 to %c5 step %c1 {
// CHECK:           vector.transfer_read {{.*}} vector<32xf64>
// CHECK:           scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<32xf64>) {
// CHECK:             scf.for {{.*}} iter_args(%[[S:.*]] = %{{.*}}) -> (vector<32xf64>) {
// CHECK:               %[[X:.*]] = vector.transfer_read
// CHECK:               arith.addf %[[S]], %[[X]] : vector<32xf64>
// CHECK:           vector.transfer_write
func.func @two_reduced_loops(%x: memref<3x5x4x32xf64>, %s: memref<5x32xf64>) {
  linalg.generic {indexing_maps = [#in3, #acc3], iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
      ins(%x : memref<3x5x4x32xf64>) outs(%s : memref<5x32xf64>)
      attrs = {stride.lanes} {
  ^bb0(%a: f64, %acc: f64):
    %n = arith.addf %acc, %a : f64
    linalg.yield %n : f64
  }
  return
}

// -----

// A mirrored dim (`3 - r`, a negative stride walked forwards) is left to
// LLVM's loop vectorizer: the generic stays, without the mark.
#mirror = affine_map<(r, b, l) -> (-r + 3, b, l)>
#macc = affine_map<(r, b, l) -> (r, l)>
// CHECK-LABEL: func.func @mirrored_stays
// CHECK:         linalg.generic
// CHECK-NOT:       stride.lanes
// CHECK-NOT:     vector.
func.func @mirrored_stays(%x: memref<4x8x16xf32>, %s: memref<4x16xf32>) {
  linalg.generic {indexing_maps = [#mirror, #macc], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<4x8x16xf32>) outs(%s : memref<4x16xf32>)
      attrs = {stride.lanes} {
  ^bb0(%a: f32, %acc: f32):
    %n = arith.addf %acc, %a : f32
    linalg.yield %n : f32
  }
  return
}

// -----

// Boolean operands (a byte per element in memory, packed bits in a vector
// load) are left to LLVM as well.
#bin = affine_map<(r, b, l) -> (r, b, l)>
#bacc = affine_map<(r, b, l) -> (r, l)>
// CHECK-LABEL: func.func @booleans_stay
// CHECK:         linalg.generic
// CHECK-NOT:     vector.
func.func @booleans_stay(%x: memref<4x8x16xi1>, %s: memref<4x16xi1>) {
  linalg.generic {indexing_maps = [#bin, #bacc], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<4x8x16xi1>) outs(%s : memref<4x16xi1>)
      attrs = {stride.lanes} {
  ^bb0(%a: i1, %acc: i1):
    %n = arith.ori %acc, %a : i1
    linalg.yield %n : i1
  }
  return
}

// -----

// Lane buffers the kernel allocated and filled with its identity just
// before: once the reads are out of every reduction loop (each row reads
// its lanes once, before writing them), they are the fill's constant, a
// vector.broadcast, and the fill goes. A buffer filled from another value
// or used before the generic keeps its fill and read (see the next case).
#fin = affine_map<(r, b, l) -> (r, b, l)>
#facc = affine_map<(r, b, l) -> (r, l)>
// CHECK-LABEL: func.func @fill_forwarded
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK-NOT:     linalg.fill
// CHECK:         scf.for
// CHECK-NOT:       vector.transfer_read %{{.*}} : memref<16xf32, strided<[1], offset: ?>>, vector<16xf32>
// CHECK:           scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (vector<16xf32>)
func.func @fill_forwarded(%x: memref<4x8x16xf32>) -> memref<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<4x16xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<4x16xf32>)
  linalg.generic {indexing_maps = [#fin, #facc], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<4x8x16xf32>) outs(%acc : memref<4x16xf32>)
      attrs = {stride.lanes} {
  ^bb0(%a: f32, %s: f32):
    %n = arith.addf %s, %a : f32
    linalg.yield %n : f32
  }
  return %acc : memref<4x16xf32>
}

// -----

// The buffer is read between its fill and the generic: the fill stays and
// the accumulators are read from memory.
#uin = affine_map<(r, b, l) -> (r, b, l)>
#uacc = affine_map<(r, b, l) -> (r, l)>
// CHECK-LABEL: func.func @fill_used_before
// CHECK:         linalg.fill
// CHECK:         memref.copy
// CHECK:         scf.for
// CHECK:           vector.transfer_read %{{.*}} : memref<16xf32, strided<[1], offset: ?>>, vector<16xf32>
// CHECK:           scf.for {{.*}} iter_args
func.func @fill_used_before(%x: memref<4x8x16xf32>, %seen: memref<4x16xf32>) -> memref<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<4x16xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<4x16xf32>)
  memref.copy %acc, %seen : memref<4x16xf32> to memref<4x16xf32>
  linalg.generic {indexing_maps = [#uin, #uacc], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<4x8x16xf32>) outs(%acc : memref<4x16xf32>)
      attrs = {stride.lanes} {
  ^bb0(%a: f32, %s: f32):
    %n = arith.addf %s, %a : f32
    linalg.yield %n : f32
  }
  return %acc : memref<4x16xf32>
}
