//===- VectorizeLanes.cpp - Reduction lanes as vector registers ----------===//
//
// A reduction's lanes generic (stride-bufferize: loops ..., blocks, lanes;
// accumulators indexed by the kept loops and the lanes) is tiled by one
// along every loop but the lanes, its unit loops are dropped, the lane tile
// is vectorized, and the accumulators' reads and writes are hoisted out of
// the loops that do not move them: the lanes live in vector registers for
// a whole row instead of round-tripping through memory every block.
//
//===----------------------------------------------------------------------===//

#include "stride/Codegen/CPU/Transforms.h"

#include "TileUtils.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEVECTORIZELANES
#include "stride/Codegen/CPU/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;
using namespace mlir::stride;

namespace {

/// Whether `v` is defined outside `loop`.
bool isOutside(Value v, scf::ForOp loop) {
  return !loop->isAncestor(v.getParentBlock()->getParentOp());
}

/// Whether two index lists name the same indices (the same values, or
/// equal constants: the vectorizer creates a zero per transfer).
bool sameIndices(ValueRange a, ValueRange b) {
  if (a.size() != b.size())
    return false;
  for (auto [x, y] : llvm::zip(a, b)) {
    if (x == y)
      continue;
    std::optional<int64_t> cx = getConstantIntValue(x),
                           cy = getConstantIntValue(y);
    if (!cx || !cy || *cx != *cy)
      return false;
  }
  return true;
}

/// Moves each accumulator read/write pair out of `loop` into an iter_arg:
/// a `vector.transfer_read` and a later `vector.transfer_write` of the same
/// value, memref and indices, all defined outside the loop, with no other
/// use of that memref inside it. The memrefs are the kernel's own lane
/// buffers (stride-bufferize allocates them), which nothing else reads or
/// writes, so the promotion is exact. Returns the loop (replaced when a
/// pair was hoisted).
scf::ForOp hoistAccumulators(RewriterBase &rewriter, scf::ForOp loop,
                             SmallVectorImpl<Operation *> &hoistedReads) {
  while (true) {
    vector::TransferReadOp read;
    vector::TransferWriteOp write;
    for (auto candidate : loop.getBody()->getOps<vector::TransferReadOp>()) {
      Value base = candidate.getBase();
      if (!isOutside(base, loop) ||
          !llvm::all_of(candidate.getIndices(),
                        [&](Value i) { return isOutside(i, loop); }))
        continue;
      vector::TransferWriteOp found;
      bool onlyPair = true;
      for (Operation *user : base.getUsers()) {
        if (!loop->isAncestor(user) || user == candidate)
          continue;
        auto w = dyn_cast<vector::TransferWriteOp>(user);
        if (!w || found || w->getBlock() != loop.getBody() ||
            !sameIndices(w.getIndices(), candidate.getIndices()) ||
            w.getVector().getType() != candidate.getType() ||
            w.getPermutationMap() != candidate.getPermutationMap() ||
            !candidate->isBeforeInBlock(w)) {
          onlyPair = false;
          break;
        }
        found = w;
      }
      if (onlyPair && found) {
        read = candidate;
        write = found;
        break;
      }
    }
    if (!read)
      return loop;
    rewriter.setInsertionPoint(loop);
    Operation *hoistedRead = rewriter.clone(*read);
    auto grown = cast<scf::ForOp>(*loop.replaceWithAdditionalYields(
        rewriter, hoistedRead->getResult(0),
        /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
          return SmallVector<Value>{write.getVector()};
        }));
    rewriter.replaceAllUsesWith(read.getResult(),
                                grown.getRegionIterArgs().back());
    rewriter.setInsertionPointAfter(grown);
    auto hoistedWrite = cast<vector::TransferWriteOp>(rewriter.clone(*write));
    rewriter.modifyOpInPlace(hoistedWrite, [&] {
      hoistedWrite.getValueToStoreMutable().assign(grown.getResults().back());
    });
    rewriter.eraseOp(write);
    llvm::erase(hoistedReads, read.getOperation());
    rewriter.eraseOp(read);
    hoistedReads.push_back(hoistedRead);
    loop = grown;
  }
}

struct LaneVectorizer {
  Operation *root;

  LogicalResult run() {
    SmallVector<linalg::GenericOp> lanes;
    root->walk([&](linalg::GenericOp op) {
      if (op->hasAttr(kLanesAttr))
        lanes.push_back(op);
    });
    IRRewriter rewriter(root->getContext());
    for (linalg::GenericOp op : lanes)
      if (failed(vectorizeOne(rewriter, op)))
        return failure();
    return success();
  }

  LogicalResult vectorizeOne(IRRewriter &rewriter, linalg::GenericOp op) {
    op->removeAttr(kLanesAttr);
    unsigned numLoops = op.getNumLoops();
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    // The lanes are the last loop, static and parallel; operands of whole
    // bytes (vector loads of i1 would read packed bits).
    // Mirrored dims (`size - 1 - d` in a map) are left to LLVM too: the
    // unit-loop drop and the vectorizer take plain dims only.
    if (numLoops == 0 || ShapedType::isDynamic(ranges.back()) ||
        !llvm::all_of(op.getIndexingMapsArray(),
                      [](AffineMap m) { return m.isProjectedPermutation(); }) ||
        op.getIteratorTypesArray().back() != utils::IteratorType::parallel ||
        !llvm::all_of(op->getOperands(),
                      [](Value v) {
                        auto type = dyn_cast<MemRefType>(v.getType());
                        return !type ||
                               (type.getElementType().isIntOrFloat() &&
                                type.getElementTypeBitWidth() % 8 == 0);
                      }) ||
        !llvm::all_of(op.getBlock()->without_terminator(), [](Operation &o) {
          // Math functions stay with LLVM's loop vectorizer, which calls
          // libmvec's 16-lane variants; a vector<64xf32> math.exp would be
          // split into scalar calls (softmax's sum of exponentials).
          bool call = isa<math::MathDialect>(o.getDialect()) &&
                      !isa<math::AbsFOp, math::AbsIOp, math::SqrtOp,
                           math::FmaOp, math::CopySignOp, math::FloorOp,
                           math::CeilOp, math::TruncOp, math::RoundEvenOp>(o);
          return isa<linalg::IndexOp>(o) ||
                 (OpTrait::hasElementwiseMappableTraits(&o) && !call);
        }))
      return success(); // stays a generic: LLVM's loop vectorizer takes it
    // Lane buffers the kernel allocated and filled with a constant just
    // before: once every kept point reads its lanes once, before any
    // write, the reads are that constant and the fill is dead.
    DenseMap<Value, linalg::FillOp> filled;
    for (Value out : op.getDpsInits())
      if (linalg::FillOp fill = soleInitialFill(op, out))
        filled[out] = fill;
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    SmallVector<int64_t> sizes(numLoops, 1);
    sizes.back() = 0;
    FailureOr<scf::SCFTilingResult> tiles =
        tileAndErase(rewriter, op, sizes, {}, "lane vectors");
    if (failed(tiles))
      return failure();
    auto tile = cast<linalg::GenericOp>(tiles->tiledOps.front());
    llvm::SmallBitVector unit(numLoops);
    unit.set(0, numLoops - 1);
    rewriter.setInsertionPoint(tile);
    tile = dropUnitLoops(rewriter, tile, unit);
    if (failed(linalg::vectorize(rewriter, tile)))
      return tile->emitOpError("could not be vectorized into lane vectors");
    rewriter.eraseOp(tile);
    // Innermost loop first: its invariant views and index math move out,
    // then the accumulators; the loop around it may then take them too.
    SmallVector<Operation *> hoistedReads;
    unsigned innerLoops = 0; // tile loops the reads were hoisted out of
    for (LoopLikeOpInterface like : llvm::reverse(tiles->loops)) {
      auto loop = dyn_cast<scf::ForOp>(like.getOperation());
      if (!loop)
        break;
      moveLoopInvariantCode(loop);
      if (hoistAccumulators(rewriter, loop, hoistedReads) == loop)
        break; // the accumulators move with this loop's index
      ++innerLoops;
    }
    // Out of every reduction loop: each kept point reads its lanes once.
    bool readOnce = true;
    for (unsigned loop = 0; loop + innerLoops < numLoops - 1; ++loop)
      readOnce &= iterators[loop] == utils::IteratorType::parallel;
    if (!readOnce || filled.empty())
      return success();
    for (Operation *read : hoistedReads) {
      auto transfer = cast<vector::TransferReadOp>(read);
      Value base = transfer.getBase();
      while (auto view = base.getDefiningOp<memref::SubViewOp>())
        base = view.getSource();
      auto it = filled.find(base);
      if (it == filled.end())
        continue;
      rewriter.setInsertionPoint(transfer);
      rewriter.replaceOpWithNewOp<vector::BroadcastOp>(
          transfer, transfer.getVectorType(), it->second.getInputs()[0]);
    }
    for (auto &[buffer, fill] : filled)
      rewriter.eraseOp(fill);
    return success();
  }

  /// The linalg.fill of `buffer` with a scalar, in `op`'s block before it,
  /// when `buffer` is a memref.alloc that nothing else uses before `op`
  /// and that `op` writes whole (its loops are the buffer's dims); or null.
  static linalg::FillOp soleInitialFill(linalg::GenericOp op, Value buffer) {
    if (!buffer.getDefiningOp<memref::AllocOp>())
      return {};
    linalg::FillOp fill;
    for (Operation *user : buffer.getUsers()) {
      if (user == op)
        continue;
      if (user->getBlock() == op->getBlock() && op->isBeforeInBlock(user))
        continue;
      auto f = dyn_cast<linalg::FillOp>(user);
      if (!f || fill || f->getBlock() != op->getBlock() ||
          f.getOutputs()[0] != buffer ||
          isa<ShapedType>(f.getInputs()[0].getType()))
        return {};
      fill = f;
    }
    return fill;
  }
};

} // namespace

LogicalResult mlir::stride::vectorizeLanes(Operation *root) {
  return LaneVectorizer{root}.run();
}

namespace {
struct StrideVectorizeLanesPass
    : mlir::stride::impl::StrideVectorizeLanesBase<StrideVectorizeLanesPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(vectorizeLanes(getOperation())))
      signalPassFailure();
  }
};
} // namespace
