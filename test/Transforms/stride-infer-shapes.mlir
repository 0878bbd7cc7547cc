// RUN: stride-opt %s --stride-infer-shapes --split-input-file | FileCheck %s
// RUN: stride-opt %s --stride-infer-shapes --split-input-file | stride-opt --stride-infer-shapes --split-input-file | FileCheck %s

// (The second RUN line checks the pass is idempotent: a second run inserts
// no further checks and changes no type.)

// Broadcasting is right-aligned and 1 stretches; results refine from
// unranked and the function signature follows.
// CHECK-LABEL: func.func @right_aligned
// CHECK-SAME: -> tensor<2x3x4xf32>
// CHECK: stride.add %{{.*}}, %{{.*}} : tensor<2x1x4xf32>, tensor<3x1xf32> -> tensor<2x3x4xf32>
func.func @right_aligned(%a: tensor<2x1x4xf32>, %b: tensor<3x1xf32>) -> tensor<*xf32> {
  %0 = stride.add %a, %b : tensor<2x1x4xf32>, tensor<3x1xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// 1 maps to the other size even when that size is 0.
// CHECK-LABEL: func.func @zero_size
// CHECK: -> tensor<2x0x3xf32>
func.func @zero_size(%a: tensor<2x1x3xf32>, %b: tensor<0x1xf32>) -> tensor<*xf32> {
  %0 = stride.mul %a, %b : tensor<2x1x3xf32>, tensor<0x1xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Scalars and 0-d tensors broadcast to anything; scalars alone give 0-d.
// CHECK-LABEL: func.func @scalars
// CHECK: stride.add %{{.*}}, %{{.*}} : f32, tensor<3xf32> -> tensor<3xf32>
// CHECK: stride.sub %{{.*}}, %{{.*}} : tensor<f32>, tensor<2x3xf32> -> tensor<2x3xf32>
// CHECK: stride.exp %{{.*}} : f32 -> tensor<f32>
func.func @scalars(%s: f32, %z: tensor<f32>, %a: tensor<3xf32>, %b: tensor<2x3xf32>) {
  %0 = stride.add %s, %a : f32, tensor<3xf32> -> tensor<*xf32>
  %1 = stride.sub %z, %b : tensor<f32>, tensor<2x3xf32> -> tensor<*xf32>
  %2 = stride.exp %s : f32 -> tensor<*xf32>
  return
}

// -----

// Chains refine in order; results keep their element type and encoding.
// CHECK-LABEL: func.func @chain
// CHECK: stride.cmp gt, {{.*}} -> tensor<4x3xi1>
// CHECK: stride.select {{.*}} : tensor<4x3xi1>, tensor<4x1xf32>, tensor<3xf32> -> tensor<4x3xf32>
// CHECK: stride.broadcast ins({{.*}} : tensor<4x3xf32>, f32) -> tensor<4x3xf32>, tensor<4x3xi1>
func.func @chain(%a: tensor<4x1xf32>, %b: tensor<3xf32>, %s: f32) {
  %0 = stride.cmp gt, %a, %b : tensor<4x1xf32>, tensor<3xf32> -> tensor<*xi1>
  %1 = stride.select %0, %a, %b : tensor<*xi1>, tensor<4x1xf32>, tensor<3xf32> -> tensor<*xf32>
  %2:2 = stride.broadcast ins(%1, %s : tensor<*xf32>, f32) -> tensor<*xf32>, tensor<?x?xi1> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    %c = arith.cmpf olt, %x, %y : f32
    stride.yield %m, %c : f32, i1
  }
  return
}

// -----

// A user that is not a Stride op keeps the old type through tensor.cast.
// CHECK-LABEL: func.func @foreign_user
// CHECK: %[[R:.*]] = stride.neg %{{.*}} : tensor<3xf32> -> tensor<3xf32>
// CHECK: %[[C:.*]] = tensor.cast %[[R]] : tensor<3xf32> to tensor<*xf32>
// CHECK: tensor.rank %[[C]]
func.func @foreign_user(%a: tensor<3xf32>) -> index {
  %0 = stride.neg %a : tensor<3xf32> -> tensor<*xf32>
  %1 = tensor.rank %0 : tensor<*xf32>
  return %1 : index
}

// -----

// Dynamic dims: ? with 5 gives 5 and a run-time check that the dim is 1 or 5;
// ? with 1 stays ? with no check; ? with ? stays ? and checks both against
// the first size that is not 1.
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[D:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x4xf32>
// CHECK: %[[IS1:.*]] = arith.cmpi eq, %[[D]], %{{.*}}
// CHECK: %[[IS5:.*]] = arith.cmpi eq, %[[D]], %{{.*}}
// CHECK: %[[OK:.*]] = arith.ori %[[IS1]], %[[IS5]]
// CHECK: cf.assert %[[OK]], "stride.add at {{.*}}stride-infer-shapes.mlir:{{[0-9]+}}:{{[0-9]+}}, result dimension 0: operand #0 dim 0 has a run-time size that does not broadcast: it must be 1 or 5"
// CHECK: stride.add {{.*}} -> tensor<5x4xf32>
// CHECK-NOT: cf.assert
// CHECK: stride.sub {{.*}} : tensor<?x4xf32>, tensor<1x4xf32> -> tensor<?x4xf32>
// CHECK-COUNT-2: cf.assert {{.*}} it must be 1 or the size of the other operands there
// CHECK: stride.mul {{.*}} : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
func.func @dynamic(%a: tensor<?x4xf32>, %b: tensor<5x1xf32>, %c: tensor<1x4xf32>,
                   %x: tensor<?xf32>, %y: tensor<?xf32>) {
  %0 = stride.add %a, %b : tensor<?x4xf32>, tensor<5x1xf32> -> tensor<*xf32>
  %1 = stride.sub %a, %c : tensor<?x4xf32>, tensor<1x4xf32> -> tensor<*xf32>
  %2 = stride.mul %x, %y : tensor<?xf32>, tensor<?xf32> -> tensor<*xf32>
  return
}

// -----

// A declared static size is kept where inference alone would say ?.
// CHECK-LABEL: func.func @keep_declared
// CHECK: -> tensor<7x4xf32>
func.func @keep_declared(%a: tensor<?x4xf32>) -> tensor<7x4xf32> {
  %0 = stride.abs %a : tensor<?x4xf32> -> tensor<7x4xf32>
  return %0 : tensor<7x4xf32>
}

// -----

// Matmul promotes 1-D operands and drops the promoted dims.
// CHECK-LABEL: func.func @matmul_vectors
// CHECK: tensor<4xf32>, tensor<4xf32> -> tensor<f32>
// CHECK: tensor<3x4xf32>, tensor<4xf32> -> tensor<3xf32>
// CHECK: tensor<4xf32>, tensor<4x5xf32> -> tensor<5xf32>
// CHECK: tensor<2x3x4xf32>, tensor<4xf32> -> tensor<2x3xf32>
// CHECK: tensor<4xf32>, tensor<2x4x5xf32> -> tensor<2x5xf32>
func.func @matmul_vectors(%k: tensor<4xf32>, %nk: tensor<3x4xf32>, %kp: tensor<4x5xf32>,
                          %bnk: tensor<2x3x4xf32>, %bkp: tensor<2x4x5xf32>) {
  %0 = stride.matmul %k, %k : tensor<4xf32>, tensor<4xf32> -> tensor<*xf32>
  %1 = stride.matmul %nk, %k : tensor<3x4xf32>, tensor<4xf32> -> tensor<*xf32>
  %2 = stride.matmul %k, %kp : tensor<4xf32>, tensor<4x5xf32> -> tensor<*xf32>
  %3 = stride.matmul %bnk, %k : tensor<2x3x4xf32>, tensor<4xf32> -> tensor<*xf32>
  %4 = stride.matmul %k, %bkp : tensor<4xf32>, tensor<2x4x5xf32> -> tensor<*xf32>
  return
}

// -----

// Matmul batch dims broadcast (burn#1679's cases).
// CHECK-LABEL: func.func @matmul_batches
// CHECK: -> tensor<2x2x2x2xf32>
// CHECK: -> tensor<3x5x2x6xf32>
// CHECK: -> tensor<8x3x4x5x7xf32>
func.func @matmul_batches(%a: tensor<2x1x2x2xf32>, %b: tensor<1x2x2x2xf32>,
                          %c: tensor<3x1x2x4xf32>, %d: tensor<1x5x4x6xf32>,
                          %e: tensor<1x3x4x5x3xf32>, %f: tensor<8x3x1x3x7xf32>) {
  %0 = stride.matmul %a, %b : tensor<2x1x2x2xf32>, tensor<1x2x2x2xf32> -> tensor<*xf32>
  %1 = stride.matmul %c, %d : tensor<3x1x2x4xf32>, tensor<1x5x4x6xf32> -> tensor<*xf32>
  %2 = stride.matmul %e, %f : tensor<1x3x4x5x3xf32>, tensor<8x3x1x3x7xf32> -> tensor<*xf32>
  return
}

// -----

// Dynamic matmul dims: the contracted dims and the batch dims get checks.
// CHECK-LABEL: func.func @matmul_dynamic
// CHECK: cf.assert {{.*}} "stride.matmul at {{.*}}: contracted dimensions differ at run time"
// CHECK: cf.assert {{.*}} "stride.matmul at {{.*}}, batch dimension 0: operand #0 dim 0 has a run-time size that does not broadcast: it must be 1 or 2"
// CHECK: stride.matmul {{.*}} -> tensor<2x3x7xf32>
func.func @matmul_dynamic(%a: tensor<?x3x?xf32>, %b: tensor<2x?x7xf32>) -> tensor<*xf32> {
  %0 = stride.matmul %a, %b : tensor<?x3x?xf32>, tensor<2x?x7xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// A destination fixes its result type; its inputs still get checked.
// CHECK-LABEL: func.func @destination
// CHECK: cf.assert
// CHECK: stride.broadcast ins(%{{.*}} : tensor<?xf32>) outs(%{{.*}} : tensor<3xf32>) -> tensor<3xf32>
func.func @destination(%a: tensor<?xf32>, %d: tensor<3xf32>) {
  %0 = stride.broadcast ins(%a : tensor<?xf32>) outs(%d : tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%x: f32):
    stride.yield %x : f32
  }
  return
}

// -----

// A dynamic destination: static and dynamic inputs must be 1 or its size.
// CHECK-LABEL: func.func @dynamic_destination
// CHECK-COUNT-2: cf.assert {{.*}} it must be 1 or the destination's size there
// CHECK: stride.broadcast
func.func @dynamic_destination(%a: tensor<?xf32>, %b: tensor<3xf32>, %d: tensor<?xf32>) {
  %0 = stride.broadcast ins(%a, %b : tensor<?xf32>, tensor<3xf32>) outs(%d : tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    stride.yield %s : f32
  }
  return
}

// -----

// A private callee is refined from its only call site, and the call takes
// the callee's refined result type; the caller's tensor.cast is bypassed.
// CHECK-LABEL: func.func private @callee
// CHECK-SAME: (%{{.*}}: tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK: stride.exp %{{.*}} : tensor<4x3xf32> -> tensor<4x3xf32>
// CHECK-LABEL: func.func @caller
// CHECK-SAME: -> tensor<4x3xf32>
// CHECK: %[[R:.*]] = call @callee(%{{.*}}) : (tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK: stride.neg %[[R]] : tensor<4x3xf32> -> tensor<4x3xf32>
func.func private @callee(%x: tensor<*xf32>) -> tensor<*xf32> {
  %0 = stride.exp %x : tensor<*xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
func.func @caller(%a: tensor<4x3xf32>) -> tensor<*xf32> {
  %a0 = tensor.cast %a : tensor<4x3xf32> to tensor<*xf32>
  %0 = call @callee(%a0) : (tensor<*xf32>) -> tensor<*xf32>
  %1 = stride.neg %0 : tensor<*xf32> -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

// -----

// A private callee called on two shapes is copied per signature, and each
// copy is refined for its calls (before, both kept tensor<*xf32> and the
// add had no shape to lower).
// CHECK-LABEL: func.func private @twice(
// CHECK-SAME: tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-LABEL: func.func private @twice_0(
// CHECK-SAME: tensor<3xf32>) -> tensor<3xf32>
// CHECK-LABEL: func.func @two_shapes
// CHECK: call @twice(%{{.*}}) : (tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK: call @twice_0(%{{.*}}) : (tensor<3xf32>) -> tensor<3xf32>
func.func private @twice(%x: tensor<*xf32>) -> tensor<*xf32> {
  %0 = stride.add %x, %x : tensor<*xf32>, tensor<*xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
func.func @two_shapes(%a: tensor<4x3xf32>, %b: tensor<3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %a0 = tensor.cast %a : tensor<4x3xf32> to tensor<*xf32>
  %b0 = tensor.cast %b : tensor<3xf32> to tensor<*xf32>
  %0 = call @twice(%a0) : (tensor<*xf32>) -> tensor<*xf32>
  %1 = call @twice(%b0) : (tensor<*xf32>) -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}

// -----

// A public callee keeps its declared argument types (it may be called from
// outside); its refined result type reaches every call in the module.
// CHECK-LABEL: func.func @public_callee
// CHECK-SAME: (%{{.*}}: tensor<?xf32>) -> tensor<?xf32>
// CHECK-LABEL: func.func @public_caller
// CHECK: call @public_callee(%{{.*}}) : (tensor<?xf32>) -> tensor<?xf32>
func.func @public_callee(%x: tensor<?xf32>) -> tensor<*xf32> {
  %0 = stride.exp %x : tensor<?xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
func.func @public_caller(%a: tensor<?xf32>) -> tensor<*xf32> {
  %0 = call @public_callee(%a) : (tensor<?xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// An scf.for's loop-carried value takes its initial value's shape; the body
// is inferred with it and yields it without a cast.
// CHECK-LABEL: func.func @loop
// CHECK: scf.for {{.*}} iter_args(%[[X:.*]] = %{{.*}}) -> (tensor<4x3xf32>)
// CHECK: %[[S:.*]] = stride.add %[[X]], %{{.*}} : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
// CHECK: scf.yield %[[S]] : tensor<4x3xf32>
// CHECK: return %{{.*}} : tensor<4x3xf32>
func.func @loop(%a: tensor<4x3xf32>, %y: tensor<3xf32>, %n: index) -> tensor<*xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a0 = tensor.cast %a : tensor<4x3xf32> to tensor<*xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a0) -> (tensor<*xf32>) {
    %s = stride.add %x, %y : tensor<*xf32>, tensor<3xf32> -> tensor<*xf32>
    scf.yield %s : tensor<*xf32>
  }
  return %r : tensor<*xf32>
}

// -----

// scf.if takes the type both branches yield; scf.while carries its initial
// value's type through both regions.
// CHECK-LABEL: func.func @branches
// CHECK: scf.if %{{.*}} -> (tensor<2xf32>)
// CHECK: scf.while (%{{.*}} = %{{.*}}) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK: scf.condition(%{{.*}}) %{{.*}} : tensor<2xf32>
// CHECK: ^bb0(%{{.*}}: tensor<2xf32>):
// CHECK: return %{{.*}} : tensor<2xf32>
func.func @branches(%a: tensor<2xf32>, %c: i1) -> tensor<*xf32> {
  %r = scf.if %c -> (tensor<*xf32>) {
    %e = stride.exp %a : tensor<2xf32> -> tensor<*xf32>
    scf.yield %e : tensor<*xf32>
  } else {
    %n = stride.neg %a : tensor<2xf32> -> tensor<*xf32>
    scf.yield %n : tensor<*xf32>
  }
  %w = scf.while (%x = %r) : (tensor<*xf32>) -> tensor<*xf32> {
    scf.condition(%c) %x : tensor<*xf32>
  } do {
  ^bb0(%x: tensor<*xf32>):
    %t = stride.tanh %x : tensor<*xf32> -> tensor<*xf32>
    scf.yield %t : tensor<*xf32>
  }
  return %w : tensor<*xf32>
}

// -----

// A Stride op reads a cast to tensor<*xT> through it: the rules need the
// shape, and an unranked operand could not be bufferized.
// CHECK-LABEL: func.func @unranked_operand
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>)
// CHECK: stride.cos %[[A]] : tensor<2x3xf32> -> tensor<2x3xf32>
func.func @unranked_operand(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %u = tensor.cast %a : tensor<2x3xf32> to tensor<*xf32>
  %0 = stride.cos %u : tensor<*xf32> -> tensor<*xf32>
  %r = tensor.cast %0 : tensor<*xf32> to tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// A cast to dynamic dims is read through a cast to the sizes its chain
// knows (a plain type still: row-major to the layout pass), so the result
// is static.
// CHECK-LABEL: func.func @dynamic_operand
// CHECK-SAME: (%[[A:.*]]: tensor<2x1x5xf32>, %[[B:.*]]: tensor<2x1x5xf32>) -> tensor<2x1x5xf32>
// CHECK: %[[C:.*]] = tensor.cast %[[A]] : tensor<2x1x5xf32> to tensor<2x1x5xf32>
// CHECK: stride.hypot %[[B]], %[[C]] : tensor<2x1x5xf32>, tensor<2x1x5xf32> -> tensor<2x1x5xf32>
func.func @dynamic_operand(%a: tensor<2x1x5xf32>, %b: tensor<2x1x5xf32>) -> tensor<?x?x?xf32> {
  %d = tensor.cast %a : tensor<2x1x5xf32> to tensor<?x?x?xf32>
  %0 = stride.hypot %b, %d : tensor<2x1x5xf32>, tensor<?x?x?xf32> -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// -----

// A returned chain of casts that forgets more in the middle (5x? to ?x? to
// 5x?) returns its deepest value that knows the returned sizes.
// CHECK-LABEL: func.func @returned_chain
// CHECK: %[[N:.*]] = stride.neg {{.*}} -> tensor<5x?xi32>
// CHECK: return %[[N]] : tensor<5x?xi32>
func.func @returned_chain(%a: tensor<5x?xi32>) -> tensor<5x?xi32> {
  %0 = stride.neg %a : tensor<5x?xi32> -> tensor<?x?xi32>
  %1 = tensor.cast %0 : tensor<?x?xi32> to tensor<?x?xi32>
  %2 = tensor.cast %1 : tensor<?x?xi32> to tensor<5x?xi32>
  return %2 : tensor<5x?xi32>
}

// -----

// A loop that carries nothing (its yield has no operands) is left as it is
// while the ops in its body are refined (the fuzzer's finding: the empty
// yield's operand range was read for its begin index).
// CHECK-LABEL: func.func @loop_without_results
// CHECK: scf.for
// CHECK-NEXT: stride.neg %{{.*}} : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: }
func.func @loop_without_results(%a: tensor<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %0 = stride.neg %a : tensor<4xf32> -> tensor<*xf32>
  }
  return
}
