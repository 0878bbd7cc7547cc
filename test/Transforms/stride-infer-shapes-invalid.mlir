// RUN: stride-opt %s --stride-infer-shapes --split-input-file -verify-diagnostics

// Shapes that become known only after refinement are diagnosed by the pass,
// naming the op, both operands' shapes and the failing dimension.
func.func @late_broadcast(%a: tensor<3x4xf32>, %b: tensor<5xf32>) {
  %0 = stride.exp %a : tensor<3x4xf32> -> tensor<*xf32>
  // expected-error @+1 {{'stride.add' op cannot broadcast operand 0 of shape 3x4 and operand 1 of shape 5: result dim 1 has size 4 in operand 0 (its dim 1) but size 5 in operand 1 (its dim 0)}}
  %1 = stride.add %0, %b : tensor<*xf32>, tensor<5xf32> -> tensor<*xf32>
  return
}

// -----

// A matmul whose contracted dims disagree once refined.
func.func @late_matmul(%a: tensor<2x3xf32>, %b: tensor<4x2xf32>) {
  %0 = stride.neg %a : tensor<2x3xf32> -> tensor<*xf32>
  // expected-error @+1 {{'stride.matmul' op contracted dimensions differ: lhs dim 1 has size 3, rhs dim 0 has size 4 (lhs 2x3, rhs 4x2)}}
  %1 = stride.matmul %0, %b : tensor<*xf32>, tensor<4x2xf32> -> tensor<*xf32>
  return
}

// -----

// A matmul of a refined 0-d operand.
func.func @late_matmul_scalar(%s: f32, %b: tensor<3xf32>) {
  %0 = stride.neg %s : f32 -> tensor<*xf32>
  // expected-error @+1 {{'stride.matmul' op matmul needs operands of rank 1 or more, but lhs is 0-d (lhs 0-d, rhs 3)}}
  %1 = stride.matmul %0, %b : tensor<*xf32>, tensor<3xf32> -> tensor<*xf32>
  return
}

// -----

// Matmul batch dims that do not broadcast once refined.
func.func @late_batch(%a: tensor<2x2x3xf32>, %b: tensor<3x3x2xf32>) {
  %0 = stride.neg %a : tensor<2x2x3xf32> -> tensor<*xf32>
  // expected-error @+1 {{'stride.matmul' op cannot broadcast lhs batch of shape 2 and rhs batch of shape 3: result dim 0 has size 2 in lhs batch (its dim 0) but size 3 in rhs batch (its dim 0) (lhs 2x2x3, rhs 3x3x2)}}
  %1 = stride.matmul %0, %b : tensor<*xf32>, tensor<3x3x2xf32> -> tensor<*xf32>
  return
}

// -----

// Three operands: the error names each operand's shape.
func.func @late_select(%c: tensor<4x1xi1>, %a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  %0 = stride.neg %a : tensor<2x3xf32> -> tensor<*xf32>
  // expected-error @+1 {{'stride.select' op cannot broadcast operand 0 of shape 4x1, operand 1 of shape 2x3 and operand 2 of shape 3}}
  %1 = stride.select %c, %0, %b : tensor<4x1xi1>, tensor<*xf32>, tensor<3xf32> -> tensor<*xf32>
  return
}

// -----

// A declared result shape that the refined operands contradict is an error,
// not silently replaced.
func.func @late_result(%a: tensor<3x4xf32>) {
  %0 = stride.neg %a : tensor<3x4xf32> -> tensor<*xf32>
  // expected-error @+1 {{'stride.exp' op result #0 has type 'tensor<5x4xf32>' but the operands give shape 3x4}}
  %1 = stride.exp %0 : tensor<*xf32> -> tensor<5x4xf32>
  return
}

// -----

// Recursion: the passes refine callees before callers, which a cycle makes
// impossible; the error names the cycle.
// expected-error @+1 {{'func.func' op is recursive (@ping -> @pong -> @ping); Stride's shape and layout passes need a call graph without cycles}}
func.func @ping(%x: tensor<*xf32>) -> tensor<*xf32> {
  %0 = call @pong(%x) : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
func.func @pong(%x: tensor<*xf32>) -> tensor<*xf32> {
  %0 = call @ping(%x) : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// A loop body that yields another shape than the loop carries.
func.func @grows(%a: tensor<3xf32>, %b: tensor<2x3xf32>, %n: index) -> tensor<*xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a0 = tensor.cast %a : tensor<3xf32> to tensor<*xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a0) -> (tensor<*xf32>) {
    %s = stride.add %x, %b : tensor<*xf32>, tensor<2x3xf32> -> tensor<*xf32>
    // expected-error @+1 {{'scf.yield' op operand #0 has type 'tensor<2x3xf32>' but the region's value has type 'tensor<3xf32>'; a loop-carried or yielded value keeps one shape}}
    scf.yield %s : tensor<*xf32>
  }
  return %r : tensor<*xf32>
}
