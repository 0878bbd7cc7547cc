// RUN: stride-opt %s --stride-split-math-chains --split-input-file | FileCheck %s
// RUN: stride-opt %s --stride-split-math-chains=block=256 --split-input-file | FileCheck %s --check-prefix=B256

#id = affine_map<(i) -> (i)>

// log1p(exp(x)): exp runs over a block into a stack buffer, then log1p
// reads it; the stage loops carry llvm.loop.unroll.disable so that LLVM
// does not unroll them back into one chain.
// CHECK-LABEL: func.func @log1p_of_exp
// CHECK-SAME:    (%[[X:.*]]: memref<?xf64>, %[[Y:.*]]: memref<?xf64>)
// CHECK-NOT:     linalg.generic
// CHECK:         %[[SP:.*]] = llvm.intr.stacksave : !llvm.ptr
// CHECK:           %[[BUF:.*]] = memref.alloca() {alignment = 64 : i64} : memref<512xf64>
// CHECK:           %[[BLOCK:.*]] = arith.constant 512 : index
// CHECK:           scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %[[BLOCK]] {
// CHECK:             %[[NEXT:.*]] = arith.addi %[[B]], %[[BLOCK]]
// CHECK:             %[[END:.*]] = arith.minsi %[[NEXT]], %{{.*}}
// CHECK:             scf.for %[[I:.*]] = %[[B]] to %[[END]]
// CHECK:               %[[OFF:.*]] = arith.subi %[[I]], %[[B]]
// CHECK:               %[[V:.*]] = memref.load %[[X]]
// CHECK:               %[[E:.*]] = math.exp %[[V]] : f64
// CHECK:               memref.store %[[E]], %[[BUF]][%[[OFF]]]
// CHECK-NOT:           math.log1p
// CHECK:             } {loop_annotation = #{{.*}}}
// CHECK:             scf.for %[[J:.*]] = %[[B]] to %[[END]]
// CHECK:               %[[OFF2:.*]] = arith.subi %[[J]], %[[B]]
// CHECK:               %[[T:.*]] = memref.load %[[BUF]][%[[OFF2]]]
// CHECK-NOT:           math.exp
// CHECK:               %[[L:.*]] = math.log1p %[[T]] : f64
// CHECK:               memref.store %[[L]], %[[Y]]
// CHECK:             } {loop_annotation = #{{.*}}}
// CHECK:           }
// CHECK:           llvm.intr.stackrestore %[[SP]]
// B256-LABEL: func.func @log1p_of_exp
// B256:         memref.alloca() {alignment = 64 : i64} : memref<256xf64>
func.func @log1p_of_exp(%x: memref<?xf64>, %y: memref<?xf64>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<?xf64>) outs(%y : memref<?xf64>) {
  ^bb0(%a: f64, %b: f64):
    %e = math.exp %a : f64
    %l = math.log1p %e : f64
    linalg.yield %l : f64
  }
  return
}

// -----

#id = affine_map<(i) -> (i)>

// exp(sin(cos(x))) + x: three stages; x, which depends on no function, is
// loaded again in the last stage instead of crossing in a buffer.
// CHECK-LABEL: func.func @three_stages
// CHECK-SAME:    (%[[X:.*]]: memref<4096xf32>, %[[Y:.*]]: memref<4096xf32>)
// CHECK:         %[[B0:.*]] = memref.alloca() {alignment = 64 : i64} : memref<512xf32>
// CHECK:         %[[B1:.*]] = memref.alloca() {alignment = 64 : i64} : memref<512xf32>
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             math.cos
// CHECK-NOT:         math.sin
// CHECK:             memref.store %{{.*}}, %[[B0]]
// CHECK:           scf.for
// CHECK:             memref.load %[[B0]]
// CHECK:             math.sin
// CHECK:             memref.store %{{.*}}, %[[B1]]
// CHECK:           scf.for
// CHECK:             %[[S:.*]] = memref.load %[[B1]]
// CHECK:             %[[XV:.*]] = memref.load %[[X]]
// CHECK:             %[[E:.*]] = math.exp %[[S]]
// CHECK:             %[[R:.*]] = arith.addf %[[E]], %[[XV]]
// CHECK:             memref.store %[[R]], %[[Y]]
func.func @three_stages(%x: memref<4096xf32>, %y: memref<4096xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<4096xf32>) outs(%y : memref<4096xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = math.cos %a : f32
    %s = math.sin %c : f32
    %e = math.exp %s : f32
    %r = arith.addf %e, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#t = affine_map<(i, j) -> (j, i)>
#row = affine_map<(i, j) -> (j)>

// Two dims, a transposed operand and a broadcast one: the outer loop stays
// as convert-linalg-to-loops makes it, only the innermost is split. The
// functions of independent operands share a stage; their sum crosses once.
// CHECK-LABEL: func.func @two_dims
// CHECK:         scf.for %[[I:.*]] =
// CHECK:           llvm.intr.stacksave
// CHECK:             %[[BUF:.*]] = memref.alloca() {alignment = 64 : i64} : memref<512xf64>
// CHECK-NOT:         memref.alloca()
// CHECK:             scf.for
// CHECK:               scf.for
// CHECK-DAG:             math.sin
// CHECK-DAG:             math.cos
// CHECK:                 memref.store %{{.*}}, %[[BUF]]
// CHECK:               scf.for
// CHECK:                 memref.load %[[BUF]]
// CHECK:                 math.atan2
func.func @two_dims(%a: memref<1000x300xf64>, %v: memref<1000xf64>,
                    %out: memref<300x1000xf64>) {
  linalg.generic {indexing_maps = [#t, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %v : memref<1000x300xf64>, memref<1000xf64>)
      outs(%out : memref<300x1000xf64>) {
  ^bb0(%p: f64, %q: f64, %o: f64):
    %s = math.sin %p : f64
    %c = math.cos %q : f64
    %m = arith.mulf %s, %c : f64
    %r = math.atan2 %m, %q : f64
    linalg.yield %r : f64
  }
  return
}

// -----

#id = affine_map<(i) -> (i)>

// Two results: exp(x) and log(exp(x)). The stores stay in the last stage,
// in their order, and the exp crosses once for both.
// CHECK-LABEL: func.func @two_results
// CHECK-SAME:    (%[[X:.*]]: memref<2048xf64>, %[[Y:.*]]: memref<2048xf64>, %[[Z:.*]]: memref<2048xf64>)
// CHECK:         %[[BUF:.*]] = memref.alloca() {alignment = 64 : i64} : memref<512xf64>
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             math.exp
// CHECK-NOT:         memref.store %{{.*}}, %[[Y]]
// CHECK:             memref.store %{{.*}}, %[[BUF]]
// CHECK:           scf.for
// CHECK:             %[[E:.*]] = memref.load %[[BUF]]
// CHECK:             %[[L:.*]] = math.log %[[E]]
// CHECK:             memref.store %[[E]], %[[Y]]
// CHECK:             memref.store %[[L]], %[[Z]]
func.func @two_results(%x: memref<2048xf64>, %y: memref<2048xf64>, %z: memref<2048xf64>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<2048xf64>) outs(%y, %z : memref<2048xf64>, memref<2048xf64>) {
  ^bb0(%a: f64, %b: f64, %c: f64):
    %e = math.exp %a : f64
    %l = math.log %e : f64
    linalg.yield %e, %l : f64, f64
  }
  return
}

// -----

#id = affine_map<(i) -> (i)>

// Functions side by side, not chained (sin(x) * cos(x)): nothing to split,
// the generic is left to convert-linalg-to-loops.
// CHECK-LABEL: func.func @side_by_side
// CHECK-NOT:     memref.alloca
// CHECK:         linalg.generic
func.func @side_by_side(%x: memref<?xf64>, %y: memref<?xf64>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<?xf64>) outs(%y : memref<?xf64>) {
  ^bb0(%a: f64, %b: f64):
    %s = math.sin %a : f64
    %c = math.cos %a : f64
    %m = arith.mulf %s, %c : f64
    linalg.yield %m : f64
  }
  return
}

// -----

#id = affine_map<(i) -> (i)>

// A power with a constant exponent is products (stride-expand-powers), not
// a function: exp(x) ** 2.0 is left alone.
// CHECK-LABEL: func.func @constant_power
// CHECK-NOT:     memref.alloca
// CHECK:         linalg.generic
func.func @constant_power(%x: memref<?xf64>, %y: memref<?xf64>) {
  %two = arith.constant 2.0 : f64
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<?xf64>) outs(%y : memref<?xf64>) {
  ^bb0(%a: f64, %b: f64):
    %e = math.exp %a : f64
    %p = math.powf %e, %two : f64
    linalg.yield %p : f64
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// An innermost loop of 8 iterations (under min-trip, 64) is not split.
// CHECK-LABEL: func.func @short_rows
// CHECK-NOT:     memref.alloca
// CHECK:         linalg.generic
func.func @short_rows(%x: memref<4096x8xf64>, %y: memref<4096x8xf64>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4096x8xf64>) outs(%y : memref<4096x8xf64>) {
  ^bb0(%a: f64, %b: f64):
    %e = math.exp %a : f64
    %l = math.log1p %e : f64
    linalg.yield %l : f64
  }
  return
}

// -----

#id = affine_map<(i) -> (i)>
#scalar = affine_map<(i) -> ()>

// A reduction's iterations are not independent: sum(log1p(exp(x))) is left
// alone.
// CHECK-LABEL: func.func @reduction
// CHECK-NOT:     memref.alloca
// CHECK:         linalg.generic
func.func @reduction(%x: memref<?xf64>, %s: memref<f64>) {
  linalg.generic {indexing_maps = [#id, #scalar], iterator_types = ["reduction"]}
      ins(%x : memref<?xf64>) outs(%s : memref<f64>) {
  ^bb0(%a: f64, %acc: f64):
    %e = math.exp %a : f64
    %l = math.log1p %e : f64
    %r = arith.addf %acc, %l : f64
    linalg.yield %r : f64
  }
  return
}
