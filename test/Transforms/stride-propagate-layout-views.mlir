// RUN: stride-opt %s --stride-propagate-layout --split-input-file | FileCheck %s --check-prefixes=CHECK,TORCH
// RUN: stride-opt %s '--stride-propagate-layout=policy=numpy' --split-input-file | FileCheck %s --check-prefixes=CHECK,NUMPY

// View results get the strides and offset their policy's library gives the
// view (PyTorch 1.13, NumPy 1.24; lib/Layout/Views.cpp), computed from the
// operand's layout; a reshape or flip the library copies is marked `copy`
// and laid out as the library lays the copy out.

// Permutations permute the strides, in both libraries.
// CHECK-LABEL: func.func @permute
// CHECK: stride.permute {{.*}} -> tensor<3x4x2xf32, #stride.layout<strides = [10, 2, 1]>>
// CHECK: stride.transpose {{.*}} -> tensor<3x2x4xf32, #stride.layout<strides = [10, 1, 2]>>
func.func @permute(%a: tensor<4x2x3xf32, #stride.layout<strides = [2, 1, 10]>>) {
  %0 = stride.permute %a [2, 0, 1] : tensor<4x2x3xf32, #stride.layout<strides = [2, 1, 10]>> -> tensor<3x4x2xf32>
  %1 = stride.transpose %a [0, 2] : tensor<4x2x3xf32, #stride.layout<strides = [2, 1, 10]>> -> tensor<3x2x4xf32>
  return
}

// -----

// A slice moves the offset to its first element and multiplies the stride by
// the step; a slice of a slice adds up. An empty dim keeps PyTorch's clamped
// start, NumPy's resets to start 0, step 1 (the offset does not move).
// CHECK-LABEL: func.func @slice
// CHECK: stride.slice {{.*}} -> tensor<3x2xf32, #stride.layout<strides = [6, 2], offset = 7>>
// CHECK: stride.slice {{.*}} -> tensor<2x1xf32, #stride.layout<strides = [6, 2], offset = 13>>
// TORCH: stride.slice {{.*}} -> tensor<3x0x1xf32, #stride.layout<strides = [6, 2, 2], offset = 6>>
// NUMPY: stride.slice {{.*}} -> tensor<3x0x1xf32, #stride.layout<strides = [6, 2, 2]>>
func.func @slice(%a: tensor<5x6xf32>, %b: tensor<3x3x1xf32, #stride.layout<strides = [6, 2, 2]>>) {
  %0 = stride.slice %a [1:-1, 1:5:2] : tensor<5x6xf32> -> tensor<3x2xf32>
  %1 = stride.slice %0 [1:, :1] : tensor<3x2xf32> -> tensor<2x1xf32>
  %2 = stride.slice %b [:, 3:, 0:] : tensor<3x3x1xf32, #stride.layout<strides = [6, 2, 2]>> -> tensor<3x0x1xf32>
  return
}

// -----

// Expand: stretched and new dims get stride 0; a size-1 dim that stays 1
// keeps its stride in PyTorch and gets 0 in NumPy. PyTorch's new leading
// dim of size 1 gets size * stride of the dim after it.
// CHECK-LABEL: func.func @expand
// TORCH: stride.expand {{.*}} -> tensor<3x1x4x1x5xf32, #stride.layout<strides = [0, 40, 10, 10, 1]>>
// NUMPY: stride.expand {{.*}} -> tensor<3x1x4x1x5xf32, #stride.layout<strides = [0, 0, 10, 0, 1]>>
// TORCH: stride.expand {{.*}} -> tensor<1x4x3xf32, #stride.layout<strides = [12, 3, 0]>>
// NUMPY: stride.expand {{.*}} -> tensor<1x4x3xf32, #stride.layout<strides = [0, 3, 0]>>
func.func @expand(%a: tensor<1x4x1x5xf32, #stride.layout<strides = [40, 10, 10, 1]>>, %b: tensor<4x1xf32, #stride.layout<strides = [3, 1]>>) {
  %0 = stride.expand %a [3, 1, 4, 1, 5] : tensor<1x4x1x5xf32, #stride.layout<strides = [40, 10, 10, 1]>> -> tensor<3x1x4x1x5xf32>
  %1 = stride.expand %b [1, 4, 3] : tensor<4x1xf32, #stride.layout<strides = [3, 1]>> -> tensor<1x4x3xf32>
  return
}

// -----

// Squeeze keeps the other strides; unsqueeze is PyTorch's size * stride, and
// in NumPy a reshape that restrides size-1 dims (the corpus case
// numpy-unsqueeze-7).
// CHECK-LABEL: func.func @squeeze_unsqueeze
// CHECK: stride.squeeze {{.*}} -> tensor<2x4x2xf32, #stride.layout<strides = [8, 2, 16]>>
// TORCH: stride.unsqueeze {{.*}} -> tensor<1x2x1x4x2xf32, #stride.layout<strides = [16, 8, -2, 2, 16]>>
// NUMPY: stride.unsqueeze {{.*}} -> tensor<1x2x1x4x2xf32, #stride.layout<strides = [16, 8, 8, 2, 16]>>
func.func @squeeze_unsqueeze(%a: tensor<2x1x4x2xf32, #stride.layout<strides = [8, -2, 2, 16]>>) {
  %0 = stride.squeeze %a : tensor<2x1x4x2xf32, #stride.layout<strides = [8, -2, 2, 16]>> -> tensor<2x4x2xf32>
  %1 = stride.unsqueeze %a [0] : tensor<2x1x4x2xf32, #stride.layout<strides = [8, -2, 2, 16]>> -> tensor<1x2x1x4x2xf32>
  return
}

// -----

// NumPy's flip is a view with the stride negated and the offset at the last
// element; torch.flip copies, laid out like empty_like.
// CHECK-LABEL: func.func @flip
// NUMPY: stride.flip {{.*}} [0] : {{.*}} -> tensor<2x3x5xf32, #stride.layout<strides = [-30, 5, 1], offset = 30>>
// TORCH: stride.flip {{.*}} [0] {copy} : {{.*}} -> tensor<2x3x5xf32>
// NUMPY: stride.flip {{.*}} [1] : {{.*}} -> tensor<4x3xf32, #stride.layout<strides = [1, -4], offset = 8>>
// TORCH: stride.flip {{.*}} [1] {copy} : {{.*}} -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>>
func.func @flip(%a: tensor<2x3x5xf32, #stride.layout<strides = [30, 5, 1]>>, %b: tensor<4x3xf32, #stride.layout<strides = [1, 4]>>) {
  %0 = stride.flip %a [0] : tensor<2x3x5xf32, #stride.layout<strides = [30, 5, 1]>> -> tensor<2x3x5xf32>
  %1 = stride.flip %b [1] : tensor<4x3xf32, #stride.layout<strides = [1, 4]>> -> tensor<4x3xf32>
  return
}

// -----

// Reshape is a view exactly when the library's rule finds one: merging
// dims that are contiguous with each other (PyTorch's computeStride, NumPy's
// no-copy attempt), else a row-major copy (corpus torch-reshape-74,
// numpy-reshape-27, torch-reshape-138).
// CHECK-LABEL: func.func @reshape
// CHECK: stride.reshape {{.*}} [96] : {{.*}} -> tensor<96xf32, #stride.layout<strides = [2]>>
// CHECK: stride.reshape {{.*}} [25, 4, 2, 5] {copy} : {{.*}} -> tensor<25x4x2x5xf32>
// CHECK: stride.reshape {{.*}} [2, 25] {copy} : {{.*}} -> tensor<2x25xf32>
// CHECK: stride.reshape {{.*}} [2, 3] : {{.*}} -> tensor<2x3xf32, #stride.layout<strides = [1, 2]>>
func.func @reshape(%a: tensor<4x4x3x1x2xf32, #stride.layout<strides = [48, 12, 4, 4, 2]>>,
                   %b: tensor<5x5x4x2x5xf32, #stride.layout<strides = [400, 40, 10, 5, -1]>>,
                   %c: tensor<5x1x5x2x1xf32, #stride.layout<strides = [2, 200, 40, 10, 200]>>,
                   %d: tensor<2x3xf32, #stride.layout<strides = [1, 2]>>) {
  %0 = stride.reshape %a [96] : tensor<4x4x3x1x2xf32, #stride.layout<strides = [48, 12, 4, 4, 2]>> -> tensor<96xf32>
  %1 = stride.reshape %b [25, 4, 2, 5] : tensor<5x5x4x2x5xf32, #stride.layout<strides = [400, 40, 10, 5, -1]>> -> tensor<25x4x2x5xf32>
  %2 = stride.reshape %c [2, 25] : tensor<5x1x5x2x1xf32, #stride.layout<strides = [2, 200, 40, 10, 200]>> -> tensor<2x25xf32>
  %3 = stride.reshape %d [2, 3] : tensor<2x3xf32, #stride.layout<strides = [1, 2]>> -> tensor<2x3xf32>
  return
}

// -----

// A view feeding an elementwise op: the op's layout is decided from the
// view's strides (a transposed input, so a transposed result).
// CHECK-LABEL: func.func @view_into_add
// CHECK-SAME: -> tensor<3x4xf32, #stride.layout<strides = [1, 3]>>
// CHECK: stride.permute {{.*}} -> tensor<3x4xf32, #stride.layout<strides = [1, 3]>>
// CHECK: stride.exp {{.*}} -> tensor<3x4xf32, #stride.layout<strides = [1, 3]>>
func.func @view_into_add(%a: tensor<4x3xf32>) -> tensor<3x4xf32> {
  %t = stride.permute %a [1, 0] : tensor<4x3xf32> -> tensor<3x4xf32>
  %e = stride.exp %t : tensor<3x4xf32> -> tensor<3x4xf32>
  return %e : tensor<3x4xf32>
}
