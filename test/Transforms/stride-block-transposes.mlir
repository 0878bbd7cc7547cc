// RUN: stride-opt %s --stride-block-transposes --split-input-file | FileCheck %s

#id = affine_map<(i, j) -> (i, j)>

// a.T + b: the lhs is contiguous along loop 0, the result along loop 1, so
// both loops are tiled 64 x 64 (f32, 256 bytes) in their original order.
// CHECK-LABEL: func.func @transposed_add
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %c64{{.*}} {
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %c64{{.*}} {
// CHECK: memref.subview {{.*}}[%[[I]], %[[J]]] [64, 64]
// CHECK: linalg.generic {{.*}} ins({{.*}} : memref<64x64xf32, strided<[1, 4096], offset: ?>>, memref<64x64xf32, strided<[4096, 1], offset: ?>>)
func.func @transposed_add(%a: memref<4096x4096xf32, strided<[1, 4096]>>, %b: memref<4096x4096xf32>, %c: memref<4096x4096xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<4096x4096xf32, strided<[1, 4096]>>, memref<4096x4096xf32>) outs(%c : memref<4096x4096xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// Operands that agree on their contiguous loop are left alone.
// CHECK-LABEL: func.func @same_grain
// CHECK-NOT: scf.for
// CHECK: linalg.generic
func.func @same_grain(%a: memref<4096x4096xf32>, %b: memref<4096x4096xf32>, %c: memref<4096x4096xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<4096x4096xf32>, memref<4096x4096xf32>) outs(%c : memref<4096x4096xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// Dynamic strides give no grain to compare with: left alone.
// CHECK-LABEL: func.func @dynamic_strides
// CHECK-NOT: scf.for
// CHECK: linalg.generic
func.func @dynamic_strides(%a: memref<4096x4096xf32, strided<[?, ?]>>, %c: memref<4096x4096xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4096x4096xf32, strided<[?, ?]>>) outs(%c : memref<4096x4096xf32>) {
  ^bb0(%x: f32, %z: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// Loops no longer than a tile are left alone (f64: 32 elements a tile).
// CHECK-LABEL: func.func @short
// CHECK-NOT: scf.for
// CHECK: linalg.generic
func.func @short(%a: memref<32x32xf64, strided<[1, 32]>>, %c: memref<32x32xf64>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<32x32xf64, strided<[1, 32]>>) outs(%c : memref<32x32xf64>) {
  ^bb0(%x: f64, %z: f64):
    linalg.yield %x : f64
  }
  return
}
