// RUN: stride-opt %s --stride-infer-shapes --stride-propagate-layout --stride-bufferize --canonicalize --cse --split-input-file | FileCheck %s
// RUN: stride-opt %s --stride-to-linalg-pipeline --split-input-file | FileCheck %s --check-prefix=DEALLOC
// RUN: stride-opt %s --stride-to-linalg-pipeline=threads=2 --split-input-file | FileCheck %s --check-prefix=THREADS

// A row sum: a linalg.generic with a reduction iterator on the reduced dim,
// Kahan-compensated through a scratch accumulator (freed by the
// deallocation pipeline), written straight into the output argument.
// CHECK-LABEL: func.func @row_sum
// CHECK-SAME: (%[[X:.*]]: memref<4x6xf32, strided<[6, 1], offset: ?>>, %[[OUT:.*]]: memref<4xf32, strided<[1], offset: ?>>)
// CHECK: linalg.fill
// CHECK: %[[C:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK: linalg.fill {{.*}} outs(%[[C]]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: ^bb0(%[[IN:.*]]: f32, %[[S:.*]]: f32, %[[COMP:.*]]: f32):
// CHECK: %[[Y:.*]] = arith.subf %[[IN]], %[[COMP]]
// CHECK: %[[T:.*]] = arith.addf %[[S]], %[[Y]]
// CHECK: linalg.yield %[[T]]
// DEALLOC-LABEL: func.func @row_sum
// DEALLOC: memref.dealloc
func.func @row_sum(%x: tensor<4x6xf32>) -> tensor<*xf32> {
  %0 = stride.sum %x axes [1] : tensor<4x6xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// With threads, a large reduction splits its leading kept dim: the input,
// the result and the scratch accumulator are cut alike.
// THREADS-LABEL: func.func @threaded_rows
// THREADS: scf.parallel
// THREADS-COUNT-3: memref.subview
// THREADS: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
func.func @threaded_rows(%x: tensor<1024x1024xf32>) -> tensor<*xf32> {
  %0 = stride.sum %x axes [1] : tensor<1024x1024xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Column sums of a row-major input: the loops follow memory (the reduced
// dim, stride 6, outermost), the kept dim innermost.
// CHECK-LABEL: func.func @column_sum
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]
func.func @column_sum(%x: tensor<4x6xi32>) -> tensor<*xi64> {
  %0 = stride.sum %x axes [0] : tensor<4x6xi32> -> tensor<*xi64>
  return %0 : tensor<*xi64>
}

// -----

// A reversed reduced dim is walked forwards; argmax mirrors its index.
// CHECK-LABEL: func.func @argmax_reversed
// CHECK: memref.reinterpret_cast {{.*}} strides: [6, 1]
// CHECK: linalg.generic
// CHECK: linalg.index 1
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf uno
// CHECK: arith.cmpi slt
// CHECK: linalg.yield {{.*}} : f32, i64
func.func @argmax_reversed(%x: tensor<4x6xf32, #stride.layout<strides = [6, -1]>>) -> tensor<*xi64> {
  %0 = stride.argmax %x axes [1] : tensor<4x6xf32, #stride.layout<strides = [6, -1]>> -> tensor<*xi64>
  return %0 : tensor<*xi64>
}

// -----

// mean = sum / count, divided in a second generic.
// CHECK-LABEL: func.func @mean
// CHECK: linalg.generic {{.*}}"reduction"
// CHECK: linalg.generic
// CHECK: arith.divf
func.func @mean(%x: tensor<4x6x5xf64>) -> tensor<*xf64> {
  %0 = stride.mean %x axes [0, 2] keepdims : tensor<4x6x5xf64> -> tensor<*xf64>
  return %0 : tensor<*xf64>
}

// -----

// amax keeps its accumulator where it is greater or NaN, else takes the
// element (NaN-propagating in two compares and a select: x86 has no
// NaN-propagating max instruction); any tests nonzero with an unordered
// compare (NaN is true).
// CHECK-LABEL: func.func @max_any
// CHECK: ^bb0(%[[IN:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT: %[[BETTER:.+]] = arith.cmpf ogt, %[[ACC]], %[[IN]]
// CHECK-NEXT: %[[NAN:.+]] = arith.cmpf uno, %[[ACC]], %[[ACC]]
// CHECK-NEXT: %[[KEEP:.+]] = arith.ori %[[BETTER]], %[[NAN]]
// CHECK-NEXT: arith.select %[[KEEP]], %[[ACC]], %[[IN]]
// CHECK: arith.cmpf une
// CHECK: arith.ori
func.func @max_any(%x: tensor<4x6xf32>) -> (tensor<*xf32>, tensor<*xi1>) {
  %0 = stride.amax %x : tensor<4x6xf32> -> tensor<*xf32>
  %1 = stride.any %x axes [1] : tensor<4x6xf32> -> tensor<*xi1>
  return %0, %1 : tensor<*xf32>, tensor<*xi1>
}

// -----

// A long contiguous row sum accumulates in 64 f32 lanes (four vectors of
// independent Kahan chains; the 40 left over into the first lanes), folds
// them in halves with an exact add of two compensated sums (TwoSum), and
// combines the last lane into the output.
// CHECK-LABEL: func.func @lane_sum
// CHECK: %[[L:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x64xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]{{.*}}memref<4x15x64xf32
// CHECK: memref.subview %[[L]][0, 0] [4, 40]
// CHECK: memref.subview %[[L]][0, 32] [4, 32]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK: %[[T:.*]] = arith.addf
// CHECK: arith.subf %[[T]]
// CHECK: memref.subview %[[L]][0, 16] [4, 16]
// CHECK: memref.subview %[[L]][0, 1] [4, 1]
// CHECK: %[[LAST:.*]] = memref.subview %[[L]][0, 0] [4, 1]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}}ins(%[[LAST]]
func.func @lane_sum(%x: tensor<4x1000xf32>) -> tensor<*xf32> {
  %0 = stride.sum %x axes [1] : tensor<4x1000xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// A long contiguous row min accumulates in lanes as the sum does (two
// compares and a select, which LLVM's loop vectorizer would not take as a
// reduction), and the lanes fold in halves.
// CHECK-LABEL: func.func @lane_min
// CHECK: %[[L:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x64xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]{{.*}}memref<4x15x64xf32
// CHECK: arith.cmpf olt
// CHECK: arith.cmpf uno
// CHECK: memref.subview %[[L]][0, 32] [4, 32]
// CHECK: %[[LAST:.*]] = memref.subview %[[L]][0, 0] [4, 1]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}}ins(%[[LAST]]
func.func @lane_min(%x: tensor<4x1000xf32>) -> tensor<*xf32> {
  %0 = stride.amin %x axes [1] : tensor<4x1000xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// A long row `any` accumulates in integer lanes as wide as the elements
// (an i1 accumulator kept LLVM from vectorizing the loop): each element's
// truth is widened to i32 and or-ed in, the lanes fold in halves, and the
// last lane is narrowed back. A stored bool array's lanes are bytes.
// CHECK-LABEL: func.func @lane_any
// CHECK: %[[L:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x64xi32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]{{.*}}outs(%[[L]] : memref<4x64xi32>)
// CHECK: arith.cmpf une
// CHECK: arith.extui %{{.*}} : i1 to i32
// CHECK: arith.ori %{{.*}} : i32
// CHECK: %[[LAST:.*]] = memref.subview %[[L]][0, 0] [4, 1]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}}ins(%[[LAST]]
// CHECK: arith.trunci %{{.*}} : i32 to i1
// CHECK: arith.ori %{{.*}} : i1
// CHECK-LABEL: func.func @lane_all_bools
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<256xi8>
// CHECK: arith.extui %{{.*}} : i1 to i8
// CHECK: arith.andi %{{.*}} : i8
func.func @lane_any(%x: tensor<4x1000xf32>) -> tensor<*xi1> {
  %0 = stride.any %x axes [1] : tensor<4x1000xf32> -> tensor<*xi1>
  return %0 : tensor<*xi1>
}
func.func @lane_all_bools(%x: tensor<4096xi1>) -> tensor<*xi1> {
  %0 = stride.all %x : tensor<4096xi1> -> tensor<*xi1>
  return %0 : tensor<*xi1>
}

// -----

// Float column sums of rows that whole blocks of 16 cover: the rows loop
// becomes (block, row in the block) over the input expanded alike, so with
// threads the block sums are split by blocks of rows (each chunk reads whole
// memory rows into its own partial rows); the Kahan sum of the 64 partial
// rows (256 KB) stays on one thread.
// THREADS-LABEL: func.func @threaded_columns
// THREADS: memref.expand_shape {{.*}} into memref<64x16x1024xf32
// THREADS: scf.parallel
// THREADS: memref.subview %{{.*}}[%{{.*}}, 0, 0] [%{{.*}}, 16, 1024] [1, 1, 1]
// THREADS: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]
// THREADS: linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]{{.*}} ins(%{{.*}} : memref<64x1024xf32>)
func.func @threaded_columns(%x: tensor<1024x1024xf32>) -> tensor<*xf32> {
  %0 = stride.sum %x axes [0] : tensor<1024x1024xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// A whole-array sum over at least 2 MiB has fewer kept points than threads:
// each thread sums its own run of 16384 blocks into its own lanes (a
// leading parts dim), the odd block left over and the partial last block
// go to part 0's lanes, the tree folds every part's lanes, and the parts
// are combined at the end.
// THREADS-LABEL: func.func @threaded_whole_sum
// THREADS: %[[L:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x32xf64>
// THREADS: scf.parallel (%[[P:.*]]) =
// THREADS: memref.subview %[[L]][%[[P]], 0] [1, 32] [1, 1] : memref<2x32xf64> to memref<32xf64
// THREADS: memref.reinterpret_cast %{{.*}} sizes: [16384, 32], strides: [32, 1]
// THREADS: linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]{{.*}}attrs = {stride.lanes}
// THREADS: scf.reduce
// THREADS: memref.reinterpret_cast %{{.*}} sizes: [1, 32], strides: [32, 1]
// THREADS: memref.reinterpret_cast %{{.*}} sizes: [24], strides: [1]
// THREADS: memref.subview %[[L]][0, 16] [2, 16]
// THREADS: linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]{{.*}}ins(%{{.*}} : memref<2x1xf64
func.func @threaded_whole_sum(%x: tensor<1048632xf64>) -> tensor<*xf64> {
  %0 = stride.sum %x : tensor<1048632xf64> -> tensor<*xf64>
  return %0 : tensor<*xf64>
}

// -----

// Float column sums (the one reduced dim outermost): blocks of 16 rows are
// summed plainly into partial sums (the block index is row floordiv 16),
// which are then Kahan-summed into the output.
// CHECK-LABEL: func.func @float_column_sum
// CHECK: %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<5x6xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]{{.*}} outs(%[[P]]
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]{{.*}} ins(%[[P]]
// CHECK: arith.subf
func.func @float_column_sum(%x: tensor<70x6xf32>) -> tensor<*xf32> {
  %0 = stride.sum %x axes [0] : tensor<70x6xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// The whole of a contiguous float array (a matrix counts in row-major
// order): argmax folds each block of four vectors to its maxima (compare
// and select pairs), compares only that with the lanes (which keep their
// best value and the number of the block where it appeared), and flags NaN
// by unordered compares. At the end the elements after the last block are
// compared, and either a scan finds the first NaN or each lane holding the
// best value (a loop over the set bits of their mask) rescans the one block
// it names. Long rows take the same
// kernel one after another; max and min fold the same blocks (the later
// element on a tie) and the lanes in halves. The blocks loop is unrolled
// at most four times. Short rows keep the lanes kernel.
// CHECK-LABEL: func.func @whole_argmax_blocks
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [300300], strides: [1]
// CHECK: scf.for %[[S:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[BEST:.*]] = %{{.*}}, %[[BLOCK:.*]] = %{{.*}}, %[[NAN:.*]] = %{{.*}}) -> (vector<8xf64>, vector<8xi32>, vector<8xi1>)
// CHECK-COUNT-4: vector.load %[[FLAT]]
// CHECK: arith.cmpf uno
// CHECK: arith.cmpf uno
// CHECK: arith.select %{{.*}} : vector<8xi1>, vector<8xf64>
// CHECK: %[[TAKE:.*]] = arith.cmpf ogt, %[[M:.*]], %[[BEST]] : vector<8xf64>
// CHECK: %[[NUMBER:.*]] = vector.broadcast %{{.*}} : i32 to vector<8xi32>
// CHECK: arith.select %[[TAKE]], %[[M]], %[[BEST]]
// CHECK: arith.select %[[TAKE]], %[[NUMBER]], %[[BLOCK]]
// CHECK: vector.reduction <or>
// CHECK: scf.for {{.*}} -> (f64, index, i1)
// CHECK: scf.if %{{.*}} -> (index)
// CHECK: scf.while
// CHECK: arith.cmpf ord
// CHECK: } else {
// CHECK: vector.bitcast %{{.*}} : vector<8xi1> to vector<1xi8>
// CHECK: scf.while
// CHECK: math.cttz
// CHECK-COUNT-4: memref.load %[[FLAT]]
// CHECK: memref.store
// CHECK-LABEL: func.func @row_argmin_blocks
// CHECK: scf.for %[[ROW:.*]] =
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [1024], strides: [1]
// CHECK: scf.for {{.*}} -> (vector<16xf32>, vector<16xi32>, vector<16xi1>)
// CHECK: arith.cmpf olt
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[ROW]]]
// CHECK-LABEL: func.func @row_max_blocks
// CHECK: scf.for {{.*}} -> (vector<16xf32>, vector<16xi1>)
// CHECK: arith.cmpf uno
// CHECK: } {loop_annotation = #{{.*}}}
// CHECK: vector.extract_strided_slice
// CHECK: scf.if %{{.*}} -> (f32)
// CHECK: scf.while
// CHECK: memref.store
// CHECK-LABEL: func.func @short_argmin_lanes
// CHECK-NOT: vector.load
// CHECK: linalg.generic
// THREADS-LABEL: func.func @whole_argmax_blocks
// THREADS: scf.parallel
// THREADS: scf.for {{.*}} -> (vector<8xf64>, vector<8xi32>, vector<8xi1>)
func.func @whole_argmax_blocks(%x: tensor<1001x300xf64>) -> tensor<*xi64> {
  %0 = stride.argmax %x : tensor<1001x300xf64> -> tensor<*xi64>
  return %0 : tensor<*xi64>
}
func.func @row_argmin_blocks(%x: tensor<8x1024xf32>) -> tensor<*xi64> {
  %0 = stride.argmin %x axes [1] : tensor<8x1024xf32> -> tensor<*xi64>
  return %0 : tensor<*xi64>
}
func.func @row_max_blocks(%x: tensor<8x1024xf32>) -> tensor<*xf32> {
  %0 = stride.amax %x axes [1] : tensor<8x1024xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
func.func @short_argmin_lanes(%x: tensor<500xf32>) -> tensor<*xi64> {
  %0 = stride.argmin %x : tensor<500xf32> -> tensor<*xi64>
  return %0 : tensor<*xi64>
}
