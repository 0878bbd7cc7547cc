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
#include "stride/Support/GridShape.h"

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
constexpr StringLiteral kSplitDims = "stride.split_dims";
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

/// Which tensor dim each grid axis splits (-1: none). Axes splitting one
/// dim divide it major to minor in axis order.
using AxisDims = SmallVector<int64_t>;

/// One annotation the pass adds: `value` split over the grid as `dims`
/// says, either as `value`'s own sharding or, for `operand`, as its user's.
struct Annotation {
  Value value;
  OpOperand *operand = nullptr; // annotate for this use only
  AxisDims dims;
};

std::string axisDimsText(const AxisDims &dims) {
  std::string text;
  for (auto [axis, d] : llvm::enumerate(dims))
    text += (text.empty() ? "" : ", ") +
            ("grid axis " + Twine(axis) +
             (d >= 0 ? " -> dim " + Twine(d) : Twine(" -> whole")))
                .str();
  return text;
}

struct StrideDistributePass
    : public mlir::stride::impl::StrideDistributeBase<StrideDistributePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::vector<int64_t> shape;
    if (std::string error =
            ::stride::parseGridShape(StringRef(grid).trim().str(), shape);
        !error.empty()) {
      module.emitError() << "stride-distribute: " << error;
      return signalPassFailure();
    }
    gridShape.assign(shape.begin(), shape.end());
    ranks = ::stride::gridRanks(shape);
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
      auto gridOp =
          shard::GridOp::create(b, module.getLoc(), kGridName, gridShape);
      gridOp.setPrivate();
    }
    for (func::FuncOp fn : entries)
      if (failed(distribute(fn)))
        return signalPassFailure();
  }

  SmallVector<int64_t> gridShape;
  int64_t ranks = 1;

  /// "4 ranks", or "a 2x2 grid (4 ranks)".
  std::string gridText() const {
    if (gridShape.size() == 1)
      return std::to_string(ranks) + " ranks";
    return "a " +
           ::stride::formatGridShape({gridShape.begin(), gridShape.end()}) +
           " grid (" + std::to_string(ranks) + " ranks)";
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
                           "reductions, stride.matmul and the views permute, "
                           "transpose, squeeze and unsqueeze distribute";
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

  /// Assigns each grid axis (of size > 1) a dim of `v` from `candidates`,
  /// in order, whose size, less what earlier axes took of it, the axis
  /// divides. `reuseFirst`: an axis first tries a dim an earlier axis split
  /// (the blocks stay one contiguous run when that dim is outermost);
  /// otherwise it tries the unsplit ones first (a 2-D block decomposition).
  /// On a grid of several dims an axis that no dim fits splits nothing: the
  /// ranks along it hold the same blocks and compute them alike (as a
  /// 6x3 result on a 2x2 grid: rows over axis 0, axis 1 whole). Fails when
  /// no axis splits anything.
  std::optional<AxisDims> assignAxes(Value v, ArrayRef<int64_t> candidates,
                                     bool reuseFirst) {
    auto t = cast<RankedTensorType>(v.getType());
    AxisDims dims(gridShape.size(), -1);
    SmallVector<int64_t> left(t.getShape());
    for (auto [axis, g] : llvm::enumerate(gridShape)) {
      if (g == 1)
        continue;
      auto fits = [&](int64_t d) {
        return d >= 0 && d < t.getRank() && left[d] % g == 0 && left[d] >= g;
      };
      auto taken = [&](int64_t d) { return llvm::is_contained(dims, d); };
      int64_t chosen = -1;
      for (bool wantTaken : {reuseFirst, !reuseFirst}) {
        for (int64_t d : candidates)
          if (fits(d) && taken(d) == wantTaken) {
            chosen = d;
            break;
          }
        if (chosen >= 0)
          break;
      }
      if (chosen < 0) {
        if (gridShape.size() == 1)
          return std::nullopt;
        continue;
      }
      dims[axis] = chosen;
      left[chosen] /= g;
    }
    if (!isSplit(dims))
      return std::nullopt;
    return dims;
  }

  /// Every grid axis on `dim`, if its size divides over all ranks.
  std::optional<AxisDims> allAxesOn(Value v, int64_t dim) {
    return assignAxes(v, {dim}, /*reuseFirst=*/true);
  }

  /// "dim 0 (size 8)" (`Sized`), "dim 0, size 8" (`Comma`) or "dim 0"
  /// (`Bare`) per split dim; on grids of several dims, which axis splits
  /// which.
  enum class DimStyle { Sized, Comma, Bare };
  std::string dimsText(Value v, const AxisDims &dims, DimStyle style) {
    auto t = cast<RankedTensorType>(v.getType());
    std::string text;
    SmallVector<int64_t> seen;
    if (style == DimStyle::Comma &&
        llvm::count_if(dims, [&](int64_t d) { return d >= 0 && d != dims[0]; }))
      style = DimStyle::Sized; // "dim 0, size 8 and dim 1, size 4" misreads
    for (int64_t d : dims) {
      if (d < 0 || llvm::is_contained(seen, d))
        continue;
      seen.push_back(d);
      std::string size = std::to_string(t.getDimSize(d));
      text += (text.empty() ? "" : " and ") + ("dim " + Twine(d)).str() +
              (style == DimStyle::Sized   ? " (size " + size + ")"
               : style == DimStyle::Comma ? ", size " + size
                                          : "");
    }
    if (gridShape.size() > 1)
      text += "; " + axisDimsText(dims);
    return text;
  }

  FailureOr<SmallVector<Annotation>> choose(func::FuncOp fn, std::string &why) {
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
      int64_t lhsK = lhs.getRank() - 1;
      int64_t rhsK = rhs.getRank() >= 2 ? rhs.getRank() - 2 : 0;
      auto splitK = [&]() -> std::optional<SmallVector<Annotation>> {
        if (rt.getElementType().isInteger(1))
          return std::nullopt;
        std::optional<AxisDims> l = allAxesOn(matmul.getLhs(), lhsK);
        if (!l)
          return std::nullopt;
        AxisDims r = *l;
        for (int64_t &d : r)
          if (d >= 0)
            d = rhsK;
        why = "the contracted dim (K = " + std::to_string(k) +
              ") of the first stride.matmul, summed by an all-reduce";
        return SmallVector<Annotation>{
            {matmul.getLhs(), &matmul->getOpOperand(0), *l},
            {matmul.getRhs(), &matmul->getOpOperand(1), r}};
      };
      auto splitResult =
          [&](ArrayRef<int64_t> candidates, StringRef name,
              bool reuseFirst) -> std::optional<SmallVector<Annotation>> {
        std::optional<AxisDims> dims =
            assignAxes(result, candidates, reuseFirst);
        if (!dims)
          return std::nullopt;
        if (name.empty()) {
          bool batchSplit = llvm::any_of(
              *dims, [&](int64_t d) { return d >= 0 && d < batch; });
          bool rows = llvm::is_contained(*dims, mDim) && mDim >= 0;
          bool cols = llvm::is_contained(*dims, nDim) && nDim >= 0;
          name = batchSplit     ? "a batch dim"
                 : rows && cols ? "the rows and columns"
                 : cols         ? "the columns"
                                : "the rows";
        }
        why = (name + " (" + dimsText(result, *dims, DimStyle::Comma) +
               ") of the first stride.matmul")
                  .str();
        return SmallVector<Annotation>{{result, nullptr, *dims}};
      };
      std::optional<SmallVector<Annotation>> chosen;
      if (strategy == "k") {
        chosen = splitK();
      } else if (strategy == "rows") {
        if (mDim >= 0)
          chosen = splitResult({mDim}, "the rows", true);
      } else if (strategy == "cols") {
        if (nDim >= 0)
          chosen = splitResult({nDim}, "the columns", true);
      } else {
        // Batch dims first; on one grid axis then the rows, on several the
        // rows and the columns (each rank reads a block of rows of the
        // left operand and of columns of the right one).
        SmallVector<int64_t> candidates =
            llvm::to_vector(llvm::seq<int64_t>(0, batch));
        if (mDim >= 0)
          candidates.push_back(mDim);
        if (nDim >= 0 && gridShape.size() > 1)
          candidates.push_back(nDim);
        chosen = splitResult(candidates, "", /*reuseFirst=*/false);
        if (!chosen)
          chosen = splitK();
      }
      if (chosen)
        return *chosen;
      return matmul.emitError()
             << "stride-distribute: strategy " << strategy
             << " finds no dim of "
             << "this matmul (" << shapeText(lhs.getShape()) << " @ "
             << shapeText(rhs.getShape()) << ") that " << gridText()
             << " split evenly; uneven shards are not supported";
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
    if (rt.getRank() > 0)
      if (std::optional<AxisDims> dims =
              assignAxes(result, order, /*reuseFirst=*/true)) {
        why = dimsText(result, *dims, DimStyle::Sized) +
              " of the first result, outermost in memory that " + gridText() +
              " divide";
        if (strategy != "auto")
          why = dimsText(result, *dims, DimStyle::Bare) +
                " of the first result (" + strategy + ")";
        return SmallVector<Annotation>{{result, nullptr, *dims}};
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
      if (std::optional<AxisDims> dims = assignAxes(
              input, memoryOrder(cast<RankedTensorType>(input.getType())),
              /*reuseFirst=*/true)) {
        why = dimsText(input, *dims, DimStyle::Sized) +
              " of the input of the first '" +
              reduction->getName().getStringRef().str() +
              "', outermost in memory, combined by an all-reduce";
        return SmallVector<Annotation>{
            {input, &reduction->getOpOperand(0), *dims}};
      }
    }
    return fn.emitError() << "stride-distribute: no dim of the result ("
                          << shapeText(rt.getShape()) << ") that strategy "
                          << strategy << " may split divides over "
                          << gridText() << "; uneven shards are not supported";
  }

  shard::Sharding splitAlong(const AxisDims &dims) {
    MLIRContext *ctx = &getContext();
    int64_t last = -1;
    for (int64_t d : dims)
      last = std::max(last, d);
    SmallVector<SmallVector<int16_t>> perDim(last + 1);
    for (auto [axis, d] : llvm::enumerate(dims))
      if (d >= 0)
        perDim[d].push_back(int16_t(axis));
    SmallVector<shard::GridAxesAttr> axes =
        llvm::map_to_vector(perDim, [&](ArrayRef<int16_t> a) {
          return shard::GridAxesAttr::get(ctx, a);
        });
    return shard::Sharding::get(FlatSymbolRefAttr::get(ctx, kGridName), axes);
  }

  /// Whole on every rank.
  shard::Sharding replicated() {
    return shard::Sharding::get(
        FlatSymbolRefAttr::get(&getContext(), kGridName), {});
  }

  /// The tensor dim each grid axis splits (-1: none); fails on what the
  /// runners cannot scatter (halos, explicit offsets, uneven blocks, axes
  /// listed out of order).
  FailureOr<AxisDims> splitDimsOf(const shard::Sharding &s, Value v) {
    if (!s.getStaticHaloSizes().empty() || !s.getDynamicHaloSizes().empty() ||
        !s.getStaticShardedDimsOffsets().empty() ||
        !s.getDynamicShardedDimsOffsets().empty())
      return emitError(v.getLoc())
             << "stride-distribute: the sharding of " << describe(v)
             << " has halos or explicit shard offsets, which are not supported";
    auto gridOp = SymbolTable::lookupNearestSymbolFrom<shard::GridOp>(
        getOperation(), s.getGridAttr());
    if (!gridOp || gridOp.getShape() != ArrayRef<int64_t>(gridShape))
      return emitError(v.getLoc())
             << "stride-distribute: the sharding of " << describe(v)
             << " is over grid " << s.getGridAttr() << " of shape "
             << (gridOp ? shapeText(gridOp.getShape()) : std::string("?"))
             << ", but the run's grid is " << shapeText(gridShape)
             << " (grid=" << grid << ")";
    AxisDims dims(gridShape.size(), -1);
    for (auto [d, axes] : llvm::enumerate(s.getSplitAxes())) {
      if (axes.empty())
        continue;
      auto t = cast<RankedTensorType>(v.getType());
      int64_t parts = 1, previous = -1;
      for (int16_t axis : axes.asArrayRef()) {
        if (axis < 0 || axis >= int64_t(gridShape.size()))
          return emitError(v.getLoc())
                 << "stride-distribute: the sharding of " << describe(v)
                 << " names grid axis " << axis << " of a grid of "
                 << gridShape.size() << " dims";
        if (axis <= previous)
          return emitError(v.getLoc())
                 << "stride-distribute: the sharding of " << describe(v)
                 << " splits dim " << d
                 << " over grid axes out of ascending order; the runners "
                    "scatter blocks in axis order";
        previous = axis;
        parts *= gridShape[axis];
        dims[axis] = int64_t(d);
      }
      if (t.getDimSize(d) % parts != 0 || t.getDimSize(d) < parts)
        return emitError(v.getLoc())
               << "stride-distribute: dim " << d << " of " << describe(v)
               << " (size " << t.getDimSize(d)
               << ") does not split evenly into " << parts
               << " blocks; uneven shards are not supported";
    }
    return dims;
  }

  /// Per tensor dim, the grid axes splitting it, trailing unsplit dims
  /// dropped.
  static SmallVector<SmallVector<int16_t>>
  axesPerDim(const shard::Sharding &s) {
    SmallVector<SmallVector<int16_t>> dims;
    for (shard::GridAxesAttr axes : s.getSplitAxes())
      dims.push_back(llvm::to_vector(axes.asArrayRef()));
    while (!dims.empty() && dims.back().empty())
      dims.pop_back();
    return dims;
  }

  /// Upstream's `shard-partition` reshards correctly in one step only when
  /// one grid axis is appended to or dropped from the end of one dim's
  /// list, or moved from the end of one dim's list to the end of
  /// another's (an all-to-all). On grids of several dims other changes
  /// give wrong shapes or crash (swapping two axes, `[[0]]` to `[[1]]`,
  /// splitting over two axes at once). So every other change goes through
  /// single steps: first drop the axes that do not stay, last first, then
  /// append the new ones, each step a `shard.shard` chained to the last.
  void decomposeReshards(func::FuncOp fn) {
    SmallVector<shard::ShardOp> pairs;
    fn.walk([&](shard::ShardOp op) {
      if (auto src = op.getSrc().getDefiningOp<shard::ShardOp>())
        if (src.getSharding() != op.getSharding())
          pairs.push_back(op);
    });
    for (shard::ShardOp dst : pairs) {
      auto src = dst.getSrc().getDefiningOp<shard::ShardOp>();
      shard::Sharding from(src.getSharding()), to(dst.getSharding());
      if (!from.getStaticHaloSizes().empty() ||
          !to.getStaticHaloSizes().empty() ||
          !from.getStaticShardedDimsOffsets().empty() ||
          !to.getStaticShardedDimsOffsets().empty())
        continue; // refused later, when the records are made
      SmallVector<SmallVector<int16_t>> cur = axesPerDim(from),
                                        want = axesPerDim(to);
      size_t rank = std::max(cur.size(), want.size());
      cur.resize(rank);
      want.resize(rank);
      SmallVector<SmallVector<SmallVector<int16_t>>> steps;
      for (size_t d = 0; d < rank; ++d) {
        size_t keep = 0;
        while (keep < cur[d].size() && keep < want[d].size() &&
               cur[d][keep] == want[d][keep])
          ++keep;
        while (cur[d].size() > keep) {
          cur[d].pop_back();
          steps.push_back(cur);
        }
      }
      for (size_t d = 0; d < rank; ++d)
        for (size_t i = cur[d].size(); i < want[d].size(); ++i) {
          cur[d].push_back(want[d][i]);
          steps.push_back(cur);
        }
      // One drop and one append of the same axis: upstream's move.
      bool move = steps.size() == 2;
      if (move) {
        SmallVector<SmallVector<int16_t>> a = axesPerDim(from),
                                          b = axesPerDim(to);
        a.resize(rank);
        b.resize(rank);
        int16_t dropped = -1, added = -1;
        for (size_t d = 0; d < rank; ++d) {
          if (a[d].size() > b[d].size())
            dropped = a[d].back();
          if (b[d].size() > a[d].size())
            added = b[d].back();
        }
        move = dropped >= 0 && dropped == added;
      }
      if (steps.size() <= 1 || move)
        continue;
      steps.pop_back(); // the last step is `dst` itself
      OpBuilder b(dst);
      Value prev = src.getResult();
      for (auto &step : steps) {
        SmallVector<shard::GridAxesAttr> axes =
            llvm::map_to_vector(step, [&](ArrayRef<int16_t> a) {
              return shard::GridAxesAttr::get(&getContext(), a);
            });
        auto sharding = shard::ShardingOp::create(
            b, dst.getLoc(), shard::Sharding::get(from.getGridAttr(), axes));
        prev = shard::ShardOp::create(b, dst.getLoc(), prev, sharding,
                                      /*annotate_for_users=*/true)
                   .getResult();
      }
      dst.getSrcMutable().assign(prev);
    }
  }

  static bool isSplit(const AxisDims &dims) {
    return llvm::any_of(dims, [](int64_t d) { return d >= 0; });
  }

  LogicalResult distribute(func::FuncOp fn) {
    if (failed(checkSupported(fn)))
      return failure();
    bool userShardings = false;
    fn.walk([&](shard::ShardOp) { userShardings = true; });
    std::string why = "the shardings written in the input";
    SmallVector<Annotation> annotations;
    if (!userShardings) {
      FailureOr<SmallVector<Annotation>> chosen = choose(fn, why);
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
        shard::maybeInsertSourceShardingAnnotation(splitAlong(a.dims),
                                                   *a.operand, b);
      } else {
        shard::maybeInsertTargetShardingAnnotation(splitAlong(a.dims),
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
      AxisDims dims(gridShape.size(), -1);
      for (Operation *user : arg.getUsers())
        if (auto shardOp = dyn_cast<shard::ShardOp>(user)) {
          FailureOr<AxisDims> d =
              splitDimsOf(shard::Sharding(shardOp.getSharding()), arg);
          if (failed(d))
            return failure();
          if (!isSplit(dims))
            dims = *d;
        }
      if (isSplit(dims))
        fn.setArgAttr(arg.getArgNumber(), kSplitDims,
                      b.getDenseI64ArrayAttr(dims));
      // shard-partition gives a block argument the sharding of its first
      // user. Users that want it otherwise (a reduction reading it whole
      // beside an elementwise op reading its block) must reshard from what
      // the runner scatters: the argument's own annotation says that, and
      // every use goes through it.
      if (arg.hasOneUse() || arg.use_empty())
        continue;
      b.setInsertionPointToStart(&fn.getBody().front());
      auto own = shard::ShardingOp::create(
          b, fn.getLoc(), isSplit(dims) ? splitAlong(dims) : replicated());
      auto annotation = shard::ShardOp::create(b, fn.getLoc(), arg, own,
                                               /*annotate_for_users=*/false);
      arg.replaceAllUsesExcept(annotation.getResult(), annotation);
    }
    auto ret = cast<func::ReturnOp>(fn.getBody().front().getTerminator());
    for (OpOperand &operand : ret->getOpOperands()) {
      auto shardOp = operand.get().getDefiningOp<shard::ShardOp>();
      if (!shardOp)
        continue;
      FailureOr<AxisDims> d =
          splitDimsOf(shard::Sharding(shardOp.getSharding()), operand.get());
      if (failed(d))
        return failure();
      if (isSplit(*d))
        fn.setResultAttr(operand.getOperandNumber(), kSplitDims,
                         b.getDenseI64ArrayAttr(*d));
    }
    WalkResult bad = fn.walk([&](shard::ShardOp op) {
      if (failed(splitDimsOf(shard::Sharding(op.getSharding()), op.getSrc())))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (bad.wasInterrupted())
      return failure();
    // Last: the arguments' own annotations above make pairs too.
    decomposeReshards(fn);
    fn->setAttr(kGridAttr, b.getDenseI64ArrayAttr(gridShape));
    fn.emitRemark() << "stride-distribute: @" << fn.getSymName() << " over "
                    << gridText() << ", split along " << why;
    return success();
  }
};

} // namespace
