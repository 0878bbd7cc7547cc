// RUN: stride-opt %s --stride-buffer-layouts --one-shot-bufferize="bufferize-function-boundaries allow-return-allocs-from-loops" --canonicalize --cse --split-input-file | FileCheck %s

// A plain upstream One-Shot run on a module mixing a call, linalg on tensors,
// tensor.extract_slice and Stride ops: #stride.layout arguments and results
// become memrefs with exactly those strides, Stride results are allocated in
// their layout, the slice is read in place, and nothing is copied.
// CHECK-LABEL: func.func private @scale
// CHECK-SAME: (%{{.*}}: memref<4x3xf32, strided<[1, 4], offset: ?>>) -> memref<4x3xf32, strided<[1, 4], offset: ?>>
// CHECK: %[[FLAT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<12xf32>
// CHECK: memref.reinterpret_cast %[[FLAT]] to offset: [0], sizes: [4, 3], strides: [1, 4]
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK-LABEL: func.func @mixed
// CHECK-SAME: (%[[A:.*]]: memref<4x3xf32, strided<[1, 4], offset: ?>>, %[[B:.*]]: memref<3x5xf32, strided<[5, 1], offset: ?>>) -> memref<2x5xf32, strided<[5, 1], offset: ?>>
// CHECK-NOT: memref.copy
// CHECK-NOT: linalg.copy
// CHECK: %[[E:.*]] = call @scale(%[[A]])
// CHECK: %[[P:.*]] = memref.alloc() {{.*}} : memref<4x5xf32>
// CHECK: linalg.matmul ins(%[[E]], %[[B]] : {{.*}}) outs(%[[P]] : memref<4x5xf32>)
// CHECK: %[[S:.*]] = memref.subview %[[P]][1, 0] [2, 5] [1, 1]
// CHECK: memref.reinterpret_cast %[[S]]
// CHECK: math.tanh
// CHECK-NOT: memref.copy
// CHECK-NOT: linalg.copy
// CHECK: return
func.func private @scale(%x: tensor<4x3xf32, #stride.layout<strides = [1, 4]>>) -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>> {
  %0 = stride.broadcast ins(%x : tensor<4x3xf32, #stride.layout<strides = [1, 4]>>) -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>> {
  ^bb0(%v: f32):
    %e = math.exp %v : f32
    stride.yield %e : f32
  }
  return %0 : tensor<4x3xf32, #stride.layout<strides = [1, 4]>>
}
func.func @mixed(%a: tensor<4x3xf32, #stride.layout<strides = [1, 4]>>, %b: tensor<3x5xf32>) -> tensor<2x5xf32> {
  %e = call @scale(%a) : (tensor<4x3xf32, #stride.layout<strides = [1, 4]>>) -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<4x5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%init : tensor<4x5xf32>) -> tensor<4x5xf32>
  %p = linalg.matmul ins(%e, %b : tensor<4x3xf32, #stride.layout<strides = [1, 4]>>, tensor<3x5xf32>) outs(%z : tensor<4x5xf32>) -> tensor<4x5xf32>
  %s = tensor.extract_slice %p[1, 0] [2, 5] [1, 1] : tensor<4x5xf32> to tensor<2x5xf32>
  %r = stride.broadcast ins(%s : tensor<2x5xf32>) -> tensor<2x5xf32> {
  ^bb0(%v: f32):
    %t = math.tanh %v : f32
    stride.yield %t : f32
  }
  return %r : tensor<2x5xf32>
}

// -----

// A destination that is a function argument is written in place: the
// argument is the result, no allocation and no copy.
// CHECK-LABEL: func.func @into_argument
// CHECK-SAME: (%[[X:.*]]: memref<8xf32, strided<[1], offset: ?>>, %[[D:.*]]: memref<8xf32, strided<[1], offset: ?>>) -> memref<8xf32, strided<[1], offset: ?>>
// CHECK-NOT: memref.alloc
// CHECK-NOT: copy
// CHECK: linalg.generic
// CHECK: return %[[D]]
func.func @into_argument(%x: tensor<8xf32>, %d: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stride.broadcast ins(%x : tensor<8xf32>) outs(%d : tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%v: f32):
    %e = math.exp %v : f32
    stride.yield %e : f32
  }
  return %0 : tensor<8xf32>
}

// -----

// The old value of the destination is read afterwards: One-Shot's analysis
// puts the result in a new buffer instead, in the destination's layout, not
// initialized from the destination since the kernel never reads it.
// CHECK-LABEL: func.func @old_value_read
// CHECK-SAME: -> (memref<4x3xf32, strided<[1, 4], offset: ?>>, memref<4x3xf32, strided<[1, 4], offset: ?>>)
// CHECK: %[[NEW:.*]] = memref.alloc() {{.*}} : memref<12xf32>
// CHECK-NOT: copy
// CHECK: memref.reinterpret_cast %[[NEW]] to offset: [0], sizes: [4, 3], strides: [1, 4]
// CHECK: linalg.generic
// CHECK: return %{{.*}}, %{{.*}}
func.func @old_value_read(%x: tensor<4x3xf32>, %d: tensor<4x3xf32, #stride.layout<strides = [1, 4]>>) -> (tensor<4x3xf32, #stride.layout<strides = [1, 4]>>, tensor<4x3xf32, #stride.layout<strides = [1, 4]>>) {
  %0 = stride.broadcast ins(%x : tensor<4x3xf32>) outs(%d : tensor<4x3xf32, #stride.layout<strides = [1, 4]>>) -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>> {
  ^bb0(%v: f32):
    %e = math.exp %v : f32
    stride.yield %e : f32
  }
  return %0, %d : tensor<4x3xf32, #stride.layout<strides = [1, 4]>>, tensor<4x3xf32, #stride.layout<strides = [1, 4]>>
}

// -----

// A tensor.empty destination only gives the shape: the result is allocated
// in its own layout, not in the identity layout tensor.empty would get.
// CHECK-LABEL: func.func @into_empty
// CHECK-SAME: -> memref<4x3xf32, strided<[1, 4], offset: ?>>
// CHECK: %[[NEW:.*]] = memref.alloc() {{.*}} : memref<12xf32>
// CHECK: memref.reinterpret_cast %[[NEW]] to offset: [0], sizes: [4, 3], strides: [1, 4]
func.func @into_empty(%x: tensor<4x3xf32>) -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>> {
  %d = tensor.empty() : tensor<4x3xf32, #stride.layout<strides = [1, 4]>>
  %0 = stride.broadcast ins(%x : tensor<4x3xf32>) outs(%d : tensor<4x3xf32, #stride.layout<strides = [1, 4]>>) -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>> {
  ^bb0(%v: f32):
    %e = math.exp %v : f32
    stride.yield %e : f32
  }
  return %0 : tensor<4x3xf32, #stride.layout<strides = [1, 4]>>
}

// -----

// An scf.for carrying a Stride result (One-Shot needs
// allow-return-allocs-from-loops for it): each iteration's result is a new
// buffer in the propagated layout, yielded without a copy.
// CHECK-LABEL: func.func @loop
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (memref<4x3xf32, strided<[1, 4], offset: ?>>)
// CHECK: memref.alloc() {{.*}} : memref<12xf32>
// CHECK-NOT: copy
// CHECK: scf.yield
func.func @loop(%a: tensor<4x3xf32, #stride.layout<strides = [1, 4]>>, %n: index) -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> (tensor<4x3xf32, #stride.layout<strides = [1, 4]>>) {
    %y = stride.broadcast ins(%x : tensor<4x3xf32, #stride.layout<strides = [1, 4]>>) -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>> {
    ^bb0(%v: f32):
      %e = math.exp %v : f32
      stride.yield %e : f32
    }
    scf.yield %y : tensor<4x3xf32, #stride.layout<strides = [1, 4]>>
  }
  return %r : tensor<4x3xf32, #stride.layout<strides = [1, 4]>>
}

// -----

// Named ops (the first ones and the NumPy set alike) bufferize under plain
// One-Shot, without stride-generalize: each becomes its one-op broadcast,
// whose result is allocated in its layout.
// CHECK-LABEL: func.func @named
// CHECK: memref.alloc
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: linalg.generic
// CHECK: math.sin
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK-NOT: stride.
func.func @named(%a: tensor<4x3xf32>, %b: tensor<3xf32>) -> tensor<4x3xf32> {
  %e = stride.exp %a : tensor<4x3xf32> -> tensor<4x3xf32>
  %s = stride.sin %e : tensor<4x3xf32> -> tensor<4x3xf32>
  %r = stride.add %s, %b : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
