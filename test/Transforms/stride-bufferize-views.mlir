// RUN: stride-opt %s --stride-bufferize | FileCheck %s

// A view bufferizes to one memref.reinterpret_cast of its operand's buffer
// at the operand's run-time offset plus the view's: no allocation, no
// kernel. A view marked `copy` becomes a copy kernel into a new buffer and
// a view (of the copy for a reshape, of the operand for torch's flip).

// The transposed view is read by the exp kernel; only the output is written.
// CHECK-LABEL: func.func @permute_exp
// CHECK-NOT: memref.alloc
// CHECK: memref.reinterpret_cast %arg0 to offset: [%{{.*}}], sizes: [3, 4], strides: [1, 3]
// CHECK-NOT: memref.alloc
// CHECK: math.exp
func.func @permute_exp(%a: tensor<4x3xf32>) -> tensor<3x4xf32, #stride.layout<strides = [1, 3]>> {
  %t = stride.permute %a [1, 0] : tensor<4x3xf32> -> tensor<3x4xf32, #stride.layout<strides = [1, 3]>>
  %e = stride.exp %t : tensor<3x4xf32, #stride.layout<strides = [1, 3]>> -> tensor<3x4xf32, #stride.layout<strides = [1, 3]>>
  return %e : tensor<3x4xf32, #stride.layout<strides = [1, 3]>>
}

// A slice moves the offset by its first element: 1 * 6 + 2 * 1.
// CHECK-LABEL: func.func private @slice
// CHECK: %[[C6:.*]] = arith.constant 6 : index
// CHECK: %[[OFF0:.*]] = arith.addi %offset, %[[C6]] : index
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[OFF:.*]] = arith.addi %[[OFF0]], %[[C2]] : index
// CHECK: memref.reinterpret_cast %arg0 to offset: [%[[OFF]]], sizes: [2, 2], strides: [12, -1]
// CHECK-NOT: memref.alloc
func.func private @slice(%a: tensor<5x6xf32>) -> tensor<2x2xf32, #stride.layout<strides = [12, -1], offset = 8>> {
  %s = stride.slice %a [1::2, 2:0:-1] : tensor<5x6xf32> -> tensor<2x2xf32, #stride.layout<strides = [12, -1], offset = 8>>
  return %s : tensor<2x2xf32, #stride.layout<strides = [12, -1], offset = 8>>
}

// torch.flip copies: the NumPy view (stride -3, offset 9), then a copy
// kernel into a new row-major buffer.
// CHECK-LABEL: func.func private @flip_copy
// CHECK: memref.reinterpret_cast %arg0 to offset: [%{{.*}}], sizes: [4, 3], strides: [-3, 1]
// CHECK: memref.alloc
// CHECK: linalg.generic
func.func private @flip_copy(%a: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %f = stride.flip %a [0] {copy} : tensor<4x3xf32> -> tensor<4x3xf32>
  return %f : tensor<4x3xf32>
}

// A reshape with no view: a row-major copy of the operand, then the
// reshape as a view of it.
// CHECK-LABEL: func.func private @reshape_copy
// CHECK: memref.alloc
// CHECK: linalg.generic
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [2, 6], strides: [6, 1]
func.func private @reshape_copy(%a: tensor<4x3xf32, #stride.layout<strides = [1, 4]>>) -> tensor<2x6xf32> {
  %r = stride.reshape %a [2, 6] {copy} : tensor<4x3xf32, #stride.layout<strides = [1, 4]>> -> tensor<2x6xf32>
  return %r : tensor<2x6xf32>
}

// Sizes known only at run time: a permute of a dynamic operand and an
// expand of a dynamic dim whose stride is 0 where its size is 1.
// CHECK-LABEL: func.func private @dynamic
// CHECK: memref.reinterpret_cast %arg0 to offset: [%{{.*}}], sizes: [3, %{{.*}}], strides: [1, 3]
// CHECK: arith.select
// CHECK: memref.reinterpret_cast %arg0 to offset: [%{{.*}}], sizes: [2, 4, 3], strides: [0, %{{.*}}, 1]
func.func private @dynamic(%a: tensor<?x3xf32>) -> (tensor<3x?xf32, #stride.layout<strides = [1, 3]>>, tensor<2x4x3xf32, #stride.layout<strides = [0, ?, 1]>>) {
  %t = stride.permute %a [1, 0] : tensor<?x3xf32> -> tensor<3x?xf32, #stride.layout<strides = [1, 3]>>
  %e = stride.expand %a [2, 4, 3] : tensor<?x3xf32> -> tensor<2x4x3xf32, #stride.layout<strides = [0, ?, 1]>>
  return %t, %e : tensor<3x?xf32, #stride.layout<strides = [1, 3]>>, tensor<2x4x3xf32, #stride.layout<strides = [0, ?, 1]>>
}


// A view of a foreign op's result whose buffer is another layout than its
// type says: tensor.insert_slice writes in place into a column-major
// Stride result read through casts to the plain type, so the slice is
// taken of a row-major copy, the strides its layout was computed from.
// CHECK-LABEL: func.func @view_of_insert_into_transposed
// CHECK: memref.subview
// CHECK: linalg.copy
// CHECK: linalg.copy ins(%{{.*}} : memref<6x8xf64, strided<[1, 6], offset: ?>>) outs(%[[ROW:.*]] : memref<6x8xf64, strided<[8, 1], offset: ?>>)
// CHECK: memref.reinterpret_cast %[[ROW]] to offset: [%{{.*}}], sizes: [3, 8], strides: [16, 1]
func.func @view_of_insert_into_transposed(%a: tensor<8x6xf64>, %row: tensor<1x8xf64>) -> tensor<3x8xf64> {
  %0 = stride.permute %a [1, 0] : tensor<8x6xf64> -> tensor<6x8xf64, #stride.layout<strides = [1, 6]>>
  %cst = arith.constant 2.0 : f64
  %1 = stride.mul %0, %cst : tensor<6x8xf64, #stride.layout<strides = [1, 6]>>, f64 -> tensor<6x8xf64, #stride.layout<strides = [1, 6]>>
  %cast = tensor.cast %1 : tensor<6x8xf64, #stride.layout<strides = [1, 6]>> to tensor<*xf64>
  %plain = tensor.cast %cast : tensor<*xf64> to tensor<6x8xf64>
  %ins = tensor.insert_slice %row into %plain[0, 0] [1, 8] [1, 1] : tensor<1x8xf64> into tensor<6x8xf64>
  %2 = stride.slice %ins [1::2, :] : tensor<6x8xf64> -> tensor<3x8xf64, #stride.layout<strides = [16, 1], offset = 8>>
  %3 = stride.add %2, %cst : tensor<3x8xf64, #stride.layout<strides = [16, 1], offset = 8>>, f64 -> tensor<3x8xf64>
  return %3 : tensor<3x8xf64>
}
