// RUN: stride-opt %s --convert-stride-to-linalg --split-input-file -verify-diagnostics

// A negative stride along a dynamic dim cannot be flipped.
func.func @negative_dynamic(%a: tensor<?xf32, #stride.layout<strides = [-1]>>) -> tensor<?xf32> {
  // expected-error @+1 {{'stride.broadcast' op input #0 cannot be viewed with the loops of 'iteration'}}
  %0 = stride.broadcast ins(%a : tensor<?xf32, #stride.layout<strides = [-1]>>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    stride.yield %x : f32
  }
  return %0 : tensor<?xf32>
}

// -----

// A destination with a stride-0 dim would write one element many times.
func.func @broadcast_destination(%x: tensor<4x3xf32>, %d: tensor<4x3xf32, #stride.layout<strides = [0, 1]>>) -> tensor<4x3xf32, #stride.layout<strides = [0, 1]>> {
  // expected-error @+1 {{'stride.broadcast' op destination #0 has stride 0 in dimension 0; a destination must not repeat elements}}
  %0 = stride.broadcast ins(%x : tensor<4x3xf32>) outs(%d : tensor<4x3xf32, #stride.layout<strides = [0, 1]>>) -> tensor<4x3xf32, #stride.layout<strides = [0, 1]>> {
  ^bb0(%a: f32):
    stride.yield %a : f32
  }
  return %0 : tensor<4x3xf32, #stride.layout<strides = [0, 1]>>
}

// -----

// Named ops must be generalized first.
func.func @named(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stride.neg' op must be generalized first (run stride-generalize)}}
  %0 = stride.neg %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Results need known shapes: an intermediate...
func.func @unranked(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stride.broadcast' op result shape is unknown; run stride-infer-shapes before convert-stride-to-linalg}}
  %0 = stride.broadcast ins(%x : tensor<4xf32>) -> tensor<*xf32> {
  ^bb0(%a: f32):
    stride.yield %a : f32
  }
  %1 = stride.broadcast ins(%0 : tensor<*xf32>) -> tensor<4xf32> {
  ^bb0(%a: f32):
    stride.yield %a : f32
  }
  return %1 : tensor<4xf32>
}

// -----

// ...and a function result.
// expected-error @+1 {{'func.func' op has an unranked result; run stride-infer-shapes first}}
func.func @unranked_result(%x: tensor<4xf32>) -> tensor<*xf32> {
  %0 = stride.broadcast ins(%x : tensor<4xf32>) -> tensor<*xf32> {
  ^bb0(%a: f32):
    stride.yield %a : f32
  }
  return %0 : tensor<*xf32>
}

// -----

// And so do arguments.
// expected-error @+1 {{'func.func' op has an unranked tensor argument; give its rank}}
func.func @unranked_argument(%x: tensor<*xf32>) {
  return
}

// -----

// Tensor ops the lowering does not know are reported, not miscompiled.
func.func @foreign(%x: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'tensor.extract_slice' op on tensors is not supported by convert-stride-to-linalg}}
  %0 = tensor.extract_slice %x[0] [2] [1] : tensor<4xf32> to tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Writing in place into a value that is read afterwards would change what
// the later reader sees.
func.func @read_after_overwrite(%x: tensor<4xf32>, %d: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // expected-error @+1 {{'stride.broadcast' op overwrites destination #0 in place, but the old value is used afterwards (by func.return); use this op's result instead}}
  %0 = stride.broadcast ins(%x : tensor<4xf32>) outs(%d : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: f32):
    stride.yield %a : f32
  }
  return %0, %d : tensor<4xf32>, tensor<4xf32>
}

// -----

// A matmul needs known shapes too.
func.func @matmul_unranked(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) {
  // expected-error @+1 {{'stride.matmul' op shapes are unknown; run stride-infer-shapes before convert-stride-to-linalg}}
  %0 = stride.matmul %a, %b : tensor<2x3xf32>, tensor<3x2xf32> -> tensor<*xf32>
  return
}

// -----

// A matmul operand with a negative stride along a dynamic dim cannot be
// flipped.
func.func @matmul_negative_dynamic(%a: tensor<?x3xf32, #stride.layout<strides = [-3, 1]>>, %b: tensor<3x2xf32>) -> tensor<?x2xf32> {
  // expected-error @+1 {{'stride.matmul' op an operand has a negative stride along a dimension of dynamic size, which is not supported}}
  %0 = stride.matmul %a, %b : tensor<?x3xf32, #stride.layout<strides = [-3, 1]>>, tensor<3x2xf32> -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

// A tensor.cast to an unranked type has no memref counterpart.
func.func @unranked_cast(%x: tensor<4xf32>) {
  // expected-error @+1 {{'tensor.cast' op cannot be lowered to a memref cast}}
  %0 = tensor.cast %x : tensor<4xf32> to tensor<*xf32>
  return
}

// -----

// Nor does a cast that changes the layout.
func.func @layout_cast(%x: tensor<4xf32, #stride.layout<strides = [2]>>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.cast' op cannot be lowered to a memref cast}}
  %0 = tensor.cast %x : tensor<4xf32, #stride.layout<strides = [2]>> to tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Functions with control flow are not lowered.
// expected-error @+1 {{'func.func' op has several blocks; convert-stride-to-linalg needs one}}
func.func @blocks(%x: tensor<4xf32>) -> tensor<4xf32> {
  cf.br ^next
^next:
  return %x : tensor<4xf32>
}
