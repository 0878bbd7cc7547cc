// Element types, comparisons, select and casts; zero-size and 0-d tensors.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t x="rand(3,4)" y="rand(4)" i="np.arange(-6, 6, dtype=np.int32).reshape(3,4)" d="rand(2,3).astype(np.float64)" z="rand(0,3,1)" s="np.float32(1.5)"
// RUN: stride-run %s --entry where --input %t/x.npy --input %t/y.npy --output-dir %t | FileCheck %s --check-prefix=WHERE
// RUN: %npytool check %t "np.where(x < y, x, -y)" %t/out0.npy
// RUN: %npytool check %t "x < y" %t/out1.npy
// RUN: stride-run %s --entry integers --input %t/i.npy --output-dir %t
// RUN: %npytool check %t "np.trunc(i / 4).astype(np.int32) + np.abs(i) - np.maximum(i, 0)" %t/out0.npy
// RUN: %npytool check %t "i.astype(np.float64)" %t/out1.npy
// RUN: stride-run %s --entry doubles --input %t/d.npy --output-dir %t
// RUN: %npytool check %t "1 / (1 + np.exp(-d))" %t/out0.npy
// RUN: stride-run %s --entry zero_size --input %t/z.npy --input %t/y.npy --output-dir %t | FileCheck %s --check-prefix=ZERO
// RUN: %npytool check %t "np.broadcast_to(z, (0,3,4)) * np.float32(1) + np.float32(1)" %t/out0.npy
// RUN: stride-run %s --entry scalars --input %t/s.npy --output-dir %t --print | FileCheck %s --check-prefix=SCALARS
// RUN: %npytool check %t "np.float32(2) * np.float32(1.5) + np.float32(1.5)" %t/out0.npy
// Integer division has no undefined case: x / 0 is 0 and MIN / -1 wraps to
// MIN (n and m are pairs covering both, in i32 and i64).
// RUN: %npytool make %t n="np.array([7, -7, 7, -7, 0, -2**31, -2**31, 5], np.int32)" m="np.array([2, 2, 0, 0, 0, -1, 1, -1], np.int32)" n64="np.array([7, -7, 0, -2**63, -2**63], np.int64)" m64="np.array([-2, 0, 0, -1, 2], np.int64)"
// RUN: stride-run %s --entry int_div --input %t/n.npy --input %t/m.npy --input %t/n64.npy --input %t/m64.npy --output-dir %t
// RUN: %npytool check %t "np.array([3, -3, 0, 0, 0, -2**31, -2**31, -5], np.int32)" %t/out0.npy
// RUN: %npytool check %t "np.array([-3, 0, 0, -2**63, -2**62], np.int64)" %t/out1.npy
// Float maximum and minimum as NumPy's: a -0/+0 tie gives the second
// operand, NaN propagates from either (signs seen through copysign).
// RUN: %npytool make %t p="np.array([-0.0, 0.0, -0.0, 0.0, np.nan, 1.0], np.float32)" q="np.array([0.0, -0.0, -0.0, 0.0, 1.0, np.nan], np.float32)"
// RUN: stride-run %s --entry zero_ties --input %t/p.npy --input %t/q.npy --output-dir %t
// RUN: %npytool check %t "np.copysign(np.float32(1), np.maximum(p, q))" %t/out0.npy
// RUN: %npytool check %t "np.copysign(np.float32(1), np.minimum(p, q))" %t/out1.npy
// RUN: %npytool check %t "np.maximum(p, q)" %t/out2.npy
// i1 add, multiply and matmul are NumPy's bool or, and, and any-of-ands.
// RUN: %npytool make %t u="np.array([[True, False], [True, True]])" v="np.array([[True, True], [False, True]])"
// RUN: stride-run %s --entry bools --input %t/u.npy --input %t/v.npy --output-dir %t
// RUN: %npytool check %t "u + v" %t/out0.npy
// RUN: %npytool check %t "u * v" %t/out1.npy
// RUN: %npytool check %t "u @ v" %t/out2.npy
// int8 and int16 wrap on overflow, divide with NumPy's rules (x // 0 is 0,
// MIN // -1 wraps), widen to i64 in sums and cast from f32 by truncation;
// .npy files of both are read and written ('|i1', '<i2').
// RUN: %npytool make %t a8="np.array([[127, -128, 100, -7], [0, 1, -1, 64]], np.int8)" b8="np.array([1, -1, 100, 0], np.int8)" c16="np.array([[32767, -32768], [300, -300], [7, 0]], np.int16).T" f="np.array([-2.7, 100.9, 3.5, -128.2], np.float32)"
// RUN: stride-run %s --entry narrow --input %t/a8.npy --input %t/b8.npy --input %t/c16.npy --input %t/f.npy --output-dir %t | FileCheck %s --check-prefix=NARROW
// RUN: %npytool check %t "a8 + b8" %t/out0.npy
// RUN: %npytool check %t "a8 // b8" %t/out1.npy
// RUN: %npytool check %t "c16 * np.int16(3)" %t/out2.npy
// RUN: %npytool check %t "np.sum(c16, axis=0)" %t/out3.npy
// RUN: %npytool check %t "f.astype(np.int8).astype(np.int16) - b8.astype(np.int16)" %t/out4.npy
// Unsigned integers divide, compare, shift, take maxima and widen without a
// sign on the same bits; sums are uint64, means float64; .npy files of
// every width are read and written ('|u1', '<u2', '<u4', '<u8').
// RUN: %npytool make %t u8="np.array([[0, 1, 127, 128], [200, 254, 255, 3]], np.uint8)" v8="np.array([0, 2, 129, 7], np.uint8)" u16="np.array([[65535, 32768, 1], [0, 40000, 9]], np.uint16)" u32="np.array([4294967295, 2147483648, 5], np.uint32)" u64="np.array([18446744073709551615, 9223372036854775808, 12], np.uint64)" one="np.array(1, np.uint64)"
// RUN: stride-run %s --entry unsigned --input %t/u8.npy --input %t/v8.npy --input %t/u16.npy --input %t/u32.npy --input %t/u64.npy --input %t/one.npy --output-dir %t | FileCheck %s --check-prefix=UNSIGNED
// RUN: %npytool check %t "u8 // v8" %t/out0.npy
// RUN: %npytool check %t "u8 > v8" %t/out1.npy
// RUN: %npytool check %t "np.max(u16, axis=1)" %t/out2.npy
// RUN: %npytool check %t "np.sum(u16, axis=0)" %t/out3.npy
// RUN: %npytool check %t "u32.astype(np.float64) + u64.astype(np.float64)" %t/out4.npy
// RUN: %npytool check %t "u64 >> np.uint64(1)" %t/out5.npy
// RUN: %npytool check %t "np.argmax(u8, axis=1)" %t/out6.npy

// select with a cmp condition; the i1 result is saved as a NumPy bool array.
// WHERE: output #0: f32 3x4 strides [4, 1]
// WHERE: output #1: i1 3x4 strides [4, 1]
func.func @where(%x: tensor<3x4xf32>, %y: tensor<4xf32>) -> (tensor<*xf32>, tensor<*xi1>) {
  %c = stride.cmp lt, %x, %y : tensor<3x4xf32>, tensor<4xf32> -> tensor<*xi1>
  %n = stride.neg %y : tensor<4xf32> -> tensor<*xf32>
  %r = stride.select %c, %x, %n : tensor<*xi1>, tensor<3x4xf32>, tensor<*xf32> -> tensor<*xf32>
  return %r, %c : tensor<*xf32>, tensor<*xi1>
}

// Integer division truncates toward zero; casts to f64.
func.func @integers(%i: tensor<3x4xi32>) -> (tensor<*xi32>, tensor<*xf64>) {
  %four = arith.constant 4 : i32
  %zero = arith.constant 0 : i32
  %q = stride.div %i, %four : tensor<3x4xi32>, i32 -> tensor<*xi32>
  %a = stride.abs %i : tensor<3x4xi32> -> tensor<*xi32>
  %m = stride.maximum %i, %zero : tensor<3x4xi32>, i32 -> tensor<*xi32>
  %s = stride.add %q, %a : tensor<*xi32>, tensor<*xi32> -> tensor<*xi32>
  %r = stride.sub %s, %m : tensor<*xi32>, tensor<*xi32> -> tensor<*xi32>
  %f = stride.cast %i : tensor<3x4xi32> -> tensor<*xf64>
  return %r, %f : tensor<*xi32>, tensor<*xf64>
}

func.func @doubles(%d: tensor<2x3xf64>) -> tensor<*xf64> {
  %0 = stride.sigmoid %d : tensor<2x3xf64> -> tensor<*xf64>
  return %0 : tensor<*xf64>
}

// A zero-size dim runs no iterations and still has a shape.
// ZERO: output #0: f32 0x3x4 strides [12, 4, 1]
func.func @zero_size(%z: tensor<0x3x1xf32>, %y: tensor<4xf32>) -> tensor<0x3x4xf32> {
  %one = arith.constant 1.0 : f32
  %e = stride.broadcast ins(%z, %y, %one : tensor<0x3x1xf32>, tensor<4xf32>, f32) -> tensor<0x3x4xf32> {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %c : f32
    %s = arith.addf %p, %c : f32
    stride.yield %s : f32
  }
  return %e : tensor<0x3x4xf32>
}

// Only scalars: a 0-d result (Julia #26097: a scalar may come first).
// SCALARS: output #0: f32 0-d strides []
// SCALARS-NEXT: 4.5
func.func @scalars(%s: f32) -> tensor<*xf32> {
  %two = arith.constant 2.0 : f32
  %0 = stride.mul %two, %s : f32, f32 -> tensor<*xf32>
  %1 = stride.add %0, %s : tensor<*xf32>, f32 -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

func.func @int_div(%n: tensor<8xi32>, %m: tensor<8xi32>, %n64: tensor<5xi64>, %m64: tensor<5xi64>) -> (tensor<*xi32>, tensor<*xi64>) {
  %q = stride.div %n, %m : tensor<8xi32>, tensor<8xi32> -> tensor<*xi32>
  %q64 = stride.div %n64, %m64 : tensor<5xi64>, tensor<5xi64> -> tensor<*xi64>
  return %q, %q64 : tensor<*xi32>, tensor<*xi64>
}

func.func @zero_ties(%p: tensor<6xf32>, %q: tensor<6xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %one = arith.constant 1.0 : f32
  %max = stride.maximum %p, %q : tensor<6xf32>, tensor<6xf32> -> tensor<*xf32>
  %min = stride.minimum %p, %q : tensor<6xf32>, tensor<6xf32> -> tensor<*xf32>
  %smax = stride.copysign %one, %max : f32, tensor<*xf32> -> tensor<*xf32>
  %smin = stride.copysign %one, %min : f32, tensor<*xf32> -> tensor<*xf32>
  return %smax, %smin, %max : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

func.func @bools(%u: tensor<2x2xi1>, %v: tensor<2x2xi1>) -> (tensor<*xi1>, tensor<*xi1>, tensor<*xi1>) {
  %s = stride.add %u, %v : tensor<2x2xi1>, tensor<2x2xi1> -> tensor<*xi1>
  %p = stride.mul %u, %v : tensor<2x2xi1>, tensor<2x2xi1> -> tensor<*xi1>
  %m = stride.matmul %u, %v : tensor<2x2xi1>, tensor<2x2xi1> -> tensor<*xi1>
  return %s, %p, %m : tensor<*xi1>, tensor<*xi1>, tensor<*xi1>
}

// NARROW: output #0: i8 2x4 strides [4, 1]
// NARROW: output #1: i8 2x4 strides [4, 1]
// NARROW: output #2: i16 2x3 strides [3, 1]
// NARROW: output #3: i64 3 strides [1]
// NARROW: output #4: i16 4 strides [1]
// UNSIGNED: output #0: ui8 2x4 strides [4, 1]
// UNSIGNED: output #1: i1 2x4 strides [4, 1]
// UNSIGNED: output #2: ui16 2 strides [1]
// UNSIGNED: output #3: ui64 3 strides [1]
// UNSIGNED: output #4: f64 3 strides [1]
// UNSIGNED: output #5: ui64 3 strides [1]
// UNSIGNED: output #6: i64 2 strides [1]
func.func @narrow(%a: tensor<2x4xi8>, %b: tensor<4xi8>, %c: tensor<2x3xi16>, %f: tensor<4xf32>)
    -> (tensor<*xi8>, tensor<*xi8>, tensor<*xi16>, tensor<*xi64>, tensor<*xi16>) {
  %s = stride.add %a, %b : tensor<2x4xi8>, tensor<4xi8> -> tensor<*xi8>
  %q = stride.floor_divide %a, %b : tensor<2x4xi8>, tensor<4xi8> -> tensor<*xi8>
  %three = arith.constant 3 : i16
  %m = stride.mul %c, %three : tensor<2x3xi16>, i16 -> tensor<*xi16>
  %t = stride.sum %c axes [0] : tensor<2x3xi16> -> tensor<*xi64>
  %fi = stride.cast %f : tensor<4xf32> -> tensor<*xi8>
  %fw = stride.cast %fi : tensor<*xi8> -> tensor<*xi16>
  %rw = stride.cast %b : tensor<4xi8> -> tensor<*xi16>
  %d = stride.sub %fw, %rw : tensor<*xi16>, tensor<*xi16> -> tensor<*xi16>
  return %s, %q, %m, %t, %d : tensor<*xi8>, tensor<*xi8>, tensor<*xi16>, tensor<*xi64>, tensor<*xi16>
}

func.func @unsigned(%a: tensor<2x4xui8>, %b: tensor<4xui8>, %c: tensor<2x3xui16>, %d: tensor<3xui32>, %e: tensor<3xui64>, %one: ui64)
    -> (tensor<*xui8>, tensor<*xi1>, tensor<*xui16>, tensor<*xui64>, tensor<*xf64>, tensor<*xui64>, tensor<*xi64>) {
  %q = stride.floor_divide %a, %b : tensor<2x4xui8>, tensor<4xui8> -> tensor<*xui8>
  %g = stride.cmp gt, %a, %b : tensor<2x4xui8>, tensor<4xui8> -> tensor<*xi1>
  %m = stride.amax %c axes [1] : tensor<2x3xui16> -> tensor<*xui16>
  %s = stride.sum %c axes [0] : tensor<2x3xui16> -> tensor<*xui64>
  %df = stride.cast %d : tensor<3xui32> -> tensor<*xf64>
  %ef = stride.cast %e : tensor<3xui64> -> tensor<*xf64>
  %f = stride.add %df, %ef : tensor<*xf64>, tensor<*xf64> -> tensor<*xf64>
  %h = stride.right_shift %e, %one : tensor<3xui64>, ui64 -> tensor<*xui64>
  %i = stride.argmax %a axes [1] : tensor<2x4xui8> -> tensor<*xi64>
  return %q, %g, %m, %s, %f, %h, %i : tensor<*xui8>, tensor<*xi1>, tensor<*xui16>, tensor<*xui64>, tensor<*xf64>, tensor<*xui64>, tensor<*xi64>
}
