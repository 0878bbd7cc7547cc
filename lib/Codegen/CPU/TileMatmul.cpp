//===- TileMatmul.cpp - Cache and register blocking of matmuls ------------===//
//
// GotoBLAS's loop nest built from upstream MLIR transformations:
// TilingInterface for the cache and register blocks, loop peeling for static
// micro-tiles, the linalg vectorizer for the micro-kernel and vector.contract
// -> outer product
// -> FMA for its body. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "stride/Codegen/CPU/Transforms.h"
#include "stride/Dialect/Stride/Transforms/Passes.h"

#include "TileUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDETILEMATMUL
#include "stride/Codegen/CPU/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;
using namespace mlir::stride;

namespace {
/// A micro tile of tileVectorMatrix: its unit loops (the size-1 output dim)
/// are dropped before vectorizing, leaving acc[p] += vec[r] * mat[r, p].
constexpr StringLiteral kVectorMatrixTile = "stride.vector_matrix_tile";

/// A row block of tileMatrixVector, whose rows unrollMatrixVectorRows
/// unrolls into its k loop once its row count is static.
constexpr StringLiteral kMatrixVectorTile = "stride.matrix_vector_tile";

/// A register tile of a product whose rhs cache blocks packRhsPanels copies
/// into panels.
constexpr StringLiteral kPackRhs = "stride.pack_rhs";

struct MatmulLoops {
  SmallVector<unsigned> batch;
  unsigned m, n, k;
};

/// The loops of `op` when it is a floating-point (batched) matrix product on
/// buffers with one k loop and at least one m and one n loop. Of several m
/// (or n) loops -- an operand broadcast along a batch dim it lacks, as the
/// vector of `X @ v` for a stack of matrices X -- the one last in the
/// output is m (n), the others are batch loops: they index the output and
/// one operand and are tiled by 1 like the batch loops of both.
std::optional<MatmulLoops> matchMatmul(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op))
    return std::nullopt;
  if (!isa<FloatType>(getElementTypeOrSelf(op.getDpsInits()[0].getType())))
    return std::nullopt;

  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.size() != 1)
    return std::nullopt;
  AffineMap output = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  auto lastInOutput = [&](ArrayRef<unsigned> candidates) {
    std::optional<unsigned> last;
    for (AffineExpr result : output.getResults())
      if (auto dim = dyn_cast<AffineDimExpr>(result))
        if (llvm::is_contained(candidates, dim.getPosition()))
          last = dim.getPosition();
    return last;
  };
  std::optional<unsigned> m = lastInOutput(dims->m), n = lastInOutput(dims->n);
  if (!m || !n)
    return std::nullopt;
  MatmulLoops loops;
  loops.batch.assign(dims->batch.begin(), dims->batch.end());
  for (unsigned loop : llvm::concat<const unsigned>(dims->m, dims->n))
    if (loop != *m && loop != *n)
      loops.batch.push_back(loop);
  llvm::sort(loops.batch);
  loops.m = *m;
  loops.n = *n;
  loops.k = dims->k.front();
  return loops;
}

/// Whether an operand has a size-1 dim with stride 0 next to another
/// stride-0 dim (a broadcast 1x1 operand against a batch): the tiles'
/// rank-reduced subview types are then ambiguous and tiling builds invalid
/// IR, so such a product (a few multiply-adds per batch) stays an untiled
/// loop nest.
bool ambiguousUnitBroadcast(linalg::LinalgOp op) {
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<MemRefType>(operand.getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    if (!type || failed(type.getStridesAndOffset(strides, offset)))
      continue;
    int64_t zeros = llvm::count(strides, 0);
    for (auto [size, stride] : llvm::zip(type.getShape(), strides))
      if (size == 1 && stride == 0 && zeros > 1)
        return true;
  }
  return false;
}

/// For a matrix-vector product (a static m or n of 1) with a static unit
/// stride in its matrix operand: the loop along that stride. Such a product
/// reads each matrix element once, so blocking it buys nothing; it needs its
/// contiguous loop innermost (see orderMatrixVector).
std::optional<unsigned> matrixVectorInnerLoop(linalg::LinalgOp op,
                                              const MatmulLoops &loops) {
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  unsigned matrix;
  if (sizes[loops.n] == 1 && sizes[loops.m] != 1)
    matrix = 0; // A @ x: the lhs is the matrix
  else if (sizes[loops.m] == 1 && sizes[loops.n] != 1)
    matrix = 1; // y @ A: the rhs is
  else
    return std::nullopt;
  OpOperand &operand = *op.getDpsInputOperand(matrix);
  // In the operand's dim order: (m, k) for A, (k, n) for A of y @ A.
  SmallVector<unsigned, 2> candidates =
      matrix == 0 ? SmallVector<unsigned, 2>{loops.m, loops.k}
                  : SmallVector<unsigned, 2>{loops.k, loops.n};
  for (unsigned loop : candidates)
    if (strideAlong(op, operand, loop) == 1)
      return loop;
  return std::nullopt;
}

/// In a matrix-vector generic whose last loop is k: the loop that walks
/// the matrix's rows, the last one before k whose static size is not 1
/// (the batch loops come before it, the size-1 output loop is skipped).
std::optional<unsigned> matrixRowsLoop(linalg::GenericOp op) {
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  for (unsigned loop = sizes.size() - 1; loop-- > 0;)
    if (sizes[loop] != 1)
      return loop;
  return std::nullopt;
}

/// For a float sum on buffers whose one reduction loop is the last and
/// whose body ends in `out + v` (a plain reduction, as stride-bufferize
/// emits a stride.map_reduce marked stride.plain_reduction), with an input
/// read with a static unit stride along that loop: the parallel loop that
/// walks that input's rows (the last one whose size is not 1).
std::optional<unsigned> matchRowDotProducts(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumLoops() < 2 ||
      !isa<FloatType>(getElementTypeOrSelf(op.getDpsInits()[0].getType())))
    return std::nullopt;
  unsigned k = op.getNumLoops() - 1;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (iterators[k] != utils::IteratorType::reduction ||
      llvm::count(iterators, utils::IteratorType::reduction) != 1)
    return std::nullopt;
  Block &body = *op.getBody();
  auto sum = body.getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  BlockArgument out = body.getArguments().back();
  if (!sum || !out.hasOneUse() || (sum.getLhs() != out && sum.getRhs() != out))
    return std::nullopt;
  bool contiguous = false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = dyn_cast<MemRefType>(input->get().getType());
    AffineMap map = op.getMatchingIndexingMap(input);
    SmallVector<int64_t> strides;
    int64_t offset;
    if (!type || map.getNumResults() == 0 ||
        failed(type.getStridesAndOffset(strides, offset)))
      continue;
    if (map.getResults().back() == getAffineDimExpr(k, op.getContext()) &&
        strides.back() == 1 && type.getShape().back() != 1)
      contiguous = true;
  }
  if (!contiguous)
    return std::nullopt;
  return matrixRowsLoop(op);
}

/// Marks every floating-point op of a contraction's body (its multiply and
/// add) `reassoc` and `contract`, so LLVM sums along k in several vector
/// partial sums, as BLAS's dot products do.
void sumReassociably(Region &body) {
  auto flags = arith::FastMathFlagsAttr::get(
      body.getContext(),
      arith::FastMathFlags::reassoc | arith::FastMathFlags::contract);
  body.walk([&](arith::ArithFastMathInterface op) {
    op->setAttr(op.getFastMathAttrName(), flags);
  });
}

/// `tile`, or 0 (no tiling) when the loop's static size already fits.
int64_t clampTile(int64_t size, int64_t tile) {
  return ShapedType::isDynamic(size) || size > tile ? tile : 0;
}

/// A register tile: `tile`, or the loop's static size when it is smaller.
int64_t fitTile(int64_t size, int64_t tile) {
  return ShapedType::isDynamic(size) ? tile : std::min(size, tile);
}

/// Elements of `op`'s output type in `bytes` (at least 1).
int64_t elementsIn(linalg::LinalgOp op, int64_t bytes) {
  int64_t elementBytes = getElementTypeOrSelf(op.getDpsInits()[0].getType())
                             .getIntOrFloatBitWidth() /
                         8;
  return std::max<int64_t>(1, bytes / elementBytes);
}

/// A vector-matrix contraction left by a row block of tileVectorMatrix once
/// its unit dims are cast away: acc[p] += sum_r vec[r] * mat[r, p], the
/// matrix's rows being its memory rows. It becomes one FMA per row, a
/// broadcast of vec[r] times row r into the accumulator (upstream's
/// outer-product lowering would transpose the matrix into dot products).
struct VectorMatrixContractToFma
    : public OpRewritePattern<vector::ContractionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::ContractionOp op,
                                PatternRewriter &rewriter) const override {
    auto accType = dyn_cast<VectorType>(op.getAccType());
    if (op.getKind() != vector::CombiningKind::ADD || !accType ||
        accType.getRank() != 1 || !isa<FloatType>(accType.getElementType()) ||
        op.getIteratorTypesArray().size() != 2)
      return failure();
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<vector::IteratorType> iterators = op.getIteratorTypesArray();
    unsigned p = iterators[0] == vector::IteratorType::parallel ? 0 : 1;
    unsigned r = 1 - p;
    if (iterators[p] != vector::IteratorType::parallel ||
        iterators[r] != vector::IteratorType::reduction)
      return failure();
    MLIRContext *ctx = op.getContext();
    AffineExpr pe = getAffineDimExpr(p, ctx), re = getAffineDimExpr(r, ctx);
    if (maps[2] != AffineMap::get(2, 0, {pe}, ctx))
      return failure();
    AffineMap vecMap = AffineMap::get(2, 0, {re}, ctx),
              matMap = AffineMap::get(2, 0, {re, pe}, ctx);
    Value vec, mat;
    if (maps[0] == vecMap && maps[1] == matMap) {
      vec = op.getLhs();
      mat = op.getRhs();
    } else if (maps[1] == vecMap && maps[0] == matMap) {
      vec = op.getRhs();
      mat = op.getLhs();
    } else {
      return failure();
    }
    auto matType = cast<VectorType>(mat.getType());
    if (matType.isScalable() || accType.isScalable() ||
        matType.getElementType() != accType.getElementType())
      return failure();
    Location loc = op.getLoc();
    Value acc = op.getAcc();
    for (int64_t k = 0; k < matType.getDimSize(0); ++k) {
      Value scalar = vector::ExtractOp::create(rewriter, loc, vec, k);
      Value splat = vector::BroadcastOp::create(rewriter, loc, accType, scalar);
      Value row = vector::ExtractOp::create(rewriter, loc, mat, k);
      acc = vector::FMAOp::create(rewriter, loc, splat, row, acc);
    }
    rewriter.replaceOp(op, acc);
    return success();
  }
};

/// One run of tileMatmuls: the options and the root every step walks.
struct MatmulTiler : StrideTileMatmulOptions {
  MatmulTiler(Operation *root, const StrideTileMatmulOptions &options)
      : StrideTileMatmulOptions(options), root(root) {}

  Operation *root;

  LogicalResult run() {
    SmallVector<linalg::LinalgOp> matmuls;
    SmallVector<std::pair<linalg::GenericOp, unsigned>> dotProducts;
    root->walk([&](linalg::LinalgOp op) {
      if (std::optional<MatmulLoops> loops = matchMatmul(op)) {
        if (!ambiguousUnitBroadcast(op))
          matmuls.push_back(op);
        else
          markDotProduct(op, *loops);
      } else if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
                 generic && matrixVectorRows > 1 &&
                 !ambiguousUnitBroadcast(op)) {
        if (std::optional<unsigned> rows = matchRowDotProducts(generic))
          dotProducts.push_back({generic, *rows});
      }
    });
    if (matmuls.empty() && dotProducts.empty())
      return success();
    for (auto [name, value] :
         {std::pair<StringRef, int64_t>{"register-m", registerM},
          {"register-k", registerK},
          {"register-n-bytes", registerNBytes},
          {"cache-m", cacheM},
          {"cache-n", cacheN},
          {"cache-k", cacheK}})
      if (value < 1) {
        matmuls.front()->emitOpError()
            << "cannot be tiled: stride-tile-matmul option " << name << " is "
            << value << ", it must be positive";
        return failure();
      }
    IRRewriter rewriter(root->getContext());
    for (auto [generic, rows] : dotProducts) {
      if (explainsDecisions(generic))
        generic->emitRemark()
            << "stride-explain: tiling: a matrix-vector product with a fused "
               "matrix expression reads it in blocks of "
            << matrixVectorRows
            << " rows whose dot products advance together, as A @ x";
      if (failed(tileRowDotProducts(rewriter, generic, rows)))
        return failure();
    }
    for (linalg::LinalgOp op : matmuls) {
      MatmulLoops loops = *matchMatmul(op);
      std::optional<unsigned> inner = matrixVectorInnerLoop(op, loops);
      if (inner && *inner != loops.k && vectorMatrixRows > 1) {
        if (explainsDecisions(op))
          op->emitRemark()
              << "stride-explain: tiling: a product whose matrix is "
                 "contiguous along the outputs (y @ A, A.T @ x) reads it in "
                 "blocks of "
              << vectorMatrixRows
              << " rows: each register block of outputs takes those rows' "
                 "products in registers and is loaded and stored once per "
                 "block, not once per row";
        if (failed(tileVectorMatrix(rewriter, op, loops, *inner)))
          return failure();
        continue;
      }
      if (inner && *inner == loops.k && matrixVectorRows > 1) {
        if (explainsDecisions(op))
          op->emitRemark()
              << "stride-explain: tiling: a matrix-vector product whose "
                 "matrix is contiguous along k (A @ x) reads it in blocks of "
              << matrixVectorRows
              << " rows whose dot products advance together: the vector is "
                 "loaded once per block, not once per row, and each row "
                 "sums in several vectorized partial sums";
        if (failed(tileMatrixVector(rewriter, op, loops)))
          return failure();
        continue;
      }
      if (inner) {
        if (explainsDecisions(op))
          op->emitRemark()
              << "stride-explain: tiling: a matrix-vector product reads each "
                 "matrix element once, so it is not blocked; its loops are "
                 "reordered to put the matrix's unit-stride loop innermost ("
              << (*inner == loops.k
                      ? "the k loop: the dot products sum in several "
                        "vectorized partial sums"
                      : "an output loop: each output element sums in k "
                        "order")
              << ")";
        if (failed(orderMatrixVector(rewriter, op, loops, *inner)))
          return failure();
        continue;
      }
      packOperands(rewriter, op, loops);
      if (failed(tile(rewriter, op)))
        return failure();
    }
    simplify();
    // The rhs blocks' subviews move out of the m blocks, where their
    // panel copies go.
    root->walk([&](LoopLikeOpInterface loop) { moveLoopInvariantCode(loop); });
    packRhsPanels(rewriter);
    splitWideEdges(rewriter);
    simplify();
    unrollMatrixVectorRows(rewriter);
    vectorizeMicroTiles(rewriter);
    simplify();
    root->walk([&](LoopLikeOpInterface loop) { moveLoopInvariantCode(loop); });
    lowerContractions();
    return success();
  }

  /// Copies each operand the micro-kernel would read across its memory
  /// rows -- an lhs not contiguous along k (`A.T @ B`), an rhs not
  /// contiguous along n (`A @ B.T`), or either with a step -- into a
  /// row-major buffer before the product, when the product reads each of
  /// its elements at least `packReuse` times (the other output dim). The
  /// copy is an elementwise generic, which stride-block-transposes turns
  /// into register transposes; it costs one pass over the operand, where
  /// the strided micro-kernel lost up to half its speed on every use.
  /// Operands with a stride-0 (broadcast) dim, a dynamic stride, or whose
  /// contiguous loop is not their last dim stay in place.
  void packOperands(IRRewriter &rewriter, linalg::LinalgOp op,
                    const MatmulLoops &loops) {
    if (packReuse < 1)
      return;
    SmallVector<int64_t> sizes = op.getStaticLoopRanges();
    auto reused = [&](unsigned loop) {
      return ShapedType::isDynamic(sizes[loop]) || sizes[loop] >= packReuse;
    };
    if (reused(loops.n))
      packOperand(rewriter, op, *op.getDpsInputOperand(0), loops.k);
    if (reused(loops.m))
      packOperand(rewriter, op, *op.getDpsInputOperand(1), loops.n);
  }

  void packOperand(IRRewriter &rewriter, linalg::LinalgOp op,
                   OpOperand &operand, unsigned contiguous) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    if (!type || type.getRank() == 0 ||
        failed(type.getStridesAndOffset(strides, offset)))
      return;
    std::optional<int64_t> along = strideAlong(op, operand, contiguous);
    if (!along || *along == 1 || *along == 0)
      return;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (!map.isProjectedPermutation() ||
        map.getResults().back() !=
            getAffineDimExpr(contiguous, op.getContext()))
      return;
    for (auto [stride, size] : llvm::zip(strides, type.getShape()))
      if (ShapedType::isDynamic(stride) || (stride == 0 && size != 1))
        return;

    Location loc = op.getLoc();
    Value source = operand.get();
    rewriter.setInsertionPoint(op);
    SmallVector<Value> dynamicSizes;
    for (auto [dim, size] : llvm::enumerate(type.getShape()))
      if (ShapedType::isDynamic(size))
        dynamicSizes.push_back(
            memref::DimOp::create(rewriter, loc, source, dim));
    auto packedType = MemRefType::get(type.getShape(), type.getElementType());
    Value packed =
        memref::AllocOp::create(rewriter, loc, packedType, dynamicSizes,
                                rewriter.getI64IntegerAttr(64));
    unsigned rank = type.getRank();
    SmallVector<AffineMap> maps(2, rewriter.getMultiDimIdentityMap(rank));
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    linalg::GenericOp::create(
        rewriter, loc, ValueRange{source}, ValueRange{packed}, maps, iterators,
        [](OpBuilder &b, Location nestedLoc, ValueRange args) {
          linalg::YieldOp::create(b, nestedLoc, args[0]);
        });
    rewriter.modifyOpInPlace(op, [&] { operand.set(packed); });
    rewriter.setInsertionPointAfter(op);
    memref::DeallocOp::create(rewriter, loc, packed);
    if (explainsDecisions(op))
      op->emitRemark() << "stride-explain: tiling: operand #"
                       << operand.getOperandNumber()
                       << " is read across its memory rows by the "
                          "micro-kernel (stride "
                       << *along
                       << "), so it is first copied into a row-major buffer";
  }

  /// A dot product (every loop but k of static size 1) whose unit dims are
  /// broadcast left untiled (ambiguousUnitBroadcast: `x @ y` of two
  /// vectors): its multiply and add get `reassoc` and `contract`, so LLVM
  /// sums it in vector partial sums as BLAS's ddot does, instead of one
  /// dependent add per element.
  void markDotProduct(linalg::LinalgOp op, const MatmulLoops &loops) {
    SmallVector<int64_t> sizes = op.getStaticLoopRanges();
    for (auto [loop, size] : llvm::enumerate(sizes))
      if (loop != loops.k && size != 1)
        return;
    sumReassociably(op->getRegion(0));
  }

  /// A matrix-vector product stays one loop nest, its loops reordered so
  /// that `inner` (the matrix's unit-stride loop) is innermost, for LLVM's
  /// loop vectorizer. When that loop is k, the sum along it is marked
  /// reassociable (as BLAS's dot products sum in several partial sums), so
  /// it vectorizes with several accumulators; otherwise each output element
  /// still sums in k order.
  FailureOr<linalg::GenericOp> orderMatrixVector(IRRewriter &rewriter,
                                                 linalg::LinalgOp op,
                                                 const MatmulLoops &loops,
                                                 unsigned inner) {
    rewriter.setInsertionPoint(op);
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic) {
      FailureOr<linalg::GenericOp> generalized =
          linalg::generalizeNamedOp(rewriter, op);
      if (failed(generalized))
        return op->emitOpError() << "could not be generalized for its "
                                    "matrix-vector loop order";
      generic = *generalized;
    }
    SmallVector<unsigned> order(loops.batch.begin(), loops.batch.end());
    for (unsigned loop : {loops.m, loops.n, loops.k})
      if (loop != inner)
        order.push_back(loop);
    order.push_back(inner);
    FailureOr<linalg::GenericOp> interchanged =
        linalg::interchangeGenericOp(rewriter, generic, order);
    if (failed(interchanged))
      return generic->emitOpError() << "could not order its loops";
    if (inner == loops.k)
      sumReassociably(interchanged->getRegion());
    return *interchanged;
  }

  /// A @ x with A contiguous along k: blocks of `matrixVectorRows` matrix
  /// rows, each a tile whose k loop is outside its row loop; once peeling
  /// has made a block's row count static, unrollMatrixVectorRows unrolls
  /// the rows into the k loop's body. LLVM's loop vectorizer then sums the
  /// block's dot products in vector partial sums side by side: each vector
  /// of x is loaded once per block instead of once per row, and the matrix
  /// is read as that many sequential row streams, which the hardware
  /// prefetchers keep busier than one. The last rows of a block-less
  /// remainder stay one dot product at a time.
  LogicalResult tileMatrixVector(IRRewriter &rewriter, linalg::LinalgOp op,
                                 const MatmulLoops &loops) {
    FailureOr<linalg::GenericOp> ordered =
        orderMatrixVector(rewriter, op, loops, loops.k);
    if (failed(ordered))
      return failure();
    // orderMatrixVector's order: the batch loops, m, n, then k.
    std::optional<unsigned> rows = matrixRowsLoop(*ordered);
    return rows ? blockMatrixRows(rewriter, *ordered, *rows) : success();
  }

  /// The row blocks of tileMatrixVector in `generic`, whose last loop is k
  /// and whose parallel loop `rows` walks the matrix's rows: the other
  /// parallel loops by 1, `rows` by `matrixVectorRows`, peeled.
  LogicalResult blockMatrixRows(IRRewriter &rewriter, linalg::GenericOp generic,
                                unsigned rows) {
    SmallVector<int64_t> sizes = generic.getStaticLoopRanges();
    SmallVector<int64_t> blocks(sizes.size(), 0);
    for (auto [loop, type] : llvm::enumerate(generic.getIteratorTypesArray()))
      if (loop != rows && linalg::isParallelIterator(type) && sizes[loop] != 1)
        blocks[loop] = 1;
    blocks[rows] = clampTile(sizes[rows], matrixVectorRows);
    if (llvm::all_of(blocks, [](int64_t size) { return size == 0; })) {
      generic->setAttr(kMatrixVectorTile, rewriter.getUnitAttr());
      return success();
    }
    FailureOr<scf::SCFTilingResult> tiles =
        tileAndErase(rewriter, generic, blocks, {}, "matrix-vector row blocks");
    if (failed(tiles))
      return failure();
    tiles->tiledOps.front()->setAttr(kMatrixVectorTile, rewriter.getUnitAttr());
    peelTileLoops(rewriter, tiles->loops);
    return success();
  }

  /// A plain float sum along a contiguous innermost loop of an elementwise
  /// expression (the stride.map_reduce that stride-fuse makes of
  /// `alpha * A @ x`): blocked as tileMatrixVector blocks `A @ x`. The sum
  /// and the multiply feeding it get `reassoc` and `contract`; the
  /// expression's own ops keep their rounding.
  LogicalResult tileRowDotProducts(IRRewriter &rewriter,
                                   linalg::GenericOp generic, unsigned rows) {
    auto sum = cast<arith::AddFOp>(
        generic.getBody()->getTerminator()->getOperand(0).getDefiningOp());
    MLIRContext *context = root->getContext();
    sum.setFastmathAttr(arith::FastMathFlagsAttr::get(
        context,
        arith::FastMathFlags::reassoc | arith::FastMathFlags::contract));
    for (Value operand : sum->getOperands())
      if (auto product = operand.getDefiningOp<arith::MulFOp>())
        product.setFastmathAttr(arith::FastMathFlagsAttr::get(
            context, arith::FastMathFlags::contract));
    return blockMatrixRows(rewriter, generic, rows);
  }

  /// Each static row block of tileMatrixVector as one k loop that carries
  /// every row's sum in `iter_args`: the outputs are loaded before it and
  /// stored after it, and its body is the generic's multiply-add once per
  /// row. With no store in the loop, LLVM's loop vectorizer keeps the
  /// block's sums side by side in vector partial sums (the body's
  /// `reassoc` flags allow it). Blocks whose row count stayed dynamic (the
  /// last rows of a thread's chunk) keep their generic, one row at a time.
  void unrollMatrixVectorRows(IRRewriter &rewriter) {
    for (linalg::GenericOp op :
         takeStaticTiles<linalg::GenericOp>(root, kMatrixVectorTile)) {
      std::optional<unsigned> rows = matrixRowsLoop(op);
      unsigned k = op.getNumLoops() - 1;
      SmallVector<int64_t> sizes = op.getStaticLoopRanges();
      // ivsAt below reads every loop but k and the rows at 0.
      if (!rows || llvm::any_of(llvm::seq(k), [&](unsigned loop) {
            return loop != *rows && sizes[loop] != 1;
          }))
        continue;
      Location loc = op.getLoc();
      rewriter.setInsertionPoint(op);
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      // The operand indices at loop values `ivs` (every loop but k and the
      // rows has size 1).
      auto indices = [&](OpOperand &operand, ArrayRef<OpFoldResult> ivs) {
        SmallVector<Value> result;
        AffineMap map = op.getMatchingIndexingMap(&operand);
        for (AffineExpr expr : map.getResults())
          result.push_back(getValueOrCreateConstantIndexOp(
              rewriter, loc,
              affine::makeComposedFoldedAffineApply(
                  rewriter, loc, AffineMap::get(map.getNumDims(), 0, expr),
                  ivs)));
        return result;
      };
      auto ivsAt = [&](int64_t row, OpFoldResult kValue) {
        SmallVector<OpFoldResult> ivs(op.getNumLoops(),
                                      rewriter.getIndexAttr(0));
        ivs[*rows] = rewriter.getIndexAttr(row);
        ivs[k] = kValue;
        return ivs;
      };
      OpOperand &out = op.getDpsInitsMutable()[0];
      SmallVector<Value> inits;
      for (int64_t r = 0; r < sizes[*rows]; ++r)
        inits.push_back(memref::LoadOp::create(
            rewriter, loc, out.get(),
            indices(out, ivsAt(r, rewriter.getIndexAttr(0)))));
      Value upper = arith::ConstantIndexOp::create(rewriter, loc, sizes[k]);
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      Block &body = op.getRegion().front();
      auto loop = scf::ForOp::create(
          rewriter, loc, zero, upper, one, inits,
          [&](OpBuilder &b, Location nestedLoc, Value kv, ValueRange sums) {
            SmallVector<Value> next;
            for (int64_t r = 0; r < sizes[*rows]; ++r) {
              IRMapping mapping;
              for (OpOperand *input : op.getDpsInputOperands())
                mapping.map(
                    body.getArgument(input->getOperandNumber()),
                    isa<MemRefType>(input->get().getType())
                        ? memref::LoadOp::create(b, nestedLoc, input->get(),
                                                 indices(*input, ivsAt(r, kv)))
                              .getResult()
                        : input->get());
              mapping.map(body.getArgument(out.getOperandNumber()), sums[r]);
              for (Operation &bodyOp : body.without_terminator())
                b.clone(bodyOp, mapping);
              next.push_back(
                  mapping.lookupOrDefault(body.getTerminator()->getOperand(0)));
            }
            scf::YieldOp::create(b, nestedLoc, next);
          });
      for (int64_t r = 0; r < sizes[*rows]; ++r)
        memref::StoreOp::create(
            rewriter, loc, loop.getResult(r), out.get(),
            indices(out, ivsAt(r, rewriter.getIndexAttr(0))));
      rewriter.eraseOp(op);
    }
  }

  /// y @ A with A contiguous along the outputs (or A.T @ x): row blocks of
  /// `vectorMatrixRows` rows of the matrix outermost, then register blocks
  /// of `registerNBytes` of outputs by all the block's rows, vectorized as
  /// outer products (each output vector loaded once, one FMA per row, then
  /// stored). The matrix is read once, as that many sequential row
  /// streams, and the outputs' traffic drops by the block's row count
  /// against the row-at-a-time loop. Each output still sums in k order.
  LogicalResult tileVectorMatrix(IRRewriter &rewriter, linalg::LinalgOp op,
                                 const MatmulLoops &loops, unsigned inner) {
    if (failed(matrixRowsFirst(rewriter, op, loops, inner)))
      return failure();
    SmallVector<int64_t> sizes = op.getStaticLoopRanges();
    unsigned numLoops = sizes.size();
    unsigned other = inner == loops.n ? loops.m : loops.n;
    SmallVector<int64_t> rows(numLoops, 0),
        order(loops.batch.begin(), loops.batch.end());
    for (unsigned b : loops.batch)
      rows[b] = 1;
    rows[loops.k] = clampTile(sizes[loops.k], vectorMatrixRows);
    order.append({int64_t(loops.k), int64_t(inner), int64_t(other)});
    FailureOr<scf::SCFTilingResult> blocks =
        tileAndErase(rewriter, op, rows, order, "vector-matrix row blocks");
    if (failed(blocks))
      return failure();
    auto block = cast<linalg::LinalgOp>(blocks->tiledOps.front());
    SmallVector<int64_t> micro(numLoops, 0);
    micro[inner] = fitTile(sizes[inner], elementsIn(block, registerNBytes));
    micro[other] = 1;
    micro[loops.k] = fitTile(sizes[loops.k], vectorMatrixRows);
    SmallVector<int64_t> microOrder(loops.batch.begin(), loops.batch.end());
    microOrder.append({int64_t(inner), int64_t(other), int64_t(loops.k)});
    FailureOr<scf::SCFTilingResult> tiles =
        tileAndErase(rewriter, block, micro, microOrder, "register blocks");
    if (failed(tiles))
      return failure();
    tiles->tiledOps.front()->setAttr(kMicroTile, rewriter.getUnitAttr());
    tiles->tiledOps.front()->setAttr(kVectorMatrixTile, rewriter.getUnitAttr());
    // Static row blocks and register blocks; the remainders stay scalar.
    SmallVector<LoopLikeOpInterface> peel(tiles->loops);
    peel.append(blocks->loops.begin(), blocks->loops.end());
    peelTileLoops(rewriter, peel);
    return success();
  }

  /// The vectorizer reads each operand in its indexing map's order. For
  /// A.T @ x the matrix operand is a transposed view whose map lists the
  /// output loop first: `op`'s matrix operand becomes the view transposed
  /// back (memref.transpose) with its map's results swapped, so that its
  /// vector rows are memory rows (k first), as y @ A's are.
  LogicalResult matrixRowsFirst(IRRewriter &rewriter, linalg::LinalgOp &op,
                                const MatmulLoops &loops, unsigned inner) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic) {
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::GenericOp> generalized =
          linalg::generalizeNamedOp(rewriter, op);
      if (failed(generalized))
        return op->emitOpError()
               << "could not be generalized for its vector-matrix blocks";
      generic = *generalized;
      op = cast<linalg::LinalgOp>(generic.getOperation());
    }
    for (OpOperand *operand : generic.getDpsInputOperands()) {
      AffineMap map = generic.getMatchingIndexingMap(operand);
      if (map.getNumResults() != 2 ||
          !isa<MemRefType>(operand->get().getType()))
        continue;
      auto first = dyn_cast<AffineDimExpr>(map.getResult(0));
      auto second = dyn_cast<AffineDimExpr>(map.getResult(1));
      if (!first || !second || second.getPosition() != loops.k ||
          first.getPosition() != inner)
        continue;
      rewriter.setInsertionPoint(generic);
      AffineMap swap = AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0},
                                                    rewriter.getContext());
      Value transposed = memref::TransposeOp::create(
          rewriter, generic.getLoc(), operand->get(), AffineMapAttr::get(swap));
      SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
      maps[operand->getOperandNumber()] = AffineMap::get(
          map.getNumDims(), 0, {second, first}, rewriter.getContext());
      rewriter.modifyOpInPlace(generic, [&] {
        operand->set(transposed);
        generic.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      });
    }
    return success();
  }

  LogicalResult tile(IRRewriter &rewriter, linalg::LinalgOp op) {
    MatmulLoops loops = *matchMatmul(op);
    SmallVector<int64_t> sizes = op.getStaticLoopRanges();
    // Peeled cache blocks give the edge tiles static sizes, which pays
    // when the rhs rows are contiguous (f64 500 x 500: 7.0 -> 5.1 ms). With
    // a column-major rhs (x @ x.T), every edge copy of the micro-kernel
    // gathers its rhs tile element by element, and the peeled code ran
    // 10-20x slower than the unpeeled loops (500 x 500: 121 against 7 ms).
    bool peelBlocks = strideAlong(op, *op.getDpsInputOperand(1), loops.n) == 1;
    // A dynamic k or n counts as large.
    bool rowsOuter =
        ShapedType::isDynamic(sizes[loops.k]) ||
        ShapedType::isDynamic(sizes[loops.n]) ||
        sizes[loops.k] * sizes[loops.n] >= elementsIn(op, rowsOuterBytes);
    unsigned numLoops = sizes.size();
    // Cache blocks: batches one at a time, then n, k, m blocks.
    SmallVector<int64_t> cache(numLoops, 0),
        order(loops.batch.begin(), loops.batch.end());
    for (unsigned b : loops.batch)
      cache[b] = 1;
    cache[loops.n] = clampTile(sizes[loops.n], cacheN);
    cache[loops.k] = clampTile(sizes[loops.k], cacheK);
    cache[loops.m] = clampTile(sizes[loops.m], cacheM);
    order.append({int64_t(loops.n), int64_t(loops.k), int64_t(loops.m)});
    FailureOr<scf::SCFTilingResult> blocks =
        tileAndErase(rewriter, op, cache, order, "cache blocks");
    if (failed(blocks))
      return failure();
    auto block = cast<linalg::LinalgOp>(blocks->tiledOps.front());

    // Register blocks: n, m, then k by register-k innermost.
    SmallVector<int64_t> micro(numLoops, 0);
    micro[loops.n] = fitTile(sizes[loops.n], elementsIn(block, registerNBytes));
    micro[loops.m] = fitTile(sizes[loops.m], registerM);
    micro[loops.k] = fitTile(sizes[loops.k], registerK);
    // tileAndErase erases the block: what the remark needs, read first.
    bool explain = explainsDecisions(block);
    Location loc = block.getLoc();
    // Row panels outermost keep an lhs panel's k block in L1 while the rhs
    // block streams past it from L2; column panels outermost keep an rhs
    // panel's, which is as large as L1 (cache-k x register-n-bytes). On the
    // project's AMD EPYC the first is 5-8% faster at f64 1024 and f32 2048
    // (rhs of 8 and 16 MB) and 5-8% slower at f64 500 (2 MB).
    SmallVector<int64_t> microOrder(loops.batch.begin(), loops.batch.end());
    if (rowsOuter)
      microOrder.append({int64_t(loops.m), int64_t(loops.n), int64_t(loops.k)});
    else
      microOrder.append({int64_t(loops.n), int64_t(loops.m), int64_t(loops.k)});
    FailureOr<scf::SCFTilingResult> tiles =
        tileAndErase(rewriter, block, micro, microOrder, "register blocks");
    if (failed(tiles))
      return failure();
    tiles->tiledOps.front()->setAttr(kMicroTile, rewriter.getUnitAttr());
    bool packRhs =
        packPanels > 0 && peelBlocks && loops.batch.empty() &&
        (ShapedType::isDynamic(sizes[loops.m]) || sizes[loops.m] >= packPanels);
    if (packRhs)
      tiles->tiledOps.front()->setAttr(kPackRhs, rewriter.getUnitAttr());
    if (explain) {
      auto size = [](int64_t tile, int64_t whole) {
        return std::to_string(tile ? tile : whole);
      };
      emitRemark(loc)
          << "stride-explain: tiling: cache blocks of m "
          << size(cache[loops.m], sizes[loops.m]) << " x k "
          << size(cache[loops.k], sizes[loops.k]) << " x n "
          << size(cache[loops.n], sizes[loops.n])
          << " (lhs and rhs blocks stay in L2), register blocks of m "
          << micro[loops.m] << " x k " << micro[loops.k] << " x n "
          << micro[loops.n]
          << " vectorized as outer products (broadcast FMAs), the "
             "remainders vectorized where their sizes are static, taken "
          << (rowsOuter ? "row panel by row panel (the lhs panel stays in L1)"
                        : "column panel by column panel");
      if (packRhs)
        emitRemark(loc) << "stride-explain: tiling: each rhs cache block is "
                           "copied into contiguous panels of "
                        << micro[loops.n] << " columns";
    }

    // Peel the n and m loops so that their main iterations have static
    // tiles. Then peel the cache blocks whose bounds are static, innermost
    // first so every copy is peeled: the last partial block gets a static
    // size, so its register tiles, remainders included, are static too
    // and vectorize (at 500 the scalar remainders took a quarter of the
    // time).
    peelTileLoops(rewriter, llvm::to_vector(llvm::reverse(tiles->loops)));
    SmallVector<LoopLikeOpInterface> staticBlocks;
    for (LoopLikeOpInterface loop : llvm::reverse(blocks->loops))
      if (auto forOp = dyn_cast<scf::ForOp>(loop.getOperation());
          forOp && getConstantIntValue(forOp.getLowerBound()) &&
          getConstantIntValue(forOp.getUpperBound()) &&
          getConstantIntValue(forOp.getStep()))
        staticBlocks.push_back(loop);
    if (peelBlocks)
      peelTileLoops(rewriter, staticBlocks);
    return success();
  }

  /// Copies each rhs cache block that register tiles marked kPackRhs read
  /// into contiguous panels of one register tile's width (GotoBLAS's packed
  /// B): panel p holds the block's columns [p nr, (p + 1) nr) row after
  /// row, so the micro-kernel reads its rhs tile as one sequential stream
  /// instead of one cache line per rhs row. Rows of a power-of-two length
  /// all fall into the same few cache sets, and the in-place block did not
  /// stay in L2 (f64 1024 x 1024 on the project's AMD EPYC: 47 GF/s against
  /// 55 at 256). The copy sits right after the block's subview, outside
  /// the m blocks that reuse it; each block has its own buffer (see
  /// allocateAround). Register tiles whose column offset is not a static
  /// multiple of the panel width keep reading the block in place.
  void packRhsPanels(IRRewriter &rewriter) {
    struct Tile {
      linalg::LinalgOp op;
      memref::SubViewOp view;
    };
    llvm::MapVector<Value, SmallVector<Tile>> blocks;
    root->walk([&](linalg::LinalgOp op) {
      if (!op->hasAttr(kPackRhs))
        return;
      op->removeAttr(kPackRhs);
      std::optional<MatmulLoops> loops = matchMatmul(op);
      if (!loops || !loops->batch.empty() || op.hasDynamicShape())
        return;
      OpOperand &rhs = *op.getDpsInputOperand(1);
      AffineMap map = op.getMatchingIndexingMap(&rhs);
      MLIRContext *ctx = op.getContext();
      if (map.getNumResults() != 2 ||
          map.getResult(0) != getAffineDimExpr(loops->k, ctx) ||
          map.getResult(1) != getAffineDimExpr(loops->n, ctx))
        return;
      auto view = rhs.get().getDefiningOp<memref::SubViewOp>();
      if (!view || !view.hasUnitStride() || view.getType().getRank() != 2 ||
          view.getSourceType().getRank() != 2 ||
          !view.getSourceType().hasStaticShape())
        return;
      SmallVector<int64_t> strides;
      int64_t offset;
      if (failed(view.getSourceType().getStridesAndOffset(strides, offset)) ||
          strides[1] != 1)
        return;
      blocks[view.getSource()].push_back({op, view});
    });

    for (auto &[block, tiles] : blocks) {
      // A cache block's subview, made inside the tiled nest (or moved just
      // before one of its loops): the data it views is written by then. A
      // whole operand (one block) may be a buffer filled after it is
      // allocated (packOperands' copy), so it stays in place.
      auto def = block.getDefiningOp<memref::SubViewOp>();
      if (!def)
        continue;
      int64_t width = elementsIn(tiles.front().op, registerNBytes);
      // The tiles whose columns lie in one panel: offset a static multiple
      // of the width (a constant, or a loop variable that starts and steps
      // by multiples of it).
      auto panelStart = [&](OpFoldResult offset) {
        if (std::optional<int64_t> c = getConstantIntValue(offset))
          return *c % width == 0;
        auto arg = dyn_cast<BlockArgument>(cast<Value>(offset));
        auto loop = arg ? dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp())
                        : scf::ForOp();
        if (!loop || loop.getInductionVar() != arg)
          return false;
        std::optional<int64_t> lower =
            getConstantIntValue(loop.getLowerBound());
        std::optional<int64_t> step = getConstantIntValue(loop.getStep());
        return lower && step && *lower % width == 0 && *step % width == 0;
      };
      SmallVector<Tile> packable;
      for (Tile tile : tiles)
        if (panelStart(tile.view.getMixedOffsets()[1]) &&
            tile.view.getType().getDimSize(1) <= width)
          packable.push_back(tile);
      if (packable.empty())
        continue;
      // Each block its own buffer, written only by its own copy: a block
      // whose subview moved out of more loops than another's (a peeled
      // edge block) is read after the other's copies have run.
      Value packed = allocateAround(rewriter, def, block, width);
      emitPanelCopy(rewriter, block, packed, width);
      for (Tile tile : packable) {
        linalg::LinalgOp op = tile.op;
        memref::SubViewOp view = tile.view;
        rewriter.setInsertionPoint(op);
        Location loc = op.getLoc();
        OpFoldResult column = view.getMixedOffsets()[1];
        OpFoldResult panel = affine::makeComposedFoldedAffineApply(
            rewriter, loc,
            getAffineDimExpr(0, rewriter.getContext()).floorDiv(width),
            {column});
        SmallVector<OpFoldResult> offsets = {panel, view.getMixedOffsets()[0],
                                             rewriter.getIndexAttr(0)};
        SmallVector<OpFoldResult> sizes = {rewriter.getIndexAttr(1),
                                           view.getMixedSizes()[0],
                                           view.getMixedSizes()[1]};
        SmallVector<OpFoldResult> ones(3, rewriter.getIndexAttr(1));
        auto resultType = memref::SubViewOp::inferRankReducedResultType(
            view.getType().getShape(), cast<MemRefType>(packed.getType()),
            offsets, sizes, ones);
        Value tileView = memref::SubViewOp::create(
            rewriter, loc, cast<MemRefType>(resultType), packed, offsets, sizes,
            ones);
        rewriter.modifyOpInPlace(
            op, [&] { op.getDpsInputOperand(1)->set(tileView); });
        if (view->use_empty())
          rewriter.eraseOp(view);
      }
    }
  }

  /// A buffer for `block`'s panels of `width` columns: allocated before the
  /// outermost `scf.for` around `def` (`def` itself outside any; never
  /// outside a thread's chunk), freed before the end of that op's block,
  /// which every use of `block` precedes.
  Value allocateAround(IRRewriter &rewriter, Operation *def, Value block,
                       int64_t width) {
    Operation *anchor = def;
    for (Operation *parent = def->getParentOp();
         parent && isa<scf::ForOp>(parent); parent = parent->getParentOp())
      anchor = parent;
    auto type = cast<MemRefType>(block.getType());
    auto packedType = MemRefType::get(
        {static_cast<int64_t>(llvm::divideCeil(type.getDimSize(1), width)),
         type.getDimSize(0), width},
        type.getElementType());
    Location loc = def->getLoc();
    rewriter.setInsertionPoint(anchor);
    Value packed = memref::AllocOp::create(rewriter, loc, packedType,
                                           rewriter.getI64IntegerAttr(64));
    rewriter.setInsertionPoint(anchor->getBlock()->getTerminator());
    memref::DeallocOp::create(rewriter, loc, packed);
    return packed;
  }

  /// block[k, p width + j] -> packed[p, k, j], right after `block` is
  /// defined: row by row (the block's rows are read in memory order), each
  /// row's panels as vectors of `width` elements, the last partial panel's
  /// as one shorter vector.
  void emitPanelCopy(IRRewriter &rewriter, Value block, Value packed,
                     int64_t width) {
    auto type = cast<MemRefType>(block.getType());
    int64_t rows = type.getDimSize(0), columns = type.getDimSize(1);
    Location loc = block.getLoc();
    rewriter.setInsertionPointAfterValue(block);
    auto index = [&](int64_t v) {
      return arith::ConstantIndexOp::create(rewriter, loc, v).getResult();
    };
    Value zero = index(0), one = index(1);
    Value padding = ub::PoisonOp::create(rewriter, loc, type.getElementType());
    auto copy = [&](OpBuilder &b, Value row, Value panel, int64_t length) {
      auto vectorType = VectorType::get({length}, type.getElementType());
      Value column = affine::AffineApplyOp::create(
          b, loc, getAffineDimExpr(0, b.getContext()) * width, panel);
      Value v = vector::TransferReadOp::create(b, loc, vectorType, block,
                                               ValueRange{row, column}, padding,
                                               ArrayRef<bool>{true});
      vector::TransferWriteOp::create(b, loc, v, packed,
                                      ValueRange{panel, row, zero},
                                      ArrayRef<bool>{true});
    };
    scf::ForOp::create(
        rewriter, loc, zero, index(rows), one, ValueRange{},
        [&](OpBuilder &b, Location, Value row, ValueRange) {
          if (columns / width > 0)
            scf::ForOp::create(
                b, loc, zero, index(columns / width), one, ValueRange{},
                [&](OpBuilder &b2, Location, Value panel, ValueRange) {
                  copy(b2, row, panel, width);
                  scf::YieldOp::create(b2, loc);
                });
          if (columns % width)
            copy(b, row, index(columns / width), columns % width);
          scf::YieldOp::create(b, loc);
        });
  }

  /// Splits each static register tile whose columns are more than half of
  /// `register-n-bytes` but not a multiple of that half (an edge of 17 to
  /// 31 f32 columns) into a tile of the half and one of the rest: LLVM
  /// widens a `vector<20xf32>` to a whole `vector<32xf32>`'s work, and f32
  /// products whose last columns took such a tile ran 15% slower (500 x
  /// 500 on the project's AMD EPYC: 93 GF/s, against 108 at 496 and 109 at
  /// 490, whose edges are 16 and 10 wide).
  void splitWideEdges(IRRewriter &rewriter) {
    SmallVector<std::tuple<linalg::LinalgOp, unsigned, int64_t>> wide;
    root->walk([&](linalg::LinalgOp op) {
      if (!op->hasAttr(kMicroTile) || op->hasAttr(kVectorMatrixTile) ||
          op.hasDynamicShape())
        return;
      std::optional<MatmulLoops> loops = matchMatmul(op);
      if (!loops)
        return;
      int64_t columns = op.getStaticLoopRanges()[loops->n];
      int64_t half = elementsIn(op, registerNBytes / 2);
      if (columns > half && columns % half != 0)
        wide.push_back({op, loops->n, half});
    });
    for (auto [op, n, half] : wide) {
      SmallVector<int64_t> sizes(op.getNumLoops(), 0);
      sizes[n] = half;
      FailureOr<scf::SCFTilingResult> halves =
          tileAndErase(rewriter, op, sizes, {}, "register halves");
      if (failed(halves))
        continue;
      halves->tiledOps.front()->setAttr(kMicroTile, rewriter.getUnitAttr());
      peelTileLoops(rewriter, halves->loops);
    }
  }

  /// Canonicalizes the function so that the peeled tiles' sizes become
  /// constants in the subview types and linalg operands.
  void simplify() { canonicalizeAll(root); }

  /// The last rows of a thread's chunk (whose length is only known at run
  /// time) are a micro tile whose m is dynamic: tiled by one row, each row
  /// is a static 1 x k x n tile, vectorized as broadcast FMAs like the
  /// others instead of a scalar loop nest.
  void splitDynamicRows(IRRewriter &rewriter) {
    SmallVector<std::pair<linalg::LinalgOp, unsigned>> dynamicRows;
    root->walk([&](linalg::LinalgOp op) {
      if (!op->hasAttr(kMicroTile) || !op.hasDynamicShape())
        return;
      std::optional<MatmulLoops> loops = matchMatmul(op);
      if (!loops)
        return;
      for (auto [loop, size] : llvm::enumerate(op.getStaticLoopRanges()))
        if (ShapedType::isDynamic(size) && loop != loops->m)
          return;
      dynamicRows.push_back({op, loops->m});
    });
    for (auto [op, m] : dynamicRows) {
      SmallVector<int64_t> sizes(op.getNumLoops(), 0);
      sizes[m] = 1;
      FailureOr<scf::SCFTilingResult> rows =
          tileAndErase(rewriter, op, sizes, {}, "rows");
      if (failed(rows))
        continue;
      // Like a vector-matrix block's tile: without its unit m loop the
      // contraction is (k) x (k, n), which VectorMatrixContractToFma turns
      // into broadcast FMAs (upstream's lowering would make dot products).
      rows->tiledOps.front()->setAttr(kMicroTile, rewriter.getUnitAttr());
      rows->tiledOps.front()->setAttr(kVectorMatrixTile,
                                      rewriter.getUnitAttr());
    }
  }

  void vectorizeMicroTiles(IRRewriter &rewriter) {
    splitDynamicRows(rewriter);
    for (linalg::LinalgOp op :
         takeStaticTiles<linalg::LinalgOp>(root, kMicroTile)) {
      rewriter.setInsertionPoint(op);
      // A tile's batch loops have size 1: drop them (rank-reducing
      // subviews), so that the vectorizer sees a plain 2-D product and
      // emits a contract the outer-product lowering accepts.
      if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
          generic && generic->hasAttr(kVectorMatrixTile)) {
        llvm::SmallBitVector unit(generic.getNumLoops());
        for (auto [loop, size] : llvm::enumerate(generic.getStaticLoopRanges()))
          if (size == 1)
            unit.set(loop);
        if (unit.any())
          op = dropUnitLoops(rewriter, generic, unit);
      } else if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
                 generic && generic.getNumLoops() > 3) {
        llvm::SmallBitVector batch(generic.getNumLoops());
        // Keep the match alive: `->batch` of the temporary would dangle
        // in the loop (ASan: stack-use-after-scope).
        auto match = matchMatmul(generic);
        if (!match)
          continue;
        for (unsigned b : match->batch)
          batch.set(b);
        op = dropUnitLoops(rewriter, generic, batch);
      }
      FailureOr<linalg::VectorizationResult> result =
          linalg::vectorize(rewriter, op, {}, {}, false, false, false,
                            /*createNamedContraction=*/true);
      if (succeeded(result))
        rewriter.eraseOp(op);
    }
  }

  /// Keeps each micro-kernel's accumulator in registers across its k loop:
  /// a loop whose only write is a transfer_write of the value computed from
  /// a transfer_read of the same loop-invariant buffer and indices reads it
  /// once before and writes it once after, carrying it as an iter_arg.
  /// (Upstream's hoistRedundantVectorTransfers refuses buffers that come
  /// from subviews, which every tile's are.) The other memory accesses in
  /// the loop are reads of the matmul's inputs, which never alias its
  /// output.
  void hoistAccumulators() {
    SmallVector<scf::ForOp> loops;
    root->walk([&](scf::ForOp loop) { loops.push_back(loop); });
    IRRewriter rewriter(root->getContext());
    for (scf::ForOp loop : loops) {
      vector::TransferWriteOp write;
      bool otherWrites = false;
      loop.getBody()->walk([&](Operation *op) {
        if (auto w = dyn_cast<vector::TransferWriteOp>(op)) {
          otherWrites |= static_cast<bool>(write);
          write = w;
          return;
        }
        auto effects = dyn_cast<MemoryEffectOpInterface>(op);
        if (!effects ? !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>()
                     : effects.hasEffect<MemoryEffects::Write>() ||
                           effects.hasEffect<MemoryEffects::Free>())
          otherWrites = true;
      });
      if (!write || otherWrites || write->getParentOp() != loop)
        continue;
      vector::TransferReadOp accRead;
      for (Operation &op : *loop.getBody())
        if (auto r = dyn_cast<vector::TransferReadOp>(op))
          if (r.getBase() == write.getBase() &&
              r.getIndices() == write.getIndices() &&
              r.getVectorType() == write.getVectorType() &&
              r.getPermutationMap() == write.getPermutationMap() &&
              !r.getMask())
            accRead = r;
      if (!accRead || write.getMask() ||
          !loop.isDefinedOutsideOfLoop(write.getBase()) ||
          !llvm::all_of(
              write.getIndices(),
              [&](Value v) { return loop.isDefinedOutsideOfLoop(v); }) ||
          !loop.isDefinedOutsideOfLoop(accRead.getPadding()))
        continue;
      rewriter.moveOpBefore(accRead, loop);
      auto newLoop = cast<scf::ForOp>(*loop.replaceWithAdditionalYields(
          rewriter, ValueRange{accRead.getResult()},
          /*replaceInitOperandUsesInLoop=*/true,
          [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
            return SmallVector<Value>{write.getVector()};
          }));
      rewriter.moveOpAfter(write, newLoop);
      rewriter.modifyOpInPlace(write, [&] {
        write.getValueToStoreMutable().assign(newLoop.getResults().back());
      });
    }
  }

  /// vector.contract -> outer products -> FMAs, transfers to loads/stores.
  void lowerContractions() {
    MLIRContext *ctx = root->getContext();
    {
      RewritePatternSet patterns(ctx);
      vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
      vector::populateVectorReductionToContractPatterns(patterns);
      vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
      vector::ContractionOp::getCanonicalizationPatterns(patterns, ctx);
      (void)applyPatternsGreedily(root, std::move(patterns));
    }
    {
      RewritePatternSet patterns(ctx);
      patterns.add<VectorMatrixContractToFma>(ctx);
      (void)applyPatternsGreedily(root, std::move(patterns));
    }
    hoistAccumulators();
    RewritePatternSet patterns(ctx);
    vector::populateVectorContractLoweringPatterns(
        patterns, vector::VectorContractLowering::OuterProduct);
    vector::populateVectorOuterProductLoweringPatterns(patterns);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorTransposeLoweringPatterns(
        patterns, vector::VectorTransposeLowering::EltWise);
    vector::populateVectorTransferLoweringPatterns(patterns,
                                                   /*maxTransferRank=*/1);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns, ctx);
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns, ctx);
    (void)applyPatternsGreedily(root, std::move(patterns));
  }
};
} // namespace

LogicalResult
mlir::stride::tileMatmuls(Operation *root,
                          const StrideTileMatmulOptions &options) {
  return MatmulTiler(root, options).run();
}

namespace {
struct StrideTileMatmulPass
    : mlir::stride::impl::StrideTileMatmulBase<StrideTileMatmulPass> {
  using Base::Base;

  void runOnOperation() override {
    StrideTileMatmulOptions options;
    options.registerM = registerM;
    options.registerK = registerK;
    options.registerNBytes = registerNBytes;
    options.cacheM = cacheM;
    options.cacheN = cacheN;
    options.cacheK = cacheK;
    options.packReuse = packReuse;
    options.matrixVectorRows = matrixVectorRows;
    options.vectorMatrixRows = vectorMatrixRows;
    options.packPanels = packPanels;
    options.rowsOuterBytes = rowsOuterBytes;
    if (failed(tileMatmuls(getOperation(), options)))
      signalPassFailure();
  }
};
} // namespace
