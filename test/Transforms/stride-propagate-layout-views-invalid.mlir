// RUN: stride-opt %s --stride-propagate-layout=policy=torch --split-input-file -verify-diagnostics

// What only the policy refuses: PyTorch has no negative slice steps.

func.func @negative_step_torch(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'stride.slice' op slice step -1 of dim 1 of an operand of shape 4x3 is negative, which PyTorch does not support (policy torch; use policy numpy or a flip)}}
  %0 = stride.slice %x [:, ::-1] : tensor<4x3xf32> -> tensor<4x3xf32>
  return
}
