// RUN: stride-opt %s --stride-bufferize --split-input-file -verify-diagnostics

// A reversed view of dynamic size cannot be addressed by the loops.
func.func @negative_dynamic(%x: tensor<?x3xf32, #stride.layout<strides = [-3, 1]>>) -> tensor<?xf32> {
  // expected-error @+2 {{'stride.sum' op the input has a negative stride along a dimension of dynamic size, which is not supported}}
  // expected-error @+1 {{failed to bufferize op}}
  %0 = stride.sum %x axes [1] : tensor<?x3xf32, #stride.layout<strides = [-3, 1]>> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Shapes must be known: stride-infer-shapes runs first.
func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{'stride.amax' op shapes are unknown; run stride-infer-shapes before bufferization}}
  // expected-error @+1 {{failed to bufferize op}}
  %0 = stride.amax %x : tensor<*xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
