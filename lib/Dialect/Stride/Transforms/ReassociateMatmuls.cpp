//===- ReassociateMatmuls.cpp - Matrix product chains in the cheaper order ===//

#include "stride/Dialect/Stride/IR/StrideOps.h"
#include "stride/Dialect/Stride/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEREASSOCIATEMATMULS
#include "stride/Dialect/Stride/Transforms/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;
using namespace mlir::stride;

namespace {
/// A static operand of rank 1 or 2: its type and (rows, columns), a vector
/// being a row on the left of a product and a column on the right.
struct Factor {
  RankedTensorType type;
  int64_t rows = 1, columns = 1;
};

std::optional<Factor> factorOf(Value value, bool onTheLeft) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape() || type.getRank() < 1 ||
      type.getRank() > 2)
    return std::nullopt;
  Factor f{type};
  ArrayRef<int64_t> shape = type.getShape();
  if (shape.size() == 2) {
    f.rows = shape[0];
    f.columns = shape[1];
  } else if (onTheLeft) {
    f.columns = shape[0];
  } else {
    f.rows = shape[0];
  }
  return f;
}

/// Multiplies of an (m x k) times (k x n) product, saturating.
uint64_t cost(uint64_t m, uint64_t k, uint64_t n) {
  return llvm::SaturatingMultiply(llvm::SaturatingMultiply(m, k), n);
}

struct StrideReassociateMatmulsPass
    : mlir::stride::impl::StrideReassociateMatmulsBase<
          StrideReassociateMatmulsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (minGain < 1)
      return;
    SmallVector<MatmulOp> products;
    getOperation()->walk([&](MatmulOp op) { products.push_back(op); });
    for (MatmulOp op : products)
      reassociate(op);
  }

  /// Rewrites `op` = (a @ b) @ c into a @ (b @ c), or a @ (b @ c) into
  /// (a @ b) @ c, when the inner product is used only by `op` and the
  /// other order does at least minGain times fewer multiplies.
  void reassociate(MatmulOp op) {
    // The inner product must sit in the same block: one computed before a
    // loop and used in its body runs once, which the counts below ignore.
    auto movable = [&](MatmulOp inner) {
      return inner && inner->hasOneUse() && inner->getBlock() == op->getBlock();
    };
    auto inner = op.getLhs().getDefiningOp<MatmulOp>();
    bool innerOnTheLeft = movable(inner);
    if (!innerOnTheLeft) {
      inner = op.getRhs().getDefiningOp<MatmulOp>();
      if (!movable(inner))
        return;
    }
    Value a = innerOnTheLeft ? inner.getLhs() : op.getLhs();
    Value b = innerOnTheLeft ? inner.getRhs() : inner.getLhs();
    Value c = innerOnTheLeft ? op.getRhs() : inner.getRhs();
    std::optional<Factor> fa = factorOf(a, true), fb = factorOf(b, true),
                          fc = factorOf(c, false);
    auto result = dyn_cast<RankedTensorType>(op.getType());
    if (!fa || !fb || !fc || !result || fb->type.getRank() != 2)
      return;
    Type element = result.getElementType();
    for (const Factor &f : {*fa, *fb, *fc})
      if (f.type.getElementType() != element)
        return;
    int64_t m = fa->rows, k = fa->columns, n = fb->columns, p = fc->columns;
    if (fb->rows != k || fc->rows != n)
      return;
    uint64_t leftFirst = llvm::SaturatingAdd(cost(m, k, n), cost(m, n, p));
    uint64_t rightFirst = llvm::SaturatingAdd(cost(k, n, p), cost(m, k, p));
    uint64_t now = innerOnTheLeft ? leftFirst : rightFirst;
    uint64_t other = innerOnTheLeft ? rightFirst : leftFirst;
    if (llvm::SaturatingMultiply(other, uint64_t(minGain)) > now)
      return;

    OpBuilder builder(op);
    Location loc = op.getLoc();
    Value product;
    if (innerOnTheLeft) {
      // b @ c: k x p, or k when c is a vector.
      SmallVector<int64_t> shape{k};
      if (fc->type.getRank() == 2)
        shape.push_back(p);
      Value bc = MatmulOp::create(builder, loc,
                                  RankedTensorType::get(shape, element), b, c);
      product = MatmulOp::create(builder, loc, result, a, bc);
    } else {
      // a @ b: m x n, or n when a is a vector.
      SmallVector<int64_t> shape;
      if (fa->type.getRank() == 2)
        shape.push_back(m);
      shape.push_back(n);
      Value ab = MatmulOp::create(builder, loc,
                                  RankedTensorType::get(shape, element), a, b);
      product = MatmulOp::create(builder, loc, result, ab, c);
    }
    if (explainsDecisions(op))
      emitRemark(loc) << "stride-explain: reassociate: "
                      << (innerOnTheLeft ? "(A @ B) @ C runs as A @ (B @ C)"
                                         : "A @ (B @ C) runs as (A @ B) @ C")
                      << ": " << other << " multiplies instead of " << now;
    op.getResult().replaceAllUsesWith(product);
    op.erase();
    inner.erase();
  }
};
} // namespace
