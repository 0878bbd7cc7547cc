// RUN: stride-opt %s --stride-bufferize=gram-block=2 --canonicalize --cse --split-input-file | FileCheck %s
// RUN: stride-opt %s --stride-bufferize=gram-block=0 --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=OFF

// x @ x.T with a row-major x: column blocks [0, 2), [2, 4), [4, 6) of rows
// [0, 2), [0, 4), [0, 6), each zero-filled and multiplied, then the rest
// below them copied from its transpose (C[2:, 0:2] and C[4:, 2:4]).
// CHECK-LABEL: func.func @gram_columns
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<6x3xf32
// CHECK-SAME: %[[C:[a-z0-9]+]]: memref<6x6xf32
// CHECK: %[[L0:.+]] = memref.reinterpret_cast %[[X]] {{.*}} sizes: [2, 3], strides: [3, 1]
// CHECK: %[[R0:.+]] = memref.reinterpret_cast %[[X]] {{.*}} sizes: [3, 2], strides: [1, 3]
// CHECK: %[[O0:.+]] = memref.reinterpret_cast %[[C]] {{.*}} sizes: [2, 2], strides: [6, 1]
// CHECK: linalg.fill {{.*}} outs(%[[O0]]
// CHECK: linalg.generic {{.*}} ins(%[[L0]], %[[R0]] : {{.*}}) outs(%[[O0]]
// CHECK: memref.reinterpret_cast %[[X]] {{.*}} sizes: [4, 3], strides: [3, 1]
// CHECK: %[[O1:.+]] = memref.reinterpret_cast %[[C]] {{.*}} sizes: [4, 2], strides: [6, 1]
// CHECK: linalg.fill {{.*}} outs(%[[O1]]
// CHECK: linalg.generic {{.*}} outs(%[[O1]]
// CHECK: %[[O2:.+]] = memref.reinterpret_cast %[[C]] {{.*}} sizes: [6, 2], strides: [6, 1]
// CHECK: linalg.generic {{.*}} outs(%[[O2]]
// CHECK: %[[FROM:.+]] = memref.reinterpret_cast %[[C]] {{.*}} sizes: [4, 2], strides: [1, 6]
// CHECK: %[[TO:.+]] = memref.reinterpret_cast %[[C]] {{.*}} sizes: [4, 2], strides: [6, 1]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[FROM]] {{.*}} outs(%[[TO]]
// CHECK-NEXT: ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]]
// CHECK: sizes: [2, 2], strides: [1, 6]
// CHECK: sizes: [2, 2], strides: [6, 1]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK-NOT: linalg.generic
// CHECK: return
// OFF-LABEL: func.func @gram_columns
// OFF: linalg.fill
// OFF-NEXT: linalg.generic
// OFF-NOT: linalg.generic
// OFF: return
func.func @gram_columns(%x: tensor<6x3xf32>) -> tensor<6x6xf32> {
  %t = stride.permute %x [1, 0] : tensor<6x3xf32> -> tensor<3x6xf32, #stride.layout<strides = [1, 3]>>
  %0 = stride.matmul %x, %t : tensor<6x3xf32>, tensor<3x6xf32, #stride.layout<strides = [1, 3]>> -> tensor<6x6xf32>
  return %0 : tensor<6x6xf32>
}

// -----

// x.T @ x, whose lhs is column-major: row blocks [0, 2) ... of columns
// [0, 2) ..., so that each block copies only its own lhs rows; the column
// loop goes first (d0), where threads split.
// CHECK-DAG: #[[LHS:.+]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[RHS:.+]] = affine_map<(d0, d1, d2) -> (d1, d0)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-LABEL: func.func @gram_rows
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<3x6xf32
// CHECK-SAME: %[[C:[a-z0-9]+]]: memref<6x6xf32
// CHECK: %[[L0:.+]] = memref.reinterpret_cast %[[X]] {{.*}} sizes: [2, 3], strides: [1, 6]
// CHECK: %[[R0:.+]] = memref.reinterpret_cast %[[X]] {{.*}} sizes: [3, 2], strides: [6, 1]
// CHECK: %[[O0:.+]] = memref.reinterpret_cast %[[C]] {{.*}} sizes: [2, 2], strides: [6, 1]
// CHECK: linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[L0]], %[[R0]] : {{.*}}) outs(%[[O0]]
// CHECK: sizes: [2, 4], strides: [6, 1]
// CHECK: linalg.generic
// CHECK: sizes: [2, 6], strides: [6, 1]
// CHECK: linalg.generic
// CHECK: sizes: [2, 4], strides: [1, 6]
// CHECK: sizes: [2, 4], strides: [6, 1]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK-NOT: linalg.generic
func.func @gram_rows(%x: tensor<3x6xf32>) -> tensor<6x6xf32> {
  %t = stride.transpose %x [1, 0] : tensor<3x6xf32> -> tensor<6x3xf32, #stride.layout<strides = [1, 6]>>
  %0 = stride.matmul %t, %x : tensor<6x3xf32, #stride.layout<strides = [1, 6]>>, tensor<3x6xf32> -> tensor<6x6xf32>
  return %0 : tensor<6x6xf32>
}

// -----

// A batch times its own matrices' transposes: the batch loop stays
// outermost in every block and every copy.
// CHECK-LABEL: func.func @gram_batch
// CHECK: sizes: [2, 2, 3], strides: [12, 3, 1]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "parallel"]
// CHECK: sizes: [2, 4, 3], strides: [12, 3, 1]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "parallel"]
// CHECK: sizes: [2, 2, 2], strides: [16, 1, 4]
// CHECK: sizes: [2, 2, 2], strides: [16, 4, 1]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-NOT: linalg.generic
func.func @gram_batch(%x: tensor<2x4x3xf32>) -> tensor<2x4x4xf32> {
  %t = stride.permute %x [0, 2, 1] : tensor<2x4x3xf32> -> tensor<2x3x4xf32, #stride.layout<strides = [12, 1, 3]>>
  %0 = stride.matmul %x, %t : tensor<2x4x3xf32>, tensor<2x3x4xf32, #stride.layout<strides = [12, 1, 3]>> -> tensor<2x4x4xf32>
  return %0 : tensor<2x4x4xf32>
}

// -----

// einsum("ij,kj->ik", x, x) and tensordot reach the product through
// identity permutations and reshapes that add a leading unit dim: still the
// same matrices, so still symmetric. The unit batch dim gets no loop.
// CHECK-LABEL: func.func @gram_einsum
// CHECK: sizes: [2, 3], strides: [3, 1]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]
// CHECK: sizes: [4, 3], strides: [3, 1]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]
// CHECK: sizes: [6, 3], strides: [3, 1]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-COUNT-2: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
func.func @gram_einsum(%x: tensor<6x3xf32>) -> tensor<6x6xf32> {
  %0 = stride.permute %x [0, 1] : tensor<6x3xf32> -> tensor<6x3xf32>
  %1 = stride.reshape %0 [1, 6, 3] : tensor<6x3xf32> -> tensor<1x6x3xf32>
  %2 = stride.permute %x [1, 0] : tensor<6x3xf32> -> tensor<3x6xf32, #stride.layout<strides = [1, 3]>>
  %3 = stride.reshape %2 [1, 3, 6] : tensor<3x6xf32, #stride.layout<strides = [1, 3]>> -> tensor<1x3x6xf32, #stride.layout<strides = [3, 1, 3]>>
  %4 = stride.matmul %1, %3 : tensor<1x6x3xf32>, tensor<1x3x6xf32, #stride.layout<strides = [3, 1, 3]>> -> tensor<1x6x6xf32>
  %5 = stride.reshape %4 [6, 6] : tensor<1x6x6xf32> -> tensor<6x6xf32>
  return %5 : tensor<6x6xf32>
}

// -----

// Not symmetric: the rhs is another tensor's transpose, or the permutation
// also moves the batch dim. One product each.
// CHECK-LABEL: func.func @not_gram
// CHECK: linalg.fill
// CHECK-NEXT: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @not_gram(%x: tensor<6x3xf32>, %y: tensor<6x3xf32>) -> tensor<6x6xf32> {
  %t = stride.permute %y [1, 0] : tensor<6x3xf32> -> tensor<3x6xf32, #stride.layout<strides = [1, 3]>>
  %0 = stride.matmul %x, %t : tensor<6x3xf32>, tensor<3x6xf32, #stride.layout<strides = [1, 3]>> -> tensor<6x6xf32>
  return %0 : tensor<6x6xf32>
}

// A reshape that changes the matrices (6x3 read as 3x6) is not a
// transpose, whatever its operand.
// CHECK-LABEL: func.func @not_gram_reshape
// CHECK: linalg.fill
// CHECK-NEXT: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @not_gram_reshape(%x: tensor<6x3xf32>) -> tensor<6x6xf32> {
  %r = stride.reshape %x [3, 6] : tensor<6x3xf32> -> tensor<3x6xf32>
  %0 = stride.matmul %x, %r : tensor<6x3xf32>, tensor<3x6xf32> -> tensor<6x6xf32>
  return %0 : tensor<6x6xf32>
}

// CHECK-LABEL: func.func @not_gram_batch
// CHECK: linalg.fill
// CHECK-NEXT: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @not_gram_batch(%x: tensor<4x4x4xf32>) -> tensor<4x4x4xf32> {
  %t = stride.permute %x [2, 1, 0] : tensor<4x4x4xf32> -> tensor<4x4x4xf32, #stride.layout<strides = [1, 4, 16]>>
  %0 = stride.matmul %x, %t : tensor<4x4x4xf32>, tensor<4x4x4xf32, #stride.layout<strides = [1, 4, 16]>> -> tensor<4x4x4xf32>
  return %0 : tensor<4x4x4xf32>
}
