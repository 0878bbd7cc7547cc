// RUN: stride-opt %s --split-input-file --stride-infer-shapes --stride-propagate-layout --stride-explain --verify-diagnostics -o /dev/null
// RUN: stride-opt %s --split-input-file --stride-infer-shapes --stride-propagate-layout=policy=numpy --stride-explain=policy=numpy -o /dev/null 2>&1 | FileCheck %s --check-prefix=NUMPY
// RUN: stride-opt %s --split-input-file --stride-infer-shapes --stride-propagate-layout --stride-generalize --stride-fuse --stride-coalesce --stride-explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSED

// pytorch#42922's example: torch.randn(2,1,3).permute(1,0,2) + a 1-D
// tensor keeps strides (3, 3, 1) by the stride sort, led by the view;
// NumPy ignores the size-1 dim and gives C order (6, 3, 1).
// NUMPY: result 1x2x3 strides [6, 3, 1] (numpy): nditer's order K
// FUSED: result 1x2x3 strides [3, 3, 1] (torch): TensorIterator's stride sort
func.func @seed(%x: tensor<1x2x3xf32, #stride.layout<strides = [3, 3, 1]>>, %v: tensor<3xf32>) -> tensor<*xf32> {
  // expected-remark @+1 {{result 1x2x3 strides [3, 3, 1] (torch): TensorIterator's stride sort (reorder_dimensions}}
  %0 = stride.add %x, %v : tensor<1x2x3xf32, #stride.layout<strides = [3, 3, 1]>>, tensor<3xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Channels-last NC11 operands are also contiguous to TensorIterator (size-1
// dims are ignored): the fast set-up gives a contiguous result.
// NUMPY: result 2x3x1x1 strides [3, 1, 1, 1] (numpy): the ufunc trivial loop
func.func @nc11(%a: tensor<2x3x1x1xf32, #stride.layout<strides = [3, 1, 3, 3]>>) -> tensor<*xf32> {
  // expected-remark @+1 {{result 2x3x1x1 strides [3, 1, 1, 1] (torch): TensorIterator's fast set-up: every input has the result's shape and is contiguous}}
  %0 = stride.mul %a, %a : tensor<2x3x1x1xf32, #stride.layout<strides = [3, 1, 3, 3]>>, tensor<2x3x1x1xf32, #stride.layout<strides = [3, 1, 3, 3]>> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Two transposed operands: dense with one stride, so the result takes it;
// one loop covers all 12 elements.
func.func @transposed(%a: tensor<4x3xf32, #stride.layout<strides = [1, 4]>>) -> tensor<*xf32> {
  // expected-remark @+1 {{result 4x3 strides [1, 4] (torch): TensorIterator's fast set-up: every input is non-overlapping and dense with the same strides, which the result takes; it follows operand #0's memory order; loops, outermost first: dims [1, 0] (12)}}
  %0 = stride.exp %a : tensor<4x3xf32, #stride.layout<strides = [1, 4]>> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Matmuls and reductions follow their libraries' allocation rules.
func.func @others(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  // expected-remark @+1 {{result 4x5 strides [5, 1] (torch): matmul results are allocated contiguous (row-major)}}
  %0 = stride.matmul %a, %b : tensor<4x3xf32>, tensor<3x5xf32> -> tensor<*xf32>
  // expected-remark @+1 {{result 3 strides [1] (torch): reduction results are allocated contiguous}}
  %1 = stride.sum %a axes [0] : tensor<4x3xf32> -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}

// -----

// After fusion, the kernel names the ops it fuses.
// FUSED: remark: stride-explain: result 4x2x3 strides [1, 12, 4] (torch): {{.*}}; loops, outermost first: dims [1] (2), dims [2] (3), dims [0] (4); one kernel fuses math.exp, arith.addf
func.func @fused(%a: tensor<4x2x3xf32, #stride.layout<strides = [2, 24, 8]>>, %b: tensor<3xf32>) -> tensor<*xf32> {
  // expected-remark @+1 {{strides [1, 12, 4] (torch)}}
  %0 = stride.exp %a : tensor<4x2x3xf32, #stride.layout<strides = [2, 24, 8]>> -> tensor<*xf32>
  // expected-remark @+1 {{strides [1, 12, 4] (torch)}}
  %1 = stride.add %0, %b : tensor<*xf32>, tensor<3xf32> -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

// -----

// Why a producer stays a kernel of its own: exp of a vector read broadcast
// into a matrix would run once per row; a matmul is a kernel boundary.
// FUSED: loops, outermost first: dims [0] (64), dims [1] (32); operand #1 is not fused: this kernel reads its producer broadcast, and the producer is costly
// FUSED: operand #0 is not fused: its producer is a stride.matmul (a kernel boundary
func.func @not_fused(%a: tensor<64x32xf32>, %v: tensor<32xf32>, %b: tensor<32x16xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  // expected-remark @+1 {{result 32 strides [1] (torch)}}
  %e = stride.exp %v : tensor<32xf32> -> tensor<*xf32>
  // expected-remark @+1 {{result 64x32 strides [32, 1] (torch): TensorIterator's stride sort (reorder_dimensions) keeps C order}}
  %0 = stride.add %a, %e : tensor<64x32xf32>, tensor<*xf32> -> tensor<*xf32>
  // expected-remark @+1 {{matmul results}}
  %m = stride.matmul %a, %b : tensor<64x32xf32>, tensor<32x16xf32> -> tensor<*xf32>
  // expected-remark @+1 {{result 64x16 strides [16, 1]}}
  %1 = stride.tanh %m : tensor<*xf32> -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}

// -----

// After fusion, a reduction of an expression says it computes the
// expression and reduces it in one kernel.
// FUSED: remark: stride-explain: result 4 strides [1] (torch): reduction results are allocated contiguous (row-major); one kernel computes arith.mulf and reduces (sum) without storing the elementwise result
func.func @fused_reduction(%a: tensor<4x3xf32>, %b: tensor<3xf32>) -> tensor<*xf32> {
  // expected-remark @+1 {{result 4x3 strides [3, 1] (torch)}}
  %p = stride.mul %a, %b : tensor<4x3xf32>, tensor<3xf32> -> tensor<*xf32>
  // expected-remark @+1 {{result 4 strides [1] (torch): reduction results are allocated contiguous}}
  %s = stride.sum %p axes [1] : tensor<*xf32> -> tensor<*xf32>
  return %s : tensor<*xf32>
}
