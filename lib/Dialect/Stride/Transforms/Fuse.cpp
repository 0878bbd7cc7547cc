//===- Fuse.cpp - Julia-style fusion of elementwise expressions -----------===//

#include "stride/Dialect/Stride/IR/StrideOps.h"
#include "stride/Dialect/Stride/Transforms/Fusion.h"
#include "stride/Dialect/Stride/Transforms/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "stride-fuse"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEFUSE
#include "stride/Dialect/Stride/Transforms/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;
using namespace mlir::stride;

namespace {

/// True if `use` feeds an input (not a destination) of a stride.broadcast in
/// the same block as its producer.
bool isBroadcastInput(OpOperand &use, Block *block) {
  auto consumer = dyn_cast<BroadcastOp>(use.getOwner());
  return consumer && consumer->getBlock() == block &&
         use.getOperandNumber() < consumer.getInputs().size();
}

/// The structural rule (see the pass description): fusing `producer` keeps
/// every value anyone else reads.
bool canFuse(BroadcastOp producer) {
  if (!producer.getInits().empty() || producer.getNumResults() != 1)
    return false;
  Value result = producer.getResult(0);
  return !result.use_empty() &&
         llvm::all_of(result.getUses(), [&](OpOperand &use) {
           return isBroadcastInput(use, producer->getBlock());
         });
}

/// Replaces `consumer` by one op computing the same with `producer`'s scalar
/// function inlined, and erases `producer` when nothing reads it any more.
///
/// The merged op's inputs are the consumer's other inputs, then the
/// producer's, each distinct value once; its body is the producer's, then
/// the consumer's. Cost: a producer read only by this consumer hands its body
/// over whole (the region moves in O(1)) and the consumer's ops move behind
/// it; a shared producer (small by the recompute rule) is cloned in front of
/// the consumer's body, which moves over whole. Either way the larger body,
/// the one that has absorbed earlier fusions, is never copied.
void fuse(RewriterBase &rewriter, BroadcastOp producer, BroadcastOp consumer) {
  Value fused = producer.getResult(0);
  bool shared = llvm::any_of(fused.getUsers(),
                             [&](Operation *user) { return user != consumer; });

  SmallVector<Value> inputs;
  llvm::DenseMap<Value, unsigned> inputIndex;
  auto addInput = [&](Value v) {
    auto [it, inserted] = inputIndex.try_emplace(v, inputs.size());
    if (inserted)
      inputs.push_back(v);
    return it->second;
  };
  for (Value v : consumer.getInputs())
    if (v != fused)
      addInput(v);
  unsigned numConsumerInputs = inputs.size();
  for (Value v : producer.getInputs())
    addInput(v);

  rewriter.setInsertionPoint(consumer);
  auto merged = BroadcastOp::create(rewriter, consumer.getLoc(),
                                    consumer.getResultTypes(), inputs,
                                    consumer.getInits());
  // The loop order depends on the operands: stride-coalesce sets it again.
  merged->setDiscardableAttrs(consumer->getDiscardableAttrDictionary());
  Block &fresh = merged.getBodyBlock();
  Block &consumerBody = consumer.getBodyBlock();
  Block &producerBody = producer.getBodyBlock();

  if (!shared) {
    // Take the producer's block; its arguments become the producer's part
    // of the inputs, the consumer's part goes in front.
    rewriter.eraseBlock(&fresh);
    rewriter.inlineRegionBefore(producer.getBody(), merged.getBody(),
                                merged.getBody().end());
    Block &block = merged.getBodyBlock();
    SmallVector<BlockArgument> argFor(inputs.size());
    for (unsigned i = 0; i < numConsumerInputs; ++i)
      argFor[i] = block.insertArgument(
          i, getElementTypeOrSelf(inputs[i].getType()), inputs[i].getLoc());
    // A producer argument whose value already has one shares it.
    llvm::BitVector erase(block.getNumArguments());
    for (auto [k, input] : llvm::enumerate(producer.getInputs())) {
      BlockArgument arg = block.getArgument(numConsumerInputs + k);
      BlockArgument &slot = argFor[inputIndex.lookup(input)];
      if (slot) {
        rewriter.replaceAllUsesWith(arg, slot);
        erase.set(arg.getArgNumber());
      } else {
        slot = arg;
      }
    }
    block.eraseArguments(erase);
    auto yield = cast<YieldOp>(block.getTerminator());
    Value element = yield.getValues()[0];
    rewriter.eraseOp(yield);
    SmallVector<Value> replacements;
    for (Value input : consumer.getInputs())
      replacements.push_back(input == fused ? element
                                            : argFor[inputIndex.lookup(input)]);
    rewriter.inlineBlockBefore(&consumerBody, &block, block.end(),
                               replacements);
  } else {
    // Clone the (small) producer into the front of the consumer's body.
    IRMapping producerMap;
    for (auto [arg, input] :
         llvm::zip(producerBody.getArguments(), producer.getInputs()))
      producerMap.map(arg, fresh.getArgument(inputIndex.lookup(input)));
    rewriter.setInsertionPointToStart(&fresh);
    for (Operation &op : producerBody.without_terminator())
      rewriter.clone(op, producerMap);
    Value element =
        producerMap.lookupOrDefault(producerBody.getTerminator()->getOperand(0));
    SmallVector<Value> replacements;
    for (Value input : consumer.getInputs())
      replacements.push_back(input == fused
                                 ? element
                                 : fresh.getArgument(inputIndex.lookup(input)));
    rewriter.inlineBlockBefore(&consumerBody, &fresh, fresh.end(),
                               replacements);
  }

  rewriter.replaceOp(consumer, merged.getResults());
  if (producer->use_empty())
    rewriter.eraseOp(producer);
}

/// Merges the first input's producer that may fuse into the consumer; the
/// driver revisits the merged op for the rest.
struct FuseBroadcastProducer : OpRewritePattern<BroadcastOp> {
  FuseBroadcastProducer(MLIRContext *context, ControlFusionFn control,
                        FusionCounters counters)
      : OpRewritePattern(context), control(std::move(control)),
        counters(std::move(counters)) {}

  LogicalResult matchAndRewrite(BroadcastOp consumer,
                                PatternRewriter &rewriter) const override {
    for (OpOperand &use :
         consumer->getOpOperands().take_front(consumer.getInputs().size())) {
      auto producer = use.get().getDefiningOp<BroadcastOp>();
      if (!producer || producer == consumer || !canFuse(producer) ||
          !control(&use))
        continue;
      bool shared = !producer.getResult(0).hasOneUse() &&
                    llvm::any_of(producer.getResult(0).getUsers(),
                                 [&](Operation *u) { return u != consumer; });
      LLVM_DEBUG(llvm::dbgs() << "[stride-fuse] "
                              << (shared ? "recomputing " : "fusing ")
                              << producer->getLoc() << " into "
                              << consumer->getLoc() << "\n");
      fuse(rewriter, producer, consumer);
      if (counters.fused)
        counters.fused();
      if (shared && counters.recomputed)
        counters.recomputed();
      return success();
    }
    return failure();
  }

  ControlFusionFn control;
  FusionCounters counters;
};

struct StrideFusePass : mlir::stride::impl::StrideFuseBase<StrideFusePass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateStrideFusionPatterns(patterns, recomputeRule(recomputeLimit),
                                 {[&] { ++numFused; },
                                  [&] { ++numRecomputed; }});
    // Top-down, so that a consumer absorbs producers whose bodies already
    // hold their own producers (the order of the inputs and of the body
    // follows the expression); no folding, constant hoisting (a constant must
    // stay inside the body that uses it) or region simplification: this pass
    // only fuses.
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true)
        .enableFolding(false)
        .enableConstantCSE(false)
        .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config)))
      return signalPassFailure();
    getOperation()->walk([&](BroadcastOp op) {
      if (op.getNumResults() == 1 &&
          llvm::any_of(op.getResult(0).getUses(), [&](OpOperand &use) {
            return isBroadcastInput(use, op->getBlock());
          })) {
        ++numKept;
        LLVM_DEBUG(llvm::dbgs() << "[stride-fuse] kept " << op->getLoc()
                                << "\n");
      }
    });
  }
};
} // namespace

ControlFusionFn mlir::stride::recomputeRule(unsigned recomputeLimit) {
  return [recomputeLimit](OpOperand *fusedOperand) {
    auto producer = fusedOperand->get().getDefiningOp<BroadcastOp>();
    Value result = producer.getResult(0);
    if (result.hasOneUse())
      return true;
    Block &body = producer.getBodyBlock();
    size_t size = body.getOperations().size() - 1; // without the yield
    bool transcendental =
        llvm::any_of(body.without_terminator(), [](Operation &op) {
          return isa<math::MathDialect>(op.getDialect());
        });
    return size <= recomputeLimit && !transcendental;
  };
}

void mlir::stride::populateStrideFusionPatterns(RewritePatternSet &patterns,
                                                const ControlFusionFn &control,
                                                FusionCounters counters) {
  patterns.add<FuseBroadcastProducer>(patterns.getContext(), control,
                                      std::move(counters));
}
