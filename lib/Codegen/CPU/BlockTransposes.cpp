//===- BlockTransposes.cpp - 2-D cache blocks for mismatched layouts ------===//
//
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "stride/Codegen/CPU/Transforms.h"
#include "stride/Dialect/Stride/Transforms/Passes.h"

#include "TileUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEBLOCKTRANSPOSES
#include "stride/Codegen/CPU/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;
using namespace mlir::stride;

namespace {
/// The loop along which `operand` is contiguous: the loop indexing its
/// dimension of smallest nonzero static stride; nullopt when a stride is
/// dynamic, the operand is a scalar or broadcast everywhere.
std::optional<unsigned> grainLoop(linalg::GenericOp op, OpOperand &operand) {
  auto type = dyn_cast<MemRefType>(operand.get().getType());
  if (!type || type.getRank() == 0)
    return std::nullopt;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return std::nullopt;
  AffineMap map = op.getMatchingIndexingMap(&operand);
  std::optional<unsigned> best;
  int64_t bestStride = 0;
  for (auto [dim, stride] : llvm::enumerate(strides)) {
    if (ShapedType::isDynamic(stride))
      return std::nullopt;
    auto loop = dyn_cast<AffineDimExpr>(map.getResult(dim));
    if (stride == 0 || !loop || type.getDimSize(dim) == 1)
      continue;
    int64_t magnitude = std::abs(stride);
    if (!best || magnitude < bestStride) {
      best = loop.getPosition();
      bestStride = magnitude;
    }
  }
  return best;
}

/// The two loops to block: the output's grain and another operand's. An
/// operand that does not move along the output's grain loop (a column
/// vector broadcast across the rows it is added to) is read once per
/// pass of that loop, whatever its own grain: it needs no blocking.
std::optional<std::pair<unsigned, unsigned>>
mismatchedGrains(linalg::GenericOp op) {
  std::optional<unsigned> outer = grainLoop(op, *op.getDpsInitOperand(0));
  if (!outer)
    return std::nullopt;
  std::optional<unsigned> other;
  for (OpOperand *input : op.getDpsInputOperands())
    if (std::optional<unsigned> g = grainLoop(op, *input);
        g && *g != *outer && strideAlong(op, *input, *outer) != 0)
      other = g;
  if (!other)
    return std::nullopt;
  return std::make_pair(*outer, *other);
}

/// The number of leading elements of `memref` before one that starts a
/// cache line (0 when its first element does), from its address at run
/// time. Only meaningful when `bytes` divides the line.
Value elementsToCacheLine(RewriterBase &rewriter, Location loc, Value memref,
                          int64_t bytes) {
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v).getResult();
  };
  auto metadata =
      memref::ExtractStridedMetadataOp::create(rewriter, loc, memref);
  Value base =
      memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, memref);
  Value address = arith::AddIOp::create(
      rewriter, loc, base,
      arith::MulIOp::create(rewriter, loc, metadata.getOffset(),
                            constant(bytes)));
  Value line = constant(kCacheLine);
  Value intoLine = arith::RemUIOp::create(rewriter, loc, address, line);
  Value toNext = arith::RemUIOp::create(
      rewriter, loc, arith::SubIOp::create(rewriter, loc, line, intoLine),
      line);
  return arith::DivUIOp::create(rewriter, loc, toNext, constant(bytes));
}

/// Whether every operand is a memref of whole bytes with static strides:
/// vector loads of `i1` would read packed bits, while memrefs hold a byte per
/// element.
bool wholeByteOperands(linalg::GenericOp op) {
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<MemRefType>(operand.getType());
    if (!type || !type.getElementType().isIntOrFloat() ||
        type.getElementTypeBitWidth() % 8 != 0)
      return false;
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) ||
        llvm::any_of(strides, ShapedType::isDynamic))
      return false;
  }
  return true;
}

/// Whether every op of `op`'s body maps to vectors lane by lane (arith and
/// math ops, casts, selects) or is a `linalg.index`: what the vectorizer
/// turns into one vector op each, whatever the loop sizes. Checked before
/// tiling, when a thread's chunk still has dynamic sizes.
bool elementwiseBody(linalg::GenericOp op) {
  return llvm::all_of(op.getBlock()->without_terminator(), [](Operation &o) {
    return isa<linalg::IndexOp>(o) || OpTrait::hasElementwiseMappableTraits(&o);
  });
}

/// Gives each operand of `op` a view whose strides decrease from the first
/// dimension to the last (`memref.transpose`), composing the permutation
/// into its indexing map, so that the last dimension is the contiguous one.
/// The vectorizer then reads every operand along its own grain
/// (`vector.transfer_read` with a permutation map) instead of gathering
/// it element by element against it.
linalg::GenericOp readAlongGrains(RewriterBase &rewriter,
                                  linalg::GenericOp op) {
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  bool changed = false;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    auto type = cast<MemRefType>(operand.get().getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    (void)type.getStridesAndOffset(strides, offset);
    SmallVector<unsigned> perm =
        llvm::to_vector(llvm::seq<unsigned>(0, type.getRank()));
    llvm::stable_sort(perm, [&](unsigned x, unsigned y) {
      return std::abs(strides[x]) > std::abs(strides[y]);
    });
    if (llvm::is_sorted(perm)) {
      operands.push_back(operand.get());
      maps.push_back(map);
      continue;
    }
    changed = true;
    AffineMap permutation = AffineMap::getPermutationMap(perm, op.getContext());
    operands.push_back(memref::TransposeOp::create(
        rewriter, op.getLoc(), operand.get(), AffineMapAttr::get(permutation)));
    maps.push_back(permutation.compose(map));
  }
  if (!changed)
    return op;
  auto reordered = linalg::GenericOp::create(
      rewriter, op.getLoc(), TypeRange{},
      ArrayRef(operands).take_front(op.getNumDpsInputs()),
      ArrayRef(operands).drop_front(op.getNumDpsInputs()), maps,
      op.getIteratorTypesArray());
  rewriter.inlineRegionBefore(op.getRegion(), reordered.getRegion(),
                              reordered.getRegion().end());
  rewriter.eraseOp(op);
  return reordered;
}

/// math.absi of an n-D vector as arith (`x < 0 ? 0 - x : x`): its LLVM
/// lowering takes scalars and 1-D vectors only, while register tiles are
/// 2-D (a user's stride.broadcast body may use math.absi).
struct AbsIOfMatrix : OpRewritePattern<math::AbsIOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::AbsIOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<VectorType>(op.getType());
    if (!type || type.getRank() < 2)
      return failure();
    Location loc = op.getLoc();
    Value zero = arith::ConstantOp::create(rewriter, loc, type,
                                           rewriter.getZeroAttr(type));
    Value negative = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::slt, op.getOperand(), zero);
    Value negated = arith::SubIOp::create(rewriter, loc, zero, op.getOperand());
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, negative, negated,
                                                 op.getOperand());
    return success();
  }
};

/// One run of blockTransposes: the options and the root every step walks.
struct TransposeBlocker : StrideBlockTransposesOptions {
  TransposeBlocker(Operation *root, const StrideBlockTransposesOptions &options)
      : StrideBlockTransposesOptions(options), root(root) {}

  Operation *root;

  LogicalResult run() {
    SmallVector<linalg::GenericOp> candidates;
    // Only ops whose operands index plain loops: a mirrored operand (map
    // `n - 1 - d`, a negative stride walked backwards) decreases along its
    // loop, while tiling and linalg::splitOp slice every operand as if its
    // indices grew with the loop (the slices would start past the end).
    root->walk([&](linalg::GenericOp op) {
      if (op.hasPureBufferSemantics() && op.getNumDpsInits() == 1 &&
          op.getNumLoops() >= 2 &&
          op.getNumParallelLoops() == op.getNumLoops() &&
          llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
            return map.isProjectedPermutation(/*allowZeroInResults=*/true);
          }))
        candidates.push_back(op);
    });
    if (candidates.empty())
      return success();
    for (auto [name, value, least] :
         {std::tuple<StringRef, int64_t, int64_t>{"tile-bytes", tileBytes, 1},
          {"register-bytes", registerBytes, 0}})
      if (value < least) {
        candidates.front().emitOpError()
            << "cannot be blocked: stride-block-transposes option " << name
            << " is " << value << ", it must be "
            << (least ? "positive" : "zero or positive");
        return failure();
      }
    IRRewriter rewriter(root->getContext());
    bool marked = false;
    for (linalg::GenericOp op : candidates) {
      FailureOr<bool> tiled = block(rewriter, op);
      if (failed(tiled))
        return failure();
      marked |= *tiled;
    }
    if (marked)
      vectorizeTiles(rewriter);
    return success();
  }

  /// Tiles `op`'s two mismatched loops into cache blocks and, inside them,
  /// register tiles marked for vectorization. Returns whether it marked any.
  FailureOr<bool> block(IRRewriter &rewriter, linalg::GenericOp op) {
    std::optional<std::pair<unsigned, unsigned>> grains = mismatchedGrains(op);
    if (!grains)
      return false;
    auto [outer, other] = *grains;
    // Tiles are sized for the widest element, whose rows are the longest.
    unsigned bits = 8;
    for (Value operand : op->getOperands())
      if (Type element = getElementTypeOrSelf(operand.getType());
          element.isIntOrFloat())
        bits = std::max(bits, element.getIntOrFloatBitWidth());
    int64_t bytes = bits / 8;
    int64_t cacheTile = std::max<int64_t>(1, tileBytes / bytes);
    int64_t registerTile = registerBytes / bytes;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    auto atLeast = [&](unsigned loop, int64_t size) {
      return ShapedType::isDynamic(ranges[loop]) || ranges[loop] >= size;
    };
    bool vectorize = wholeByteOperands(op) && elementwiseBody(op);
    if (explainsDecisions(op))
      op->emitRemark() << "stride-explain: tiling: an operand's contiguous "
                          "loop (#"
                       << other << ") is not the result's (#" << outer
                       << "): both loops in cache blocks of " << cacheTile
                       << " x " << cacheTile << " elements"
                       << (vectorize && registerTile >= 2
                               ? " and " + std::to_string(registerTile) +
                                     " x " + std::to_string(registerTile) +
                                     " register tiles transposed in vector "
                                     "registers"
                               : std::string(", scalar inside"));

    // Register tiles of one cache line per row load and store whole lines
    // only when the rows start on a line. NumPy's large arrays start 16
    // bytes into a page, so every row would straddle two lines (a.T + b on
    // 4096^2 f32, one thread: 12.3 ms against 8.3 ms on aligned copies).
    // The op is versioned at run time: when the output's rows (along its
    // grain) or the transposed operand's (along its own) do not start on a
    // line, the leading elements up to the first line boundary are split
    // off (linalg::splitOp) into scalar edge ops and the rest is blocked;
    // otherwise the op is blocked as it is, with its static sizes, which
    // the split version's dynamic ones would slow down (9.2 ms there).
    OpOperand *transposed = nullptr;
    for (OpOperand *input : op.getDpsInputOperands())
      if (grainLoop(op, *input) == other)
        transposed = input;
    if (!(vectorize && transposed && registerTile >= 2 &&
          registerTile * bytes == kCacheLine &&
          atLeast(outer, cacheTile + registerTile) &&
          atLeast(other, cacheTile + registerTile)))
      return blockOne(rewriter, op, outer, other, cacheTile, registerTile,
                      vectorize, atLeast);
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    Value outerShift = elementsToCacheLine(
        rewriter, loc, op.getDpsInitOperand(0)->get(), bytes);
    Value otherShift =
        elementsToCacheLine(rewriter, loc, transposed->get(), bytes);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value onLines = arith::AndIOp::create(
        rewriter, loc,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                              outerShift, zero),
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                              otherShift, zero));
    auto version = scf::IfOp::create(rewriter, loc, onLines,
                                     /*withElseRegion=*/true);
    rewriter.setInsertionPoint(version.thenBlock()->getTerminator());
    auto aligned = cast<linalg::GenericOp>(rewriter.clone(*op));
    rewriter.moveOpBefore(op, version.elseBlock()->getTerminator());
    FailureOr<bool> alignedTiles =
        blockOne(rewriter, aligned, outer, other, cacheTile, registerTile,
                 vectorize, atLeast);
    if (failed(alignedTiles))
      return failure();
    auto splitAt = [&](linalg::GenericOp target, unsigned loop, Value shift) {
      rewriter.setInsertionPoint(target);
      auto [head, rest] = linalg::splitOp(
          rewriter, cast<TilingInterface>(target.getOperation()), loop, shift);
      return cast<linalg::GenericOp>(rest.getOperation());
    };
    linalg::GenericOp rest = splitAt(op, outer, outerShift);
    // The transposed operand's start moved by whole rows of it; measured
    // again all the same (rows need not be whole lines).
    rewriter.setInsertionPoint(rest);
    Value restShift = elementsToCacheLine(
        rewriter, loc, rest->getOperand(transposed->getOperandNumber()), bytes);
    rest = splitAt(rest, other, restShift);
    FailureOr<bool> splitTiles =
        blockOne(rewriter, rest, outer, other, cacheTile, registerTile,
                 vectorize, atLeast);
    if (failed(splitTiles))
      return failure();
    return *alignedTiles || *splitTiles;
  }

  /// Cache blocks and register tiles of `op` (see block).
  FailureOr<bool>
  blockOne(IRRewriter &rewriter, linalg::GenericOp op, unsigned outer,
           unsigned other, int64_t cacheTile, int64_t registerTile,
           bool vectorize,
           llvm::function_ref<bool(unsigned, int64_t)> atLeast) {
    auto tile = [&](linalg::GenericOp target, ArrayRef<int64_t> sizes,
                    StringRef what) {
      return tileAndErase(rewriter, target, sizes, {}, what);
    };

    // Cache blocks: the two loops by `cacheTile`, in their loop order.
    linalg::GenericOp blockOp = op;
    if (atLeast(outer, cacheTile + 1) && atLeast(other, cacheTile + 1)) {
      SmallVector<int64_t> sizes(op.getNumLoops(), 0);
      sizes[outer] = sizes[other] = cacheTile;
      FailureOr<scf::SCFTilingResult> blocks = tile(op, sizes, "cache blocks");
      if (failed(blocks))
        return failure();
      blockOp = cast<linalg::GenericOp>(blocks->tiledOps.front());
    }
    // Register tiles: `registerTile` x `registerTile` elements of the two
    // loops, one iteration of every other loop; peeled so the main tiles
    // are static. Only for ops the vectorizer will take: a scalar tile
    // loop would only add loop overhead inside the block.
    if (registerTile < 2 || !atLeast(outer, registerTile) ||
        !atLeast(other, registerTile) || !vectorize)
      return false;
    SmallVector<int64_t> sizes(op.getNumLoops(), 1);
    sizes[outer] = sizes[other] = registerTile;
    FailureOr<scf::SCFTilingResult> tiles =
        tile(blockOp, sizes, "register tiles");
    if (failed(tiles))
      return failure();
    tiles->tiledOps.front()->setAttr(kRegisterTile, rewriter.getUnitAttr());
    peelTileLoops(rewriter, tiles->loops);
    return true;
  }

  /// Turns every static register tile into vector code: unit loops dropped,
  /// operands read along their grains, `linalg::vectorize`, then the
  /// transposing reads lowered to contiguous loads and shuffles.
  void vectorizeTiles(IRRewriter &rewriter) {
    canonicalizeAll(root);
    for (linalg::GenericOp op :
         takeStaticTiles<linalg::GenericOp>(root, kRegisterTile)) {
      rewriter.setInsertionPoint(op);
      llvm::SmallBitVector unit(op.getNumLoops());
      for (auto [loop, size] : llvm::enumerate(op.getStaticLoopRanges()))
        if (size == 1)
          unit.set(loop);
      if (unit.any())
        op = dropUnitLoops(rewriter, op, unit);
      op = readAlongGrains(rewriter, op);
      if (succeeded(linalg::vectorize(rewriter, op)))
        rewriter.eraseOp(op);
    }
    MLIRContext *ctx = root->getContext();
    RewritePatternSet patterns(ctx);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorTransposeLoweringPatterns(
        patterns, vector::VectorTransposeLowering::Shuffle16x16);
    populateMatrixAbsIPatterns(patterns);
    (void)applyPatternsGreedily(root, std::move(patterns));
  }
};
} // namespace

void mlir::stride::populateMatrixAbsIPatterns(RewritePatternSet &patterns) {
  patterns.add<AbsIOfMatrix>(patterns.getContext());
}

LogicalResult
mlir::stride::blockTransposes(Operation *root,
                              const StrideBlockTransposesOptions &options) {
  return TransposeBlocker(root, options).run();
}

namespace {
struct StrideBlockTransposesPass
    : mlir::stride::impl::StrideBlockTransposesBase<StrideBlockTransposesPass> {
  using Base::Base;

  void runOnOperation() override {
    StrideBlockTransposesOptions options;
    options.tileBytes = tileBytes;
    options.registerBytes = registerBytes;
    if (failed(blockTransposes(getOperation(), options)))
      signalPassFailure();
  }
};
} // namespace
