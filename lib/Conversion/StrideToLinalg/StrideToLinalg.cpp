//===- StrideToLinalg.cpp - Stride ops to linalg on strided memrefs -------===//

#include "Views.h"

#include "stride/Conversion/Passes.h"
#include "stride/Dialect/Stride/IR/StrideOps.h"
#include "stride/Layout/Shape.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "convert-stride-to-linalg"

namespace mlir::stride {
#define GEN_PASS_DEF_CONVERTSTRIDETOLINALG
#include "stride/Conversion/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;
using namespace mlir::stride;
namespace layout = ::stride::layout;

namespace {

/// The memref a tensor of type `type` lives in: its layout's strides (dynamic
/// where unknown) and a dynamic offset, so that any view can be passed.
MemRefType memrefTypeFor(RankedTensorType type) {
  SmallVector<int64_t> strides = getStridesOf(type);
  auto layoutAttr = StridedLayoutAttr::get(type.getContext(),
                                           ShapedType::kDynamic, strides);
  return MemRefType::get(type.getShape(), type.getElementType(), layoutAttr);
}

/// The stride dim `d` of a view contributes where it is broadcast against a
/// larger size: 0 if the dim has size 1 (at run time, for a dynamic size).
/// A negative stride stays visible, so that makeView flips it or refuses.
OpFoldResult broadcastStride(IndexMath &math, const StridedMetadata &meta,
                             int64_t d) {
  std::optional<int64_t> stride = getConstantIntValue(meta.strides[d]);
  if (stride && *stride < 0 && !getConstantIntValue(meta.sizes[d]))
    return meta.strides[d];
  return math.selectIfOne(meta.sizes[d], math.constant(0), meta.strides[d]);
}

bool hasTensor(TypeRange types) {
  return llvm::any_of(types, [](Type t) { return isa<TensorType>(t); });
}

/// Lowers one function; see the pass description for the scheme.
class FunctionLowering {
public:
  FunctionLowering(func::FuncOp oldFunc, unsigned threads)
      : oldFunc(oldFunc), b(oldFunc), threads(threads) {}

  LogicalResult run();

private:
  LogicalResult lowerOp(Operation *op);
  LogicalResult lowerBroadcast(BroadcastOp op);
  LogicalResult lowerMatmul(MatmulOp op);
  LogicalResult lowerReturn(func::ReturnOp op);
  /// Emits the kernel's linalg.generic, in `threads` chunks of its first loop
  /// when that pays off (see the pass description).
  void emitGeneric(Location loc, ValueRange inputs, ValueRange outputs,
                   ArrayRef<AffineMap> maps,
                   ArrayRef<utils::IteratorType> iterators,
                   function_ref<void(OpBuilder &, Location, ValueRange)> body);

  /// The buffer result `result` is computed into: a returned value goes
  /// straight to its output argument, anything else to a new allocation.
  Value destinationFor(Value result, ArrayRef<OpFoldResult> sizes);
  Value allocate(RankedTensorType type, ArrayRef<OpFoldResult> sizes);
  SmallVector<OpFoldResult> sizesOf(Value memref);
  /// Sizes of the broadcast of `operands` (memrefs or scalars), right-aligned.
  SmallVector<OpFoldResult> broadcastSizes(RankedTensorType resultType,
                                           ValueRange operands);

  func::FuncOp oldFunc, newFunc;
  OpBuilder b;
  IRMapping mapping;
  SmallVector<Value> outputs;          // the output arguments
  SmallVector<bool> outputWritten;     // computed in place already?
  DenseMap<Value, unsigned> returnedAt; // old value -> first output index
  SmallVector<Value> allocations;
  unsigned threads;
};

/// Iteration spaces smaller than this run on one thread: the fork/join of
/// OpenMP costs microseconds.
constexpr int64_t kMinParallelPoints = 1 << 16;

SmallVector<OpFoldResult> FunctionLowering::sizesOf(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<OpFoldResult> sizes;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    if (type.isDynamicDim(i))
      sizes.push_back(
          memref::DimOp::create(b, memref.getLoc(), memref, i).getResult());
    else
      sizes.push_back(b.getIndexAttr(type.getDimSize(i)));
  }
  return sizes;
}

SmallVector<OpFoldResult>
FunctionLowering::broadcastSizes(RankedTensorType resultType,
                                 ValueRange operands) {
  IndexMath math(b, oldFunc.getLoc());
  int64_t rank = resultType.getRank();
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < rank; ++d) {
    if (!resultType.isDynamicDim(d)) {
      sizes.push_back(b.getIndexAttr(resultType.getDimSize(d)));
      continue;
    }
    // The run-time size is the operands' size that is not 1 (the shape
    // checks guarantee they agree), or 1.
    OpFoldResult size = math.constant(1);
    for (Value operand : operands) {
      auto type = dyn_cast<MemRefType>(operand.getType());
      if (!type || d - (rank - type.getRank()) < 0)
        continue;
      int64_t own = d - (rank - type.getRank());
      OpFoldResult s =
          type.isDynamicDim(own)
              ? OpFoldResult(
                    memref::DimOp::create(b, operand.getLoc(), operand, own)
                        .getResult())
              : OpFoldResult(b.getIndexAttr(type.getDimSize(own)));
      size = math.selectIfOne(s, size, s);
    }
    sizes.push_back(size);
  }
  return sizes;
}

Value FunctionLowering::allocate(RankedTensorType type,
                                 ArrayRef<OpFoldResult> sizes) {
  Location loc = oldFunc.getLoc();
  IndexMath math(b, loc);
  MemRefType target = memrefTypeFor(type);
  SmallVector<int64_t> staticStrides = getStridesOf(type);
  // Dense in the layout's dimension order: strides from the sizes.
  LayoutAttr layoutAttr = getLayout(type);
  SmallVector<int64_t> order;
  if (layoutAttr)
    order = layoutAttr.getDimOrder(type.getShape());
  else
    for (int64_t i = 0; i < type.getRank(); ++i)
      order.push_back(i);
  SmallVector<OpFoldResult> strides(type.getRank());
  OpFoldResult running = math.constant(1);
  for (int64_t d : llvm::reverse(order)) {
    strides[d] = ShapedType::isDynamic(staticStrides[d])
                     ? running
                     : OpFoldResult(b.getIndexAttr(staticStrides[d]));
    OpFoldResult size = math.selectIfOne(sizes[d], math.constant(1), sizes[d]);
    // A size-0 dim still advances the running stride by one.
    if (std::optional<int64_t> c = getConstantIntValue(sizes[d]))
      size = math.constant(std::max<int64_t>(*c, 1));
    running = math.mul(running, size);
  }
  // `running` now counts the dense elements (at least 1).
  auto flatType = MemRefType::get({ShapedType::kDynamic}, type.getElementType());
  Value flat = memref::AllocOp::create(b, loc, flatType,
                                       ValueRange{math.value(running)},
                                       b.getI64IntegerAttr(64));
  allocations.push_back(flat);
  Value view = memref::ReinterpretCastOp::create(b, loc, flat,
                                                 math.constant(0), sizes,
                                                 strides);
  return memref::CastOp::create(b, loc, target, view);
}

Value FunctionLowering::destinationFor(Value result,
                                       ArrayRef<OpFoldResult> sizes) {
  auto it = returnedAt.find(result);
  if (it != returnedAt.end() && !outputWritten[it->second]) {
    outputWritten[it->second] = true;
    return outputs[it->second];
  }
  return allocate(cast<RankedTensorType>(result.getType()), sizes);
}

LogicalResult FunctionLowering::lowerBroadcast(BroadcastOp op) {
  Location loc = op.getLoc();
  auto resultType = dyn_cast<RankedTensorType>(op.getResult(0).getType());
  if (!resultType)
    return op.emitOpError() << "result shape is unknown; run stride-infer-shapes "
                               "before convert-stride-to-linalg";
  int64_t rank = resultType.getRank();
  SmallVector<Value> inputs;
  for (Value v : op.getInputs())
    inputs.push_back(mapping.lookup(v));
  SmallVector<OpFoldResult> sizes;
  SmallVector<Value> dests;
  bool intoEmpty = llvm::all_of(op.getInits(), [](Value init) {
    return init.getDefiningOp<tensor::EmptyOp>();
  });
  if (!op.getInits().empty() && !intoEmpty) {
    // The result is written into the destination's buffer, so the old value
    // must not be read afterwards.
    for (auto [i, init] : llvm::enumerate(op.getInits()))
      for (Operation *user : init.getUsers())
        if (user != op && user->getBlock() == op->getBlock() &&
            op->isBeforeInBlock(user))
          return op.emitOpError()
                 << "overwrites destination #" << i
                 << " in place, but the old value is used afterwards (by "
                 << user->getName() << "); use this op's result instead";
    for (Value init : op.getInits())
      dests.push_back(mapping.lookup(init));
    sizes = sizesOf(dests.front());
  } else {
    sizes = broadcastSizes(resultType, inputs);
    for (Value result : op.getResults())
      dests.push_back(destinationFor(result, sizes));
  }
  for (auto [result, dest] : llvm::zip(op.getResults(), dests))
    mapping.map(result, dest);

  // Loops, outermost first, each a group of result dims (outer to inner).
  SmallVector<SmallVector<int64_t>> groups = op.getIterationGroups();
  if (groups.empty()) {
    LayoutAttr layoutAttr = getLayout(resultType);
    SmallVector<int64_t> order =
        layoutAttr ? layoutAttr.getDimOrder(resultType.getShape())
                   : SmallVector<int64_t>();
    if (order.empty())
      for (int64_t d = 0; d < rank; ++d)
        order.push_back(d);
    for (int64_t d : order)
      groups.push_back({d});
  }
  IndexMath math(b, loc);
  // A view of `memref` (right-aligned to the result) with one dim per loop.
  // Null when a group of dims is not one arithmetic progression in it.
  auto viewOf = [&](Value memref) -> FailureOr<LoopView> {
    auto type = cast<MemRefType>(memref.getType());
    int64_t lead = rank - type.getRank();
    StridedMetadata meta = getStridedMetadata(b, loc, memref);
    // The stride of result dim `d` in this operand: 0 where it broadcasts.
    auto strideOf = [&](int64_t d) -> OpFoldResult {
      int64_t own = d - lead;
      if (own < 0)
        return math.constant(0);
      return broadcastStride(math, meta, own);
    };
    SmallVector<ViewDim> dims;
    for (auto [loop, group] : llvm::enumerate(groups)) {
      OpFoldResult size = math.constant(1);
      for (int64_t d : group)
        size = math.mul(size, sizes[d]);
      // The loop walks the group's dims as one: every non-trivial dim must
      // continue the progression of the next inner one (TensorIterator's
      // coalescing rule), and its step is the innermost one's stride.
      std::optional<int64_t> innerStride, innerSize;
      OpFoldResult stride = math.constant(0);
      bool first = true;
      for (int64_t d : llvm::reverse(group)) {
        std::optional<int64_t> n = getConstantIntValue(sizes[d]);
        if (group.size() > 1 && !n)
          return failure();
        if (group.size() > 1 && *n == 1)
          continue;
        OpFoldResult st = strideOf(d);
        if (first) {
          stride = st;
          first = false;
        } else {
          std::optional<int64_t> c = getConstantIntValue(st);
          if (!c || !innerStride || *innerStride * *innerSize != *c)
            return failure();
        }
        innerStride = getConstantIntValue(st);
        innerSize = n;
      }
      dims.push_back({size, stride, static_cast<unsigned>(loop)});
    }
    return makeView(b, loc, memref, meta.offset, dims);
  };
  auto viewError = [&](StringRef what, size_t i) {
    return op.emitOpError()
           << what << " #" << i
           << " cannot be viewed with the loops of 'iteration': a merged "
              "group of dims is not one progression in it, or a negative "
              "stride meets a dynamic size";
  };

  unsigned numLoops = groups.size();
  SmallVector<Value> viewInputs, viewOutputs;
  SmallVector<AffineMap> maps;
  for (auto [i, input] : llvm::enumerate(inputs)) {
    if (!isa<MemRefType>(input.getType())) {
      viewInputs.push_back(input); // a scalar: the same value everywhere
      maps.push_back(AffineMap::get(numLoops, 0, {}, b.getContext()));
      continue;
    }
    FailureOr<LoopView> view = viewOf(input);
    if (failed(view))
      return viewError("input", i);
    viewInputs.push_back(view->view);
    maps.push_back(AffineMap::get(numLoops, 0, view->exprs, b.getContext()));
  }
  // A tensor with no elements is never written, whatever its strides.
  bool empty = llvm::any_of(sizes, [](OpFoldResult s) {
    std::optional<int64_t> c = getConstantIntValue(s);
    return c && *c == 0;
  });
  for (auto [i, dest] : llvm::enumerate(dests)) {
    StridedMetadata meta = getStridedMetadata(b, loc, dest);
    for (auto [d, stride] : llvm::enumerate(meta.strides)) {
      std::optional<int64_t> s = getConstantIntValue(stride);
      std::optional<int64_t> n = getConstantIntValue(meta.sizes[d]);
      if (!empty && s && *s == 0 && (!n || *n > 1))
        return op.emitOpError()
               << "destination #" << i << " has stride 0 in dimension " << d
               << "; a destination must not repeat elements";
    }
    FailureOr<LoopView> view = viewOf(dest);
    if (failed(view))
      return viewError("destination", i);
    viewOutputs.push_back(view->view);
    maps.push_back(AffineMap::get(numLoops, 0, view->exprs, b.getContext()));
  }
  // linalg needs every loop as a plain index in some operand. A loop that
  // only appears mirrored (every view along it reversed, a destination
  // included) is walked backwards instead: the loops are parallel, so the
  // order is free, and each element is still read and written once.
  for (unsigned loop = 0; loop < numLoops; ++loop) {
    AffineExpr index = b.getAffineDimExpr(loop);
    bool plain = false;
    for (AffineMap map : maps)
      plain |= llvm::is_contained(map.getResults(), index);
    if (plain)
      continue;
    for (AffineMap &map : maps) {
      SmallVector<AffineExpr> exprs(map.getResults());
      for (AffineExpr &e : exprs)
        if (e.isFunctionOfDim(loop))
          e = index;
      map = AffineMap::get(numLoops, 0, exprs, b.getContext());
    }
  }
  SmallVector<utils::IteratorType> iterators(numLoops,
                                             utils::IteratorType::parallel);
  Block &body = op.getBodyBlock();
  emitGeneric(
      loc, viewInputs, viewOutputs, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        IRMapping inner;
        for (auto [old, arg] : llvm::zip(body.getArguments(), args))
          inner.map(old, arg);
        for (Operation &bodyOp : body.without_terminator())
          nested.clone(bodyOp, inner);
        SmallVector<Value> yielded;
        for (Value v : body.getTerminator()->getOperands())
          yielded.push_back(inner.lookupOrDefault(v));
        linalg::YieldOp::create(nested, nestedLoc, yielded);
      });
  return success();
}

LogicalResult FunctionLowering::lowerMatmul(MatmulOp op) {
  Location loc = op.getLoc();
  auto lhsType = dyn_cast<RankedTensorType>(op.getLhs().getType());
  auto rhsType = dyn_cast<RankedTensorType>(op.getRhs().getType());
  auto resultType = dyn_cast<RankedTensorType>(op.getType());
  if (!lhsType || !rhsType || !resultType)
    return op.emitOpError() << "shapes are unknown; run stride-infer-shapes "
                               "before convert-stride-to-linalg";
  layout::MatmulResult shape = layout::matmulShape(
      layout::Shape(lhsType.getShape().begin(), lhsType.getShape().end()),
      layout::Shape(rhsType.getShape().begin(), rhsType.getShape().end()));
  if (!shape.ok())
    return op.emitOpError() << shape.error->message;
  const layout::MatmulInfo &info = shape.info;
  Value lhs = mapping.lookup(op.getLhs());
  Value rhs = mapping.lookup(op.getRhs());
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
  Value dest = destinationFor(op.getResult(), resultSizes);
  mapping.map(op.getResult(), dest);
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
        } else {
          Value product = arith::MulIOp::create(nested, nestedLoc, args[0], args[1]);
          sum = arith::AddIOp::create(nested, nestedLoc, args[2], product);
        }
        linalg::YieldOp::create(nested, nestedLoc, sum);
      });
  return success();
}

void FunctionLowering::emitGeneric(
    Location loc, ValueRange inputs, ValueRange outputs,
    ArrayRef<AffineMap> maps, ArrayRef<utils::IteratorType> iterators,
    function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  auto plain = [&]() -> LogicalResult {
    if (threads <= 1 || iterators.empty() ||
        iterators.front() != utils::IteratorType::parallel)
      return failure();
    // Loop 0 must be a plain index wherever it is used.
    for (AffineMap map : maps)
      for (AffineExpr e : map.getResults())
        if (e.isFunctionOfDim(0) && e != b.getAffineDimExpr(0))
          return failure();
    return success();
  };
  // Each loop's size, from a view that indexes it plainly.
  SmallVector<Value> operands(inputs);
  llvm::append_range(operands, outputs);
  SmallVector<OpFoldResult> loopSizes(iterators.size());
  for (auto [operand, map] : llvm::zip(operands, maps))
    for (auto [pos, e] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(e))
        if (!loopSizes[dim.getPosition()])
          loopSizes[dim.getPosition()] =
              memref::getMixedSize(b, loc, operand, pos);
  int64_t points = 1;
  for (OpFoldResult size : loopSizes) {
    std::optional<int64_t> c = size ? getConstantIntValue(size) : std::nullopt;
    points = c ? points * *c : kMinParallelPoints; // unknown: assume large
  }
  if (failed(plain()) || points < kMinParallelPoints || !loopSizes[0]) {
    linalg::GenericOp::create(b, loc, TypeRange{}, inputs, outputs, maps,
                              iterators, body);
    return;
  }
  // scf.parallel over chunks of loop 0; each chunk a generic on subviews.
  IndexMath math(b, loc);
  Value size0 = math.value(loopSizes[0]);
  Value count = arith::ConstantIndexOp::create(b, loc, threads);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value chunk = arith::CeilDivUIOp::create(b, loc, size0, count);
  auto parallel = scf::ParallelOp::create(b, loc, ValueRange{zero},
                                          ValueRange{count}, ValueRange{one});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(parallel.getBody());
  Value lo = arith::MulIOp::create(b, loc, parallel.getInductionVars()[0],
                                   chunk);
  Value hi = arith::MinUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, lo, chunk), size0);
  Value start = arith::MinUIOp::create(b, loc, lo, hi);
  Value length = arith::SubIOp::create(b, loc, hi, start);
  SmallVector<Value> sliced;
  for (auto [operand, map] : llvm::zip(operands, maps)) {
    auto type = dyn_cast<MemRefType>(operand.getType());
    std::optional<unsigned> pos =
        map.getResultPosition(b.getAffineDimExpr(0));
    if (!type || !pos) {
      sliced.push_back(operand);
      continue;
    }
    SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes, strides(type.getRank(), b.getIndexAttr(1));
    for (int64_t d = 0; d < type.getRank(); ++d)
      sizes.push_back(memref::getMixedSize(b, loc, operand, d));
    offsets[*pos] = start;
    sizes[*pos] = length;
    sliced.push_back(
        memref::SubViewOp::create(b, loc, operand, offsets, sizes, strides));
  }
  linalg::GenericOp::create(
      b, loc, TypeRange{}, ArrayRef(sliced).take_front(inputs.size()),
      ArrayRef(sliced).drop_front(inputs.size()), maps, iterators, body);
}

LogicalResult FunctionLowering::lowerReturn(func::ReturnOp op) {
  SmallVector<Value> scalars;
  unsigned next = 0;
  for (Value v : op.getOperands()) {
    if (!isa<TensorType>(v.getType())) {
      scalars.push_back(mapping.lookupOrDefault(v));
      continue;
    }
    unsigned index = next++;
    Value buffer = mapping.lookup(v);
    if (buffer != outputs[index])
      linalg::CopyOp::create(b, op.getLoc(), buffer, outputs[index]);
  }
  for (Value alloc : allocations)
    memref::DeallocOp::create(b, op.getLoc(), alloc);
  func::ReturnOp::create(b, op.getLoc(), scalars);
  return success();
}

LogicalResult FunctionLowering::lowerOp(Operation *op) {
  if (auto broadcast = dyn_cast<BroadcastOp>(op))
    return lowerBroadcast(broadcast);
  if (auto matmul = dyn_cast<MatmulOp>(op))
    return lowerMatmul(matmul);
  if (auto ret = dyn_cast<func::ReturnOp>(op))
    return lowerReturn(ret);
  if (isNamedElementwise(op))
    return op->emitOpError()
           << "must be generalized first (run stride-generalize)";
  if (auto empty = dyn_cast<tensor::EmptyOp>(op)) {
    // An empty tensor that only serves as destinations needs no buffer of
    // its own: each broadcast writes where its result goes.
    if (llvm::all_of(empty->getUses(), [](OpOperand &use) {
          auto broadcast = dyn_cast<BroadcastOp>(use.getOwner());
          return broadcast && use.getOperandNumber() >=
                                  broadcast.getInputs().size();
        }))
      return success();
    SmallVector<OpFoldResult> sizes = empty.getMixedSizes();
    for (OpFoldResult &s : sizes)
      if (auto v = dyn_cast<Value>(s))
        s = mapping.lookupOrDefault(v);
    mapping.map(empty.getResult(), allocate(empty.getType(), sizes));
    return success();
  }
  if (auto dim = dyn_cast<tensor::DimOp>(op)) {
    Value source = mapping.lookup(dim.getSource());
    mapping.map(dim.getResult(),
                memref::DimOp::create(b, dim.getLoc(), source,
                                      mapping.lookupOrDefault(dim.getIndex())));
    return success();
  }
  if (auto castOp = dyn_cast<tensor::CastOp>(op)) {
    auto type = dyn_cast<RankedTensorType>(castOp.getType());
    Value source = mapping.lookup(castOp.getSource());
    if (!type || !memref::CastOp::areCastCompatible(source.getType(),
                                                    memrefTypeFor(type)))
      return op->emitOpError() << "cannot be lowered to a memref cast";
    mapping.map(castOp.getResult(),
                memref::CastOp::create(b, op->getLoc(), memrefTypeFor(type),
                                       source));
    return success();
  }
  if (hasTensor(op->getOperandTypes()) || hasTensor(op->getResultTypes()))
    return op->emitOpError()
           << "on tensors is not supported by convert-stride-to-linalg";
  b.clone(*op, mapping);
  return success();
}

LogicalResult FunctionLowering::run() {
  if (!oldFunc.getBody().hasOneBlock())
    return oldFunc.emitOpError()
           << "has several blocks; convert-stride-to-linalg needs one";
  FunctionType oldType = oldFunc.getFunctionType();
  SmallVector<Type> inputs, results;
  for (Type t : oldType.getInputs()) {
    if (auto ranked = dyn_cast<RankedTensorType>(t))
      inputs.push_back(memrefTypeFor(ranked));
    else if (isa<TensorType>(t))
      return oldFunc.emitOpError()
             << "has an unranked tensor argument; give its rank";
    else
      inputs.push_back(t);
  }
  unsigned numOutputs = 0;
  for (Type t : oldType.getResults()) {
    if (auto ranked = dyn_cast<RankedTensorType>(t)) {
      inputs.push_back(memrefTypeFor(ranked));
      ++numOutputs;
    } else if (isa<TensorType>(t)) {
      return oldFunc.emitOpError()
             << "has an unranked result; run stride-infer-shapes first";
    } else {
      results.push_back(t);
    }
  }
  b.setInsertionPoint(oldFunc);
  newFunc = func::FuncOp::create(b, oldFunc.getLoc(), oldFunc.getName(),
                                 b.getFunctionType(inputs, results));
  newFunc.setVisibility(oldFunc.getVisibility());
  newFunc->setAttr("stride.num_outputs", b.getI64IntegerAttr(numOutputs));
  Block *entry = newFunc.addEntryBlock();
  Block &oldEntry = oldFunc.getBody().front();
  for (auto [old, arg] :
       llvm::zip(oldEntry.getArguments(), entry->getArguments()))
    mapping.map(old, arg);
  for (unsigned i = 0; i < numOutputs; ++i)
    outputs.push_back(entry->getArgument(oldType.getNumInputs() + i));
  outputWritten.assign(numOutputs, false);
  auto ret = cast<func::ReturnOp>(oldEntry.getTerminator());
  unsigned index = 0;
  for (Value v : ret.getOperands())
    if (isa<TensorType>(v.getType())) {
      // A function argument returned as is must still be copied.
      if (!isa<BlockArgument>(v))
        returnedAt.try_emplace(v, index);
      ++index;
    }
  b.setInsertionPointToStart(entry);
  for (Operation &op : oldEntry)
    if (failed(lowerOp(&op))) {
      newFunc.erase();
      return failure();
    }
  newFunc.setName(oldFunc.getName());
  oldFunc.erase();
  return success();
}

struct ConvertStrideToLinalgPass
    : mlir::stride::impl::ConvertStrideToLinalgBase<ConvertStrideToLinalgPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<func::FuncOp> funcs;
    getOperation().walk([&](func::FuncOp func) {
      if (!func.isExternal() &&
          (hasTensor(func.getArgumentTypes()) ||
           hasTensor(func.getResultTypes())))
        funcs.push_back(func);
    });
    for (func::FuncOp func : funcs) {
      func.walk([&](Operation *op) {
        numBroadcasts += isa<BroadcastOp>(op);
        numMatmuls += isa<MatmulOp>(op);
      });
      LLVM_DEBUG(llvm::dbgs() << "[convert-stride-to-linalg] @"
                              << func.getName() << "\n");
      if (failed(FunctionLowering(func, threads).run()))
        return signalPassFailure();
      ++numFunctions;
    }
  }
};
} // namespace
