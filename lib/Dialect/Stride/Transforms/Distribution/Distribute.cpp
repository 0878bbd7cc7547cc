//===- Distribute.cpp - Shardings of entries over a grid of processes -----===//
//
// The choice of what to split is Stride's (it knows layouts and which dims
// are cheap to cut); spreading that choice through the function and
// partitioning it are upstream's (`sharding-propagation`, `shard-partition`),
// driven by the ShardingInterface models in ShardingInterfaceImpl.cpp.
//
//===----------------------------------------------------------------------===//

#include "stride/Dialect/Stride/Transforms/Passes.h"

#include "stride/Dialect/Stride/IR/ReduceOps.h"
#include "stride/Dialect/Stride/IR/StrideAttrs.h"
#include "stride/Dialect/Stride/IR/StrideOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterface.h"
#include "mlir/Dialect/Shard/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEDISTRIBUTE
#include "stride/Dialect/Stride/Transforms/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;
using namespace mlir::stride;

namespace {

constexpr StringLiteral kGridName = "stride_grid";
constexpr StringLiteral kSplitDim = "stride.split_dim";
constexpr StringLiteral kGridAttr = "stride.grid";

RankedTensorType withoutEncoding(RankedTensorType type) {
  return RankedTensorType::get(type.getShape(), type.getElementType());
}
Type withoutEncoding(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return withoutEncoding(tensor);
  return type;
}

std::string describe(Value value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  value.printAsOperand(os, OpPrintingFlags());
  return text;
}

std::string shapeText(ArrayRef<int64_t> shape) {
  std::string text;
  for (int64_t s : shape)
    text += (text.empty() ? "" : "x") +
            (ShapedType::isDynamic(s) ? std::string("?") : std::to_string(s));
  return text.empty() ? "scalar" : text;
}

/// One annotation the pass adds: `dim` of `value` split over the grid,
/// either as `value`'s own sharding or, for `operand`, as its user's.
struct Annotation {
  Value value;
  OpOperand *operand = nullptr; // annotate for this use only
  int64_t dim;
};

struct StrideDistributePass
    : public mlir::stride::impl::StrideDistributeBase<StrideDistributePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<int64_t> ranks = parseGrid();
    if (failed(ranks))
      return signalPassFailure();
    if (strategy != "auto" && strategy != "rows" && strategy != "cols" &&
        strategy != "k") {
      module.emitError() << "stride-distribute: unknown strategy '" << strategy
                         << "' (expected auto, rows, cols or k)";
      return signalPassFailure();
    }
    SmallVector<func::FuncOp> entries;
    for (auto fn : module.getOps<func::FuncOp>())
      if (!fn.isExternal() && fn.isPublic() && !fn->hasAttr(kGridAttr))
        entries.push_back(fn);
    if (entries.empty())
      return;
    if (!module.lookupSymbol(kGridName)) {
      OpBuilder b(module.getBodyRegion());
      auto grid = shard::GridOp::create(b, module.getLoc(), kGridName,
                                        ArrayRef<int64_t>{*ranks});
      grid.setPrivate();
    }
    for (func::FuncOp fn : entries)
      if (failed(distribute(fn, *ranks)))
        return signalPassFailure();
  }

  FailureOr<int64_t> parseGrid() {
    StringRef text = StringRef(grid).trim();
    int64_t n = 0;
    if (text.contains('x')) {
      getOperation().emitError()
          << "stride-distribute: grid=" << text
          << " has several dimensions; only 1-D grids (grid=N) are supported";
      return failure();
    }
    if (text.getAsInteger(10, n) || n < 1) {
      getOperation().emitError()
          << "stride-distribute: grid must be a positive number of processes, "
             "got '"
          << grid << "'";
      return failure();
    }
    return n;
  }

  /// Every op must have a sharding rule, and every shape must be static.
  LogicalResult checkSupported(func::FuncOp fn) {
    for (BlockArgument arg : fn.getArguments())
      if (auto t = dyn_cast<RankedTensorType>(arg.getType());
          t && !t.hasStaticShape())
        return fn.emitError()
               << "stride-distribute: argument " << describe(arg)
               << " has a dynamic shape (" << shapeText(t.getShape())
               << "); distribution needs static shapes";
    if (!fn.getBody().hasOneBlock())
      return fn.emitError()
             << "stride-distribute: @" << fn.getSymName()
             << " has several blocks; only straight-line entries distribute";
    WalkResult walk = fn.walk([&](Operation *op) {
      if (op == fn.getOperation() || isa<func::ReturnOp>(op) ||
          isa<shard::ShardDialect>(op->getDialect()))
        return WalkResult::advance();
      bool tensors =
          llvm::any_of(op->getOperandTypes(), llvm::IsaPred<TensorType>) ||
          llvm::any_of(op->getResultTypes(), llvm::IsaPred<TensorType>);
      if (!tensors && op->getNumRegions() == 0)
        return WalkResult::advance(); // scalar code runs on every rank
      if (op->getParentOp() != fn.getOperation())
        return WalkResult::advance(); // bodies of stride.broadcast
      if (!isa<shard::ShardingInterface>(op)) {
        op->emitError() << "stride-distribute: '" << op->getName()
                        << "' has no sharding rule yet; only elementwise ops, "
                           "reductions and stride.matmul distribute";
        return WalkResult::interrupt();
      }
      for (Value v : op->getResults())
        if (auto t = dyn_cast<RankedTensorType>(v.getType());
            !t || !t.hasStaticShape()) {
          op->emitError() << "stride-distribute: result " << describe(v)
                          << " has no static shape; run stride-infer-shapes "
                             "first (distribution needs static shapes)";
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    });
    return failure(walk.wasInterrupted());
  }

  /// The dims of `type` from outermost to innermost in memory.
  static SmallVector<int64_t> memoryOrder(RankedTensorType type) {
    SmallVector<int64_t> strides = getStridesOf(type);
    SmallVector<int64_t> dims =
        llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
    llvm::stable_sort(dims, [&](int64_t a, int64_t b) {
      return std::abs(strides[a]) > std::abs(strides[b]);
    });
    return dims;
  }

  FailureOr<SmallVector<Annotation>> choose(func::FuncOp fn, int64_t ranks,
                                            std::string &why) {
    auto divides = [&](Value v, int64_t d) {
      auto t = cast<RankedTensorType>(v.getType());
      return d >= 0 && d < t.getRank() && t.getDimSize(d) % ranks == 0 &&
             t.getDimSize(d) >= ranks;
    };
    MatmulOp matmul;
    fn.walk([&](MatmulOp op) {
      if (!matmul)
        matmul = op;
    });
    if (matmul) {
      Value result = matmul.getResult();
      auto rt = cast<RankedTensorType>(result.getType());
      auto lhs = cast<RankedTensorType>(matmul.getLhs().getType());
      auto rhs = cast<RankedTensorType>(matmul.getRhs().getType());
      int64_t rank = rt.getRank();
      int64_t batch = rank - (lhs.getRank() >= 2) - (rhs.getRank() >= 2);
      int64_t mDim = lhs.getRank() >= 2 ? batch : -1;
      int64_t nDim = rhs.getRank() >= 2 ? rank - 1 : -1;
      int64_t k = lhs.getDimSize(lhs.getRank() - 1);
      bool kDivides =
          k % ranks == 0 && k >= ranks && !rt.getElementType().isInteger(1);
      auto splitK = [&]() -> SmallVector<Annotation> {
        why = "the contracted dim (K = " + std::to_string(k) +
              ") of the first stride.matmul, summed by an all-reduce";
        return {{matmul.getLhs(), &matmul->getOpOperand(0), lhs.getRank() - 1},
                {matmul.getRhs(), &matmul->getOpOperand(1),
                 rhs.getRank() >= 2 ? rhs.getRank() - 2 : 0}};
      };
      auto splitResult = [&](int64_t d,
                             StringRef name) -> SmallVector<Annotation> {
        why = (name + " (dim " + Twine(d) + ", size " +
               Twine(rt.getDimSize(d)) + ") of the first stride.matmul")
                  .str();
        return {{result, nullptr, d}};
      };
      if (strategy == "k") {
        if (kDivides)
          return splitK();
      } else if (strategy == "rows") {
        if (mDim >= 0 && divides(result, mDim))
          return splitResult(mDim, "the rows");
      } else if (strategy == "cols") {
        if (nDim >= 0 && divides(result, nDim))
          return splitResult(nDim, "the columns");
      } else {
        for (int64_t d = 0; d < batch; ++d)
          if (divides(result, d))
            return splitResult(d, "a batch dim");
        if (mDim >= 0 && divides(result, mDim))
          return splitResult(mDim, "the rows");
        if (kDivides)
          return splitK();
      }
      return matmul.emitError()
             << "stride-distribute: strategy " << strategy
             << " finds no dim of "
             << "this matmul (" << shapeText(lhs.getShape()) << " @ "
             << shapeText(rhs.getShape()) << ") that " << ranks
             << " ranks split evenly; uneven shards are not supported";
    }
    auto ret = cast<func::ReturnOp>(fn.getBody().front().getTerminator());
    Value result;
    for (Value v : ret.getOperands())
      if (isa<RankedTensorType>(v.getType())) {
        result = v;
        break;
      }
    if (!result)
      return fn.emitError() << "stride-distribute: @" << fn.getSymName()
                            << " returns no tensor to split";
    auto rt = cast<RankedTensorType>(result.getType());
    SmallVector<int64_t> order = memoryOrder(rt);
    if (strategy == "rows")
      order = {0};
    else if (strategy == "cols")
      order = {rt.getRank() - 1};
    else if (strategy == "k")
      return fn.emitError() << "stride-distribute: strategy k needs a "
                               "stride.matmul, and @"
                            << fn.getSymName() << " has none";
    for (int64_t d : order)
      if (divides(result, d)) {
        why = "dim " + std::to_string(d) + " (size " +
              std::to_string(rt.getDimSize(d)) +
              ") of the first result, outermost in memory that " +
              std::to_string(ranks) + " ranks divide";
        if (strategy != "auto")
          why = "dim " + std::to_string(d) + " of the first result (" +
                strategy + ")";
        return SmallVector<Annotation>{{result, nullptr, d}};
      }
    // A result too small to split (a full reduction's 0-d result): split
    // the first reduction's input instead; the partial results combine by
    // an all-reduce (an arg-reduction's first indices do not: it would
    // gather the whole input back).
    Operation *reduction = nullptr;
    fn.walk([&](Operation *op) {
      std::optional<ReduceKind> kind = getReduceKind(op);
      if (!reduction && kind && *kind != ReduceKind::Argmax &&
          *kind != ReduceKind::Argmin)
        reduction = op;
    });
    if (reduction && strategy == "auto") {
      Value input = reduction->getOperand(0);
      for (int64_t d : memoryOrder(cast<RankedTensorType>(input.getType())))
        if (divides(input, d)) {
          why = "dim " + std::to_string(d) + " (size " +
                std::to_string(
                    cast<RankedTensorType>(input.getType()).getDimSize(d)) +
                ") of the input of the first '" +
                reduction->getName().getStringRef().str() +
                "', outermost in memory, combined by an all-reduce";
          return SmallVector<Annotation>{
              {input, &reduction->getOpOperand(0), d}};
        }
    }
    return fn.emitError() << "stride-distribute: no dim of the result ("
                          << shapeText(rt.getShape()) << ") that strategy "
                          << strategy << " may split divides over " << ranks
                          << " ranks; uneven shards are not supported";
  }

  shard::Sharding splitAlong(int64_t dim) {
    MLIRContext *ctx = &getContext();
    SmallVector<shard::GridAxesAttr> axes(dim + 1,
                                          shard::GridAxesAttr::get(ctx, {}));
    axes[dim] = shard::GridAxesAttr::get(ctx, {0});
    return shard::Sharding::get(FlatSymbolRefAttr::get(ctx, kGridName), axes);
  }

  /// Whole on every rank.
  shard::Sharding replicated() {
    return shard::Sharding::get(
        FlatSymbolRefAttr::get(&getContext(), kGridName), {});
  }

  /// The tensor dim split along grid axis 0, or -1 if replicated; fails on
  /// what the runners cannot scatter (halos, explicit offsets).
  FailureOr<int64_t> splitDimOf(const shard::Sharding &s, Value v,
                                int64_t ranks) {
    if (!s.getStaticHaloSizes().empty() || !s.getDynamicHaloSizes().empty() ||
        !s.getStaticShardedDimsOffsets().empty() ||
        !s.getDynamicShardedDimsOffsets().empty())
      return emitError(v.getLoc())
             << "stride-distribute: the sharding of " << describe(v)
             << " has halos or explicit shard offsets, which are not supported";
    int64_t dim = -1;
    for (auto [d, axes] : llvm::enumerate(s.getSplitAxes())) {
      if (axes.empty())
        continue;
      auto t = cast<RankedTensorType>(v.getType());
      if (t.getDimSize(d) % ranks != 0 || t.getDimSize(d) < ranks)
        return emitError(v.getLoc())
               << "stride-distribute: dim " << d << " of " << describe(v)
               << " (size " << t.getDimSize(d)
               << ") does not split evenly over " << ranks
               << " ranks; uneven shards are not supported";
      dim = d;
    }
    return dim;
  }

  LogicalResult distribute(func::FuncOp fn, int64_t ranks) {
    if (failed(checkSupported(fn)))
      return failure();
    bool userShardings = false;
    fn.walk([&](shard::ShardOp) { userShardings = true; });
    std::string why = "the shardings written in the input";
    SmallVector<Annotation> annotations;
    if (!userShardings) {
      FailureOr<SmallVector<Annotation>> chosen = choose(fn, ranks, why);
      if (failed(chosen))
        return failure();
      annotations = *chosen;
    }
    // Layouts are the caller's; every rank holds dense row-major blocks.
    fn.walk([&](Operation *op) {
      for (Value v : op->getResults())
        v.setType(withoutEncoding(v.getType()));
      for (Region &r : op->getRegions())
        for (Block &b : r)
          for (BlockArgument a : b.getArguments())
            a.setType(withoutEncoding(a.getType()));
    });
    fn.setType(FunctionType::get(
        &getContext(),
        llvm::map_to_vector(fn.getArgumentTypes(),
                            [](Type t) { return withoutEncoding(t); }),
        llvm::map_to_vector(fn.getResultTypes(),
                            [](Type t) { return withoutEncoding(t); })));
    OpBuilder b(fn.getContext());
    for (Annotation &a : annotations) {
      b.setInsertionPointAfterValue(a.value);
      if (a.operand) {
        b.setInsertionPoint(a.operand->getOwner());
        shard::maybeInsertSourceShardingAnnotation(splitAlong(a.dim),
                                                   *a.operand, b);
      } else {
        shard::maybeInsertTargetShardingAnnotation(splitAlong(a.dim),
                                                   cast<OpResult>(a.value), b);
      }
    }
    // Upstream's propagation reaches an op only through annotated operands:
    // a second user of a split argument or result (mean(%a) beside exp(%a))
    // would stay unannotated and read the rank's block as if it were all of
    // the value. So every other use of an annotated value is routed through
    // its annotation, and propagation runs again, until nothing changes.
    for (unsigned round = 0;; ++round) {
      OpPassManager pm(func::FuncOp::getOperationName());
      pm.addPass(shard::createShardingPropagation());
      if (failed(runPipeline(pm, fn)))
        return failure();
      bool rerouted = false;
      SmallVector<shard::ShardOp> annotations;
      fn.walk([&](shard::ShardOp op) { annotations.push_back(op); });
      for (shard::ShardOp annotation : annotations) {
        Value src = annotation.getSrc();
        if (annotation.getAnnotateForUsers() && !isa<BlockArgument>(src))
          continue;
        if (src.getDefiningOp<shard::ShardOp>())
          continue;
        // An argument's annotation sits before the use it was made for;
        // the argument's earlier users need it at the top.
        if (isa<BlockArgument>(src)) {
          Block &entry = fn.getBody().front();
          if (Operation *sharding = annotation.getSharding().getDefiningOp();
              sharding && sharding->getNumOperands() == 0)
            sharding->moveBefore(&entry, entry.begin());
          annotation->moveAfter(annotation.getSharding().getDefiningOp());
        }
        for (OpOperand &use : llvm::make_early_inc_range(src.getUses()))
          if (!isa<shard::ShardOp>(use.getOwner())) {
            use.set(annotation.getResult());
            rerouted = true;
          }
      }
      // Arguments nothing split are whole on every rank; saying so lets
      // propagation reach the ops that read only them (shard-partition
      // fails on an op it finds no sharding for).
      if (!rerouted)
        for (BlockArgument arg : fn.getArguments()) {
          if (!isa<RankedTensorType>(arg.getType()) || arg.use_empty() ||
              llvm::any_of(arg.getUsers(), llvm::IsaPred<shard::ShardOp>))
            continue;
          OpBuilder b = OpBuilder::atBlockBegin(&fn.getBody().front());
          auto shardingOp =
              shard::ShardingOp::create(b, fn.getLoc(), replicated());
          auto annotation = shard::ShardOp::create(
              b, fn.getLoc(), arg, shardingOp, /*annotate_for_users=*/true);
          arg.replaceAllUsesExcept(annotation.getResult(), annotation);
          rerouted = true;
        }
      if (!rerouted)
        break;
      if (round == 64)
        return fn.emitError() << "stride-distribute: sharding propagation "
                                 "does not settle on @"
                              << fn.getSymName();
    }

    // What propagation leaves unannotated reads only whole values (upstream
    // takes a replicated operand for no information): it runs whole on
    // every rank, which shard-partition must be told.
    fn.walk([&](shard::ShardingInterface op) {
      for (OpResult r : op->getResults())
        if (isa<RankedTensorType>(r.getType()) &&
            llvm::none_of(r.getUsers(), llvm::IsaPred<shard::ShardOp>))
          shard::maybeInsertTargetShardingAnnotation(replicated(), r, b);
      for (OpOperand &operand : op->getOpOperands())
        if (isa<RankedTensorType>(operand.get().getType()) &&
            !operand.get().getDefiningOp<shard::ShardOp>())
          shard::maybeInsertSourceShardingAnnotation(replicated(), operand, b);
    });

    // Record what the runners scatter and gather.
    for (BlockArgument arg : fn.getArguments()) {
      if (!isa<RankedTensorType>(arg.getType()))
        continue;
      int64_t dim = -1;
      for (Operation *user : arg.getUsers())
        if (auto shardOp = dyn_cast<shard::ShardOp>(user)) {
          FailureOr<int64_t> d =
              splitDimOf(shard::Sharding(shardOp.getSharding()), arg, ranks);
          if (failed(d))
            return failure();
          dim = std::max(dim, *d);
        }
      if (dim >= 0)
        fn.setArgAttr(arg.getArgNumber(), kSplitDim, b.getI64IntegerAttr(dim));
      // shard-partition gives a block argument the sharding of its first
      // user. Users that want it otherwise (a reduction reading it whole
      // beside an elementwise op reading its block) must reshard from what
      // the runner scatters: the argument's own annotation says that, and
      // every use goes through it.
      if (arg.hasOneUse() || arg.use_empty())
        continue;
      b.setInsertionPointToStart(&fn.getBody().front());
      auto own = shard::ShardingOp::create(
          b, fn.getLoc(), dim >= 0 ? splitAlong(dim) : replicated());
      auto annotation = shard::ShardOp::create(b, fn.getLoc(), arg, own,
                                               /*annotate_for_users=*/false);
      arg.replaceAllUsesExcept(annotation.getResult(), annotation);
    }
    auto ret = cast<func::ReturnOp>(fn.getBody().front().getTerminator());
    for (OpOperand &operand : ret->getOpOperands()) {
      auto shardOp = operand.get().getDefiningOp<shard::ShardOp>();
      if (!shardOp)
        continue;
      FailureOr<int64_t> d = splitDimOf(shard::Sharding(shardOp.getSharding()),
                                        operand.get(), ranks);
      if (failed(d))
        return failure();
      if (*d >= 0)
        fn.setResultAttr(operand.getOperandNumber(), kSplitDim,
                         b.getI64IntegerAttr(*d));
    }
    WalkResult bad = fn.walk([&](shard::ShardOp op) {
      if (failed(splitDimOf(shard::Sharding(op.getSharding()), op.getSrc(),
                            ranks)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (bad.wasInterrupted())
      return failure();
    fn->setAttr(kGridAttr, b.getDenseI64ArrayAttr({ranks}));
    fn.emitRemark() << "stride-distribute: @" << fn.getSymName() << " over "
                    << ranks << " ranks, split along " << why;
    return success();
  }
};

} // namespace
