// RUN: stride-opt %s -split-input-file -verify-diagnostics

// A perm must be a permutation.
// expected-error @+1 {{layout 'perm = [0, 0]' is not a permutation of 0..1}}
func.func @bad_perm(%a: tensor<2x2xf32, #stride.layout<perm = [0, 0]>>) { return }

// -----

// The layout's rank must be the tensor's.
// expected-error @+1 {{layout #stride.layout<strides = [1]> has rank 1 but the tensor has rank 2}}
func.func @bad_rank(%a: tensor<2x2xf32, #stride.layout<strides = [1]>>) { return }

// -----

// Only the two keys are accepted.
// expected-error @+1 {{expected 'strides' or 'perm' in #stride.layout, got 'order'}}
func.func @bad_key(%a: tensor<2xf32, #stride.layout<order = [0]>>) { return }

// -----

// Binary operands share the element type.
func.func @element_mismatch(%a: tensor<3xf32>, %b: tensor<3xf64>) {
  // expected-error @+1 {{'stride.add' op operand #1 has element type 'f64' but the result has 'f32'}}
  %0 = stride.add %a, %b : tensor<3xf32>, tensor<3xf64> -> tensor<3xf32>
  return
}

// -----

// Transcendental functions need floats.
func.func @exp_int(%a: tensor<3xi32>) {
  // expected-error @+1 {{'stride.exp' op requires a floating-point element type, got 'i32'}}
  %0 = stride.exp %a : tensor<3xi32> -> tensor<3xi32>
  return
}

// -----

// Static shapes that do not broadcast.
func.func @not_broadcastable(%a: tensor<3x4xf32>, %b: tensor<5xf32>) {
  // expected-error @+1 {{'stride.add' op cannot broadcast operand 0 of shape 3x4 and operand 1 of shape 5: result dim 1 has size 4 in operand 0 (its dim 1) but size 5 in operand 1 (its dim 0)}}
  %0 = stride.add %a, %b : tensor<3x4xf32>, tensor<5xf32> -> tensor<*xf32>
  return
}

// -----

// The declared result shape must agree with the broadcast shape.
func.func @result_mismatch(%a: tensor<3x4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'stride.mul' op result #0 has type 'tensor<3x5xf32>' but the operands give shape 3x4}}
  %0 = stride.mul %a, %b : tensor<3x4xf32>, tensor<4xf32> -> tensor<3x5xf32>
  return
}

// -----

// The result rank must agree too.
func.func @result_rank(%a: tensor<3x4xf32>) {
  // expected-error @+1 {{'stride.neg' op result #0 has type 'tensor<12xf32>' but the operands give shape 3x4}}
  %0 = stride.neg %a : tensor<3x4xf32> -> tensor<12xf32>
  return
}

// -----

// Comparisons yield i1.
func.func @cmp_result(%a: tensor<3xf32>) {
  // expected-error @+1 {{'stride.cmp' op result must have element type i1, got 'f32'}}
  %0 = stride.cmp eq, %a, %a : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return
}

// -----

// Compared operands share the element type.
func.func @cmp_operands(%a: tensor<3xf32>, %b: tensor<3xi32>) {
  // expected-error @+1 {{'stride.cmp' op operand #1 has element type 'i32' but operand #0 has 'f32'}}
  %0 = stride.cmp eq, %a, %b : tensor<3xf32>, tensor<3xi32> -> tensor<3xi1>
  return
}

// -----

// The select condition is i1.
func.func @select_condition(%c: tensor<3xf32>, %a: tensor<3xf32>) {
  // expected-error @+1 {{'stride.select' op condition must have element type i1, got 'f32'}}
  %0 = stride.select %c, %a, %a : tensor<3xf32>, tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return
}

// -----

// The selected values have the result's element type.
func.func @select_values(%c: tensor<3xi1>, %a: tensor<3xf32>, %b: tensor<3xf16>) {
  // expected-error @+1 {{'stride.select' op operand #2 has element type 'f16' but the result has 'f32'}}
  %0 = stride.select %c, %a, %b : tensor<3xi1>, tensor<3xf32>, tensor<3xf16> -> tensor<3xf32>
  return
}

// -----

// A cast keeps the shape.
func.func @cast_shape(%a: tensor<3xi32>) {
  // expected-error @+1 {{'stride.cast' op result #0 has type 'tensor<4xf32>' but the operands give shape 3}}
  %0 = stride.cast %a : tensor<3xi32> -> tensor<4xf32>
  return
}

// -----

// A broadcast has at least one result.
func.func @no_results(%a: tensor<3xf32>) {
  // expected-error @+1 {{'stride.broadcast' op requires at least one result}}
  "stride.broadcast"(%a) <{operandSegmentSizes = array<i32: 1, 0>}> ({
  ^bb0(%x: f32):
    "stride.yield"() : () -> ()
  }) : (tensor<3xf32>) -> ()
  return
}

// -----

// One destination per result.
func.func @init_count(%a: tensor<3xf32>) {
  // expected-error @+1 {{'stride.broadcast' op has 2 destinations but 1 results; give one destination per result or none}}
  %0 = stride.broadcast ins(%a : tensor<3xf32>) outs(%a, %a : tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%x: f32):
    stride.yield %x : f32
  }
  return
}

// -----

// A destination has its result's type.
func.func @init_type(%a: tensor<3xf32>, %d: tensor<3xf32, #stride.layout<strides = [2]>>) {
  // expected-error @+1 {{'stride.broadcast' op destination #0 has type 'tensor<3xf32, #stride.layout<strides = [2]>>' but result #0 has type 'tensor<3xf32>'}}
  %0 = stride.broadcast ins(%a : tensor<3xf32>) outs(%d : tensor<3xf32, #stride.layout<strides = [2]>>) -> tensor<3xf32> {
  ^bb0(%x: f32):
    stride.yield %x : f32
  }
  return
}

// -----

// Broadcast inputs must broadcast together.
func.func @broadcast_shapes(%a: tensor<3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'stride.broadcast' op cannot broadcast operand 0 of shape 3 and operand 1 of shape 4: result dim 0 has size 3 in operand 0 (its dim 0) but size 4 in operand 1 (its dim 0)}}
  %0 = stride.broadcast ins(%a, %b : tensor<3xf32>, tensor<4xf32>) -> tensor<*xf32> {
  ^bb0(%x: f32, %y: f32):
    stride.yield %x : f32
  }
  return
}

// -----

// Broadcast results agree with the inputs' shape.
func.func @broadcast_result(%a: tensor<3xf32>) {
  // expected-error @+1 {{'stride.broadcast' op result #1 has type 'tensor<4xf32>' but the operands give shape 3}}
  %0:2 = stride.broadcast ins(%a : tensor<3xf32>) -> tensor<3xf32>, tensor<4xf32> {
  ^bb0(%x: f32):
    stride.yield %x, %x : f32, f32
  }
  return
}

// -----

// 'iteration' covers every result dim once.
func.func @iteration(%a: tensor<3x2xf32>) {
  // expected-error @+1 {{'stride.broadcast' op 'iteration' must cover each result dimension exactly once}}
  %0 = stride.broadcast ins(%a : tensor<3x2xf32>) -> tensor<3x2xf32> attributes {iteration = [array<i64: 0, 0>]} {
  ^bb0(%x: f32):
    stride.yield %x : f32
  }
  return
}

// -----

// 'iteration' holds non-empty arrays.
func.func @iteration_kind(%a: tensor<3x2xf32>) {
  // expected-error @+1 {{'stride.broadcast' op 'iteration' must hold non-empty arrays of result dimensions}}
  %0 = stride.broadcast ins(%a : tensor<3x2xf32>) -> tensor<3x2xf32> attributes {iteration = [1, 0]} {
  ^bb0(%x: f32):
    stride.yield %x : f32
  }
  return
}

// -----

// 'iteration' must cover every dim.
func.func @iteration_missing(%a: tensor<3x2xf32>) {
  // expected-error @+1 {{'stride.broadcast' op 'iteration' must cover each result dimension exactly once}}
  %0 = stride.broadcast ins(%a : tensor<3x2xf32>) -> tensor<3x2xf32> attributes {iteration = [array<i64: 0>]} {
  ^bb0(%x: f32):
    stride.yield %x : f32
  }
  return
}

// -----

// One body argument per input.
func.func @body_arity(%a: tensor<3xf32>) {
  // expected-error @+1 {{'stride.broadcast' op body has 2 arguments but the op has 1 inputs}}
  %0 = stride.broadcast ins(%a : tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%x: f32, %y: f32):
    stride.yield %x : f32
  }
  return
}

// -----

// Body arguments take the inputs' element types.
func.func @body_type(%a: tensor<3xf32>) {
  // expected-error @+1 {{'stride.broadcast' op body argument #0 has type 'f64' but input #0 has element type 'f32'}}
  %0 = stride.broadcast ins(%a : tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%x: f64):
    %t = arith.truncf %x : f64 to f32
    stride.yield %t : f32
  }
  return
}

// -----

// One yielded value per result.
func.func @yield_count(%a: tensor<3xf32>) {
  // expected-error @+1 {{'stride.broadcast' op body yields 2 values but the op has 1 results}}
  %0 = stride.broadcast ins(%a : tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%x: f32):
    stride.yield %x, %x : f32, f32
  }
  return
}

// -----

// Yielded values have the results' element types.
func.func @yield_type(%a: tensor<3xf32>) {
  // expected-error @+1 {{'stride.broadcast' op body yields 'f32' for result #0 of element type 'f64'}}
  %0 = stride.broadcast ins(%a : tensor<3xf32>) -> tensor<3xf64> {
  ^bb0(%x: f32):
    stride.yield %x : f32
  }
  return
}

// -----

// Matmul operands have the result's element type.
func.func @matmul_element(%a: tensor<2x3xf32>, %b: tensor<3x2xf64>) {
  // expected-error @+1 {{'stride.matmul' op operand #1 has element type 'f64' but the result has 'f32'}}
  %0 = stride.matmul %a, %b : tensor<2x3xf32>, tensor<3x2xf64> -> tensor<2x2xf32>
  return
}

// -----

// Matmul of a 0-d operand is invalid.
func.func @matmul_scalar(%a: tensor<f32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'stride.matmul' op matmul needs operands of rank 1 or more, but lhs is 0-d (lhs 0-d, rhs 3)}}
  %0 = stride.matmul %a, %b : tensor<f32>, tensor<3xf32> -> tensor<*xf32>
  return
}

// -----

// Contracted dims must agree.
func.func @matmul_contracted(%a: tensor<2x3xf32>, %b: tensor<4x2xf32>) {
  // expected-error @+1 {{'stride.matmul' op contracted dimensions differ: lhs dim 1 has size 3, rhs dim 0 has size 4 (lhs 2x3, rhs 4x2)}}
  %0 = stride.matmul %a, %b : tensor<2x3xf32>, tensor<4x2xf32> -> tensor<*xf32>
  return
}

// -----

// Batch dims must broadcast.
func.func @matmul_batch(%a: tensor<2x2x3xf32>, %b: tensor<3x3x2xf32>) {
  // expected-error @+1 {{'stride.matmul' op cannot broadcast lhs batch of shape 2 and rhs batch of shape 3: result dim 0 has size 2 in lhs batch (its dim 0) but size 3 in rhs batch (its dim 0) (lhs 2x2x3, rhs 3x3x2)}}
  %0 = stride.matmul %a, %b : tensor<2x2x3xf32>, tensor<3x3x2xf32> -> tensor<*xf32>
  return
}

// -----

// The declared matmul result agrees with the rule.
func.func @matmul_result(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'stride.matmul' op result #0 has type 'tensor<2x1xf32>' but the operands give shape 2}}
  %0 = stride.matmul %a, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x1xf32>
  return
}

// -----

// A perm takes no '?': only strides may be unknown.
// expected-error @+1 {{expected integer value}}
func.func @perm_dynamic(%a: tensor<2x2xf32, #stride.layout<perm = [0, ?]>>) { return }

// -----

// An empty 'iteration' group is not a loop.
func.func @iteration_empty_group(%a: tensor<3x2xf32>) {
  // expected-error @+1 {{'stride.broadcast' op 'iteration' must hold non-empty arrays of result dimensions}}
  %0 = stride.broadcast ins(%a : tensor<3x2xf32>) -> tensor<3x2xf32> attributes {iteration = [array<i64: 0, 1>, array<i64>]} {
  ^bb0(%x: f32):
    stride.yield %x : f32
  }
  return
}

// -----

// 'iteration' names only dims the result has.
func.func @iteration_out_of_range(%a: tensor<3x2xf32>) {
  // expected-error @+1 {{'stride.broadcast' op 'iteration' must cover each result dimension exactly once}}
  %0 = stride.broadcast ins(%a : tensor<3x2xf32>) -> tensor<3x2xf32> attributes {iteration = [array<i64: 0, 2>]} {
  ^bb0(%x: f32):
    stride.yield %x : f32
  }
  return
}

// -----

// An unranked result has no dims to order, so any 'iteration' is rejected
// (with the same message).
func.func @iteration_unranked(%a: tensor<3xf32>) {
  // expected-error @+1 {{'stride.broadcast' op 'iteration' must cover each result dimension exactly once}}
  %0 = stride.broadcast ins(%a : tensor<3xf32>) -> tensor<*xf32> attributes {iteration = [array<i64: 0>]} {
  ^bb0(%x: f32):
    stride.yield %x : f32
  }
  return
}

// -----

// 'iteration' is an array (a message generated from the op definition).
func.func @iteration_not_array(%a: tensor<3xf32>) {
  // expected-error @+1 {{'stride.broadcast' op attribute 'iteration' failed to satisfy constraint: array attribute}}
  %0 = stride.broadcast ins(%a : tensor<3xf32>) -> tensor<3xf32> attributes {iteration = 5} {
  ^bb0(%x: f32):
    stride.yield %x : f32
  }
  return
}

// -----

// Operands are integer or float tensors or scalars (a message generated
// from the op definition; it does not say the element type is the problem).
func.func @complex_operand(%a: tensor<3xcomplex<f32>>) {
  // expected-error @+1 {{'stride.neg' op operand #0 must be tensor or scalar, but got 'tensor<3xcomplex<f32>>'}}
  %0 = "stride.neg"(%a) : (tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>>
  return
}

// -----

// Comparison predicates are the six of stride.cmp (generated messages).
func.func @cmp_predicate(%a: tensor<3xf32>) {
  // expected-error @+2 {{expected ::mlir::stride::CmpPredicate to be one of: eq, ne, lt, le, gt, ge}}
  // expected-error @+1 {{failed to parse Stride_CmpPredicateAttr parameter 'value'}}
  %0 = stride.cmp foo, %a, %a : tensor<3xf32>, tensor<3xf32> -> tensor<3xi1>
  return
}

// -----

// Three operands that do not broadcast: every shape is named.
func.func @select_shapes(%c: tensor<4x1xi1>, %a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'stride.select' op cannot broadcast operand 0 of shape 4x1, operand 1 of shape 2x3 and operand 2 of shape 3: result dim 0 has size 4 in operand 0 (its dim 0) but size 2 in operand 1 (its dim 0)}}
  %0 = stride.select %c, %a, %b : tensor<4x1xi1>, tensor<2x3xf32>, tensor<3xf32> -> tensor<*xf32>
  return
}

// -----

// A 0-d rhs is named as such.
func.func @matmul_scalar_rhs(%a: tensor<3xf32>, %b: tensor<f32>) {
  // expected-error @+1 {{'stride.matmul' op matmul needs operands of rank 1 or more, but rhs is 0-d (lhs 3, rhs 0-d)}}
  %0 = stride.matmul %a, %b : tensor<3xf32>, tensor<f32> -> tensor<*xf32>
  return
}

// -----

// Each op's element rule comes from its class in StrideOps.td: bitwise ops
// need integers.
func.func @bitwise_float(%a: tensor<3xf32>) {
  // expected-error @+1 {{'stride.bitwise_and' op requires an integer element type, got 'f32'}}
  %0 = stride.bitwise_and %a, %a : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return
}

// -----

// Shifts of bools give int8 in NumPy: refused.
func.func @shift_bool(%a: tensor<3xi1>) {
  // expected-error @+1 {{'stride.left_shift' op requires a non-boolean integer element type, got 'i1'}}
  %0 = stride.left_shift %a, %a : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
  return
}

// -----

// floor_divide of bools gives int8 in NumPy: refused.
func.func @floor_divide_bool(%a: tensor<3xi1>) {
  // expected-error @+1 {{'stride.floor_divide' op requires a non-boolean element type, got 'i1'}}
  %0 = stride.floor_divide %a, %a : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
  return
}

// -----

// Logical ops take i1 operands (callers test for nonzero first).
func.func @logical_int(%a: tensor<3xi32>) {
  // expected-error @+1 {{'stride.logical_and' op requires an i1 element type, got 'i32'}}
  %0 = stride.logical_and %a, %a : tensor<3xi32>, tensor<3xi32> -> tensor<3xi32>
  return
}

// -----

// The new float functions need floats, as exp does.
func.func @sin_int(%a: tensor<3xi32>) {
  // expected-error @+1 {{'stride.sin' op requires a floating-point element type, got 'i32'}}
  %0 = stride.sin %a : tensor<3xi32> -> tensor<3xi32>
  return
}

// -----

// A predicate yields i1.
func.func @isnan_result(%a: tensor<3xf32>) {
  // expected-error @+1 {{'stride.isnan' op result must have element type i1, got 'f32'}}
  %0 = stride.isnan %a : tensor<3xf32> -> tensor<3xf32>
  return
}

// -----

// clip's bounds share the operand's element type.
func.func @clip_types(%a: tensor<3xf32>, %lo: f64) {
  // expected-error @+1 {{'stride.clip' op operand #1 has element type 'f64' but the result has 'f32'}}
  %0 = stride.clip %a, %lo, %a : tensor<3xf32>, f64, tensor<3xf32> -> tensor<3xf32>
  return
}

// -----

// clip's three operands broadcast together.
func.func @clip_shapes(%a: tensor<3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'stride.clip' op cannot broadcast operand 0 of shape 3, operand 1 of shape 3 and operand 2 of shape 4}}
  %0 = stride.clip %a, %a, %b : tensor<3xf32>, tensor<3xf32>, tensor<4xf32> -> tensor<3xf32>
  return
}

// -----

// NumPy refuses bool subtract and negative, and gives int8 for bool power.
func.func @bool_sub(%b: tensor<3xi1>) {
  // expected-error @+1 {{'stride.sub' op requires a non-boolean element type, got 'i1'}}
  %0 = stride.sub %b, %b : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
  return
}

// -----

func.func @bool_neg(%b: tensor<3xi1>) {
  // expected-error @+1 {{'stride.neg' op requires a non-boolean element type, got 'i1'}}
  %0 = stride.neg %b : tensor<3xi1> -> tensor<3xi1>
  return
}

// -----

func.func @bool_pow(%b: tensor<3xi1>) {
  // expected-error @+1 {{'stride.pow' op requires a non-boolean element type, got 'i1'}}
  %0 = stride.pow %b, %b : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
  return
}

// -----

// Explicitly signed integer types (si32) are no NumPy dtype: refused up
// front instead of failing in stride-generalize (unsigned ones are NumPy's
// uint dtypes, and signless ones its signed dtypes).
func.func @explicitly_signed(%u: tensor<3xsi32>) {
  // expected-error @+1 {{'stride.add' op operand #0 must be tensor or scalar, but got 'tensor<3xsi32>'}}
  %0 = stride.add %u, %u : tensor<3xsi32>, tensor<3xsi32> -> tensor<3xsi32>
  return
}
