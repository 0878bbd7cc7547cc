// RUN: stride-opt %s --stride-expm1-to-libm --split-input-file | FileCheck %s

// Scalar expm1 of both float types becomes libm's expm1 and expm1f; other
// math ops stay for convert-math-to-llvm.
// CHECK-DAG:   func.func private @expm1(f64) -> f64
// CHECK-DAG:   func.func private @expm1f(f32) -> f32
// CHECK-LABEL: func.func @scalars
// CHECK-SAME:    (%[[X:.*]]: f64, %[[Y:.*]]: f32)
// CHECK:         %[[A:.*]] = call @expm1(%[[X]]) : (f64) -> f64
// CHECK:         %[[B:.*]] = call @expm1f(%[[Y]]) : (f32) -> f32
// CHECK:         %[[C:.*]] = math.exp %[[X]] : f64
// CHECK-NOT:     math.expm1
// CHECK:         return %[[A]], %[[B]], %[[C]]
func.func @scalars(%x: f64, %y: f32) -> (f64, f32, f64) {
  %a = math.expm1 %x : f64
  %b = math.expm1 %y : f32
  %c = math.exp %x : f64
  return %a, %b, %c : f64, f32, f64
}

// -----

// A vector expm1 is called lane by lane.
// CHECK-LABEL: func.func @vector
// CHECK-COUNT-2: call @expm1(%{{.*}}) : (f64) -> f64
// CHECK-NOT:     math.expm1
func.func @vector(%x: vector<2xf64>) -> vector<2xf64> {
  %a = math.expm1 %x : vector<2xf64>
  return %a : vector<2xf64>
}
