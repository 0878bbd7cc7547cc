//===- Matmul.cpp - stride.matmul as linalg.fill plus a linalg.generic ----===//

#include "Kernels.h"

#include "stride/Layout/Shape.h"

#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::stride;
namespace layout = ::stride::layout;

LogicalResult KernelBuilder::emitMatmul(
    MatmulOp op, Value lhs, Value rhs,
    function_ref<Value(ArrayRef<OpFoldResult>)> makeDest) {
  Location loc = op.getLoc();
  auto lhsType = dyn_cast<RankedTensorType>(op.getLhs().getType());
  auto rhsType = dyn_cast<RankedTensorType>(op.getRhs().getType());
  auto resultType = dyn_cast<RankedTensorType>(op.getType());
  if (!lhsType || !rhsType || !resultType)
    return op.emitOpError() << "shapes are unknown; run stride-infer-shapes "
                               "before bufferization";
  layout::MatmulResult shape = layout::matmulShape(
      layout::Shape(lhsType.getShape().begin(), lhsType.getShape().end()),
      layout::Shape(rhsType.getShape().begin(), rhsType.getShape().end()));
  if (!shape.ok())
    return op.emitOpError() << shape.error->message;
  const layout::MatmulInfo &info = shape.info;
  IndexMath math(b, loc);
  StridedMetadata l = getStridedMetadata(b, loc, lhs);
  StridedMetadata r = getStridedMetadata(b, loc, rhs);
  int64_t batch = info.batch.size();
  int64_t lr = lhsType.getRank(), rr = rhsType.getRank();

  // Result sizes: batch dims broadcast; then m and n unless promoted.
  SmallVector<OpFoldResult> batchSizes;
  for (int64_t j = 0; j < batch; ++j) {
    if (!ShapedType::isDynamic(info.batch[j])) {
      batchSizes.push_back(math.constant(info.batch[j]));
      continue;
    }
    OpFoldResult size = math.constant(1);
    int64_t lb = lr - 2 - (batch - j), rb = rr - 2 - (batch - j);
    if (lb >= 0)
      size = math.selectIfOne(l.sizes[lb], size, l.sizes[lb]);
    if (rb >= 0)
      size = math.selectIfOne(r.sizes[rb], size, r.sizes[rb]);
    batchSizes.push_back(size);
  }
  OpFoldResult m = info.lhsIsVector ? math.constant(1) : l.sizes[lr - 2];
  OpFoldResult n = info.rhsIsVector ? math.constant(1) : r.sizes[rr - 1];
  OpFoldResult k = l.sizes[lr - 1];
  SmallVector<OpFoldResult> resultSizes(batchSizes);
  if (!info.lhsIsVector)
    resultSizes.push_back(m);
  if (!info.rhsIsVector)
    resultSizes.push_back(n);
  Value dest = makeDest(resultSizes);
  StridedMetadata o = getStridedMetadata(b, loc, dest);

  // Loops batch..., m, k, n: n innermost walks the rhs and the output rows
  // contiguously, so the inner loop vectorizes (k innermost would be a
  // strided dot product).
  unsigned mLoop = batch, kLoop = batch + 1, nLoop = batch + 2;
  auto batchDims = [&](const StridedMetadata &meta, int64_t rank,
                       SmallVectorImpl<ViewDim> &dims) {
    for (int64_t j = 0; j < batch; ++j) {
      int64_t own = rank - 2 - (batch - j);
      OpFoldResult stride =
          own >= 0 ? broadcastStride(math, meta, own) : math.constant(0);
      dims.push_back({batchSizes[j], stride, static_cast<unsigned>(j)});
    }
  };
  SmallVector<ViewDim> lhsDims, rhsDims, outDims;
  if (info.lhsIsVector) {
    lhsDims.push_back({m, math.constant(0), mLoop});
    lhsDims.push_back({k, l.strides[0], kLoop});
  } else {
    batchDims(l, lr, lhsDims);
    lhsDims.push_back({m, l.strides[lr - 2], mLoop});
    lhsDims.push_back({k, l.strides[lr - 1], kLoop});
  }
  if (info.rhsIsVector) {
    rhsDims.push_back({k, r.strides[0], kLoop});
    rhsDims.push_back({n, math.constant(0), nLoop});
  } else {
    batchDims(r, rr, rhsDims);
    rhsDims.push_back({k, r.strides[rr - 2], kLoop});
    rhsDims.push_back({n, r.strides[rr - 1], nLoop});
  }
  for (int64_t j = 0; j < batch; ++j)
    outDims.push_back({batchSizes[j], o.strides[j], static_cast<unsigned>(j)});
  int64_t next = batch;
  outDims.push_back({m, info.lhsIsVector ? math.constant(0) : o.strides[next++],
                     mLoop});
  outDims.push_back({n, info.rhsIsVector ? math.constant(0) : o.strides[next++],
                     nLoop});

  FailureOr<LoopView> lv = makeView(b, loc, lhs, l.offset, lhsDims);
  FailureOr<LoopView> rv = makeView(b, loc, rhs, r.offset, rhsDims);
  FailureOr<LoopView> ov = makeView(b, loc, dest, o.offset, outDims);
  if (failed(lv) || failed(rv) || failed(ov))
    return op.emitOpError() << "an operand has a negative stride along a "
                               "dimension of dynamic size, which is not "
                               "supported";
  // linalg needs every loop as a plain index somewhere. If k is mirrored in
  // both operands, walk it backwards in both instead: the same products,
  // summed in the opposite order (NumPy leaves the order to BLAS too).
  auto isMirrored = [&](const LoopView &v, size_t i) {
    return !isa<AffineDimExpr>(v.exprs[i]);
  };
  size_t lhsK = lv->exprs.size() - 1, rhsK = rv->exprs.size() - 2;
  if (isMirrored(*lv, lhsK) && isMirrored(*rv, rhsK)) {
    lv->exprs[lhsK] = b.getAffineDimExpr(kLoop);
    rv->exprs[rhsK] = b.getAffineDimExpr(kLoop);
  }
  Type element = resultType.getElementType();
  Value zero = arith::ConstantOp::create(b, loc, element, b.getZeroAttr(element));
  linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{dest});
  unsigned numLoops = batch + 3;
  auto mapOf = [&](const LoopView &v) {
    return AffineMap::get(numLoops, 0, v.exprs, b.getContext());
  };
  SmallVector<utils::IteratorType> iterators(numLoops,
                                             utils::IteratorType::parallel);
  iterators[kLoop] = utils::IteratorType::reduction;
  emitGeneric(
      loc, ValueRange{lv->view, rv->view}, ValueRange{ov->view},
      {mapOf(*lv), mapOf(*rv), mapOf(*ov)}, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value sum;
        if (isa<FloatType>(element)) {
          Value product = arith::MulFOp::create(nested, nestedLoc, args[0], args[1]);
          sum = arith::AddFOp::create(nested, nestedLoc, args[2], product);
        } else if (element.isInteger(1)) {
          // NumPy's bool matmul: whether any product is true (i1 addi
          // would count modulo 2).
          Value product = arith::AndIOp::create(nested, nestedLoc, args[0], args[1]);
          sum = arith::OrIOp::create(nested, nestedLoc, args[2], product);
        } else {
          Value product = arith::MulIOp::create(nested, nestedLoc, args[0], args[1]);
          sum = arith::AddIOp::create(nested, nestedLoc, args[2], product);
        }
        linalg::YieldOp::create(nested, nestedLoc, sum);
      });
  return success();
}
