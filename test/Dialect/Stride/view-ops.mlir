// RUN: stride-opt %s | FileCheck %s
// RUN: stride-opt %s | stride-opt | FileCheck %s
// RUN: stride-opt %s --mlir-print-op-generic | stride-opt | FileCheck %s

// Round trip of the view ops (StrideViewOps.td) and of a layout's offset.

// CHECK-LABEL: func.func @views
func.func @views(%x: tensor<4x1x6xf32>, %d: tensor<?x3xf32>) {
  // CHECK: stride.permute %{{.*}} [2, 0, 1] : tensor<4x1x6xf32> -> tensor<6x4x1xf32>
  %0 = stride.permute %x [2, 0, 1] : tensor<4x1x6xf32> -> tensor<6x4x1xf32>
  // CHECK: stride.transpose %{{.*}} [0, 2] : tensor<4x1x6xf32> -> tensor<*xf32>
  %1 = stride.transpose %x [0, 2] : tensor<4x1x6xf32> -> tensor<*xf32>
  // CHECK: stride.slice %{{.*}} [1:-1, :, ::-2] : tensor<4x1x6xf32> -> tensor<2x1x3xf32>
  %2 = stride.slice %x [1:-1, :, ::-2] : tensor<4x1x6xf32> -> tensor<2x1x3xf32>
  // CHECK: stride.slice %{{.*}} [:2:1] : tensor<4x1x6xf32> -> tensor<*xf32>
  %3 = stride.slice %x [:2:1] : tensor<4x1x6xf32> -> tensor<*xf32>
  // CHECK: stride.slice %{{.*}} [] : tensor<4x1x6xf32> -> tensor<4x1x6xf32>
  %4 = stride.slice %x [] : tensor<4x1x6xf32> -> tensor<4x1x6xf32>
  // CHECK: stride.expand %{{.*}} [2, 4, 3, -1] : tensor<4x1x6xf32> -> tensor<2x4x3x6xf32>
  %5 = stride.expand %x [2, 4, 3, -1] : tensor<4x1x6xf32> -> tensor<2x4x3x6xf32>
  // CHECK: stride.squeeze %{{.*}} : tensor<4x1x6xf32> -> tensor<4x6xf32>
  %6 = stride.squeeze %x : tensor<4x1x6xf32> -> tensor<4x6xf32>
  // CHECK: stride.squeeze %{{.*}} dims [1] : tensor<4x1x6xf32> -> tensor<4x6xf32>
  %7 = stride.squeeze %x dims [1] : tensor<4x1x6xf32> -> tensor<4x6xf32>
  // CHECK: stride.unsqueeze %{{.*}}[3] : tensor<4x1x6xf32> -> tensor<4x1x6x1xf32>
  %8 = stride.unsqueeze %x [3] : tensor<4x1x6xf32> -> tensor<4x1x6x1xf32>
  // CHECK: stride.flip %{{.*}} [0, 2] : tensor<4x1x6xf32> -> tensor<4x1x6xf32>
  %9 = stride.flip %x [0, 2] : tensor<4x1x6xf32> -> tensor<4x1x6xf32>
  // CHECK: stride.reshape %{{.*}} [3, -1] {copy} : tensor<4x1x6xf32> -> tensor<3x8xf32>
  %10 = stride.reshape %x [3, -1] {copy} : tensor<4x1x6xf32> -> tensor<3x8xf32>
  // Dynamic sizes: a whole dynamic dim slices, a reshape infers a dynamic dim.
  // CHECK: stride.slice %{{.*}} [:, 1:] : tensor<?x3xf32> -> tensor<?x2xf32>
  %11 = stride.slice %d [:, 1:] : tensor<?x3xf32> -> tensor<?x2xf32>
  // CHECK: stride.reshape %{{.*}} [-1] : tensor<?x3xf32> -> tensor<?xf32>
  %12 = stride.reshape %d [-1] : tensor<?x3xf32> -> tensor<?xf32>
  return
}

// The offset of a view prints after its strides, `?` when unknown; offset 0
// is not printed.
// CHECK-LABEL: func.func @offsets
// CHECK-SAME: tensor<2x3xf32, #stride.layout<strides = [-3, 1], offset = 3>>
// CHECK-SAME: tensor<?x3xf32, #stride.layout<perm = [1, 0], offset = ?>>
// CHECK-SAME: tensor<2x3xf32, #stride.layout<strides = [1, 2]>>
func.func @offsets(%a: tensor<2x3xf32, #stride.layout<strides = [-3, 1], offset = 3>>,
                   %b: tensor<?x3xf32, #stride.layout<perm = [1, 0], offset = ?>>,
                   %c: tensor<2x3xf32, #stride.layout<strides = [1, 2], offset = 0>>) {
  return
}
