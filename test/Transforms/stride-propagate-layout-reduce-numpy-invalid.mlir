// RUN: stride-opt %s --stride-propagate-layout=policy=numpy -verify-diagnostics
// RUN: stride-opt %s --stride-propagate-layout=policy=torch | FileCheck %s --check-prefix=TORCH

// NumPy has no axis 0 in a 0-d array; PyTorch wraps the scalar.
// TORCH: stride.sum {{.*}} axes [0] : tensor<f32> -> tensor<f32>
func.func @axis_of_scalar(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'stride.sum' op axis 0 is out of range for a 0-d input under policy numpy}}
  %0 = stride.sum %x axes [0] : tensor<f32> -> tensor<f32>
  return %0 : tensor<f32>
}
