// NumPy's elementwise op set run end to end by stride-run, each result
// checked against NumPy (values and dtype) by npytool.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t x="np.linspace(-0.95, 0.95, 24)" y="np.linspace(2.5, -3.5, 24)" p="np.linspace(1, 40, 24)" s="np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5, -2.5, 7.0])" z="np.array([2.0, -2.0, 0.0, np.inf, 3.0, -0.0, np.nan, 0.5])" t="np.array([1e-10, -3e-12, 2e-300, 0.0])" xf="np.linspace(-0.95, 0.95, 24).astype(np.float32)" yf="np.linspace(2.5, -3.5, 24).astype(np.float32)"
// RUN: %npytool make %t i="np.array([-7, 7, -7, 7, 0, -2**31, -2**31, 5, 1, -1, 123456, -9], dtype=np.int32)" j="np.array([2, -2, 0, 3, 5, -1, 1, -3, 31, 32, 40, -1], dtype=np.int32)" b="np.array([True, False, True, False])" c="np.array([True, True, False, False])"
// RUN: stride-run %s --entry float_unary --input %t/x.npy --output-dir %t
// RUN: %npytool check %t "np.sin(x)" %t/out0.npy
// RUN: %npytool check %t "np.cos(x)" %t/out1.npy
// RUN: %npytool check %t "np.tan(x)" %t/out2.npy
// RUN: %npytool check %t "np.arcsin(x)" %t/out3.npy
// RUN: %npytool check %t "np.arccos(x)" %t/out4.npy
// RUN: %npytool check %t "np.arctan(x)" %t/out5.npy
// RUN: %npytool check %t "np.sinh(x)" %t/out6.npy
// RUN: %npytool check %t "np.cosh(x)" %t/out7.npy
// RUN: %npytool check %t "np.arcsinh(x)" %t/out8.npy
// RUN: %npytool check %t "np.arctanh(x)" %t/out9.npy
// RUN: %npytool check %t "np.exp2(x)" %t/out10.npy
// RUN: %npytool check %t "np.expm1(x)" %t/out11.npy
// RUN: %npytool check %t "np.log1p(x)" %t/out12.npy
// RUN: %npytool check %t "np.floor(x)" %t/out13.npy
// RUN: %npytool check %t "np.ceil(x)" %t/out14.npy
// RUN: %npytool check %t "np.trunc(x)" %t/out15.npy
// RUN: %npytool check %t "np.rint(x)" %t/out16.npy
// RUN: %npytool check %t "np.sign(x)" %t/out17.npy
// RUN: %npytool check %t "np.square(x)" %t/out18.npy
// RUN: %npytool check %t "np.reciprocal(x)" %t/out19.npy
// RUN: stride-run %s --entry above_one --input %t/p.npy --output-dir %t
// RUN: %npytool check %t "np.log2(p)" %t/out0.npy
// RUN: %npytool check %t "np.log10(p)" %t/out1.npy
// RUN: %npytool check %t "np.arccosh(p)" %t/out2.npy
// RUN: stride-run %s --entry float_binary --input %t/x.npy --input %t/y.npy --output-dir %t
// RUN: %npytool check %t "np.arctan2(x, y)" %t/out0.npy
// RUN: %npytool check %t "np.hypot(x, y)" %t/out1.npy
// RUN: %npytool check %t "np.copysign(x, y)" %t/out2.npy
// RUN: %npytool check %t "np.remainder(x, y)" %t/out3.npy
// RUN: %npytool check %t "np.floor_divide(x, y)" %t/out4.npy
// RUN: %npytool check %t "np.clip(x, -0.5, y)" %t/out5.npy
// RUN: stride-run %s --entry special --input %t/s.npy --input %t/z.npy --output-dir %t
// RUN: %npytool check %t "np.isnan(s)" %t/out0.npy
// RUN: %npytool check %t "np.isinf(s)" %t/out1.npy
// RUN: %npytool check %t "np.isfinite(s)" %t/out2.npy
// RUN: %npytool check %t "np.sign(s)" %t/out3.npy
// RUN: %npytool check %t "np.floor(s)" %t/out4.npy
// RUN: %npytool check %t "np.remainder(s, z)" %t/out5.npy
// RUN: %npytool check %t "np.floor_divide(s, z)" %t/out6.npy
// RUN: %npytool check %t "np.hypot(s, z)" %t/out7.npy
// RUN: %npytool check %t "np.copysign(z, s)" %t/out8.npy
// RUN: %npytool check %t "np.clip(s, -1.0, z)" %t/out9.npy
// RUN: stride-run %s --entry tiny --input %t/t.npy --output-dir %t
// RUN: %npytool check %t "np.expm1(t)" %t/out0.npy 0
// RUN: %npytool check %t "np.log1p(t)" %t/out1.npy 0
// RUN: stride-run %s --entry singles --input %t/xf.npy --input %t/yf.npy --output-dir %t
// RUN: %npytool check %t "np.sin(xf)" %t/out0.npy
// RUN: %npytool check %t "np.expm1(xf)" %t/out1.npy
// RUN: %npytool check %t "np.arctan2(xf, yf)" %t/out2.npy
// RUN: %npytool check %t "np.remainder(xf, yf)" %t/out3.npy
// RUN: %npytool check %t "np.floor_divide(xf, yf)" %t/out4.npy
// RUN: %npytool check %t "np.rint(xf * 4)" %t/out5.npy
// RUN: stride-run %s --entry integers --input %t/i.npy --input %t/j.npy --output-dir %t
// RUN: %npytool check %t "np.remainder(i, j)" %t/out0.npy
// RUN: %npytool check %t "np.floor_divide(i, j)" %t/out1.npy
// RUN: %npytool check %t "np.bitwise_and(i, j)" %t/out2.npy
// RUN: %npytool check %t "np.bitwise_or(i, j)" %t/out3.npy
// RUN: %npytool check %t "np.bitwise_xor(i, j)" %t/out4.npy
// RUN: %npytool check %t "np.invert(i)" %t/out5.npy
// RUN: %npytool check %t "np.left_shift(i, j)" %t/out6.npy
// RUN: %npytool check %t "np.right_shift(i, j)" %t/out7.npy
// RUN: %npytool check %t "np.sign(i)" %t/out8.npy
// RUN: %npytool check %t "np.square(i)" %t/out9.npy
// RUN: %npytool check %t "np.reciprocal(i)" %t/out10.npy
// RUN: %npytool check %t "np.clip(i, -5, j)" %t/out11.npy
// RUN: %npytool check %t "np.isnan(i)" %t/out12.npy
// RUN: %npytool check %t "np.isfinite(i)" %t/out13.npy
// RUN: stride-run %s --entry bools --input %t/b.npy --input %t/c.npy --output-dir %t
// RUN: %npytool check %t "np.logical_and(b, c)" %t/out0.npy
// RUN: %npytool check %t "np.logical_or(b, c)" %t/out1.npy
// RUN: %npytool check %t "np.logical_xor(b, c)" %t/out2.npy
// RUN: %npytool check %t "np.logical_not(b)" %t/out3.npy
// RUN: %npytool check %t "np.bitwise_and(b, c)" %t/out4.npy
// RUN: %npytool check %t "np.invert(b)" %t/out5.npy
// RUN: %npytool check %t "np.clip(b, c, True)" %t/out6.npy

// The unary float ops on values where each is defined (|x| < 1).
func.func @float_unary(%x: tensor<24xf64>) -> (tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>) {
  %r0 = stride.sin %x : tensor<24xf64> -> tensor<*xf64>
  %r1 = stride.cos %x : tensor<24xf64> -> tensor<*xf64>
  %r2 = stride.tan %x : tensor<24xf64> -> tensor<*xf64>
  %r3 = stride.arcsin %x : tensor<24xf64> -> tensor<*xf64>
  %r4 = stride.arccos %x : tensor<24xf64> -> tensor<*xf64>
  %r5 = stride.arctan %x : tensor<24xf64> -> tensor<*xf64>
  %r6 = stride.sinh %x : tensor<24xf64> -> tensor<*xf64>
  %r7 = stride.cosh %x : tensor<24xf64> -> tensor<*xf64>
  %r8 = stride.arcsinh %x : tensor<24xf64> -> tensor<*xf64>
  %r9 = stride.arctanh %x : tensor<24xf64> -> tensor<*xf64>
  %r10 = stride.exp2 %x : tensor<24xf64> -> tensor<*xf64>
  %r11 = stride.expm1 %x : tensor<24xf64> -> tensor<*xf64>
  %r12 = stride.log1p %x : tensor<24xf64> -> tensor<*xf64>
  %r13 = stride.floor %x : tensor<24xf64> -> tensor<*xf64>
  %r14 = stride.ceil %x : tensor<24xf64> -> tensor<*xf64>
  %r15 = stride.trunc %x : tensor<24xf64> -> tensor<*xf64>
  %r16 = stride.rint %x : tensor<24xf64> -> tensor<*xf64>
  %r17 = stride.sign %x : tensor<24xf64> -> tensor<*xf64>
  %r18 = stride.square %x : tensor<24xf64> -> tensor<*xf64>
  %r19 = stride.reciprocal %x : tensor<24xf64> -> tensor<*xf64>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19 : tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>
}

// Logarithms and arccosh where they are defined.
func.func @above_one(%p: tensor<24xf64>) -> (tensor<*xf64>, tensor<*xf64>, tensor<*xf64>) {
  %r0 = stride.log2 %p : tensor<24xf64> -> tensor<*xf64>
  %r1 = stride.log10 %p : tensor<24xf64> -> tensor<*xf64>
  %r2 = stride.arccosh %p : tensor<24xf64> -> tensor<*xf64>
  return %r0, %r1, %r2 : tensor<*xf64>, tensor<*xf64>, tensor<*xf64>
}

// Binary float ops, and clip with a scalar low and a tensor high bound.
func.func @float_binary(%x: tensor<24xf64>, %y: tensor<24xf64>) -> (tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>) {
  %r0 = stride.arctan2 %x, %y : tensor<24xf64>, tensor<24xf64> -> tensor<*xf64>
  %r1 = stride.hypot %x, %y : tensor<24xf64>, tensor<24xf64> -> tensor<*xf64>
  %r2 = stride.copysign %x, %y : tensor<24xf64>, tensor<24xf64> -> tensor<*xf64>
  %r3 = stride.remainder %x, %y : tensor<24xf64>, tensor<24xf64> -> tensor<*xf64>
  %r4 = stride.floor_divide %x, %y : tensor<24xf64>, tensor<24xf64> -> tensor<*xf64>
  %lo = arith.constant -0.5 : f64
  %r5 = stride.clip %x, %lo, %y : tensor<24xf64>, f64, tensor<24xf64> -> tensor<*xf64>
  return %r0, %r1, %r2, %r3, %r4, %r5 : tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>
}

// NaN, infinities, signed zeros and zero divisors follow NumPy.
func.func @special(%s: tensor<8xf64>, %z: tensor<8xf64>) -> (tensor<*xi1>, tensor<*xi1>, tensor<*xi1>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>) {
  %r0 = stride.isnan %s : tensor<8xf64> -> tensor<*xi1>
  %r1 = stride.isinf %s : tensor<8xf64> -> tensor<*xi1>
  %r2 = stride.isfinite %s : tensor<8xf64> -> tensor<*xi1>
  %r3 = stride.sign %s : tensor<8xf64> -> tensor<*xf64>
  %r4 = stride.floor %s : tensor<8xf64> -> tensor<*xf64>
  %r5 = stride.remainder %s, %z : tensor<8xf64>, tensor<8xf64> -> tensor<*xf64>
  %r6 = stride.floor_divide %s, %z : tensor<8xf64>, tensor<8xf64> -> tensor<*xf64>
  %r7 = stride.hypot %s, %z : tensor<8xf64>, tensor<8xf64> -> tensor<*xf64>
  %r8 = stride.copysign %z, %s : tensor<8xf64>, tensor<8xf64> -> tensor<*xf64>
  %m1 = arith.constant -1.0 : f64
  %r9 = stride.clip %s, %m1, %z : tensor<8xf64>, f64, tensor<8xf64> -> tensor<*xf64>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9 : tensor<*xi1>, tensor<*xi1>, tensor<*xi1>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>, tensor<*xf64>
}

// expm1 and log1p keep every digit near 0 (exp(x) - 1 would not).
func.func @tiny(%t: tensor<4xf64>) -> (tensor<*xf64>, tensor<*xf64>) {
  %r0 = stride.expm1 %t : tensor<4xf64> -> tensor<*xf64>
  %r1 = stride.log1p %t : tensor<4xf64> -> tensor<*xf64>
  return %r0, %r1 : tensor<*xf64>, tensor<*xf64>
}

// f32 computes in f32.
func.func @singles(%x: tensor<24xf32>, %y: tensor<24xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %r0 = stride.sin %x : tensor<24xf32> -> tensor<*xf32>
  %r1 = stride.expm1 %x : tensor<24xf32> -> tensor<*xf32>
  %r2 = stride.arctan2 %x, %y : tensor<24xf32>, tensor<24xf32> -> tensor<*xf32>
  %r3 = stride.remainder %x, %y : tensor<24xf32>, tensor<24xf32> -> tensor<*xf32>
  %r4 = stride.floor_divide %x, %y : tensor<24xf32>, tensor<24xf32> -> tensor<*xf32>
  %four = arith.constant 4.0 : f32
  %x4 = stride.mul %x, %four : tensor<24xf32>, f32 -> tensor<*xf32>
  %r5 = stride.rint %x4 : tensor<*xf32> -> tensor<*xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// Integer ops: NumPy's sign rules, divisors 0 and -1 (the most negative
// value included), shift amounts negative or past the width.
func.func @integers(%i: tensor<12xi32>, %j: tensor<12xi32>) -> (tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi1>, tensor<*xi1>) {
  %r0 = stride.remainder %i, %j : tensor<12xi32>, tensor<12xi32> -> tensor<*xi32>
  %r1 = stride.floor_divide %i, %j : tensor<12xi32>, tensor<12xi32> -> tensor<*xi32>
  %r2 = stride.bitwise_and %i, %j : tensor<12xi32>, tensor<12xi32> -> tensor<*xi32>
  %r3 = stride.bitwise_or %i, %j : tensor<12xi32>, tensor<12xi32> -> tensor<*xi32>
  %r4 = stride.bitwise_xor %i, %j : tensor<12xi32>, tensor<12xi32> -> tensor<*xi32>
  %r5 = stride.bitwise_not %i : tensor<12xi32> -> tensor<*xi32>
  %r6 = stride.left_shift %i, %j : tensor<12xi32>, tensor<12xi32> -> tensor<*xi32>
  %r7 = stride.right_shift %i, %j : tensor<12xi32>, tensor<12xi32> -> tensor<*xi32>
  %r8 = stride.sign %i : tensor<12xi32> -> tensor<*xi32>
  %r9 = stride.square %i : tensor<12xi32> -> tensor<*xi32>
  %r10 = stride.reciprocal %i : tensor<12xi32> -> tensor<*xi32>
  %m5 = arith.constant -5 : i32
  %r11 = stride.clip %i, %m5, %j : tensor<12xi32>, i32, tensor<12xi32> -> tensor<*xi32>
  %r12 = stride.isnan %i : tensor<12xi32> -> tensor<*xi1>
  %r13 = stride.isfinite %i : tensor<12xi32> -> tensor<*xi1>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13 : tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi1>, tensor<*xi1>
}

// Logical ops and bitwise ops on bools; clip orders false < true.
func.func @bools(%b: tensor<4xi1>, %c: tensor<4xi1>) -> (tensor<*xi1>, tensor<*xi1>, tensor<*xi1>, tensor<*xi1>, tensor<*xi1>, tensor<*xi1>, tensor<*xi1>) {
  %r0 = stride.logical_and %b, %c : tensor<4xi1>, tensor<4xi1> -> tensor<*xi1>
  %r1 = stride.logical_or %b, %c : tensor<4xi1>, tensor<4xi1> -> tensor<*xi1>
  %r2 = stride.logical_xor %b, %c : tensor<4xi1>, tensor<4xi1> -> tensor<*xi1>
  %r3 = stride.logical_not %b : tensor<4xi1> -> tensor<*xi1>
  %r4 = stride.bitwise_and %b, %c : tensor<4xi1>, tensor<4xi1> -> tensor<*xi1>
  %r5 = stride.bitwise_not %b : tensor<4xi1> -> tensor<*xi1>
  %true = arith.constant true
  %r6 = stride.clip %b, %c, %true : tensor<4xi1>, tensor<4xi1>, i1 -> tensor<*xi1>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : tensor<*xi1>, tensor<*xi1>, tensor<*xi1>, tensor<*xi1>, tensor<*xi1>, tensor<*xi1>, tensor<*xi1>
}