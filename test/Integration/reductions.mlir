// Reductions run end to end by stride-run on inputs in several layouts,
// each result checked against NumPy (values and dtype) by npytool.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t x="rand(4,5,6)" c="np.tile(rand(1,6), (4,1))" s="np.array([[1.0, np.nan, 3.0, np.nan], [2.0, 5.0, 5.0, -1.0], [-np.inf, -np.inf, 0.0, 0.0]])" i="np.array([[3, -7, 3, 9], [0, 0, -2**31, 2**31-1], [5, 5, 5, 5]], dtype=np.int32)" b="np.array([[True, False, True], [True, True, True]])"
// RUN: stride-run %s --entry floats --input %t/x.npy --output-dir %t
// RUN: %npytool check %t "np.sum(x, axis=(0, -1))" %t/out0.npy 1e-5
// RUN: %npytool check %t "np.prod(x, axis=1, keepdims=True)" %t/out1.npy
// RUN: %npytool check %t "np.amax(x, axis=2)" %t/out2.npy
// RUN: %npytool check %t "np.amin(x, axis=0)" %t/out3.npy
// RUN: %npytool check %t "np.mean(x, axis=1)" %t/out4.npy
// RUN: %npytool check %t "np.argmax(x, axis=-1)" %t/out5.npy
// RUN: %npytool check %t "np.argmin(x, axis=0)" %t/out6.npy
// RUN: %npytool check %t "np.any(x > 1.9, axis=(0, 1))" %t/out7.npy
// RUN: %npytool check %t "np.all(x, axis=1)" %t/out8.npy
// RUN: %npytool check %t "np.sum(x)" %t/out9.npy 1e-4
// RUN: %npytool check %t "np.argmax(x)" %t/out10.npy
// RUN: rm -rf %t/gpu && mkdir -p %t/gpu && cp %t/x.npy %t/gpu/
// RUN: stride-run %s --entry floats --target gpu-host --input %t/x.npy --output-dir %t/gpu
// RUN: %npytool check %t/gpu "np.sum(x, axis=(0, -1))" %t/gpu/out0.npy 1e-5
// RUN: %npytool check %t/gpu "np.mean(x, axis=1)" %t/gpu/out4.npy
// RUN: %npytool check %t/gpu "np.argmax(x, axis=-1)" %t/gpu/out5.npy
// RUN: %npytool check %t/gpu "np.sum(x)" %t/gpu/out9.npy 1e-4
// RUN: %npytool check %t/gpu "np.argmax(x)" %t/gpu/out10.npy
// RUN: stride-run %s --entry layouts --input %t/x.npy --input %t/x.npy --input %t/c.npy --output-dir %t
// RUN: %npytool check %t "np.sum(x, axis=1)" %t/out0.npy 1e-5
// RUN: %npytool check %t "np.argmax(x, axis=0)" %t/out1.npy
// RUN: %npytool check %t "np.amax(x, axis=(0, 2), keepdims=True)" %t/out2.npy
// RUN: %npytool check %t "np.argmin(x, axis=0)" %t/out3.npy
// RUN: %npytool check %t "np.argmax(x)" %t/out4.npy
// RUN: %npytool check %t "np.mean(c, axis=0)" %t/out5.npy
// RUN: %npytool check %t "np.sum(c, axis=1)" %t/out6.npy 1e-5
// RUN: %npytool make %t l="np.round(rand(3,5,37) * 2) / 2" p="np.float32(1) + rand(3,5,37) / np.float32(64)" ln="np.where(np.arange(3*5*37).reshape(3,5,37) % 41 == 7, np.float32(np.nan), np.round(rand(3,5,37)))"
// RUN: stride-run %s --entry lanes --input %t/l.npy --input %t/p.npy --input %t/ln.npy --output-dir %t
// RUN: %npytool check %t "np.argmax(l, axis=2)" %t/out0.npy
// RUN: %npytool check %t "np.argmin(l, axis=-1)" %t/out1.npy
// RUN: %npytool check %t "np.argmax(l)" %t/out2.npy
// RUN: %npytool check %t "np.sum(l, axis=(1, 2))" %t/out3.npy 1e-5
// RUN: %npytool check %t "np.mean(l, axis=2, keepdims=True)" %t/out4.npy
// RUN: %npytool check %t "np.prod(p, axis=2)" %t/out5.npy
// RUN: %npytool check %t "np.argmax(ln, axis=2)" %t/out6.npy
// RUN: %npytool check %t "np.argmin(ln)" %t/out7.npy
// RUN: %npytool check %t "np.sum(ln, axis=2)" %t/out8.npy
// RUN: %npytool make %t z="np.zeros((3, 0), np.float32)" k="np.float64(2.5)"
// RUN: stride-run %s --entry edges --policy numpy --input %t/z.npy --input %t/k.npy --output-dir %t
// RUN: %npytool check %t "np.sum(z, axis=1)" %t/out0.npy
// RUN: %npytool check %t "np.prod(z, axis=1)" %t/out1.npy
// RUN: %npytool check %t "np.any(z, axis=1)" %t/out2.npy
// RUN: %npytool check %t "np.all(z, axis=1)" %t/out3.npy
// RUN: %npytool check %t "np.mean(z, axis=1)" %t/out4.npy
// RUN: %npytool check %t "np.amax(z, axis=0)" %t/out5.npy
// RUN: %npytool check %t "np.sum(k)" %t/out6.npy
// RUN: %npytool check %t "np.argmax(k, axis=0)" %t/out7.npy
// RUN: %npytool check %t "np.amin(k, keepdims=True)" %t/out8.npy
// RUN: stride-run %s --entry special --input %t/s.npy --output-dir %t
// RUN: %npytool check %t "np.amax(s, axis=1)" %t/out0.npy
// RUN: %npytool check %t "np.amin(s, axis=1)" %t/out1.npy
// RUN: %npytool check %t "np.argmax(s, axis=1)" %t/out2.npy
// RUN: %npytool check %t "np.argmin(s, axis=1)" %t/out3.npy
// RUN: %npytool check %t "np.argmax(s, axis=0)" %t/out4.npy
// RUN: %npytool check %t "np.sum(s, axis=1)" %t/out5.npy
// RUN: %npytool check %t "np.any(s, axis=0)" %t/out6.npy
// RUN: %npytool check %t "np.all(s, axis=0)" %t/out7.npy
// RUN: stride-run %s --entry integers --policy numpy --input %t/i.npy --input %t/b.npy --output-dir %t
// RUN: %npytool check %t "np.sum(i, axis=1)" %t/out0.npy
// RUN: %npytool check %t "np.prod(i, axis=0)" %t/out1.npy
// RUN: %npytool check %t "np.amax(i, axis=1)" %t/out2.npy
// RUN: %npytool check %t "np.amin(i, axis=1)" %t/out3.npy
// RUN: %npytool check %t "np.argmax(i, axis=1)" %t/out4.npy
// RUN: %npytool check %t "np.argmin(i, axis=1)" %t/out5.npy
// RUN: %npytool check %t "np.mean(i, axis=1)" %t/out6.npy
// RUN: %npytool check %t "np.sum(b, axis=1)" %t/out7.npy
// RUN: %npytool check %t "np.any(b, axis=1)" %t/out8.npy
// RUN: %npytool check %t "np.all(b, axis=1)" %t/out9.npy
// RUN: %npytool check %t "np.amax(b, axis=1)" %t/out10.npy
// RUN: %npytool check %t "np.amin(b, axis=1)" %t/out11.npy
// RUN: %npytool check %t "np.argmax(b, axis=1)" %t/out12.npy
// RUN: %npytool check %t "np.prod(b, axis=0)" %t/out13.npy

// f32 reductions over one, several and all axes.
func.func @floats(%x: tensor<4x5x6xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi64>, tensor<*xi64>, tensor<*xi1>, tensor<*xi1>, tensor<*xf32>, tensor<*xi64>) {
  %0 = stride.sum %x axes [0, -1] : tensor<4x5x6xf32> -> tensor<*xf32>
  %1 = stride.prod %x axes [1] keepdims : tensor<4x5x6xf32> -> tensor<*xf32>
  %2 = stride.amax %x axes [2] : tensor<4x5x6xf32> -> tensor<*xf32>
  %3 = stride.amin %x axes [0] : tensor<4x5x6xf32> -> tensor<*xf32>
  %4 = stride.mean %x axes [1] : tensor<4x5x6xf32> -> tensor<*xf32>
  %5 = stride.argmax %x axes [-1] : tensor<4x5x6xf32> -> tensor<*xi64>
  %6 = stride.argmin %x axes [0] : tensor<4x5x6xf32> -> tensor<*xi64>
  %t = arith.constant 1.9 : f32
  %g = stride.cmp gt, %x, %t : tensor<4x5x6xf32>, f32 -> tensor<*xi1>
  %7 = stride.any %g axes [0, 1] : tensor<*xi1> -> tensor<*xi1>
  %8 = stride.all %x axes [1] : tensor<4x5x6xf32> -> tensor<*xi1>
  %9 = stride.sum %x : tensor<4x5x6xf32> -> tensor<*xf32>
  %10 = stride.argmax %x : tensor<4x5x6xf32> -> tensor<*xi64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi64>, tensor<*xi64>, tensor<*xi1>, tensor<*xi1>, tensor<*xf32>, tensor<*xi64>
}

// Column-major, reversed (negative strides) and broadcast (stride 0)
// inputs; argmax counts indices in the logical order, whatever the memory
// order.
func.func @layouts(%f: tensor<4x5x6xf32, #stride.layout<strides = [1, 4, 20]>>, %r: tensor<4x5x6xf32, #stride.layout<strides = [-30, 6, -1]>>, %c: tensor<4x6xf32, #stride.layout<strides = [0, 1]>>) -> (tensor<*xf32>, tensor<*xi64>, tensor<*xf32>, tensor<*xi64>, tensor<*xi64>, tensor<*xf32>, tensor<*xf32>) {
  %0 = stride.sum %f axes [1] : tensor<4x5x6xf32, #stride.layout<strides = [1, 4, 20]>> -> tensor<*xf32>
  %1 = stride.argmax %f axes [0] : tensor<4x5x6xf32, #stride.layout<strides = [1, 4, 20]>> -> tensor<*xi64>
  %2 = stride.amax %r axes [0, 2] keepdims : tensor<4x5x6xf32, #stride.layout<strides = [-30, 6, -1]>> -> tensor<*xf32>
  %3 = stride.argmin %r axes [0] : tensor<4x5x6xf32, #stride.layout<strides = [-30, 6, -1]>> -> tensor<*xi64>
  %4 = stride.argmax %r : tensor<4x5x6xf32, #stride.layout<strides = [-30, 6, -1]>> -> tensor<*xi64>
  %5 = stride.mean %c axes [0] : tensor<4x6xf32, #stride.layout<strides = [0, 1]>> -> tensor<*xf32>
  %6 = stride.sum %c axes [1] : tensor<4x6xf32, #stride.layout<strides = [0, 1]>> -> tensor<*xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<*xf32>, tensor<*xi64>, tensor<*xf32>, tensor<*xi64>, tensor<*xi64>, tensor<*xf32>, tensor<*xf32>
}

// NaN propagates through amax/amin and is the first argmax/argmin; ties
// give the first index; -inf and +inf are ordinary values.
func.func @special(%s: tensor<3x4xf64>) -> (tensor<*xf64>, tensor<*xf64>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>, tensor<*xf64>, tensor<*xi1>, tensor<*xi1>) {
  %0 = stride.amax %s axes [1] : tensor<3x4xf64> -> tensor<*xf64>
  %1 = stride.amin %s axes [1] : tensor<3x4xf64> -> tensor<*xf64>
  %2 = stride.argmax %s axes [1] : tensor<3x4xf64> -> tensor<*xi64>
  %3 = stride.argmin %s axes [1] : tensor<3x4xf64> -> tensor<*xi64>
  %4 = stride.argmax %s axes [0] : tensor<3x4xf64> -> tensor<*xi64>
  %5 = stride.sum %s axes [1] : tensor<3x4xf64> -> tensor<*xf64>
  %6 = stride.any %s axes [0] : tensor<3x4xf64> -> tensor<*xi1>
  %7 = stride.all %s axes [0] : tensor<3x4xf64> -> tensor<*xi1>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<*xf64>, tensor<*xf64>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>, tensor<*xf64>, tensor<*xi1>, tensor<*xi1>
}

// Integer and bool reductions: sums and products in i64 (wrapping), the
// mean of integers in f64 (NumPy), bools ordered false < true.
func.func @integers(%i: tensor<3x4xi32>, %b: tensor<2x3xi1>) -> (tensor<*xi64>, tensor<*xi64>, tensor<*xi32>, tensor<*xi32>, tensor<*xi64>, tensor<*xi64>, tensor<*xf64>, tensor<*xi64>, tensor<*xi1>, tensor<*xi1>, tensor<*xi1>, tensor<*xi1>, tensor<*xi64>, tensor<*xi64>) {
  %0 = stride.sum %i axes [1] : tensor<3x4xi32> -> tensor<*xi64>
  %1 = stride.prod %i axes [0] : tensor<3x4xi32> -> tensor<*xi64>
  %2 = stride.amax %i axes [1] : tensor<3x4xi32> -> tensor<*xi32>
  %3 = stride.amin %i axes [1] : tensor<3x4xi32> -> tensor<*xi32>
  %4 = stride.argmax %i axes [1] : tensor<3x4xi32> -> tensor<*xi64>
  %5 = stride.argmin %i axes [1] : tensor<3x4xi32> -> tensor<*xi64>
  %6 = stride.mean %i axes [1] : tensor<3x4xi32> -> tensor<*xf64>
  %7 = stride.sum %b axes [1] : tensor<2x3xi1> -> tensor<*xi64>
  %8 = stride.any %b axes [1] : tensor<2x3xi1> -> tensor<*xi1>
  %9 = stride.all %b axes [1] : tensor<2x3xi1> -> tensor<*xi1>
  %10 = stride.amax %b axes [1] : tensor<2x3xi1> -> tensor<*xi1>
  %11 = stride.amin %b axes [1] : tensor<2x3xi1> -> tensor<*xi1>
  %12 = stride.argmax %b axes [1] : tensor<2x3xi1> -> tensor<*xi64>
  %13 = stride.prod %b axes [0] : tensor<2x3xi1> -> tensor<*xi64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13 : tensor<*xi64>, tensor<*xi64>, tensor<*xi32>, tensor<*xi32>, tensor<*xi64>, tensor<*xi64>, tensor<*xf64>, tensor<*xi64>, tensor<*xi1>, tensor<*xi1>, tensor<*xi1>, tensor<*xi1>, tensor<*xi64>, tensor<*xi64>
}

// Long reductions along the innermost dim run in 16 lanes plus a partial
// block (37 = 2 * 16 + 5), combined afterwards; argmax's first index and
// NaN rule hold across lanes, and reversed outer dims (kept and reduced)
// keep their logical indices.
func.func @lanes(%l: tensor<3x5x37xf32, #stride.layout<strides = [-185, -37, 1]>>, %p: tensor<3x5x37xf32>, %n: tensor<3x5x37xf32, #stride.layout<strides = [185, -37, 1]>>) -> (tensor<*xi64>, tensor<*xi64>, tensor<*xi64>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi64>, tensor<*xi64>, tensor<*xf32>) {
  %0 = stride.argmax %l axes [2] : tensor<3x5x37xf32, #stride.layout<strides = [-185, -37, 1]>> -> tensor<*xi64>
  %1 = stride.argmin %l axes [-1] : tensor<3x5x37xf32, #stride.layout<strides = [-185, -37, 1]>> -> tensor<*xi64>
  %2 = stride.argmax %l : tensor<3x5x37xf32, #stride.layout<strides = [-185, -37, 1]>> -> tensor<*xi64>
  %3 = stride.sum %l axes [1, 2] : tensor<3x5x37xf32, #stride.layout<strides = [-185, -37, 1]>> -> tensor<*xf32>
  %4 = stride.mean %l axes [2] keepdims : tensor<3x5x37xf32, #stride.layout<strides = [-185, -37, 1]>> -> tensor<*xf32>
  %5 = stride.prod %p axes [2] : tensor<3x5x37xf32> -> tensor<*xf32>
  %6 = stride.argmax %n axes [2] : tensor<3x5x37xf32, #stride.layout<strides = [185, -37, 1]>> -> tensor<*xi64>
  %7 = stride.argmin %n : tensor<3x5x37xf32, #stride.layout<strides = [185, -37, 1]>> -> tensor<*xi64>
  %8 = stride.sum %n axes [2] : tensor<3x5x37xf32, #stride.layout<strides = [185, -37, 1]>> -> tensor<*xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<*xi64>, tensor<*xi64>, tensor<*xi64>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi64>, tensor<*xi64>, tensor<*xf32>
}

// Empty reductions give the identity (mean: NaN); an empty result needs no
// identity (amax over a non-empty axis of an empty array); 0-d inputs
// reduce to themselves.
func.func @edges(%z: tensor<3x0xf32>, %k: tensor<f64>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xi1>, tensor<*xi1>, tensor<*xf32>, tensor<*xf32>, tensor<*xf64>, tensor<*xi64>, tensor<*xf64>) {
  %0 = stride.sum %z axes [1] : tensor<3x0xf32> -> tensor<*xf32>
  %1 = stride.prod %z axes [1] : tensor<3x0xf32> -> tensor<*xf32>
  %2 = stride.any %z axes [1] : tensor<3x0xf32> -> tensor<*xi1>
  %3 = stride.all %z axes [1] : tensor<3x0xf32> -> tensor<*xi1>
  %4 = stride.mean %z axes [1] : tensor<3x0xf32> -> tensor<*xf32>
  %5 = stride.amax %z axes [0] : tensor<3x0xf32> -> tensor<*xf32>
  %6 = stride.sum %k : tensor<f64> -> tensor<*xf64>
  %7 = stride.argmax %k axes [0] : tensor<f64> -> tensor<*xi64>
  %8 = stride.amin %k keepdims : tensor<f64> -> tensor<*xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<*xf32>, tensor<*xf32>, tensor<*xi1>, tensor<*xi1>, tensor<*xf32>, tensor<*xf32>, tensor<*xf64>, tensor<*xi64>, tensor<*xf64>
}
