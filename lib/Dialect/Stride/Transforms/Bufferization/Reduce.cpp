//===- Reduce.cpp - Stride reductions as linalg.generic on buffers -------===//
//
// A reduction becomes linalg.fill of its identity into the result (and into
// the buffers of any extra accumulators), one linalg.generic whose loops are
// the input's dims (ordered by decreasing |stride|, so the innermost loop
// walks memory most densely) with reduction iterators on the reduced dims,
// and, for mean, a second generic dividing by the count. The input is read
// through a strided view: any strides, including 0 and negative ones.
//
// When the innermost loop is reduced, long (>= 32), static and of positive
// stride, float sums, means and products and argmax/argmin accumulate in 16
// lanes instead (a blocks loop and a parallel lane loop, the last partial
// block into the first lanes), combined by a third generic: independent
// accumulators, so the loop does not wait on one dependency chain.
//
//  * float sum and mean: Kahan-compensated (a second accumulator buffer of
//    the result's shape), at least as accurate as NumPy's pairwise
//    summation; the compensation is reset where the running sum is not
//    finite, so infinities and NaN propagate as in a plain sum.
//  * amax/amin of floats: the accumulator stays where it is better or NaN,
//    else the element takes over (NaN-propagating in two compares and a
//    select, in lanes like the sum; arith.maximumf/minimumf for the GPU's
//    single-op combiners); signed max/min for integers, or/and for i1.
//  * argmax/argmin: the value and the index are accumulated together; a
//    candidate wins when it is better, or equal with a smaller index (NaN is
//    better than any number, as NumPy's first-NaN rule), so the result is the
//    first index whatever order the loops take.
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"
#include "Preparation.h"

#include "stride/Dialect/Stride/Transforms/Passes.h"
#include "stride/Support/ArgReduceRule.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"

#include <limits>
#include <numeric>

using namespace mlir;
using namespace mlir::stride;

namespace {
/// The identity (initial accumulator) of `kind` in type `type`; an
/// `isUnsigned` integer orders from 0 to all ones.
Value identityOf(OpBuilder &b, Location loc, ReduceKind kind, Type type,
                 bool isUnsigned) {
  auto floatConst = [&](double v) {
    return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, v))
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
    if (isBool || isUnsigned)
      return intConst(APInt::getZero(width));
    return intConst(APInt::getSignedMinValue(width));
  case ReduceKind::Min:
  case ReduceKind::Argmin:
    if (isFloat)
      return floatConst(inf);
    if (isBool || isUnsigned)
      return intConst(APInt::getMaxValue(width));
    return intConst(APInt::getSignedMaxValue(width));
  }
  return {};
}

/// `x` converted to the accumulator type `to` (sum/prod/mean): integers
/// sign-extend (i1 and `isUnsigned` ones zero-extend), integers to floats
/// convert.
Value convert(OpBuilder &b, Location loc, Value x, Type to, bool isUnsigned) {
  Type from = x.getType();
  if (from == to)
    return x;
  bool boolean = from.isInteger(1) || isUnsigned;
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
} // namespace

/// The inputs of a reduction whose loop 0 (of `rank`) runs over `rows`
/// rows, a multiple of `block`, with loop 0 split into (block index, row in
/// the block): each memref input that loop 0 indexes plainly has that dim
/// expanded into [rows / block, block] (expand_shape: the two strides are
/// block times the row stride and the row stride), and each map gets the
/// two loops there, its other loops moved up by one. None when an input
/// uses loop 0 otherwise or is not a statically shaped memref.
static std::optional<std::pair<SmallVector<Value>, SmallVector<AffineMap>>>
blockedRows(OpBuilder &b, Location loc, ValueRange inputs,
            ArrayRef<AffineMap> maps, int64_t rank, int64_t rows,
            int64_t block) {
  if (rows % block != 0)
    return std::nullopt;
  SmallVector<Value> values;
  SmallVector<AffineMap> newMaps;
  AffineExpr row = b.getAffineDimExpr(0);
  for (auto [value, map] : llvm::zip(inputs, maps)) {
    SmallVector<AffineExpr> exprs;
    std::optional<unsigned> rowPos;
    for (auto [pos, e] : llvm::enumerate(map.getResults())) {
      if (e == row) {
        rowPos = pos;
        exprs.append({b.getAffineDimExpr(0), b.getAffineDimExpr(1)});
      } else if (e.isFunctionOfDim(0)) {
        return std::nullopt;
      } else {
        exprs.push_back(e.shiftDims(rank, 1));
      }
    }
    newMaps.push_back(AffineMap::get(rank + 1, 0, exprs, b.getContext()));
    if (!rowPos) {
      values.push_back(value);
      continue;
    }
    auto type = dyn_cast<MemRefType>(value.getType());
    if (!type || !type.hasStaticShape() || type.getDimSize(*rowPos) != rows)
      return std::nullopt;
    SmallVector<int64_t> shape;
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0, next = 0; d < type.getRank(); ++d) {
      if (d == int64_t(*rowPos)) {
        shape.append({rows / block, block});
        groups.push_back({next, next + 1});
        next += 2;
      } else {
        shape.push_back(type.getDimSize(d));
        groups.push_back({next++});
      }
    }
    values.push_back(
        memref::ExpandShapeOp::create(b, loc, shape, value, groups));
  }
  return std::make_pair(values, newMaps);
}

LogicalResult KernelBuilder::emitReduce(
    Operation *op, Value input,
    function_ref<Value(ArrayRef<OpFoldResult>)> makeDest) {
  return emitReduction(op, *getReduceKind(op),
                       dyn_cast<RankedTensorType>(op->getOperand(0).getType()),
                       ValueRange{input}, /*map=*/nullptr, makeDest);
}

LogicalResult KernelBuilder::emitMapReduce(
    MapReduceOp op, ValueRange inputs,
    function_ref<Value(ArrayRef<OpFoldResult>)> makeDest) {
  auto mapped = cast<RankedTensorType>(op.getMapped());
  if (!mapped.hasStaticShape() ||
      llvm::is_contained(getStridesOf(mapped), ShapedType::kDynamic))
    return op.emitOpError() << "mapped type " << mapped
                            << " must have a static shape and strides";
  return emitReduction(op, *parseReduceKind(op.getKind()), mapped, inputs,
                       &op.getBodyBlock(), makeDest);
}

/// `sources` are the buffers (or scalars) read; without `map` the one source
/// is the reduced tensor itself, with it each element of the reduced tensor
/// is `map` applied to the sources' elements (broadcast to `inputType`'s
/// shape), and `inputType`'s static strides give the loop order.
LogicalResult KernelBuilder::emitReduction(
    Operation *op, ReduceKind kind, RankedTensorType inputType,
    ValueRange sources, Block *map,
    function_ref<Value(ArrayRef<OpFoldResult>)> makeDest) {
  Location loc = op->getLoc();
  Value input = sources.front();
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
  // The reduced tensor's sizes and strides: the buffer's, or, for a map,
  // the mapped type's (static).
  StridedMetadata in;
  if (!map) {
    in = getStridedMetadata(b, loc, input);
  } else {
    in.offset = math.constant(0);
    for (int64_t size : inputType.getShape())
      in.sizes.push_back(math.constant(size));
    for (int64_t stride : getStridesOf(inputType))
      in.strides.push_back(math.constant(stride));
  }
  // Per source: its buffer and offset, and its stride along each dim of
  // the reduced tensor (0 where it broadcasts; empty for a scalar).
  struct Source {
    Value value;
    OpFoldResult offset;
    SmallVector<OpFoldResult> strides;
  };
  SmallVector<Source> srcs;
  for (Value source : sources) {
    auto type = dyn_cast<MemRefType>(source.getType());
    if (!type) {
      srcs.push_back({source, OpFoldResult(), {}});
      continue;
    }
    if (!map) {
      srcs.push_back({source, in.offset, in.strides});
      continue;
    }
    StridedMetadata meta = getStridedMetadata(b, loc, source);
    int64_t lead = inputType.getRank() - type.getRank();
    SmallVector<OpFoldResult> strides;
    for (int64_t d = 0; d < inputType.getRank(); ++d)
      strides.push_back(d < lead ? math.constant(0)
                                 : broadcastStride(math, meta, d - lead));
    srcs.push_back({source, meta.offset, strides});
  }
  unsigned numIns = srcs.size();
  // An element of the reduced tensor from the sources' elements.
  auto mapValue = [&](OpBuilder &nb, Location nl, ValueRange elems) -> Value {
    return map ? cloneScalarBody(nb, *map, elems).front() : elems.front();
  };

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

  // Each source viewed with one dim per input dim (scalars: no view).
  SmallVector<LoopView> inViews;
  for (Source &src : srcs) {
    if (!isa<MemRefType>(src.value.getType())) {
      inViews.push_back({src.value, {}});
      continue;
    }
    SmallVector<ViewDim> inDims;
    for (int64_t d = 0; d < rank; ++d)
      inDims.push_back({in.sizes[d], src.strides[d], loopOf[d]});
    FailureOr<LoopView> view = makeView(b, loc, src.value, src.offset, inDims);
    if (failed(view))
      return op->emitOpError() << "the input has a negative stride along a "
                                  "dimension of dynamic size, which is not "
                                  "supported";
    inViews.push_back(*view);
  }
  // A reduced dim walked backwards appears in no other view: walk it
  // forwards instead (the same elements; argmax mirrors its index back).
  // A map's several sources are made consistent by plainLoopIndices instead
  // (a loop every source walks backwards is walked forwards by all of them:
  // the combiners of a map's kinds are commutative).
  SmallVector<bool> mirrored(rank, false);
  if (!map)
    for (int64_t d = 0; d < rank; ++d)
      if (reduced[d] && !isa<AffineDimExpr>(inViews[0].exprs[d])) {
        inViews[0].exprs[d] = b.getAffineDimExpr(loopOf[d]);
        mirrored[d] = true;
      }
  SmallVector<Value> inValues;
  for (LoopView &view : inViews)
    inValues.push_back(view.view);

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

  bool isFloat = isa<FloatType>(element);
  bool isBool = element.isInteger(1);
  // Unsigned integers (signless bits by now) order as booleans do.
  bool isUnsigned = op->hasAttr(kUnsignedAttr);
  bool unsignedOrder = isBool || isUnsigned;
  Type accType = resultElement;
  // For a GPU (kPlainReductionAttr) the kernel is one plain generic per
  // reduction: its combiner is then a single op, which
  // stride-map-linalg-to-gpu recognizes and combines in a block tree whose
  // short per-thread runs keep float sums accurate without compensation.
  bool plain = op->hasAttr(kPlainReductionAttr);
  bool kahan = (kind == ReduceKind::Sum || kind == ReduceKind::Mean) &&
               isa<FloatType>(resultElement) && !plain;
  bool index = kind == ReduceKind::Argmax || kind == ReduceKind::Argmin;
  MLIRContext *context = b.getContext();

  // A dense scratch buffer of `sizes` (static where known).
  auto scratch = [&](Type type, ArrayRef<OpFoldResult> sizes) -> Value {
    SmallVector<int64_t> shape;
    SmallVector<Value> dynamic;
    for (OpFoldResult size : sizes) {
      std::optional<int64_t> c = getConstantIntValue(size);
      shape.push_back(c ? *c : ShapedType::kDynamic);
      if (!c)
        dynamic.push_back(math.value(size));
    }
    return memref::AllocOp::create(b, loc, MemRefType::get(shape, type),
                                   dynamic, b.getI64IntegerAttr(64));
  };
  // The accumulators' types and identities: [value, compensation] for a
  // Kahan sum, [value, index] for argmax/argmin, [value] otherwise.
  SmallVector<Type> accTypes;
  SmallVector<Value> identities;
  if (index) {
    accTypes = {element, resultElement};
    // Index 0 with the identity value: an element beats it unless it
    // equals the identity, and where every element does (all -inf for a
    // float argmax) 0 is the first index NumPy gives; so no element has to
    // test for a sentinel index.
    identities = {
        identityOf(b, loc, kind, element, isUnsigned),
        arith::ConstantOp::create(b, loc, resultElement,
                                  b.getIntegerAttr(resultElement, 0))};
  } else {
    accTypes = {accType};
    identities = {identityOf(b, loc, kind, accType, isUnsigned)};
    if (kahan) {
      accTypes.push_back(accType);
      identities.push_back(
          arith::ConstantOp::create(b, loc, accType, b.getZeroAttr(accType)));
    }
  }
  // Which accumulator is the result (argmax: the index).
  unsigned resultAcc = index ? 1 : 0;

  // An input element as the accumulators combine it.
  auto prepare = [&](OpBuilder &nb, Location nl, Value x) -> Value {
    switch (kind) {
    case ReduceKind::Sum:
    case ReduceKind::Mean:
    case ReduceKind::Prod:
      return convert(nb, nl, x, accType, isUnsigned);
    case ReduceKind::Any:
    case ReduceKind::All:
      return truth(nb, nl, x);
    default:
      return x;
    }
  };
  // One accumulation step of prepared value `x` (at logical index `i` for
  // argmax/argmin) into `acc`; returns the new accumulators.
  // With `inOrder`, every element an accumulator meets has a larger index
  // than the ones before it, so an index reduction keeps the earlier one on
  // a tie without comparing indices: x replaces v when x > v unordered
  // (x NaN, or greater) and v is a number, two compares per element.
  auto step = [&](OpBuilder &nb, Location nl, Value x, Value i, ValueRange acc,
                  bool inOrder = false) -> SmallVector<Value> {
    switch (kind) {
    case ReduceKind::Sum:
    case ReduceKind::Mean: {
      if (!kahan)
        return {isa<FloatType>(accType)
                    ? arith::AddFOp::create(nb, nl, acc[0], x).getResult()
                    : arith::AddIOp::create(nb, nl, acc[0], x).getResult()};
      // Kahan: y = x - c; t = s + y; c = (t - s) - y; s = t. The
      // compensation is dropped where t is not finite, so that infinities
      // and NaN propagate as in a plain sum.
      Value sum = acc[0], c = acc[1];
      Value y = arith::SubFOp::create(nb, nl, x, c);
      Value t = arith::AddFOp::create(nb, nl, sum, y);
      Value lost = arith::SubFOp::create(
          nb, nl, arith::SubFOp::create(nb, nl, t, sum), y);
      Value inf = arith::ConstantOp::create(
          nb, nl, accType,
          nb.getFloatAttr(accType, std::numeric_limits<double>::infinity()));
      Value finite =
          arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OLT,
                                math::AbsFOp::create(nb, nl, t), inf);
      Value zero =
          arith::ConstantOp::create(nb, nl, accType, nb.getZeroAttr(accType));
      return {t, arith::SelectOp::create(nb, nl, finite, lost, zero)};
    }
    case ReduceKind::Prod:
      return {isa<FloatType>(accType)
                  ? arith::MulFOp::create(nb, nl, acc[0], x).getResult()
                  : arith::MulIOp::create(nb, nl, acc[0], x).getResult()};
    case ReduceKind::Max:
    case ReduceKind::Min: {
      bool max = kind == ReduceKind::Max;
      Value a = acc[0];
      if (isFloat && plain)
        return {max ? arith::MaximumFOp::create(nb, nl, a, x).getResult()
                    : arith::MinimumFOp::create(nb, nl, a, x).getResult()};
      // x86 has no NaN-propagating max: arith.maximumf expands to six
      // vector ops. Two compares and a select instead: the accumulator
      // stays when it is NaN or better, else x takes over (a NaN x, and
      // on a tie the later element, as NumPy's max keeps -0.0 after 0.0).
      if (isFloat) {
        Value better = arith::CmpFOp::create(
            nb, nl, max ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT,
            a, x);
        Value nan =
            arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::UNO, a, a);
        Value keep = arith::OrIOp::create(nb, nl, better, nan);
        return {arith::SelectOp::create(nb, nl, keep, a, x)};
      }
      if (isBool)
        return {max ? arith::OrIOp::create(nb, nl, a, x).getResult()
                    : arith::AndIOp::create(nb, nl, a, x).getResult()};
      if (isUnsigned)
        return {max ? arith::MaxUIOp::create(nb, nl, a, x).getResult()
                    : arith::MinUIOp::create(nb, nl, a, x).getResult()};
      return {max ? arith::MaxSIOp::create(nb, nl, a, x).getResult()
                  : arith::MinSIOp::create(nb, nl, a, x).getResult()};
    }
    case ReduceKind::Any:
      return {arith::OrIOp::create(nb, nl, acc[0], x)};
    case ReduceKind::All:
      return {arith::AndIOp::create(nb, nl, acc[0], x)};
    case ReduceKind::Argmax:
    case ReduceKind::Argmin: {
      // x wins when better, or equal with a smaller index; NaN is better
      // than any number (NumPy's first NaN).
      bool max = kind == ReduceKind::Argmax;
      Value v = acc[0], idx = acc[1];
      if (inOrder) {
        Value take;
        if (isFloat) {
          take = arith::AndIOp::create(
              nb, nl,
              arith::CmpFOp::create(nb, nl,
                                    max ? arith::CmpFPredicate::UGT
                                        : arith::CmpFPredicate::ULT,
                                    x, v),
              arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::ORD, v, v));
        } else {
          arith::CmpIPredicate pred = unsignedOrder
                                          ? (max ? arith::CmpIPredicate::ugt
                                                 : arith::CmpIPredicate::ult)
                                          : (max ? arith::CmpIPredicate::sgt
                                                 : arith::CmpIPredicate::slt);
          take = arith::CmpIOp::create(nb, nl, pred, x, v);
        }
        // Floats: the value is selected by `take` too. A NaN-propagating
        // arith.maximumf would free it from `take`, but x86 has no such
        // instruction: it expands to six vector ops (NaN and signed-zero
        // fix-ups), against one masked move here, and the lanes loop is
        // bound by its instruction count (argmax rows of 4096x1024 f32).
        Value value;
        if (isFloat)
          value = arith::SelectOp::create(nb, nl, take, x, v);
        else if (unsignedOrder)
          value = max ? arith::MaxUIOp::create(nb, nl, v, x).getResult()
                      : arith::MinUIOp::create(nb, nl, v, x).getResult();
        else
          value = max ? arith::MaxSIOp::create(nb, nl, v, x).getResult()
                      : arith::MinSIOp::create(nb, nl, v, x).getResult();
        return {value, arith::SelectOp::create(nb, nl, take, i, idx)};
      }
      auto [value, at] =
          combineArgPairs(nb, nl, max, unsignedOrder, v, idx, x, i);
      return {value, at};
    }
    }
    return {};
  };

  SmallVector<Value> sizeValues;
  for (OpFoldResult size : in.sizes)
    sizeValues.push_back(math.value(size));
  // The logical index, within the reduced axes (row-major over them), of a
  // loop point; `position(d)` is the element's position along dim d.
  auto logicalIndex = [&](OpBuilder &nb, Location nl,
                          function_ref<Value(int64_t)> position,
                          Type type = {}) -> Value {
    Value flat = arith::ConstantIndexOp::create(nb, nl, 0);
    for (int64_t d = 0; d < rank; ++d) {
      if (!reduced[d])
        continue;
      Value i = position(d);
      if (mirrored[d]) {
        Value last = arith::SubIOp::create(
            nb, nl, sizeValues[d], arith::ConstantIndexOp::create(nb, nl, 1));
        i = arith::SubIOp::create(nb, nl, last, i);
      }
      flat = arith::AddIOp::create(
          nb, nl, arith::MulIOp::create(nb, nl, flat, sizeValues[d]), i);
    }
    return arith::IndexCastOp::create(nb, nl, type ? type : nb.getI64Type(),
                                      flat);
  };
  auto plainIndex = [&](OpBuilder &nb, Location nl) {
    return logicalIndex(nb, nl, [&](int64_t d) -> Value {
      return linalg::IndexOp::create(nb, nl, loopOf[d]);
    });
  };

  // Reduced along the innermost loop with a long, static, positive stride:
  // accumulate in kLanes independent lanes (several accumulators, so the
  // loop vectorizes and float sums do not wait on one chain), the last
  // partial block into the first lanes, then combine the lanes.
  // Four 64-byte vectors of lanes, so that four dependency chains (a Kahan
  // step is five dependent operations) overlap; 16 when the accumulated
  // values are wider than 4 bytes or the dim is short.
  // An index reduction's lanes hold i32 indices when every index fits:
  // twice the lanes per vector, and half the index traffic, of i64 ones.
  Type laneIndexType = resultElement;
  if (index) {
    int64_t count = 1;
    for (int64_t d = 0; d < rank && count > 0; ++d)
      if (reduced[d]) {
        std::optional<int64_t> n = getConstantIntValue(in.sizes[d]);
        count = n && *n < (int64_t(1) << 31) ? count * *n : 0;
      }
    if (count > 0 && count < (int64_t(1) << 31))
      laneIndexType = b.getI32Type();
  }
  // Boolean reductions (any, all, max and min of bools) keep their lanes
  // as integers as wide as the widest source element (bytes for bools): an
  // i1 accumulator stored to memory at every element kept LLVM from
  // vectorizing the loop at all (`(v > 5).any()` of 1M f64: 0.93 ms against
  // NumPy's 0.14), and stride-vectorize-lanes leaves i1 alone. Lanes as
  // wide as the compared elements take each compare's mask as it is: byte
  // lanes of f64 compares packed 8 masks into one (k-register unpacks),
  // 0.15 ms against 0.11 with i64 lanes.
  bool boolLanes = !plain && accType.isInteger(1) &&
                   (kind == ReduceKind::Any || kind == ReduceKind::All ||
                    kind == ReduceKind::Max || kind == ReduceKind::Min);
  unsigned laneBits = 8;
  for (Value source : sources)
    if (auto type = dyn_cast<MemRefType>(source.getType()))
      if (type.getElementType().isIntOrFloat())
        laneBits = std::max(laneBits, type.getElementTypeBitWidth());
  Type byteType = b.getIntegerType(std::min(laneBits, 64u));
  Type laneAccType = index ? element : boolLanes ? byteType : accType;
  unsigned accBytes =
      laneAccType.isIntOrFloat()
          ? std::max(1u, laneAccType.getIntOrFloatBitWidth() / 8)
          : 8;
  if (index)
    accBytes = std::max(accBytes, laneIndexType.getIntOrFloatBitWidth() / 8);
  int64_t kLanes = std::max<int64_t>(16, (index ? 128 : 256) / accBytes);
  int64_t inner = rank ? order.back() : -1;
  int64_t innerSize = 0, innerStride = 0; // 0: not static
  if (inner >= 0) {
    innerSize = getConstantIntValue(in.sizes[inner]).value_or(0);
    innerStride = staticStrides[inner].value_or(0);
  }
  bool laneKind = kahan || index || boolLanes ||
                  ((kind == ReduceKind::Prod || kind == ReduceKind::Max ||
                    kind == ReduceKind::Min) &&
                   isa<FloatType>(accType));
  // Rows of fewer than 8 blocks of the wide lanes take 16: the lane tree
  // (log2 of the lanes stages a row) outweighed the blocks on short rows
  // (sums of 16384 x 256 f32 rows: 1.13 ms with 64 lanes, 0.70 with 16;
  // 32768 x 128: 2.43 against 1.12).
  if (innerSize < 8 * kLanes)
    kLanes = 16;
  bool lanes =
      laneKind && !plain && inner >= 0 && reduced[inner] &&
      innerSize >= 2 * kLanes && innerSize <= (int64_t(1) << 40) &&
      innerStride > 0 && innerStride <= (int64_t(1) << 20) &&
      llvm::all_of(staticStrides, [](auto s) { return s.has_value(); });

  // A map's source walked backwards along a loop (plainLoopIndices may
  // then walk that loop forwards for every source): an index reduction's
  // loop indices would no longer be the points' (stride-fuse fuses index
  // reductions of forward inputs only).
  bool flipped = false;
  if (map)
    for (LoopView &view : inViews)
      flipped |= llvm::any_of(
          view.exprs, [](AffineExpr e) { return !isa<AffineDimExpr>(e); });
  if (index && flipped)
    return op->emitOpError()
           << "an index reduction of an expression over an input with a "
              "negative stride is not supported";
  // Each accumulator meets its elements in increasing index order when the
  // reduced dims' loops nest in dim order, none walked mirrored.
  bool inOrder = !flipped;
  for (int64_t d = 0, last = -1; inOrder && d < rank; ++d)
    if (reduced[d]) {
      inOrder = !mirrored[d] && int64_t(loopOf[d]) > last;
      last = loopOf[d];
    }

  // Contiguous float rows (or the whole array): block maxima.
  if ((index || kind == ReduceKind::Max || kind == ReduceKind::Min) &&
      isFloat && !plain && !map &&
      succeeded(emitBlockMaxima(op, kind, input, in, reduced, keepdims, dest)))
    return success();

  SmallVector<AffineMap> maps;
  if (!lanes) {
    SmallVector<Value> outputs;
    SmallVector<AffineExpr> keptExprs;
    for (int64_t d = 0; d < rank; ++d)
      if (!reduced[d])
        keptExprs.push_back(b.getAffineDimExpr(loopOf[d]));
    for (auto [k, type] : llvm::enumerate(accTypes)) {
      bool isResult = k == resultAcc;
      outputs.push_back(isResult ? outView->view : scratch(type, keptSizes));
      linalg::FillOp::create(b, loc, identities[k], outputs.back());
    }
    for (LoopView &view : inViews)
      maps.push_back(AffineMap::get(rank, 0, view.exprs, context));
    for (unsigned k = 0; k < outputs.size(); ++k)
      maps.push_back(AffineMap::get(
          rank, 0, k == resultAcc ? outView->exprs : keptExprs, context));
    if (map)
      plainLoopIndices(maps, rank, context);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    for (int64_t d = 0; d < rank; ++d)
      if (reduced[d])
        iterators[loopOf[d]] = utils::IteratorType::reduction;
    // A float sum whose one reduced dim is the outermost loop (column sums
    // of a row-major array): blocks of kRowBlock rows are first summed
    // plainly into a buffer of partial sums (one add per element, at memory
    // speed), and the partial sums are then Kahan-summed into the result,
    // so the compensation runs once per block, not per element. The error
    // is a plain 16-term sum's plus Kahan's, below a pairwise sum's.
    constexpr int64_t kRowBlock = 16;
    int64_t outer = rank > 0 ? order.front() : 0;
    int64_t outerSize =
        rank > 0 ? getConstantIntValue(in.sizes[outer]).value_or(0) : 0;
    if (kahan && kind == ReduceKind::Sum && rank >= 2 && reduced[outer] &&
        llvm::count(reduced, true) == 1 && outerSize >= 4 * kRowBlock) {
      int64_t numBlocks = (outerSize + kRowBlock - 1) / kRowBlock;
      SmallVector<OpFoldResult> partialSizes{math.constant(numBlocks)};
      SmallVector<AffineExpr> partialExprs{
          b.getAffineDimExpr(0).floorDiv(kRowBlock)};
      SmallVector<AffineExpr> identity{b.getAffineDimExpr(0)};
      for (int64_t loop = 1; loop < rank; ++loop) {
        partialSizes.push_back(in.sizes[order[loop]]);
        partialExprs.push_back(b.getAffineDimExpr(loop));
        identity.push_back(b.getAffineDimExpr(loop));
      }
      Value partial = scratch(accType, partialSizes);
      linalg::FillOp::create(b, loc, identities[0], partial);
      auto blockSum = [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value x = prepare(nb, nl, mapValue(nb, nl, args.take_front(numIns)));
        linalg::YieldOp::create(
            nb, nl, ValueRange{arith::AddFOp::create(nb, nl, args.back(), x)});
      };
      // When whole blocks cover the rows, the rows loop becomes (block, row
      // in the block), the inputs' row dims split alike (expand_shape): the
      // blocks loop is parallel, so threads take runs of whole memory rows.
      // Split by columns instead, each thread read half of every row, and
      // two threads ran at half the speed of one (16384 x 1024 f32: 5.45
      // against 2.52 ms).
      std::optional<std::pair<SmallVector<Value>, SmallVector<AffineMap>>>
          blocked = blockedRows(b, loc, inValues,
                                ArrayRef<AffineMap>(maps).take_front(numIns),
                                rank, outerSize, kRowBlock);
      if (blocked) {
        SmallVector<AffineMap> blockMaps = blocked->second;
        SmallVector<AffineExpr> outExprs{b.getAffineDimExpr(0)};
        for (int64_t loop = 1; loop < rank; ++loop)
          outExprs.push_back(b.getAffineDimExpr(loop + 1));
        blockMaps.push_back(AffineMap::get(rank + 1, 0, outExprs, context));
        SmallVector<utils::IteratorType> blockIterators{
            utils::IteratorType::parallel, utils::IteratorType::reduction};
        blockIterators.append(iterators.begin() + 1, iterators.end());
        emitGeneric(loc, blocked->first, ValueRange{partial}, blockMaps,
                    blockIterators, blockSum);
      } else {
        SmallVector<AffineMap> blockMaps(maps.begin(), maps.begin() + numIns);
        blockMaps.push_back(AffineMap::get(rank, 0, partialExprs, context));
        emitGeneric(loc, inValues, ValueRange{partial}, blockMaps, iterators,
                    blockSum);
      }
      SmallVector<AffineMap> sumMaps{
          AffineMap::get(rank, 0, identity, context)};
      sumMaps.append(maps.begin() + numIns, maps.end());
      emitGeneric(loc, ValueRange{partial}, outputs, sumMaps, iterators,
                  [&](OpBuilder &nb, Location nl, ValueRange args) {
                    linalg::YieldOp::create(
                        nb, nl,
                        step(nb, nl, args[0], Value(), args.drop_front(1)));
                  });
      return success();
    }
    // A plain argmax/argmin says which it is: its (value, index) payload
    // is not one combiner op, and stride-map-linalg-to-gpu builds its block
    // tree from the rule instead. Its step compares indices (not
    // `inOrder`), so any order of the points gives the first index.
    SmallVector<NamedAttribute> attrs;
    bool argReduce = plain && index;
    if (argReduce) {
      attrs.push_back(b.getNamedAttr(
          kArgReduceAttr,
          b.getStringAttr(kind == ReduceKind::Argmax ? "max" : "min")));
      if (unsignedOrder)
        attrs.push_back(b.getNamedAttr(kUnsignedAttr, b.getUnitAttr()));
    }
    emitGeneric(
        loc, inValues, outputs, maps, iterators,
        [&](OpBuilder &nb, Location nl, ValueRange args) {
          Value x = prepare(nb, nl, mapValue(nb, nl, args.take_front(numIns)));
          Value i = index ? plainIndex(nb, nl) : Value();
          linalg::YieldOp::create(nb, nl,
                                  step(nb, nl, x, i, args.drop_front(numIns),
                                       inOrder && !argReduce));
        },
        attrs);
  } else {
    int64_t blocks = innerSize / kLanes, rest = innerSize % kLanes;
    // Loops: the other dims as before (0 .. rank-2), the blocks (rank-1,
    // reduction) and the lanes (rank, parallel).
    unsigned blockLoop = rank - 1, laneLoop = rank;
    // Fewer kept points than threads (a whole-array sum, max or any) and at
    // least kMinParallelBytes read: the blocks are split into one run per
    // thread, each into its own lanes (a leading `parts` dim of the lane
    // buffers), and the parts' lanes are combined at the end, as a split-K
    // product combines its partial products. Else no loop is long enough to
    // split (the lanes are short and cut in cache lines) and the kernel ran
    // on one thread.
    int64_t parts = 1;
    if (threads > 1 && !mirrored[inner]) {
      // Saturating unsigned counts; an unknown size counts as large. A
      // source broadcast along a dim (a fused reduction's operand) counts
      // its own elements once, as emitGeneric's rule does.
      uint64_t keptPoints = 1, bytes = 0;
      for (OpFoldResult size : keptSizes)
        keptPoints = llvm::SaturatingMultiply<uint64_t>(
            keptPoints, getConstantIntValue(size).value_or(kMinParallelBytes));
      for (Source &src : srcs)
        bytes = llvm::SaturatingAdd<uint64_t>(bytes, viewBytes(src.value));
      if (keptPoints < threads && bytes >= uint64_t(kMinParallelBytes) &&
          blocks >= 4 * int64_t(threads))
        parts = threads;
    }
    int64_t partBlocks = blocks / parts, extraBlocks = blocks % parts;
    // The blocks left over and the partial last block are accumulated after
    // the main blocks of every point of the other reduced dims: a lane then
    // meets a later row's elements before an earlier row's tail, and an
    // index reduction compares indices instead (the first NaN of a whole
    // 257 x 130 array was otherwise the one in the last row's main blocks).
    if (llvm::count(reduced, true) > 1 && (rest > 0 || extraBlocks > 0))
      inOrder = false;
    SmallVector<OpFoldResult> laneSizes;
    if (parts > 1)
      laneSizes.push_back(math.constant(parts));
    llvm::append_range(laneSizes, keptSizes);
    laneSizes.push_back(math.constant(kLanes));
    SmallVector<AffineExpr> laneExprs;
    for (int64_t d = 0; d < rank; ++d)
      if (!reduced[d])
        laneExprs.push_back(b.getAffineDimExpr(loopOf[d]));
    laneExprs.push_back(b.getAffineDimExpr(laneLoop));
    SmallVector<Value> laneBuffers;
    for (auto [k, type] : llvm::enumerate(accTypes)) {
      bool laneIndex = index && k == 1;
      laneBuffers.push_back(scratch(laneIndex   ? laneIndexType
                                    : boolLanes ? byteType
                                                : type,
                                    laneSizes));
      Value identity = identities[k];
      if (laneIndex)
        identity = arith::ConstantOp::create(
            b, loc, laneIndexType, b.getIntegerAttr(laneIndexType, 0));
      else if (boolLanes)
        identity = arith::ExtUIOp::create(b, loc, byteType, identity);
      linalg::FillOp::create(b, loc, identity, laneBuffers.back());
    }
    // Every source viewed with the inner dim split into blocks and lanes
    // (the main blocks) or as the last partial block (`tail`); scalars as
    // they are.
    auto inputViews = [&](bool tail, OpFoldResult firstBlock, int64_t numBlocks,
                          SmallVector<Value> &values,
                          SmallVector<AffineMap> &maps,
                          unsigned numLoops) -> LogicalResult {
      for (Source &src : srcs) {
        if (!isa<MemRefType>(src.value.getType())) {
          values.push_back(src.value);
          maps.push_back(AffineMap::get(numLoops, 0, {}, context));
          continue;
        }
        OpFoldResult innerStrideOf = src.strides[inner];
        OpFoldResult offset = math.add(
            src.offset,
            math.mul(tail ? math.constant(blocks * kLanes)
                          : math.mul(firstBlock, math.constant(kLanes)),
                     innerStrideOf));
        SmallVector<ViewDim> dims;
        SmallVector<int64_t> dimOf; // the input dim of each view dim
        for (int64_t d = 0; d < rank; ++d) {
          dimOf.push_back(d);
          if (d == inner && !tail)
            dimOf.push_back(d);
          if (d != inner) {
            dims.push_back({in.sizes[d], src.strides[d], loopOf[d]});
          } else if (tail) {
            dims.push_back({math.constant(rest), innerStrideOf, blockLoop});
          } else {
            dims.push_back({math.constant(numBlocks),
                            math.mul(math.constant(kLanes), innerStrideOf),
                            blockLoop});
            dims.push_back({math.constant(kLanes), innerStrideOf, laneLoop});
          }
        }
        FailureOr<LoopView> view = makeView(b, loc, src.value, offset, dims);
        if (failed(view))
          return failure();
        // Reduced dims walked backwards are walked forwards (as above).
        if (!map)
          for (auto [pos, dim] : llvm::enumerate(dims))
            if (reduced[dimOf[pos]] && !isa<AffineDimExpr>(view->exprs[pos]))
              view->exprs[pos] = b.getAffineDimExpr(dim.loop);
        values.push_back(view->view);
        maps.push_back(AffineMap::get(numLoops, 0, view->exprs, context));
      }
      return success();
    };
    SmallVector<utils::IteratorType> mainIterators(
        rank + 1, utils::IteratorType::parallel);
    for (int64_t d = 0; d < rank; ++d)
      if (reduced[d] && d != inner)
        mainIterators[loopOf[d]] = utils::IteratorType::reduction;
    mainIterators[blockLoop] = utils::IteratorType::reduction;
    // One accumulation step of the main blocks and of the tail; they differ
    // only in the inner dim's index, which `innerIndex` computes.
    auto laneStep = [&](OpBuilder &nb, Location nl, ValueRange args,
                        function_ref<Value()> innerIndex) {
      Value x = prepare(nb, nl, mapValue(nb, nl, args.take_front(numIns)));
      if (boolLanes)
        x = arith::ExtUIOp::create(nb, nl, byteType, x);
      Value i;
      if (index)
        i = logicalIndex(
            nb, nl,
            [&](int64_t d) -> Value {
              return d != inner ? linalg::IndexOp::create(nb, nl, loopOf[d])
                                : innerIndex();
            },
            laneIndexType);
      linalg::YieldOp::create(
          nb, nl, step(nb, nl, x, i, args.drop_front(numIns), inOrder));
    };
    // Contiguous lanes are marked for stride-vectorize-lanes, which keeps
    // the accumulators in vector registers across the blocks.
    SmallVector<NamedAttribute> laneAttrs;
    if (innerStride == 1)
      laneAttrs.push_back(b.getNamedAttr(kLanesAttr, b.getUnitAttr()));
    // `numBlocks` blocks from block `firstBlock` into `lanes`; in threaded
    // chunks (emitGeneric) when `split`.
    auto emitBlocks = [&](OpFoldResult firstBlock, int64_t numBlocks,
                          ValueRange lanes, bool split) -> LogicalResult {
      SmallVector<Value> mainInputs;
      SmallVector<AffineMap> mainMaps;
      if (failed(inputViews(/*tail=*/false, firstBlock, numBlocks, mainInputs,
                            mainMaps, rank + 1)))
        return failure();
      for (size_t k = 0; k < lanes.size(); ++k)
        mainMaps.push_back(AffineMap::get(rank + 1, 0, laneExprs, context));
      if (map)
        plainLoopIndices(mainMaps, rank + 1, context);
      auto body = [&](OpBuilder &nb, Location nl, ValueRange args) {
        laneStep(nb, nl, args, [&]() -> Value {
          Value block = linalg::IndexOp::create(nb, nl, blockLoop);
          std::optional<int64_t> first = getConstantIntValue(firstBlock);
          if (!first || *first != 0)
            block = arith::AddIOp::create(
                nb, nl, block,
                first ? arith::ConstantIndexOp::create(nb, nl, *first)
                      : cast<Value>(firstBlock));
          Value lane = linalg::IndexOp::create(nb, nl, laneLoop);
          return arith::AddIOp::create(
              nb, nl,
              arith::MulIOp::create(
                  nb, nl, block,
                  arith::ConstantIndexOp::create(nb, nl, kLanes)),
              lane);
        });
      };
      if (split) {
        emitGeneric(loc, mainInputs, lanes, mainMaps, mainIterators, body,
                    laneAttrs);
        return success();
      }
      auto generic =
          linalg::GenericOp::create(b, loc, TypeRange{}, mainInputs, lanes,
                                    mainMaps, mainIterators, body);
      for (NamedAttribute attr : laneAttrs)
        generic->setAttr(attr.getName(), attr.getValue());
      return success();
    };
    // Part `p`'s lanes (kept dims and lanes) of a lane buffer.
    auto partLanes = [&](Value buffer, OpFoldResult p) -> Value {
      if (parts == 1)
        return buffer;
      auto type = cast<MemRefType>(buffer.getType());
      SmallVector<OpFoldResult> offsets(type.getRank(), math.constant(0));
      offsets[0] = p;
      SmallVector<OpFoldResult> sizes(laneSizes);
      sizes[0] = math.constant(1);
      SmallVector<OpFoldResult> unit(type.getRank(), math.constant(1));
      auto reduced = memref::SubViewOp::inferRankReducedResultType(
          type.getShape().drop_front(), type, offsets, sizes, unit);
      return memref::SubViewOp::create(b, loc, cast<MemRefType>(reduced),
                                       buffer, offsets, sizes, unit);
    };
    // The main blocks: a run of partBlocks per part (an scf.parallel over
    // the parts), the blocks left over into part 0.
    if (parts == 1) {
      if (failed(emitBlocks(math.constant(0), blocks, laneBuffers,
                            /*split=*/true)))
        return op->emitOpError() << "the input cannot be viewed in lanes";
    } else {
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      Value count = arith::ConstantIndexOp::create(b, loc, parts);
      auto parallel = scf::ParallelOp::create(
          b, loc, ValueRange{zero}, ValueRange{count}, ValueRange{one});
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(parallel.getBody());
        Value p = parallel.getInductionVars()[0];
        SmallVector<Value> lanes;
        for (Value buffer : laneBuffers)
          lanes.push_back(partLanes(buffer, p));
        Value first = arith::MulIOp::create(
            b, loc, p, arith::ConstantIndexOp::create(b, loc, partBlocks));
        if (failed(emitBlocks(first, partBlocks, lanes, /*split=*/false)))
          return op->emitOpError() << "the input cannot be viewed in lanes";
      }
      if (explainsDecisions(op))
        emitRemark(loc) << "stride-explain: threads: " << parts
                        << " parts of the reduced dim's " << blocks
                        << " blocks of " << kLanes
                        << " lanes, each part in its own lanes, combined "
                           "at the end (fewer kept points than threads)";
      if (extraBlocks > 0) {
        SmallVector<Value> lanes;
        for (Value buffer : laneBuffers)
          lanes.push_back(partLanes(buffer, math.constant(0)));
        if (failed(emitBlocks(math.constant(parts * partBlocks), extraBlocks,
                              lanes, /*split=*/false)))
          return op->emitOpError() << "the input cannot be viewed in lanes";
      }
    }
    // The last partial block, into lanes 0 .. rest-1.
    if (rest > 0) {
      SmallVector<Value> tailInputs;
      SmallVector<AffineMap> tailMaps;
      if (failed(inputViews(/*tail=*/true, math.constant(0), 0, tailInputs,
                            tailMaps, rank)))
        return op->emitOpError() << "the input cannot be viewed in lanes";
      SmallVector<AffineExpr> tailLaneExprs(laneExprs);
      tailLaneExprs.back() = b.getAffineDimExpr(blockLoop);
      for (size_t k = 0; k < laneBuffers.size(); ++k)
        tailMaps.push_back(AffineMap::get(rank, 0, tailLaneExprs, context));
      if (map)
        plainLoopIndices(tailMaps, rank, context);
      SmallVector<utils::IteratorType> tailIterators(
          rank, utils::IteratorType::parallel);
      for (int64_t d = 0; d < rank; ++d)
        if (reduced[d] && d != inner)
          tailIterators[loopOf[d]] = utils::IteratorType::reduction;
      // The first `rest` lanes, as the tail's loop is that long.
      SmallVector<Value> tailLanes;
      SmallVector<OpFoldResult> zeros(keptSizes.size() + 1, math.constant(0));
      SmallVector<OpFoldResult> ones(keptSizes.size() + 1, math.constant(1));
      SmallVector<OpFoldResult> tailSizes(keptSizes);
      tailSizes.push_back(math.constant(rest));
      for (Value buffer : laneBuffers)
        tailLanes.push_back(memref::SubViewOp::create(
            b, loc, partLanes(buffer, math.constant(0)), zeros, tailSizes,
            ones));
      emitGeneric(
          loc, tailInputs, tailLanes, tailMaps, tailIterators,
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            laneStep(nb, nl, args, [&]() -> Value {
              return arith::AddIOp::create(
                  nb, nl, linalg::IndexOp::create(nb, nl, blockLoop),
                  arith::ConstantIndexOp::create(nb, nl, blocks * kLanes));
            });
          });
    }
    // Fold the lanes in halves, lane j taking in lane j + half, until one
    // is left: a tree, so that the combine is log2(lanes) steps deep rather
    // than one chain through every lane (which cost more than the blocks
    // themselves on rows of a thousand elements), and a float sum's error
    // stays below a pairwise sum's.
    int64_t kept = keptSizes.size();
    unsigned numAccs = laneBuffers.size();
    // The lane buffers' dims: (parts,) kept dims, lanes.
    int64_t laneDims = laneSizes.size();
    auto laneRange = [&](Value buffer, int64_t first, int64_t count) {
      SmallVector<OpFoldResult> offsets(laneDims, math.constant(0)),
          sizes(laneSizes);
      offsets.back() = math.constant(first);
      sizes.back() = math.constant(count);
      SmallVector<OpFoldResult> unit(laneDims, math.constant(1));
      return memref::SubViewOp::create(b, loc, buffer, offsets, sizes, unit)
          .getResult();
    };
    SmallVector<AffineExpr> stageIds;
    for (int64_t k = 0; k < laneDims; ++k)
      stageIds.push_back(b.getAffineDimExpr(k));
    AffineMap stageMap = AffineMap::get(laneDims, 0, stageIds, context);
    for (int64_t width = kLanes; width > 1; width /= 2) {
      int64_t half = width / 2;
      SmallVector<Value> upper, lower;
      for (Value buffer : laneBuffers) {
        upper.push_back(laneRange(buffer, half, half));
        lower.push_back(laneRange(buffer, 0, half));
      }
      SmallVector<AffineMap> stageMaps(2 * numAccs, stageMap);
      auto stage = linalg::GenericOp::create(
          b, loc, TypeRange{}, upper, lower, stageMaps,
          SmallVector<utils::IteratorType>(laneDims,
                                           utils::IteratorType::parallel),
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            ValueRange other = args.take_front(numAccs);
            ValueRange acc = args.drop_front(numAccs);
            if (kahan) {
              // Two compensated sums (value s - c each) added exactly:
              // TwoSum of the values, the compensations and its error
              // summed; the other lane's s - c is not rounded first, which
              // would lose a rounding of a large partial sum per level.
              Value s1 = acc[0], c1 = acc[1], s2 = other[0], c2 = other[1];
              Value t = arith::AddFOp::create(nb, nl, s1, s2);
              Value bb = arith::SubFOp::create(nb, nl, t, s1);
              Value err = arith::AddFOp::create(
                  nb, nl,
                  arith::SubFOp::create(nb, nl, s1,
                                        arith::SubFOp::create(nb, nl, t, bb)),
                  arith::SubFOp::create(nb, nl, s2, bb));
              Value c = arith::SubFOp::create(
                  nb, nl, arith::AddFOp::create(nb, nl, c1, c2), err);
              // Where t is not finite the compensation would be NaN: drop
              // it, so that infinities and NaN propagate as in a plain sum.
              Value inf = arith::ConstantOp::create(
                  nb, nl, accType,
                  nb.getFloatAttr(accType,
                                  std::numeric_limits<double>::infinity()));
              Value finite =
                  arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OLT,
                                        math::AbsFOp::create(nb, nl, t), inf);
              Value zero = arith::ConstantOp::create(nb, nl, accType,
                                                     nb.getZeroAttr(accType));
              linalg::YieldOp::create(
                  nb, nl,
                  ValueRange{t,
                             arith::SelectOp::create(nb, nl, finite, c, zero)});
              return;
            }
            Value x = other[0], i;
            if (index)
              i = other[1];
            linalg::YieldOp::create(nb, nl, step(nb, nl, x, i, acc));
          });
      // Its last loop is the lanes too: stride-vectorize-lanes makes each
      // kept point's step one vector op per payload op. Left to LLVM, the
      // 16 lanes of an argmax step were unrolled into scalar compares and
      // selects (16384 x 256 f32 rows: 1.63 ms against max's 0.60).
      stage->setAttr(kLanesAttr, b.getUnitAttr());
    }
    for (Value &buffer : laneBuffers)
      buffer = laneRange(buffer, 0, 1);
    // Combine the remaining lane into the result: loops over the kept dims
    // (in dim order), then the parts and the lane (reductions).
    SmallVector<ViewDim> combineDims;
    for (int64_t d = 0, r = 0, k = 0; d < rank; ++d) {
      if (!reduced[d])
        combineDims.push_back(
            {in.sizes[d], out.strides[r], static_cast<unsigned>(k++)});
      if (!reduced[d] || keepdims)
        ++r;
    }
    FailureOr<LoopView> resultView =
        makeView(b, loc, dest, out.offset, combineDims);
    if (failed(resultView))
      return op->emitOpError() << "the result cannot be viewed";
    SmallVector<AffineExpr> keptIds, laneIds;
    for (int64_t k = 0; k < kept; ++k)
      keptIds.push_back(b.getAffineDimExpr(k));
    if (parts > 1)
      laneIds.push_back(b.getAffineDimExpr(kept));
    llvm::append_range(laneIds, keptIds);
    laneIds.push_back(b.getAffineDimExpr(laneDims - 1));
    SmallVector<Value> outputs;
    SmallVector<AffineMap> combineMaps;
    for (size_t k = 0; k < laneBuffers.size(); ++k)
      combineMaps.push_back(AffineMap::get(laneDims, 0, laneIds, context));
    for (auto [k, type] : llvm::enumerate(accTypes)) {
      bool isResult = k == resultAcc;
      outputs.push_back(isResult ? resultView->view : scratch(type, keptSizes));
      linalg::FillOp::create(b, loc, identities[k], outputs.back());
      combineMaps.push_back(AffineMap::get(
          laneDims, 0, isResult ? resultView->exprs : keptIds, context));
    }
    SmallVector<utils::IteratorType> combineIterators(
        laneDims, utils::IteratorType::reduction);
    std::fill_n(combineIterators.begin(), kept, utils::IteratorType::parallel);
    unsigned numLanes = laneBuffers.size();
    linalg::GenericOp::create(
        b, loc, TypeRange{}, laneBuffers, outputs, combineMaps,
        combineIterators, [&](OpBuilder &nb, Location nl, ValueRange args) {
          ValueRange lane = args.take_front(numLanes);
          ValueRange acc = args.drop_front(numLanes);
          Value x = lane[0], i;
          if (kahan) // a lane's compensated estimate
            x = arith::SubFOp::create(nb, nl, lane[0], lane[1]);
          if (boolLanes) // 0 or 1
            x = arith::TruncIOp::create(nb, nl, accType, x);
          if (index) {
            i = lane[1];
            if (i.getType() != resultElement)
              i = arith::ExtSIOp::create(nb, nl, resultElement, i);
          }
          linalg::YieldOp::create(nb, nl, step(nb, nl, x, i, acc));
        });
  }

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
    auto map = AffineMap::get(outRank, 0, ids, context);
    linalg::GenericOp::create(
        b, loc, TypeRange{}, ValueRange{}, ValueRange{outView->view},
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
