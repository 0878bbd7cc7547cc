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

// -----

// Slicing part of a dynamic dim is not lowered yet (its bounds clamp at run
// time).
func.func private @dynamic_slice(%a: tensor<?xf32>) -> tensor<?xf32, #stride.layout<strides = [1], offset = ?>> {
  // expected-error @+2 {{'stride.slice' op slices dim 0, whose size is dynamic; only a whole dynamic dim (`:`) is supported yet}}
  // expected-error @+1 {{failed to bufferize op}}
  %t = stride.slice %a [1:] : tensor<?xf32> -> tensor<?xf32, #stride.layout<strides = [1], offset = ?>>
  return %t : tensor<?xf32, #stride.layout<strides = [1], offset = ?>>
}
