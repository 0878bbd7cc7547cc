//===- ScalarBodies.h - Scalar computations of the named ops ---*- C++ -*-===//
//
// The scalar bodies that the `scalarBody` fields in StrideOps.td call when
// one arith/math op is not enough: NumPy's rules for integer division,
// shifts, signs and the like, spelled out in arith so that every backend
// gets the same answers.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_LIB_DIALECT_STRIDE_IR_SCALARBODIES_H
#define STRIDE_LIB_DIALECT_STRIDE_IR_SCALARBODIES_H

#include "stride/Dialect/Stride/IR/StrideAttrs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace mlir::stride {

/// `x` as the signless integer of its width when it is unsigned (ui8 ...
/// ui64), else `x` itself. arith computes on signless integers only: a body
/// casts its unsigned operands (builtin.unrealized_conversion_cast, an
/// identity once stride-signless-integers has made every type signless),
/// picks the unsigned ops by the original type, and casts its result back.
Value toSignless(OpBuilder &b, Location loc, Value x);
/// `x`, a signless integer, as `type` when that is unsigned; else `x`.
Value fromSignless(OpBuilder &b, Location loc, Value x, Type type);

/// IntOp on all of `s` (integers, unsigned ones as their signless bits):
/// for the ops whose result does not depend on the signedness.
template <typename IntOp>
Value buildInt(OpBuilder &b, Location loc, ValueRange s) {
  SmallVector<Value> operands;
  for (Value v : s)
    operands.push_back(toSignless(b, loc, v));
  Value r = IntOp::create(b, loc, operands)->getResult(0);
  return fromSignless(b, loc, r, s[0].getType());
}

/// FloatOp for float operands and IntOp otherwise, on all of `s`.
template <typename FloatOp, typename IntOp>
Value buildFloatOrInt(OpBuilder &b, Location loc, ValueRange s) {
  if (isa<FloatType>(s[0].getType()))
    return FloatOp::create(b, loc, s)->getResult(0);
  return buildInt<IntOp>(b, loc, s);
}

/// Like buildFloatOrInt, with BoolOp for i1 operands: NumPy's bool + and *
/// are or and and, which i1 addi and muli (xor, and) would not all give.
template <typename FloatOp, typename IntOp, typename BoolOp>
Value buildArith(OpBuilder &b, Location loc, ValueRange s) {
  if (s[0].getType().isInteger(1))
    return BoolOp::create(b, loc, s)->getResult(0);
  return buildFloatOrInt<FloatOp, IntOp>(b, loc, s);
}

enum class FloatClass { NaN, Infinite, Finite };

Value buildNegate(OpBuilder &b, Location loc, Value x);
/// |x|: math.absf for floats; for integers `x < 0 ? 0 - x : x` (MIN wraps to
/// itself, as NumPy), in arith so that n-D vectors of it lower to LLVM
/// (math.absi's lowering takes 1-D vectors only); i1 is the identity.
Value buildAbs(OpBuilder &b, Location loc, Value x);
Value buildSigmoid(OpBuilder &b, Location loc, Value x);
Value buildCast(OpBuilder &b, Location loc, Value x, Type to);
Value buildCompare(OpBuilder &b, Location loc, CmpPredicate pred, Value lhs,
                   Value rhs);
Value buildSign(OpBuilder &b, Location loc, Value x);
Value buildReciprocal(OpBuilder &b, Location loc, Value x);
Value buildHypot(OpBuilder &b, Location loc, Value x, Value y);
Value buildFloatClass(OpBuilder &b, Location loc, Value x, FloatClass what);
/// NumPy's floor_divide (`quotient`) or remainder.
Value buildFloorDivMod(OpBuilder &b, Location loc, Value x, Value y,
                       bool quotient);
/// NumPy's fmod: the truncating remainder (floats: arith.remf, C's fmod).
Value buildFmod(OpBuilder &b, Location loc, Value x, Value y);
Value buildNot(OpBuilder &b, Location loc, Value x);
Value buildShift(OpBuilder &b, Location loc, Value x, Value amount, bool left);
Value buildClip(OpBuilder &b, Location loc, Value x, Value low, Value high);
/// stride.div: IEEE division for floats; for integers the truncating
/// quotient, with x / 0 = 0 and MIN / -1 = MIN (wrapped), never UB.
Value buildDivide(OpBuilder &b, Location loc, Value x, Value y);
/// NumPy's maximum (`max`) or minimum: NaN in either operand propagates, and
/// a tie (-0 against +0) gives the second operand, as NumPy's loops do.
Value buildMaxMin(OpBuilder &b, Location loc, Value x, Value y, bool max);
/// NumPy's power: math.powf for floats, math.ipowi for integers (unsigned
/// ones narrower than 64 bits in i64, so that an exponent of 128 or more is
/// not read as negative; the product's low bits are the same).
Value buildPower(OpBuilder &b, Location loc, Value x, Value y);

} // namespace mlir::stride

#endif // STRIDE_LIB_DIALECT_STRIDE_IR_SCALARBODIES_H
