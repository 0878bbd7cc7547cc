//===- ExpandPowers.cpp - x ** n for a constant integral n ---------------===//
//
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "stride/Codegen/CPU/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEEXPANDPOWERS
#include "stride/Codegen/CPU/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;
using namespace mlir::stride;

namespace {
constexpr int64_t kMaxExponent = 64;

/// The constant exponent of `y` when it is integral and at most
/// kMaxExponent in magnitude (a scalar or a splat).
std::optional<int64_t> constantIntegralExponent(Value y) {
  Attribute attr;
  if (!matchPattern(y, m_Constant(&attr)))
    return std::nullopt;
  std::optional<APFloat> value;
  if (auto f = dyn_cast<FloatAttr>(attr))
    value = f.getValue();
  else if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    value = splat.getSplatValue<APFloat>();
  if (!value)
    return std::nullopt;
  double v = value->convertToDouble();
  if (!std::isfinite(v) || v != std::nearbyint(v) ||
      std::fabs(v) > kMaxExponent)
    return std::nullopt;
  return static_cast<int64_t>(v);
}

/// Splat constants and float ops of one shape (a scalar or a vector).
struct Ops {
  PatternRewriter &rewriter;
  Location loc;
  Type type;

  Value f(double value) {
    Type element = getElementTypeOrSelf(type);
    TypedAttr scalar = rewriter.getFloatAttr(element, value);
    if (auto vector = dyn_cast<VectorType>(type))
      return arith::ConstantOp::create(rewriter, loc,
                                       DenseElementsAttr::get(vector, scalar));
    return arith::ConstantOp::create(rewriter, loc, scalar);
  }
  Value mul(Value a, Value b) {
    return arith::MulFOp::create(rewriter, loc, a, b);
  }
  Value add(Value a, Value b) {
    return arith::AddFOp::create(rewriter, loc, a, b);
  }
  Value sub(Value a, Value b) {
    return arith::SubFOp::create(rewriter, loc, a, b);
  }
  Value neg(Value a) { return arith::NegFOp::create(rewriter, loc, a); }
  Value fma(Value a, Value b, Value c) {
    return math::FmaOp::create(rewriter, loc, a, b, c);
  }
  Value cmp(arith::CmpFPredicate p, Value a, Value b) {
    return arith::CmpFOp::create(rewriter, loc, p, a, b);
  }
  Value select(Value c, Value a, Value b) {
    return arith::SelectOp::create(rewriter, loc, c, a, b);
  }
  /// Whether a is a finite nonzero number (false for NaN).
  Value finiteNonzero(Value a) {
    Value abs = math::AbsFOp::create(rewriter, loc, a);
    Value infinity = f(std::numeric_limits<double>::infinity());
    Value finite = cmp(arith::CmpFPredicate::OLT, abs, infinity);
    Value zero = f(0.0);
    Value nonzero = cmp(arith::CmpFPredicate::ONE, a, zero);
    return arith::AndIOp::create(rewriter, loc, finite, nonzero);
  }
};

/// (xh + xl)^m, m >= 1, by binary powering in double-double: (hi, lo).
/// xl may be null (zero). One op per statement: the order of a call's
/// arguments is unspecified, and the IR must not depend on the compiler.
std::pair<Value, Value> powerDoubleDouble(Ops &b, Value xh, Value xl,
                                          int64_t m) {
  Value rh, rl, bh = xh, bl = xl;
  for (;;) {
    if (m & 1) {
      if (!rh) {
        rh = bh;
        rl = bl;
      } else {
        Value ph = b.mul(rh, bh);
        Value cross;
        if (bl && rl) {
          Value lowHigh = b.mul(rl, bh);
          cross = b.fma(rh, bl, lowHigh);
        } else if (bl) {
          cross = b.mul(rh, bl);
        } else if (rl) {
          cross = b.mul(rl, bh);
        }
        Value minusPh = b.neg(ph);
        Value pl = b.fma(rh, bh, minusPh);
        rh = ph;
        rl = cross ? b.add(pl, cross) : pl;
      }
    }
    m >>= 1;
    if (!m)
      break;
    Value sh = b.mul(bh, bh);
    Value minusSh = b.neg(sh);
    Value sl = b.fma(bh, bh, minusSh);
    if (bl) {
      Value highLow = b.mul(bh, bl);
      Value two = b.f(2.0);
      Value cross = b.mul(two, highLow);
      sl = b.add(sl, cross);
    }
    bh = sh;
    bl = sl;
  }
  return {rh, rl};
}

/// x^m, m >= 1, by binary powering in plain products.
Value powerPlain(Ops &b, Value x, int64_t m) {
  Value r, base = x;
  for (;;) {
    if (m & 1)
      r = r ? b.mul(r, base) : base;
    m >>= 1;
    if (!m)
      return r;
    base = b.mul(base, base);
  }
}

struct ExpandConstantIntegralPower : OpRewritePattern<math::PowFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::PowFOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    Type element = getElementTypeOrSelf(type);
    if (!element.isF64() && !element.isF32())
      return rewriter.notifyMatchFailure(op, "not float64 or float32");
    std::optional<int64_t> n = constantIntegralExponent(op.getRhs());
    if (!n)
      return rewriter.notifyMatchFailure(
          op, "the exponent is not a constant integer of at most 64");
    Location loc = op.getLoc();
    if (*n == 0) {
      Ops b{rewriter, loc, type};
      rewriter.replaceOp(op, b.f(1.0));
      return success();
    }
    int64_t m = std::abs(*n);
    if (element.isF32()) {
      Type wide = rewriter.getF64Type();
      if (auto vector = dyn_cast<VectorType>(type))
        wide = vector.clone(wide);
      Ops b{rewriter, loc, wide};
      Value x = arith::ExtFOp::create(rewriter, loc, wide, op.getLhs());
      Value p = powerPlain(b, x, m);
      if (*n < 0) {
        Value one = b.f(1.0);
        p = arith::DivFOp::create(rewriter, loc, one, p);
      }
      rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, type, p);
      return success();
    }
    Ops b{rewriter, loc, type};
    Value x = op.getLhs();
    if (*n == -1) {
      Value one = b.f(1.0);
      rewriter.replaceOpWithNewOp<arith::DivFOp>(op, one, x);
      return success();
    }
    // A negative n powers 1 / x as qh + ql (ql from the division's exact
    // residual), so that x^|n| never overflows where the result is a
    // subnormal number, nor underflows where it is huge.
    Value xh = x, xl;
    if (*n < 0) {
      Value one = b.f(1.0);
      xh = arith::DivFOp::create(rewriter, loc, one, x);
      Value minusXh = b.neg(xh);
      Value residual = b.fma(minusXh, x, one);
      xl = b.mul(residual, xh);
    }
    auto [rh, rl] = powerDoubleDouble(b, xh, xl, m);
    if (!rl) { // x^1
      rewriter.replaceOp(op, rh);
      return success();
    }
    // The low part is NaN where hi is infinite, and meaningless where hi
    // is zero or NaN: hi alone there.
    Value sum = b.add(rh, rl);
    Value regular = b.finiteNonzero(rh);
    rewriter.replaceOp(op, b.select(regular, sum, rh));
    return success();
  }
};

struct StrideExpandPowersPass
    : mlir::stride::impl::StrideExpandPowersBase<StrideExpandPowersPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateExpandPowersPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::stride::populateExpandPowersPatterns(RewritePatternSet &patterns) {
  patterns.add<ExpandConstantIntegralPower>(patterns.getContext());
}
