// RUN: stride-opt %s --stride-infer-shapes --split-input-file -verify-diagnostics

// An input refined by shape inference is checked against the axes then.
func.func @axis_after_refinement(%a: tensor<3x4xf32>) -> tensor<*xf32> {
  %0 = stride.exp %a : tensor<3x4xf32> -> tensor<*xf32>
  // expected-error @+1 {{'stride.sum' op axis 2 is out of range for an input of rank 2}}
  %1 = stride.sum %0 axes [2] : tensor<*xf32> -> tensor<*xf32>
  return %1 : tensor<*xf32>
}
