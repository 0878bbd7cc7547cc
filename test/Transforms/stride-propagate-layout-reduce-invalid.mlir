// RUN: stride-opt %s --stride-propagate-layout=policy=torch --split-input-file -verify-diagnostics
// RUN: stride-opt %s --stride-propagate-layout=policy=numpy --split-input-file | FileCheck %s --check-prefix=NUMPY

// PyTorch's mean refuses integers; NumPy's gives float64.
// NUMPY-LABEL: func.func @mean_of_ints
// NUMPY: stride.mean {{.*}} -> tensor<3xf64>
func.func @mean_of_ints(%x: tensor<3x4xi32>) -> tensor<3xf64> {
  // expected-error @+1 {{'stride.mean' op mean of 'i32' elements is an error under policy torch: PyTorch's mean needs a floating-point input (cast it first)}}
  %0 = stride.mean %x axes [1] : tensor<3x4xi32> -> tensor<3xf64>
  return %0 : tensor<3xf64>
}

// -----

func.func @mean_of_bools(%x: tensor<3xi1>) -> tensor<f64> {
  // expected-error @+1 {{'stride.mean' op mean of 'i1' elements is an error under policy torch}}
  %0 = stride.mean %x : tensor<3xi1> -> tensor<f64>
  return %0 : tensor<f64>
}

// -----

// PyTorch has no bool argmax kernel; NumPy orders false < true.
// NUMPY-LABEL: func.func @argmax_of_bools
func.func @argmax_of_bools(%x: tensor<3x4xi1>) -> tensor<3xi64> {
  // expected-error @+1 {{'stride.argmax' op argmax of i1 elements is an error under policy torch: PyTorch has no argmax kernel for bool}}
  %0 = stride.argmax %x axes [1] : tensor<3x4xi1> -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

func.func @argmin_of_bools_flat(%x: tensor<3x4xi1>) -> tensor<i64> {
  // expected-error @+1 {{'stride.argmin' op argmin of i1 elements is an error under policy torch}}
  %0 = stride.argmin %x : tensor<3x4xi1> -> tensor<i64>
  return %0 : tensor<i64>
}

// -----

// ...but over a size-1 axis PyTorch fills zeros without running it.
// NUMPY-LABEL: func.func @argmax_of_bools_size_one
func.func @argmax_of_bools_size_one(%x: tensor<1x4xi1>) -> tensor<4xi64> {
  %0 = stride.argmax %x axes [0] : tensor<1x4xi1> -> tensor<4xi64>
  return %0 : tensor<4xi64>
}
