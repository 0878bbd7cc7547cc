// RUN: stride-opt %s --convert-stride-to-linalg --canonicalize --cse --split-input-file | FileCheck %s

// Destination passing: tensor arguments become strided memrefs with a
// dynamic offset, the result becomes a trailing output argument in its
// layout, and a coalesced group becomes one loop over reinterpreted views.
// CHECK-LABEL: func.func @coalesced
// CHECK-SAME: (%[[A:.*]]: memref<4x2x3xf32, strided<[2, 24, 8], offset: ?>>, %[[OUT:.*]]: memref<4x2x3xf32, strided<[1, 12, 4], offset: ?>>)
// CHECK-SAME: attributes {stride.num_outputs = 1 : i64}
// CHECK: %[[VA:.*]] = memref.reinterpret_cast %[[A]] to offset: [%{{.*}}], sizes: [24], strides: [2]
// CHECK: %[[VO:.*]] = memref.reinterpret_cast %[[OUT]] to offset: [%{{.*}}], sizes: [24], strides: [1]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[VA]] : {{.*}}) outs(%[[VO]] : {{.*}})
// CHECK: math.exp
// CHECK-NOT: memref.alloc
// CHECK: return
func.func @coalesced(%a: tensor<4x2x3xf32, #stride.layout<strides = [2, 24, 8]>>) -> tensor<4x2x3xf32, #stride.layout<strides = [1, 12, 4]>> {
  %0 = stride.broadcast ins(%a : tensor<4x2x3xf32, #stride.layout<strides = [2, 24, 8]>>) -> tensor<4x2x3xf32, #stride.layout<strides = [1, 12, 4]>> attributes {iteration = [array<i64: 1, 2, 0>]} {
  ^bb0(%x: f32):
    %e = math.exp %x : f32
    stride.yield %e : f32
  }
  return %0 : tensor<4x2x3xf32, #stride.layout<strides = [1, 12, 4]>>
}

// -----

// Broadcast operands are views with stride 0; scalars are scalar inputs
// with an empty indexing map.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0, d1, d2) -> ()>
// CHECK-LABEL: func.func @broadcast
// CHECK-SAME: (%[[A:.*]]: memref<2x3x4xf32, {{.*}}>, %[[B:.*]]: memref<3x1xf32, {{.*}}>, %[[S:.*]]: f32, %[[OUT:.*]]: memref<2x3x4xf32
// CHECK: %[[VB:.*]] = memref.reinterpret_cast %[[B]] to offset: [%{{.*}}], sizes: [2, 3, 4], strides: [0, 1, 0]
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[SCALAR]], #[[ID]]], {{.*}}} ins(%{{.*}}, %[[VB]], %[[S]] : {{.*}}, f32)
func.func @broadcast(%a: tensor<2x3x4xf32>, %b: tensor<3x1xf32>, %s: f32) -> tensor<2x3x4xf32> {
  %0 = stride.broadcast ins(%a, %b, %s : tensor<2x3x4xf32>, tensor<3x1xf32>, f32) -> tensor<2x3x4xf32> attributes {iteration = [array<i64: 0>, array<i64: 1>, array<i64: 2>]} {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.addf %m, %z : f32
    stride.yield %r : f32
  }
  return %0 : tensor<2x3x4xf32>
}

// -----

// An intermediate gets an allocation in its layout, freed before the return;
// loops follow memory order (strides (1, 3) walk dim 1 outermost).
// CHECK-LABEL: func.func @intermediate
// CHECK: %[[BUF:.*]] = memref.alloc() {alignment = 64 : i64} : memref<12xf32>
// CHECK: memref.reinterpret_cast %[[BUF]] to offset: [0], sizes: [4, 3], strides: [3, 1]
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: memref.dealloc %[[BUF]]
// CHECK-NEXT: return
func.func @intermediate(%a: tensor<3x4xf32, #stride.layout<strides = [1, 3]>>) -> tensor<3x4xf32, #stride.layout<strides = [1, 3]>> {
  %0 = stride.broadcast ins(%a : tensor<3x4xf32, #stride.layout<strides = [1, 3]>>) -> tensor<3x4xf32, #stride.layout<strides = [1, 3]>> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    stride.yield %n : f32
  }
  %1 = stride.broadcast ins(%0 : tensor<3x4xf32, #stride.layout<strides = [1, 3]>>) -> tensor<3x4xf32, #stride.layout<strides = [1, 3]>> {
  ^bb0(%x: f32):
    %e = math.exp %x : f32
    stride.yield %e : f32
  }
  return %1 : tensor<3x4xf32, #stride.layout<strides = [1, 3]>>
}

// -----

// A negative stride is read flipped: the view starts at the last element
// with a positive stride and the loop index is mirrored.
// CHECK: #[[FLIP:.*]] = affine_map<(d0, d1) -> (-d0 + 3, d1)>
// CHECK-LABEL: func.func @negative
// CHECK: %[[C9:.*]] = arith.constant -9 : index
// CHECK: %[[OFF:.*]] = arith.addi %{{.*}}, %[[C9]]
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [%[[OFF]]], sizes: [4, 3], strides: [3, 1]
// CHECK: linalg.generic {indexing_maps = [#[[FLIP]], #{{.*}}]
func.func @negative(%a: tensor<4x3xf32, #stride.layout<strides = [-3, 1]>>) -> tensor<4x3xf32> {
  %0 = stride.broadcast ins(%a : tensor<4x3xf32, #stride.layout<strides = [-3, 1]>>) -> tensor<4x3xf32> attributes {iteration = [array<i64: 0>, array<i64: 1>]} {
  ^bb0(%x: f32):
    stride.yield %x : f32
  }
  return %0 : tensor<4x3xf32>
}

// -----

// Dynamic sizes: a dim that is 1 at run time gets stride 0 by a select.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[A:.*]]: memref<?x4xf32, {{.*}}>, %[[B:.*]]: memref<?xf32, {{.*}}>, %{{.*}}: memref<?x4xf32
// CHECK: %{{.*}}, %{{.*}}, %[[BSIZE:.*]], %{{.*}} = memref.extract_strided_metadata %[[B]]
// CHECK: %[[IS1:.*]] = arith.cmpi eq, %[[BSIZE]], %c1
// CHECK: %[[ST:.*]] = arith.select %[[IS1]], %c0, %c1
// CHECK: memref.reinterpret_cast %[[B]] to offset: [%{{.*}}], sizes: [%{{.*}}, 4], strides: [0, %[[ST]]]
func.func @dynamic(%a: tensor<?x4xf32>, %b: tensor<?xf32>) -> tensor<?x4xf32> {
  %0 = stride.broadcast ins(%a, %b : tensor<?x4xf32>, tensor<?xf32>) -> tensor<?x4xf32> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    stride.yield %s : f32
  }
  return %0 : tensor<?x4xf32>
}

// -----

// Matmul with a batch and a 1-D rhs: a fill and a generic with loops
// (batch, m, k, n), k the reduction and n innermost so that the inner loop
// walks rows; the rhs has no batch dims and its promoted n has stride 0, as
// has the dropped n of the output.
// CHECK-DAG: #[[LHS:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG: #[[RHS:.*]] = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-LABEL: func.func @matmul
// CHECK: memref.reinterpret_cast %{{.*}} sizes: [2, 3, 4], strides: [12, 4, 1]
// CHECK: memref.reinterpret_cast %{{.*}} sizes: [4, 1], strides: [1, 0]
// CHECK: memref.reinterpret_cast %{{.*}} sizes: [2, 3, 1], strides: [3, 1, 0]
// CHECK: linalg.fill
// CHECK: linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @matmul(%a: tensor<2x3x4xf32>, %v: tensor<4xf32>) -> tensor<2x3xf32> {
  %0 = stride.matmul %a, %v : tensor<2x3x4xf32>, tensor<4xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// In place: a destination argument is written directly; an argument
// returned as is is copied into its output.
// CHECK-LABEL: func.func @in_place
// CHECK-SAME: (%[[X:.*]]: memref<4xf32, {{.*}}>, %[[D:.*]]: memref<4xf32, {{.*}}>, %[[OUT:.*]]: memref<4xf32, {{.*}}>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : memref<4xf32, strided<[1], offset: ?>>)
// CHECK: linalg.copy ins(%[[D]] : {{.*}}) outs(%[[OUT]] : {{.*}})
func.func @in_place(%x: tensor<4xf32>, %d: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stride.broadcast ins(%x : tensor<4xf32>) outs(%d : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: f32):
    %n = arith.negf %a : f32
    stride.yield %n : f32
  }
  return %0 : tensor<4xf32>
}

// -----

// A reversed destination: a loop that appears only mirrored is walked
// backwards, so every loop is a plain index somewhere.
// CHECK-DAG: #[[PLAIN:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[FLIPPED:.*]] = affine_map<(d0, d1) -> (-d0 + 2, d1)>
// CHECK-LABEL: func.func @reversed_destination
// CHECK: linalg.generic {indexing_maps = [#[[FLIPPED]], #[[PLAIN]]]
func.func @reversed_destination(%x: tensor<4x3xf32, #stride.layout<strides = [-3, -1]>>, %d: tensor<4x3xf32, #stride.layout<strides = [-1, 4]>>) -> tensor<4x3xf32, #stride.layout<strides = [-1, 4]>> {
  %0 = stride.broadcast ins(%x : tensor<4x3xf32, #stride.layout<strides = [-3, -1]>>) outs(%d : tensor<4x3xf32, #stride.layout<strides = [-1, 4]>>) -> tensor<4x3xf32, #stride.layout<strides = [-1, 4]>> {
  ^bb0(%a: f32):
    %n = arith.negf %a : f32
    stride.yield %n : f32
  }
  return %0 : tensor<4x3xf32, #stride.layout<strides = [-1, 4]>>
}
