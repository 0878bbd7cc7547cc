// RUN: stride-opt %s --stride-bufferize --split-input-file -verify-diagnostics
// (One-Shot adds "failed to bufferize op" to each op's own diagnostic.)

// A result whose shape was never inferred.
func.func private @unranked(%a: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{'stride.broadcast' op result shape is unknown; run stride-infer-shapes before bufferization}}
  // expected-error @+1 {{failed to bufferize op}}
  %0 = stride.broadcast ins(%a : tensor<3xf32>) -> tensor<*xf32> {
  ^bb0(%v: f32):
    stride.yield %v : f32
  }
  return %0 : tensor<*xf32>
}

// -----

// A destination with stride 0 would write one element several times.
func.func @zero_stride_destination(%x: tensor<4xf32>) -> tensor<4xf32, #stride.layout<strides = [0]>> {
  %d = tensor.empty() : tensor<4xf32, #stride.layout<strides = [0]>>
  // expected-error @+2 {{'stride.broadcast' op destination #0 has stride 0 in dimension 0; a destination must not repeat elements}}
  // expected-error @+1 {{failed to bufferize op}}
  %0 = stride.broadcast ins(%x : tensor<4xf32>) outs(%d : tensor<4xf32, #stride.layout<strides = [0]>>) -> tensor<4xf32, #stride.layout<strides = [0]>> {
  ^bb0(%a: f32):
    stride.yield %a : f32
  }
  return %0 : tensor<4xf32, #stride.layout<strides = [0]>>
}

// -----

// A destination whose static strides put two elements at one address
// (element [0, 1] and [1, 0] of a 2x2 with strides [1, 1]): NumPy leaves
// such an output unspecified, and Python's out= refuses it too.
func.func private @repeating_destination(%a: tensor<2x2xf32>, %d: tensor<2x2xf32, #stride.layout<strides = [1, 1]>>) -> tensor<2x2xf32, #stride.layout<strides = [1, 1]>> {
  // expected-error @+2 {{'stride.broadcast' op destination #0 of shape 2x2 has strides [1, 1], which put several elements at one address; a destination must not repeat elements}}
  // expected-error @+1 {{failed to bufferize op}}
  %0 = stride.broadcast ins(%a : tensor<2x2xf32>) outs(%d : tensor<2x2xf32, #stride.layout<strides = [1, 1]>>) -> tensor<2x2xf32, #stride.layout<strides = [1, 1]>> {
  ^bb0(%v: f32):
    stride.yield %v : f32
  }
  return %0 : tensor<2x2xf32, #stride.layout<strides = [1, 1]>>
}

// -----

// Interleaved strides that never meet (3x2 with strides [2, 3]: offsets
// 0 3 2 5 4 7) are a valid destination.
func.func private @interleaved_destination(%a: tensor<3x2xf32>, %d: tensor<3x2xf32, #stride.layout<strides = [2, 3]>>) -> tensor<3x2xf32, #stride.layout<strides = [2, 3]>> {
  %0 = stride.broadcast ins(%a : tensor<3x2xf32>) outs(%d : tensor<3x2xf32, #stride.layout<strides = [2, 3]>>) -> tensor<3x2xf32, #stride.layout<strides = [2, 3]>> {
  ^bb0(%v: f32):
    stride.yield %v : f32
  }
  return %0 : tensor<3x2xf32, #stride.layout<strides = [2, 3]>>
}

// -----

// A negative stride along a dynamic dim cannot be flipped.
func.func @negative_dynamic(%a: tensor<?xf32, #stride.layout<strides = [-1]>>) -> tensor<?xf32> {
  // expected-error @+2 {{'stride.broadcast' op input #0 cannot be viewed with the loops of 'iteration': a merged group of dims is not one progression in it, or a negative stride meets a dynamic size}}
  // expected-error @+1 {{failed to bufferize op}}
  %0 = stride.broadcast ins(%a : tensor<?xf32, #stride.layout<strides = [-1]>>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    stride.yield %x : f32
  }
  return %0 : tensor<?xf32>
}

// -----

// A destination argument with a stride-0 dim, written in place (a private
// function's arguments are writable), would write one element many times.
func.func private @broadcast_destination_argument(%x: tensor<4x3xf32>, %d: tensor<4x3xf32, #stride.layout<strides = [0, 1]>>) -> tensor<4x3xf32, #stride.layout<strides = [0, 1]>> {
  // expected-error @+2 {{'stride.broadcast' op destination #0 has stride 0 in dimension 0; a destination must not repeat elements}}
  // expected-error @+1 {{failed to bufferize op}}
  %0 = stride.broadcast ins(%x : tensor<4x3xf32>) outs(%d : tensor<4x3xf32, #stride.layout<strides = [0, 1]>>) -> tensor<4x3xf32, #stride.layout<strides = [0, 1]>> {
  ^bb0(%a: f32):
    stride.yield %a : f32
  }
  return %0 : tensor<4x3xf32, #stride.layout<strides = [0, 1]>>
}

// -----

// A matmul needs known shapes.
func.func @matmul_unranked(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) {
  // expected-error @+2 {{'stride.matmul' op shapes are unknown; run stride-infer-shapes before bufferization}}
  // expected-error @+1 {{failed to bufferize op}}
  %0 = stride.matmul %a, %b : tensor<2x3xf32>, tensor<3x2xf32> -> tensor<*xf32>
  return
}

// -----

// A matmul operand with a negative stride along a dynamic dim cannot be
// flipped.
func.func @matmul_negative_dynamic(%a: tensor<?x3xf32, #stride.layout<strides = [-3, 1]>>, %b: tensor<3x2xf32>) -> tensor<?x2xf32> {
  // expected-error @+2 {{'stride.matmul' op an operand has a negative stride along a dimension of dynamic size, which is not supported}}
  // expected-error @+1 {{failed to bufferize op}}
  %0 = stride.matmul %a, %b : tensor<?x3xf32, #stride.layout<strides = [-3, 1]>>, tensor<3x2xf32> -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}
