// RUN: stride-opt %s --stride-early-dealloc --split-input-file | FileCheck %s

// Each step's buffer is freed right after the step that last reads it, so
// that the next step's allocation can reuse its memory.
// CHECK-LABEL: func.func @steps
// CHECK: %[[A:.*]] = memref.alloc()
// CHECK: linalg.fill {{.*}} outs(%[[A]]
// CHECK: %[[B:.*]] = memref.alloc()
// CHECK: linalg.copy ins(%[[A]] {{.*}} outs(%[[B]]
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK: linalg.copy ins(%[[B]] {{.*}} outs(%{{.*}}
// CHECK-NEXT: memref.dealloc %[[B]]
// CHECK-NEXT: return
func.func @steps(%c: f32, %out: memref<8xf32>) {
  %a = memref.alloc() : memref<8xf32>
  linalg.fill ins(%c : f32) outs(%a : memref<8xf32>)
  %b = memref.alloc() : memref<8xf32>
  linalg.copy ins(%a : memref<8xf32>) outs(%b : memref<8xf32>)
  linalg.copy ins(%b : memref<8xf32>) outs(%out : memref<8xf32>)
  memref.dealloc %a : memref<8xf32>
  memref.dealloc %b : memref<8xf32>
  return
}

// -----

// A view of the buffer is an alias: the buffer lives until the view's last
// reader.
// CHECK-LABEL: func.func @through_a_view
// CHECK: %[[A:.*]] = memref.alloc()
// CHECK: %[[V:.*]] = memref.subview %[[A]]
// CHECK: linalg.copy ins(%[[V]]
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK: linalg.fill
// CHECK-NEXT: return
func.func @through_a_view(%c: f32, %out: memref<4xf32>) {
  %a = memref.alloc() : memref<8xf32>
  linalg.fill ins(%c : f32) outs(%a : memref<8xf32>)
  %v = memref.subview %a[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  linalg.copy ins(%v : memref<4xf32, strided<[1], offset: 2>>) outs(%out : memref<4xf32>)
  linalg.fill ins(%c : f32) outs(%out : memref<4xf32>)
  memref.dealloc %a : memref<8xf32>
  return
}

// -----

// A use nested in a loop keeps the buffer until after the loop, and so does
// a view of it that the loop hands out as its result.
// CHECK-LABEL: func.func @loop_result
// CHECK: %[[A:.*]] = memref.alloc()
// CHECK: %[[R:.*]] = scf.for
// CHECK: linalg.copy ins(%[[R]]
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: return
func.func @loop_result(%c: f32, %n: index, %out: memref<4xf32, strided<[1], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<8xf32>
  linalg.fill ins(%c : f32) outs(%a : memref<8xf32>)
  %first = memref.subview %a[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %init = memref.cast %first : memref<4xf32, strided<[1]>> to memref<4xf32, strided<[1], offset: ?>>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%it = %init) -> (memref<4xf32, strided<[1], offset: ?>>) {
    %w = memref.subview %a[%i] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: ?>>
    scf.yield %w : memref<4xf32, strided<[1], offset: ?>>
  }
  linalg.copy ins(%r : memref<4xf32, strided<[1], offset: ?>>) outs(%out : memref<4xf32, strided<[1], offset: ?>>)
  memref.dealloc %a : memref<8xf32>
  return
}

// -----

// A deallocation under a condition (ownership known only at run time) is
// left where it is.
// CHECK-LABEL: func.func @conditional
// CHECK: linalg.fill
// CHECK: linalg.fill
// CHECK: scf.if
// CHECK-NEXT: memref.dealloc
func.func @conditional(%c: f32, %flag: i1, %out: memref<8xf32>) {
  %a = memref.alloc() : memref<8xf32>
  linalg.fill ins(%c : f32) outs(%a : memref<8xf32>)
  linalg.fill ins(%c : f32) outs(%out : memref<8xf32>)
  scf.if %flag {
    memref.dealloc %a : memref<8xf32>
  }
  return
}
