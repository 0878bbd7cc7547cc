// Loops of int64 and int32 division by a divisor that changes along the
// loop divide through float64 on AVX-512 hosts (the kernel optimizer calls
// Stride's own sdiv, whose vector variant converts, divides and truncates,
// with a cold scalar fallback for int64 lanes at or beyond 2^53; every
// call is inlined): no idiv per lane. Other hosts keep the vectorizer's
// scalarized sdiv. A constant int64 divisor that is not a power of two
// takes its magic number's multiply-high, in 32-bit halves whose products
// vectorize (7: 0x4924924924924925, halves 613566757 and 1227133513); a
// power of two stays shifts. A divisor the loop holds fixed but only the
// run knows (a scalar argument) gets its magic number once, before the
// loop (stride_vm_sdiv_magic_i64, inlined: its ctlz); each vector then
// divides in float64 where every lane is below 2^53 and by the magic
// number's multiply-high (the number's broadcast halves) where one is not
// (stride_vm_sdiv_by_i64x8, inlined).
// RUN: stride-compile %s --emit=llvm | FileCheck %s

// CHECK-LABEL: define {{.*}} @stride_divide(
// CHECK: {{fdiv <8 x double>|sdiv i64}}
// CHECK: {{fdiv <16 x double>|sdiv i32}}
// CHECK-NOT: call {{.*}} @stride_vm_sdiv
// CHECK-LABEL: define {{.*}} @stride_by_constants(
// CHECK: {{mul nuw nsw <8 x i64> %.*, splat \(i64 613566757\)|sdiv i64}}
// CHECK-NOT: call {{.*}} @stride_vm_sdiv
// CHECK-NOT: fdiv
// CHECK: ret void
func.func @divide(%x: tensor<4099xi64>, %y: tensor<4099xi64>,
                  %u: tensor<4099xi32>, %v: tensor<4099xi32>)
    -> (tensor<*xi64>, tensor<*xi32>) {
  %0 = stride.floor_divide %x, %y : tensor<4099xi64>, tensor<4099xi64> -> tensor<*xi64>
  %1 = stride.remainder %u, %v : tensor<4099xi32>, tensor<4099xi32> -> tensor<*xi32>
  return %0, %1 : tensor<*xi64>, tensor<*xi32>
}

func.func @by_constants(%x: tensor<4099xi64>) -> (tensor<*xi64>, tensor<*xi64>) {
  %c7 = arith.constant 7 : i64
  %c8 = arith.constant 8 : i64
  %0 = stride.floor_divide %x, %c7 : tensor<4099xi64>, i64 -> tensor<*xi64>
  %1 = stride.floor_divide %x, %c8 : tensor<4099xi64>, i64 -> tensor<*xi64>
  return %0, %1 : tensor<*xi64>, tensor<*xi64>
}

// CHECK-LABEL: define {{.*}} @stride_by_argument(
// CHECK: {{@llvm.ctlz.i64|sdiv i64}}
// CHECK: {{mul nuw <8 x i64> %.*, %broadcast.splat|sdiv i64}}
// CHECK-NOT: call {{.*}} @stride_vm_sdiv
// CHECK-NOT: fdiv
// CHECK: ret void
func.func @by_argument(%x: tensor<4099xi64>, %k: i64) -> tensor<*xi64> {
  %0 = stride.floor_divide %x, %k : tensor<4099xi64>, i64 -> tensor<*xi64>
  return %0 : tensor<*xi64>
}
