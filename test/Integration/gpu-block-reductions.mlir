// Reductions mapped to block trees (stride-map-linalg-to-gpu: a block per
// output or per chunk of one, gpu.all_reduce, a second launch combining the
// chunks) run on the host with the grid and block enumerated
// (--target=gpu-host: 32 threads per block, at most 4 blocks, so blocks
// loop over tasks and threads over several points each), checked against
// NumPy: sizes across the block and chunk boundaries, one output and many,
// several reduced axes, reversed and column-major inputs, NaN, narrow
// integers, booleans, and a dynamic size.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t x="rand(8,1000)" v="rand(70001)" n="np.where(rand(5,777) > 0.999, np.nan, rand(5,777))" b="(rand(6,4,300) - 0.5).astype(np.float64)" i="(np.arange(3*500).reshape(3, 500) * 37 % 251 - 125).astype(np.int8)" k="np.arange(4*999, dtype=np.int32).reshape(4, 999) * 7919 - 9000" t="rand(40,70) > 0.97" d="rand(4097).astype(np.float64)"
// RUN: stride-run %s --target=gpu-host --entry floats --input %t/x.npy --input %t/v.npy --input %t/n.npy --input %t/b.npy --input %t/b.npy --output-dir %t
// RUN: %npytool check %t "np.sum(x, axis=1)" %t/out0.npy 1e-5
// RUN: %npytool check %t "np.sum(v)" %t/out1.npy 1e-5
// RUN: %npytool check %t "np.amax(n, axis=1)" %t/out2.npy
// RUN: %npytool check %t "np.mean(b, axis=(0, 2))" %t/out3.npy 1e-12
// RUN: %npytool check %t "np.amin(b, axis=(1, 2), keepdims=True)" %t/out4.npy
// RUN: %npytool check %t "np.prod(1 + x / 1000, axis=1)" %t/out5.npy 1e-5
// RUN: %npytool check %t "np.sum(x * x)" %t/out6.npy 1e-5
// RUN: %npytool check %t "np.argmax(n, axis=1)" %t/out7.npy
// RUN: %npytool check %t "np.argmax(v)" %t/out8.npy
// RUN: %npytool check %t "np.argmin(b, axis=2)" %t/out9.npy
// RUN: stride-run %s --target=gpu-host --entry integers --input %t/i.npy --input %t/k.npy --input %t/t.npy --output-dir %t
// RUN: %npytool check %t "np.amax(i, axis=1)" %t/out0.npy
// RUN: %npytool check %t "np.amin(i, axis=1)" %t/out1.npy
// RUN: %npytool check %t "np.sum(k, axis=1)" %t/out2.npy
// RUN: %npytool check %t "np.any(t, axis=1)" %t/out3.npy
// RUN: %npytool check %t "np.all(~t)" %t/out4.npy
// RUN: %npytool check %t "np.sum(t)" %t/out5.npy
// RUN: %npytool check %t "np.argmin(i, axis=1)" %t/out6.npy
// RUN: %npytool check %t "np.argmax(i, axis=1)" %t/out7.npy
// RUN: %npytool check %t "np.argmax(k % 1000, axis=1)" %t/out8.npy
// RUN: stride-run %s --target=gpu-host --entry dynamic --dynamic --input %t/d.npy --output-dir %t
// RUN: %npytool check %t "np.sum(d)" %t/out0.npy 1e-5
// RUN: %npytool check %t "np.amax(d)" %t/out1.npy
// RUN: %npytool check %t "np.argmin(d)" %t/out2.npy

// f32 and f64: row sums (one chunk per row), a full sum split into chunks
// (70001 points: two launches), NaN-propagating maxima, a mean over two
// axes, an input with negative strides (its dense loop walked backwards), a product, a
// fused sum of squares, and argmax/argmin (first NaN, a full one split into
// chunks, one along a reversed dim).
func.func @floats(%x: tensor<8x1000xf32>, %v: tensor<70001xf32>, %n: tensor<5x777xf32>, %b: tensor<6x4x300xf64>, %br: tensor<6x4x300xf64, #stride.layout<strides = [-1200, 300, -1]>>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf64>, tensor<*xf64>, tensor<*xf32>, tensor<*xf32>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>) {
  %0 = stride.sum %x axes [1] : tensor<8x1000xf32> -> tensor<*xf32>
  %1 = stride.sum %v : tensor<70001xf32> -> tensor<*xf32>
  %2 = stride.amax %n axes [1] : tensor<5x777xf32> -> tensor<*xf32>
  %3 = stride.mean %b axes [0, 2] : tensor<6x4x300xf64> -> tensor<*xf64>
  %4 = stride.amin %br axes [1, 2] keepdims : tensor<6x4x300xf64, #stride.layout<strides = [-1200, 300, -1]>> -> tensor<*xf64>
  %c = arith.constant 1000.0 : f32
  %one = arith.constant 1.0 : f32
  %q = stride.div %x, %c : tensor<8x1000xf32>, f32 -> tensor<*xf32>
  %p = stride.add %q, %one : tensor<*xf32>, f32 -> tensor<*xf32>
  %5 = stride.prod %p axes [1] : tensor<*xf32> -> tensor<*xf32>
  %sq = stride.mul %x, %x : tensor<8x1000xf32>, tensor<8x1000xf32> -> tensor<*xf32>
  %6 = stride.sum %sq : tensor<*xf32> -> tensor<*xf32>
  %7 = stride.argmax %n axes [1] : tensor<5x777xf32> -> tensor<*xi64>
  %8 = stride.argmax %v : tensor<70001xf32> -> tensor<*xi64>
  %9 = stride.argmin %br axes [2] : tensor<6x4x300xf64, #stride.layout<strides = [-1200, 300, -1]>> -> tensor<*xi64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf64>, tensor<*xf64>, tensor<*xf32>, tensor<*xf32>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>
}

// Integers: i8 extrema (exchanged widened), an i32 sum into i64, boolean
// any/all, a count of trues, and argmin/argmax with ties (the first wins).
func.func @integers(%i: tensor<3x500xi8>, %k: tensor<4x999xi32>, %t: tensor<40x70xi1>) -> (tensor<*xi8>, tensor<*xi8>, tensor<*xi64>, tensor<*xi1>, tensor<*xi1>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>) {
  %0 = stride.amax %i axes [1] : tensor<3x500xi8> -> tensor<*xi8>
  %1 = stride.amin %i axes [1] : tensor<3x500xi8> -> tensor<*xi8>
  %2 = stride.sum %k axes [1] : tensor<4x999xi32> -> tensor<*xi64>
  %3 = stride.any %t axes [1] : tensor<40x70xi1> -> tensor<*xi1>
  %f = stride.logical_not %t : tensor<40x70xi1> -> tensor<*xi1>
  %4 = stride.all %f : tensor<*xi1> -> tensor<*xi1>
  %5 = stride.sum %t : tensor<40x70xi1> -> tensor<*xi64>
  %6 = stride.argmin %i axes [1] : tensor<3x500xi8> -> tensor<*xi64>
  %7 = stride.argmax %i axes [1] : tensor<3x500xi8> -> tensor<*xi64>
  %m = arith.constant 1000 : i32
  %km = stride.remainder %k, %m : tensor<4x999xi32>, i32 -> tensor<*xi32>
  %8 = stride.argmax %km axes [1] : tensor<*xi32> -> tensor<*xi64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<*xi8>, tensor<*xi8>, tensor<*xi64>, tensor<*xi1>, tensor<*xi1>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>
}

// A size known only at run time: the chunk count is computed in the kernel.
func.func @dynamic(%d: tensor<?xf64>) -> (tensor<*xf64>, tensor<*xf64>, tensor<*xi64>) {
  %0 = stride.sum %d : tensor<?xf64> -> tensor<*xf64>
  %1 = stride.amax %d : tensor<?xf64> -> tensor<*xf64>
  %2 = stride.argmin %d : tensor<?xf64> -> tensor<*xi64>
  return %0, %1, %2 : tensor<*xf64>, tensor<*xf64>, tensor<*xi64>
}
