// RUN: stride-opt %s --stride-bufferize --split-input-file -verify-diagnostics
// (One-Shot adds "failed to bufferize op" to each op's own diagnostic.)

// A view whose layout was never propagated: its row-major result type does
// not describe the view of its operand.
func.func private @unpropagated(%a: tensor<4x3xf32>) -> tensor<3x4xf32> {
  // expected-error @+2 {{'stride.permute' op result layout gives dim 0 stride 4 but the view of its operand has stride 1; run stride-propagate-layout before bufferization}}
  // expected-error @+1 {{failed to bufferize op}}
  %t = stride.permute %a [1, 0] : tensor<4x3xf32> -> tensor<3x4xf32>
  return %t : tensor<3x4xf32>
}
