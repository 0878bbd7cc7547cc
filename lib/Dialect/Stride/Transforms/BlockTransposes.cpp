//===- BlockTransposes.cpp - 2-D cache blocks for mismatched layouts ------===//
//
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "stride/Dialect/Stride/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEBLOCKTRANSPOSES
#include "stride/Dialect/Stride/Transforms/Passes.h.inc"
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

struct StrideBlockTransposesPass
    : mlir::stride::impl::StrideBlockTransposesBase<
          StrideBlockTransposesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> candidates;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (op.hasPureBufferSemantics() && op.getNumDpsInits() == 1 &&
          op.getNumLoops() >= 2 &&
          op.getNumParallelLoops() == op.getNumLoops())
        candidates.push_back(op);
    });
    if (!candidates.empty() && tileBytes < 1) {
      candidates.front().emitOpError()
          << "cannot be blocked: stride-block-transposes option tile-bytes is "
          << static_cast<int64_t>(tileBytes) << ", it must be positive";
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : candidates) {
      std::optional<unsigned> outer = grainLoop(op, *op.getDpsInitOperand(0));
      if (!outer)
        continue;
      std::optional<unsigned> other;
      for (OpOperand *input : op.getDpsInputOperands())
        if (std::optional<unsigned> g = grainLoop(op, *input); g && *g != *outer)
          other = g;
      if (!other)
        continue;
      unsigned bits = getElementTypeOrSelf(op.getDpsInits()[0].getType())
                          .getIntOrFloatBitWidth();
      int64_t tile = std::max<int64_t>(1, tileBytes * 8 / std::max(8u, bits));
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      auto longEnough = [&](unsigned loop) {
        return ShapedType::isDynamic(ranges[loop]) || ranges[loop] > tile;
      };
      if (!longEnough(*outer) || !longEnough(*other))
        continue;
      SmallVector<int64_t> sizes(op.getNumLoops(), 0);
      sizes[*outer] = tile;
      sizes[*other] = tile;
      scf::SCFTilingOptions options;
      options.setTileSizes(getAsIndexOpFoldResult(&getContext(), sizes));
      rewriter.setInsertionPoint(op);
      FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
          rewriter, cast<TilingInterface>(op.getOperation()), options);
      if (failed(tiled)) {
        op.emitOpError() << "could not be tiled into cache blocks";
        return signalPassFailure();
      }
      rewriter.eraseOp(op);
    }
  }
};
} // namespace
