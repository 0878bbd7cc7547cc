//===- DropShardings.cpp - shard annotations out of one-process runs ------===//

#include "stride/Dialect/Stride/Transforms/Passes.h"

#include "mlir/Dialect/Shard/IR/ShardOps.h"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEDROPSHARDINGS
#include "stride/Dialect/Stride/Transforms/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;

namespace {
struct StrideDropShardingsPass
    : public mlir::stride::impl::StrideDropShardingsBase<
          StrideDropShardingsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Operation *> annotations, grids, rest;
    getOperation().walk([&](Operation *op) {
      if (!isa<shard::ShardDialect>(op->getDialect()))
        return;
      if (isa<shard::GridOp>(op))
        grids.push_back(op);
      else if (isa<shard::ShardOp, shard::ShardingOp>(op))
        annotations.push_back(op);
      else
        rest.push_back(op);
    });
    for (Operation *op : rest) {
      op->emitError() << "'" << op->getName()
                      << "' is a collective between processes; run the "
                         "program with distribute=N (stride-run --distribute)";
      return signalPassFailure();
    }
    // Uses before definitions: shard ops first, then what they referred to.
    for (Operation *op : annotations)
      if (auto shardOp = dyn_cast<shard::ShardOp>(op))
        shardOp.getResult().replaceAllUsesWith(shardOp.getSrc());
    for (Operation *op : llvm::reverse(annotations))
      op->erase();
    for (Operation *op : grids)
      op->erase();
  }
};
} // namespace
