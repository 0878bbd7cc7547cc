// RUN: stride-opt %s --stride-propagate-layout --split-input-file | FileCheck %s --check-prefixes=CHECK,TORCH
// RUN: stride-opt %s '--stride-propagate-layout=policy=numpy' --split-input-file | FileCheck %s --check-prefixes=CHECK,NUMPY
// RUN: stride-opt %s '--stride-propagate-layout=policy=contiguous' --split-input-file | FileCheck %s --check-prefixes=CHECK,CONTIG
// RUN: stride-opt %s '--stride-propagate-layout=keep-result-layouts' --split-input-file | FileCheck %s --check-prefix=KEEP
// RUN: not stride-opt %s '--stride-propagate-layout=policy=fortran' 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: for the --policy option: Cannot find option named 'fortran'!

// The seed's first example: a = randn(2,3,8)[:,:,::2].permute(2,0,1) has
// strides (2,24,8); exp(a) and a + a get (1,12,4) under both libraries.
// CHECK-LABEL: func.func @seed_sliced_permuted
// TORCH-SAME: -> (tensor<4x2x3xf32, #stride.layout<strides = [1, 12, 4]>>, tensor<4x2x3xf32, #stride.layout<strides = [1, 12, 4]>>)
// NUMPY-SAME: -> (tensor<4x2x3xf32, #stride.layout<strides = [1, 12, 4]>>, tensor<4x2x3xf32, #stride.layout<strides = [1, 12, 4]>>)
// CONTIG-SAME: -> (tensor<4x2x3xf32>, tensor<4x2x3xf32>)
func.func @seed_sliced_permuted(%a: tensor<4x2x3xf32, #stride.layout<strides = [2, 24, 8]>>) -> (tensor<4x2x3xf32>, tensor<4x2x3xf32>) {
  %0 = stride.exp %a : tensor<4x2x3xf32, #stride.layout<strides = [2, 24, 8]>> -> tensor<4x2x3xf32>
  %1 = stride.add %a, %a : tensor<4x2x3xf32, #stride.layout<strides = [2, 24, 8]>>, tensor<4x2x3xf32, #stride.layout<strides = [2, 24, 8]>> -> tensor<4x2x3xf32>
  return %0, %1 : tensor<4x2x3xf32>, tensor<4x2x3xf32>
}

// -----

// The seed's dense (3,1,1) tensor with strides (1,3,3) keeps them when a 1-D
// tensor is added (torch); the size-1 dims are not permuted away.
// CHECK-LABEL: func.func @seed_dense_311
// TORCH: stride.add {{.*}} -> tensor<3x1x1xf32, #stride.layout<strides = [1, 3, 3]>>
func.func @seed_dense_311(%a: tensor<3x1x1xf32, #stride.layout<strides = [1, 3, 3]>>, %b: tensor<1xf32>) -> tensor<3x1x1xf32> {
  %0 = stride.add %a, %b : tensor<3x1x1xf32, #stride.layout<strides = [1, 3, 3]>>, tensor<1xf32> -> tensor<3x1x1xf32>
  return %0 : tensor<3x1x1xf32>
}

// -----

// The seed's x = randn(2,1,3).permute(1,0,2) with strides (3,3,1) keeps them
// in a binary op with a 1-D tensor.
// CHECK-LABEL: func.func @seed_size1_permuted
// TORCH: stride.add {{.*}} -> tensor<1x2x3xf32, #stride.layout<strides = [3, 3, 1]>>
func.func @seed_size1_permuted(%a: tensor<1x2x3xf32, #stride.layout<strides = [3, 3, 1]>>, %b: tensor<3xf32>) -> tensor<1x2x3xf32> {
  %0 = stride.add %a, %b : tensor<1x2x3xf32, #stride.layout<strides = [3, 3, 1]>>, tensor<3xf32> -> tensor<1x2x3xf32>
  return %0 : tensor<1x2x3xf32>
}

// -----

// Channels-last 4-D inputs give a channels-last output (torch's fast path),
// also when only the first operand is channels-last.
// CHECK-LABEL: func.func @channels_last
// TORCH: stride.add {{.*}} -> tensor<2x3x4x5xf32, #stride.layout<strides = [60, 1, 15, 3]>>
// TORCH: stride.add {{.*}} -> tensor<2x3x4x5xf32, #stride.layout<strides = [60, 1, 15, 3]>>
// CONTIG: stride.add {{.*}} -> tensor<2x3x4x5xf32>
func.func @channels_last(%a: tensor<2x3x4x5xf32, #stride.layout<strides = [60, 1, 15, 3]>>, %b: tensor<2x3x4x5xf32>) {
  %0 = stride.add %a, %a : tensor<2x3x4x5xf32, #stride.layout<strides = [60, 1, 15, 3]>>, tensor<2x3x4x5xf32, #stride.layout<strides = [60, 1, 15, 3]>> -> tensor<2x3x4x5xf32>
  %1 = stride.add %a, %b : tensor<2x3x4x5xf32, #stride.layout<strides = [60, 1, 15, 3]>>, tensor<2x3x4x5xf32> -> tensor<2x3x4x5xf32>
  return
}

// -----

// NC11 channels-last (strides C,1,C,C) is ambiguous: torch returns the plain
// contiguous (C,1,1,1); an N1H1 channels-last tensor plus a 1-D tensor keeps
// (H,1,1,1).
// CHECK-LABEL: func.func @nc11
// TORCH: stride.exp {{.*}} -> tensor<2x3x1x1xf32>
// TORCH: stride.add {{.*}} -> tensor<2x1x5x1xf32, #stride.layout<strides = [5, 1, 1, 1]>>
func.func @nc11(%a: tensor<2x3x1x1xf32, #stride.layout<strides = [3, 1, 3, 3]>>,
                %b: tensor<2x1x5x1xf32, #stride.layout<strides = [5, 1, 1, 1]>>, %c: tensor<1xf32>) {
  %0 = stride.exp %a : tensor<2x3x1x1xf32, #stride.layout<strides = [3, 1, 3, 3]>> -> tensor<2x3x1x1xf32>
  %1 = stride.add %b, %c : tensor<2x1x5x1xf32, #stride.layout<strides = [5, 1, 1, 1]>>, tensor<1xf32> -> tensor<2x1x5x1xf32>
  return
}

// -----

// Expanded inputs: broadcast (stride 0) dims compare equal to anything.
// CHECK-LABEL: func.func @expanded
// TORCH: stride.exp {{.*}} -> tensor<5x3x2xf32, #stride.layout<strides = [1, 5, 15]>>
// NUMPY: stride.exp {{.*}} -> tensor<5x3x2xf32, #stride.layout<strides = [1, 10, 5]>>
// TORCH: stride.exp {{.*}} -> tensor<6x5x4x3x2xf32, #stride.layout<strides = [6, 36, 180, 2, 1]>>
func.func @expanded(%a: tensor<5x3x2xf32, #stride.layout<strides = [1, 0, 5]>>,
                    %b: tensor<6x5x4x3x2xf32, #stride.layout<strides = [6, 0, 120, 0, 1]>>) {
  %0 = stride.exp %a : tensor<5x3x2xf32, #stride.layout<strides = [1, 0, 5]>> -> tensor<5x3x2xf32>
  %1 = stride.exp %b : tensor<6x5x4x3x2xf32, #stride.layout<strides = [6, 0, 120, 0, 1]>> -> tensor<6x5x4x3x2xf32>
  return
}

// -----

// The first operand decides in torch: a (4,2,3) view with strides (6,1,2)
// plus a contiguous tensor gives (6,1,2); swapped it gives (6,3,1).
// CHECK-LABEL: func.func @first_operand_wins
// TORCH: stride.add %{{.*}}, %{{.*}} : {{.*}} -> tensor<4x2x3xf32, #stride.layout<strides = [6, 1, 2]>>
// TORCH: stride.add %{{.*}}, %{{.*}} : {{.*}} -> tensor<4x2x3xf32>
func.func @first_operand_wins(%a: tensor<4x2x3xf32, #stride.layout<strides = [6, 1, 2]>>, %b: tensor<4x2x3xf32>) {
  %0 = stride.add %a, %b : tensor<4x2x3xf32, #stride.layout<strides = [6, 1, 2]>>, tensor<4x2x3xf32> -> tensor<4x2x3xf32>
  %1 = stride.add %b, %a : tensor<4x2x3xf32>, tensor<4x2x3xf32, #stride.layout<strides = [6, 1, 2]>> -> tensor<4x2x3xf32>
  return
}

// -----

// Zero-size inputs, as PyTorch lays them out; NumPy 1.24 gives every array
// without elements all-zero strides, casts (astype) included.
// CHECK-LABEL: func.func @zero_size
// TORCH: stride.exp {{.*}} -> tensor<2x0x3xf32>
// TORCH: stride.add {{.*}} -> tensor<2x0x3xf32, #stride.layout<strides = [1, 6, 2]>>
// TORCH: stride.exp {{.*}} -> tensor<0x3xf32>
// NUMPY: stride.exp {{.*}} -> tensor<2x0x3xf32, #stride.layout<strides = [0, 0, 0]>>
// NUMPY: stride.add {{.*}} -> tensor<2x0x3xf32, #stride.layout<strides = [0, 0, 0]>>
// NUMPY: stride.exp {{.*}} -> tensor<0x3xf32, #stride.layout<strides = [0, 0]>>
// NUMPY: stride.cast {{.*}} -> tensor<2x0x3xf64, #stride.layout<strides = [0, 0, 0]>>
func.func @zero_size(%a: tensor<2x0x3xf32, #stride.layout<strides = [1, 6, 2]>>, %b: tensor<3xf32>,
                     %c: tensor<0x3xf32, #stride.layout<strides = [1, 0]>>) {
  %0 = stride.exp %a : tensor<2x0x3xf32, #stride.layout<strides = [1, 6, 2]>> -> tensor<2x0x3xf32>
  %1 = stride.add %a, %b : tensor<2x0x3xf32, #stride.layout<strides = [1, 6, 2]>>, tensor<3xf32> -> tensor<2x0x3xf32>
  %2 = stride.exp %c : tensor<0x3xf32, #stride.layout<strides = [1, 0]>> -> tensor<0x3xf32>
  %3 = stride.cast %a : tensor<2x0x3xf32, #stride.layout<strides = [1, 6, 2]>> -> tensor<2x0x3xf64>
  return
}

// -----

// Negative strides under numpy: ordered by magnitude, outputs positive.
// CHECK-LABEL: func.func @negative
// NUMPY: stride.exp {{.*}} -> tensor<4x5xf32>
// NUMPY: stride.exp {{.*}} -> tensor<3x4xf32, #stride.layout<strides = [1, 3]>>
// NUMPY: stride.exp {{.*}} -> tensor<3x4xf32, #stride.layout<strides = [1, 3]>>
// NUMPY: stride.add {{.*}} -> tensor<3x4xf32>
func.func @negative(%a: tensor<4x5xf32, #stride.layout<strides = [10, -2]>>,
                    %b: tensor<3x4xf32, #stride.layout<strides = [-1, -3]>>,
                    %c: tensor<3x4xf32, #stride.layout<strides = [1, -3]>>, %d: tensor<3x4xf32>) {
  %0 = stride.exp %a : tensor<4x5xf32, #stride.layout<strides = [10, -2]>> -> tensor<4x5xf32>
  %1 = stride.exp %b : tensor<3x4xf32, #stride.layout<strides = [-1, -3]>> -> tensor<3x4xf32>
  %2 = stride.exp %c : tensor<3x4xf32, #stride.layout<strides = [1, -3]>> -> tensor<3x4xf32>
  %3 = stride.add %c, %d : tensor<3x4xf32, #stride.layout<strides = [1, -3]>>, tensor<3x4xf32> -> tensor<3x4xf32>
  return
}

// -----

// Dynamic sizes give the perm form, from the operands' dimension orders.
// CHECK-LABEL: func.func @dynamic
// TORCH: stride.add {{.*}} -> tensor<?x?x?xf32, #stride.layout<perm = [1, 2, 0]>>
// NUMPY: stride.add {{.*}} -> tensor<?x?x?xf32, #stride.layout<perm = [1, 2, 0]>>
// CONTIG: stride.add {{.*}} -> tensor<?x?x?xf32>
func.func @dynamic(%a: tensor<?x?x?xf32, #stride.layout<perm = [1, 2, 0]>>, %b: tensor<?xf32>) -> tensor<?x?x?xf32> {
  %0 = stride.add %a, %b : tensor<?x?x?xf32, #stride.layout<perm = [1, 2, 0]>>, tensor<?xf32> -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// -----

// A destination keeps its strides; matmul results are row-major; a chain
// propagates op by op.
// CHECK-LABEL: func.func @destination_and_matmul
// CHECK: stride.broadcast ins({{.*}}) outs({{.*}}) -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>>
// CHECK: stride.matmul {{.*}} -> tensor<4x4xf32>
// TORCH: stride.neg {{.*}} -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>>
func.func @destination_and_matmul(%a: tensor<4x3xf32>, %d: tensor<4x3xf32, #stride.layout<strides = [1, 4]>>,
                                  %t: tensor<3x4xf32, #stride.layout<strides = [1, 3]>>) {
  %0 = stride.broadcast ins(%a : tensor<4x3xf32>) outs(%d : tensor<4x3xf32, #stride.layout<strides = [1, 4]>>) -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>> {
  ^bb0(%x: f32):
    stride.yield %x : f32
  }
  %1 = stride.matmul %0, %t : tensor<4x3xf32, #stride.layout<strides = [1, 4]>>, tensor<3x4xf32, #stride.layout<strides = [1, 3]>> -> tensor<4x4xf32>
  %2 = stride.neg %0 : tensor<4x3xf32, #stride.layout<strides = [1, 4]>> -> tensor<4x3xf32>
  return
}

// -----

// keep-result-layouts: a declared row-major result gets a copy from the
// propagated layout instead of a new signature.
// KEEP-LABEL: func.func @keep
// KEEP-SAME: -> tensor<4x3xf32> {
// KEEP: %[[E:.*]] = stride.exp {{.*}} -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>>
// KEEP: %[[EMPTY:.*]] = tensor.empty() : tensor<4x3xf32>
// KEEP: %[[C:.*]] = stride.broadcast ins(%[[E]] : tensor<4x3xf32, #stride.layout<strides = [1, 4]>>) outs(%[[EMPTY]] : tensor<4x3xf32>) -> tensor<4x3xf32>
// KEEP: return %[[C]] : tensor<4x3xf32>
func.func @keep(%a: tensor<4x3xf32, #stride.layout<strides = [1, 4]>>) -> tensor<4x3xf32> {
  %0 = stride.exp %a : tensor<4x3xf32, #stride.layout<strides = [1, 4]>> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// keep-result-layouts: a declared result whose strides are the propagated
// ones, spelled otherwise (the caller's row-major buffer as `strides`),
// is a cast of the result, not a copy (a 1 MiB out= matmul paid a
// threaded copy: 0.07 ms became 0.33 ms on 2 threads).
// KEEP-LABEL: func.func @keep_same_strides
// KEEP: %[[M:.*]] = stride.matmul {{.*}} -> tensor<4x2x3xf32>
// KEEP-NOT: stride.broadcast
// KEEP: %[[C:.*]] = tensor.cast %[[M]] : tensor<4x2x3xf32> to tensor<4x2x3xf32, #stride.layout<strides = [6, 3, 1]>>
// KEEP: return %[[C]]
func.func @keep_same_strides(%a: tensor<4x2x5xf32>, %b: tensor<5x3xf32>) -> tensor<4x2x3xf32, #stride.layout<strides = [6, 3, 1]>> {
  %0 = stride.matmul %a, %b : tensor<4x2x5xf32>, tensor<5x3xf32> -> tensor<4x2x3xf32, #stride.layout<strides = [6, 3, 1]>>
  return %0 : tensor<4x2x3xf32, #stride.layout<strides = [6, 3, 1]>>
}

// -----

// NumPy's matmul is a gufunc: batch dims in order K of the operands' batch
// dims, core dims row-major inside (np.matmul on a (4,5,2,3) view with
// strides (1,20,4,8) and a (3,2) matrix gives strides (16,64,8,4) bytes).
// PyTorch allocates row-major.
// CHECK-LABEL: func.func @matmul_batch_order
// NUMPY: stride.matmul {{.*}} -> tensor<4x5x2x2xf32, #stride.layout<strides = [4, 16, 2, 1]>>
// TORCH: stride.matmul {{.*}} -> tensor<4x5x2x2xf32>
func.func @matmul_batch_order(%a: tensor<4x5x2x3xf32, #stride.layout<strides = [1, 20, 4, 8]>>, %b: tensor<3x2xf32>) {
  %0 = stride.matmul %a, %b : tensor<4x5x2x3xf32, #stride.layout<strides = [1, 20, 4, 8]>>, tensor<3x2xf32> -> tensor<4x5x2x2xf32>
  return
}

// -----

// A private callee takes the layout its call site passes, so its results are
// computed in the policy's layout for it, and the call takes them.
// CHECK-LABEL: func.func private @twice
// CHECK-SAME: (%{{.*}}: tensor<4x3xf32, #stride.layout<strides = [1, 4]>>)
// TORCH-SAME: -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>>
// CONTIG-SAME: -> tensor<4x3xf32> {{[{]}}
// CHECK-LABEL: func.func @caller
// CHECK: call @twice(%{{.*}}) : (tensor<4x3xf32, #stride.layout<strides = [1, 4]>>)
// TORCH-SAME: -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>>
// CONTIG-SAME: -> tensor<4x3xf32>{{$}}
func.func private @twice(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0 = stride.add %x, %x : tensor<4x3xf32>, tensor<4x3xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
func.func @caller(%a: tensor<4x3xf32, #stride.layout<strides = [1, 4]>>) -> tensor<4x3xf32> {
  %a0 = tensor.cast %a : tensor<4x3xf32, #stride.layout<strides = [1, 4]>> to tensor<4x3xf32>
  %0 = call @twice(%a0) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %1 = stride.neg %0 : tensor<4x3xf32> -> tensor<4x3xf32>
  return %1 : tensor<4x3xf32>
}

// -----

// A loop-carried value keeps the layout it enters the loop with; a body
// result in another layout (a row-major matmul) is copied into it.
// CHECK-LABEL: func.func @carried
// CHECK: scf.for {{.*}} iter_args(%[[X:.*]] = %{{.*}}) -> (tensor<4x4xf32, #stride.layout<strides = [1, 4]>>)
// CHECK: %[[M:.*]] = stride.matmul %[[X]], %{{.*}} -> tensor<4x4xf32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x4xf32, #stride.layout<strides = [1, 4]>>
// CHECK: %[[C:.*]] = stride.broadcast ins(%[[M]] : {{.*}}) outs(%[[E]] : {{.*}}) -> tensor<4x4xf32, #stride.layout<strides = [1, 4]>>
// CHECK: scf.yield %[[C]] : tensor<4x4xf32, #stride.layout<strides = [1, 4]>>
func.func @carried(%a: tensor<4x4xf32, #stride.layout<strides = [1, 4]>>, %w: tensor<4x4xf32>, %n: index) -> tensor<4x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a0 = tensor.cast %a : tensor<4x4xf32, #stride.layout<strides = [1, 4]>> to tensor<4x4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a0) -> (tensor<4x4xf32>) {
    %m = stride.matmul %x, %w : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
    scf.yield %m : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// -----

// A cast marked stride.promotion is the consumer's own type promotion: the
// layout comes from the uncast operand, as in NumPy's ufunc loops and
// TensorIterator (np.maximum of these float32 and bool views gives byte
// strides (8, 16, 4)). A plain cast (astype) has its own layout first.
// CHECK-LABEL: func.func @promotion_cast
// CHECK: %[[C:.*]] = stride.cast %{{.*}} {stride.promotion}
// TORCH: stride.maximum %{{.*}}, %[[C]] : {{.*}} -> tensor<2x2x2xf32, #stride.layout<strides = [2, 4, 1]>>
// NUMPY: stride.maximum %{{.*}}, %[[C]] : {{.*}} -> tensor<2x2x2xf32, #stride.layout<strides = [2, 4, 1]>>
// CHECK: %[[D:.*]] = stride.cast
// TORCH: stride.maximum %{{.*}}, %[[D]] : {{.*}} -> tensor<2x2x2xf32, #stride.layout<strides = [2, 4, 1]>>
// NUMPY: stride.maximum %{{.*}}, %[[D]] : {{.*}} -> tensor<2x2x2xf32>
func.func @promotion_cast(%a: tensor<2x2x2xf32, #stride.layout<strides = [1, 2, 0]>>, %m: tensor<2x2x2xi1, #stride.layout<strides = [-1, 0, 0]>>) {
  %c = stride.cast %m {stride.promotion} : tensor<2x2x2xi1, #stride.layout<strides = [-1, 0, 0]>> -> tensor<2x2x2xf32>
  %0 = stride.maximum %a, %c : tensor<2x2x2xf32, #stride.layout<strides = [1, 2, 0]>>, tensor<2x2x2xf32> -> tensor<2x2x2xf32>
  %d = stride.cast %m : tensor<2x2x2xi1, #stride.layout<strides = [-1, 0, 0]>> -> tensor<2x2x2xf32>
  %1 = stride.maximum %a, %d : tensor<2x2x2xf32, #stride.layout<strides = [1, 2, 0]>>, tensor<2x2x2xf32> -> tensor<2x2x2xf32>
  return
}

// -----

// PyTorch converts (with .to(), laid out like a copy) exactly the inputs
// whose PyTorch dtype is not its common dtype, and its dtypes differ from
// Stride's: int32 + float32 is float32 there, float64 here. So %s is f32 to
// PyTorch and the second add converts nothing: %f keeps its broadcast
// strides and %s orders the size-1 dim, (1, 4) as torch.add gives. Had %f
// been converted (Stride's dtypes, f32 -> f64) it would be dense first and
// give (1, 1). NumPy gives (1, 1) to both.
// CHECK-LABEL: func.func @torch_dtypes_decide_conversions
// CHECK: %[[S:.*]] = stride.add
// TORCH-SAME: -> tensor<4x1xf64, #stride.layout<strides = [1, 4]>>
// NUMPY-SAME: -> tensor<4x1xf64>{{$}}
// TORCH: stride.add %{{.*}}, %[[S]] : {{.*}} -> tensor<4x1xf64, #stride.layout<strides = [1, 4]>>
// NUMPY: stride.add %{{.*}}, %[[S]] : {{.*}} -> tensor<4x1xf64>{{$}}
func.func @torch_dtypes_decide_conversions(%i: tensor<4x1xi32, #stride.layout<strides = [1, 4]>>, %f: tensor<4x1xf32, #stride.layout<strides = [0, 1]>>) -> tensor<*xf64> {
  %ci = stride.cast %i {stride.promotion} : tensor<4x1xi32, #stride.layout<strides = [1, 4]>> -> tensor<4x1xf64>
  %cf = stride.cast %f {stride.promotion} : tensor<4x1xf32, #stride.layout<strides = [0, 1]>> -> tensor<4x1xf64>
  %s = stride.add %ci, %cf : tensor<4x1xf64>, tensor<4x1xf64> -> tensor<4x1xf64>
  %r = stride.add %cf, %s : tensor<4x1xf64>, tensor<4x1xf64> -> tensor<4x1xf64>
  %u = tensor.cast %r : tensor<4x1xf64> to tensor<*xf64>
  return %u : tensor<*xf64>
}

// -----

// A loop cannot carry values in a layout that repeats elements (an expanded
// argument): it starts from the policy's copy of it (np.copy, clone).
// CHECK-LABEL: func.func @carried_expanded
// CHECK: %[[C:.*]] = stride.broadcast ins(%{{.*}} : tensor<4x3xf32, #stride.layout<strides = [0, 1]>>)
// TORCH-SAME: -> tensor<4x3xf32> {
// NUMPY-SAME: -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>> {
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[C]])
// TORCH-SAME: -> (tensor<4x3xf32>)
// NUMPY-SAME: -> (tensor<4x3xf32, #stride.layout<strides = [1, 4]>>)
func.func @carried_expanded(%a: tensor<4x3xf32, #stride.layout<strides = [0, 1]>>, %y: tensor<3xf32>, %n: index) -> tensor<4x3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a0 = tensor.cast %a : tensor<4x3xf32, #stride.layout<strides = [0, 1]>> to tensor<4x3xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a0) -> (tensor<4x3xf32>) {
    %s = stride.add %x, %y : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
    scf.yield %s : tensor<4x3xf32>
  }
  return %r : tensor<4x3xf32>
}

// -----

// An entry's results are buffers its caller allocates: a returned expanded
// argument is returned as the policy's copy of it.
// CHECK-LABEL: func.func @returns_expanded
// CHECK: %[[C:.*]] = stride.broadcast ins(%{{.*}} : tensor<2x2xf32, #stride.layout<strides = [0, 4]>>)
// TORCH-SAME: -> tensor<2x2xf32> {
// NUMPY-SAME: -> tensor<2x2xf32, #stride.layout<strides = [1, 2]>> {
// CHECK: return %[[C]]
func.func @returns_expanded(%a: tensor<2x2xf32, #stride.layout<strides = [0, 4]>>) -> tensor<2x2xf32, #stride.layout<strides = [0, 4]>> {
  return %a : tensor<2x2xf32, #stride.layout<strides = [0, 4]>>
}

// -----

// Branches agree on a layout however it is spelled (perm = [1, 0] and
// strides = [1, 4] of a 4x3 tensor): the result takes it, and the other
// spelling is cast, not copied.
// CHECK-LABEL: func.func @if_spellings
// TORCH: scf.if %{{.*}} -> (tensor<4x3xf64, #stride.layout<strides = [1, 4]>>)
// TORCH: tensor.cast %{{.*}} : tensor<4x3xf64, #stride.layout<perm = [1, 0]>> to tensor<4x3xf64, #stride.layout<strides = [1, 4]>>
// TORCH-NOT: stride.broadcast
// NUMPY: scf.if %{{.*}} -> (tensor<4x3xf64, #stride.layout<strides = [1, 4]>>)
func.func @if_spellings(%c: i1, %a: tensor<4x3xf64, #stride.layout<perm = [1, 0]>>) -> tensor<*xf64> {
  %0 = stride.exp %a : tensor<4x3xf64, #stride.layout<perm = [1, 0]>> -> tensor<4x3xf64>
  %r = scf.if %c -> (tensor<*xf64>) {
    %u = tensor.cast %0 : tensor<4x3xf64> to tensor<*xf64>
    scf.yield %u : tensor<*xf64>
  } else {
    %u = tensor.cast %a : tensor<4x3xf64, #stride.layout<perm = [1, 0]>> to tensor<*xf64>
    scf.yield %u : tensor<*xf64>
  }
  return %r : tensor<*xf64>
}

// -----

// A foreign op whose result has its destination's type (insert_slice)
// reads a laid-out Stride result through a cast to the type it was
// written with.
// CHECK-LABEL: func.func @insert_into_result
// TORCH: %[[E:.*]] = stride.exp {{.*}} -> tensor<3x4xf32, #stride.layout<strides = [1, 3]>>
// TORCH: %[[C:.*]] = tensor.cast %[[E]] : tensor<3x4xf32, #stride.layout<strides = [1, 3]>> to tensor<3x4xf32>
// TORCH: tensor.insert_slice %{{.*}} into %[[C]][0, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<3x4xf32>
func.func @insert_into_result(%a: tensor<3x4xf32, #stride.layout<perm = [1, 0]>>, %s: tensor<2x4xf32>) -> tensor<3x4xf32> {
  %0 = stride.exp %a : tensor<3x4xf32, #stride.layout<perm = [1, 0]>> -> tensor<3x4xf32>
  %1 = tensor.insert_slice %s into %0[0, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<3x4xf32>
  return %1 : tensor<3x4xf32>
}

// -----

// np.where has no trivial loop: two F-contiguous 3x2x1 operands give a ufunc
// (stride.add) F order [1, 3, 6], but stride.select nditer's order K, which
// ignores the size-1 dim: [1, 3, 1] (NumPy 1.24). PyTorch's where is an
// ordinary TensorIterator op (which gives both [1, 3, 3]).
// CHECK-LABEL: func.func @where_has_no_trivial_loop
// NUMPY: stride.select {{.*}} -> tensor<3x2x1xi32, #stride.layout<strides = [1, 3, 1]>>
// NUMPY: stride.add {{.*}} -> tensor<3x2x1xi32, #stride.layout<strides = [1, 3, 6]>>
// TORCH: stride.select {{.*}} -> tensor<3x2x1xi32, #stride.layout<strides = [1, 3, 3]>>
// TORCH: stride.add {{.*}} -> tensor<3x2x1xi32, #stride.layout<strides = [1, 3, 3]>>
func.func @where_has_no_trivial_loop(%c: tensor<3x2x1xi1, #stride.layout<strides = [1, 3, 1]>>, %x: tensor<3x2x1xi32, #stride.layout<strides = [1, 3, 6]>>, %y: tensor<3x2x1xi32, #stride.layout<strides = [1, 3, 1]>>) -> (tensor<3x2x1xi32>, tensor<3x2x1xi32>) {
  %0 = stride.select %c, %x, %x : tensor<3x2x1xi1, #stride.layout<strides = [1, 3, 1]>>, tensor<3x2x1xi32, #stride.layout<strides = [1, 3, 6]>>, tensor<3x2x1xi32, #stride.layout<strides = [1, 3, 6]>> -> tensor<3x2x1xi32>
  %1 = stride.add %y, %x : tensor<3x2x1xi32, #stride.layout<strides = [1, 3, 1]>>, tensor<3x2x1xi32, #stride.layout<strides = [1, 3, 6]>> -> tensor<3x2x1xi32>
  return %0, %1 : tensor<3x2x1xi32>, tensor<3x2x1xi32>
}
