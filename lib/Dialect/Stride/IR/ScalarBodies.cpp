//===- ScalarBodies.cpp - Scalar computations of the named ops ------------===//

#include "ScalarBodies.h"

using namespace mlir;
using namespace mlir::stride;

namespace {
Value constantFloat(OpBuilder &b, Location loc, Type type, double v) {
  return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, v));
}

Value constantInt(OpBuilder &b, Location loc, Type type, int64_t v) {
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, v));
}

Value cmpf(OpBuilder &b, Location loc, arith::CmpFPredicate p, Value x,
           Value y) {
  return arith::CmpFOp::create(b, loc, p, x, y);
}

Value cmpi(OpBuilder &b, Location loc, arith::CmpIPredicate p, Value x,
           Value y) {
  return arith::CmpIOp::create(b, loc, p, x, y);
}

Value select(OpBuilder &b, Location loc, Value c, Value t, Value f) {
  return arith::SelectOp::create(b, loc, c, t, f);
}

/// Booleans and unsigned integers order and widen without a sign.
bool isUnsignedOrBool(Type t) {
  return t.isUnsignedInteger() || t.isInteger(1);
}

/// The float type in which integer division of `width`-bit integers runs
/// (buildFloorDivMod): float32 up to 16 bits, float64 above.
Type quotientFloatType(OpBuilder &b, unsigned width) {
  return width <= 16 ? Type(b.getF32Type()) : Type(b.getF64Type());
}

/// The signless integer `v` in float type `ft`, read unsigned or signed.
Value integerToFloat(OpBuilder &b, Location loc, Type ft, Value v,
                     bool isUnsigned) {
  return isUnsigned ? arith::UIToFPOp::create(b, loc, ft, v).getResult()
                    : arith::SIToFPOp::create(b, loc, ft, v).getResult();
}

/// The float `f` moved by `ulps` units in the last place: away from zero
/// for a positive count (its bits, as an integer, plus `ulps`).
Value moveUlps(OpBuilder &b, Location loc, Value f, int64_t ulps) {
  Type ft = f.getType();
  Type it = b.getIntegerType(ft.getIntOrFloatBitWidth());
  Value bits =
      arith::AddIOp::create(b, loc, arith::BitcastOp::create(b, loc, it, f),
                            constantInt(b, loc, it, ulps));
  return arith::BitcastOp::create(b, loc, ft, bits);
}

/// 1 / `yf` rounded, in `yf`'s float type.
Value reciprocal(OpBuilder &b, Location loc, Value yf) {
  return arith::DivFOp::create(b, loc, constantFloat(b, loc, yf.getType(), 1.0),
                               yf);
}
} // namespace

Value mlir::stride::toSignless(OpBuilder &b, Location loc, Value x) {
  auto type = dyn_cast<IntegerType>(x.getType());
  if (!type || type.isSignless())
    return x;
  Type signless = IntegerType::get(b.getContext(), type.getWidth());
  return UnrealizedConversionCastOp::create(b, loc, signless, x).getResult(0);
}

Value mlir::stride::fromSignless(OpBuilder &b, Location loc, Value x,
                                 Type type) {
  if (x.getType() == type || !type.isUnsignedInteger() ||
      x.getType().getIntOrFloatBitWidth() != type.getIntOrFloatBitWidth())
    return x;
  return UnrealizedConversionCastOp::create(b, loc, type, x).getResult(0);
}

Value mlir::stride::buildNegate(OpBuilder &b, Location loc, Value x) {
  Type type = x.getType();
  if (isa<FloatType>(type))
    return arith::NegFOp::create(b, loc, x);
  // Unsigned values wrap (NumPy's negative of uint8 1 is 255).
  x = toSignless(b, loc, x);
  Value r =
      arith::SubIOp::create(b, loc, constantInt(b, loc, x.getType(), 0), x);
  return fromSignless(b, loc, r, type);
}

Value mlir::stride::buildSigmoid(OpBuilder &b, Location loc, Value x) {
  Value negated = arith::NegFOp::create(b, loc, x);
  Value e = math::ExpOp::create(b, loc, negated);
  Value one = constantFloat(b, loc, x.getType(), 1.0);
  Value denom = arith::AddFOp::create(b, loc, one, e);
  return arith::DivFOp::create(b, loc, one, denom);
}

Value mlir::stride::buildCast(OpBuilder &b, Location loc, Value x, Type to) {
  Type from = x.getType();
  if (from == to)
    return x;
  bool fromUnsigned = isUnsignedOrBool(from);
  x = toSignless(b, loc, x);
  Type target = to;
  if (to.isUnsignedInteger())
    target = IntegerType::get(b.getContext(), to.getIntOrFloatBitWidth());
  auto zeroOf = [&](Type t) {
    return arith::ConstantOp::create(b, loc, t, b.getZeroAttr(t)).getResult();
  };
  Value r;
  if (to.isInteger(1)) {
    // Conversion to bool is a test for nonzero, as in NumPy.
    if (isa<FloatType>(from))
      return cmpf(b, loc, arith::CmpFPredicate::UNE, x, zeroOf(from));
    return cmpi(b, loc, arith::CmpIPredicate::ne, x, zeroOf(x.getType()));
  }
  if (auto toFloat = dyn_cast<FloatType>(to)) {
    if (auto fromFloat = dyn_cast<FloatType>(from)) {
      if (fromFloat.getWidth() < toFloat.getWidth())
        return arith::ExtFOp::create(b, loc, to, x);
      return arith::TruncFOp::create(b, loc, to, x);
    }
    // i1 is unsigned: true converts to 1, not -1.
    if (fromUnsigned)
      return arith::UIToFPOp::create(b, loc, to, x);
    return arith::SIToFPOp::create(b, loc, to, x);
  }
  if (isa<FloatType>(from)) {
    r = to.isUnsignedInteger()
            ? arith::FPToUIOp::create(b, loc, target, x).getResult()
            : arith::FPToSIOp::create(b, loc, target, x).getResult();
    return fromSignless(b, loc, r, to);
  }
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (fromWidth < toWidth)
    r = fromUnsigned ? arith::ExtUIOp::create(b, loc, target, x).getResult()
                     : arith::ExtSIOp::create(b, loc, target, x).getResult();
  else if (fromWidth > toWidth)
    r = arith::TruncIOp::create(b, loc, target, x);
  else
    r = x; // int8 <-> uint8: the same bits.
  return fromSignless(b, loc, r, to);
}

Value mlir::stride::buildCompare(OpBuilder &b, Location loc, CmpPredicate pred,
                                 Value lhs, Value rhs) {
  if (isa<FloatType>(lhs.getType())) {
    // Ordered predicates make every comparison with NaN false, except `ne`,
    // which is true, as in IEEE 754 and NumPy.
    arith::CmpFPredicate p = arith::CmpFPredicate::OEQ;
    switch (pred) {
    case CmpPredicate::eq: p = arith::CmpFPredicate::OEQ; break;
    case CmpPredicate::ne: p = arith::CmpFPredicate::UNE; break;
    case CmpPredicate::lt: p = arith::CmpFPredicate::OLT; break;
    case CmpPredicate::le: p = arith::CmpFPredicate::OLE; break;
    case CmpPredicate::gt: p = arith::CmpFPredicate::OGT; break;
    case CmpPredicate::ge: p = arith::CmpFPredicate::OGE; break;
    }
    return cmpf(b, loc, p, lhs, rhs);
  }
  // Booleans order false < true, so i1 compares unsigned, as unsigned
  // integers do.
  bool isBool = isUnsignedOrBool(lhs.getType());
  lhs = toSignless(b, loc, lhs);
  rhs = toSignless(b, loc, rhs);
  arith::CmpIPredicate p = arith::CmpIPredicate::eq;
  switch (pred) {
  case CmpPredicate::eq: p = arith::CmpIPredicate::eq; break;
  case CmpPredicate::ne: p = arith::CmpIPredicate::ne; break;
  case CmpPredicate::lt:
    p = isBool ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt; break;
  case CmpPredicate::le:
    p = isBool ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle; break;
  case CmpPredicate::gt:
    p = isBool ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt; break;
  case CmpPredicate::ge:
    p = isBool ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge; break;
  }
  return cmpi(b, loc, p, lhs, rhs);
}

// NumPy: -1, 0 or 1 for integers; for floats also NaN for NaN, and +0 for
// either zero.
Value mlir::stride::buildSign(OpBuilder &b, Location loc, Value x) {
  Type t = x.getType();
  if (isa<FloatType>(t)) {
    Value zero = constantFloat(b, loc, t, 0.0);
    Value r = select(b, loc, cmpf(b, loc, arith::CmpFPredicate::OEQ, x, zero),
                     zero, x);
    r = select(b, loc, cmpf(b, loc, arith::CmpFPredicate::OLT, x, zero),
               constantFloat(b, loc, t, -1.0), r);
    return select(b, loc, cmpf(b, loc, arith::CmpFPredicate::OGT, x, zero),
                  constantFloat(b, loc, t, 1.0), r);
  }
  x = toSignless(b, loc, x);
  Type bits = x.getType();
  Value zero = constantInt(b, loc, bits, 0);
  Value one = constantInt(b, loc, bits, 1);
  if (t.isUnsignedInteger())
    return fromSignless(b, loc,
                        select(b, loc,
                               cmpi(b, loc, arith::CmpIPredicate::ne, x, zero),
                               one, zero),
                        t);
  Value r = select(b, loc, cmpi(b, loc, arith::CmpIPredicate::slt, x, zero),
                   constantInt(b, loc, bits, -1), zero);
  return select(b, loc, cmpi(b, loc, arith::CmpIPredicate::sgt, x, zero), one,
                r);
}

// NumPy computes an integer reciprocal as 1.0 / x converted back, so 1 / 0
// is the x86 conversion of infinity: the most negative int32 or int64, and
// for int8 and int16 that int32 truncated, 0; for unsigned integers 0.
Value mlir::stride::buildReciprocal(OpBuilder &b, Location loc, Value x) {
  Type type = x.getType();
  if (isa<FloatType>(type))
    return arith::DivFOp::create(b, loc, constantFloat(b, loc, type, 1.0), x);
  x = toSignless(b, loc, x);
  Type t = x.getType();
  unsigned width = t.getIntOrFloatBitWidth();
  if (type.isUnsignedInteger()) {
    // 1 / x is 1 for x = 1 and 0 for every other x, 0 included.
    Value one = constantInt(b, loc, t, 1);
    Value isOne = cmpi(b, loc, arith::CmpIPredicate::eq, x, one);
    return fromSignless(
        b, loc, select(b, loc, isOne, one, constantInt(b, loc, t, 0)), type);
  }
  Value zero = constantInt(b, loc, t, 0);
  Value one = constantInt(b, loc, t, 1);
  Value isZero = cmpi(b, loc, arith::CmpIPredicate::eq, x, zero);
  Value divisor = select(b, loc, isZero, one, x);
  Value q = arith::DivSIOp::create(b, loc, one, divisor);
  Value ofZero = arith::ConstantOp::create(
      b, loc, t,
      b.getIntegerAttr(t, width >= 32 ? APInt::getSignedMinValue(width)
                                      : APInt::getZero(width)));
  return select(b, loc, isZero, ofZero, q);
}

// max(|x|, |y|) * sqrt(1 + (min/max)^2): no overflow or underflow in the
// squares. Infinity wins over NaN, as in C's hypot.
Value mlir::stride::buildHypot(OpBuilder &b, Location loc, Value x, Value y) {
  Type t = x.getType();
  Value ax = math::AbsFOp::create(b, loc, x);
  Value ay = math::AbsFOp::create(b, loc, y);
  Value big = arith::MaximumFOp::create(b, loc, ax, ay);
  Value small = arith::MinimumFOp::create(b, loc, ax, ay);
  Value zero = constantFloat(b, loc, t, 0.0);
  Value one = constantFloat(b, loc, t, 1.0);
  Value inf = constantFloat(b, loc, t, INFINITY);
  Value ratio = arith::DivFOp::create(b, loc, small, big);
  Value root = math::SqrtOp::create(
      b, loc,
      arith::AddFOp::create(b, loc, one,
                            arith::MulFOp::create(b, loc, ratio, ratio)));
  Value r = arith::MulFOp::create(b, loc, big, root);
  r = select(b, loc, cmpf(b, loc, arith::CmpFPredicate::OEQ, big, zero), zero,
             r);
  Value anyInf = arith::OrIOp::create(
      b, loc, cmpf(b, loc, arith::CmpFPredicate::OEQ, ax, inf),
      cmpf(b, loc, arith::CmpFPredicate::OEQ, ay, inf));
  return select(b, loc, anyInf, inf, r);
}

Value mlir::stride::buildFloatClass(OpBuilder &b, Location loc, Value x,
                                    FloatClass what) {
  Type t = x.getType();
  if (!isa<FloatType>(t))
    return arith::ConstantOp::create(b, loc,
                                     b.getBoolAttr(what == FloatClass::Finite));
  if (what == FloatClass::NaN)
    return cmpf(b, loc, arith::CmpFPredicate::UNO, x, x);
  Value magnitude = math::AbsFOp::create(b, loc, x);
  Value inf = constantFloat(b, loc, t, INFINITY);
  return cmpf(b, loc,
              what == FloatClass::Infinite ? arith::CmpFPredicate::OEQ
                                           : arith::CmpFPredicate::OLT,
              magnitude, inf);
}

// Integers, as NumPy 1.24: a divisor 0 gives 0 for both; a divisor -1 gives
// the wrapped negation and 0 (sdiv/srem of the most negative value by -1 is
// undefined in LLVM, so neither reaches the division). Otherwise, up to 32
// bits, the floor of a float32 (up to 16 bits) or float64 product (below);
// wider, the truncating quotient and remainder moved to the divisor's side.
//
// Floats, as NumPy's npy_divmod: mod = fmod(x, y), moved to the divisor's
// sign; the quotient (x - mod) / y, less 1 when mod moved, rounded to the
// nearest integer; a divisor 0 gives x / y and fmod's NaN.
// Integers: the truncating remainder, 0 for a divisor 0 (NumPy's, with its
// divide-by-zero warning left out) and for -1 (MIN % -1 would trap).
Value mlir::stride::buildFmod(OpBuilder &b, Location loc, Value x, Value y) {
  Type t = x.getType();
  if (isa<FloatType>(t))
    return arith::RemFOp::create(b, loc, x, y);
  bool isUnsigned = t.isUnsignedInteger();
  x = toSignless(b, loc, x);
  y = toSignless(b, loc, y);
  Type signless = x.getType();
  Value zero = constantInt(b, loc, signless, 0);
  Value one = constantInt(b, loc, signless, 1);
  Value special = cmpi(b, loc, arith::CmpIPredicate::eq, y, zero);
  if (!isUnsigned && signless.getIntOrFloatBitWidth() > 1)
    special = arith::OrIOp::create(b, loc, special,
                                   cmpi(b, loc, arith::CmpIPredicate::eq, y,
                                        constantInt(b, loc, signless, -1)));
  Value divisor = select(b, loc, special, one, y);
  unsigned width = signless.getIntOrFloatBitWidth();
  Value r;
  if (width >= 8 && (width <= 16 || (isUnsigned && width == 32))) {
    // x - trunc(x u) divisor, u = 1 / divisor moved two ulps away from
    // zero, in float32 up to 16 bits and float64 for uint32 (as in
    // buildFloorDivMod: |x u| errs upward by less than 1 / |divisor|, so
    // its truncation is the quotient's): LLVM vectorizes neither srem nor
    // urem of these widths, int32's and 64-bit ones map to IntegerDivision.inc.
    Type ft = quotientFloatType(b, width);
    Value u = moveUlps(
        b, loc,
        reciprocal(b, loc, integerToFloat(b, loc, ft, divisor, isUnsigned)), 2);
    Value product = arith::MulFOp::create(
        b, loc, integerToFloat(b, loc, ft, x, isUnsigned), u);
    Value truncated = math::TruncOp::create(b, loc, product);
    Value q =
        isUnsigned
            ? arith::FPToUIOp::create(b, loc, signless, truncated).getResult()
            : arith::FPToSIOp::create(b, loc, signless, truncated).getResult();
    r = arith::SubIOp::create(b, loc, x,
                              arith::MulIOp::create(b, loc, q, divisor));
  } else {
    r = isUnsigned ? arith::RemUIOp::create(b, loc, x, divisor).getResult()
                   : arith::RemSIOp::create(b, loc, x, divisor).getResult();
  }
  return fromSignless(b, loc, select(b, loc, special, zero, r), t);
}

Value mlir::stride::buildFloorDivMod(OpBuilder &b, Location loc, Value x,
                                     Value y, bool quotient) {
  Type t = x.getType();
  if (t.isUnsignedInteger()) {
    // Truncation is the floor; a divisor 0 gives 0 for both.
    x = toSignless(b, loc, x);
    y = toSignless(b, loc, y);
    Value zero = constantInt(b, loc, x.getType(), 0);
    Value yIsZero = cmpi(b, loc, arith::CmpIPredicate::eq, y, zero);
    Value divisor =
        select(b, loc, yIsZero, constantInt(b, loc, x.getType(), 1), y);
    unsigned width = x.getType().getIntOrFloatBitWidth();
    Value r;
    if (width >= 8 && width <= 32) {
      // trunc(x u), u = 1 / divisor moved two ulps up, in float32 up to 16
      // bits and float64 for 32, as for signed integers below (x u errs
      // upward by less than 1 / divisor): one idiv a lane otherwise
      // (a // 7 of 1M uint8: 1 ms, NumPy's libdivide 0.02).
      Type ft = quotientFloatType(b, width);
      Value u = moveUlps(
          b, loc, reciprocal(b, loc, integerToFloat(b, loc, ft, divisor, true)),
          2);
      Value product =
          arith::MulFOp::create(b, loc, integerToFloat(b, loc, ft, x, true), u);
      Value q = arith::FPToUIOp::create(b, loc, x.getType(),
                                        math::FloorOp::create(b, loc, product));
      r = quotient ? q
                   : arith::SubIOp::create(
                         b, loc, x, arith::MulIOp::create(b, loc, q, divisor))
                         .getResult();
    } else {
      r = quotient ? arith::DivUIOp::create(b, loc, x, divisor).getResult()
                   : arith::RemUIOp::create(b, loc, x, divisor).getResult();
    }
    return fromSignless(b, loc, select(b, loc, yIsZero, zero, r), t);
  }
  if (!isa<FloatType>(t)) {
    Value zero = constantInt(b, loc, t, 0);
    Value one = constantInt(b, loc, t, 1);
    Value minusOne = constantInt(b, loc, t, -1);
    Value yIsZero = cmpi(b, loc, arith::CmpIPredicate::eq, y, zero);
    Value yIsMinusOne = cmpi(b, loc, arith::CmpIPredicate::eq, y, minusOne);
    Value special = arith::OrIOp::create(b, loc, yIsZero, yIsMinusOne);
    Value divisor = select(b, loc, special, one, y);
    unsigned width = t.getIntOrFloatBitWidth();
    if (width >= 8 && width <= 32) {
      // floor(x u) in float64, u = 1 / divisor moved two ulps away from
      // zero where the quotient is positive and toward zero where it is
      // negative: x u then errs by less than |x / divisor| 2^-50 < 1 /
      // |divisor| (|x| < 2^31), on the side that keeps it inside the
      // floor's integer interval, exact quotients included. A
      // multiplication (u is loop-invariant for a scalar divisor) where
      // LLVM would split sdiv into one idiv per lane, and no remainder
      // test to move the truncation to the floor. int8 and int16 take
      // float32, twice the lanes a vector: u's 1.5 to 2.5 ulps and the
      // product's rounding err by less than |x / divisor| 3 2^-23, below
      // 1 / |divisor| for |x| < 2^21.
      Type ft = quotientFloatType(b, width);
      Value xf = integerToFloat(b, loc, ft, x, false);
      Value inverse =
          reciprocal(b, loc, integerToFloat(b, loc, ft, divisor, false));
      Value away = moveUlps(b, loc, inverse, 2);
      Value toward = moveUlps(b, loc, inverse, -2);
      Value xNegative = cmpi(b, loc, arith::CmpIPredicate::slt, x, zero);
      Value divisorNegative =
          cmpi(b, loc, arith::CmpIPredicate::slt, divisor, zero);
      Value negative =
          arith::XOrIOp::create(b, loc, xNegative, divisorNegative);
      Value u = select(b, loc, negative, toward, away);
      Value product = arith::MulFOp::create(b, loc, xf, u);
      Value floored = math::FloorOp::create(b, loc, product);
      Value q = arith::FPToSIOp::create(b, loc, t, floored);
      if (quotient) {
        Value negated = arith::SubIOp::create(b, loc, zero, x);
        q = select(b, loc, yIsMinusOne, negated, q);
        return select(b, loc, yIsZero, zero, q);
      }
      Value multiple = arith::MulIOp::create(b, loc, q, divisor);
      Value r = arith::SubIOp::create(b, loc, x, multiple);
      return select(b, loc, special, zero, r);
    }
    Value q = arith::DivSIOp::create(b, loc, x, divisor);
    Value r = arith::RemSIOp::create(b, loc, x, divisor);
    // r != 0 and sign(r) != sign(y): floor is one below the truncation.
    Value adjust = arith::AndIOp::create(
        b, loc, cmpi(b, loc, arith::CmpIPredicate::ne, r, zero),
        arith::XOrIOp::create(
            b, loc, cmpi(b, loc, arith::CmpIPredicate::slt, r, zero),
            cmpi(b, loc, arith::CmpIPredicate::slt, divisor, zero)));
    if (quotient) {
      q = select(b, loc, adjust, arith::SubIOp::create(b, loc, q, one), q);
      q = select(b, loc, yIsMinusOne, arith::SubIOp::create(b, loc, zero, x),
                 q);
      return select(b, loc, yIsZero, zero, q);
    }
    r = select(b, loc, adjust, arith::AddIOp::create(b, loc, r, divisor), r);
    return select(b, loc, special, zero, r);
  }
  Value zero = constantFloat(b, loc, t, 0.0);
  Value one = constantFloat(b, loc, t, 1.0);
  Value half = constantFloat(b, loc, t, 0.5);
  Value mod = arith::RemFOp::create(b, loc, x, y);
  Value div = arith::DivFOp::create(
      b, loc, arith::SubFOp::create(b, loc, x, mod), y);
  Value modNonZero = cmpf(b, loc, arith::CmpFPredicate::UNE, mod, zero);
  Value signsDiffer = arith::XOrIOp::create(
      b, loc, cmpf(b, loc, arith::CmpFPredicate::OLT, y, zero),
      cmpf(b, loc, arith::CmpFPredicate::OLT, mod, zero));
  Value move = arith::AndIOp::create(b, loc, modNonZero, signsDiffer);
  Value yIsZero = cmpf(b, loc, arith::CmpFPredicate::OEQ, y, zero);
  if (!quotient) {
    Value moved = select(b, loc, move, arith::AddFOp::create(b, loc, mod, y),
                         mod);
    Value signedZero = math::CopySignOp::create(b, loc, zero, y);
    Value r = select(b, loc, modNonZero, moved, signedZero);
    return select(b, loc, yIsZero, mod, r);
  }
  div = select(b, loc, move, arith::SubFOp::create(b, loc, div, one), div);
  Value floored = math::FloorOp::create(b, loc, div);
  Value roundUp = cmpf(b, loc, arith::CmpFPredicate::OGT,
                       arith::SubFOp::create(b, loc, div, floored), half);
  floored = select(b, loc, roundUp, arith::AddFOp::create(b, loc, floored, one),
                   floored);
  Value trueQuotient = arith::DivFOp::create(b, loc, x, y);
  Value signedZero = math::CopySignOp::create(b, loc, zero, trueQuotient);
  Value r = select(b, loc, cmpf(b, loc, arith::CmpFPredicate::UNE, div, zero),
                   floored, signedZero);
  return select(b, loc, yIsZero, trueQuotient, r);
}

Value mlir::stride::buildNot(OpBuilder &b, Location loc, Value x) {
  Type type = x.getType();
  x = toSignless(b, loc, x);
  Value r =
      arith::XOrIOp::create(b, loc, x, constantInt(b, loc, x.getType(), -1));
  return fromSignless(b, loc, r, type);
}

// NumPy 1.24 takes the shift amount as unsigned: a negative amount or one of
// at least the bit width shifts every bit out (0 to the left, the sign to
// the right; unsigned integers shift in zeros). LLVM's shifts would be
// poison there.
Value mlir::stride::buildShift(OpBuilder &b, Location loc, Value x,
                               Value amount, bool left) {
  Type type = x.getType();
  x = toSignless(b, loc, x);
  amount = toSignless(b, loc, amount);
  Type t = x.getType();
  unsigned width = t.getIntOrFloatBitWidth();
  if (type.isUnsignedInteger()) {
    Value zero = constantInt(b, loc, t, 0);
    Value outOfRange = cmpi(b, loc, arith::CmpIPredicate::uge, amount,
                            constantInt(b, loc, t, width));
    Value safe = select(b, loc, outOfRange, zero, amount);
    Value shifted = left ? arith::ShLIOp::create(b, loc, x, safe).getResult()
                         : arith::ShRUIOp::create(b, loc, x, safe).getResult();
    return fromSignless(b, loc, select(b, loc, outOfRange, zero, shifted),
                        type);
  }
  Value limit = constantInt(b, loc, t, width);
  Value outOfRange = cmpi(b, loc, arith::CmpIPredicate::uge, amount, limit);
  if (left) {
    Value zero = constantInt(b, loc, t, 0);
    Value safe = select(b, loc, outOfRange, zero, amount);
    return select(b, loc, outOfRange, zero,
                  arith::ShLIOp::create(b, loc, x, safe));
  }
  Value safe =
      select(b, loc, outOfRange, constantInt(b, loc, t, width - 1), amount);
  return arith::ShRSIOp::create(b, loc, x, safe);
}

// NumPy's clip is min(max(x, low), high) with its own max and min:
// max(a, b) = isnan(a) ? a : (a > b ? a : b), min likewise with <. So NaN in
// any operand propagates, but unlike IEEE maximum a tie of -0 and +0 keeps
// the bound: clip(-0.0, 0.0, 1.0) is +0.
Value mlir::stride::buildClip(OpBuilder &b, Location loc, Value x, Value low,
                              Value high) {
  if (isa<FloatType>(x.getType())) {
    auto pick = [&](Value a, Value bound, arith::CmpFPredicate keepA) {
      Value keep = arith::OrIOp::create(
          b, loc, cmpf(b, loc, arith::CmpFPredicate::UNO, a, a),
          cmpf(b, loc, keepA, a, bound));
      return select(b, loc, keep, a, bound);
    };
    Value raised = pick(x, low, arith::CmpFPredicate::OGT);
    return pick(raised, high, arith::CmpFPredicate::OLT);
  }
  // Booleans order false < true: unsigned for i1.
  Type type = x.getType();
  x = toSignless(b, loc, x);
  low = toSignless(b, loc, low);
  high = toSignless(b, loc, high);
  if (isUnsignedOrBool(type))
    return fromSignless(
        b, loc,
        arith::MinUIOp::create(b, loc, arith::MaxUIOp::create(b, loc, x, low),
                               high),
        type);
  return arith::MinSIOp::create(b, loc,
                                arith::MaxSIOp::create(b, loc, x, low), high);
}

// Integer division never reaches an undefined case: LLVM's sdiv is
// undefined for a divisor 0 and for the most negative value divided by -1,
// so both divide by 1 instead (the latter is then the wrapped quotient, as
// NumPy and two's complement give) and a divisor 0 yields 0, as NumPy's
// integer floor_divide does. For i1, x / y is x where y is true, else false.
Value mlir::stride::buildDivide(OpBuilder &b, Location loc, Value x, Value y) {
  Type t = x.getType();
  if (isa<FloatType>(t))
    return arith::DivFOp::create(b, loc, x, y);
  unsigned width = t.getIntOrFloatBitWidth();
  if (width == 1)
    return arith::AndIOp::create(b, loc, x, y);
  if (t.isUnsignedInteger())
    return buildFloorDivMod(b, loc, x, y, /*quotient=*/true);
  Value zero = constantInt(b, loc, t, 0);
  Value one = constantInt(b, loc, t, 1);
  Value minValue = arith::ConstantOp::create(
      b, loc, t, b.getIntegerAttr(t, APInt::getSignedMinValue(width)));
  // One statement per op: the order of a call's arguments is unspecified,
  // and the printed IR should not depend on the compiler.
  Value byZero = cmpi(b, loc, arith::CmpIPredicate::eq, y, zero);
  Value isMin = cmpi(b, loc, arith::CmpIPredicate::eq, x, minValue);
  Value minusOne = constantInt(b, loc, t, -1);
  Value byMinusOne = cmpi(b, loc, arith::CmpIPredicate::eq, y, minusOne);
  Value overflow = arith::AndIOp::create(b, loc, isMin, byMinusOne);
  Value special = arith::OrIOp::create(b, loc, byZero, overflow);
  Value divisor = select(b, loc, special, one, y);
  Value q = arith::DivSIOp::create(b, loc, x, divisor);
  return select(b, loc, byZero, zero, q);
}

// NumPy's float maximum is `(isnan(x) || x > y) ? x : y` (the x86 max
// instructions' rule with NaN propagation): a tie of -0 and +0 gives y,
// where IEEE maximum would give +0. Integers have no ties to tell apart;
// booleans order false < true (or / and).
Value mlir::stride::buildMaxMin(OpBuilder &b, Location loc, Value x, Value y,
                                bool max) {
  Type t = x.getType();
  if (isa<FloatType>(t)) {
    Value isNan = cmpf(b, loc, arith::CmpFPredicate::UNO, x, x);
    Value wins = cmpf(
        b, loc, max ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT, x,
        y);
    Value keep = arith::OrIOp::create(b, loc, isNan, wins);
    return select(b, loc, keep, x, y);
  }
  if (t.isInteger(1))
    return max ? arith::OrIOp::create(b, loc, x, y).getResult()
               : arith::AndIOp::create(b, loc, x, y).getResult();
  if (t.isUnsignedInteger())
    return max ? buildInt<arith::MaxUIOp>(b, loc, {x, y})
               : buildInt<arith::MinUIOp>(b, loc, {x, y});
  return max ? arith::MaxSIOp::create(b, loc, x, y).getResult()
             : arith::MinSIOp::create(b, loc, x, y).getResult();
}

Value mlir::stride::buildPower(OpBuilder &b, Location loc, Value x, Value y) {
  Type t = x.getType();
  if (isa<FloatType>(t))
    return math::PowFOp::create(b, loc, x, y);
  if (!t.isUnsignedInteger() || t.getIntOrFloatBitWidth() == 64)
    return buildInt<math::IPowIOp>(b, loc, {x, y});
  Type wide = b.getI64Type();
  Value base = arith::ExtUIOp::create(b, loc, wide, toSignless(b, loc, x));
  Value exponent = arith::ExtUIOp::create(b, loc, wide, toSignless(b, loc, y));
  Value power = math::IPowIOp::create(b, loc, base, exponent);
  Value narrow = arith::TruncIOp::create(
      b, loc, IntegerType::get(b.getContext(), t.getIntOrFloatBitWidth()),
      power);
  return fromSignless(b, loc, narrow, t);
}

Value mlir::stride::buildAbs(OpBuilder &b, Location loc, Value x) {
  Type t = x.getType();
  if (isa<FloatType>(t))
    return math::AbsFOp::create(b, loc, x);
  if (isUnsignedOrBool(t))
    return x;
  Value zero = constantInt(b, loc, t, 0);
  Value negative = cmpi(b, loc, arith::CmpIPredicate::slt, x, zero);
  Value negated = arith::SubIOp::create(b, loc, zero, x);
  return select(b, loc, negative, negated, x);
}
