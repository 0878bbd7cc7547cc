//===- Fuse.cpp - Julia-style fusion of elementwise expressions -----------===//

#include "Bufferization/Preparation.h"
#include "stride/Dialect/Stride/IR/StrideOps.h"
#include "stride/Dialect/Stride/Transforms/Fusion.h"
#include "stride/Dialect/Stride/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/TypeUtilities.h"
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

/// The type of the view `op` makes of a value of type `input`: NumPy's view
/// rules (they address the same elements as PyTorch's; only size-1 and
/// empty dims' strides differ), or null when it is not a view.
RankedTensorType viewTypeOf(Operation *op, RankedTensorType input) {
  ::stride::layout::ViewResult view =
      computeViewOfType(op, ::stride::layout::Policy::Numpy, input);
  if (!view.ok() || !view.view.isView)
    return {};
  auto type = RankedTensorType::get(view.view.shape, input.getElementType());
  return withLayout(type, LayoutAttr::get(op->getContext(),
                                          ArrayRef<int64_t>(view.view.strides),
                                          ArrayRef<int64_t>(),
                                          view.view.offset));
}

/// The ops under `root` that `accept` takes, in walk order: collected before
/// the rewrites that follow create and erase ops.
SmallVector<Operation *> collectOps(Operation *root,
                                    function_ref<bool(Operation *)> accept) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (accept(op))
      ops.push_back(op);
  });
  return ops;
}

/// The stride.broadcast defining `op`'s operand `operand` when `op` may
/// absorb it: in `op`'s block, without destinations, with one result that
/// has one use and no unranked tensor input; else null.
BroadcastOp absorbableProducer(Operation *op, unsigned operand = 0) {
  auto producer = op->getOperand(operand).getDefiningOp<BroadcastOp>();
  if (!producer || producer->getBlock() != op->getBlock() ||
      !producer.getInits().empty() || producer.getNumResults() != 1 ||
      !producer.getResult(0).hasOneUse())
    return {};
  for (Value input : producer.getInputs())
    if (isa<TensorType>(input.getType()) &&
        !isa<RankedTensorType>(input.getType()))
      return {};
  return producer;
}

/// A view of an elementwise result that only one stride.broadcast reads is
/// the elementwise op applied to the same view of each input (broadcast to
/// the result's shape first, itself a view): `(a + b).T` is `a.T + b.T`.
/// Rewritten so, the producer reads views of its inputs and fuses into the
/// consumer like any other producer, and the intermediate is never
/// materialized. Only for a producer whose one use is the view, of static
/// shape, and views that are always views (not reshape), read by one
/// stride.broadcast (through other such views).
bool sinkViewIntoProducer(RewriterBase &rewriter, Operation *view) {
  if (!isViewOp(view) || isa<ReshapeOp>(view) || view->hasAttr("copy"))
    return false;
  Value result = view->getResult(0);
  // Read by one stride.broadcast, directly or through a chain of views each
  // read once (they sink in turn).
  for (Value v = result;;) {
    if (!v.hasOneUse())
      return false;
    OpOperand &use = *v.getUses().begin();
    if (isBroadcastInput(use, view->getBlock()))
      break;
    Operation *next = use.getOwner();
    if (!isViewOp(next) || isa<ReshapeOp>(next) || next->hasAttr("copy") ||
        next->getBlock() != view->getBlock())
      return false;
    v = next->getResult(0);
  }
  BroadcastOp producer = absorbableProducer(view);
  if (!producer)
    return false;
  auto producerType =
      dyn_cast<RankedTensorType>(producer.getResult(0).getType());
  auto viewType = dyn_cast<RankedTensorType>(result.getType());
  if (!producerType || !producerType.hasStaticShape() || !viewType)
    return false;
  // A producer of scalars alone has no input to view: the sunk op would
  // read only scalars into a shaped result, which stride.broadcast's shape
  // rule refuses (its operands give the result's shape).
  if (viewType.getRank() != 0 &&
      llvm::none_of(producer.getInputs(), [](Value input) {
        return isa<RankedTensorType>(input.getType());
      }))
    return false;

  rewriter.setInsertionPoint(view);
  Location loc = view->getLoc();
  SmallVector<Value> inputs;
  SmallVector<Operation *> created;
  bool ok = true;
  for (Value input : producer.getInputs()) {
    auto type = dyn_cast<RankedTensorType>(input.getType());
    if (!type) {
      inputs.push_back(input); // a scalar
      continue;
    }
    Value full = input;
    if (type.getShape() != producerType.getShape()) {
      auto expand = ExpandOp::create(
          rewriter, loc,
          RankedTensorType::get(producerType.getShape(), type.getElementType()),
          input, producerType.getShape());
      created.push_back(expand);
      RankedTensorType expanded = viewTypeOf(expand, type);
      if (!expanded) {
        ok = false;
        break;
      }
      expand.getResult().setType(expanded);
      full = expand.getResult();
    }
    IRMapping mapping;
    mapping.map(view->getOperand(0), full);
    Operation *clone = rewriter.clone(*view, mapping);
    created.push_back(clone);
    RankedTensorType viewed =
        viewTypeOf(clone, cast<RankedTensorType>(full.getType()));
    if (!viewed || viewed.getShape() != viewType.getShape()) {
      ok = false;
      break;
    }
    clone->getResult(0).setType(viewed);
    inputs.push_back(clone->getResult(0));
  }
  if (!ok) {
    for (Operation *op : llvm::reverse(created))
      rewriter.eraseOp(op);
    return false;
  }
  auto sunk = BroadcastOp::create(rewriter, producer.getLoc(),
                                  TypeRange{viewType}, inputs, ValueRange());
  rewriter.eraseBlock(&sunk.getBodyBlock());
  rewriter.inlineRegionBefore(producer.getBody(), sunk.getBody(),
                              sunk.getBody().end());
  rewriter.replaceOp(view, sunk.getResults());
  rewriter.eraseOp(producer);
  return true;
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
/// Each distinct input value becomes one input, read once per element.
///
/// Cost: the larger body, the one that has absorbed earlier fusions, is never
/// copied and its block arguments keep their uses (replacing the uses of an
/// argument read by every op of a long chain would make fusion quadratic).
/// - A producer read only by this consumer hands over its block; the
///   consumer's inputs the producer does not read go in front of the
///   producer's, and the consumer's ops move behind the producer's.
/// - A shared producer (small by the recompute rule) is cloned into the
///   front of the consumer's block; its inputs the consumer does not read
///   go behind the consumer's.
BroadcastOp fuse(RewriterBase &rewriter, BroadcastOp producer,
                 BroadcastOp consumer) {
  Value fused = producer.getResult(0);
  bool shared = llvm::any_of(fused.getUsers(),
                             [&](Operation *user) { return user != consumer; });

  SmallVector<Value> inputs;
  llvm::DenseMap<Value, unsigned> inputIndex;
  auto addInput = [&](Value v) {
    auto [it, inserted] = inputIndex.try_emplace(v, inputs.size());
    if (inserted)
      inputs.push_back(v);
  };
  llvm::SmallDenseSet<Value> producerInputs(producer.getInputs().begin(),
                                            producer.getInputs().end());
  for (Value v : consumer.getInputs())
    if (v != fused && (shared || !producerInputs.contains(v)))
      addInput(v);
  for (Value v : producer.getInputs())
    addInput(v);

  rewriter.setInsertionPoint(consumer);
  auto merged = BroadcastOp::create(rewriter, consumer.getLoc(),
                                    consumer.getResultTypes(), inputs,
                                    consumer.getInits());
  // The loop order depends on the operands: stride-coalesce sets it again.
  merged->setDiscardableAttrs(consumer->getDiscardableAttrDictionary());
  rewriter.eraseBlock(&merged.getBodyBlock());
  BroadcastOp kept = shared ? consumer : producer;
  rewriter.inlineRegionBefore(kept.getBody(), merged.getBody(),
                              merged.getBody().end());
  Block &block = merged.getBodyBlock();

  // The block argument of each input, reusing the kept block's arguments;
  // duplicates of an earlier argument are erased.
  SmallVector<BlockArgument> argFor(inputs.size());
  SmallVector<BlockArgument> erased;
  auto claim = [&](BlockArgument arg, Value input) {
    BlockArgument &slot = argFor[inputIndex.lookup(input)];
    if (!slot) {
      slot = arg;
      return;
    }
    rewriter.replaceAllUsesWith(arg, slot);
    erased.push_back(arg);
  };
  auto newArgument = [&](unsigned index, unsigned position) {
    Value v = inputs[index];
    argFor[index] = block.insertArgument(
        position, getElementTypeOrSelf(v.getType()), v.getLoc());
  };

  if (!shared) {
    unsigned front = 0;
    for (; front < inputs.size() && !producerInputs.contains(inputs[front]);
         ++front)
      newArgument(front, front);
    for (auto [k, input] : llvm::enumerate(producer.getInputs()))
      claim(block.getArgument(front + k), input);
    auto yield = cast<YieldOp>(block.getTerminator());
    Value element = yield.getValues()[0];
    rewriter.eraseOp(yield);
    SmallVector<Value> replacements;
    for (Value input : consumer.getInputs())
      replacements.push_back(input == fused ? element
                                            : argFor[inputIndex.lookup(input)]);
    rewriter.inlineBlockBefore(&consumer.getBodyBlock(), &block, block.end(),
                               replacements);
  } else {
    SmallVector<BlockArgument> fusedArgs;
    for (auto [j, input] : llvm::enumerate(consumer.getInputs())) {
      if (input == fused)
        fusedArgs.push_back(block.getArgument(j));
      else
        claim(block.getArgument(j), input);
    }
    for (unsigned i = 0; i < inputs.size(); ++i)
      if (!argFor[i])
        newArgument(i, block.getNumArguments());
    IRMapping producerMap;
    Block &producerBody = producer.getBodyBlock();
    for (auto [arg, input] :
         llvm::zip(producerBody.getArguments(), producer.getInputs()))
      producerMap.map(arg, argFor[inputIndex.lookup(input)]);
    rewriter.setInsertionPointToStart(&block);
    for (Operation &op : producerBody.without_terminator())
      rewriter.clone(op, producerMap);
    Value element =
        producerMap.lookupOrDefault(producerBody.getTerminator()->getOperand(0));
    for (BlockArgument arg : fusedArgs) {
      rewriter.replaceAllUsesWith(arg, element);
      erased.push_back(arg);
    }
  }
  llvm::BitVector erase(block.getNumArguments());
  for (BlockArgument arg : erased)
    erase.set(arg.getArgNumber());
  block.eraseArguments(erase);

  rewriter.replaceOp(consumer, merged.getResults());
  if (producer->use_empty())
    rewriter.eraseOp(producer);
  return merged;
}

/// Merges into `consumer` the producer of its first input that may fuse
/// (structurally and by `control`); returns the merged op, or null when no
/// input's producer may fuse.
BroadcastOp fuseFirstProducer(RewriterBase &rewriter, BroadcastOp consumer,
                              const ControlFusionFn &control,
                              const FusionCounters &counters) {
  for (OpOperand &use :
       consumer->getOpOperands().take_front(consumer.getInputs().size())) {
    auto producer = use.get().getDefiningOp<BroadcastOp>();
    if (!producer || producer == consumer || !canFuse(producer) ||
        !control(&use))
      continue;
    bool shared = llvm::any_of(producer.getResult(0).getUsers(),
                               [&](Operation *u) { return u != consumer; });
    LLVM_DEBUG(llvm::dbgs() << "[stride-fuse] "
                            << (shared ? "recomputing " : "fusing ")
                            << producer->getLoc() << " into "
                            << consumer->getLoc() << "\n");
    BroadcastOp merged = fuse(rewriter, producer, consumer);
    if (counters.fused)
      counters.fused();
    if (shared && counters.recomputed)
      counters.recomputed();
    return merged;
  }
  return {};
}

/// A reduction of the result of a stride.broadcast that nothing else reads
/// (its expression already fused), as one stride.map_reduce. An index
/// reduction (argmax, argmin) only with `indexReductions` and inputs of
/// static, non-negative strides: its kernel gives each point's index from
/// the loops, which must walk every input forwards.
bool fuseIntoReduction(RewriterBase &rewriter, Operation *reduce,
                       bool indexReductions) {
  std::optional<ReduceKind> kind = getReduceKind(reduce);
  if (!kind)
    return false;
  bool index = *kind == ReduceKind::Argmax || *kind == ReduceKind::Argmin;
  if (index && !indexReductions)
    return false;
  BroadcastOp producer = absorbableProducer(reduce);
  if (!producer)
    return false;
  if (index)
    for (Value input : producer.getInputs())
      if (auto type = dyn_cast<RankedTensorType>(input.getType()))
        for (int64_t stride : getStridesOf(type))
          if (ShapedType::isDynamic(stride) || stride < 0)
            return false;
  auto mapped = dyn_cast<RankedTensorType>(producer.getResult(0).getType());
  auto resultType = dyn_cast<RankedTensorType>(reduce->getResult(0).getType());
  if (!mapped || !resultType || !mapped.hasStaticShape() ||
      llvm::is_contained(getStridesOf(mapped), ShapedType::kDynamic))
    return false;
  rewriter.setInsertionPoint(reduce);
  auto fused = MapReduceOp::create(
      rewriter, reduce->getLoc(), resultType,
      rewriter.getStringAttr(reduceKindName(*kind)), producer.getInputs(),
      reduce->getAttrOfType<DenseI64ArrayAttr>("axes"),
      getKeepdims(reduce) ? rewriter.getUnitAttr() : UnitAttr(),
      TypeAttr::get(mapped));
  rewriter.inlineRegionBefore(producer.getBody(), fused.getBody(),
                              fused.getBody().end());
  LLVM_DEBUG(llvm::dbgs() << "[stride-fuse] fusing " << producer->getLoc()
                          << " into reduction " << reduce->getLoc() << "\n");
  rewriter.replaceOp(reduce, fused.getResult());
  rewriter.eraseOp(producer);
  return true;
}

/// A matrix-vector product `P @ x` (or vector-matrix product `x @ P`)
/// whose matrix is the result of an elementwise stride.broadcast that
/// nothing else reads, as one plain `stride.map_reduce` "sum" of `P * x`
/// along the last axis (of `x[:, None] * P` along the second last): the
/// matrix is read once and the intermediate never stored
/// (`alpha * A @ x`). It sums plainly (stride.plain_reduction), as the
/// matmul kernel it replaces did, and stride-tile-matmul blocks the rows of
/// `P @ x` as it blocks `A @ x`. Only for floats of one type, static shapes
/// and strides, and a result of the matmul's own type.
bool fuseIntoMatrixVector(RewriterBase &rewriter, MatmulOp matmul) {
  auto lhsType = dyn_cast<RankedTensorType>(matmul.getLhs().getType());
  auto rhsType = dyn_cast<RankedTensorType>(matmul.getRhs().getType());
  auto resultType = dyn_cast<RankedTensorType>(matmul.getType());
  if (!lhsType || !rhsType || !resultType || !resultType.hasStaticShape())
    return false;
  // Which side is the vector: the rhs of A @ x, the lhs of x @ A.
  bool vectorRight = rhsType.getRank() == 1 && lhsType.getRank() >= 2;
  bool vectorLeft = lhsType.getRank() == 1 && rhsType.getRank() >= 2;
  if (!vectorRight && !vectorLeft)
    return false;
  BroadcastOp producer = absorbableProducer(matmul, vectorRight ? 0 : 1);
  Value vector = vectorRight ? matmul.getRhs() : matmul.getLhs();
  auto vectorType = vectorRight ? rhsType : lhsType;
  if (!producer)
    return false;
  auto mapped = dyn_cast<RankedTensorType>(producer.getResult(0).getType());
  Type element = resultType.getElementType();
  if (!mapped || mapped.getRank() < 2 || !mapped.hasStaticShape() ||
      llvm::is_contained(getStridesOf(mapped), ShapedType::kDynamic) ||
      !isa<FloatType>(element) || mapped.getElementType() != element ||
      vectorType.getElementType() != element)
    return false;
  rewriter.setInsertionPoint(matmul);
  Location loc = matmul.getLoc();
  if (vectorLeft) {
    // x[:, None], so that it broadcasts along P's rows, not its columns.
    auto column = UnsqueezeOp::create(
        rewriter, loc,
        RankedTensorType::get({vectorType.getDimSize(0), 1}, element), vector,
        rewriter.getI64IntegerAttr(1));
    RankedTensorType columnType = viewTypeOf(column, vectorType);
    if (!columnType) {
      rewriter.eraseOp(column);
      return false;
    }
    column.getResult().setType(columnType);
    vector = column.getResult();
  }
  SmallVector<Value> inputs(producer.getInputs());
  inputs.push_back(vector);
  int64_t axis = mapped.getRank() - (vectorRight ? 1 : 2);
  auto fused = MapReduceOp::create(
      rewriter, loc, resultType, rewriter.getStringAttr("sum"), inputs,
      rewriter.getDenseI64ArrayAttr({axis}), UnitAttr(), TypeAttr::get(mapped));
  fused->setAttr(kPlainReductionAttr, rewriter.getUnitAttr());
  rewriter.inlineRegionBefore(producer.getBody(), fused.getBody(),
                              fused.getBody().end());
  Block &body = fused.getBodyBlock();
  BlockArgument vectorElement = body.addArgument(element, vector.getLoc());
  auto yield = cast<YieldOp>(body.getTerminator());
  rewriter.setInsertionPoint(yield);
  // IEEE products commute exactly: the matmul's order of operands is kept
  // for readability only.
  Value product =
      vectorRight ? arith::MulFOp::create(rewriter, yield.getLoc(),
                                          yield.getValues()[0], vectorElement)
                  : arith::MulFOp::create(rewriter, yield.getLoc(),
                                          vectorElement, yield.getValues()[0]);
  rewriter.replaceOpWithNewOp<YieldOp>(yield, ValueRange{product});
  LLVM_DEBUG(llvm::dbgs() << "[stride-fuse] fusing " << producer->getLoc()
                          << " into matrix-vector product " << matmul->getLoc()
                          << "\n");
  rewriter.replaceOp(matmul, fused.getResult());
  rewriter.eraseOp(producer);
  return true;
}

/// The pattern form, for the greedy driver: one fusion per application; the
/// driver revisits the merged op for the rest.
struct FuseBroadcastProducer : OpRewritePattern<BroadcastOp> {
  FuseBroadcastProducer(MLIRContext *context, ControlFusionFn control,
                        FusionCounters counters)
      : OpRewritePattern(context), control(std::move(control)),
        counters(std::move(counters)) {}

  LogicalResult matchAndRewrite(BroadcastOp consumer,
                                PatternRewriter &rewriter) const override {
    return success(
        static_cast<bool>(fuseFirstProducer(rewriter, consumer, control,
                                            counters)));
  }

  ControlFusionFn control;
  FusionCounters counters;
};

struct StrideFusePass : mlir::stride::impl::StrideFuseBase<StrideFusePass> {
  using Base::Base;

  void runOnOperation() override {
    ControlFusionFn control = recomputeRule(recomputeLimit);
    FusionCounters counters{[&] { ++numFused; }, [&] { ++numRecomputed; }};
    // A worklist in program order: when a consumer is reached, its producers
    // have already absorbed theirs, so it takes whole expressions at once
    // (the order of the inputs and of the body follows the expression). The
    // same rewrite is available to the greedy driver as a pattern
    // (populateStrideFusionPatterns); its per-op bookkeeping is not needed
    // here.
    IRRewriter rewriter(&getContext());
    // Views of intermediates first: fusion sees through them. A sunk view
    // leaves views of the producer's inputs, which may sink further into
    // their own producers: until nothing moves (each round moves views
    // strictly up the expression, so this ends).
    for (bool changed = true; changed;) {
      changed = false;
      for (Operation *view : collectOps(getOperation(), isViewOp))
        if (sinkViewIntoProducer(rewriter, view)) {
          ++numViewsSunk;
          changed = true;
        }
    }
    SmallVector<BroadcastOp> consumers;
    getOperation()->walk([&](BroadcastOp op) { consumers.push_back(op); });
    for (BroadcastOp consumer : consumers)
      while (BroadcastOp merged =
                 fuseFirstProducer(rewriter, consumer, control, counters))
        consumer = merged;
    // Matrix-vector products take their matrix's expression.
    for (Operation *matmul : collectOps(
             getOperation(), [](Operation *op) { return isa<MatmulOp>(op); }))
      if (fuseIntoMatrixVector(rewriter, cast<MatmulOp>(matmul)))
        ++numIntoMatrixVector;
    // Then each reduction takes the whole expression it reduces.
    for (Operation *reduce : collectOps(getOperation(), isReduction))
      if (fuseIntoReduction(rewriter, reduce, indexReductions))
        ++numIntoReductions;
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

/// Whether `consumer` reads `value` broadcast: it iterates a dim of size
/// other than 1 that `value` lacks or has with size 1, so a fused producer
/// of `value` would run several times per element it produces.
static bool isBroadcastIn(Value value, Operation *consumer) {
  auto produced = dyn_cast<RankedTensorType>(value.getType());
  auto consumed = dyn_cast<RankedTensorType>(consumer->getResult(0).getType());
  if (!produced || !consumed)
    return false;
  int64_t extra = consumed.getRank() - produced.getRank();
  for (int64_t d = 0; d < consumed.getRank(); ++d) {
    int64_t size = consumed.getDimSize(d);
    bool lacked = d < extra || produced.getDimSize(d - extra) == 1;
    if (lacked && size != 1)
      return true;
  }
  return false;
}

ControlFusionFn mlir::stride::recomputeRule(unsigned recomputeLimit) {
  return [recomputeLimit](OpOperand *fusedOperand) {
    auto producer = fusedOperand->get().getDefiningOp<BroadcastOp>();
    Value result = producer.getResult(0);
    Block &body = producer.getBodyBlock();
    size_t size = body.getOperations().size() - 1; // without the yield
    bool transcendental =
        llvm::any_of(body.without_terminator(), [](Operation &op) {
          return isa<math::MathDialect>(op.getDialect());
        });
    bool cheap = size <= recomputeLimit && !transcendental;
    // One use: fused, unless the consumer broadcasts it and it is costly
    // (exp(v) of a vector into a matrix would run once per row).
    if (result.hasOneUse())
      return cheap || !isBroadcastIn(result, fusedOperand->getOwner());
    return cheap;
  };
}

void mlir::stride::populateStrideFusionPatterns(RewritePatternSet &patterns,
                                                const ControlFusionFn &control,
                                                FusionCounters counters) {
  patterns.add<FuseBroadcastProducer>(patterns.getContext(), control,
                                      std::move(counters));
}
