// RUN: stride-opt %s --stride-infer-shapes --split-input-file | FileCheck %s

// stride-infer-shapes refines the unranked results of view ops from their
// operands' shapes and attributes, and the results of the ops using them.

// CHECK-LABEL: func.func @chain
// CHECK-SAME: -> tensor<3x2xf32>
// CHECK: stride.permute {{.*}} -> tensor<3x4xf32>
// CHECK: stride.slice {{.*}} -> tensor<3x2xf32>
// CHECK: stride.add {{.*}} -> tensor<3x2xf32>
func.func @chain(%a: tensor<4x3xf32>, %b: tensor<2xf32>) -> tensor<*xf32> {
  %t = stride.permute %a [1, 0] : tensor<4x3xf32> -> tensor<*xf32>
  %s = stride.slice %t [:, 1::2] : tensor<*xf32> -> tensor<*xf32>
  %r = stride.add %s, %b : tensor<*xf32>, tensor<2xf32> -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// -----

// Each op's shape rule, sizes 0 and 1 included.
// CHECK-LABEL: func.func @shapes
// CHECK: stride.transpose {{.*}} -> tensor<3x1x2xf32>
// CHECK: stride.slice {{.*}} -> tensor<0x1x3xf32>
// CHECK: stride.slice {{.*}} -> tensor<2x1x2xf32>
// CHECK: stride.expand {{.*}} -> tensor<5x2x4x3xf32>
// CHECK: stride.expand {{.*}} -> tensor<2x0x3xf32>
// CHECK: stride.squeeze {{.*}} -> tensor<2x3xf32>
// CHECK: stride.unsqueeze {{.*}} -> tensor<2x1x3x1xf32>
// CHECK: stride.flip {{.*}} -> tensor<2x1x3xf32>
// CHECK: stride.reshape {{.*}} -> tensor<3x2xf32>
// CHECK: stride.reshape {{.*}} -> tensor<6xf32>
// CHECK: stride.reshape {{.*}} -> tensor<0x5xf32>
func.func @shapes(%x: tensor<2x1x3xf32>, %z: tensor<0x5xf32>) {
  %0 = stride.transpose %x [0, 2] : tensor<2x1x3xf32> -> tensor<*xf32>
  %1 = stride.slice %x [5:] : tensor<2x1x3xf32> -> tensor<*xf32>
  %2 = stride.slice %x [::-1, :, 2::-2] : tensor<2x1x3xf32> -> tensor<*xf32>
  %3 = stride.expand %x [5, 2, 4, 3] : tensor<2x1x3xf32> -> tensor<*xf32>
  %4 = stride.expand %x [2, 0, -1] : tensor<2x1x3xf32> -> tensor<*xf32>
  %5 = stride.squeeze %x : tensor<2x1x3xf32> -> tensor<*xf32>
  %6 = stride.unsqueeze %x [3] : tensor<2x1x3xf32> -> tensor<*xf32>
  %7 = stride.flip %x [0] : tensor<2x1x3xf32> -> tensor<*xf32>
  %8 = stride.reshape %x [3, -1] : tensor<2x1x3xf32> -> tensor<*xf32>
  %9 = stride.reshape %x [-1] : tensor<2x1x3xf32> -> tensor<*xf32>
  %10 = stride.reshape %z [0, 5] : tensor<0x5xf32> -> tensor<*xf32>
  return
}

// -----

// Dynamic sizes stay dynamic where the rule cannot know them.
// CHECK-LABEL: func.func @dynamic
// CHECK: stride.permute {{.*}} -> tensor<3x?xf32>
// CHECK: stride.slice {{.*}} -> tensor<?x2xf32>
// CHECK: stride.expand {{.*}} -> tensor<4x3xf32>
// CHECK: stride.squeeze {{.*}} -> tensor<3xf32>
// CHECK: stride.reshape {{.*}} -> tensor<?xf32>
func.func @dynamic(%x: tensor<?x3xf32>) {
  %0 = stride.permute %x [1, 0] : tensor<?x3xf32> -> tensor<*xf32>
  %1 = stride.slice %x [1:, :2] : tensor<?x3xf32> -> tensor<*xf32>
  %2 = stride.expand %x [4, 3] : tensor<?x3xf32> -> tensor<*xf32>
  %3 = stride.squeeze %x dims [0] : tensor<?x3xf32> -> tensor<*xf32>
  %4 = stride.reshape %x [-1] : tensor<?x3xf32> -> tensor<*xf32>
  return
}
