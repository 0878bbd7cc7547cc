// Batched matmul with broadcast batch dims and 1-D operands, against NumPy.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t a="rand(3,1,2,4)" b="rand(1,5,4,6)" v="rand(4)" w="rand(6)" m="rand(2,4)" mt="rand(4,2)" i="np.arange(12, dtype=np.int32).reshape(3,4) - 5" j="np.arange(8, dtype=np.int32).reshape(4,2)"
// RUN: stride-run %s --entry batched --input %t/a.npy --input %t/b.npy --output-dir %t | FileCheck %s --check-prefix=BATCHED
// RUN: %npytool check %t "np.matmul(a, b)" %t/out0.npy
// RUN: stride-run %s --entry vectors --input %t/v.npy --input %t/b.npy --input %t/w.npy --output-dir %t | FileCheck %s --check-prefix=VECTORS
// RUN: %npytool check %t "np.matmul(v, b)" %t/out0.npy
// RUN: %npytool check %t "np.matmul(b, w)" %t/out1.npy
// RUN: %npytool check %t "np.matmul(v, v)" %t/out2.npy
// RUN: stride-run %s --entry transposed --input %t/m.npy --input %t/mt.npy --output-dir %t | FileCheck %s --check-prefix=TRANSPOSED
// RUN: %npytool check %t "np.tanh(np.matmul(m, mt))" %t/out0.npy
// RUN: stride-run %s --entry integer --input %t/i.npy --input %t/j.npy --output-dir %t
// RUN: %npytool check %t "np.matmul(i, j)" %t/out0.npy
// A 1x1 operand broadcast (stride 0 on its size-1 dims) against a batch:
// left untiled by stride-tile-matmul, whose rank-reduced tiles were
// ambiguous (issue 25).
// RUN: %npytool make %t bx="rand(5,3,1)" bw="rand(1,1)"
// RUN: stride-run %s --entry unit_broadcast --input %t/bx.npy --input %t/bw.npy --output-dir %t
// RUN: %npytool check %t "bx @ bw" %t/out0.npy
// Batched products whose matrices are 1xK or Mx1 next to a broadcast batch
// dim: stride-tile-matmul drops the unit loops with rank-reducing subviews
// whose types it spells out (inferred from the shape alone, MLIR kept the
// wrong unit dims: 'mismatch of result layout', issue 25).
// RUN: %npytool make %t ua="rand(2,1,1,1).astype(np.float64)" ub="rand(1,2,1,2).astype(np.float64)" uc="rand(3,1,1,5)" ud="rand(1,3,5,3)"
// RUN: stride-run %s --entry unit_batch --policy contiguous --input %t/ua.npy --input %t/ub.npy --output-dir %t
// RUN: %npytool check %t "ua @ ub" %t/out0.npy
// RUN: stride-run %s --entry unit_rows --input %t/uc.npy --input %t/ud.npy --output-dir %t
// RUN: %npytool check %t "uc @ ud" %t/out0.npy
// A batched product over a permuted 4-D view, under each policy (the
// fuzzer found stride-tile-matmul reading a failed re-match of a micro
// tile here, ASan: heap-buffer-overflow).
// RUN: %npytool make %t pa="rand(4,5,2,3)" pb="rand(3,2)"
// RUN: stride-run %s --entry batch_order --policy numpy --input %t/pa.npy --input %t/pb.npy --output-dir %t
// RUN: %npytool check %t "pa @ pb" %t/out0.npy
// RUN: stride-run %s --entry batch_order --policy torch --num-threads 2 --input %t/pa.npy --input %t/pb.npy --output-dir %t
// RUN: %npytool check %t "pa @ pb" %t/out0.npy
// RUN: stride-run %s --entry batch_order --policy contiguous --no-fuse --input %t/pa.npy --input %t/pb.npy --output-dir %t
// RUN: %npytool check %t "pa @ pb" %t/out0.npy

// [3,1,2,4] @ [1,5,4,6] -> [3,5,2,6]: broadcast batches are read with stride 0.
// BATCHED: output #0: f32 3x5x2x6 strides [60, 12, 6, 1]
func.func @batched(%a: tensor<3x1x2x4xf32>, %b: tensor<1x5x4x6xf32>) -> tensor<*xf32> {
  %0 = stride.matmul %a, %b : tensor<3x1x2x4xf32>, tensor<1x5x4x6xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// 1-D operands on either side, and both (a dot product, 0-d).
// VECTORS: output #0: f32 1x5x6 strides [30, 6, 1]
// VECTORS: output #1: f32 1x5x4 strides [20, 4, 1]
// VECTORS: output #2: f32 0-d strides []
func.func @vectors(%v: tensor<4xf32>, %b: tensor<1x5x4x6xf32>, %w: tensor<6xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %0 = stride.matmul %v, %b : tensor<4xf32>, tensor<1x5x4x6xf32> -> tensor<*xf32>
  %1 = stride.matmul %b, %w : tensor<1x5x4x6xf32>, tensor<6xf32> -> tensor<*xf32>
  %2 = stride.matmul %v, %v : tensor<4xf32>, tensor<4xf32> -> tensor<*xf32>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// A transposed operand (strides (1, 4), as m.T of a contiguous 2x4 array),
// then an elementwise op on the product.
// TRANSPOSED: output #0: f32 2x2 strides [2, 1]
func.func @transposed(%m: tensor<2x4xf32>, %t: tensor<4x2xf32, #stride.layout<strides = [1, 4]>>) -> tensor<*xf32> {
  %0 = stride.matmul %m, %t : tensor<2x4xf32>, tensor<4x2xf32, #stride.layout<strides = [1, 4]>> -> tensor<*xf32>
  %1 = stride.tanh %0 : tensor<*xf32> -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

// Integer matmul.
func.func @integer(%i: tensor<3x4xi32>, %j: tensor<4x2xi32>) -> tensor<*xi32> {
  %0 = stride.matmul %i, %j : tensor<3x4xi32>, tensor<4x2xi32> -> tensor<*xi32>
  return %0 : tensor<*xi32>
}

func.func @unit_broadcast(%x: tensor<5x3x1xf32>, %w: tensor<1x1xf32, #stride.layout<strides = [1, 0]>>) -> tensor<*xf32> {
  %0 = stride.matmul %x, %w : tensor<5x3x1xf32>, tensor<1x1xf32, #stride.layout<strides = [1, 0]>> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

func.func @batch_order(%a: tensor<4x5x2x3xf32, #stride.layout<strides = [1, 4, 60, 20]>>, %b: tensor<3x2xf32>) -> tensor<*xf32> {
  %0 = stride.matmul %a, %b : tensor<4x5x2x3xf32, #stride.layout<strides = [1, 4, 60, 20]>>, tensor<3x2xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

func.func @unit_batch(%a: tensor<2x1x1x1xf64>, %b: tensor<1x2x1x2xf64, #stride.layout<strides = [2, 2, 1, 4]>>) -> tensor<*xf64> {
  %0 = stride.matmul %a, %b : tensor<2x1x1x1xf64>, tensor<1x2x1x2xf64, #stride.layout<strides = [2, 2, 1, 4]>> -> tensor<*xf64>
  return %0 : tensor<*xf64>
}

func.func @unit_rows(%a: tensor<3x1x1x5xf32>, %b: tensor<1x3x5x3xf32, #stride.layout<perm = [0, 1, 3, 2]>>) -> tensor<*xf32> {
  %0 = stride.matmul %a, %b : tensor<3x1x1x5xf32>, tensor<1x3x5x3xf32, #stride.layout<perm = [0, 1, 3, 2]>> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
