//===- Coalesce.cpp - Loop order and dimension coalescing -----------------===//

#include "stride/Dialect/Stride/IR/StrideOps.h"
#include "stride/Dialect/Stride/Transforms/Passes.h"
#include "stride/Layout/Coalesce.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/Debug.h"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDECOALESCE
#include "stride/Dialect/Stride/Transforms/Passes.h.inc"
} // namespace mlir::stride

#define DEBUG_TYPE "stride-coalesce"

using namespace mlir;
using namespace mlir::stride;
namespace layout = ::stride::layout;

namespace {
/// Strides of `type` right-aligned to `rank`, with stride 0 for dims it
/// broadcasts along; nullopt when a stride or size is unknown.
std::optional<layout::Strides> alignedStrides(Type type,
                                              ArrayRef<int64_t> outShape) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked) // a scalar: the same element everywhere
    return layout::Strides(outShape.size(), 0);
  if (!ranked.hasStaticShape())
    return std::nullopt;
  SmallVector<int64_t> strides = getStridesOf(ranked);
  if (llvm::any_of(strides, ShapedType::isDynamic))
    return std::nullopt;
  layout::Strides aligned(outShape.size(), 0);
  size_t offset = outShape.size() - strides.size();
  for (auto [i, stride] : llvm::enumerate(strides))
    aligned[offset + i] =
        ranked.getDimSize(i) == 1 && outShape[offset + i] != 1 ? 0 : stride;
  return aligned;
}

struct StrideCoalescePass
    : mlir::stride::impl::StrideCoalesceBase<StrideCoalescePass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation()->walk([&](BroadcastOp op) {
      auto result = dyn_cast<RankedTensorType>(op.getResult(0).getType());
      if (!result || result.getRank() == 0 || !result.hasStaticShape()) {
        ++numSkipped;
        return;
      }
      ArrayRef<int64_t> outShape = result.getShape();
      // Outputs first, as TensorIterator orders its operands.
      std::vector<layout::Strides> strides;
      for (Value v : op.getResults()) {
        std::optional<layout::Strides> s = alignedStrides(v.getType(), outShape);
        if (!s) {
          ++numSkipped;
          return;
        }
        strides.push_back(*s);
      }
      for (Value v : op.getInputs()) {
        std::optional<layout::Strides> s = alignedStrides(v.getType(), outShape);
        if (!s) {
          ++numSkipped;
          LLVM_DEBUG(llvm::dbgs() << "[stride-coalesce] unknown strides: "
                                  << op->getLoc() << "\n");
          return;
        }
        strides.push_back(*s);
      }
      layout::IterationSpace space = layout::coalesce(
          layout::Shape(outShape.begin(), outShape.end()), strides);
      // The algebra lists loops and the dims inside each innermost first;
      // the attribute reads outermost first.
      Builder b(op.getContext());
      SmallVector<Attribute> groups;
      for (const std::vector<int64_t> &dims : llvm::reverse(space.dims))
        groups.push_back(b.getDenseI64ArrayAttr(
            SmallVector<int64_t>(dims.rbegin(), dims.rend())));
      op.setIterationAttr(b.getArrayAttr(groups));
      ++numOrdered;
      numDimsMerged += outShape.size() - space.dims.size();
      LLVM_DEBUG(llvm::dbgs() << "[stride-coalesce] " << op->getLoc() << ": "
                              << outShape.size() << " dims in "
                              << space.dims.size() << " loops\n");
    });
  }
};
} // namespace
