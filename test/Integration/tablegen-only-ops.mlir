// Ops defined only in StrideOps.td (stride.fabs, stride.cbrt: no C++ or
// Python of their own) run end to end under stride-run, checked against
// NumPy; python/tests/test_op_table.py reaches the same ops as ufuncs.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t s="np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5, -27.0, 8.0, 1e-300, -3e300])" sf="np.array([np.nan, np.inf, -0.0, 2.0, -8.0, 0.125, 1e-30], dtype=np.float32)"
// RUN: stride-run %s --entry f64 --input %t/s.npy --output-dir %t
// RUN: %npytool check %t "np.fabs(s)" %t/out0.npy
// RUN: %npytool check %t "np.cbrt(s)" %t/out1.npy
// RUN: stride-run %s --entry f32 --input %t/sf.npy --output-dir %t
// RUN: %npytool check %t "np.fabs(sf)" %t/out0.npy
// RUN: %npytool check %t "np.cbrt(sf)" %t/out1.npy

func.func @f64(%s: tensor<?xf64>) -> (tensor<*xf64>, tensor<*xf64>) {
  %a = stride.fabs %s : tensor<?xf64> -> tensor<*xf64>
  %c = stride.cbrt %s : tensor<?xf64> -> tensor<*xf64>
  return %a, %c : tensor<*xf64>, tensor<*xf64>
}

func.func @f32(%s: tensor<?xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %a = stride.fabs %s : tensor<?xf32> -> tensor<*xf32>
  %c = stride.cbrt %s : tensor<?xf32> -> tensor<*xf32>
  return %a, %c : tensor<*xf32>, tensor<*xf32>
}
