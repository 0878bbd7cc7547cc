//===- ShardingInterfaceImpl.cpp - Stride ops in upstream sharding --------===//
//
// Upstream's sharding machinery describes an op by its loops and one
// projected-permutation indexing map per operand and result. Stride's
// elementwise ops broadcast NumPy-style: an operand may have fewer dims
// (right-aligned) or size 1 where the result has more. A size-1 broadcast
// dim reads the same element for every index of the result's loop, so it
// must never be split with that loop. Upstream's operand maps reject the
// constant expression that would say so, so each broadcast dim gets a loop
// of its own instead: parallel, of size 1, not in any result's map, and
// therefore never assigned a grid axis. The operand is replicated along it.
//
//===----------------------------------------------------------------------===//

#include "stride/Dialect/Stride/Transforms/ShardingInterfaceImpl.h"

#include "../AttachModels.h"

#include "stride/Dialect/Stride/IR/ReduceOps.h"
#include "stride/Dialect/Stride/IR/StrideDialect.h"
#include "stride/Dialect/Stride/IR/StrideOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterface.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterfaceImpl.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::stride;

namespace {

/// The loops and maps of one op in upstream's terms.
struct LoopNest {
  SmallVector<utils::IteratorType> iterators;
  SmallVector<AffineMap> maps; // operands, then results
};

/// Adds the map of `type` (right-aligned against `loopDims`, the loops of
/// the result's dims) to `nest`; dims of another size than the loop's are
/// broadcast and get a fresh loop.
void addBroadcastOperand(LoopNest &nest, SmallVector<AffineExpr> &exprs,
                         Type type, ArrayRef<int64_t> resultShape,
                         ArrayRef<unsigned> loopDims, MLIRContext *ctx) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  exprs.clear();
  if (!tensor)
    return;
  int64_t lead = int64_t(resultShape.size()) - tensor.getRank();
  for (int64_t d = 0; d < tensor.getRank(); ++d) {
    int64_t r = d + lead;
    if (r >= 0 && tensor.getDimSize(d) == resultShape[r] &&
        !ShapedType::isDynamic(resultShape[r])) {
      exprs.push_back(getAffineDimExpr(loopDims[r], ctx));
      continue;
    }
    exprs.push_back(getAffineDimExpr(nest.iterators.size(), ctx));
    nest.iterators.push_back(utils::IteratorType::parallel);
  }
}

/// Builds maps once every loop is known (maps need the final loop count).
LoopNest finish(LoopNest nest, ArrayRef<SmallVector<AffineExpr>> exprs,
                MLIRContext *ctx) {
  for (ArrayRef<AffineExpr> e : exprs)
    nest.maps.push_back(AffineMap::get(nest.iterators.size(), 0, e, ctx));
  return nest;
}

/// Elementwise: one parallel loop per result dim; every tensor operand
/// (inputs and destinations) broadcasts against the first result's shape.
LoopNest elementwiseNest(Operation *op) {
  MLIRContext *ctx = op->getContext();
  LoopNest nest;
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!result)
    return nest;
  ArrayRef<int64_t> shape = result.getShape();
  SmallVector<unsigned> loops;
  for (int64_t d = 0; d < result.getRank(); ++d) {
    loops.push_back(d);
    nest.iterators.push_back(utils::IteratorType::parallel);
  }
  SmallVector<SmallVector<AffineExpr>> exprs(op->getNumOperands() +
                                             op->getNumResults());
  for (OpOperand &operand : op->getOpOperands())
    addBroadcastOperand(nest, exprs[operand.getOperandNumber()],
                        operand.get().getType(), shape, loops, ctx);
  for (OpResult r : op->getResults())
    for (unsigned d : loops)
      exprs[op->getNumOperands() + r.getResultNumber()].push_back(
          getAffineDimExpr(d, ctx));
  return finish(std::move(nest), exprs, ctx);
}

/// Matmul (NumPy rules): loops are the result's dims, then the contracted
/// dim k (a reduction), then one loop per broadcast batch dim of an operand.
LoopNest matmulNest(Operation *operation) {
  auto op = cast<MatmulOp>(operation);
  MLIRContext *ctx = op.getContext();
  LoopNest nest;
  auto lhs = dyn_cast<RankedTensorType>(op.getLhs().getType());
  auto rhs = dyn_cast<RankedTensorType>(op.getRhs().getType());
  auto result = dyn_cast<RankedTensorType>(op.getResult().getType());
  if (!lhs || !rhs || !result)
    return nest;
  int64_t rank = result.getRank();
  bool lhsMatrix = lhs.getRank() >= 2, rhsMatrix = rhs.getRank() >= 2;
  int64_t batch = rank - int64_t(lhsMatrix) - int64_t(rhsMatrix);
  for (int64_t d = 0; d < rank; ++d)
    nest.iterators.push_back(utils::IteratorType::parallel);
  unsigned k = nest.iterators.size();
  nest.iterators.push_back(utils::IteratorType::reduction);
  AffineExpr kExpr = getAffineDimExpr(k, ctx);
  SmallVector<unsigned> batchLoops;
  for (int64_t d = 0; d < batch; ++d)
    batchLoops.push_back(d);
  ArrayRef<int64_t> batchShape = result.getShape().take_front(batch);

  SmallVector<SmallVector<AffineExpr>> exprs(3);
  auto addOperand = [&](SmallVector<AffineExpr> &e, RankedTensorType type,
                        bool matrix, bool isLhs) {
    if (!matrix) {
      e.push_back(kExpr);
      return;
    }
    SmallVector<AffineExpr> batchExprs;
    auto batchType = RankedTensorType::get(type.getShape().drop_back(2),
                                           type.getElementType());
    addBroadcastOperand(nest, batchExprs, batchType, batchShape, batchLoops,
                        ctx);
    e.append(batchExprs);
    AffineExpr m = getAffineDimExpr(batch, ctx);
    AffineExpr n = getAffineDimExpr(batch + int64_t(lhsMatrix), ctx);
    if (isLhs) {
      e.push_back(m);
      e.push_back(kExpr);
    } else {
      e.push_back(kExpr);
      e.push_back(n);
    }
  };
  addOperand(exprs[0], lhs, lhsMatrix, /*isLhs=*/true);
  addOperand(exprs[1], rhs, rhsMatrix, /*isLhs=*/false);
  for (int64_t d = 0; d < rank; ++d)
    exprs[2].push_back(getAffineDimExpr(d, ctx));
  return finish(std::move(nest), exprs, ctx);
}

/// Reduction: one loop per input dim, a reduction loop where the dim is
/// reduced; a dim kept with size 1 (keepdims) gets a loop of its own, so
/// the result is never split along it.
LoopNest reduceNest(Operation *op) {
  MLIRContext *ctx = op->getContext();
  LoopNest nest;
  auto input = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  std::optional<SmallVector<bool>> reduced = getReducedDims(op);
  if (!input || !reduced)
    return nest;
  SmallVector<AffineExpr> in, out;
  for (int64_t d = 0; d < input.getRank(); ++d) {
    nest.iterators.push_back((*reduced)[d] ? utils::IteratorType::reduction
                                           : utils::IteratorType::parallel);
    in.push_back(getAffineDimExpr(d, ctx));
  }
  bool keep = getKeepdims(op);
  for (int64_t d = 0; d < input.getRank(); ++d) {
    if (!(*reduced)[d]) {
      out.push_back(getAffineDimExpr(d, ctx));
    } else if (keep) {
      out.push_back(getAffineDimExpr(nest.iterators.size(), ctx));
      nest.iterators.push_back(utils::IteratorType::parallel);
    }
  }
  SmallVector<SmallVector<AffineExpr>> exprs = {in, out};
  return finish(std::move(nest), exprs, ctx);
}

/// The operand dims a squeeze removes, ascending.
SmallVector<int64_t> squeezedDims(SqueezeOp op) {
  auto input = cast<RankedTensorType>(op.getInput().getType());
  SmallVector<int64_t> dims;
  if (std::optional<ArrayRef<int64_t>> listed = op.getDims()) {
    for (int64_t d : *listed)
      dims.push_back(d < 0 ? d + input.getRank() : d);
    llvm::sort(dims);
    dims.erase(llvm::unique(dims), dims.end());
    return dims;
  }
  for (int64_t d = 0; d < input.getRank(); ++d)
    if (input.getDimSize(d) == 1)
      dims.push_back(d);
  return dims;
}

/// Views each of whose result blocks is one block of the operand: one
/// parallel loop per result dim; the operand reads them reordered
/// (permute, transpose), without an inserted size-1 dim (unsqueeze), or
/// with the removed size-1 dims on loops of their own (squeeze), which are
/// never split. Slices, flips and reshapes have no such rule: a block of
/// their result is not a block of the operand.
LoopNest viewNest(Operation *op) {
  MLIRContext *ctx = op->getContext();
  LoopNest nest;
  auto input = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!input || !result)
    return nest;
  int64_t inRank = input.getRank(), outRank = result.getRank();
  for (int64_t d = 0; d < outRank; ++d)
    nest.iterators.push_back(utils::IteratorType::parallel);
  SmallVector<SmallVector<AffineExpr>> exprs(2);
  auto loop = [&](int64_t d) { return getAffineDimExpr(unsigned(d), ctx); };
  SmallVector<int64_t> perm;
  if (auto permute = dyn_cast<PermuteOp>(op)) {
    perm.assign(permute.getPerm().begin(), permute.getPerm().end());
  } else if (auto transpose = dyn_cast<TransposeOp>(op)) {
    perm = llvm::to_vector(llvm::seq<int64_t>(0, inRank));
    ArrayRef<int64_t> dims = transpose.getDims();
    if (dims.size() == 2 && inRank > 0) {
      int64_t a = (dims[0] + inRank) % inRank, b = (dims[1] + inRank) % inRank;
      std::swap(perm[a], perm[b]);
    }
  }
  if (!perm.empty() || (inRank == 0 && isa<PermuteOp, TransposeOp>(op))) {
    exprs[0].resize(inRank);
    for (auto [i, p] : llvm::enumerate(perm))
      exprs[0][(p + inRank) % std::max<int64_t>(inRank, 1)] = loop(i);
  } else if (auto unsqueeze = dyn_cast<UnsqueezeOp>(op)) {
    int64_t at = unsqueeze.getDim();
    if (at < 0)
      at += outRank;
    for (int64_t j = 0; j < inRank; ++j)
      exprs[0].push_back(loop(j < at ? j : j + 1));
  } else if (auto squeeze = dyn_cast<SqueezeOp>(op)) {
    SmallVector<int64_t> removed = squeezedDims(squeeze);
    int64_t kept = 0;
    for (int64_t j = 0; j < inRank; ++j) {
      if (llvm::is_contained(removed, j)) {
        exprs[0].push_back(loop(nest.iterators.size()));
        nest.iterators.push_back(utils::IteratorType::parallel);
      } else {
        exprs[0].push_back(loop(kept++));
      }
    }
  }
  for (int64_t d = 0; d < outRank; ++d)
    exprs[1].push_back(loop(d));
  return finish(std::move(nest), exprs, ctx);
}

/// How the ranks' partial results of a reduction combine.
std::optional<shard::ReductionKind> combinerOf(ReduceKind kind) {
  switch (kind) {
  case ReduceKind::Sum:
  case ReduceKind::Mean: // of equal blocks: the sum of means, divided
    return shard::ReductionKind::Sum;
  case ReduceKind::Prod:
    return shard::ReductionKind::Product;
  case ReduceKind::Max:
  case ReduceKind::Any:
    return shard::ReductionKind::Max;
  case ReduceKind::Min:
  case ReduceKind::All:
    return shard::ReductionKind::Min;
  case ReduceKind::Argmax:
  case ReduceKind::Argmin:
    return std::nullopt;
  }
  return std::nullopt;
}

/// `input` (a rank's block, split as `sharding` says) all-gathered along
/// every split dim that reduction `op` reduces; `sharding` is updated to
/// the gathered value's.
FailureOr<Value> gatherReducedDims(Operation *op, Value input,
                                   shard::Sharding &sharding,
                                   SymbolTableCollection &symbolTable,
                                   OpBuilder &builder) {
  std::optional<SmallVector<bool>> reducedDims = getReducedDims(op);
  shard::GridOp grid =
      shard::getGridOrNull(op, sharding.getGridAttr(), symbolTable);
  // Reducing the block alone would be a silent wrong answer.
  if (!reducedDims || !grid)
    return op->emitOpError()
           << "cannot gather its split input: "
           << (grid ? "unknown reduced dims" : "the grid is not found");
  SmallVector<shard::GridAxesAttr> axes =
      llvm::to_vector(sharding.getSplitAxes());
  for (auto [d, gridAxes] : llvm::enumerate(axes)) {
    if (gridAxes.empty() || d >= reducedDims->size() || !(*reducedDims)[d])
      continue;
    auto type = cast<RankedTensorType>(input.getType());
    SmallVector<int64_t> shape(type.getShape());
    for (int16_t axis : gridAxes.asArrayRef())
      shape[d] *= grid.getShape()[axis];
    input = shard::AllGatherOp::create(
        builder, op->getLoc(),
        RankedTensorType::get(shape, type.getElementType()),
        sharding.getGridAttr(),
        builder.getDenseI16ArrayAttr(gridAxes.asArrayRef()), input,
        builder.getIndexAttr(d));
    gridAxes = shard::GridAxesAttr::get(op->getContext(), {});
  }
  sharding = shard::Sharding::get(sharding.getGridAttr(), axes);
  return input;
}

/// Upstream's default annotates every operand, and a scalar operand (a
/// Stride op's `f32` or `i1` argument) would get a sharding without a grid:
/// scalars are the same on every rank and need none.
LogicalResult addTensorAnnotations(Operation *op, OpBuilder &b,
                                   const shard::ShardingOption &option) {
  FailureOr<std::vector<shard::Sharding>> shardings =
      shard::detail::defaultGetShardingAnnotations(op, option);
  if (failed(shardings))
    return failure();
  unsigned numOperands = op->getNumOperands();
  for (OpResult r : op->getResults())
    shard::maybeInsertTargetShardingAnnotation(
        (*shardings)[numOperands + r.getResultNumber()], r, b);
  for (OpOperand &operand : op->getOpOperands())
    if (isa<RankedTensorType>(operand.get().getType()))
      shard::maybeInsertSourceShardingAnnotation(
          (*shardings)[operand.getOperandNumber()], operand, b);
  return success();
}

/// What the models below share: `Nest` gives the op's loops and maps, only
/// its tensor operands are annotated, and it partitions as the same op on
/// each rank's blocks. Where a reduction loop is split across ranks, the
/// partial results of result 0 then combine by Model::splitCombiner (or a
/// diagnostic says why they cannot), over the grid axes that split it, and
/// Model::finishCombined may adjust the combined value.
template <typename Model, typename Op, LoopNest (*Nest)(Operation *)>
struct NestSharding
    : public shard::ShardingInterface::ExternalModel<Model, Op> {
  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    return Nest(op).iterators;
  }
  SmallVector<AffineMap> getIndexingMaps(Operation *op) const {
    return Nest(op).maps;
  }
  LogicalResult
  addShardingAnnotations(Operation *op, OpBuilder &b,
                         const shard::ShardingOption &option) const {
    return addTensorAnnotations(op, b, option);
  }
  LogicalResult partition(Operation *op, ArrayRef<Value> partitionedOperands,
                          ArrayRef<shard::Sharding> operandShardings,
                          ArrayRef<shard::Sharding> resultShardings,
                          IRMapping &partitionMap,
                          SymbolTableCollection &symbolTable,
                          OpBuilder &builder) const {
    LoopNest nest = Nest(op);
    SmallVector<shard::GridAxis> reduced;
    if (llvm::is_contained(nest.iterators, utils::IteratorType::reduction)) {
      shard::ShardingArray axes = shard::getGridAxisAssignmentForLoopIterators(
          operandShardings, resultShardings, nest.iterators, nest.maps);
      reduced = shard::getReductionGridAxes(nest.iterators, axes);
    }
    if (!reduced.empty() && !Model::combinesSplits()) {
      // Partial results that do not combine (first indices): the rank
      // gathers the reduced dims whole, then reduces its block alone.
      // Upstream clones the op through partitionMap: operand 0 maps to the
      // gathered value for this op only.
      SmallVector<Value> operands(partitionedOperands);
      SmallVector<shard::Sharding, 2> shardings(operandShardings);
      FailureOr<Value> gathered = gatherReducedDims(
          op, operands[0], shardings[0], symbolTable, builder);
      if (failed(gathered))
        return failure();
      operands[0] = *gathered;
      Value input = op->getOperand(0);
      partitionMap.map(input, operands[0]);
      shard::partitionTriviallyShardableOperation(*op, operands, shardings,
                                                  resultShardings, partitionMap,
                                                  symbolTable, builder);
      partitionMap.map(input, partitionedOperands[0]);
      return success();
    }
    FailureOr<shard::ReductionKind> combiner = shard::ReductionKind::Sum;
    if (!reduced.empty() && failed(combiner = Model::splitCombiner(op)))
      return failure();
    // Every element of a block depends only on the same blocks of its
    // operands (a reduction's, on its partial results), so the op runs
    // unchanged on local shapes.
    shard::partitionTriviallyShardableOperation(
        *op, partitionedOperands, operandShardings, resultShardings,
        partitionMap, symbolTable, builder);
    if (reduced.empty())
      return success();
    Value local = partitionMap.lookup(op->getResult(0));
    StringRef grid;
    for (const shard::Sharding &s : operandShardings)
      if (s)
        grid = s.getGrid();
    Value combined = shard::AllReduceOp::create(builder, op->getLoc(), local,
                                                grid, reduced, *combiner);
    partitionMap.map(op->getResult(0),
                     Model::finishCombined(op, combined, grid, reduced,
                                           symbolTable, builder));
    return success();
  }

  /// Whether the partial results of a split reduction loop combine (by
  /// splitCombiner); otherwise the reduced dims are gathered first.
  static bool combinesSplits() { return true; }

  /// The defaults of a model whose partial results need nothing else.
  static Value finishCombined(Operation *, Value combined, StringRef,
                              ArrayRef<shard::GridAxis>,
                              SymbolTableCollection &, OpBuilder &) {
    return combined;
  }
};

/// Elementwise ops have no reduction loop: nothing to combine.
template <typename Op>
struct ElementwiseSharding
    : public NestSharding<ElementwiseSharding<Op>, Op, elementwiseNest> {
  static FailureOr<shard::ReductionKind> splitCombiner(Operation *) {
    llvm_unreachable("an elementwise op has no reduction loop");
  }
};

/// Views have no reduction loop; a squeeze's clone lists its dims, since a
/// rank's block may have size 1 where the whole value does not.
template <typename Op>
struct ViewSharding : public NestSharding<ViewSharding<Op>, Op, viewNest> {
  using Base = NestSharding<ViewSharding<Op>, Op, viewNest>;
  static FailureOr<shard::ReductionKind> splitCombiner(Operation *) {
    llvm_unreachable("a view has no reduction loop");
  }
  LogicalResult partition(Operation *op, ArrayRef<Value> partitionedOperands,
                          ArrayRef<shard::Sharding> operandShardings,
                          ArrayRef<shard::Sharding> resultShardings,
                          IRMapping &partitionMap,
                          SymbolTableCollection &symbolTable,
                          OpBuilder &builder) const {
    if (failed(Base::partition(op, partitionedOperands, operandShardings,
                               resultShardings, partitionMap, symbolTable,
                               builder)))
      return failure();
    if (auto squeeze = dyn_cast<SqueezeOp>(op))
      if (auto local = partitionMap.lookup(op->getResult(0))
                           .template getDefiningOp<SqueezeOp>())
        local.setDims(squeezedDims(squeeze));
    return success();
  }
};

struct MatmulSharding
    : public NestSharding<MatmulSharding, MatmulOp, matmulNest> {
  SmallVector<shard::ReductionKind>
  getReductionLoopIteratorKinds(Operation *op) const {
    return {shard::ReductionKind::Sum};
  }
  /// Stride's matmul has no destination, so a split contraction needs no
  /// neutral init: each rank multiplies its slices of k and the partial
  /// products are summed across the ranks that share the other loops.
  static FailureOr<shard::ReductionKind> splitCombiner(Operation *op) {
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    if (type.getElementType().isInteger(1))
      return op->emitOpError()
             << "cannot split the contracted dimension of an i1 matmul: its "
                "partial results do not combine by a sum";
    return shard::ReductionKind::Sum;
  }
};

/// Each rank reduces its block; the partial results of a split reduced dim
/// combine across the ranks that hold the other dims' same block.
template <typename Op>
struct ReduceSharding
    : public NestSharding<ReduceSharding<Op>, Op, reduceNest> {
  SmallVector<shard::ReductionKind>
  getReductionLoopIteratorKinds(Operation *op) const {
    LoopNest nest = reduceNest(op);
    shard::ReductionKind kind =
        combinerOf(Op::getKind()).value_or(shard::ReductionKind::Generic);
    return SmallVector<shard::ReductionKind>(
        llvm::count(nest.iterators, utils::IteratorType::reduction), kind);
  }
  /// An arg-reduction's first indices do not combine across ranks.
  static bool combinesSplits() { return combinerOf(Op::getKind()).has_value(); }
  static FailureOr<shard::ReductionKind> splitCombiner(Operation *op) {
    return *combinerOf(Op::getKind());
  }
  static Value finishCombined(Operation *op, Value combined, StringRef grid,
                              ArrayRef<shard::GridAxis> reduced,
                              SymbolTableCollection &symbolTable,
                              OpBuilder &builder) {
    if (Op::getKind() != ReduceKind::Mean)
      return combined;
    // stride-distribute splits evenly, so the global mean is the mean of
    // the ranks' means.
    Location loc = op->getLoc();
    shard::GridOp gridOp = shard::getGridOrNull(
        op, FlatSymbolRefAttr::get(op->getContext(), grid), symbolTable);
    int64_t ranks = 1;
    for (shard::GridAxis axis : reduced)
      ranks *= gridOp.getShape()[axis];
    auto type = cast<RankedTensorType>(combined.getType());
    Value count = arith::ConstantOp::create(
        builder, loc, FloatAttr::get(type.getElementType(), double(ranks)));
    return DivOp::create(builder, loc, type, combined, count);
  }
};

} // namespace

void mlir::stride::registerShardingInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, StrideDialect *) {
    ctx->getOrLoadDialect<shard::ShardDialect>();
    BroadcastOp::attachInterface<ElementwiseSharding<BroadcastOp>>(*ctx);
    MatmulOp::attachInterface<MatmulSharding>(*ctx);
    PermuteOp::attachInterface<ViewSharding<PermuteOp>>(*ctx);
    TransposeOp::attachInterface<ViewSharding<TransposeOp>>(*ctx);
    SqueezeOp::attachInterface<ViewSharding<SqueezeOp>>(*ctx);
    UnsqueezeOp::attachInterface<ViewSharding<UnsqueezeOp>>(*ctx);
    attachToGroup<OpGroup::Reduction, ReduceSharding>(ctx);
    attachToGroup<OpGroup::Elementwise, ElementwiseSharding>(ctx);
  });
}
