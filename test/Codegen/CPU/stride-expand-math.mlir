// RUN: stride-opt %s --stride-expand-math --split-input-file | FileCheck %s

// A float64 vector exp becomes the inline evaluation: the clamp, the
// reduction by ln 2 in two FMAs, the degree-9 Horner polynomial, the two
// powers of two built in the exponent bits, and NaN passed through. No
// math.exp remains.
// CHECK-LABEL: func.func @exp_vector
// CHECK-SAME:    (%[[X:.*]]: vector<8xf64>)
// CHECK-NOT:     math.exp
// CHECK:         %[[LOW:.*]] = arith.maxnumf %[[X]], %{{.*}} : vector<8xf64>
// CHECK:         %[[C:.*]] = arith.minnumf %[[LOW]], %{{.*}} : vector<8xf64>
// CHECK:         %[[S:.*]] = arith.mulf %[[C]], %{{.*}} : vector<8xf64>
// CHECK:         %[[K:.*]] = math.roundeven %[[S]] : vector<8xf64>
// CHECK:         %[[NK:.*]] = arith.negf %[[K]] : vector<8xf64>
// CHECK:         %[[R0:.*]] = math.fma %[[NK]], %{{.*}}, %[[C]] : vector<8xf64>
// CHECK:         %[[R:.*]] = math.fma %[[NK]], %{{.*}}, %[[R0]] : vector<8xf64>
// CHECK-COUNT-9: math.fma %{{.*}}, %[[R]], %{{.*}} : vector<8xf64>
// CHECK:         %[[KB:.*]] = arith.bitcast %{{.*}} : vector<8xf64> to vector<8xi64>
// CHECK:         %[[K1:.*]] = arith.shrsi %{{.*}}, %{{.*}} : vector<8xi64>
// CHECK:         %[[P1:.*]] = arith.shli %{{.*}}, %{{.*}} : vector<8xi64>
// CHECK:         arith.bitcast %[[P1]] : vector<8xi64> to vector<8xf64>
// CHECK:         %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : vector<8xf64>
// CHECK:         %[[Y:.*]] = arith.select %[[NAN]], %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xf64>
// CHECK-NOT:     math.exp
// CHECK:         return %[[Y]]
func.func @exp_vector(%x: vector<8xf64>) -> vector<8xf64> {
  %y = math.exp %x : vector<8xf64>
  return %y : vector<8xf64>
}

// -----

// A scalar float64 exp (the loops LLVM's vectorizer widens) is expanded
// the same way, with scalar constants.
// CHECK-LABEL: func.func @exp_scalar
// CHECK-NOT:     math.exp
// CHECK:         math.roundeven %{{.*}} : f64
// CHECK:         arith.shrsi %{{.*}}, %{{.*}} : i64
// CHECK:         arith.select %{{.*}}, %{{.*}}, %{{.*}} : f64
func.func @exp_scalar(%x: f64) -> f64 {
  %y = math.exp %x : f64
  return %y : f64
}

// -----

// float32 exp (libmvec's variants are as fast as NumPy's) and every other
// function are left to the vector library.
// CHECK-LABEL: func.func @others
// CHECK:         math.exp %{{.*}} : vector<16xf32>
// CHECK:         math.log %{{.*}} : vector<8xf64>
// CHECK-NOT:     math.roundeven
func.func @others(%a: vector<16xf32>, %b: vector<8xf64>) -> (vector<16xf32>, vector<8xf64>) {
  %y = math.exp %a : vector<16xf32>
  %z = math.log %b : vector<8xf64>
  return %y, %z : vector<16xf32>, vector<8xf64>
}
