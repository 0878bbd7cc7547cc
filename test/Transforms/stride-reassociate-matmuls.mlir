// RUN: stride-opt %s --stride-reassociate-matmuls --split-input-file | FileCheck %s
// RUN: stride-opt %s --stride-reassociate-matmuls=min-gain=0 --split-input-file | FileCheck %s --check-prefix=OFF

// A @ B @ x: (A @ B) @ x does 8*8*8 + 8*8 multiplies, A @ (B @ x) 8*8 +
// 8*8, so the vector is multiplied first.
// CHECK-LABEL: func.func @matrix_matrix_vector
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<8x8xf64>, %[[B:[a-z0-9]+]]: tensor<8x8xf64>, %[[X:[a-z0-9]+]]: tensor<8xf64>
// CHECK: %[[BX:.+]] = stride.matmul %[[B]], %[[X]] : tensor<8x8xf64>, tensor<8xf64> -> tensor<8xf64>
// CHECK: %[[R:.+]] = stride.matmul %[[A]], %[[BX]] : tensor<8x8xf64>, tensor<8xf64> -> tensor<8xf64>
// CHECK: return %[[R]]
// OFF-LABEL: func.func @matrix_matrix_vector
// OFF: %[[AB:.+]] = stride.matmul %arg0, %arg1
// OFF: stride.matmul %[[AB]], %arg2
func.func @matrix_matrix_vector(%a: tensor<8x8xf64>, %b: tensor<8x8xf64>, %x: tensor<8xf64>) -> tensor<8xf64> {
  %ab = stride.matmul %a, %b : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
  %r = stride.matmul %ab, %x : tensor<8x8xf64>, tensor<8xf64> -> tensor<8xf64>
  return %r : tensor<8xf64>
}

// -----

// y @ (B @ C) with a row vector y: (y @ B) @ C is cheaper, and the vector
// stays a vector.
// CHECK-LABEL: func.func @vector_matrix_matrix
// CHECK-SAME: %[[Y:[a-z0-9]+]]: tensor<8xf32>, %[[B:[a-z0-9]+]]: tensor<8x6xf32>, %[[C:[a-z0-9]+]]: tensor<6x8xf32>
// CHECK: %[[YB:.+]] = stride.matmul %[[Y]], %[[B]] : tensor<8xf32>, tensor<8x6xf32> -> tensor<6xf32>
// CHECK: stride.matmul %[[YB]], %[[C]] : tensor<6xf32>, tensor<6x8xf32> -> tensor<8xf32>
func.func @vector_matrix_matrix(%y: tensor<8xf32>, %b: tensor<8x6xf32>, %c: tensor<6x8xf32>) -> tensor<8xf32> {
  %bc = stride.matmul %b, %c : tensor<8x6xf32>, tensor<6x8xf32> -> tensor<8x8xf32>
  %r = stride.matmul %y, %bc : tensor<8xf32>, tensor<8x8xf32> -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// A thin chain: (A @ B) @ C with A 8x2, B 2x8, C 8x2 does 128 + 128
// multiplies, A @ (B @ C) 32 + 32.
// CHECK-LABEL: func.func @thin_chain
// CHECK: %[[BC:.+]] = stride.matmul %arg1, %arg2 : tensor<2x8xi64>, tensor<8x2xi64> -> tensor<2x2xi64>
// CHECK: stride.matmul %arg0, %[[BC]] : tensor<8x2xi64>, tensor<2x2xi64> -> tensor<8x2xi64>
func.func @thin_chain(%a: tensor<8x2xi64>, %b: tensor<2x8xi64>, %c: tensor<8x2xi64>) -> tensor<8x2xi64> {
  %ab = stride.matmul %a, %b : tensor<8x2xi64>, tensor<2x8xi64> -> tensor<8x8xi64>
  %r = stride.matmul %ab, %c : tensor<8x8xi64>, tensor<8x2xi64> -> tensor<8x2xi64>
  return %r : tensor<8x2xi64>
}

// -----

// Square matrices cost the same either way: NumPy's order stays. A product
// used twice stays too, and so does a vector in the middle ((A @ b) @ C is
// not A @ (b @ C)).
// CHECK-LABEL: func.func @kept
// CHECK: %[[AB:.+]] = stride.matmul %arg0, %arg1 : tensor<8x8xf64>, tensor<8x8xf64>
// CHECK: stride.matmul %[[AB]], %arg2 : tensor<8x8xf64>, tensor<8x8xf64>
// CHECK: %[[AX:.+]] = stride.matmul %arg0, %arg3 : tensor<8x8xf64>, tensor<8xf64>
// CHECK: stride.matmul %[[AX]], %arg0
// CHECK: %[[USED:.+]] = stride.matmul %arg0, %arg1
// CHECK: stride.matmul %[[USED]], %arg3
// CHECK: stride.add %[[USED]], %[[USED]]
func.func @kept(%a: tensor<8x8xf64>, %b: tensor<8x8xf64>, %c: tensor<8x8xf64>, %x: tensor<8xf64>) -> (tensor<8x8xf64>, tensor<8xf64>, tensor<8xf64>, tensor<8x8xf64>) {
  %ab = stride.matmul %a, %b : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
  %abc = stride.matmul %ab, %c : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
  %ax = stride.matmul %a, %x : tensor<8x8xf64>, tensor<8xf64> -> tensor<8xf64>
  %axa = stride.matmul %ax, %a : tensor<8xf64>, tensor<8x8xf64> -> tensor<8xf64>
  %used = stride.matmul %a, %b : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
  %usedx = stride.matmul %used, %x : tensor<8x8xf64>, tensor<8xf64> -> tensor<8xf64>
  %twice = stride.add %used, %used : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
  return %abc, %axa, %usedx, %twice : tensor<8x8xf64>, tensor<8xf64>, tensor<8xf64>, tensor<8x8xf64>
}

// -----

// A product made before a loop and used in its body runs once: moving it
// into the body would run it every iteration, so it stays.
// CHECK-LABEL: func.func @loop_body
// CHECK: %[[AB:.+]] = stride.matmul %arg0, %arg1
// CHECK: scf.for
// CHECK: stride.matmul %[[AB]], %{{.+}} : tensor<8x8xf64>, tensor<8xf64>
func.func @loop_body(%a: tensor<8x8xf64>, %b: tensor<8x8xf64>, %x: tensor<8xf64>) -> tensor<8xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %ab = stride.matmul %a, %b : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
  %r = scf.for %i = %c0 to %c9 step %c1 iter_args(%v = %x) -> (tensor<8xf64>) {
    %n = stride.matmul %ab, %v : tensor<8x8xf64>, tensor<8xf64> -> tensor<8xf64>
    scf.yield %n : tensor<8xf64>
  }
  return %r : tensor<8xf64>
}
