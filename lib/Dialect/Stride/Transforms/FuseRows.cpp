//===- FuseRows.cpp - Reductions and their broadcasts in one row loop -----===//
//
// A softmax or a layer norm is a few kernels after stride-fuse, each of which
// streams the whole array: reductions over the trailing dims and
// elementwise ops that read the reduced values broadcast back. Here such a
// group becomes one scf.forall over blocks of the leading dim, every op
// computing on a block of rows that stays in the cache (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "stride/Dialect/Stride/IR/StrideOps.h"
#include "stride/Dialect/Stride/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEFUSEROWS
#include "stride/Dialect/Stride/Transforms/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;
using namespace mlir::stride;

namespace {

/// The shape every full-size value of a group has, and the dims its
/// reductions reduce (empty until the first reduction joins).
struct RowShape {
  SmallVector<int64_t> full;
  SmallVector<bool> reduced;

  /// `full` with the reduced dims set to 1: a keepdims reduction's shape.
  SmallVector<int64_t> reducedShape() const {
    SmallVector<int64_t> shape(full);
    for (auto [size, isReduced] : llvm::zip(shape, reduced))
      if (isReduced)
        size = 1;
    return shape;
  }
};

/// A static, row-major (encoding-free) ranked tensor type.
RankedTensorType plainStaticType(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked || !ranked.hasStaticShape() || ranked.getEncoding())
    return {};
  return ranked;
}

/// True if `op` is a reduction that a row loop may run block by block:
/// keepdims, over trailing dims only, dim 0 kept. Index reductions are left
/// out: their value is a position, which a block would not change, but they
/// are rarely broadcast back and not worth the extra case.
bool isRowReduction(Operation *op, SmallVectorImpl<bool> &reduced) {
  std::optional<ReduceKind> kind = getReduceKind(op);
  if (auto mapReduce = dyn_cast<MapReduceOp>(op))
    kind = parseReduceKind(mapReduce.getKind());
  if (!kind || *kind == ReduceKind::Argmax || *kind == ReduceKind::Argmin)
    return false;
  if (!getKeepdims(op))
    return false;
  std::optional<SmallVector<bool>> dims = getReducedDims(op);
  if (!dims || dims->empty() || (*dims)[0] || !llvm::is_contained(*dims, true))
    return false;
  // Trailing: once a dim is reduced, every later one is.
  auto first = llvm::find(*dims, true);
  if (!std::all_of(first, dims->end(), [](bool r) { return r; }))
    return false;
  reduced.assign(dims->begin(), dims->end());
  return true;
}

/// The type of the full-size tensor a reduction reads: its input's, or
/// stride.map_reduce's `mapped`.
Type reducedInputType(Operation *op) {
  if (auto mapReduce = dyn_cast<MapReduceOp>(op))
    return mapReduce.getMapped();
  return op->getOperand(0).getType();
}

class RowGroupBuilder {
public:
  RowGroupBuilder(BroadcastOp root, int64_t blockBytes, int64_t maxRowBytes)
      : root(root), blockBytes(blockBytes), maxRowBytes(maxRowBytes) {}

  /// Collects the group of `root` and fuses it; false when it is not worth
  /// a loop or cannot be one.
  bool run(DenseSet<Operation *> &taken, unsigned &numOps) {
    RankedTensorType type = plainStaticType(root.getResult(0).getType());
    if (!type || type.getRank() < 2 || !root.getInits().empty() ||
        root.getNumResults() != 1)
      return false;
    shape.full.assign(type.getShape().begin(), type.getShape().end());
    if (!findReducedDims())
      return false;
    collect(taken);
    if (!hasReduction)
      return false;
    if (!leavesAreSliceable())
      return decline("an operand from outside is not a static row-major "
                     "tensor, so a block of rows would not be a contiguous "
                     "slice of it");
    int64_t rows = shape.full[0];
    int64_t rowBytes = type.getNumElements() / std::max<int64_t>(rows, 1) *
                       std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
    if (rowBytes == 0)
      return false;
    if (rowBytes > maxRowBytes)
      return decline("a row takes " + std::to_string(rowBytes) +
                     " bytes, more than max-row-bytes (" +
                     std::to_string(maxRowBytes) +
                     "): a block would not stay in the cache");
    int64_t block = 1;
    for (int64_t b =
             std::min(rows, std::max<int64_t>(1, blockBytes / rowBytes));
         b >= 1; --b)
      if (rows % b == 0) {
        block = b;
        break;
      }
    if (block >= rows)
      return decline("one block of block-bytes holds all " +
                     std::to_string(rows) + " rows: a loop of one iteration");
    // Row counts without a good divisor (a prime number of short rows)
    // would leave blocks so small that each iteration's few kernel calls
    // cost more than its arithmetic.
    if (block * rowBytes * 32 < blockBytes)
      return decline("the largest block that divides the " +
                     std::to_string(rows) + " rows takes " +
                     std::to_string(block * rowBytes) +
                     " bytes, under 1/32 of block-bytes: too little work "
                     "for a loop iteration");
    if (explainsDecisions(root))
      root.emitRemark() << "stride-explain: row loop: " << group.size()
                        << " ops (a reduction over the trailing dims, its "
                           "producers and the ops that broadcast it back) "
                           "run on blocks of "
                        << block << " of the " << rows
                        << " rows, so each block stays in the cache";
    build(block);
    for (Operation *op : group)
      taken.insert(op);
    numOps += group.size();
    return true;
  }

private:
  bool decline(const std::string &why) {
    if (explainsDecisions(root))
      root.emitRemark() << "stride-explain: row loop: not built: " << why;
    return false;
  }

  /// True if `op` may join: a pure broadcast or a row reduction whose
  /// shapes match the group's, every user already in the group.
  bool mayJoin(Operation *op) {
    if (op->getBlock() != root->getBlock() || op->use_empty())
      return false;
    for (Operation *user : op->getUsers())
      if (!members.contains(user))
        return false;
    SmallVector<bool> reduced;
    if (isRowReduction(op, reduced)) {
      if (!readsFullShape(op) || reduced != shape.reduced)
        return false;
      auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
      if (!result || result.getShape() != ArrayRef(shape.reducedShape()))
        return false;
      hasReduction = true;
      return true;
    }
    auto broadcast = dyn_cast<BroadcastOp>(op);
    if (!broadcast || !broadcast.getInits().empty() ||
        broadcast.getNumResults() != 1)
      return false;
    auto result = dyn_cast<RankedTensorType>(broadcast.getResult(0).getType());
    if (!result || !result.hasStaticShape())
      return false;
    if (result.getShape() == ArrayRef<int64_t>(shape.full))
      return true;
    return result.getShape() == ArrayRef(shape.reducedShape());
  }

  bool readsFullShape(Operation *reduction) {
    auto input = dyn_cast<RankedTensorType>(reducedInputType(reduction));
    return input && input.hasStaticShape() &&
           input.getShape() == ArrayRef<int64_t>(shape.full);
  }

  /// The dims the group reduces: those of the last row reduction before
  /// the root that reads the full shape. Known before the walk back, which
  /// meets values of the reduced shape before the reductions making them.
  bool findReducedDims() {
    for (Operation *op = root->getPrevNode(); op; op = op->getPrevNode()) {
      SmallVector<bool> reduced;
      if (isRowReduction(op, reduced) && readsFullShape(op)) {
        shape.reduced = reduced;
        return true;
      }
    }
    return false;
  }

  /// Walks back from the root: a producer joins when all its users are in
  /// the group. Users follow producers in a block, so one backward walk
  /// sees every user's decision first.
  void collect(DenseSet<Operation *> &taken) {
    members.insert(root);
    for (Operation *op = root->getPrevNode(); op; op = op->getPrevNode()) {
      if (taken.contains(op) || !mayJoin(op))
        continue;
      members.insert(op);
    }
    for (Operation &op : *root->getBlock())
      if (members.contains(&op))
        group.push_back(&op);
  }

  /// The values the group reads from outside; each must be a scalar, or a
  /// ranked static row-major tensor that broadcasts to the full shape.
  bool leavesAreSliceable() {
    for (Operation *op : group)
      for (Value operand : op->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (def && members.contains(def))
          continue;
        if (!isa<TensorType>(operand.getType()))
          continue;
        auto type = plainStaticType(operand.getType());
        if (!type || type.getRank() > int64_t(shape.full.size()))
          return false;
        leaves.insert(operand);
      }
    return true;
  }

  /// A leaf has the leading dim when it has the group's rank and more than
  /// one row; it is sliced with the block, else read whole.
  bool hasLeadingDim(Value leaf) {
    auto type = cast<RankedTensorType>(leaf.getType());
    return type.getRank() == int64_t(shape.full.size()) &&
           type.getDimSize(0) != 1;
  }

  /// Offsets, sizes and strides of rows [row, row + block) of a tensor of
  /// `type` (the group's rank), whole in the other dims.
  struct RowRange {
    SmallVector<OpFoldResult> offsets, sizes, strides;
  };
  static RowRange rowRange(OpBuilder &b, RankedTensorType type, Value row,
                           int64_t block) {
    RowRange range;
    range.offsets.assign(type.getRank(), b.getIndexAttr(0));
    range.strides.assign(type.getRank(), b.getIndexAttr(1));
    for (int64_t size : type.getShape())
      range.sizes.push_back(b.getIndexAttr(size));
    range.offsets[0] = row;
    range.sizes[0] = b.getIndexAttr(block);
    return range;
  }

  Value rowSlice(OpBuilder &b, Location loc, Value value, Value row,
                 int64_t block) {
    RowRange range =
        rowRange(b, cast<RankedTensorType>(value.getType()), row, block);
    return tensor::ExtractSliceOp::create(b, loc, value, range.offsets,
                                          range.sizes, range.strides);
  }

  static RankedTensorType blockType(Type type, int64_t block) {
    auto ranked = cast<RankedTensorType>(type);
    SmallVector<int64_t> shape(ranked.getShape());
    shape[0] = block;
    return RankedTensorType::get(shape, ranked.getElementType());
  }

  void build(int64_t block) {
    Location loc = root.getLoc();
    OpBuilder b(root);
    auto resultType = cast<RankedTensorType>(root.getResult(0).getType());
    Value init = tensor::EmptyOp::create(b, loc, resultType.getShape(),
                                         resultType.getElementType());
    SmallVector<OpFoldResult> lbs{b.getIndexAttr(0)},
        ubs{b.getIndexAttr(shape.full[0])}, steps{b.getIndexAttr(block)};
    auto loop = scf::ForallOp::create(b, loc, lbs, ubs, steps, ValueRange{init},
                                      /*mapping=*/std::nullopt);
    loop->setAttr(kRowBlockAttr, b.getI64IntegerAttr(block));
    Block *body = loop.getBody();
    b.setInsertionPointToStart(body);
    Value row = body->getArgument(0);
    Value out = body->getArgument(1);
    IRMapping mapping;
    for (Value leaf : leaves)
      if (hasLeadingDim(leaf))
        mapping.map(leaf, rowSlice(b, loc, leaf, row, block));
    Value dest = rowSlice(b, loc, out, row, block);
    Operation *rootClone = nullptr;
    for (Operation *op : group) {
      Operation *clone = b.clone(*op, mapping);
      for (OpResult result : clone->getResults())
        result.setType(blockType(result.getType(), block));
      if (auto mapReduce = dyn_cast<MapReduceOp>(clone))
        mapReduce.setMappedAttr(
            TypeAttr::get(blockType(mapReduce.getMapped(), block)));
      if (op == root.getOperation())
        rootClone = clone;
    }
    auto rootBlock = cast<BroadcastOp>(rootClone);
    rootBlock.getInitsMutable().assign(dest);
    b.setInsertionPointToStart(loop.getTerminator().getBody());
    RowRange range = rowRange(b, resultType, row, block);
    tensor::ParallelInsertSliceOp::create(b, loc, rootBlock.getResult(0), out,
                                          range.offsets, range.sizes,
                                          range.strides);
    root.getResult(0).replaceAllUsesWith(loop.getResult(0));
    for (Operation *op : llvm::reverse(group))
      op->erase();
  }

  BroadcastOp root;
  int64_t blockBytes, maxRowBytes;
  RowShape shape;
  bool hasReduction = false;
  DenseSet<Operation *> members;
  SmallVector<Operation *> group;
  llvm::SetVector<Value> leaves;
};

struct StrideFuseRowsPass
    : mlir::stride::impl::StrideFuseRowsBase<StrideFuseRowsPass> {
  using Base::Base;
  void runOnOperation() override {
    // Roots last to first: a later root's group is built before an earlier
    // broadcast, which may belong to it, is tried as a root of its own.
    // Without a row reduction nothing can fuse: each root's walk back
    // through its block would be wasted on every compile.
    SmallVector<bool> reduced;
    bool anyReduction = false;
    getOperation()->walk([&](Operation *op) {
      anyReduction |= isRowReduction(op, reduced);
      return anyReduction ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (!anyReduction)
      return;
    SmallVector<BroadcastOp> roots;
    getOperation()->walk([&](BroadcastOp op) { roots.push_back(op); });
    DenseSet<Operation *> taken;
    unsigned ops = 0;
    for (BroadcastOp root : llvm::reverse(roots)) {
      if (taken.contains(root))
        continue;
      RowGroupBuilder builder(root, blockBytes, maxRowBytes);
      if (builder.run(taken, ops))
        ++numGroups;
    }
    numOpsFused += ops;
  }
};

} // namespace
