//===- ExpandMath.cpp - float64 exp as an inline polynomial ---------------===//
//
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "stride/Codegen/CPU/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEEXPANDMATH
#include "stride/Codegen/CPU/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;
using namespace mlir::stride;

namespace {
/// Builds splat constants and ops of one shape (a scalar or a vector) in
/// float64 and its int64 twin.
struct Builder {
  PatternRewriter &rewriter;
  Location loc;
  Type floatType, intType;

  Value f(double value) {
    return arith::ConstantOp::create(rewriter, loc, floatType,
                                     splat(rewriter.getF64FloatAttr(value)));
  }
  Value i(int64_t value) {
    return arith::ConstantOp::create(rewriter, loc, intType,
                                     splat(rewriter.getI64IntegerAttr(value)));
  }
  TypedAttr splat(TypedAttr scalar) {
    if (auto vector = dyn_cast<VectorType>(floatType))
      return DenseElementsAttr::get(vector.clone(scalar.getType()), scalar);
    return scalar;
  }
  Value fma(Value a, Value b, Value c) {
    return math::FmaOp::create(rewriter, loc, a, b, c);
  }
  Value mul(Value a, Value b) {
    return arith::MulFOp::create(rewriter, loc, a, b);
  }
  Value add(Value a, Value b) {
    return arith::AddFOp::create(rewriter, loc, a, b);
  }
  Value toInt(Value v) {
    return arith::BitcastOp::create(rewriter, loc, intType, v);
  }
  Value toFloat(Value v) {
    return arith::BitcastOp::create(rewriter, loc, floatType, v);
  }
  /// 2^k for an int64 k in the normal exponent range, by its bits.
  Value powerOfTwo(Value k) {
    Value biased = arith::AddIOp::create(rewriter, loc, k, i(1023));
    return toFloat(arith::ShLIOp::create(rewriter, loc, biased, i(52)));
  }
};

struct ExpandExpF64 : OpRewritePattern<math::ExpOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF64())
      return rewriter.notifyMatchFailure(op, "not float64");
    Type intType = rewriter.getI64Type();
    if (auto vector = dyn_cast<VectorType>(type))
      intType = vector.clone(intType);
    Builder b{rewriter, op.getLoc(), type, intType};
    Location loc = op.getLoc();
    Value x = op.getOperand();

    // maxnumf returns the other operand for NaN: the clamped value is
    // always a number, so k below is too.
    Value clamped = arith::MinNumFOp::create(
        rewriter, loc, arith::MaxNumFOp::create(rewriter, loc, x, b.f(-746.0)),
        b.f(710.0));
    Value k = math::RoundEvenOp::create(
        rewriter, loc, b.mul(clamped, b.f(0x1.71547652b82fep0)));
    Value minusK = arith::NegFOp::create(rewriter, loc, k);
    Value r = b.fma(minusK, b.f(0x1.62e42fefa39efp-1), clamped);
    r = b.fma(minusK, b.f(0x1.abc9e3b39803fp-56), r);

    // exp(r) = 1 + r + r^2 q(r): q minimizes the maximum relative error on
    // [-ln(2)/2, ln(2)/2] (2^-57.9), coefficients from utils/remez-exp,
    // highest first.
    static constexpr double coefficients[] = {
        0x1.ad7f7b1096349p-26, 0x1.28ad689e8aee0p-22, 0x1.71df253a08086p-19,
        0x1.a0199a16e68edp-16, 0x1.a01a012a69cf4p-13, 0x1.6c16c184266b4p-10,
        0x1.1111111127b9bp-7,  0x1.555555555088cp-5,  0x1.55555555554fap-3,
        0x1.000000000000ap-1};
    Value q = b.f(coefficients[0]);
    for (double c : ArrayRef(coefficients).drop_front())
      q = b.fma(q, r, b.f(c));
    // 1 + r rounds; its error (1 - hi) + r is exact (Fast2Sum, |r| < 1)
    // and joins the small part, which keeps the result below one ulp.
    Value one = b.f(1.0);
    Value hi = b.add(one, r);
    Value error = b.add(arith::SubFOp::create(rewriter, loc, one, hi), r);
    Value expR = b.add(hi, b.fma(b.mul(r, r), q, error));

    // k + 1.5 * 2^52 holds k in its low mantissa bits (|k| < 2^51).
    constexpr double shift = 0x1.8p52;
    Value kBits =
        arith::SubIOp::create(rewriter, loc, b.toInt(b.add(k, b.f(shift))),
                              b.i(0x4338000000000000LL));
    Value k1 = arith::ShRSIOp::create(rewriter, loc, kBits, b.i(1));
    Value k2 = arith::SubIOp::create(rewriter, loc, kBits, k1);
    Value result = b.mul(b.mul(expR, b.powerOfTwo(k1)), b.powerOfTwo(k2));

    Value isNan =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::UNO, x, x);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, isNan, b.add(x, x),
                                                 result);
    return success();
  }
};

struct StrideExpandMathPass
    : mlir::stride::impl::StrideExpandMathBase<StrideExpandMathPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateExpandMathPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::stride::populateExpandMathPatterns(RewritePatternSet &patterns) {
  patterns.add<ExpandExpF64>(patterns.getContext());
}
