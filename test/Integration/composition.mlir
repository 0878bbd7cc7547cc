// Stride inside a larger module: calls, scf loops and branches, and tensor /
// linalg ops of other dialects before and after Stride ops compile through
// stride-cpu-pipeline (One-Shot Bufferize) and give NumPy's values.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t a="rand(4,3)" y="rand(3)" b="rand(3,5)" m="rand(6,4)"
// RUN: stride-run %s --entry loop --input %t/a.npy --input %t/y.npy --output-dir %t | FileCheck %s --check-prefix=LOOP
// RUN: %npytool check %t "np.float32(0.5) * (np.float32(0.5) * (np.float32(0.5) * np.exp(a) + np.exp(y)) + np.exp(y)) + np.exp(y)" %t/out0.npy
// RUN: stride-run %s --entry foreign --input %t/a.npy --input %t/b.npy --output-dir %t | FileCheck %s --check-prefix=FOREIGN
// RUN: %npytool check %t "np.exp(np.exp(a) @ b)[1:3] * np.float32(2)" %t/out0.npy 1e-4
// RUN: stride-run %s --entry reshape --input %t/m.npy --output-dir %t | FileCheck %s --check-prefix=RESHAPE
// RUN: %npytool check %t "np.tanh(np.tanh(m).reshape(24).reshape(2, 12))" %t/out0.npy
// RUN: stride-run %s --entry branch --input %t/a.npy --output-dir %t
// RUN: %npytool check %t "np.exp(a) - np.float32(1)" %t/out0.npy
// RUN: stride-run %s --entry countdown --input %t/a.npy --output-dir %t
// RUN: %npytool check %t "a + np.float32(3)" %t/out0.npy
// RUN: stride-run %s --entry in_place --input %t/a.npy --input %t/a.npy --output-dir %t
// RUN: %npytool check %t "np.exp(a)" %t/out0.npy
// RUN: %npytool check %t "a" %t/out1.npy
// RUN: stride-run %s --entry generic --input %t/a.npy --input %t/y.npy --output-dir %t
// RUN: %npytool check %t "np.maximum(a * a, np.float32(0)) + y" %t/out0.npy
// RUN: stride-run %s --entry loop_result_feeds --input %t/a.npy --input %t/a.npy --output-dir %t | FileCheck %s --check-prefix=FEEDS
// RUN: %npytool check %t "np.exp(np.float32(0.5) * (np.float32(0.5) * (np.float32(0.5) * a + np.exp(a)) + np.exp(a)) + np.exp(a)) - a" %t/out0.npy 1e-5
// RUN: stride-run %s --entry loop_result_feeds --no-fuse --input %t/a.npy --input %t/a.npy --output-dir %t
// RUN: %npytool check %t "np.exp(np.float32(0.5) * (np.float32(0.5) * (np.float32(0.5) * a + np.exp(a)) + np.exp(a)) + np.exp(a)) - a" %t/out0.npy 1e-5
// RUN: stride-run %s --entry call_result_feeds --input %t/a.npy --output-dir %t
// RUN: %npytool check %t "np.tanh(np.exp(a) * np.float32(2)) + a" %t/out0.npy
// RUN: stride-run %s --entry returns_unranked_cast --input %t/a.npy --output-dir %t | FileCheck %s --check-prefix=UNRANKED
// RUN: %npytool check %t "np.exp(a)" %t/out0.npy
// RUN: %npytool make %t t="np.array(True)" f="np.array(False)" at="rand(3,4).T"
// RUN: stride-run %s --entry cf_branches --input %t/a.npy --input %t/at.npy --input %t/t.npy --output-dir %t | FileCheck %s --check-prefix=CF
// RUN: %npytool check %t "np.exp(a)" %t/out0.npy
// RUN: stride-run %s --entry cf_branches --input %t/a.npy --input %t/at.npy --input %t/f.npy --output-dir %t | FileCheck %s --check-prefix=CF
// RUN: %npytool check %t "-at" %t/out0.npy
// RUN: %npytool make %t p="rand(3,2).T"
// RUN: stride-run %s --entry result_starts_loop --input %t/p.npy --output-dir %t | FileCheck %s --check-prefix=STARTS
// RUN: %npytool check %t "-np.tanh(np.tanh(np.tanh(np.exp(p))))" %t/out0.npy
// RUN: %npytool check %t "-(-p)" %t/out1.npy
// RUN: stride-run %s --entry through_unranked_call --input %t/a.npy --output-dir %t
// RUN: %npytool check %t "np.abs(np.tanh(a))" %t/out0.npy
// RUN: %npytool make %t s="rand(8)[::2]"
// RUN: stride-run %s --entry helper_returns_loop --input %t/s.npy --output-dir %t
// RUN: %npytool check %t "s * np.float32(0.125)" %t/out0.npy
// RUN: stride-run %s --entry reversed_loop_in_call --policy numpy --input %t/y.npy --output-dir %t
// RUN: %npytool check %t "np.abs(y) * np.float32(0.125)" %t/out0.npy
// RUN: stride-run %s --entry two_signatures --input %t/a.npy --input %t/y.npy --output-dir %t | FileCheck %s --check-prefix=SIGS
// RUN: %npytool check %t "np.tanh(a) * np.float32(2)" %t/out0.npy
// RUN: %npytool check %t "np.tanh(y) * np.float32(2)" %t/out1.npy

// A private function whose result type is refined at the call, and an
// scf.for that carries x = 0.5 * x + exp(y) three times in its first layout.
// LOOP: output #0: f32 4x3 strides [3, 1]
func.func private @exp_of(%x: tensor<*xf32>) -> tensor<*xf32> {
  %0 = stride.exp %x : tensor<*xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
func.func @loop(%a: tensor<4x3xf32>, %y: tensor<3xf32>) -> tensor<*xf32> {
  %a0 = tensor.cast %a : tensor<4x3xf32> to tensor<*xf32>
  %e = call @exp_of(%a0) : (tensor<*xf32>) -> tensor<*xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 3 : index
  %half = arith.constant 0.5 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %e) -> (tensor<*xf32>) {
    %h = stride.mul %half, %x : f32, tensor<*xf32> -> tensor<*xf32>
    %ey = stride.exp %y : tensor<3xf32> -> tensor<*xf32>
    %s = stride.add %h, %ey : tensor<*xf32>, tensor<*xf32> -> tensor<*xf32>
    scf.yield %s : tensor<*xf32>
  }
  return %r : tensor<*xf32>
}

// linalg.fill + linalg.matmul on tensors between Stride ops, then a slice.
// FOREIGN: output #0: f32 2x5 strides [5, 1]
func.func @foreign(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>) -> tensor<*xf32> {
  %e = stride.exp %a : tensor<4x3xf32> -> tensor<4x3xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<4x5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%init : tensor<4x5xf32>) -> tensor<4x5xf32>
  %p = linalg.matmul ins(%e, %b : tensor<4x3xf32>, tensor<3x5xf32>) outs(%z : tensor<4x5xf32>) -> tensor<4x5xf32>
  %x = stride.exp %p : tensor<4x5xf32> -> tensor<4x5xf32>
  %s = tensor.extract_slice %x[1, 0] [2, 5] [1, 1] : tensor<4x5xf32> to tensor<2x5xf32>
  %two = arith.constant 2.0 : f32
  %r = stride.mul %s, %two : tensor<2x5xf32>, f32 -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// tensor.collapse_shape / expand_shape of a Stride result feed a Stride op.
// RESHAPE: output #0: f32 2x12 strides [12, 1]
func.func @reshape(%m: tensor<6x4xf32>) -> tensor<*xf32> {
  %t = stride.tanh %m : tensor<6x4xf32> -> tensor<6x4xf32>
  %flat = tensor.collapse_shape %t [[0, 1]] : tensor<6x4xf32> into tensor<24xf32>
  %two = tensor.expand_shape %flat [[0, 1]] output_shape [2, 12] : tensor<24xf32> into tensor<2x12xf32>
  %r = stride.tanh %two : tensor<2x12xf32> -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// An scf.if whose branches both yield Stride results.
func.func @branch(%a: tensor<4x3xf32>) -> tensor<*xf32> {
  %true = arith.constant true
  %one = arith.constant 1.0 : f32
  %r = scf.if %true -> (tensor<*xf32>) {
    %e = stride.exp %a : tensor<4x3xf32> -> tensor<*xf32>
    %d = stride.sub %e, %one : tensor<*xf32>, f32 -> tensor<*xf32>
    scf.yield %d : tensor<*xf32>
  } else {
    %n = stride.neg %a : tensor<4x3xf32> -> tensor<*xf32>
    scf.yield %n : tensor<*xf32>
  }
  return %r : tensor<*xf32>
}

// An scf.while that adds 1 three times.
func.func @countdown(%a: tensor<4x3xf32>) -> tensor<*xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %a0 = tensor.cast %a : tensor<4x3xf32> to tensor<*xf32>
  %r:2 = scf.while (%x = %a0, %i = %c0) : (tensor<*xf32>, index) -> (tensor<*xf32>, index) {
    %go = arith.cmpi ult, %i, %c3 : index
    scf.condition(%go) %x, %i : tensor<*xf32>, index
  } do {
  ^bb0(%x: tensor<*xf32>, %i: index):
    %next = stride.add %x, %one : tensor<*xf32>, f32 -> tensor<*xf32>
    %j = arith.addi %i, %c1 : index
    scf.yield %next, %j : tensor<*xf32>, index
  }
  return %r#0 : tensor<*xf32>
}

// A destination whose old value is still returned: One-Shot's analysis
// writes the result out of place, so both values come back.
func.func @in_place(%x: tensor<4x3xf32>, %d: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %0 = stride.broadcast ins(%x : tensor<4x3xf32>) outs(%d : tensor<4x3xf32>) -> tensor<4x3xf32> {
  ^bb0(%v: f32):
    %e = math.exp %v : f32
    stride.yield %e : f32
  }
  return %0, %d : tensor<4x3xf32>, tensor<4x3xf32>
}

// A linalg.generic on tensors produces a Stride operand.
func.func @generic(%a: tensor<4x3xf32>, %y: tensor<3xf32>) -> tensor<*xf32> {
  %init = tensor.empty() : tensor<4x3xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x3xf32>) outs(%init : tensor<4x3xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %v : f32
    linalg.yield %m : f32
  } -> tensor<4x3xf32>
  %zero = arith.constant 0.0 : f32
  %r = stride.maximum %sq, %zero : tensor<4x3xf32>, f32 -> tensor<4x3xf32>
  %s = stride.add %r, %y : tensor<4x3xf32>, tensor<3xf32> -> tensor<*xf32>
  return %s : tensor<*xf32>
}


// A Stride op consumes an scf.for result (issue 25): the loop carries an
// unencoded tensor, whose buffer bufferization types with fully dynamic
// strides, while coalescing merged its dims as row-major. The lowering
// splits a merged group it cannot prove one progression back into its dims.
// FEEDS: output #0: f32 4x3 strides [3, 1]
func.func @loop_result_feeds(%x0: tensor<4x3xf32>, %y: tensor<4x3xf32>) -> tensor<*xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %half = arith.constant 0.5 : f32
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %x0) -> tensor<4x3xf32> {
    %h = stride.mul %half, %x : f32, tensor<4x3xf32> -> tensor<4x3xf32>
    %e = stride.exp %y : tensor<4x3xf32> -> tensor<4x3xf32>
    %n = stride.add %h, %e : tensor<4x3xf32>, tensor<4x3xf32> -> tensor<4x3xf32>
    scf.yield %n : tensor<4x3xf32>
  }
  %o = stride.exp %r : tensor<4x3xf32> -> tensor<*xf32>
  %s = stride.sub %o, %y : tensor<*xf32>, tensor<4x3xf32> -> tensor<*xf32>
  return %s : tensor<*xf32>
}

// A call's result feeds further Stride ops before it is returned.
func.func private @scaled_exp(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %two = arith.constant 2.0 : f32
  %e = stride.exp %x : tensor<4x3xf32> -> tensor<4x3xf32>
  %m = stride.mul %e, %two : tensor<4x3xf32>, f32 -> tensor<4x3xf32>
  return %m : tensor<4x3xf32>
}
func.func @call_result_feeds(%a: tensor<4x3xf32>) -> tensor<*xf32> {
  %c = call @scaled_exp(%a) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %t = stride.tanh %c : tensor<4x3xf32> -> tensor<*xf32>
  %s = stride.add %t, %a : tensor<*xf32>, tensor<4x3xf32> -> tensor<*xf32>
  return %s : tensor<*xf32>
}

// An entry returning `tensor.cast %r : tensor<4x3xf32> to tensor<*xf32>`
// hands back the ranked result (issue 25: it was refused as "non-tensor").
// UNRANKED: output #0: f32 4x3 strides [3, 1]
func.func @returns_unranked_cast(%a: tensor<4x3xf32>) -> tensor<*xf32> {
  %r = stride.exp %a : tensor<4x3xf32> -> tensor<4x3xf32>
  %c = tensor.cast %r : tensor<4x3xf32> to tensor<*xf32>
  return %c : tensor<*xf32>
}

// An entry whose body branches (cf) returns from two blocks: both compute
// into the one output, whose layout is the first return's (the other path
// is copied into it).
// CF: output #0: f32 4x3 strides [3, 1]
func.func @cf_branches(%a: tensor<4x3xf32>, %b: tensor<4x3xf32, #stride.layout<strides = [1, 4]>>, %flag: i1) -> tensor<*xf32> {
  cf.cond_br %flag, ^bb1, ^bb2
^bb1:
  %e = stride.exp %a : tensor<4x3xf32> -> tensor<*xf32>
  return %e : tensor<*xf32>
^bb2:
  %n = stride.neg %b : tensor<4x3xf32, #stride.layout<strides = [1, 4]>> -> tensor<*xf32>
  return %n : tensor<*xf32>
}

// One private function called on a 4x3 and a 3-vector: a copy per signature.
// SIGS: output #0: f32 4x3 strides [3, 1]
// SIGS: output #1: f32 3 strides [1]
func.func private @double_tanh(%x: tensor<*xf32>) -> tensor<*xf32> {
  %t = stride.tanh %x : tensor<*xf32> -> tensor<*xf32>
  %0 = stride.add %t, %t : tensor<*xf32>, tensor<*xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
func.func @two_signatures(%a: tensor<4x3xf32>, %y: tensor<3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %a0 = tensor.cast %a : tensor<4x3xf32> to tensor<*xf32>
  %y0 = tensor.cast %y : tensor<3xf32> to tensor<*xf32>
  %0 = call @double_tanh(%a0) : (tensor<*xf32>) -> tensor<*xf32>
  %1 = call @double_tanh(%y0) : (tensor<*xf32>) -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}

// A Stride result starts a loop (in its layout: PyTorch's strides for the
// permuted input follow through the loop) and another feeds a call.
// STARTS: output #0: f32 2x3 strides [1, 2]
// STARTS: output #1: f32 2x3 strides [1, 2]
func.func private @negate(%p: tensor<*xf32>) -> tensor<*xf32> {
  %0 = stride.neg %p : tensor<*xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
func.func @result_starts_loop(%a: tensor<2x3xf32, #stride.layout<perm = [1, 0]>>) -> (tensor<*xf32>, tensor<*xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %e = stride.exp %a : tensor<2x3xf32, #stride.layout<perm = [1, 0]>> -> tensor<*xf32>
  %i = tensor.cast %e : tensor<*xf32> to tensor<2x3xf32>
  %r = scf.for %k = %c0 to %c3 step %c1 iter_args(%x = %i) -> (tensor<2x3xf32>) {
    %t = stride.tanh %x : tensor<2x3xf32> -> tensor<*xf32>
    %c = tensor.cast %t : tensor<*xf32> to tensor<2x3xf32>
    scf.yield %c : tensor<2x3xf32>
  }
  %o = stride.neg %r : tensor<2x3xf32> -> tensor<*xf32>
  %v = stride.neg %a : tensor<2x3xf32, #stride.layout<perm = [1, 0]>> -> tensor<*xf32>
  %w = func.call @negate(%v) : (tensor<*xf32>) -> tensor<*xf32>
  return %o, %w : tensor<*xf32>, tensor<*xf32>
}

// A Stride result cast to tensor<*xf32> and back before a call (issue 25:
// the round trip bufferized to an allocation it could not size), and a
// private function returning an scf.for result carried in a strided layout
// (an allocation of that layout; the returned buffer's ownership handed
// back to the caller instead of a clone nothing lowers).
func.func private @abs_of(%p: tensor<4x3xf32>) -> tensor<*xf32> {
  %0 = stride.abs %p : tensor<4x3xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
func.func @through_unranked_call(%a: tensor<4x3xf32>) -> tensor<*xf32> {
  %v = stride.tanh %a : tensor<4x3xf32> -> tensor<*xf32>
  %c = tensor.cast %v : tensor<*xf32> to tensor<4x3xf32>
  %r = func.call @abs_of(%c) : (tensor<4x3xf32>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}
func.func private @halve_thrice(%p: tensor<4xf32, #stride.layout<strides = [2]>>) -> tensor<*xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %half = arith.constant 0.5 : f32
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %p) -> (tensor<4xf32, #stride.layout<strides = [2]>>) {
    %h = stride.mul %x, %half : tensor<4xf32, #stride.layout<strides = [2]>>, f32 -> tensor<*xf32>
    %c = tensor.cast %h : tensor<*xf32> to tensor<4xf32, #stride.layout<strides = [2]>>
    scf.yield %c : tensor<4xf32, #stride.layout<strides = [2]>>
  }
  %u = tensor.cast %r : tensor<4xf32, #stride.layout<strides = [2]>> to tensor<*xf32>
  return %u : tensor<*xf32>
}
func.func @helper_returns_loop(%s: tensor<4xf32, #stride.layout<strides = [2]>>) -> tensor<*xf32> {
  %r = func.call @halve_thrice(%s) : (tensor<4xf32, #stride.layout<strides = [2]>>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// A private function carries a reversed argument through a loop and
// returns the loop result: One-Shot allocates buffers in that layout
// (strides [-1]) for the call, which memref.alloc alone cannot.
func.func private @halve_reversed(%p: tensor<3xf32, #stride.layout<strides = [-1]>>) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %half = arith.constant 0.5 : f32
  %i = tensor.cast %p : tensor<3xf32, #stride.layout<strides = [-1]>> to tensor<3xf32>
  %r = scf.for %k = %c0 to %c3 step %c1 iter_args(%x = %i) -> (tensor<3xf32>) {
    %h = stride.mul %half, %x : f32, tensor<3xf32> -> tensor<*xf32>
    %c = tensor.cast %h : tensor<*xf32> to tensor<3xf32>
    scf.yield %c : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}
func.func @reversed_loop_in_call(%y: tensor<3xf32, #stride.layout<strides = [-1]>>) -> tensor<*xf32> {
  %r = func.call @halve_reversed(%y) : (tensor<3xf32, #stride.layout<strides = [-1]>>) -> tensor<3xf32>
  %a = stride.abs %r : tensor<3xf32> -> tensor<*xf32>
  return %a : tensor<*xf32>
}
