//===- DropGepNuw.cpp - No nuw on addresses with negative strides ---------===//

#include "stride/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEDROPGEPNUW
#include "stride/Conversion/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;

namespace {
struct StrideDropGepNuw
    : public stride::impl::StrideDropGepNuwBase<StrideDropGepNuw> {
  using Base::Base;

  void runOnOperation() override {
    constexpr auto nuw = static_cast<uint32_t>(LLVM::GEPNoWrapFlags::nuw);
    constexpr auto intNuw =
        static_cast<uint32_t>(LLVM::IntegerOverflowFlags::nuw);
    SmallVector<Value> work;
    getOperation().walk([&](LLVM::GEPOp gep) {
      auto flags = static_cast<uint32_t>(gep.getNoWrapFlags());
      if (!(flags & nuw))
        return;
      gep.setNoWrapFlags(static_cast<LLVM::GEPNoWrapFlags>(flags & ~nuw));
      llvm::append_range(work, gep.getDynamicIndices());
    });
    // The index's own sums and products (index times a negative stride)
    // carry nuw too; user arithmetic that does not feed an address keeps
    // its flags.
    DenseSet<Operation *> seen;
    while (!work.empty()) {
      Operation *def = work.pop_back_val().getDefiningOp();
      if (!def || !isa<LLVM::AddOp, LLVM::MulOp, LLVM::SubOp>(def) ||
          !seen.insert(def).second)
        continue;
      auto arith = cast<LLVM::IntegerOverflowFlagsInterface>(def);
      auto flags = static_cast<uint32_t>(arith.getOverflowFlags());
      arith.setOverflowFlags(
          static_cast<LLVM::IntegerOverflowFlags>(flags & ~intNuw));
      llvm::append_range(work, def->getOperands());
    }
  }
};
} // namespace
