//===- Matmul.cpp - stride.matmul as linalg.fill plus a linalg.generic ----===//

#include "Kernels.h"
#include "Preparation.h"

#include "stride/Dialect/Stride/Transforms/Passes.h"
#include "stride/Layout/Shape.h"

#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::stride;
namespace layout = ::stride::layout;

namespace {
/// The smallest column block a symmetric product is cut into (see
/// stride-bufferize's gram-block): thinner products lose more to their
/// edges than the skipped blocks save.
constexpr int64_t kMinGramBlock = 32;

/// Whether `perm` keeps every dim in place but maybe the last two, and
/// whether it swaps those.
std::optional<bool> swapsLastTwo(ArrayRef<int64_t> perm) {
  int64_t rank = perm.size();
  for (int64_t d = 0; d < rank - 2; ++d)
    if (perm[d] != d)
      return std::nullopt;
  if (rank < 2 || (perm[rank - 2] == rank - 2 && perm[rank - 1] == rank - 1))
    return false;
  if (perm[rank - 2] == rank - 1 && perm[rank - 1] == rank - 2)
    return true;
  return std::nullopt;
}

/// The value whose matrices `value` views, through the views that keep
/// them whole: permutations that fix every dim or swap the last two (each
/// swap toggles `swapped`) and reshapes that only add or drop leading unit
/// dims (einsum's and tensordot's batch of 1).
Value matrixSource(Value value, bool &swapped) {
  while (Operation *def = value.getDefiningOp()) {
    std::optional<bool> swaps;
    if (auto permute = dyn_cast<PermuteOp>(def)) {
      swaps = swapsLastTwo(permute.getPerm());
    } else if (auto transpose = dyn_cast<TransposeOp>(def)) {
      auto type = dyn_cast<RankedTensorType>(transpose.getInput().getType());
      ArrayRef<int64_t> dims = transpose.getDims();
      if (type && dims.size() == 2) {
        auto perm = llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
        std::swap(perm[dims[0]], perm[dims[1]]);
        swaps = swapsLastTwo(perm);
      }
    } else if (auto reshape = dyn_cast<ReshapeOp>(def)) {
      auto from = dyn_cast<RankedTensorType>(reshape.getInput().getType());
      auto to = dyn_cast<RankedTensorType>(reshape.getType());
      auto unitsBeforeLastTwo = [](RankedTensorType type) {
        return type.hasStaticShape() && type.getRank() >= 2 &&
               llvm::all_of(type.getShape().drop_back(2),
                            [](int64_t size) { return size == 1; });
      };
      if (from && to && unitsBeforeLastTwo(from) && unitsBeforeLastTwo(to) &&
          from.getShape().take_back(2) == to.getShape().take_back(2))
        swaps = false;
    }
    if (!swaps)
      break;
    swapped ^= *swaps;
    value = def->getOperand(0);
  }
  return value;
}

/// `offset` moved `count` elements along `stride`.
OpFoldResult advance(IndexMath &math, OpFoldResult offset, int64_t count,
                     OpFoldResult stride) {
  return count ? math.add(offset, math.mul(math.constant(count), stride))
               : offset;
}
} // namespace

void mlir::stride::markGramProducts(ModuleOp module, int64_t block) {
  Builder builder(module.getContext());
  module.walk([&](MatmulOp op) {
    bool lhsSwapped = false, rhsSwapped = false;
    if (matrixSource(op.getLhs(), lhsSwapped) ==
            matrixSource(op.getRhs(), rhsSwapped) &&
        lhsSwapped != rhsSwapped)
      op->setAttr(kGramBlockAttr, builder.getI64IntegerAttr(block));
  });
}

/// A dot product (`v @ w`: one output point, m = n = 1 and no batch) over
/// at least kMinParallelBytes has no parallel loop to split: with threads,
/// each thread multiplies its own run of k into its own partial sum (one
/// cache line apart), the run left over goes to part 0, and the partial
/// sums are added in part order. OpenBLAS's ddot splits its vectors the
/// same way on several threads (1M f64 on 2 threads: 0.10 ms against
/// Stride's 0.20 on one). Fails, emitting nothing, when the product is not
/// such a dot.
LogicalResult KernelBuilder::emitSplitDot(
    MatmulOp op, Value lhs, Value rhs, const StridedMetadata &l,
    const StridedMetadata &r, ArrayRef<ViewDim> lhsDims,
    ArrayRef<ViewDim> rhsDims, Value dest, const StridedMetadata &o,
    ArrayRef<utils::IteratorType> iterators,
    function_ref<void(OpBuilder &, Location, ValueRange)> multiplyAdd) {
  if (threads <= 1)
    return failure();
  Location loc = op.getLoc();
  auto constant = [](OpFoldResult x) { return getConstantIntValue(x); };
  // Loops (batch..., m, k, n): no batch, m = n = 1, a static k.
  if (lhsDims.size() != 2 || rhsDims.size() != 2)
    return failure();
  std::optional<int64_t> m = constant(lhsDims[0].size),
                         n = constant(rhsDims[1].size),
                         k = constant(lhsDims[1].size);
  Type element = cast<RankedTensorType>(op.getType()).getElementType();
  int64_t bytes = std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
  int64_t parts = threads;
  if (m != 1 || n != 1 || !k ||
      *k > std::numeric_limits<int64_t>::max() / (2 * bytes) ||
      2 * bytes * *k < kMinParallelBytes)
    return failure();
  // Two vectors (1-D, promoted): their k stride is their only one.
  if (l.strides.size() != 1 || r.strides.size() != 1)
    return failure();
  int64_t run = *k / parts, left = *k - run * parts;
  IndexMath math(b, loc);
  // One partial sum per part, a cache line (64 bytes) apart.
  int64_t line = std::max<int64_t>(1, 64 / bytes);
  auto partials =
      memref::AllocOp::create(b, loc, MemRefType::get({parts, line}, element),
                              ValueRange{}, b.getI64IntegerAttr(64));
  Value zero =
      arith::ConstantOp::create(b, loc, element, b.getZeroAttr(element));
  linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{partials});
  // Elements [first, first + count) of k into partial `p`.
  auto emitRun = [&](OpFoldResult first, int64_t count,
                     OpFoldResult p) -> LogicalResult {
    SmallVector<ViewDim> lDims(lhsDims), rDims(rhsDims);
    lDims[1].size = rDims[0].size = math.constant(count);
    FailureOr<LoopView> lv = makeView(
        b, loc, lhs, math.add(l.offset, math.mul(first, l.strides[0])), lDims);
    FailureOr<LoopView> rv = makeView(
        b, loc, rhs, math.add(r.offset, math.mul(first, r.strides[0])), rDims);
    Value slot = memref::SubViewOp::create(
        b, loc, partials, ArrayRef<OpFoldResult>{p, math.constant(0)},
        ArrayRef<OpFoldResult>{math.constant(1), math.constant(1)},
        ArrayRef<OpFoldResult>{math.constant(1), math.constant(1)});
    SmallVector<ViewDim> slotDims{{math.constant(1), math.constant(0), 0},
                                  {math.constant(1), math.constant(0), 2}};
    StridedMetadata s = getStridedMetadata(b, loc, slot);
    FailureOr<LoopView> ov = makeView(b, loc, slot, s.offset, slotDims);
    if (failed(lv) || failed(rv) || failed(ov))
      return failure();
    auto mapOf = [&](const LoopView &v) {
      return AffineMap::get(3, 0, v.exprs, b.getContext());
    };
    linalg::GenericOp::create(
        b, loc, TypeRange{}, ValueRange{lv->view, rv->view},
        ValueRange{ov->view}, {mapOf(*lv), mapOf(*rv), mapOf(*ov)}, iterators,
        multiplyAdd);
    return success();
  };
  Value lo = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value count = arith::ConstantIndexOp::create(b, loc, parts);
  auto parallel = scf::ParallelOp::create(b, loc, ValueRange{lo},
                                          ValueRange{count}, ValueRange{one});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(parallel.getBody());
    Value p = parallel.getInductionVars()[0];
    Value first = arith::MulIOp::create(
        b, loc, p, arith::ConstantIndexOp::create(b, loc, run));
    if (failed(emitRun(first, run, p)))
      return op.emitOpError() << "a run of the dot product cannot be viewed";
  }
  if (left > 0 &&
      failed(emitRun(math.constant(run * parts), left, math.constant(0))))
    return op.emitOpError() << "a run of the dot product cannot be viewed";
  if (explainsDecisions(op))
    emitRemark(loc)
        << "stride-explain: threads: " << parts << " runs of the dot product's "
        << *k << " elements, one partial sum per thread, added at the end";
  // dest = partial 0 + partial 1 + ...: loops (part, 1), a reduction.
  FailureOr<LoopView> ov = makeView(b, loc, dest, o.offset,
                                    {{math.constant(1), math.constant(0), 1},
                                     {math.constant(1), math.constant(0), 1}});
  if (failed(ov))
    return op.emitOpError() << "the result cannot be viewed";
  MLIRContext *context = b.getContext();
  AffineMap partMap = AffineMap::get(
      2, 0, {b.getAffineDimExpr(0), b.getAffineDimExpr(1)}, context);
  linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{dest});
  Value column = memref::SubViewOp::create(
      b, loc, partials,
      ArrayRef<OpFoldResult>{math.constant(0), math.constant(0)},
      ArrayRef<OpFoldResult>{math.constant(parts), math.constant(1)},
      ArrayRef<OpFoldResult>{math.constant(1), math.constant(1)});
  linalg::GenericOp::create(
      b, loc, TypeRange{}, ValueRange{column}, ValueRange{ov->view},
      {partMap, AffineMap::get(2, 0, ov->exprs, context)},
      {utils::IteratorType::reduction, utils::IteratorType::parallel},
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value sum =
            isa<FloatType>(element)
                ? arith::AddFOp::create(nb, nl, args[1], args[0]).getResult()
            : element.isInteger(1)
                ? arith::OrIOp::create(nb, nl, args[1], args[0]).getResult()
                : arith::AddIOp::create(nb, nl, args[1], args[0]).getResult();
        linalg::YieldOp::create(nb, nl, sum);
      });
  return success();
}

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
  int64_t batchRank = info.batch.size();
  int64_t lr = lhsType.getRank(), rr = rhsType.getRank();

  // Result sizes: batch dims broadcast; then m and n unless promoted.
  SmallVector<OpFoldResult> batchSizes;
  for (int64_t j = 0; j < batchRank; ++j) {
    if (!ShapedType::isDynamic(info.batch[j])) {
      batchSizes.push_back(math.constant(info.batch[j]));
      continue;
    }
    OpFoldResult size = math.constant(1);
    int64_t lb = lr - 2 - (batchRank - j), rb = rr - 2 - (batchRank - j);
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

  // The batch dims of static size 1 get no loop: a unit loop that both
  // operands broadcast (`x[:, None] @ w`) would give the rhs two stride-0
  // unit dims, whose tiles stride-tile-matmul cannot type, and the product
  // would stay an untiled loop nest.
  SmallVector<int64_t> batchLoops;
  for (int64_t j = 0; j < batchRank; ++j)
    if (!isConstantIntValue(batchSizes[j], 1))
      batchLoops.push_back(j);
  int64_t batch = batchLoops.size();

  // Loops batch..., m, k, n: n innermost walks the rhs and the output rows
  // contiguously, so the inner loop vectorizes (k innermost would be a
  // strided dot product).
  unsigned mLoop = batch, kLoop = batch + 1, nLoop = batch + 2;
  auto batchDims = [&](const StridedMetadata &meta, int64_t rank,
                       SmallVectorImpl<ViewDim> &dims) {
    for (auto [loop, j] : llvm::enumerate(batchLoops)) {
      int64_t own = rank - 2 - (batchRank - j);
      OpFoldResult stride =
          own >= 0 ? broadcastStride(math, meta, own) : math.constant(0);
      dims.push_back({batchSizes[j], stride, static_cast<unsigned>(loop)});
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
  for (auto [loop, j] : llvm::enumerate(batchLoops))
    outDims.push_back(
        {batchSizes[j], o.strides[j], static_cast<unsigned>(loop)});
  int64_t next = batchRank;
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
  bool plain =
      llvm::all_of(llvm::concat<AffineExpr>(lv->exprs, rv->exprs, ov->exprs),
                   [](AffineExpr e) { return isa<AffineDimExpr>(e); });
  if (isMirrored(*lv, lhsK) && isMirrored(*rv, rhsK)) {
    lv->exprs[lhsK] = b.getAffineDimExpr(kLoop);
    rv->exprs[rhsK] = b.getAffineDimExpr(kLoop);
  }
  Type element = resultType.getElementType();
  Value zero =
      arith::ConstantOp::create(b, loc, element, b.getZeroAttr(element));
  unsigned numLoops = batch + 3;
  auto mapOf = [&](const LoopView &v) {
    return AffineMap::get(numLoops, 0, v.exprs, b.getContext());
  };
  SmallVector<utils::IteratorType> iterators(numLoops,
                                             utils::IteratorType::parallel);
  iterators[kLoop] = utils::IteratorType::reduction;
  auto multiplyAdd = [&](OpBuilder &nested, Location nestedLoc,
                         ValueRange args) {
    Value sum;
    if (isa<FloatType>(element)) {
      Value product =
          arith::MulFOp::create(nested, nestedLoc, args[0], args[1]);
      sum = arith::AddFOp::create(nested, nestedLoc, args[2], product);
    } else if (element.isInteger(1)) {
      // NumPy's bool matmul: whether any product is true (i1 addi
      // would count modulo 2).
      Value product =
          arith::AndIOp::create(nested, nestedLoc, args[0], args[1]);
      sum = arith::OrIOp::create(nested, nestedLoc, args[2], product);
    } else {
      Value product =
          arith::MulIOp::create(nested, nestedLoc, args[0], args[1]);
      sum = arith::AddIOp::create(nested, nestedLoc, args[2], product);
    }
    linalg::YieldOp::create(nested, nestedLoc, sum);
  };

  // A symmetric product (x @ x.T): the blocks on one side of the diagonal,
  // then the rest mirrored. Blocks of about an eighth of the size, at
  // most gram-block: smaller ones skip more products, wider ones run
  // faster (on the project's AMD EPYC, one thread, x NumPy's dsyrk:
  // 300 x 300 from k = 2000 took 1.05 at 32 and 0.89 at 64; 2000 x 2000
  // 0.85 at 32, 0.93 at 64 and 0.92 at 128).
  auto gram = op->getAttrOfType<IntegerAttr>(kGramBlockAttr);
  std::optional<int64_t> size = getConstantIntValue(m);
  int64_t block = gram ? gram.getInt() : 0;
  while (size && block > kMinGramBlock && *size < 8 * block)
    block /= 2;
  if (plain && succeeded(emitSplitDot(op, lhs, rhs, l, r, lhsDims, rhsDims,
                                      dest, o, iterators, multiplyAdd)))
    return success();
  if (!plain || block < 1 || !size || *size < 2 * block || info.lhsIsVector ||
      info.rhsIsVector) {
    linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{dest});
    emitGeneric(loc, ValueRange{lv->view, rv->view}, ValueRange{ov->view},
                {mapOf(*lv), mapOf(*rv), mapOf(*ov)}, iterators, multiplyAdd,
                {}, batch == 0 ? kMinParallelMatmulOps : 0);
    return success();
  }
  // The operand read against its grain is copied row-major by
  // stride-tile-matmul, once per product: each block takes only a block of
  // it. Column blocks [a0, a1) of rows [0, a1) take a block of the rhs's
  // columns (x @ x.T); row blocks [a0, a1) of columns [0, a1) a block of
  // the lhs's rows (x.T @ x, whose lhs is column-major).
  unsigned mDim = batch, nDim = batch + 1;
  std::optional<int64_t> alongM = getConstantIntValue(lhsDims[mDim].stride);
  std::optional<int64_t> alongK = getConstantIntValue(lhsDims[nDim].stride);
  bool rowBlocks = alongM && alongK && *alongM < *alongK;
  unsigned blocked = rowBlocks ? mDim : nDim, full = rowBlocks ? nDim : mDim;
  if (explainsDecisions(op))
    emitRemark(loc) << "stride-explain: kernel: a product of a matrix with "
                       "its own transpose is symmetric: "
                    << (rowBlocks ? "row" : "column") << " blocks of " << block
                    << " multiply the part on and "
                    << (rowBlocks ? "below" : "above")
                    << " the diagonal, the part "
                    << (rowBlocks ? "right of" : "below")
                    << " them is copied from its transpose";
  OpFoldResult stride[2] = {outDims[mDim].stride, outDims[nDim].stride};
  for (int64_t a0 = 0; a0 < *size; a0 += block) {
    int64_t a1 = std::min(*size, a0 + block);
    SmallVector<ViewDim> lhsBlock(lhsDims), rhsBlock(rhsDims),
        outBlock(outDims);
    OpFoldResult lhsOffset = l.offset, rhsOffset = r.offset;
    // The blocked dim starts at a0, the full one takes [0, a1).
    (rowBlocks ? lhsBlock[mDim] : rhsBlock[nDim]).size = math.constant(a1 - a0);
    (rowBlocks ? rhsBlock[nDim] : lhsBlock[mDim]).size = math.constant(a1);
    if (rowBlocks)
      lhsOffset = advance(math, l.offset, a0, lhsDims[mDim].stride);
    else
      rhsOffset = advance(math, r.offset, a0, rhsDims[nDim].stride);
    outBlock[blocked].size = math.constant(a1 - a0);
    outBlock[full].size = math.constant(a1);
    // A row block's few rows would split into threads that each pack the
    // same rhs panels: its column loop goes first, where threads split.
    if (rowBlocks) {
      lhsBlock[mDim].loop = outBlock[mDim].loop = nLoop;
      rhsBlock[nDim].loop = outBlock[nDim].loop = mLoop;
    }
    FailureOr<LoopView> lb = makeView(b, loc, lhs, lhsOffset, lhsBlock);
    FailureOr<LoopView> rb = makeView(b, loc, rhs, rhsOffset, rhsBlock);
    FailureOr<LoopView> ob = makeView(
        b, loc, dest, advance(math, o.offset, a0, stride[blocked - batch]),
        outBlock);
    if (failed(lb) || failed(rb) || failed(ob))
      return op.emitOpError() << "a block of the symmetric product has a "
                                 "negative stride along a dynamic dimension";
    linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{ob->view});
    emitGeneric(loc, ValueRange{lb->view, rb->view}, ValueRange{ob->view},
                {mapOf(*lb), mapOf(*rb), mapOf(*ob)}, iterators, multiplyAdd);
  }
  // The rest: blocked dim in [a0, a1) and full dim in [a1, size), copied
  // from its transpose, which a later block computed. The two regions are
  // disjoint.
  for (int64_t a0 = 0; a0 + block < *size; a0 += block) {
    int64_t a1 = a0 + block;
    int64_t start[2], count[2];
    start[blocked - batch] = a0;
    count[blocked - batch] = a1 - a0;
    start[full - batch] = a1;
    count[full - batch] = *size - a1;
    SmallVector<ViewDim> from(outDims.begin(), outDims.begin() + batch);
    SmallVector<ViewDim> to(from);
    for (unsigned d = 0; d < 2; ++d) {
      to.push_back({math.constant(count[d]), stride[d], mDim + d});
      from.push_back({math.constant(count[d]), stride[1 - d], mDim + d});
    }
    auto at = [&](int64_t row, int64_t column) {
      return advance(math, advance(math, o.offset, row, stride[0]), column,
                     stride[1]);
    };
    FailureOr<LoopView> fv =
        makeView(b, loc, dest, at(start[1], start[0]), from);
    FailureOr<LoopView> tv = makeView(b, loc, dest, at(start[0], start[1]), to);
    if (failed(fv) || failed(tv))
      return op.emitOpError() << "the result of the symmetric product has a "
                                 "negative stride along a dynamic dimension";
    unsigned copyLoops = batch + 2;
    SmallVector<utils::IteratorType> copyIterators(
        copyLoops, utils::IteratorType::parallel);
    emitGeneric(loc, ValueRange{fv->view}, ValueRange{tv->view},
                {AffineMap::get(copyLoops, 0, fv->exprs, b.getContext()),
                 AffineMap::get(copyLoops, 0, tv->exprs, b.getContext())},
                copyIterators,
                [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
                  linalg::YieldOp::create(nested, nestedLoc, args[0]);
                });
  }
  return success();
}
