//===- RowBlocks.cpp - The loops of stride-fuse-rows after One-Shot -------===//
//
// stride-fuse-rows leaves an scf.forall over blocks of rows whose body
// allocates a few block-sized temporaries per iteration. After One-Shot they
// go on the stack (a heap allocation per block would cost more than a
// block's arithmetic), and the loop becomes an scf.parallel for the OpenMP
// lowering when it moves enough bytes for threads to pay, an scf.for
// otherwise.
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"
#include "Preparation.h"

#include "stride/Dialect/Stride/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::stride;

/// The most one iteration puts on the stack: OpenMP's worker threads have
/// a few MiB of it.
static constexpr int64_t kMaxStackBytes = 512 << 10;

/// The bytes `alloc` takes when every size is a constant, else nullopt.
static std::optional<int64_t> constantBytes(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  int64_t elements = 1;
  unsigned next = 0;
  for (int64_t size : type.getShape()) {
    if (ShapedType::isDynamic(size)) {
      std::optional<int64_t> value =
          getConstantIntValue(alloc.getDynamicSizes()[next++]);
      if (!value)
        return std::nullopt;
      size = *value;
    }
    elements *= size;
  }
  unsigned bits = type.getElementTypeBitWidth();
  return elements * int64_t(std::max(1u, bits / 8));
}

/// Where one thread's temporaries may live for the whole function: the
/// entry block of the function holding `loop`, unless an enclosing loop
/// runs its iterations in parallel (they would share them). Allocated there
/// once, they do not grow the stack in an enclosing scf.for either.
static Block *hoistTarget(scf::ForallOp loop) {
  for (Operation *op = loop->getParentOp(); op; op = op->getParentOp()) {
    if (auto func = dyn_cast<FunctionOpInterface>(op))
      return func.isExternal() ? nullptr : &func.getFunctionBody().front();
    if (isa<scf::ParallelOp, scf::ForallOp>(op))
      return nullptr;
  }
  return nullptr;
}

/// Moves the temporaries of `loop`'s body to the stack: to the function's
/// entry block when the loop runs on one thread (every iteration writes
/// them before reading them, so one set serves all), else in the body,
/// which the OpenMP lowering wraps in a memref.alloca_scope per iteration.
/// False when one has a size unknown here, they would not fit, or a
/// one-thread loop has nowhere to hoist them; they stay on the heap.
static bool temporariesToStack(scf::ForallOp loop, bool hoist) {
  Block *entry = hoist ? hoistTarget(loop) : nullptr;
  if (hoist && !entry)
    return false;
  Block *body = loop.getBody();
  SmallVector<memref::AllocOp> allocs;
  int64_t total = 0;
  for (Operation &op : *body)
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      std::optional<int64_t> bytes = constantBytes(alloc);
      if (!bytes)
        return false;
      total += *bytes;
      allocs.push_back(alloc);
    }
  if (total > kMaxStackBytes)
    return false;
  for (memref::AllocOp alloc : allocs) {
    OpBuilder b(alloc);
    SmallVector<Value> sizes(alloc.getDynamicSizes());
    if (hoist) {
      b.setInsertionPointToStart(entry);
      for (Value &size : sizes)
        size = arith::ConstantIndexOp::create(b, alloc.getLoc(),
                                              *getConstantIntValue(size));
    }
    auto alloca = memref::AllocaOp::create(b, alloc.getLoc(), alloc.getType(),
                                           sizes, alloc.getAlignmentAttr());
    alloc.replaceAllUsesWith(alloca.getResult());
    alloc.erase();
  }
  return true;
}

/// The bytes the loop's body reads and writes through its buffers from
/// outside: an estimate of what threads would split.
static int64_t bytesMoved(scf::ForallOp loop) {
  int64_t bytes = 0;
  llvm::SmallPtrSet<Value, 8> seen;
  loop.getBody()->walk([&](memref::SubViewOp view) {
    Value source = view.getSource();
    if (!seen.insert(source).second ||
        loop->isProperAncestor(source.getParentBlock()->getParentOp()))
      return;
    auto type = cast<MemRefType>(source.getType());
    if (type.hasStaticShape())
      bytes += type.getNumElements() *
               int64_t(std::max(1u, type.getElementTypeBitWidth() / 8));
  });
  return bytes;
}

LogicalResult mlir::stride::lowerRowBlockLoops(ModuleOp module,
                                               unsigned threads) {
  SmallVector<scf::ForallOp> loops;
  module.walk([&](scf::ForallOp loop) {
    if (loop->hasAttr(kRowBlockAttr))
      loops.push_back(loop);
  });
  IRRewriter rewriter(module.getContext());
  for (scf::ForallOp loop : loops) {
    int64_t moved = bytesMoved(loop);
    bool parallel = threads > 1 && moved >= kMinParallelBytes;
    bool onStack = temporariesToStack(loop, /*hoist=*/!parallel);
    if (explainsDecisions(loop)) {
      InFlightDiagnostic remark = emitRemark(loop.getLoc());
      remark << "stride-explain: row loop: blocks of "
             << loop->getAttrOfType<IntegerAttr>(kRowBlockAttr).getInt()
             << " rows; temporaries "
             << (!onStack ? "on the heap (too large for the stack, or in a "
                            "parallel loop)"
                 : parallel
                     ? "on each thread's stack"
                     : "on the stack, allocated once at the function's entry")
             << "; threads: ";
      if (threads <= 1)
        remark << "one thread (threads=" << threads << ")";
      else if (parallel && onStack)
        remark << threads << " share the blocks (the loop moves " << moved
               << " bytes, at least 2 MiB)";
      else if (!onStack)
        remark << "one thread of " << threads
               << " (heap temporaries stay on one)";
      else
        remark << "one thread of " << threads << " (the loop moves " << moved
               << " bytes, under 2 MiB)";
    }
    rewriter.setInsertionPoint(loop);
    // Heap temporaries stay on one thread: the deallocation pipeline runs
    // next and handles scf.for bodies.
    if (parallel && onStack) {
      if (failed(scf::forallToParallelLoop(rewriter, loop)))
        return loop.emitOpError("could not become an scf.parallel");
      continue;
    }
    if (failed(scf::forallToForLoop(rewriter, loop)))
      return loop.emitOpError("could not become an scf.for");
  }
  return success();
}
