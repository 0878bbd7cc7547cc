// A stride.broadcast whose destination aliases one of its inputs gives
// NumPy's answer, "as if every input were read before any output is
// written": One-Shot Bufferize writes the destination in place only when
// the input is the destination element for element, and otherwise writes a
// new buffer. The expected values are NumPy's, computed from copies.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t a="rand(8)" b="rand(8)" m="rand(4,3)"
// RUN: stride-run %s --entry shift_forward --input %t/a.npy --output-dir %t
// RUN: %npytool check %t "np.concatenate([np.exp(a)[1:] * np.float32(2), np.exp(a)[7:]])" %t/out0.npy
// RUN: stride-run %s --entry shift_back --input %t/a.npy --output-dir %t
// RUN: %npytool check %t "np.concatenate([np.exp(a)[:1], np.exp(a)[:7] * np.float32(2)])" %t/out0.npy
// RUN: stride-run %s --entry rows --input %t/m.npy --output-dir %t
// RUN: %npytool check %t "np.concatenate([np.exp(m)[1:] + np.exp(m)[:3], np.exp(m)[3:]])" %t/out0.npy
// RUN: stride-run %s --entry broadcast_row --input %t/m.npy --output-dir %t
// RUN: %npytool check %t "np.exp(m)[0:1] + np.exp(m)" %t/out0.npy
// RUN: stride-run %s --entry same_elements --input %t/a.npy --output-dir %t
// RUN: %npytool check %t "np.exp(a) * np.exp(a) - np.float32(1)" %t/out0.npy
// RUN: stride-run %s --entry same_elements_kept --input %t/a.npy --output-dir %t
// RUN: %npytool check %t "np.exp(a) * np.exp(a)" %t/out0.npy
// RUN: %npytool check %t "np.exp(a)" %t/out1.npy
// RUN: stride-run %s --entry call_twice --input %t/a.npy --output-dir %t
// RUN: %npytool check %t "np.exp(a) + np.exp(a)" %t/out0.npy
// RUN: %npytool check %t "np.exp(a)" %t/out1.npy
// RUN: stride-run %s --entry call_shifted --input %t/a.npy --output-dir %t
// RUN: %npytool check %t "np.concatenate([np.exp(a)[1:] + np.exp(a)[:7], np.exp(a)[7:]])" %t/out0.npy
// RUN: stride-run %s --entry argument_destination --input %t/a.npy --input %t/b.npy --output-dir %t
// RUN: %npytool check %t "np.exp(a)" %t/out0.npy

// e[0:7] = 2 * e[1:8]: the destination slice and the input slice share
// seven elements, shifted by one. Read in increasing order in place, it
// would still be right; One-Shot cannot tell the direction and writes a new
// buffer, then inserts it.
func.func @shift_forward(%a: tensor<8xf32>) -> tensor<8xf32> {
  %e = stride.exp %a : tensor<8xf32> -> tensor<8xf32>
  %src = tensor.extract_slice %e[1] [7] [1] : tensor<8xf32> to tensor<7xf32>
  %dst = tensor.extract_slice %e[0] [7] [1] : tensor<8xf32> to tensor<7xf32>
  %two = arith.constant 2.0 : f32
  %r = stride.broadcast ins(%src, %two : tensor<7xf32>, f32) outs(%dst : tensor<7xf32>) -> tensor<7xf32> {
  ^bb0(%v: f32, %t: f32):
    %m = arith.mulf %v, %t : f32
    stride.yield %m : f32
  }
  %w = tensor.insert_slice %r into %e[0] [7] [1] : tensor<7xf32> into tensor<8xf32>
  return %w : tensor<8xf32>
}

// e[1:8] = 2 * e[0:7]: in place and in increasing order, every element
// would read its neighbour's new value (2^k * e[0]); NumPy's answer needs
// the old values.
func.func @shift_back(%a: tensor<8xf32>) -> tensor<8xf32> {
  %e = stride.exp %a : tensor<8xf32> -> tensor<8xf32>
  %src = tensor.extract_slice %e[0] [7] [1] : tensor<8xf32> to tensor<7xf32>
  %dst = tensor.extract_slice %e[1] [7] [1] : tensor<8xf32> to tensor<7xf32>
  %two = arith.constant 2.0 : f32
  %r = stride.broadcast ins(%src, %two : tensor<7xf32>, f32) outs(%dst : tensor<7xf32>) -> tensor<7xf32> {
  ^bb0(%v: f32, %t: f32):
    %m = arith.mulf %v, %t : f32
    stride.yield %m : f32
  }
  %w = tensor.insert_slice %r into %e[1] [7] [1] : tensor<7xf32> into tensor<8xf32>
  return %w : tensor<8xf32>
}

// e[0:3] = e[1:4] + e[0:3] on rows: one input is the destination element
// for element, the other the next row.
func.func @rows(%m: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %e = stride.exp %m : tensor<4x3xf32> -> tensor<4x3xf32>
  %next = tensor.extract_slice %e[1, 0] [3, 3] [1, 1] : tensor<4x3xf32> to tensor<3x3xf32>
  %dst = tensor.extract_slice %e[0, 0] [3, 3] [1, 1] : tensor<4x3xf32> to tensor<3x3xf32>
  %r = stride.broadcast ins(%next, %dst : tensor<3x3xf32>, tensor<3x3xf32>) outs(%dst : tensor<3x3xf32>) -> tensor<3x3xf32> {
  ^bb0(%u: f32, %v: f32):
    %s = arith.addf %u, %v : f32
    stride.yield %s : f32
  }
  %w = tensor.insert_slice %r into %e[0, 0] [3, 3] [1, 1] : tensor<3x3xf32> into tensor<4x3xf32>
  return %w : tensor<4x3xf32>
}

// e = e * e in place: element for element, no new buffer needed.
func.func @same_elements(%a: tensor<8xf32>) -> tensor<8xf32> {
  %e = stride.exp %a : tensor<8xf32> -> tensor<8xf32>
  %sq = stride.broadcast ins(%e, %e : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%u: f32, %v: f32):
    %p = arith.mulf %u, %v : f32
    stride.yield %p : f32
  }
  %one = arith.constant 1.0 : f32
  %r = stride.sub %sq, %one : tensor<8xf32>, f32 -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// The same, but e's old value is returned too: the product goes elsewhere.
func.func @same_elements_kept(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = stride.exp %a : tensor<8xf32> -> tensor<8xf32>
  %sq = stride.broadcast ins(%e, %e : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%u: f32, %v: f32):
    %p = arith.mulf %u, %v : f32
    stride.yield %p : f32
  }
  return %sq, %e : tensor<8xf32>, tensor<8xf32>
}

// A private function that writes its second argument in place, called with
// one tensor for both: the call site copies the written one.
func.func private @accumulate(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %r = stride.broadcast ins(%x, %y : tensor<8xf32>, tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%u: f32, %v: f32):
    %s = arith.addf %u, %v : f32
    stride.yield %s : f32
  }
  return %r : tensor<8xf32>
}
func.func @call_twice(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = stride.exp %a : tensor<8xf32> -> tensor<8xf32>
  %r = call @accumulate(%e, %e) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %r, %e : tensor<8xf32>, tensor<8xf32>
}

// The same function called with two overlapping slices of one tensor.
func.func private @accumulate7(%x: tensor<7xf32>, %y: tensor<7xf32>) -> tensor<7xf32> {
  %r = stride.broadcast ins(%x, %y : tensor<7xf32>, tensor<7xf32>) outs(%y : tensor<7xf32>) -> tensor<7xf32> {
  ^bb0(%u: f32, %v: f32):
    %s = arith.addf %u, %v : f32
    stride.yield %s : f32
  }
  return %r : tensor<7xf32>
}
func.func @call_shifted(%a: tensor<8xf32>) -> tensor<8xf32> {
  %e = stride.exp %a : tensor<8xf32> -> tensor<8xf32>
  %src = tensor.extract_slice %e[1] [7] [1] : tensor<8xf32> to tensor<7xf32>
  %dst = tensor.extract_slice %e[0] [7] [1] : tensor<8xf32> to tensor<7xf32>
  %r = call @accumulate7(%src, %dst) : (tensor<7xf32>, tensor<7xf32>) -> tensor<7xf32>
  %w = tensor.insert_slice %r into %e[0] [7] [1] : tensor<7xf32> into tensor<8xf32>
  return %w : tensor<8xf32>
}

// An entry's input used as a destination is never written: its caller's
// buffer keeps its value (and may alias another input, see
// python/tests/test_compile.py).
func.func @argument_destination(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %r = stride.broadcast ins(%a : tensor<8xf32>) outs(%b : tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%v: f32):
    %x = math.exp %v : f32
    stride.yield %x : f32
  }
  return %r : tensor<8xf32>
}

// e = e[0:1] + e: every row adds row 0's old value.
func.func @broadcast_row(%m: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %e = stride.exp %m : tensor<4x3xf32> -> tensor<4x3xf32>
  %row = tensor.extract_slice %e[0, 0] [1, 3] [1, 1] : tensor<4x3xf32> to tensor<1x3xf32>
  %r = stride.broadcast ins(%row, %e : tensor<1x3xf32>, tensor<4x3xf32>) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32> {
  ^bb0(%u: f32, %v: f32):
    %s = arith.addf %u, %v : f32
    stride.yield %s : f32
  }
  return %r : tensor<4x3xf32>
}
