// RUN: stride-opt %s -split-input-file -verify-diagnostics

// An axis must name a dim of the input.
func.func @axis_out_of_range(%x: tensor<4x5xf32>) {
  // expected-error @+1 {{'stride.sum' op axis 2 is out of range for an input of rank 2 (valid axes are -2 to 1)}}
  %0 = stride.sum %x axes [2] : tensor<4x5xf32> -> tensor<*xf32>
  return
}

// -----

func.func @negative_axis_out_of_range(%x: tensor<4x5xf32>) {
  // expected-error @+1 {{'stride.amax' op axis -3 is out of range for an input of rank 2 (valid axes are -2 to 1)}}
  %0 = stride.amax %x axes [-3] : tensor<4x5xf32> -> tensor<*xf32>
  return
}

// -----

// -1 and 1 are the same axis of a 2-d input.
func.func @repeated_axis(%x: tensor<4x5xf32>) {
  // expected-error @+1 {{'stride.mean' op axis -1 repeats axis 1}}
  %0 = stride.mean %x axes [1, -1] : tensor<4x5xf32> -> tensor<*xf32>
  return
}

// -----

func.func @repeated_axis_unranked(%x: tensor<*xf32>) {
  // expected-error @+1 {{'stride.any' op axis 0 repeats}}
  %0 = stride.any %x axes [0, 0] : tensor<*xf32> -> tensor<*xi1>
  return
}

// -----

// amax, amin, argmax and argmin of an empty axis have no identity.
func.func @amax_empty(%x: tensor<3x0xf32>) {
  // expected-error @+1 {{'stride.amax' op reduces axis 1 of size 0: amax of an empty axis has no identity (NumPy and PyTorch refuse it)}}
  %0 = stride.amax %x axes [1] : tensor<3x0xf32> -> tensor<*xf32>
  return
}

// -----

func.func @amin_empty_all(%x: tensor<0x4xi32>) {
  // expected-error @+1 {{'stride.amin' op reduces axis 0 of size 0: amin of an empty axis}}
  %0 = stride.amin %x : tensor<0x4xi32> -> tensor<*xi32>
  return
}

// -----

func.func @argmax_empty(%x: tensor<0x4xf32>) {
  // expected-error @+1 {{'stride.argmax' op reduces axis 0 of size 0: argmax of an empty axis}}
  %0 = stride.argmax %x axes [0] : tensor<0x4xf32> -> tensor<*xi64>
  return
}

// -----

// Without axes argmin flattens the input: an empty input has no minimum.
func.func @argmin_empty_flat(%x: tensor<2x0xf64>) {
  // expected-error @+1 {{'stride.argmin' op reduces axis 1 of size 0: argmin of an empty axis}}
  %0 = stride.argmin %x : tensor<2x0xf64> -> tensor<*xi64>
  return
}

// -----

// A sum of an empty axis is 0, not an error.
func.func @sum_empty_ok(%x: tensor<3x0xf32>) -> tensor<3xf32> {
  %0 = stride.sum %x axes [1] : tensor<3x0xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// argmax and argmin take one axis.
func.func @argmax_two_axes(%x: tensor<4x5xf32>) {
  // expected-error @+1 {{'stride.argmax' op reduces 2 axes but argmax takes one axis, or none for the flattened input}}
  %0 = stride.argmax %x axes [0, 1] : tensor<4x5xf32> -> tensor<*xi64>
  return
}

// -----

func.func @argmin_two_axes_unranked(%x: tensor<*xf32>) {
  // expected-error @+1 {{'stride.argmin' op reduces 2 axes but argmin takes one axis}}
  %0 = stride.argmin %x axes [0, 1] : tensor<*xf32> -> tensor<*xi64>
  return
}

// -----

// Result element types follow the libraries.
func.func @sum_int_is_i64(%x: tensor<4xi32>) {
  // expected-error @+1 {{'stride.sum' op result has element type 'i32' but sum of 'i32' elements gives 'i64'}}
  %0 = stride.sum %x : tensor<4xi32> -> tensor<i32>
  return
}

// -----

func.func @prod_bool_is_i64(%x: tensor<4xi1>) {
  // expected-error @+1 {{'stride.prod' op result has element type 'i1' but prod of 'i1' elements gives 'i64'}}
  %0 = stride.prod %x : tensor<4xi1> -> tensor<i1>
  return
}

// -----

func.func @mean_int_is_f64(%x: tensor<4xi32>) {
  // expected-error @+1 {{'stride.mean' op result has element type 'f32' but mean of 'i32' elements gives 'f64'}}
  %0 = stride.mean %x : tensor<4xi32> -> tensor<f32>
  return
}

// -----

func.func @argmax_is_i64(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stride.argmax' op result has element type 'i32' but argmax of 'f32' elements gives 'i64'}}
  %0 = stride.argmax %x : tensor<4xf32> -> tensor<i32>
  return
}

// -----

func.func @any_is_i1(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stride.any' op result has element type 'f32' but any of 'f32' elements gives 'i1'}}
  %0 = stride.any %x : tensor<4xf32> -> tensor<f32>
  return
}

// -----

func.func @amax_keeps_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stride.amax' op result has element type 'f64' but amax of 'f32' elements gives 'f32'}}
  %0 = stride.amax %x : tensor<4xf32> -> tensor<f64>
  return
}

// -----

// The result shape must be the reduced shape.
func.func @wrong_shape(%x: tensor<4x5xf32>) {
  // expected-error @+1 {{'stride.sum' op result has type 'tensor<4xf32>' but reducing 'tensor<4x5xf32>' gives shape 5}}
  %0 = stride.sum %x axes [0] : tensor<4x5xf32> -> tensor<4xf32>
  return
}

// -----

func.func @wrong_keepdims_shape(%x: tensor<4x5xf32>) {
  // expected-error @+1 {{'stride.sum' op result has type 'tensor<5xf32>' but reducing 'tensor<4x5xf32>' gives shape 1x5}}
  %0 = stride.sum %x axes [0] keepdims : tensor<4x5xf32> -> tensor<5xf32>
  return
}

// -----

// stride.map_reduce names a reduction it supports.
func.func @map_reduce_kind(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stride.map_reduce' op kind 'median' is not a reduction}}
  %0 = stride.map_reduce "median" ins(%x : tensor<4xf32>) mapped(tensor<4xf32>) : tensor<f32> {
  ^bb0(%a: f32):
    stride.yield %a : f32
  }
  return
}


// -----

// The body takes one scalar per input, of the input's element type.
func.func @map_reduce_arguments(%x: tensor<4xf32>, %y: tensor<4xf64>) {
  // expected-error @+1 {{'stride.map_reduce' op body argument #1 has type 'f32' but input #1 has elements of 'f64'}}
  %0 = stride.map_reduce "sum" ins(%x, %y : tensor<4xf32>, tensor<4xf64>) mapped(tensor<4xf32>) : tensor<f32> {
  ^bb0(%a: f32, %b: f32):
    stride.yield %a : f32
  }
  return
}

// -----

// The body yields the mapped element type.
func.func @map_reduce_yield(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stride.map_reduce' op body must yield one 'f64' (the mapped element type)}}
  %0 = stride.map_reduce "sum" ins(%x : tensor<4xf32>) mapped(tensor<4xf64>) : tensor<f64> {
  ^bb0(%a: f32):
    stride.yield %a : f32
  }
  return
}

// -----

// The result has the named reduction's element type and shape.
func.func @map_reduce_result(%x: tensor<4x3xi32>) {
  // expected-error @+1 {{'stride.map_reduce' op result has element type 'i32' but sum of 'i32' elements gives 'i64'}}
  %0 = stride.map_reduce "sum" ins(%x : tensor<4x3xi32>) axes [0] mapped(tensor<4x3xi32>) : tensor<3xi32> {
  ^bb0(%a: i32):
    stride.yield %a : i32
  }
  return
}

// -----

func.func @map_reduce_shape(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'stride.map_reduce' op result has type 'tensor<4xf32>' but reducing 'tensor<4x3xf32>' gives shape 3}}
  %0 = stride.map_reduce "sum" ins(%x : tensor<4x3xf32>) axes [0] mapped(tensor<4x3xf32>) : tensor<4xf32> {
  ^bb0(%a: f32):
    stride.yield %a : f32
  }
  return
}
