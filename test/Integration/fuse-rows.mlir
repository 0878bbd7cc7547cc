// Row loops of stride-fuse-rows give NumPy's values: softmax and layer norm
// on shapes whose rows do not divide into powers of two (1000 rows in
// blocks of 200, 97 rows one at a time), a 3-d input reduced over its last
// dim and over its last two, integer sums broadcast back (int32 -> int64),
// a column vector sliced with the rows, a row loop's result read by a
// later reduction, and 2 threads (a loop of 4 MiB in, 4 MiB out); under
// the NumPy policy, a mean of integers (float64). The pipeline's IR shows
// the loops (under the NumPy policy, which the mean of integers needs).
// RUN: stride-opt %s --stride-to-linalg-pipeline=policy=numpy | FileCheck %s
// RUN: stride-opt %s --stride-to-linalg-pipeline="policy=numpy threads=2" | FileCheck %s --check-prefix=PAR
// RUN: rm -rf %t && mkdir -p %t/in
// RUN: %npytool make %t/in a="rand(1000, 37)" b="rand(97, 300, dtype=np.float64)" c="rand(60, 6, 50)" w="rand(50)" d="rand(64, 10, 40)" v="rand(10, 40)" i="(rand(500, 40) * 1000).astype(np.int32)" k="rand(500, 1) + 5" big="rand(1024, 1024)" l="rand(64, 1024)"
// RUN: stride-run %s --entry softmax --input %t/in/a.npy --output-dir %t/softmax
// RUN: %npytool check %t/in "np.exp(a - a.max(axis=1, keepdims=True)) / np.exp(a - a.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True)" %t/softmax/out0.npy
// RUN: stride-run %s --entry softmax64 --input %t/in/b.npy --output-dir %t/softmax64
// RUN: %npytool check %t/in "np.exp(b - b.max(axis=-1, keepdims=True)) / np.exp(b - b.max(axis=-1, keepdims=True)).sum(axis=-1, keepdims=True)" %t/softmax64/out0.npy 1e-15
// RUN: stride-run %s --entry layer_norm3d --input %t/in/c.npy --input %t/in/w.npy --output-dir %t/ln
// RUN: %npytool check %t/in "(c - c.mean(axis=-1, keepdims=True)) / np.sqrt(((c - c.mean(axis=-1, keepdims=True)) ** 2).mean(axis=-1, keepdims=True) + np.float32(1e-5)) * w" %t/ln/out0.npy 1e-5
// RUN: stride-run %s --entry two_dims --input %t/in/d.npy --input %t/in/v.npy --output-dir %t/two
// RUN: %npytool check %t/in "(d - d.mean(axis=(1, 2), keepdims=True)) * v" %t/two/out0.npy 1e-5
// RUN: stride-run %s --entry integers --input %t/in/i.npy --input %t/in/k.npy --output-dir %t/int
// RUN: %npytool check %t/in "i - i.sum(axis=1, keepdims=True)" %t/int/out0.npy
// RUN: %npytool check %t/in "i.astype(np.float32) / (i.astype(np.float32).sum(axis=1, keepdims=True) + k)" %t/int/out1.npy 1e-5
// RUN: stride-run %s --entry consumed --input %t/in/a.npy --output-dir %t/consumed
// RUN: %npytool check %t/in "(a / np.abs(a).max(axis=1, keepdims=True)).sum(axis=0)" %t/consumed/out0.npy 1e-5
// RUN: stride-run %s --entry softmax_big --num-threads 2 --input %t/in/big.npy --output-dir %t/threads
// RUN: %npytool check %t/in "np.exp(big - big.max(axis=1, keepdims=True)) / np.exp(big - big.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True)" %t/threads/out0.npy
// RUN: stride-run %s --entry in_loop --input %t/in/l.npy --output-dir %t/loop
// RUN: %npytool check %t/in "(lambda s: (lambda c: (c - c.mean(axis=1, keepdims=True)) * l)(s - s.mean(axis=1, keepdims=True)))(__import__('functools').reduce(lambda v, _: (lambda e: e / e.sum(axis=1, keepdims=True))(np.exp(v - v.max(axis=1, keepdims=True))), range(3000), l))" %t/loop/out0.npy 1e-6
// RUN: stride-run %s --entry int_mean --policy numpy --input %t/in/i.npy --output-dir %t/mean
// RUN: %npytool check %t/in "i - i.mean(axis=1, keepdims=True)" %t/mean/out0.npy 1e-9

// On one thread the blocks' temporaries are allocated once, on the stack,
// in the function's entry block; no iteration allocates.
// CHECK-LABEL: func.func @softmax
// CHECK: memref.alloca() {{.*}} : memref<7400xf32>
// CHECK: scf.for
// CHECK-NOT: memref.alloc
// CHECK-LABEL: func.func @softmax64
// The 1000x37 softmax moves less than 2 MiB: one thread even with two. The
// threaded loop allocates its temporaries in its body, on the stack of the
// thread running the iteration.
// PAR-LABEL: func.func @softmax
// PAR-NOT: scf.parallel
// PAR: scf.for
// PAR-LABEL: func.func @softmax_big
// PAR: scf.parallel
// PAR: memref.alloca() {{.*}} : memref<8192xf32>
func.func @softmax(%x: tensor<1000x37xf32>) -> tensor<*xf32> {
  %m = stride.amax %x axes [1] keepdims : tensor<1000x37xf32> -> tensor<*xf32>
  %d = stride.sub %x, %m : tensor<1000x37xf32>, tensor<*xf32> -> tensor<*xf32>
  %e = stride.exp %d : tensor<*xf32> -> tensor<*xf32>
  %s = stride.sum %e axes [1] keepdims : tensor<*xf32> -> tensor<*xf32>
  %r = stride.div %e, %s : tensor<*xf32>, tensor<*xf32> -> tensor<*xf32>
  return %r : tensor<*xf32>
}

func.func @softmax64(%x: tensor<97x300xf64>) -> tensor<*xf64> {
  %m = stride.amax %x axes [-1] keepdims : tensor<97x300xf64> -> tensor<*xf64>
  %d = stride.sub %x, %m : tensor<97x300xf64>, tensor<*xf64> -> tensor<*xf64>
  %e = stride.exp %d : tensor<*xf64> -> tensor<*xf64>
  %s = stride.sum %e axes [-1] keepdims : tensor<*xf64> -> tensor<*xf64>
  %r = stride.div %e, %s : tensor<*xf64>, tensor<*xf64> -> tensor<*xf64>
  return %r : tensor<*xf64>
}

func.func @layer_norm3d(%x: tensor<60x6x50xf32>, %w: tensor<50xf32>) -> tensor<*xf32> {
  %m = stride.mean %x axes [-1] keepdims : tensor<60x6x50xf32> -> tensor<*xf32>
  %c = stride.sub %x, %m : tensor<60x6x50xf32>, tensor<*xf32> -> tensor<*xf32>
  %q = stride.square %c : tensor<*xf32> -> tensor<*xf32>
  %v = stride.mean %q axes [-1] keepdims : tensor<*xf32> -> tensor<*xf32>
  %eps = arith.constant 1.0e-5 : f32
  %ve = stride.add %v, %eps : tensor<*xf32>, f32 -> tensor<*xf32>
  %sd = stride.sqrt %ve : tensor<*xf32> -> tensor<*xf32>
  %n = stride.div %c, %sd : tensor<*xf32>, tensor<*xf32> -> tensor<*xf32>
  %r = stride.mul %n, %w : tensor<*xf32>, tensor<50xf32> -> tensor<*xf32>
  return %r : tensor<*xf32>
}

func.func @two_dims(%x: tensor<64x10x40xf32>, %v: tensor<10x40xf32>) -> tensor<*xf32> {
  %m = stride.mean %x axes [1, 2] keepdims : tensor<64x10x40xf32> -> tensor<*xf32>
  %c = stride.sub %x, %m : tensor<64x10x40xf32>, tensor<*xf32> -> tensor<*xf32>
  %r = stride.mul %c, %v : tensor<*xf32>, tensor<10x40xf32> -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// Two outputs: an int32 input less its int64 row sums, and a float input
// over its row sums plus a column vector (sliced with the rows).
func.func @integers(%i: tensor<500x40xi32>, %k: tensor<500x1xf32>) -> (tensor<*xi64>, tensor<*xf32>) {
  %s = stride.sum %i axes [1] keepdims : tensor<500x40xi32> -> tensor<*xi64>
  %w = stride.cast %i : tensor<500x40xi32> -> tensor<*xi64>
  %r = stride.sub %w, %s : tensor<*xi64>, tensor<*xi64> -> tensor<*xi64>
  %a = stride.cast %i : tensor<500x40xi32> -> tensor<*xf32>
  %t = stride.sum %a axes [1] keepdims : tensor<*xf32> -> tensor<*xf32>
  %u = stride.add %t, %k : tensor<*xf32>, tensor<500x1xf32> -> tensor<*xf32>
  %q = stride.div %a, %u : tensor<*xf32>, tensor<*xf32> -> tensor<*xf32>
  return %r, %q : tensor<*xi64>, tensor<*xf32>
}

// The row loop's result is read by a column sum after it.
func.func @consumed(%x: tensor<1000x37xf32>) -> tensor<*xf32> {
  %ab = stride.abs %x : tensor<1000x37xf32> -> tensor<*xf32>
  %m = stride.amax %ab axes [1] keepdims : tensor<*xf32> -> tensor<*xf32>
  %n = stride.div %x, %m : tensor<1000x37xf32>, tensor<*xf32> -> tensor<*xf32>
  %s = stride.sum %n axes [0] : tensor<*xf32> -> tensor<*xf32>
  return %s : tensor<*xf32>
}

func.func @softmax_big(%x: tensor<1024x1024xf32>) -> tensor<*xf32> {
  %m = stride.amax %x axes [1] keepdims : tensor<1024x1024xf32> -> tensor<*xf32>
  %d = stride.sub %x, %m : tensor<1024x1024xf32>, tensor<*xf32> -> tensor<*xf32>
  %e = stride.exp %d : tensor<*xf32> -> tensor<*xf32>
  %s = stride.sum %e axes [1] keepdims : tensor<*xf32> -> tensor<*xf32>
  %r = stride.div %e, %s : tensor<*xf32>, tensor<*xf32> -> tensor<*xf32>
  return %r : tensor<*xf32>
}

func.func @int_mean(%i: tensor<500x40xi32>) -> tensor<*xf64> {
  %m = stride.mean %i axes [1] keepdims : tensor<500x40xi32> -> tensor<*xf64>
  %f = stride.cast %i : tensor<500x40xi32> -> tensor<*xf64>
  %r = stride.sub %f, %m : tensor<*xf64>, tensor<*xf64> -> tensor<*xf64>
  return %r : tensor<*xf64>
}

// A row loop in an scf.for body and in a private function: the one-thread
// temporaries live in the function's entry block, so 3000 iterations do not
// grow the stack (at 36 KiB an iteration, they would overflow it).
// CHECK-LABEL: func.func @in_loop
// CHECK: memref.alloca() {{.*}} : memref<8192xf32>
// CHECK: scf.for
// CHECK-NOT: memref.alloca
// CHECK: return
func.func @in_loop(%x: tensor<64x1024xf32>) -> tensor<*xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 3000 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%v = %x) -> (tensor<64x1024xf32>) {
    %m = stride.amax %v axes [1] keepdims : tensor<64x1024xf32> -> tensor<64x1xf32>
    %d = stride.sub %v, %m : tensor<64x1024xf32>, tensor<64x1xf32> -> tensor<64x1024xf32>
    %e = stride.exp %d : tensor<64x1024xf32> -> tensor<64x1024xf32>
    %s = stride.sum %e axes [1] keepdims : tensor<64x1024xf32> -> tensor<64x1xf32>
    %q = stride.div %e, %s : tensor<64x1024xf32>, tensor<64x1xf32> -> tensor<64x1024xf32>
    scf.yield %q : tensor<64x1024xf32>
  }
  %t = func.call @centred(%r) : (tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %u = func.call @centred(%t) : (tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %w = stride.mul %u, %x : tensor<64x1024xf32>, tensor<64x1024xf32> -> tensor<*xf32>
  return %w : tensor<*xf32>
}

func.func private @centred(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %m = stride.mean %x axes [1] keepdims : tensor<64x1024xf32> -> tensor<64x1xf32>
  %c = stride.sub %x, %m : tensor<64x1024xf32>, tensor<64x1xf32> -> tensor<64x1024xf32>
  return %c : tensor<64x1024xf32>
}
