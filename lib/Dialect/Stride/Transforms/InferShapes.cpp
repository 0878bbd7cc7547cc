//===- InferShapes.cpp - Broadcast and matmul shape inference -------------===//

#include "stride/Dialect/Stride/IR/StrideOps.h"
#include "stride/Dialect/Stride/Transforms/Passes.h"

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
/// The most refined type that agrees with both `declared` and `inferred`.
RankedTensorType refine(Type declared, RankedTensorType inferred) {
  auto ranked = dyn_cast<RankedTensorType>(declared);
  if (!ranked || ranked.getRank() != inferred.getRank())
    return RankedTensorType::get(inferred.getShape(),
                                 cast<ShapedType>(declared).getElementType());
  SmallVector<int64_t> shape(inferred.getShape());
  for (auto [i, size] : llvm::enumerate(shape))
    if (ShapedType::isDynamic(size))
      size = ranked.getDimSize(i);
  return RankedTensorType::get(shape, ranked.getElementType(),
                               ranked.getEncoding());
}

std::string describe(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op->getName() << " at " << op->getLoc();
  return text;
}

/// Emits run-time checks for one group of sizes that must broadcast together:
/// every size is 1 or equal to the common size. `sizes` holds, per operand,
/// the static size or the Value of a dynamic one.
struct SizeGroup {
  SmallVector<std::pair<unsigned, int64_t>> statics; // (operand, size)
  SmallVector<std::pair<unsigned, Value>> dynamics;  // (operand, size)
};

void emitBroadcastAssert(OpBuilder &b, Location loc, const SizeGroup &group,
                         const std::string &what) {
  if (group.dynamics.empty())
    return;
  std::optional<int64_t> fixed;
  for (auto [operand, size] : group.statics)
    if (size != 1)
      fixed = size;
  if (!fixed && group.dynamics.size() == 1)
    return; // one dynamic size against 1s always broadcasts
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value target;
  if (fixed) {
    target = arith::ConstantIndexOp::create(b, loc, *fixed);
  } else {
    // The common size is the first dynamic size that is not 1.
    target = group.dynamics.front().second;
    for (auto [operand, size] : llvm::drop_begin(group.dynamics)) {
      Value isOne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          target, one);
      target = arith::SelectOp::create(b, loc, isOne, size, target);
    }
  }
  for (auto [operand, size] : group.dynamics) {
    Value isOne =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size, one);
    Value matches =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size, target);
    Value ok = arith::OrIOp::create(b, loc, isOne, matches);
    std::string message;
    llvm::raw_string_ostream os(message);
    os << what << ": operand #" << operand
       << " has a run-time size that does not broadcast with the other "
          "operands";
    cf::AssertOp::create(b, loc, ok, message);
  }
}

/// Adds the sizes of `value` (right-aligned to `rank`) to `groups`.
void collectSizes(OpBuilder &b, Location loc, Value value, unsigned operand,
                  int64_t rank, int64_t dropTrailing,
                  SmallVectorImpl<SizeGroup> &groups) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return;
  int64_t own = type.getRank() - dropTrailing;
  for (int64_t i = 0; i < own; ++i) {
    SizeGroup &group = groups[rank - own + i];
    if (type.isDynamicDim(i))
      group.dynamics.push_back(
          {operand, tensor::DimOp::create(b, loc, value, i).getResult()});
    else
      group.statics.push_back({operand, type.getDimSize(i)});
  }
}

void insertElementwiseChecks(Operation *op, ValueRange operands,
                             RankedTensorType inferred) {
  OpBuilder b(op);
  SmallVector<SizeGroup> groups(inferred.getRank());
  for (auto [i, v] : llvm::enumerate(operands))
    collectSizes(b, op->getLoc(), v, i, inferred.getRank(), 0, groups);
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
    auto sizeOf = [&](Value v, RankedTensorType t, int64_t d) -> Value {
      if (t.isDynamicDim(d))
        return tensor::DimOp::create(b, loc, v, d);
      return arith::ConstantIndexOp::create(b, loc, t.getDimSize(d));
    };
    Value eq = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                     sizeOf(op.getLhs(), lhs, lhsK),
                                     sizeOf(op.getRhs(), rhs, rhsK));
    cf::AssertOp::create(b, loc, eq,
                         describe(op) +
                             ": contracted dimensions differ at run time");
  }
  int64_t lhsBatch = std::max<int64_t>(lhs.getRank() - 2, 0);
  int64_t rhsBatch = std::max<int64_t>(rhs.getRank() - 2, 0);
  int64_t batch = std::max(lhsBatch, rhsBatch);
  SmallVector<SizeGroup> groups(batch);
  collectSizes(b, loc, op.getLhs(), 0, batch, lhs.getRank() - lhsBatch,
               groups);
  collectSizes(b, loc, op.getRhs(), 1, batch, rhs.getRank() - rhsBatch,
               groups);
  for (auto [dim, group] : llvm::enumerate(groups))
    emitBroadcastAssert(b, loc, group,
                        describe(op) + ", batch dimension " +
                            std::to_string(dim));
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

struct StrideInferShapesPass
    : mlir::stride::impl::StrideInferShapesBase<StrideInferShapesPass> {
  using Base::Base;

  void runOnOperation() override {
    bool failedAny = false;
    getOperation()->walk([&](Operation *op) {
      if (!isa<StrideDialect>(op->getDialect()) || isa<YieldOp>(op))
        return;
      if (failed(inferOp(op)))
        failedAny = true;
    });
    if (failedAny)
      return signalPassFailure();
    // Returned values may have been refined: update the signatures.
    getOperation()->walk([](func::FuncOp func) {
      if (func.isExternal())
        return;
      auto ret = cast<func::ReturnOp>(func.getBody().back().getTerminator());
      if (TypeRange(ret.getOperandTypes()) == func.getResultTypes())
        return;
      func.setType(FunctionType::get(func.getContext(), func.getArgumentTypes(),
                                     ret.getOperandTypes()));
    });
  }

  LogicalResult inferOp(Operation *op) {
    if (auto matmul = dyn_cast<MatmulOp>(op)) {
      FailureOr<RankedTensorType> inferred = inferMatmulResult(matmul);
      if (failed(inferred))
        return failure();
      if (!*inferred)
        return success();
      setResultType(matmul->getResult(0), refine(matmul.getType(), *inferred));
      if (hasDynamicOperand(op->getOperands()) && !op->hasAttr(kCheckedAttr)) {
        insertMatmulChecks(matmul);
        op->setAttr(kCheckedAttr, UnitAttr::get(op->getContext()));
      }
      return success();
    }
    ValueRange operands = op->getOperands();
    if (auto broadcast = dyn_cast<BroadcastOp>(op))
      operands = broadcast.getInputs();
    // The element type does not matter for the shape; each result keeps its.
    FailureOr<RankedTensorType> inferred = inferElementwiseResult(
        op, operands, IntegerType::get(op->getContext(), 1));
    if (failed(inferred))
      return failure();
    if (!*inferred)
      return success();
    auto broadcast = dyn_cast<BroadcastOp>(op);
    for (OpResult result : op->getResults()) {
      // A destination fixes its result's type.
      if (broadcast && !broadcast.getInits().empty())
        continue;
      setResultType(result, refine(result.getType(), *inferred));
    }
    if (hasDynamicOperand(operands) && !op->hasAttr(kCheckedAttr)) {
      insertElementwiseChecks(op, operands, *inferred);
      op->setAttr(kCheckedAttr, UnitAttr::get(op->getContext()));
    }
    return success();
  }
};
} // namespace
