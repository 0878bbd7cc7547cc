//===- ArgReduceRule.h - argmax/argmin on (value, index) pairs -*- C++ -*-===//
//
// NumPy's and PyTorch's rule for argmax/argmin, as one combination of two
// (value, index) pairs: the first index of the best value, NaN better than
// any number. The CPU kernels (stride-bufferize) accumulate with it and the
// GPU block trees (stride-map-linalg-to-gpu) merge partial pairs with it;
// it is commutative and associative, so any split of the points gives the
// same pair.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_SUPPORT_ARGREDUCERULE_H
#define STRIDE_SUPPORT_ARGREDUCERULE_H

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::stride {

/// The pair (`v`, `idx`) combined with (`x`, `i`): `x` wins when it is
/// better (greater for `max`, smaller otherwise; unsigned order with
/// `unsignedOrder`; NaN better than a number), or equal (two NaNs are) with
/// a smaller index. Returns the winning value and index.
inline std::pair<Value, Value> combineArgPairs(OpBuilder &b, Location loc,
                                               bool max, bool unsignedOrder,
                                               Value v, Value idx, Value x,
                                               Value i) {
  Value better, equal;
  if (isa<FloatType>(v.getType())) {
    better = arith::CmpFOp::create(
        b, loc, max ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT, x,
        v);
    Value xNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
    Value vNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v);
    Value vNumber = arith::XOrIOp::create(
        b, loc, vNaN, arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
    better = arith::OrIOp::create(b, loc, better,
                                  arith::AndIOp::create(b, loc, xNaN, vNumber));
    equal = arith::OrIOp::create(
        b, loc, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, v),
        arith::AndIOp::create(b, loc, xNaN, vNaN));
  } else {
    arith::CmpIPredicate pred =
        unsignedOrder
            ? (max ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::ult)
            : (max ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::slt);
    better = arith::CmpIOp::create(b, loc, pred, x, v);
    equal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, v);
  }
  Value earlier =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, idx);
  Value take = arith::OrIOp::create(
      b, loc, better, arith::AndIOp::create(b, loc, equal, earlier));
  return {arith::SelectOp::create(b, loc, take, x, v),
          arith::SelectOp::create(b, loc, take, i, idx)};
}

} // namespace mlir::stride

#endif // STRIDE_SUPPORT_ARGREDUCERULE_H
