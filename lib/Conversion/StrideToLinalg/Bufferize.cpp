//===- Bufferize.cpp - stride-bufferize: One-Shot for Stride modules ------===//

#include "Kernels.h"
#include "Preparation.h"

#include "stride/Conversion/Passes.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEBUFFERIZE
#include "stride/Conversion/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;
using namespace mlir::stride;

namespace {
struct StrideBufferizePass
    : mlir::stride::impl::StrideBufferizeBase<StrideBufferizePass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder builder(module.getContext());
    if (threads > 1)
      module.walk([&](Operation *op) {
        if (isa<BroadcastOp, MatmulOp>(op))
          op->setAttr(kThreadsAttr, builder.getI64IntegerAttr(threads));
      });
    SymbolTableCollection symbols;
    SymbolUserMap users(symbols, module);
    for (func::FuncOp func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && func.isPublic() &&
          users.getUsers(func).empty())
        resultsToDestinations(func);
    annotateArgumentBufferLayouts(module);

    bufferization::OneShotBufferizationOptions options;
    options.bufferizeFunctionBoundaries = true;
    options.allowReturnAllocsFromLoops = true;
    options.setFunctionBoundaryTypeConversion(
        bufferization::LayoutMapOption::InferLayoutMap);
    // linalg.copy lowers to loops; memref.copy of a strided buffer would
    // call memrefCopy from a runtime library the JIT does not load.
    options.memCpyFn = [](OpBuilder &b, Location loc, Value from, Value to) {
      linalg::CopyOp::create(b, loc, from, to);
      return success();
    };
    bufferization::BufferizationState state;
    if (failed(bufferization::runOneShotModuleBufferize(module, options,
                                                        state)))
      return signalPassFailure();
    for (func::FuncOp func : module.getOps<func::FuncOp>())
      dropOutputResults(func);
  }
};
} // namespace
