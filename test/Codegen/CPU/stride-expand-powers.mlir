// RUN: stride-opt %s --stride-expand-powers --split-input-file | FileCheck %s

// A float64 cube: one squaring and one product in double-double (each
// product's rounding error by an FMA), the sum of the parts, and a select
// that keeps the high part where it is zero, infinite or NaN. No
// math.powf remains.
// CHECK-LABEL: func.func @cube_f64
// CHECK-SAME:    (%[[X:.*]]: vector<8xf64>)
// CHECK-NOT:     math.powf
// CHECK:         %[[SQ:.*]] = arith.mulf %[[X]], %[[X]] : vector<8xf64>
// CHECK:         %[[NSQ:.*]] = arith.negf %[[SQ]]
// CHECK:         %[[SQL:.*]] = math.fma %[[X]], %[[X]], %[[NSQ]]
// CHECK:         %[[HI:.*]] = arith.mulf %[[X]], %[[SQ]]
// CHECK:         %[[CROSS:.*]] = arith.mulf %[[X]], %[[SQL]]
// CHECK:         %[[NHI:.*]] = arith.negf %[[HI]]
// CHECK:         %[[ERR:.*]] = math.fma %[[X]], %[[SQ]], %[[NHI]]
// CHECK:         %[[LO:.*]] = arith.addf %[[ERR]], %[[CROSS]]
// CHECK:         %[[SUM:.*]] = arith.addf %[[HI]], %[[LO]]
// CHECK:         %[[OK:.*]] = arith.andi
// CHECK:         %[[Y:.*]] = arith.select %[[OK]], %[[SUM]], %[[HI]]
// CHECK-NOT:     math.powf
// CHECK:         return %[[Y]]
func.func @cube_f64(%x: vector<8xf64>) -> vector<8xf64> {
  %c = arith.constant dense<3.0> : vector<8xf64>
  %y = math.powf %x, %c : vector<8xf64>
  return %y : vector<8xf64>
}

// -----

// A negative exponent powers the reciprocal, qh + ql with ql from the
// division's exact residual: two double-double squarings.
// CHECK-LABEL: func.func @inverse_fourth_f64
// CHECK-SAME:    (%[[X:.*]]: f64)
// CHECK-NOT:     math.powf
// CHECK:         %[[QH:.*]] = arith.divf %{{.*}}, %[[X]] : f64
// CHECK:         %[[NQ:.*]] = arith.negf %[[QH]]
// CHECK:         %[[RES:.*]] = math.fma %[[NQ]], %[[X]], %{{.*}} : f64
// CHECK:         %[[QL:.*]] = arith.mulf %[[RES]], %[[QH]] : f64
// CHECK:         %[[S1:.*]] = arith.mulf %[[QH]], %[[QH]] : f64
// CHECK:         %[[S2:.*]] = arith.mulf %[[S1]], %[[S1]] : f64
// CHECK:         arith.select %{{.*}}, %{{.*}}, %[[S2]] : f64
// CHECK-NOT:     math.powf
func.func @inverse_fourth_f64(%x: f64) -> f64 {
  %c = arith.constant -4.0 : f64
  %y = math.powf %x, %c : f64
  return %y : f64
}

// -----

// float32 powers are float64 products rounded once.
// CHECK-LABEL: func.func @inverse_square_f32
// CHECK:         %[[W:.*]] = arith.extf %{{.*}} : f32 to f64
// CHECK:         %[[SQ:.*]] = arith.mulf %[[W]], %[[W]] : f64
// CHECK:         %[[R:.*]] = arith.divf %{{.*}}, %[[SQ]] : f64
// CHECK:         arith.truncf %[[R]] : f64 to f32
// CHECK-NOT:     math.powf
func.func @inverse_square_f32(%x: f32) -> f32 {
  %c = arith.constant -2.0 : f32
  %y = math.powf %x, %c : f32
  return %y : f32
}

// -----

// x^0 is 1 for every x (NaN too), x^1 is x.
// CHECK-LABEL: func.func @zero_and_one
// CHECK-SAME:    (%[[X:.*]]: f64)
// CHECK:         %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK:         return %[[ONE]], %[[X]]
func.func @zero_and_one(%x: f64) -> (f64, f64) {
  %c0 = arith.constant 0.0 : f64
  %c1 = arith.constant 1.0 : f64
  %y = math.powf %x, %c0 : f64
  %z = math.powf %x, %c1 : f64
  return %y, %z : f64, f64
}

// -----

// Exponents that are not integral, past 64 in magnitude, or not constant
// keep math.powf, as do other element types.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-4: math.powf
func.func @kept(%x: f64, %e: f64, %h: f16) -> (f64, f64, f64, f16) {
  %half = arith.constant 2.5 : f64
  %big = arith.constant 65.0 : f64
  %c2 = arith.constant 2.0 : f16
  %a = math.powf %x, %half : f64
  %b = math.powf %x, %big : f64
  %c = math.powf %x, %e : f64
  %d = math.powf %h, %c2 : f16
  return %a, %b, %c, %d : f64, f64, f64, f16
}
