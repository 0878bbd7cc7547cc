//===- BufferLayouts.cpp - Function argument layouts for One-Shot ---------===//

#include "Kernels.h"
#include "Preparation.h"

#include "stride/Dialect/Stride/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEBUFFERLAYOUTS
#include "stride/Dialect/Stride/Transforms/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;
using namespace mlir::stride;

void mlir::stride::annotateArgumentBufferLayouts(ModuleOp module) {
  StringRef name = bufferization::BufferizationDialect::kBufferLayoutAttrName;
  module.walk([&](func::FuncOp func) {
    if (func.isExternal())
      return;
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || func.getArgAttr(i, name))
        continue;
      func.setArgAttr(i, name, memrefTypeFor(tensor).getLayout());
    }
  });
}

namespace {
struct StrideBufferLayoutsPass
    : mlir::stride::impl::StrideBufferLayoutsBase<StrideBufferLayoutsPass> {
  using Base::Base;
  void runOnOperation() override {
    annotateArgumentBufferLayouts(getOperation());
  }
};
} // namespace
