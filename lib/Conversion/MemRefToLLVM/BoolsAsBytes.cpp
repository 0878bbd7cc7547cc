//===- BoolsAsBytes.cpp - i1 memory accessed as bytes ---------------------===//
//
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "stride/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEBOOLSASBYTES
#include "stride/Conversion/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;

namespace {
struct StrideBoolsAsBytes
    : public stride::impl::StrideBoolsAsBytesBase<StrideBoolsAsBytes> {
  using Base::Base;

  void runOnOperation() override {
    auto isBool = [](Type type) { return type.isInteger(1); };
    Type byte = IntegerType::get(&getContext(), 8);
    OpBuilder builder(&getContext());
    getOperation().walk([&](LLVM::LoadOp load) {
      Value value = load.getResult();
      if (!isBool(value.getType()))
        return;
      value.setType(byte);
      builder.setInsertionPointAfter(load);
      auto trunc = LLVM::TruncOp::create(builder, load.getLoc(),
                                         builder.getI1Type(), value);
      value.replaceAllUsesExcept(trunc, trunc);
    });
    getOperation().walk([&](LLVM::StoreOp store) {
      if (!isBool(store.getValue().getType()))
        return;
      builder.setInsertionPoint(store);
      auto widened =
          LLVM::ZExtOp::create(builder, store.getLoc(), byte, store.getValue());
      store.getValueMutable().assign(widened);
    });
  }
};
} // namespace
