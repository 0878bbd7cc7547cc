// A float32 sum of 10^7 elements is at least as accurate as NumPy's
// pairwise summation: checked against the float64 sum rounded to float32
// (a plain float32 loop is off by percents here, pairwise by ~1e-7).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t x="np.random.default_rng(5).random(10**7, dtype=np.float32)" y="np.random.default_rng(6).random((1000, 10000), dtype=np.float32)"
// RUN: stride-run %s --entry full --input %t/x.npy --output-dir %t
// RUN: %PYTHON -c "import numpy as np; x = np.load('%t/x.npy'); r = np.load('%t/out0.npy'); m = np.load('%t/out1.npy'); ref = np.sum(x, dtype=np.float64); np_err = abs(float(np.sum(x)) - ref) / ref; err = abs(float(r) - ref) / ref; merr = abs(float(m) - ref / x.size) / (ref / x.size); print('stride', err, 'numpy', np_err, 'mean', merr); assert r.dtype == np.float32 and err <= max(np_err, 1.2e-7) and merr <= max(np_err, 1.2e-7)"
// RUN: stride-run %s --entry rows --input %t/y.npy --output-dir %t
// RUN: %PYTHON -c "import numpy as np; y = np.load('%t/y.npy'); r = np.load('%t/out0.npy'); c = np.load('%t/out1.npy'); ref = np.sum(y, axis=1, dtype=np.float64); cref = np.sum(y, axis=0, dtype=np.float64); err = np.max(np.abs(r - ref) / ref); cerr = np.max(np.abs(c - cref) / cref); print('rows', err, 'cols', cerr); assert err <= 1.2e-7 and cerr <= 1.2e-7"

func.func @full(%x: tensor<10000000xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %0 = stride.sum %x : tensor<10000000xf32> -> tensor<*xf32>
  %1 = stride.mean %x : tensor<10000000xf32> -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}

// Row sums (the contiguous dim reduced) and column sums (a strided one).
func.func @rows(%y: tensor<1000x10000xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %0 = stride.sum %y axes [1] : tensor<1000x10000xf32> -> tensor<*xf32>
  %1 = stride.sum %y axes [0] : tensor<1000x10000xf32> -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}
