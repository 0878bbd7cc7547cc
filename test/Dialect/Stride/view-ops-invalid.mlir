// RUN: stride-opt %s -split-input-file -verify-diagnostics

// Every verifier error of the view ops (StrideViewOps.td).

func.func @bad_permutation(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'stride.permute' op permutation [0, 0] of an operand of shape 2x3 is not a permutation of 0..1}}
  %0 = stride.permute %x [0, 0] : tensor<2x3xf32> -> tensor<*xf32>
  return
}

// -----

func.func @short_permutation(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{permutation [0] of an operand of shape 2x3 is not a permutation of 0..1}}
  %0 = stride.permute %x [0] : tensor<2x3xf32> -> tensor<*xf32>
  return
}

// -----

func.func @transpose_dim_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'stride.transpose' op transpose dim 2 is out of range for an operand of shape 2x3}}
  %0 = stride.transpose %x [0, 2] : tensor<2x3xf32> -> tensor<*xf32>
  return
}

// -----

func.func @transpose_one_dim(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{transpose takes two dims, got 1}}
  %0 = stride.transpose %x [0] : tensor<2x3xf32> -> tensor<*xf32>
  return
}

// -----

func.func @slice_step_zero(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'stride.slice' op slice step of dim 1 of an operand of shape 2x3 is 0}}
  %0 = stride.slice %x [:, ::0] : tensor<2x3xf32> -> tensor<*xf32>
  return
}

// -----

func.func @too_many_slices(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'stride.slice' op 3 slices for an operand of shape 2x3 (at most one per dim)}}
  %0 = stride.slice %x [:, :, :] : tensor<2x3xf32> -> tensor<*xf32>
  return
}

// -----

func.func @slice_parts(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'stride.slice' op has 1 starts, 2 stops and 1 steps; give one of each per slice}}
  %0 = "stride.slice"(%x) <{starts = array<i64: 0>, stops = array<i64: 1, 2>, steps = array<i64: 1>}> : (tensor<2x3xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @expand_non_one(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'stride.expand' op expand of an operand of shape 4x3 to [4, 5]: dim 1 has size 3, which is not 1 and not 5}}
  %0 = stride.expand %x [4, 5] : tensor<4x3xf32> -> tensor<*xf32>
  return
}

// -----

func.func @expand_fewer_dims(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'stride.expand' op expand of an operand of shape 4x3 to [3], which has fewer dims}}
  %0 = stride.expand %x [3] : tensor<4x3xf32> -> tensor<*xf32>
  return
}

// -----

func.func @expand_new_dim_minus_one(%x: tensor<3xf32>) {
  // expected-error @+1 {{'stride.expand' op expand of an operand of shape 3 to [-1, 3]: -1 in new leading dim 0}}
  %0 = stride.expand %x [-1, 3] : tensor<3xf32> -> tensor<*xf32>
  return
}

// -----

func.func @expand_negative(%x: tensor<1xf32>) {
  // expected-error @+1 {{'stride.expand' op expand of an operand of shape 1 to [-2]: size -2 of dim 0 is negative}}
  %0 = stride.expand %x [-2] : tensor<1xf32> -> tensor<*xf32>
  return
}

// -----

func.func @squeeze_non_one(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'stride.squeeze' op squeeze of dim 1 of an operand of shape 4x3, which has size 3, not 1}}
  %0 = stride.squeeze %x dims [1] : tensor<4x3xf32> -> tensor<*xf32>
  return
}

// -----

func.func @squeeze_out_of_range(%x: tensor<4x1xf32>) {
  // expected-error @+1 {{'stride.squeeze' op squeeze dim 2 is out of range for an operand of shape 4x1}}
  %0 = stride.squeeze %x dims [2] : tensor<4x1xf32> -> tensor<*xf32>
  return
}

// -----

func.func @squeeze_dynamic(%x: tensor<?x1xf32>) {
  // expected-error @+1 {{'stride.squeeze' op without dims needs static sizes, but the operand has shape ?x1; list the dims to remove}}
  %0 = stride.squeeze %x : tensor<?x1xf32> -> tensor<*xf32>
  return
}

// -----

func.func @unsqueeze_out_of_range(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'stride.unsqueeze' op unsqueeze dim 3 is out of range for an operand of shape 4x3 (0..2)}}
  %0 = stride.unsqueeze %x [3] : tensor<4x3xf32> -> tensor<*xf32>
  return
}

// -----

func.func @flip_out_of_range(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'stride.flip' op flip dim 2 is out of range for an operand of shape 4x3}}
  %0 = stride.flip %x [2] : tensor<4x3xf32> -> tensor<*xf32>
  return
}

// -----

func.func @flip_repeated(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'stride.flip' op flip dim 1 is repeated}}
  %0 = stride.flip %x [1, 1] : tensor<4x3xf32> -> tensor<*xf32>
  return
}

// -----

func.func @reshape_size_mismatch(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'stride.reshape' op reshape of an operand of shape 4x3 (12 elements) to [5, 2] changes the number of elements}}
  %0 = stride.reshape %x [5, 2] : tensor<4x3xf32> -> tensor<*xf32>
  return
}

// -----

func.func @reshape_no_fit(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'stride.reshape' op reshape of an operand of shape 4x3 (12 elements) to [5, -1] changes the number of elements}}
  %0 = stride.reshape %x [5, -1] : tensor<4x3xf32> -> tensor<*xf32>
  return
}

// -----

func.func @reshape_two_inferred(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'stride.reshape' op reshape of an operand of shape 4x3 to [-1, -1]: only one dimension can be -1}}
  %0 = stride.reshape %x [-1, -1] : tensor<4x3xf32> -> tensor<*xf32>
  return
}

// -----

func.func @reshape_ambiguous(%x: tensor<3x0xf32>) {
  // expected-error @+1 {{'stride.reshape' op cannot reshape an operand of shape 3x0 (0 elements) to [-1, 0]: the size of the -1 dim can be any value and is ambiguous}}
  %0 = stride.reshape %x [-1, 0] : tensor<3x0xf32> -> tensor<*xf32>
  return
}

// -----

func.func @reshape_negative(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'stride.reshape' op reshape of an operand of shape 4x3 to [-3, -4]: size -3 of dim 0 is negative}}
  %0 = stride.reshape %x [-3, -4] : tensor<4x3xf32> -> tensor<*xf32>
  return
}

// -----

func.func @result_shape(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'stride.permute' op result has type 'tensor<4x3xf32>' but the operand gives shape 3x4}}
  %0 = stride.permute %x [1, 0] : tensor<4x3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @result_element_type(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'stride.squeeze' op result element type 'f64' differs from the operand's 'f32'}}
  %0 = stride.squeeze %x : tensor<4x3xf32> -> tensor<4x3xf64>
  return
}
