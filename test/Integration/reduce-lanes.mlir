// Reductions along long contiguous rows accumulate in lanes (64 for f32, 32
// for f64, the rest of a row in the first lanes) folded in halves; checked
// against NumPy across lane and block edges, with infinities, NaN, ties
// and an inf - inf row, for each lane kind (sum, mean, prod, argmax,
// argmin) and a full sum.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t x="np.select([np.arange(4000).reshape(4, 1000) == k for k in (500, 1007, 2100, 2900, 3010, 3990)], [np.inf, np.nan, 5.0, 5.0, np.inf, -np.inf], rand(4, 1000)).astype(np.float32)" p="(1 + rand(3, 257) * 0.01).astype(np.float32)" y="rand(5, 131, dtype=np.float64)" o="np.ones((2, 200))" v="rand(4099)"
// RUN: stride-run %s --entry lanes --input %t/x.npy --input %t/p.npy --input %t/y.npy --input %t/o.npy --input %t/v.npy --output-dir %t
// RUN: %npytool check %t "np.sum(x, axis=1)" %t/out0.npy 1e-5
// RUN: %npytool check %t "np.mean(x, axis=1)" %t/out1.npy
// RUN: %npytool check %t "np.argmax(x, axis=1)" %t/out2.npy
// RUN: %npytool check %t "np.argmin(x, axis=1)" %t/out3.npy
// RUN: %npytool check %t "np.prod(p, axis=1)" %t/out4.npy
// RUN: %npytool check %t "np.sum(y, axis=1)" %t/out5.npy 1e-12
// RUN: %npytool check %t "np.argmin(y, axis=1)" %t/out6.npy
// RUN: %npytool check %t "np.argmax(o, axis=1)" %t/out7.npy
// RUN: %npytool check %t "np.argmin(o, axis=1)" %t/out8.npy
// RUN: %npytool check %t "np.sum(v)" %t/out9.npy 1e-4
// RUN: %npytool check %t "np.sum(y)" %t/out10.npy 1e-12
// Index reductions whose every element equals the identity (-inf, +inf,
// the most negative int32) or ties: the first index, in lanes and not.
// RUN: %npytool make %t w="np.full((2, 300), -np.inf, dtype=np.float32)" u="np.full((3, 5), np.inf)" k="np.full((2, 200), -2**31, dtype=np.int32)"
// RUN: stride-run %s --entry identities --input %t/w.npy --input %t/u.npy --input %t/k.npy --output-dir %t/id
// RUN: %npytool check %t "np.argmax(w, axis=1)" %t/id/out0.npy
// RUN: %npytool check %t "np.argmin(u, axis=0)" %t/id/out1.npy
// RUN: %npytool check %t "np.argmax(k, axis=1)" %t/id/out2.npy
// RUN: %npytool check %t "np.argmax(w)" %t/id/out3.npy
// Column sums in blocks of 16 rows (70 rows: a partial last block), with
// inf, NaN and inf - inf columns, f32 and f64, and a fused square.
// RUN: %npytool make %t c="np.select([np.arange(350).reshape(70, 5) == k for k in (3, 11, 22, 67)], [np.inf, np.nan, np.inf, -np.inf], rand(70, 5)).astype(np.float32)" d="rand(70, 3, dtype=np.float64)"
// RUN: stride-run %s --entry columns --input %t/c.npy --input %t/d.npy --output-dir %t/col
// RUN: %npytool check %t "np.sum(c, axis=0)" %t/col/out0.npy 1e-5
// RUN: %npytool check %t "np.sum(d, axis=0)" %t/col/out1.npy 1e-12
// RUN: %npytool check %t "np.sum(d * d, axis=0, keepdims=True)" %t/col/out2.npy 1e-12
func.func @lanes(%x: tensor<4x1000xf32>, %p: tensor<3x257xf32>,
                 %y: tensor<5x131xf64>, %o: tensor<2x200xf64>,
                 %v: tensor<4099xf32>)
    -> (tensor<*xf32>, tensor<*xf32>, tensor<*xi64>, tensor<*xi64>,
        tensor<*xf32>, tensor<*xf64>, tensor<*xi64>, tensor<*xi64>,
        tensor<*xi64>, tensor<*xf32>, tensor<*xf64>) {
  %0 = stride.sum %x axes [1] : tensor<4x1000xf32> -> tensor<*xf32>
  %1 = stride.mean %x axes [1] : tensor<4x1000xf32> -> tensor<*xf32>
  %2 = stride.argmax %x axes [1] : tensor<4x1000xf32> -> tensor<*xi64>
  %3 = stride.argmin %x axes [1] : tensor<4x1000xf32> -> tensor<*xi64>
  %4 = stride.prod %p axes [1] : tensor<3x257xf32> -> tensor<*xf32>
  %5 = stride.sum %y axes [1] : tensor<5x131xf64> -> tensor<*xf64>
  %6 = stride.argmin %y axes [1] : tensor<5x131xf64> -> tensor<*xi64>
  %7 = stride.argmax %o axes [1] : tensor<2x200xf64> -> tensor<*xi64>
  %8 = stride.argmin %o axes [1] : tensor<2x200xf64> -> tensor<*xi64>
  %9 = stride.sum %v : tensor<4099xf32> -> tensor<*xf32>
  %10 = stride.sum %y : tensor<5x131xf64> -> tensor<*xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10
      : tensor<*xf32>, tensor<*xf32>, tensor<*xi64>, tensor<*xi64>,
        tensor<*xf32>, tensor<*xf64>, tensor<*xi64>, tensor<*xi64>,
        tensor<*xi64>, tensor<*xf32>, tensor<*xf64>
}

func.func @identities(%w: tensor<2x300xf32>, %u: tensor<3x5xf64>, %k: tensor<2x200xi32>)
    -> (tensor<*xi64>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>) {
  %0 = stride.argmax %w axes [1] : tensor<2x300xf32> -> tensor<*xi64>
  %1 = stride.argmin %u axes [0] : tensor<3x5xf64> -> tensor<*xi64>
  %2 = stride.argmax %k axes [1] : tensor<2x200xi32> -> tensor<*xi64>
  %3 = stride.argmax %w : tensor<2x300xf32> -> tensor<*xi64>
  return %0, %1, %2, %3 : tensor<*xi64>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>
}

func.func @columns(%c: tensor<70x5xf32>, %d: tensor<70x3xf64>)
    -> (tensor<*xf32>, tensor<*xf64>, tensor<*xf64>) {
  %0 = stride.sum %c axes [0] : tensor<70x5xf32> -> tensor<*xf32>
  %1 = stride.sum %d axes [0] : tensor<70x3xf64> -> tensor<*xf64>
  %sq = stride.mul %d, %d : tensor<70x3xf64>, tensor<70x3xf64> -> tensor<*xf64>
  %2 = stride.sum %sq axes [0] keepdims : tensor<*xf64> -> tensor<*xf64>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xf64>, tensor<*xf64>
}
