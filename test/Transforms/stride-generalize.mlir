// RUN: stride-opt %s --stride-generalize --split-input-file | FileCheck %s

// Float arithmetic becomes the matching arith op on one element per operand.
// CHECK-LABEL: func.func @float_binary
// CHECK-SAME: (%[[A:.*]]: tensor<4x3xf32>, %[[B:.*]]: tensor<3xf32>)
// CHECK: %[[R:.*]] = stride.broadcast ins(%[[A]], %[[B]] : tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32> {
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT: stride.yield %[[S]] : f32
// CHECK: return %[[R]]
// CHECK-NOT: stride.add
func.func @float_binary(%a: tensor<4x3xf32>, %b: tensor<3xf32>) -> tensor<4x3xf32> {
  %0 = stride.add %a, %b : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// Integer ops pick the signed integer forms; integer neg is 0 - x. Integer
// div never reaches sdiv's undefined cases: a divisor 0 or MIN / -1 divides
// by 1, and a divisor 0 yields 0.
// CHECK-LABEL: func.func @integer
// CHECK: arith.constant 0 : i32
// CHECK-NEXT: arith.subi
// CHECK: ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: i32):
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK-DAG: %[[BYZERO:.*]] = arith.cmpi eq, %[[Y]], %[[ZERO]]
// CHECK-DAG: %[[ISMIN:.*]] = arith.cmpi eq, %[[X]], %[[MIN]]
// CHECK: %[[SPECIAL:.*]] = arith.ori %[[BYZERO]],
// CHECK: %[[D:.*]] = arith.select %[[SPECIAL]], %[[ONE]], %[[Y]]
// CHECK: %[[Q:.*]] = arith.divsi %[[X]], %[[D]]
// CHECK: arith.select %[[BYZERO]], %[[ZERO]], %[[Q]]
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: math.ipowi
// CHECK: arith.cmpi slt
// CHECK-NEXT: arith.subi
// CHECK-NEXT: arith.select
// CHECK-NOT: math.absi
func.func @integer(%i: tensor<3xi32>) {
  %0 = stride.neg %i : tensor<3xi32> -> tensor<3xi32>
  %1 = stride.div %i, %i : tensor<3xi32>, tensor<3xi32> -> tensor<3xi32>
  %2 = stride.maximum %i, %i : tensor<3xi32>, tensor<3xi32> -> tensor<3xi32>
  %3 = stride.minimum %i, %i : tensor<3xi32>, tensor<3xi32> -> tensor<3xi32>
  %4 = stride.pow %i, %i : tensor<3xi32>, tensor<3xi32> -> tensor<3xi32>
  %5 = stride.abs %i : tensor<3xi32> -> tensor<3xi32>
  return
}

// -----

// Float maximum/minimum propagate NaN and, as NumPy, give the second
// operand on a tie (-0 against +0), which IEEE maximumf would not;
// transcendental functions use math.
// CHECK-LABEL: func.func @float_unary
// CHECK: ^bb0(%[[X:.*]]: f64, %[[Y:.*]]: f64):
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]]
// CHECK: %[[GT:.*]] = arith.cmpf ogt, %[[X]], %[[Y]]
// CHECK: %[[KEEP:.*]] = arith.ori %[[NAN]], %[[GT]]
// CHECK: arith.select %[[KEEP]], %[[X]], %[[Y]]
// CHECK: arith.cmpf olt
// CHECK-NOT: arith.maximumf
// CHECK-NOT: arith.minimumf
// CHECK: math.powf
// CHECK: math.exp
// CHECK: math.log
// CHECK: math.sqrt
// CHECK: math.tanh
// CHECK: math.absf
// CHECK: arith.negf
func.func @float_unary(%a: tensor<5xf64>) {
  %0 = stride.maximum %a, %a : tensor<5xf64>, tensor<5xf64> -> tensor<5xf64>
  %1 = stride.minimum %a, %a : tensor<5xf64>, tensor<5xf64> -> tensor<5xf64>
  %2 = stride.pow %a, %a : tensor<5xf64>, tensor<5xf64> -> tensor<5xf64>
  %3 = stride.exp %a : tensor<5xf64> -> tensor<5xf64>
  %4 = stride.log %a : tensor<5xf64> -> tensor<5xf64>
  %5 = stride.sqrt %a : tensor<5xf64> -> tensor<5xf64>
  %6 = stride.tanh %a : tensor<5xf64> -> tensor<5xf64>
  %7 = stride.abs %a : tensor<5xf64> -> tensor<5xf64>
  %8 = stride.neg %a : tensor<5xf64> -> tensor<5xf64>
  return
}

// -----

// sigmoid is 1 / (1 + exp(-x)).
// CHECK-LABEL: func.func @sigmoid
// CHECK: ^bb0(%[[X:.*]]: f32):
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[X]]
// CHECK-NEXT: %[[E:.*]] = math.exp %[[N]]
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[D:.*]] = arith.addf %[[ONE]], %[[E]]
// CHECK-NEXT: %[[R:.*]] = arith.divf %[[ONE]], %[[D]]
// CHECK-NEXT: stride.yield %[[R]]
func.func @sigmoid(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stride.sigmoid %a : tensor<2xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Float comparisons are ordered except ne; bool comparisons are unsigned.
// CHECK-LABEL: func.func @compare
// CHECK: arith.cmpf ole
// CHECK: arith.cmpf une
// CHECK: arith.cmpi slt
// CHECK: arith.cmpi ugt
func.func @compare(%a: tensor<3xf32>, %i: tensor<3xi32>, %c: tensor<3xi1>) {
  %0 = stride.cmp le, %a, %a : tensor<3xf32>, tensor<3xf32> -> tensor<3xi1>
  %1 = stride.cmp ne, %a, %a : tensor<3xf32>, tensor<3xf32> -> tensor<3xi1>
  %2 = stride.cmp lt, %i, %i : tensor<3xi32>, tensor<3xi32> -> tensor<3xi1>
  %3 = stride.cmp gt, %c, %c : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
  return
}

// -----

// select keeps a scalar operand in any position.
// CHECK-LABEL: func.func @select_scalar
// CHECK: stride.broadcast ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3xi1>, f32, tensor<3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: ^bb0(%[[C:.*]]: i1, %[[T:.*]]: f32, %[[F:.*]]: f32):
// CHECK-NEXT: arith.select %[[C]], %[[T]], %[[F]] : f32
func.func @select_scalar(%c: tensor<4x3xi1>, %s: f32, %b: tensor<3xf32>) {
  %0 = stride.select %c, %s, %b : tensor<4x3xi1>, f32, tensor<3xf32> -> tensor<4x3xf32>
  return
}

// -----

// Casts: bool to float is unsigned, float to bool tests nonzero, integers
// widen by sign and narrow by truncation, floats extend or truncate.
// CHECK-LABEL: func.func @casts
// CHECK: arith.uitofp %{{.*}} : i1 to f32
// CHECK: arith.cmpf une
// CHECK: arith.sitofp %{{.*}} : i32 to f64
// CHECK: arith.fptosi %{{.*}} : f32 to i64
// CHECK: arith.extsi %{{.*}} : i32 to i64
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: arith.cmpi ne
func.func @casts(%b: tensor<3xi1>, %f: tensor<3xf32>, %i: tensor<3xi32>) {
  %0 = stride.cast %b : tensor<3xi1> -> tensor<3xf32>
  %1 = stride.cast %f : tensor<3xf32> -> tensor<3xi1>
  %2 = stride.cast %i : tensor<3xi32> -> tensor<3xf64>
  %3 = stride.cast %f : tensor<3xf32> -> tensor<3xi64>
  %4 = stride.cast %i : tensor<3xi32> -> tensor<3xi64>
  %5 = stride.cast %i : tensor<3xi32> -> tensor<3xi8>
  %6 = stride.cast %f : tensor<3xf32> -> tensor<3xf64>
  %7 = stride.cast %f : tensor<3xf32> -> tensor<3xf16>
  %8 = stride.cast %i : tensor<3xi32> -> tensor<3xi1>
  return
}

// -----

// Existing stride.broadcast and matmul ops are left alone; unranked result
// types are kept as declared.
// CHECK-LABEL: func.func @untouched
// CHECK: stride.matmul
// CHECK: stride.broadcast ins(%{{.*}} : tensor<2x3xf32>) -> tensor<*xf32>
// CHECK: math.exp
func.func @untouched(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) {
  %0 = stride.matmul %a, %b : tensor<2x3xf32>, tensor<3x2xf32> -> tensor<2x2xf32>
  %1 = stride.exp %a : tensor<2x3xf32> -> tensor<*xf32>
  return
}

// -----

// The NumPy op set: one math op where the math dialect has it, NumPy's
// integer rules spelled out in arith (no floordivsi, no raw shifts, whose
// out-of-range cases are undefined; int32 floor division as the floor of a
// float64 product), predicates as compares.
// CHECK-LABEL: func.func @numpy_ops
// CHECK: math.sin
// CHECK: math.atan2
// CHECK: math.roundeven
// CHECK: math.log1p
// CHECK: arith.cmpf uno
// CHECK: arith.sitofp %{{.*}} : i32 to f64
// CHECK: math.floor
// CHECK: arith.fptosi %{{.*}} : f64 to i32
// CHECK: arith.select
// CHECK: arith.cmpi uge
// CHECK: arith.shli
// CHECK: arith.andi
// CHECK: arith.xori
// CHECK: arith.maxsi
// CHECK-NEXT: arith.minsi
// CHECK-NOT: stride.{{(sin|arctan2|rint|log1p|isnan|floor_divide|left_shift|logical_and|logical_not|clip) }}
func.func @numpy_ops(%x: tensor<5xf64>, %i: tensor<5xi32>, %b: tensor<5xi1>) {
  %0 = stride.sin %x : tensor<5xf64> -> tensor<5xf64>
  %1 = stride.arctan2 %x, %x : tensor<5xf64>, tensor<5xf64> -> tensor<5xf64>
  %2 = stride.rint %x : tensor<5xf64> -> tensor<5xf64>
  %3 = stride.log1p %x : tensor<5xf64> -> tensor<5xf64>
  %4 = stride.isnan %x : tensor<5xf64> -> tensor<5xi1>
  %5 = stride.floor_divide %i, %i : tensor<5xi32>, tensor<5xi32> -> tensor<5xi32>
  %6 = stride.left_shift %i, %i : tensor<5xi32>, tensor<5xi32> -> tensor<5xi32>
  %7 = stride.logical_and %b, %b : tensor<5xi1>, tensor<5xi1> -> tensor<5xi1>
  %8 = stride.logical_not %b : tensor<5xi1> -> tensor<5xi1>
  %9 = stride.clip %i, %i, %i : tensor<5xi32>, tensor<5xi32>, tensor<5xi32> -> tensor<5xi32>
  return
}

// -----

// int16 (and int8) floor division and remainder take the floor of a float32
// product, twice the lanes of float64's; int64 keeps the truncating division
// moved to the floor.
// CHECK-LABEL: func.func @narrow_floor_division
// CHECK: arith.sitofp %{{.*}} : i16 to f32
// CHECK: math.floor %{{.*}} : f32
// CHECK: arith.fptosi %{{.*}} : f32 to i16
// CHECK: arith.divsi %{{.*}} : i64
// CHECK: arith.remsi %{{.*}} : i64
func.func @narrow_floor_division(%s: tensor<5xi16>, %l: tensor<5xi64>) {
  %0 = stride.remainder %s, %s : tensor<5xi16>, tensor<5xi16> -> tensor<5xi16>
  %1 = stride.floor_divide %l, %l : tensor<5xi64>, tensor<5xi64> -> tensor<5xi64>
  return
}
