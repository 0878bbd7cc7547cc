// RUN: stride-opt %s --stride-fuse --split-input-file | FileCheck %s
// RUN: stride-opt %s '--stride-fuse=recompute-limit=0' --split-input-file | FileCheck %s --check-prefix=NORECOMPUTE
// RUN: stride-opt %s '--stride-fuse=index-reductions=false' --split-input-file | FileCheck %s --check-prefix=NOINDEX

// A chain and a tree become one op; x, read by two producers, is one input.
// The merged op keeps the block of the producer it absorbs: the consumer's
// other inputs go in front of the producer's.
// CHECK-LABEL: func.func @expression
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>, %[[Y:.*]]: tensor<8xf32>)
// CHECK: %[[R:.*]] = stride.broadcast ins(%[[Y]], %{{.*}}, %{{.*}}, %[[X]] : tensor<8xf32>, f32, f32, tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: ^bb0(%[[YE:.*]]: f32, %[[TWO:.*]]: f32, %[[ONE:.*]]: f32, %[[XE:.*]]: f32):
// CHECK-NEXT: %[[E:.*]] = math.exp %[[XE]]
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[XE]], %[[ONE]]
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[TWO]], %[[S]]
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[M]], %[[YE]]
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[P]], %[[E]]
// CHECK-NEXT: stride.yield %[[D]]
// CHECK-NOT: stride.broadcast
// CHECK: return %[[R]]
func.func @expression(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %0 = stride.broadcast ins(%x, %one : tensor<8xf32>, f32) -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    stride.yield %r : f32
  }
  %1 = stride.broadcast ins(%two, %0 : f32, tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.mulf %a, %b : f32
    stride.yield %r : f32
  }
  %2 = stride.broadcast ins(%1, %y : tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.mulf %a, %b : f32
    stride.yield %r : f32
  }
  %3 = stride.broadcast ins(%x : tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32):
    %r = math.exp %a : f32
    stride.yield %r : f32
  }
  %4 = stride.broadcast ins(%2, %3 : tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.subf %a, %b : f32
    stride.yield %r : f32
  }
  return %4 : tensor<8xf32>
}

// -----

// A cheap broadcast producer fuses too (evaluated once per consumer element,
// as in Julia); types and layouts stay as they were.
// CHECK-LABEL: func.func @broadcast_producer
// CHECK: stride.broadcast ins(%{{.*}}, %{{.*}} : tensor<4x3xf32, #stride.layout<strides = [1, 4]>>, tensor<3xf32>) -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>>
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK-NOT: stride.broadcast
func.func @broadcast_producer(%a: tensor<4x3xf32, #stride.layout<strides = [1, 4]>>, %b: tensor<3xf32>) -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>> {
  %0 = stride.broadcast ins(%b : tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%x: f32):
    %t = arith.mulf %x, %x : f32
    stride.yield %t : f32
  }
  %1 = stride.broadcast ins(%a, %0 : tensor<4x3xf32, #stride.layout<strides = [1, 4]>>, tensor<3xf32>) -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    stride.yield %s : f32
  }
  return %1 : tensor<4x3xf32, #stride.layout<strides = [1, 4]>>
}

// -----

// A costly producer (a transcendental) that its one consumer reads broadcast
// stays its own kernel: fused, tanh(b) would run once per row of the result
// instead of once per element of b. The same along a size-1 dim.
// CHECK-LABEL: func.func @costly_broadcast_producer
// CHECK: %[[T:.*]] = stride.broadcast ins(%{{.*}} : tensor<3xf32>) -> tensor<3xf32>
// CHECK: math.tanh
// CHECK: %[[C:.*]] = stride.broadcast ins(%{{.*}} : tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK: math.cos
// CHECK: stride.broadcast ins(%{{.*}}, %[[T]], %[[C]] : tensor<4x3xf32>, tensor<3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
// CHECK-NOT: math.
// CHECK: return
func.func @costly_broadcast_producer(%a: tensor<4x3xf32>, %b: tensor<3xf32>, %c: tensor<4x1xf32>) -> tensor<4x3xf32> {
  %0 = stride.broadcast ins(%b : tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%x: f32):
    %t = math.tanh %x : f32
    stride.yield %t : f32
  }
  %1 = stride.broadcast ins(%c : tensor<4x1xf32>) -> tensor<4x1xf32> {
  ^bb0(%x: f32):
    %t = math.cos %x : f32
    stride.yield %t : f32
  }
  %2 = stride.broadcast ins(%a, %0, %1 : tensor<4x3xf32>, tensor<3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32> {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    %p = arith.mulf %s, %z : f32
    stride.yield %p : f32
  }
  return %2 : tensor<4x3xf32>
}

// -----

// A cheap shared producer is recomputed in each consumer; with
// recompute-limit=0 it is kept and both consumers read it.
// CHECK-LABEL: func.func @shared_cheap
// CHECK-COUNT-2: arith.negf
// CHECK-NOT: stride.broadcast ins(%{{.*}} : tensor<8xf32>) -> tensor<8xf32> {
// NORECOMPUTE-LABEL: func.func @shared_cheap
// NORECOMPUTE: %[[N:.*]] = stride.broadcast
// NORECOMPUTE: arith.negf
// NORECOMPUTE: stride.broadcast ins(%[[N]]
// NORECOMPUTE: stride.broadcast ins(%[[N]]
func.func @shared_cheap(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = stride.broadcast ins(%x : tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32):
    %n = arith.negf %a : f32
    stride.yield %n : f32
  }
  %1 = stride.broadcast ins(%0 : tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32):
    %m = arith.mulf %a, %a : f32
    stride.yield %m : f32
  }
  %2 = stride.broadcast ins(%0, %x : tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    stride.yield %s : f32
  }
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A shared transcendental producer is kept (computed once, read twice).
// CHECK-LABEL: func.func @shared_expensive
// CHECK: %[[E:.*]] = stride.broadcast ins(%{{.*}} : tensor<8xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: math.exp
// CHECK: stride.broadcast ins(%[[E]]
// CHECK: stride.broadcast ins(%[[E]]
func.func @shared_expensive(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = stride.broadcast ins(%x : tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32):
    %e = math.exp %a : f32
    stride.yield %e : f32
  }
  %1 = stride.broadcast ins(%0 : tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32):
    %m = arith.mulf %a, %a : f32
    stride.yield %m : f32
  }
  %2 = stride.broadcast ins(%0 : tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32):
    %s = arith.addf %a, %a : f32
    stride.yield %s : f32
  }
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Never across a matmul; a producer also returned, or used as a destination,
// is kept; a producer with a destination is kept.
// CHECK-LABEL: func.func @kept
// CHECK: %[[A:.*]] = stride.broadcast ins(%{{.*}} : tensor<4x4xf32>)
// CHECK: %[[M:.*]] = stride.matmul %[[A]], %[[A]]
// CHECK: %[[B:.*]] = stride.broadcast ins(%[[M]]
// CHECK: %[[C:.*]] = stride.broadcast ins(%{{.*}} : tensor<4x4xf32>) outs(%{{.*}} : tensor<4x4xf32>)
// CHECK: stride.broadcast ins(%[[B]], %[[C]]
// CHECK: return %[[B]]
func.func @kept(%x: tensor<4x4xf32>, %d: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %0 = stride.broadcast ins(%x : tensor<4x4xf32>) -> tensor<4x4xf32> {
  ^bb0(%a: f32):
    %n = arith.negf %a : f32
    stride.yield %n : f32
  }
  %1 = stride.matmul %0, %0 : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  %2 = stride.broadcast ins(%1 : tensor<4x4xf32>) -> tensor<4x4xf32> {
  ^bb0(%a: f32):
    %e = math.exp %a : f32
    stride.yield %e : f32
  }
  %3 = stride.broadcast ins(%x : tensor<4x4xf32>) outs(%d : tensor<4x4xf32>) -> tensor<4x4xf32> {
  ^bb0(%a: f32):
    %n = arith.negf %a : f32
    stride.yield %n : f32
  }
  %4 = stride.broadcast ins(%2, %3 : tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    stride.yield %s : f32
  }
  return %2, %4 : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// Scalars anywhere, the first included; a consumer with a destination takes
// its producers in (materialize! of a fused expression).
// CHECK-LABEL: func.func @in_place
// CHECK: stride.broadcast ins(%{{.*}}, %{{.*}} : f32, tensor<8xf32>) outs(%{{.*}} : tensor<8xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK-NOT: stride.broadcast
func.func @in_place(%s: f32, %x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stride.broadcast ins(%s, %x : f32, tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %b : f32
    stride.yield %m : f32
  }
  %1 = stride.broadcast ins(%0, %s : tensor<8xf32>, f32) outs(%y : tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    stride.yield %r : f32
  }
  return %1 : tensor<8xf32>
}

// -----

// A broadcast of scalars alone (0-d) fuses into its consumer.
// CHECK-LABEL: func.func @all_scalar
// CHECK: stride.broadcast ins(%{{.*}}, %{{.*}} : tensor<3xf32>, f32) -> tensor<3xf32>
// CHECK-NOT: stride.broadcast
func.func @all_scalar(%x: tensor<3xf32>, %s: f32) -> tensor<3xf32> {
  %0 = stride.broadcast ins(%s : f32) -> tensor<f32> {
  ^bb0(%a: f32):
    %n = arith.negf %a : f32
    stride.yield %n : f32
  }
  %1 = stride.broadcast ins(%x, %0 : tensor<3xf32>, tensor<f32>) -> tensor<3xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    stride.yield %r : f32
  }
  return %1 : tensor<3xf32>
}

// -----

// A reduction takes the whole expression it alone reads: sum(x * y),
// amax(abs(a - b)) and mean((x - m) ** 2) become stride.map_reduce ops
// with the fused body and the producer's type as `mapped`.
// CHECK-LABEL: func.func @into_reductions
// CHECK: %[[S:.*]] = stride.map_reduce "sum" ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8xf32>) axes [1] mapped(tensor<4x8xf32>) : tensor<4xf32>
// CHECK: arith.mulf
// CHECK: %[[M:.*]] = stride.map_reduce "amax" ins({{.*}}) mapped(tensor<4x8xf32>) : tensor<f32>
// CHECK: arith.subf
// CHECK: math.absf
// CHECK: %[[V:.*]] = stride.map_reduce "mean" ins({{.*}}) axes [0] keepdims mapped(tensor<4x8xf32>) : tensor<1x8xf32>
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK-NOT: stride.broadcast
// CHECK: return %[[S]], %[[M]], %[[V]]
func.func @into_reductions(%x: tensor<4x8xf32>, %y: tensor<8xf32>, %a: tensor<4x8xf32>, %m: tensor<1x8xf32>)
    -> (tensor<4xf32>, tensor<f32>, tensor<1x8xf32>) {
  %p = stride.broadcast ins(%x, %y : tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
  ^bb0(%u: f32, %v: f32):
    %t = arith.mulf %u, %v : f32
    stride.yield %t : f32
  }
  %s = stride.sum %p axes [1] : tensor<4x8xf32> -> tensor<4xf32>
  %d = stride.broadcast ins(%a, %x : tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%u: f32, %v: f32):
    %t = arith.subf %u, %v : f32
    stride.yield %t : f32
  }
  %e = stride.broadcast ins(%d : tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%u: f32):
    %t = math.absf %u : f32
    stride.yield %t : f32
  }
  %mx = stride.amax %e : tensor<4x8xf32> -> tensor<f32>
  %c = stride.broadcast ins(%x, %m : tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%u: f32, %v: f32):
    %t = arith.subf %u, %v : f32
    %q = arith.mulf %t, %t : f32
    stride.yield %q : f32
  }
  %var = stride.mean %c axes [0] keepdims : tensor<4x8xf32> -> tensor<1x8xf32>
  return %s, %mx, %var : tensor<4xf32>, tensor<f32>, tensor<1x8xf32>
}

// -----

// Not fused: a producer something else reads too (it is stored once and
// reduced).
// CHECK-LABEL: func.func @not_into_reductions
// CHECK: %[[P:.*]] = stride.broadcast
// CHECK: stride.sum %[[P]]
// CHECK-NOT: stride.map_reduce
func.func @not_into_reductions(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<f32>) {
  %p = stride.broadcast ins(%x : tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%u: f32):
    %t = math.exp %u : f32
    stride.yield %t : f32
  }
  %s = stride.sum %p : tensor<4x8xf32> -> tensor<f32>
  return %p, %s : tensor<4x8xf32>, tensor<f32>
}

// -----

// An index reduction takes its expression too when every input is walked
// forwards (static, non-negative strides): argmax(abs(x)) is one
// map_reduce "argmax". An input with a negative stride keeps its producer
// (the kernel's loop indices are the points' indices), and so does every
// index reduction with index-reductions=false (the GPU pipeline's).
// CHECK-LABEL: func.func @into_index_reductions
// CHECK: %[[I:.*]] = stride.map_reduce "argmax" ins(%{{.*}} : tensor<4x8xf32>) axes [1] mapped(tensor<4x8xf32>) : tensor<4xi64>
// CHECK: math.absf
// CHECK: %[[Q:.*]] = stride.broadcast
// CHECK: %[[J:.*]] = stride.argmin %[[Q]]
// CHECK: return %[[I]], %[[J]]
// NOINDEX-LABEL: func.func @into_index_reductions
// NOINDEX-NOT: stride.map_reduce
// NOINDEX: stride.argmax
// NOINDEX: stride.argmin
func.func @into_index_reductions(%x: tensor<4x8xf32>, %r: tensor<8xf32, #stride.layout<strides = [-1]>>)
    -> (tensor<4xi64>, tensor<i64>) {
  %p = stride.broadcast ins(%x : tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%u: f32):
    %t = math.absf %u : f32
    stride.yield %t : f32
  }
  %i = stride.argmax %p axes [1] : tensor<4x8xf32> -> tensor<4xi64>
  %q = stride.broadcast ins(%r : tensor<8xf32, #stride.layout<strides = [-1]>>) -> tensor<8xf32> {
  ^bb0(%u: f32):
    %t = math.absf %u : f32
    stride.yield %t : f32
  }
  %j = stride.argmin %q : tensor<8xf32> -> tensor<i64>
  return %i, %j : tensor<4xi64>, tensor<i64>
}

// -----

// A matrix-vector product takes the expression of its matrix when nothing
// else reads it: alpha * A @ x is one plain map_reduce "sum" of
// (alpha * a) * x along the last axis, of the matmul's result type, and the
// scaled matrix is never stored. The batched form reduces the last axis too.
// CHECK-LABEL: func.func @into_matrix_vector
// CHECK: %[[Y:.*]] = stride.map_reduce "sum" ins(%{{.*}}, %{{.*}}, %{{.*}} : f64, tensor<5x7xf64>, tensor<7xf64>) axes [1] mapped(tensor<5x7xf64>) : tensor<5xf64> attributes {stride.plain_reduction} {
// CHECK-NEXT: ^bb0(%[[AL:.*]]: f64, %[[A:.*]]: f64, %[[X:.*]]: f64):
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[AL]], %[[A]] : f64
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[S]], %[[X]] : f64
// CHECK-NEXT: stride.yield %[[P]] : f64
// CHECK: stride.map_reduce "sum" {{.*}} axes [2] mapped(tensor<3x4x6xf32>) : tensor<3x4xf32> attributes {stride.plain_reduction}
// The vector of x @ P is read as x[:, None], so it broadcasts along P's
// rows, and the sum runs along the second last axis.
// CHECK: %[[COL:.*]] = stride.unsqueeze %{{.*}}[1] : tensor<5xf64> -> tensor<5x1xf64>
// CHECK: stride.map_reduce "sum" ins(%{{.*}}, %[[COL]] : tensor<5x7xf64>, tensor<5x1xf64>) axes [0] mapped(tensor<5x7xf64>) : tensor<7xf64> attributes {stride.plain_reduction}
// CHECK: ^bb0(%[[P:.*]]: f64, %[[V:.*]]: f64):
// CHECK: %[[N:.*]] = arith.negf %[[P]] : f64
// CHECK: arith.mulf %[[V]], %[[N]] : f64
// CHECK-NOT: stride.matmul
func.func @into_matrix_vector(%alpha: f64, %a: tensor<5x7xf64>, %x: tensor<7xf64>,
                              %b: tensor<3x4x6xf32>, %v: tensor<6xf32>, %w: tensor<5xf64>)
    -> (tensor<5xf64>, tensor<3x4xf32>, tensor<7xf64>) {
  %s = stride.broadcast ins(%alpha, %a : f64, tensor<5x7xf64>) -> tensor<5x7xf64> {
  ^bb0(%p: f64, %q: f64):
    %t = arith.mulf %p, %q : f64
    stride.yield %t : f64
  }
  %y = stride.matmul %s, %x : tensor<5x7xf64>, tensor<7xf64> -> tensor<5xf64>
  %e = stride.broadcast ins(%b : tensor<3x4x6xf32>) -> tensor<3x4x6xf32> {
  ^bb0(%p: f32):
    %t = math.exp %p : f32
    stride.yield %t : f32
  }
  %z = stride.matmul %e, %v : tensor<3x4x6xf32>, tensor<6xf32> -> tensor<3x4xf32>
  %n = stride.broadcast ins(%a : tensor<5x7xf64>) -> tensor<5x7xf64> {
  ^bb0(%p: f64):
    %t = arith.negf %p : f64
    stride.yield %t : f64
  }
  %u = stride.matmul %w, %n : tensor<5xf64>, tensor<5x7xf64> -> tensor<7xf64>
  return %y, %z, %u : tensor<5xf64>, tensor<3x4xf32>, tensor<7xf64>
}

// -----

// Not fused into the product: a matrix something else reads too, an
// expression on the vector side of x @ A (the vector is small), a
// matrix-matrix product (each element is read many times), and a matrix of
// dynamic shape.
// CHECK-LABEL: func.func @not_into_matrix_vector
// CHECK-NOT: stride.map_reduce
// CHECK-COUNT-4: stride.matmul
// CHECK-NOT: stride.map_reduce
func.func @not_into_matrix_vector(%a: tensor<5x7xf64>, %x: tensor<7xf64>, %w: tensor<5xf64>,
                                  %c: tensor<7x3xf64>, %f: tensor<?x7xf64>)
    -> (tensor<5x7xf64>, tensor<5xf64>, tensor<7xf64>, tensor<5x3xf64>, tensor<?xf64>) {
  %s = stride.broadcast ins(%a : tensor<5x7xf64>) -> tensor<5x7xf64> {
  ^bb0(%p: f64):
    %t = arith.negf %p : f64
    stride.yield %t : f64
  }
  %y = stride.matmul %s, %x : tensor<5x7xf64>, tensor<7xf64> -> tensor<5xf64>
  %v = stride.broadcast ins(%w : tensor<5xf64>) -> tensor<5xf64> {
  ^bb0(%p: f64):
    %t = arith.negf %p : f64
    stride.yield %t : f64
  }
  %z = stride.matmul %v, %a : tensor<5xf64>, tensor<5x7xf64> -> tensor<7xf64>
  %m = stride.broadcast ins(%a : tensor<5x7xf64>) -> tensor<5x7xf64> {
  ^bb0(%p: f64):
    %t = arith.negf %p : f64
    stride.yield %t : f64
  }
  %mm = stride.matmul %m, %c : tensor<5x7xf64>, tensor<7x3xf64> -> tensor<5x3xf64>
  %g = stride.broadcast ins(%f : tensor<?x7xf64>) -> tensor<?x7xf64> {
  ^bb0(%p: f64):
    %t = arith.negf %p : f64
    stride.yield %t : f64
  }
  %h = stride.matmul %g, %x : tensor<?x7xf64>, tensor<7xf64> -> tensor<?xf64>
  return %s, %y, %z, %mm, %h : tensor<5x7xf64>, tensor<5xf64>, tensor<7xf64>, tensor<5x3xf64>, tensor<?xf64>
}
