// The IR @stride.jit generates for a stride.fori_loop whose body updates
// its carry with slice assignment (u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] +
// u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])): the carried array is copied
// once, before the loop (the argument is read-only), and each iteration
// writes the interior of that one buffer in place. The neighbour reads that
// overlap the written interior are copied per iteration (62x62 each, as
// One-Shot resolves the read-after-write), never the whole 64x64 array.
// stride-run computes the same loop for random inputs as NumPy would.
// RUN: stride-opt %s --stride-to-linalg-pipeline | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t u="np.random.default_rng(3).random((64, 64))" q="np.array(0.25)"
// RUN: stride-run %s --input %t/u.npy --input %t/q.npy --output-dir %t
// RUN: %npytool check %t "(lambda u: [u.__setitem__((slice(1, -1), slice(1, -1)), 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])) for _ in range(10)] and u)(u.copy())" %t/out0.npy

// CHECK-LABEL: func.func @main
// CHECK: %[[BUF:.+]] = memref.alloc() {{.*}} : memref<4096xf64>
// CHECK: %[[CARRY:.+]] = memref.reinterpret_cast %[[BUF]] to offset: [0], sizes: [64, 64]
// CHECK: scf.for
// CHECK-NOT: memref.alloc() {{.*}}memref<4096xf64>
// CHECK-NOT: memref.alloc() {{.*}}memref<64x64xf64>
// CHECK: memref.alloc() {{.*}} : memref<62x62xf64>
// CHECK: memref.subview %[[CARRY]][1, 1] [62, 62] [1, 1]
// CHECK: linalg.generic
// CHECK-SAME: outs(
func.func @main(%a0: tensor<64x64xf64>, %a1: f64) -> (tensor<*xf64>) {
  %v0 = stride.broadcast ins(%a0 : tensor<64x64xf64>) -> tensor<*xf64> {
  ^bb0(%b0: f64):
    stride.yield %b0 : f64
  }
  %init = tensor.cast %v0 : tensor<*xf64> to tensor<64x64xf64>
  %lb = arith.constant 0 : index
  %ub = arith.constant 10 : index
  %step = arith.constant 1 : index
  %loop = scf.for %i = %lb to %ub step %step iter_args(%u = %init) -> (tensor<64x64xf64>) {
    %n = stride.slice %u [:-2, 1:-1] : tensor<64x64xf64> -> tensor<*xf64>
    %s = stride.slice %u [2:, 1:-1] : tensor<64x64xf64> -> tensor<*xf64>
    %ns = stride.add %n, %s : tensor<*xf64>, tensor<*xf64> -> tensor<*xf64>
    %w = stride.slice %u [1:-1, :-2] : tensor<64x64xf64> -> tensor<*xf64>
    %nsw = stride.add %ns, %w : tensor<*xf64>, tensor<*xf64> -> tensor<*xf64>
    %e = stride.slice %u [1:-1, 2:] : tensor<64x64xf64> -> tensor<*xf64>
    %sum = stride.add %nsw, %e : tensor<*xf64>, tensor<*xf64> -> tensor<*xf64>
    %new = stride.mul %a1, %sum : f64, tensor<*xf64> -> tensor<*xf64>
    %dest = tensor.extract_slice %u[1, 1] [62, 62] [1, 1] : tensor<64x64xf64> to tensor<62x62xf64>
    %copy = stride.broadcast ins(%new : tensor<*xf64>) outs(%dest : tensor<62x62xf64>) -> tensor<62x62xf64> {
    ^bb0(%x: f64):
      stride.yield %x : f64
    }
    %next = tensor.insert_slice %copy into %u[1, 1] [62, 62] [1, 1] : tensor<62x62xf64> into tensor<64x64xf64>
    scf.yield %next : tensor<64x64xf64>
  }
  %r = tensor.cast %loop : tensor<64x64xf64> to tensor<*xf64>
  return %r : tensor<*xf64>
}
