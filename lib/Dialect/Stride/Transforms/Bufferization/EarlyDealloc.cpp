//===- EarlyDealloc.cpp - Free buffers after their last use ---------------===//
//
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "stride/Dialect/Stride/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEEARLYDEALLOC
#include "stride/Dialect/Stride/Transforms/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;
using namespace mlir::stride;

namespace {
/// The last op of `block` that uses `buffer` or a value that may alias it,
/// other than `dealloc`; null when an alias leaves the block (it reaches
/// the block's terminator, or a use is outside the block).
Operation *lastUseInBlock(Value buffer, Operation *dealloc, Block *block) {
  Operation *last = buffer.getDefiningOp();
  SmallVector<Value> work{buffer};
  llvm::SmallPtrSet<Value, 8> seen{buffer};
  auto addAliases = [&](Operation *op) {
    for (Value result : op->getResults())
      if (isa<BaseMemRefType>(result.getType()) && seen.insert(result).second)
        work.push_back(result);
  };
  while (!work.empty()) {
    Value value = work.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (user == dealloc)
        continue;
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!ancestor || ancestor == block->getTerminator())
        return nullptr;
      // Every op between the use and the block may hand an alias out
      // through its results (a loop yielding a view of the buffer).
      for (Operation *op = user; op != ancestor; op = op->getParentOp())
        addAliases(op);
      addAliases(ancestor);
      if (last->isBeforeInBlock(ancestor))
        last = ancestor;
    }
  }
  return last;
}

struct StrideEarlyDeallocPass
    : mlir::stride::impl::StrideEarlyDeallocBase<StrideEarlyDeallocPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<memref::DeallocOp> deallocs;
    getOperation().walk([&](memref::DeallocOp op) { deallocs.push_back(op); });
    for (memref::DeallocOp dealloc : deallocs) {
      Value buffer = dealloc.getMemref();
      auto alloc = buffer.getDefiningOp<memref::AllocOp>();
      Block *block = dealloc->getBlock();
      if (!alloc || alloc->getBlock() != block)
        continue;
      Operation *last = lastUseInBlock(buffer, dealloc, block);
      if (last && last->isBeforeInBlock(dealloc))
        dealloc->moveAfter(last);
    }
  }
};
} // namespace
