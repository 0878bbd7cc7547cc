//===- TileUtils.cpp - Helpers shared by the CPU tiling passes ------------===//

#include "TileUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::stride;

FailureOr<scf::SCFTilingResult>
mlir::stride::tileAndErase(RewriterBase &rewriter, linalg::LinalgOp op,
                           ArrayRef<int64_t> sizes,
                           ArrayRef<int64_t> interchange, StringRef what) {
  // The interface is an external model of linalg's; a caller of the
  // Transforms.h functions may not have registered it.
  auto tileable = dyn_cast<TilingInterface>(op.getOperation());
  if (!tileable)
    return op->emitOpError()
           << "could not be tiled into " << what
           << ": linalg's TilingInterface models are not registered "
              "(linalg::registerTilingInterfaceExternalModels)";
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), sizes));
  if (!interchange.empty())
    options.setInterchange(interchange);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> result =
      scf::tileUsingSCF(rewriter, tileable, options);
  if (failed(result))
    return op->emitOpError() << "could not be tiled into " << what;
  rewriter.eraseOp(op);
  return result;
}

void mlir::stride::peelTileLoops(RewriterBase &rewriter,
                                 ArrayRef<LoopLikeOpInterface> loops) {
  for (LoopLikeOpInterface loop : loops) {
    auto forOp = dyn_cast<scf::ForOp>(loop.getOperation());
    scf::ForOp partial;
    if (forOp)
      (void)scf::peelForLoopAndSimplifyBounds(rewriter, forOp, partial);
  }
}

void mlir::stride::canonicalizeAll(Operation *root) {
  MLIRContext *ctx = root->getContext();
  RewritePatternSet patterns(ctx);
  for (Dialect *dialect : ctx->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
  (void)applyPatternsGreedily(root, std::move(patterns));
}

std::optional<int64_t> mlir::stride::strideAlong(linalg::LinalgOp op,
                                                 OpOperand &operand,
                                                 unsigned loop) {
  auto type = dyn_cast<MemRefType>(operand.get().getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!type || failed(type.getStridesAndOffset(strides, offset)))
    return std::nullopt;
  AffineMap map = op.getMatchingIndexingMap(&operand);
  for (auto [result, stride, size] :
       llvm::zip(map.getResults(), strides, type.getShape())) {
    auto dim = dyn_cast<AffineDimExpr>(result);
    if (!dim || dim.getPosition() != loop || size == 1)
      continue;
    if (ShapedType::isDynamic(stride))
      return std::nullopt;
    return stride;
  }
  return 0;
}

/// `buffer` without its dims other than `kept` (all of size 1), as a
/// rank-reducing subview of the kept dims' sizes and strides. The type is
/// spelled out: inferred from the shape alone, MLIR may keep other unit
/// dims than these (all-unit 1x1x1x1 with a stride-0 dim), a layout its
/// verifier then refuses.
static Value dropDims(RewriterBase &rewriter, Location loc, Value buffer,
                      ArrayRef<unsigned> kept) {
  auto type = cast<MemRefType>(buffer.getType());
  auto [strides, offset] = type.getStridesAndOffset();
  SmallVector<int64_t> shape, keptStrides;
  for (unsigned pos : kept) {
    shape.push_back(type.getDimSize(pos));
    keptStrides.push_back(strides[pos]);
  }
  auto reduced = MemRefType::get(
      shape, type.getElementType(),
      StridedLayoutAttr::get(type.getContext(), offset, keptStrides),
      type.getMemorySpace());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> ones(rank, rewriter.getIndexAttr(1));
  SmallVector<OpFoldResult> sizes =
      memref::getMixedSizes(rewriter, loc, buffer);
  return memref::SubViewOp::create(rewriter, loc, reduced, buffer, offsets,
                                   sizes, ones);
}

linalg::GenericOp
mlir::stride::dropUnitLoops(RewriterBase &rewriter, linalg::GenericOp op,
                            const llvm::SmallBitVector &drop) {
  Location loc = op.getLoc();
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    SmallVector<unsigned> kept;
    for (auto [pos, e] : llvm::enumerate(map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(e);
      if (dim && drop.test(dim.getPosition()))
        continue;
      kept.push_back(pos);
    }
    operands.push_back(kept.size() == map.getNumResults()
                           ? operand.get()
                           : dropDims(rewriter, loc, operand.get(), kept));
    maps.push_back(compressDims(map.getSubMap(kept), drop));
  }
  SmallVector<utils::IteratorType> iterators;
  for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray()))
    if (!drop.test(i))
      iterators.push_back(it);
  auto reduced = linalg::GenericOp::create(
      rewriter, loc, TypeRange{},
      ArrayRef(operands).take_front(op.getNumDpsInputs()),
      ArrayRef(operands).drop_front(op.getNumDpsInputs()), maps, iterators);
  // linalg.index of a dropped loop is 0; the others shift down.
  Block &body = op.getRegion().front();
  for (linalg::IndexOp index :
       llvm::make_early_inc_range(body.getOps<linalg::IndexOp>())) {
    uint64_t dim = index.getDim();
    rewriter.setInsertionPoint(index);
    if (drop.test(dim)) {
      rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(index, 0);
      continue;
    }
    uint64_t before = 0;
    for (uint64_t d = 0; d < dim; ++d)
      before += drop.test(d);
    rewriter.modifyOpInPlace(index, [&] { index.setDim(dim - before); });
  }
  rewriter.inlineRegionBefore(op.getRegion(), reduced.getRegion(),
                              reduced.getRegion().end());
  rewriter.eraseOp(op);
  return reduced;
}
