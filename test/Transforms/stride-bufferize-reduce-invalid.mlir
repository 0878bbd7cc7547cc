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

// -----

// An index reduction of an expression gives each point's index from the
// loops, which a reversed input would walk forwards (stride-fuse fuses
// index reductions of forward inputs only).
func.func @argmax_of_reversed(%x: tensor<8xf32, #stride.layout<strides = [-1]>>) -> tensor<i64> {
  // expected-error @+2 {{'stride.map_reduce' op an index reduction of an expression over an input with a negative stride is not supported}}
  // expected-error @+1 {{failed to bufferize op}}
  %0 = stride.map_reduce "argmax" ins(%x : tensor<8xf32, #stride.layout<strides = [-1]>>) mapped(tensor<8xf32>) : tensor<i64> {
  ^bb0(%a: f32):
    %b = math.absf %a : f32
    stride.yield %b : f32
  }
  return %0 : tensor<i64>
}
