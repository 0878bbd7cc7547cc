// RUN: stride-opt %s --stride-generalize --stride-bufferize --canonicalize --cse --split-input-file | FileCheck %s
// RUN: stride-opt %s --stride-generalize --stride-bufferize=threads=2 --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=THREADS

// An entry's result becomes a trailing output argument in the result's
// layout, and the elementwise kernel writes it directly: no allocation, no
// copy, no result left.
// CHECK-LABEL: func.func @elementwise
// CHECK-SAME: (%[[A:.*]]: memref<4x3xf32, strided<[1, 4], offset: ?>>, %[[OUT:.*]]: memref<4x3xf32, strided<[1, 4], offset: ?>>)
// CHECK-SAME: attributes {stride.num_outputs = 1 : i64}
// CHECK-NOT: memref.alloc
// CHECK: memref.reinterpret_cast %[[OUT]]
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return{{$}}
func.func @elementwise(%a: tensor<4x3xf32, #stride.layout<strides = [1, 4]>>) -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>> {
  %0 = stride.broadcast ins(%a : tensor<4x3xf32, #stride.layout<strides = [1, 4]>>) -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>> {
  ^bb0(%v: f32):
    %e = math.exp %v : f32
    stride.yield %e : f32
  }
  return %0 : tensor<4x3xf32, #stride.layout<strides = [1, 4]>>
}

// -----

// A returned matmul is computed in the output argument as well: its new
// buffer is forwarded into the output, so there is neither an allocation
// nor a copy kernel.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: %[[OUT:[^:]*]]: memref<4x5xf32, strided<[5, 1], offset: ?>>) attributes {stride.num_outputs = 1 : i64}
// CHECK-NOT: memref.alloc
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[OUT]] :
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-NOT: linalg.generic
// CHECK: return{{$}}
func.func @matmul(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>) -> tensor<4x5xf32> {
  %0 = stride.matmul %a, %b : tensor<4x3xf32>, tensor<3x5xf32> -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// An argument returned as it is, and a value returned twice, are copied into
// their outputs; a private callee keeps returning its buffer.
// CHECK-LABEL: func.func private @callee
// CHECK-SAME: -> memref<3xf32, strided<[1], offset: ?>>
// CHECK-LABEL: func.func @copies
// CHECK-SAME: (%[[A:.*]]: memref<3xf32, strided<[1], offset: ?>>, %[[O0:.*]]: memref<3xf32, strided<[1], offset: ?>>, %[[O1:.*]]: memref<3xf32, strided<[1], offset: ?>>, %[[O2:.*]]: memref<3xf32, strided<[1], offset: ?>>)
// CHECK-SAME: attributes {stride.num_outputs = 3 : i64}
// CHECK: %[[C:.*]] = call @callee(%[[A]])
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return{{$}}
func.func private @callee(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stride.exp %x : tensor<3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @copies(%a: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0 = call @callee(%a) : (tensor<3xf32>) -> tensor<3xf32>
  return %a, %0, %0 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// With threads=2 a large kernel is split into chunks under scf.parallel.
// THREADS-LABEL: func.func @large
// THREADS: scf.parallel
// THREADS: linalg.generic
func.func @large(%a: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %0 = stride.broadcast ins(%a : tensor<512x512xf32>) -> tensor<512x512xf32> {
  ^bb0(%v: f32):
    %e = math.exp %v : f32
    stride.yield %e : f32
  }
  return %0 : tensor<512x512xf32>
}

// -----

// With threads=2 a kernel under 2 MiB and 2^24 operations (64x64 exp: 32
// KiB, 65536 operations) stays on one thread.
// THREADS-LABEL: func.func @small_kernel
// THREADS-NOT: scf.parallel
// THREADS: linalg.generic
// THREADS-NOT: scf.parallel
// THREADS: return
func.func @small_kernel(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = stride.broadcast ins(%a : tensor<64x64xf32>) -> tensor<64x64xf32> {
  ^bb0(%v: f32):
    %e = math.exp %v : f32
    stride.yield %e : f32
  }
  return %0 : tensor<64x64xf32>
}

// -----

// A leading loop of one iteration cannot feed two threads: the next loop
// (1024 iterations) is split instead.
// THREADS-LABEL: func.func @short_outer_loop
// THREADS: scf.parallel
// THREADS: memref.subview %{{.*}}[0, %[[START:.*]], 0] [1, %[[LENGTH:.*]], 1024]
// THREADS: linalg.generic
func.func @short_outer_loop(%a: tensor<1x1024x1024xf32>) -> tensor<1x1024x1024xf32> {
  %0 = stride.broadcast ins(%a : tensor<1x1024x1024xf32>) -> tensor<1x1024x1024xf32> {
  ^bb0(%v: f32):
    %e = math.exp %v : f32
    stride.yield %e : f32
  }
  return %0 : tensor<1x1024x1024xf32>
}
