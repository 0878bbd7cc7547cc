//===- Reduce.cpp - Stride reductions as linalg.generic on buffers -------===//
//
// A reduction becomes linalg.fill of its identity into the result (and into
// the buffers of any extra accumulators), one linalg.generic whose loops are
// the input's dims (ordered by decreasing |stride|, so the innermost loop
// walks memory most densely) with reduction iterators on the reduced dims,
// and, for mean, a second generic dividing by the count. The input is read
// through a strided view: any strides, including 0 and negative ones.
//
//  * float sum and mean: Kahan-compensated (a second accumulator buffer of
//    the result's shape), at least as accurate as NumPy's pairwise
//    summation; the compensation is reset where the running sum is not
//    finite, so infinities and NaN propagate as in a plain sum.
//  * amax/amin: arith.maximumf/minimumf (NaN-propagating), signed max/min
//    for integers, or/and for i1.
//  * argmax/argmin: the value and the index are accumulated together; a
//    candidate wins when it is better, or equal with a smaller index (NaN is
//    better than any number, as NumPy's first-NaN rule), so the result is the
//    first index whatever order the loops take.
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <limits>
#include <numeric>

using namespace mlir;
using namespace mlir::stride;

namespace {
/// The identity (initial accumulator) of `kind` in type `type`.
Value identityOf(OpBuilder &b, Location loc, ReduceKind kind, Type type,
                 bool forIndexValue = false) {
  auto floatConst = [&](double v) {
    return arith::ConstantOp::create(b, loc, type,
                                     b.getFloatAttr(type, v))
        .getResult();
  };
  auto intConst = [&](APInt v) {
    return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, v))
        .getResult();
  };
  unsigned width = type.isIntOrFloat() ? type.getIntOrFloatBitWidth() : 64;
  bool isFloat = isa<FloatType>(type);
  bool isBool = type.isInteger(1);
  double inf = std::numeric_limits<double>::infinity();
  switch (kind) {
  case ReduceKind::Sum:
  case ReduceKind::Mean:
  case ReduceKind::Any:
    return isFloat ? floatConst(0.0) : intConst(APInt(width, 0));
  case ReduceKind::Prod:
  case ReduceKind::All:
    return isFloat ? floatConst(1.0) : intConst(APInt(width, 1));
  case ReduceKind::Max:
  case ReduceKind::Argmax:
    if (isFloat)
      return floatConst(-inf);
    return intConst(isBool ? APInt(1, 0) : APInt::getSignedMinValue(width));
  case ReduceKind::Min:
  case ReduceKind::Argmin:
    if (isFloat)
      return floatConst(inf);
    return intConst(isBool ? APInt(1, 1) : APInt::getSignedMaxValue(width));
  }
  (void)forIndexValue;
  return {};
}

/// `x` converted to the accumulator type `to` (sum/prod/mean): integers
/// sign-extend (i1 zero-extends), integers to floats convert.
Value convert(OpBuilder &b, Location loc, Value x, Type to) {
  Type from = x.getType();
  if (from == to)
    return x;
  bool boolean = from.isInteger(1);
  if (isa<FloatType>(to)) {
    if (isa<FloatType>(from))
      return arith::ExtFOp::create(b, loc, to, x);
    if (boolean)
      return arith::UIToFPOp::create(b, loc, to, x);
    return arith::SIToFPOp::create(b, loc, to, x);
  }
  if (boolean)
    return arith::ExtUIOp::create(b, loc, to, x);
  return arith::ExtSIOp::create(b, loc, to, x);
}

/// Whether `x` is nonzero (NaN is), as i1.
Value truth(OpBuilder &b, Location loc, Value x) {
  Type type = x.getType();
  if (type.isInteger(1))
    return x;
  if (isa<FloatType>(type)) {
    Value zero = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x, zero);
  }
  Value zero = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero);
}

Value isNaN(OpBuilder &b, Location loc, Value x) {
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
}
} // namespace

LogicalResult KernelBuilder::emitReduce(
    Operation *op, Value input,
    function_ref<Value(ArrayRef<OpFoldResult>)> makeDest) {
  Location loc = op->getLoc();
  ReduceKind kind = *getReduceKind(op);
  auto inputType = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  std::optional<SmallVector<bool>> reducedDims = getReducedDims(op);
  if (!inputType || !resultType || !reducedDims)
    return op->emitOpError() << "shapes are unknown; run stride-infer-shapes "
                                "before bufferization";
  SmallVector<bool> reduced = *reducedDims;
  bool keepdims = getKeepdims(op);
  int64_t rank = inputType.getRank();
  Type element = inputType.getElementType();
  Type resultElement = resultType.getElementType();
  IndexMath math(b, loc);
  StridedMetadata in = getStridedMetadata(b, loc, input);

  // Loops: the input's dims, outermost the largest |stride| when all are
  // known (stable, so ties keep dim order), else in dim order.
  SmallVector<int64_t> order(rank);
  std::iota(order.begin(), order.end(), 0);
  SmallVector<std::optional<int64_t>> staticStrides;
  for (OpFoldResult s : in.strides)
    staticStrides.push_back(getConstantIntValue(s));
  if (llvm::all_of(staticStrides, [](auto s) { return s.has_value(); }))
    std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
      return std::llabs(*staticStrides[x]) > std::llabs(*staticStrides[y]);
    });
  SmallVector<unsigned> loopOf(rank);
  for (auto [loop, d] : llvm::enumerate(order))
    loopOf[d] = loop;

  SmallVector<ViewDim> inDims;
  for (int64_t d = 0; d < rank; ++d)
    inDims.push_back({in.sizes[d], in.strides[d], loopOf[d]});
  FailureOr<LoopView> inView = makeView(b, loc, input, in.offset, inDims);
  if (failed(inView))
    return op->emitOpError() << "the input has a negative stride along a "
                                "dimension of dynamic size, which is not "
                                "supported";
  // A reduced dim walked backwards appears in no other view: walk it
  // forwards instead (the same elements; argmax mirrors its index back).
  SmallVector<bool> mirrored(rank, false);
  for (int64_t d = 0; d < rank; ++d)
    if (reduced[d] && !isa<AffineDimExpr>(inView->exprs[d])) {
      inView->exprs[d] = b.getAffineDimExpr(loopOf[d]);
      mirrored[d] = true;
    }

  SmallVector<OpFoldResult> resultSizes;
  for (int64_t d = 0; d < rank; ++d) {
    if (!reduced[d])
      resultSizes.push_back(in.sizes[d]);
    else if (keepdims)
      resultSizes.push_back(math.constant(1));
  }
  Value dest = makeDest(resultSizes);
  StridedMetadata out = getStridedMetadata(b, loc, dest);
  // The result viewed with the kept dims only.
  SmallVector<ViewDim> outDims;
  SmallVector<OpFoldResult> keptSizes;
  for (int64_t d = 0, r = 0; d < rank; ++d) {
    if (!reduced[d]) {
      outDims.push_back({in.sizes[d], out.strides[r], loopOf[d]});
      keptSizes.push_back(in.sizes[d]);
    }
    if (!reduced[d] || keepdims)
      ++r;
  }
  FailureOr<LoopView> outView = makeView(b, loc, dest, out.offset, outDims);
  if (failed(outView))
    return op->emitOpError() << "the result has a negative stride along a "
                                "dimension of dynamic size, which is not "
                                "supported";

  // Extra accumulators, dense buffers of the kept dims' shape.
  auto scratch = [&](Type type) {
    SmallVector<int64_t> shape;
    SmallVector<Value> dynamic;
    for (OpFoldResult size : keptSizes) {
      std::optional<int64_t> c = getConstantIntValue(size);
      shape.push_back(c ? *c : ShapedType::kDynamic);
      if (!c)
        dynamic.push_back(math.value(size));
    }
    Value buffer = memref::AllocOp::create(
        b, loc, MemRefType::get(shape, type), dynamic, b.getI64IntegerAttr(64));
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < rank; ++d)
      if (!reduced[d])
        exprs.push_back(b.getAffineDimExpr(loopOf[d]));
    return std::make_pair(buffer, exprs);
  };

  bool isFloat = isa<FloatType>(element);
  bool isBool = element.isInteger(1);
  SmallVector<Value> outputs{outView->view};
  SmallVector<SmallVector<AffineExpr>> outExprs{outView->exprs};
  Type accType = resultElement;
  bool kahan = (kind == ReduceKind::Sum || kind == ReduceKind::Mean) &&
               isa<FloatType>(resultElement);
  bool index = kind == ReduceKind::Argmax || kind == ReduceKind::Argmin;
  if (kahan) {
    auto [buffer, exprs] = scratch(resultElement);
    outputs.push_back(buffer);
    outExprs.push_back(exprs);
  }
  if (index) {
    // The value accumulator first, then the index (the result).
    auto [buffer, exprs] = scratch(element);
    outputs.insert(outputs.begin(), buffer);
    outExprs.insert(outExprs.begin(), exprs);
  }

  // Identities.
  if (index) {
    linalg::FillOp::create(b, loc, identityOf(b, loc, kind, element),
                           outputs[0]);
    Value none = arith::ConstantOp::create(
        b, loc, resultElement,
        b.getIntegerAttr(resultElement, std::numeric_limits<int64_t>::max()));
    linalg::FillOp::create(b, loc, none, outputs[1]);
  } else {
    linalg::FillOp::create(b, loc, identityOf(b, loc, kind, accType),
                           outputs[0]);
    if (kahan) {
      Value zero = arith::ConstantOp::create(b, loc, accType,
                                             b.getZeroAttr(accType));
      linalg::FillOp::create(b, loc, zero, outputs[1]);
    }
  }

  // The logical index, within the reduced axes, of a loop point.
  SmallVector<Value> sizeValues;
  for (OpFoldResult size : in.sizes)
    sizeValues.push_back(math.value(size));
  auto logicalIndex = [&](OpBuilder &nb, Location nl) -> Value {
    Value flat = arith::ConstantIndexOp::create(nb, nl, 0);
    for (int64_t d = 0; d < rank; ++d) {
      if (!reduced[d])
        continue;
      Value i = linalg::IndexOp::create(nb, nl, loopOf[d]);
      if (mirrored[d]) {
        Value last = arith::SubIOp::create(
            nb, nl, sizeValues[d], arith::ConstantIndexOp::create(nb, nl, 1));
        i = arith::SubIOp::create(nb, nl, last, i);
      }
      flat = arith::AddIOp::create(
          nb, nl, arith::MulIOp::create(nb, nl, flat, sizeValues[d]), i);
    }
    return arith::IndexCastOp::create(nb, nl, nb.getI64Type(), flat);
  };

  SmallVector<AffineMap> maps{
      AffineMap::get(rank, 0, inView->exprs, b.getContext())};
  for (auto &exprs : outExprs)
    maps.push_back(AffineMap::get(rank, 0, exprs, b.getContext()));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  for (int64_t d = 0; d < rank; ++d)
    if (reduced[d])
      iterators[loopOf[d]] = utils::IteratorType::reduction;

  emitGeneric(
      loc, ValueRange{inView->view}, outputs, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value x = args[0];
        SmallVector<Value> yields;
        switch (kind) {
        case ReduceKind::Sum:
        case ReduceKind::Mean:
          if (kahan) {
            // Kahan: y = x - c; t = s + y; c = (t - s) - y; s = t.
            Value s = args[1], c = args[2];
            Value v = convert(nb, nl, x, accType);
            Value y = arith::SubFOp::create(nb, nl, v, c);
            Value t = arith::AddFOp::create(nb, nl, s, y);
            Value lost = arith::SubFOp::create(
                nb, nl, arith::SubFOp::create(nb, nl, t, s), y);
            Value inf = arith::ConstantOp::create(
                nb, nl, accType,
                nb.getFloatAttr(accType,
                                std::numeric_limits<double>::infinity()));
            Value finite = arith::CmpFOp::create(
                nb, nl, arith::CmpFPredicate::OLT,
                math::AbsFOp::create(nb, nl, t), inf);
            Value zero = arith::ConstantOp::create(nb, nl, accType,
                                                   nb.getZeroAttr(accType));
            yields = {t, arith::SelectOp::create(nb, nl, finite, lost, zero)};
          } else {
            yields = {arith::AddIOp::create(
                nb, nl, args[1], convert(nb, nl, x, accType))};
          }
          break;
        case ReduceKind::Prod: {
          Value v = convert(nb, nl, x, accType);
          yields = {isa<FloatType>(accType)
                        ? arith::MulFOp::create(nb, nl, args[1], v).getResult()
                        : arith::MulIOp::create(nb, nl, args[1], v)
                              .getResult()};
          break;
        }
        case ReduceKind::Max:
        case ReduceKind::Min: {
          bool max = kind == ReduceKind::Max;
          Value acc = args[1];
          Value r;
          if (isFloat)
            r = max ? arith::MaximumFOp::create(nb, nl, acc, x).getResult()
                    : arith::MinimumFOp::create(nb, nl, acc, x).getResult();
          else if (isBool)
            r = max ? arith::OrIOp::create(nb, nl, acc, x).getResult()
                    : arith::AndIOp::create(nb, nl, acc, x).getResult();
          else
            r = max ? arith::MaxSIOp::create(nb, nl, acc, x).getResult()
                    : arith::MinSIOp::create(nb, nl, acc, x).getResult();
          yields = {r};
          break;
        }
        case ReduceKind::Any:
          yields = {arith::OrIOp::create(nb, nl, args[1], truth(nb, nl, x))};
          break;
        case ReduceKind::All:
          yields = {arith::AndIOp::create(nb, nl, args[1], truth(nb, nl, x))};
          break;
        case ReduceKind::Argmax:
        case ReduceKind::Argmin: {
          bool max = kind == ReduceKind::Argmax;
          Value v = args[1], idx = args[2];
          Value i = logicalIndex(nb, nl);
          Value better, equal;
          if (isFloat) {
            better = arith::CmpFOp::create(
                nb, nl,
                max ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT, x,
                v);
            Value xNaN = isNaN(nb, nl, x), vNaN = isNaN(nb, nl, v);
            Value vNumber = arith::XOrIOp::create(
                nb, nl, vNaN,
                arith::ConstantOp::create(nb, nl, nb.getBoolAttr(true)));
            better = arith::OrIOp::create(
                nb, nl, better, arith::AndIOp::create(nb, nl, xNaN, vNumber));
            equal = arith::OrIOp::create(
                nb, nl,
                arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OEQ, x, v),
                arith::AndIOp::create(nb, nl, xNaN, vNaN));
          } else {
            arith::CmpIPredicate pred =
                isBool ? (max ? arith::CmpIPredicate::ugt
                              : arith::CmpIPredicate::ult)
                       : (max ? arith::CmpIPredicate::sgt
                              : arith::CmpIPredicate::slt);
            better = arith::CmpIOp::create(nb, nl, pred, x, v);
            equal = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq, x,
                                          v);
          }
          Value earlier =
              arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::slt, i, idx);
          Value take = arith::OrIOp::create(
              nb, nl, better, arith::AndIOp::create(nb, nl, equal, earlier));
          yields = {arith::SelectOp::create(nb, nl, take, x, v),
                    arith::SelectOp::create(nb, nl, take, i, idx)};
          break;
        }
        }
        linalg::YieldOp::create(nb, nl, yields);
      });

  if (kind == ReduceKind::Mean) {
    // mean = sum / count, in the result type.
    Value count = arith::ConstantIndexOp::create(b, loc, 1);
    for (int64_t d = 0; d < rank; ++d)
      if (reduced[d])
        count = arith::MulIOp::create(b, loc, count, sizeValues[d]);
    Value countF = arith::UIToFPOp::create(
        b, loc, resultElement,
        arith::IndexCastOp::create(b, loc, b.getI64Type(), count));
    int64_t outRank = outDims.size();
    SmallVector<AffineExpr> ids;
    for (int64_t i = 0; i < outRank; ++i)
      ids.push_back(b.getAffineDimExpr(i));
    Value view = outView->view;
    auto map = AffineMap::get(outRank, 0, ids, b.getContext());
    linalg::GenericOp::create(
        b, loc, TypeRange{}, ValueRange{}, ValueRange{view},
        ArrayRef<AffineMap>{map},
        SmallVector<utils::IteratorType>(outRank,
                                         utils::IteratorType::parallel),
        [&](OpBuilder &nb, Location nl, ValueRange args) {
          linalg::YieldOp::create(
              nb, nl,
              ValueRange{arith::DivFOp::create(nb, nl, args[0], countF)});
        });
  }
  return success();
}
