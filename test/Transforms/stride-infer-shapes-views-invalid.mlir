// RUN: stride-opt %s --stride-infer-shapes --split-input-file -verify-diagnostics

// A view of a value whose shape inference refines only at this pass is
// checked there (the verifier saw an unranked operand).

func.func @expand_after_refinement(%a: tensor<4x3xf32>, %b: tensor<3xf32>) {
  %s = stride.add %a, %b : tensor<4x3xf32>, tensor<3xf32> -> tensor<*xf32>
  // expected-error @+1 {{'stride.expand' op expand of an operand of shape 4x3 to [4, 5]: dim 1 has size 3, which is not 1 and not 5}}
  %e = stride.expand %s [4, 5] : tensor<*xf32> -> tensor<*xf32>
  return
}

// -----

func.func @reshape_after_refinement(%a: tensor<4x3xf32>) {
  %s = stride.exp %a : tensor<4x3xf32> -> tensor<*xf32>
  // expected-error @+1 {{'stride.reshape' op reshape of an operand of shape 4x3 (12 elements) to [7] changes the number of elements}}
  %r = stride.reshape %s [7] : tensor<*xf32> -> tensor<*xf32>
  return
}
