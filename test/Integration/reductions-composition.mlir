// Reductions composed with elementwise ops (softmax and layer norm, a
// keepdims result broadcast back), dynamic shapes, and threads, each checked
// against NumPy by npytool.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t x="rand(7,33)" w="rand(33)" big="rand(1024,1024)" e="np.zeros((3, 0), np.float32)" n="np.int64(3)"
// RUN: stride-run %s --entry calls --input %t/x.npy --output-dir %t
// RUN: %npytool check %t "x - x.max(axis=0, keepdims=True)" %t/out0.npy
// RUN: stride-run %s --entry loop --input %t/x.npy --input %t/n.npy --output-dir %t
// RUN: %npytool check %t "x.sum(axis=0) + 3 * x.max(axis=0)" %t/out0.npy 1e-5
// RUN: stride-run %s --entry softmax --input %t/x.npy --output-dir %t
// RUN: %npytool check %t "np.exp(x - x.max(axis=-1, keepdims=True)) / np.exp(x - x.max(axis=-1, keepdims=True)).sum(axis=-1, keepdims=True)" %t/out0.npy
// RUN: stride-run %s --entry layer_norm --input %t/x.npy --input %t/w.npy --output-dir %t
// RUN: %npytool check %t "(x - x.mean(axis=1, keepdims=True)) / np.sqrt(((x - x.mean(axis=1, keepdims=True)) ** 2).mean(axis=1, keepdims=True) + np.float32(1e-5)) * w" %t/out0.npy 1e-5
// RUN: stride-run %s --entry dynamic --dynamic --input %t/x.npy --output-dir %t
// RUN: %npytool check %t "x.sum(axis=0)" %t/out0.npy 1e-5
// RUN: %npytool check %t "x.argmax(axis=1)" %t/out1.npy
// RUN: %npytool check %t "x.min(axis=1, keepdims=True)" %t/out2.npy
// RUN: stride-run %s --entry sum_only --dynamic --input %t/e.npy --output-dir %t
// RUN: %npytool check %t "e.sum(axis=1)" %t/out0.npy
// RUN: not stride-run %s --entry dynamic --dynamic --input %t/e.npy 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: stride-run %s --entry threaded --num-threads 2 --input %t/big.npy --output-dir %t
// RUN: %npytool check %t "big.sum(axis=1)" %t/out0.npy 1e-4
// RUN: %npytool check %t "big.max(axis=1)" %t/out1.npy
// RUN: %npytool check %t "big.argmin(axis=1)" %t/out2.npy
// RUN: %npytool check %t "big.mean(axis=0)" %t/out3.npy 1e-5

// softmax(x) over the last axis: amax and sum with keepdims, broadcast back.
func.func @softmax(%x: tensor<7x33xf32>) -> tensor<*xf32> {
  %m = stride.amax %x axes [-1] keepdims : tensor<7x33xf32> -> tensor<*xf32>
  %d = stride.sub %x, %m : tensor<7x33xf32>, tensor<*xf32> -> tensor<*xf32>
  %e = stride.exp %d : tensor<*xf32> -> tensor<*xf32>
  %s = stride.sum %e axes [-1] keepdims : tensor<*xf32> -> tensor<*xf32>
  %r = stride.div %e, %s : tensor<*xf32>, tensor<*xf32> -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// Layer norm over the rows, scaled by w.
func.func @layer_norm(%x: tensor<7x33xf32>, %w: tensor<33xf32>) -> tensor<*xf32> {
  %m = stride.mean %x axes [1] keepdims : tensor<7x33xf32> -> tensor<*xf32>
  %c = stride.sub %x, %m : tensor<7x33xf32>, tensor<*xf32> -> tensor<*xf32>
  %q = stride.square %c : tensor<*xf32> -> tensor<*xf32>
  %v = stride.mean %q axes [1] keepdims : tensor<*xf32> -> tensor<*xf32>
  %eps = arith.constant 1.0e-5 : f32
  %ve = stride.add %v, %eps : tensor<*xf32>, f32 -> tensor<*xf32>
  %sd = stride.sqrt %ve : tensor<*xf32> -> tensor<*xf32>
  %n = stride.div %c, %sd : tensor<*xf32>, tensor<*xf32> -> tensor<*xf32>
  %r = stride.mul %n, %w : tensor<*xf32>, tensor<33xf32> -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// Compiled for dynamic sizes: an empty reduced axis is fine for a sum; for
// amax-like reductions stride-run's probe of the inputs' shapes refuses it
// (the kernel's own run-time check, stride-infer-shapes-reduce.mlir, is
// what other callers meet).
// EMPTY: 'stride.argmax' op reduces axis 1 of size 0: argmax of an empty axis has no identity
// EMPTY: stride-run: error: the inputs' shapes do not fit @dynamic
func.func @dynamic(%x: tensor<?x?xf32>) -> (tensor<*xf32>, tensor<*xi64>, tensor<*xf32>) {
  %0 = stride.sum %x axes [0] : tensor<?x?xf32> -> tensor<*xf32>
  %1 = stride.argmax %x axes [1] : tensor<?x?xf32> -> tensor<*xi64>
  %2 = stride.amin %x axes [1] keepdims : tensor<?x?xf32> -> tensor<*xf32>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xi64>, tensor<*xf32>
}

func.func @sum_only(%x: tensor<?x?xf32>) -> tensor<*xf32> {
  %0 = stride.sum %x axes [1] : tensor<?x?xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// Large enough for the kept dim to be split across threads.
func.func @threaded(%x: tensor<1024x1024xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xi64>, tensor<*xf32>) {
  %0 = stride.sum %x axes [1] : tensor<1024x1024xf32> -> tensor<*xf32>
  %1 = stride.amax %x axes [1] : tensor<1024x1024xf32> -> tensor<*xf32>
  %2 = stride.argmin %x axes [1] : tensor<1024x1024xf32> -> tensor<*xi64>
  %3 = stride.mean %x axes [0] : tensor<1024x1024xf32> -> tensor<*xf32>
  return %0, %1, %2, %3 : tensor<*xf32>, tensor<*xf32>, tensor<*xi64>, tensor<*xf32>
}

// A reduction in a private function's result, and reductions feeding an
// scf.for's iteration value.
func.func private @column_max(%x: tensor<7x33xf32>) -> tensor<*xf32> {
  %0 = stride.amax %x axes [0] keepdims : tensor<7x33xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

func.func @calls(%x: tensor<7x33xf32>) -> tensor<*xf32> {
  %0 = func.call @column_max(%x) : (tensor<7x33xf32>) -> tensor<*xf32>
  %1 = stride.sub %x, %0 : tensor<7x33xf32>, tensor<*xf32> -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

func.func @loop(%x: tensor<7x33xf32>, %n64: i64) -> tensor<33xf32> {
  %n = arith.index_cast %n64 : i64 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = stride.sum %x axes [0] : tensor<7x33xf32> -> tensor<33xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> tensor<33xf32> {
    %m = stride.amax %x axes [0] : tensor<7x33xf32> -> tensor<33xf32>
    %a = stride.add %acc, %m : tensor<33xf32>, tensor<33xf32> -> tensor<33xf32>
    scf.yield %a : tensor<33xf32>
  }
  return %r : tensor<33xf32>
}
