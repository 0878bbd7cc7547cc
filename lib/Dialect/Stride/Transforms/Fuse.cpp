//===- Fuse.cpp - Julia-style fusion of elementwise expressions -----------===//

#include "stride/Dialect/Stride/IR/StrideOps.h"
#include "stride/Dialect/Stride/Transforms/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

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

/// See the pass description for the rules.
bool isFusible(BroadcastOp producer, unsigned recomputeLimit) {
  if (!producer.getInits().empty() || producer.getNumResults() != 1)
    return false;
  Value result = producer.getResult(0);
  if (result.use_empty() ||
      !llvm::all_of(result.getUses(), [&](OpOperand &use) {
        return isBroadcastInput(use, producer->getBlock());
      }))
    return false;
  if (result.hasOneUse())
    return true;
  Block &body = producer.getBodyBlock();
  size_t size = body.getOperations().size() - 1; // without the yield
  bool transcendental = llvm::any_of(body.without_terminator(), [](Operation &op) {
    return isa<math::MathDialect>(op.getDialect());
  });
  return size <= recomputeLimit && !transcendental;
}

/// Replaces `consumer` by one op computing the same with `producer`'s scalar
/// function inlined; returns the new op.
BroadcastOp fuseInto(RewriterBase &rewriter, BroadcastOp producer,
                     BroadcastOp consumer) {
  Value fused = producer.getResult(0);
  // Each distinct value becomes one input, read once per element.
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
  for (Value v : producer.getInputs())
    addInput(v);

  rewriter.setInsertionPoint(consumer);
  auto merged = BroadcastOp::create(rewriter, consumer.getLoc(),
                                    consumer.getResultTypes(), inputs,
                                    consumer.getInits());
  // The loop order depends on the operands: stride-coalesce sets it again.
  merged->setDiscardableAttrs(consumer->getDiscardableAttrDictionary());
  Block &block = merged.getBodyBlock();
  rewriter.setInsertionPointToStart(&block);

  IRMapping producerMap;
  Block &producerBody = producer.getBodyBlock();
  for (auto [arg, input] :
       llvm::zip(producerBody.getArguments(), producer.getInputs()))
    producerMap.map(arg, block.getArgument(inputIndex.lookup(input)));
  for (Operation &op : producerBody.without_terminator())
    rewriter.clone(op, producerMap);
  Value element =
      producerMap.lookupOrDefault(producerBody.getTerminator()->getOperand(0));

  IRMapping consumerMap;
  Block &consumerBody = consumer.getBodyBlock();
  for (auto [arg, input] :
       llvm::zip(consumerBody.getArguments(), consumer.getInputs()))
    consumerMap.map(arg, input == fused
                             ? element
                             : block.getArgument(inputIndex.lookup(input)));
  for (Operation &op : consumerBody)
    rewriter.clone(op, consumerMap);

  rewriter.replaceOp(consumer, merged.getResults());
  if (producer->use_empty())
    rewriter.eraseOp(producer);
  return merged;
}

struct StrideFusePass : mlir::stride::impl::StrideFuseBase<StrideFusePass> {
  using Base::Base;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // Fuse until nothing changes: every fusion may expose the producer's own
    // producers to the merged op.
    bool changed = true;
    while (changed) {
      changed = false;
      SmallVector<BroadcastOp> consumers;
      getOperation()->walk([&](BroadcastOp op) { consumers.push_back(op); });
      for (BroadcastOp consumer : consumers) {
        for (Value input : consumer.getInputs()) {
          auto producer = input.getDefiningOp<BroadcastOp>();
          if (!producer || producer == consumer ||
              !isFusible(producer, recomputeLimit))
            continue;
          fuseInto(rewriter, producer, consumer);
          changed = true;
          break;
        }
        if (changed)
          break;
      }
    }
  }
};
} // namespace
