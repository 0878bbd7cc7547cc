//===- InferShapes.cpp - Broadcast and matmul shape inference -------------===//

#include "ModuleStructure.h"

#include "stride/Dialect/Stride/IR/StrideOps.h"
#include "stride/Dialect/Stride/Transforms/Passes.h"
#include "stride/Layout/Shape.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/TypeUtilities.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEINFERSHAPES
#include "stride/Dialect/Stride/Transforms/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;
using namespace mlir::stride;

/// Marks an op whose run-time shape checks are already in the IR, so that a
/// second run of the pass inserts none.
static constexpr StringLiteral kCheckedAttr = "stride.shape_checked";

namespace {
/// The most refined type that agrees with both the declared result type and
/// the inferred one; a declared type that contradicts the operands is an
/// error (the verifier's, once the operands' shapes are known).
FailureOr<RankedTensorType> refine(Operation *op, unsigned index,
                                   Type declared, RankedTensorType inferred) {
  auto ranked = dyn_cast<RankedTensorType>(declared);
  if (!ranked)
    return RankedTensorType::get(inferred.getShape(),
                                 cast<ShapedType>(declared).getElementType());
  if (failed(verifyCompatibleShape(ranked.getShape(), inferred.getShape())))
    return op->emitOpError()
           << "result #" << index << " has type " << declared
           << " but the operands give shape "
           << ::stride::layout::formatShape(::stride::layout::Shape(
                  inferred.getShape().begin(), inferred.getShape().end()));
  SmallVector<int64_t> shape(inferred.getShape());
  for (auto [i, size] : llvm::enumerate(shape))
    if (ShapedType::isDynamic(size))
      size = ranked.getDimSize(i);
  return RankedTensorType::get(shape, ranked.getElementType(),
                               ranked.getEncoding());
}

/// "stride.add at file:line:col", for run-time messages.
std::string describe(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op->getName() << " at ";
  if (auto fileLoc = dyn_cast<FileLineColLoc>(op->getLoc()))
    os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine() << ":"
       << fileLoc.getColumn();
  else
    os << op->getLoc();
  return text;
}

/// The sizes that meet in one result dim and must broadcast together: every
/// size is 1 or equal to the common size. With a destination, the common
/// size is the destination's.
struct SizeRef {
  unsigned operand;
  int64_t dim; // the operand's own dim index
  Value source;
};
struct SizeGroup {
  SmallVector<std::pair<unsigned, int64_t>> statics; // (operand, size)
  SmallVector<SizeRef> dynamics;
  std::optional<SizeRef> destination;
};

Value sizeOf(OpBuilder &b, Location loc, Value tensor, int64_t dim) {
  return getValueOrCreateConstantIndexOp(
      b, loc, tensor::getMixedSize(b, loc, tensor, dim));
}

void emitBroadcastAssert(OpBuilder &b, Location loc, const SizeGroup &group,
                         const std::string &what) {
  std::optional<int64_t> fixed;
  for (auto [operand, size] : group.statics)
    if (size != 1)
      fixed = size;
  bool dynamicDestination =
      group.destination &&
      cast<RankedTensorType>(group.destination->source.getType())
          .isDynamicDim(group.destination->dim);
  if (group.destination && !dynamicDestination)
    fixed = cast<RankedTensorType>(group.destination->source.getType())
                .getDimSize(group.destination->dim);
  // Static sizes were checked by the verifier; a lone dynamic size against
  // 1s always broadcasts.
  SmallVector<SizeRef> checked(group.dynamics);
  if (dynamicDestination)
    for (auto [operand, size] : group.statics)
      if (size != 1)
        checked.push_back({operand, -1, Value()});
  if (checked.empty() || (!fixed && !dynamicDestination && checked.size() == 1))
    return;
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value target;
  if (dynamicDestination) {
    target = sizeOf(b, loc, group.destination->source, group.destination->dim);
  } else if (fixed) {
    target = arith::ConstantIndexOp::create(b, loc, *fixed);
  } else {
    // The common size is the first dynamic size that is not 1.
    target = sizeOf(b, loc, checked.front().source, checked.front().dim);
    for (const SizeRef &d : llvm::drop_begin(checked)) {
      Value isOne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          target, one);
      target = arith::SelectOp::create(b, loc, isOne,
                                       sizeOf(b, loc, d.source, d.dim), target);
    }
  }
  for (const SizeRef &d : checked) {
    Value size;
    if (d.source) {
      size = sizeOf(b, loc, d.source, d.dim);
    } else {
      auto it = llvm::find_if(group.statics,
                              [&](auto &s) { return s.first == d.operand; });
      size = arith::ConstantIndexOp::create(b, loc, it->second);
    }
    Value isOne =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size, one);
    Value matches =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size, target);
    Value ok = arith::OrIOp::create(b, loc, isOne, matches);
    std::string message;
    llvm::raw_string_ostream os(message);
    os << what << ": operand #" << d.operand;
    if (d.source)
      os << " dim " << d.dim;
    os << " has a run-time size that does not broadcast: it must be 1 or ";
    if (dynamicDestination)
      os << "the destination's size there";
    else if (fixed)
      os << *fixed;
    else
      os << "the size of the other operands there";
    cf::AssertOp::create(b, loc, ok, message);
  }
}

/// Adds the sizes of `value` (right-aligned to `rank`, ignoring its last
/// `dropTrailing` dims) to `groups`.
void collectSizes(Value value, unsigned operand, int64_t rank,
                  int64_t dropTrailing, SmallVectorImpl<SizeGroup> &groups) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return;
  int64_t own = type.getRank() - dropTrailing;
  for (int64_t i = 0; i < own; ++i) {
    SizeGroup &group = groups[rank - own + i];
    if (type.isDynamicDim(i))
      group.dynamics.push_back({operand, i, value});
    else
      group.statics.push_back({operand, type.getDimSize(i)});
  }
}

void insertElementwiseChecks(Operation *op, ValueRange operands,
                             ValueRange inits, RankedTensorType inferred) {
  OpBuilder b(op);
  SmallVector<SizeGroup> groups(inferred.getRank());
  for (auto [i, v] : llvm::enumerate(operands))
    collectSizes(v, i, inferred.getRank(), 0, groups);
  // Every destination has the result's type, so the first one stands for all.
  if (!inits.empty())
    for (auto [dim, group] : llvm::enumerate(groups))
      group.destination =
          SizeRef{static_cast<unsigned>(operands.size()),
                  static_cast<int64_t>(dim), inits.front()};
  for (auto [dim, group] : llvm::enumerate(groups))
    emitBroadcastAssert(b, op->getLoc(), group,
                        describe(op) + ", result dimension " +
                            std::to_string(dim));
}

void insertMatmulChecks(MatmulOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto lhs = cast<RankedTensorType>(op.getLhs().getType());
  auto rhs = cast<RankedTensorType>(op.getRhs().getType());
  // Contracted dims: lhs's last, rhs's first (1-D) or second to last.
  int64_t lhsK = lhs.getRank() - 1;
  int64_t rhsK = rhs.getRank() == 1 ? 0 : rhs.getRank() - 2;
  if (lhs.isDynamicDim(lhsK) || rhs.isDynamicDim(rhsK)) {
    Value eq = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                     sizeOf(b, loc, op.getLhs(), lhsK),
                                     sizeOf(b, loc, op.getRhs(), rhsK));
    cf::AssertOp::create(b, loc, eq,
                         describe(op) +
                             ": contracted dimensions differ at run time");
  }
  int64_t lhsBatch = std::max<int64_t>(lhs.getRank() - 2, 0);
  int64_t rhsBatch = std::max<int64_t>(rhs.getRank() - 2, 0);
  int64_t batch = std::max(lhsBatch, rhsBatch);
  SmallVector<SizeGroup> groups(batch);
  collectSizes(op.getLhs(), 0, batch, lhs.getRank() - lhsBatch, groups);
  collectSizes(op.getRhs(), 1, batch, rhs.getRank() - rhsBatch, groups);
  for (auto [dim, group] : llvm::enumerate(groups))
    emitBroadcastAssert(b, loc, group,
                        describe(op) + ", batch dimension " +
                            std::to_string(dim));
}

/// amax, amin, argmax and argmin have no identity: a reduced dim of
/// dynamic size is checked to be nonzero at run time (static zeros are the
/// verifier's).
void insertReduceChecks(Operation *op, ReduceKind kind) {
  if (kind != ReduceKind::Max && kind != ReduceKind::Min &&
      kind != ReduceKind::Argmax && kind != ReduceKind::Argmin)
    return;
  Value input = op->getOperand(0);
  auto type = dyn_cast<RankedTensorType>(input.getType());
  std::optional<SmallVector<bool>> reduced = getReducedDims(op);
  if (!type || !reduced)
    return;
  OpBuilder b(op);
  Location loc = op->getLoc();
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!(*reduced)[d] || !type.isDynamicDim(d))
      continue;
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value nonzero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                          sizeOf(b, loc, input, d), zero);
    cf::AssertOp::create(b, loc, nonzero,
                         describe(op) + ": reduces axis " + std::to_string(d) +
                             " of run-time size 0: " +
                             reduceKindName(kind).str() +
                             " of an empty axis has no identity");
  }
}

bool hasDynamicOperand(ValueRange operands) {
  return llvm::any_of(operands, [](Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    return t && !t.hasStaticShape();
  });
}

/// Sets `result`'s type to `type`; users that are neither Stride ops nor
/// returns keep seeing the old type through a tensor.cast.
void setResultType(OpResult result, RankedTensorType type) {
  Type old = result.getType();
  if (old == type)
    return;
  result.setType(type);
  for (OpOperand &use : llvm::make_early_inc_range(result.getUses())) {
    Operation *user = use.getOwner();
    if (isa<StrideDialect>(user->getDialect()) || isa<func::ReturnOp>(user))
      continue;
    OpBuilder b(user);
    use.set(tensor::CastOp::create(b, user->getLoc(), old, result));
  }
}

/// An operand read through a cast to dynamic dims (`?x?x?` of a `2x1x5`
/// value) is read through a cast to the sizes the chain of casts knows,
/// with the cast's own encoding: the shape rules see the sizes, the layout
/// pass still the type the program wrote.
void refineCastOperand(OpOperand &operand) {
  auto target = dyn_cast<RankedTensorType>(operand.get().getType());
  if (!target || target.hasStaticShape())
    return;
  SmallVector<int64_t> shape(target.getShape());
  Value root = operand.get();
  while (auto cast = root.getDefiningOp<tensor::CastOp>()) {
    root = cast.getSource();
    auto source = dyn_cast<RankedTensorType>(root.getType());
    if (!source)
      continue;
    if (source.getRank() != target.getRank())
      return;
    for (int64_t d = 0; d < target.getRank(); ++d)
      if (ShapedType::isDynamic(shape[d]) && !source.isDynamicDim(d))
        shape[d] = source.getDimSize(d);
  }
  if (shape == target.getShape() || !isa<RankedTensorType>(root.getType()))
    return;
  OpBuilder b(operand.getOwner());
  operand.set(tensor::CastOp::create(
      b, operand.getOwner()->getLoc(),
      RankedTensorType::get(shape, target.getElementType(),
                            target.getEncoding()),
      root));
}

/// A Stride op reads its operand's shape, so a tensor.cast to `tensor<*xT>`
/// (a value passed through a declared type) hides what the rules need, and
/// an unranked operand cannot be bufferized: read the cast's source
/// instead. Destinations keep their casts, since they fix the result types.
void readThroughForgetfulCasts(Operation *op) {
  unsigned numOperands = op->getNumOperands();
  if (auto broadcast = dyn_cast<BroadcastOp>(op))
    numOperands = broadcast.getInputs().size();
  for (OpOperand &operand : op->getOpOperands().take_front(numOperands)) {
    Value value = operand.get();
    // A ranked target keeps its own meaning: without an encoding it says
    // row-major (docs/composition.md), even where the source gets a layout
    // only later, from stride-propagate-layout.
    while (auto cast = value.getDefiningOp<tensor::CastOp>()) {
      if (!isa<RankedTensorType>(cast.getSource().getType()) ||
          !isa<UnrankedTensorType>(cast.getType()))
        break;
      value = cast.getSource();
    }
    if (value != operand.get())
      operand.set(value);
    refineCastOperand(operand);
  }
}

struct StrideInferShapesPass
    : mlir::stride::impl::StrideInferShapesBase<StrideInferShapesPass> {
  using Base::Base;

  void runOnOperation() override {
    auto refineFunction = [&](func::FuncOp f) { return runOnFunction(f); };
    if (failed(refineModule(getOperation(), Refinement::Shape, refineFunction)))
      signalPassFailure();
  }

  LogicalResult runOnFunction(func::FuncOp func) {
    bool failedAny = false;
    func->walk([&](Operation *op) {
      if (!isa<StrideDialect>(op->getDialect()) || isa<YieldOp>(op))
        return;
      if (failed(inferOp(op)))
        failedAny = true;
    });
    if (failedAny)
      return failure();
    // Returned values may have been refined: update the signature. A value
    // returned through tensor.casts that only forget shape (to dynamic dims
    // or unranked, as a function declared `-> tensor<*xf32>` returns) is
    // returned as it is known: callers see the refined type through casts,
    // and an entry hands back a ranked buffer of the real shape.
    // The deepest value of the chain that knows every static size of the
    // returned type is returned: a chain may pass through a type that
    // forgets more than the end of it (`5x?` to `?x?` or `*` to `5x?`).
    func.walk([](func::ReturnOp ret) {
      for (OpOperand &operand : ret->getOpOperands()) {
        auto returned = dyn_cast<TensorType>(operand.get().getType());
        auto knowsReturnedSizes = [&](RankedTensorType type) {
          return !returned.hasRank() ||
                 llvm::none_of(
                     llvm::seq<int64_t>(0, type.getRank()), [&](int64_t d) {
                       return type.isDynamicDim(d) && !returned.isDynamicDim(d);
                     });
        };
        Value value = operand.get(), best = value;
        while (auto cast = value.getDefiningOp<tensor::CastOp>()) {
          value = cast.getSource();
          auto source = dyn_cast<RankedTensorType>(value.getType());
          if (source && knowsReturnedSizes(source))
            best = value;
        }
        operand.set(best);
      }
    });
    updateResultTypes(func, Refinement::Shape);
    return success();
  }

  LogicalResult inferOp(Operation *op) {
    auto shaped = dyn_cast<InferResultShapeOpInterface>(op);
    if (!shaped)
      return success();
    readThroughForgetfulCasts(op);
    FailureOr<RankedTensorType> inferred = shaped.inferResultShape();
    if (failed(inferred))
      return failure();
    if (!*inferred)
      return success();
    ValueRange operands = shaped.getBroadcastOperands();
    ValueRange inits = shaped.getDestinations();
    // A destination fixes its result's type: a result follows its
    // destination when that was refined (an entry specialized to its
    // arguments' shapes), so that the two stay equal.
    if (!inits.empty()) {
      for (auto [result, init] : llvm::zip(op->getResults(), inits)) {
        auto initType = dyn_cast<RankedTensorType>(init.getType());
        if (initType && result.getType() != initType &&
            succeeded(verifyCompatibleShape(result.getType(), initType)))
          setResultType(cast<OpResult>(result), initType);
      }
    } else {
      for (OpResult result : op->getResults()) {
        FailureOr<RankedTensorType> refined = refine(
            op, result.getResultNumber(), result.getType(), *inferred);
        if (failed(refined))
          return failure();
        setResultType(result, *refined);
      }
    }
    if (std::optional<ReduceKind> kind = getReduceKind(op)) {
      if (hasDynamicOperand(op->getOperands()) && !op->hasAttr(kCheckedAttr)) {
        insertReduceChecks(op, *kind);
        op->setAttr(kCheckedAttr, UnitAttr::get(op->getContext()));
      }
      return success();
    }
    if ((hasDynamicOperand(operands) || hasDynamicOperand(inits)) &&
        !op->hasAttr(kCheckedAttr)) {
      if (auto matmul = dyn_cast<MatmulOp>(op))
        insertMatmulChecks(matmul);
      else
        insertElementwiseChecks(op, operands, inits, *inferred);
      op->setAttr(kCheckedAttr, UnitAttr::get(op->getContext()));
    }
    return success();
  }
};
} // namespace
