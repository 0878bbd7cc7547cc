//===- Expm1ToLibm.cpp - math.expm1 as libm's expm1 -----------------------===//
//
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "stride/Codegen/CPU/Transforms.h"

#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEEXPM1TOLIBM
#include "stride/Codegen/CPU/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;

namespace {
struct StrideExpm1ToLibmPass
    : mlir::stride::impl::StrideExpm1ToLibmBase<StrideExpm1ToLibmPass> {
  using Base::Base;

  void runOnOperation() override {
    // Upstream's math-to-libm patterns, applied to math.expm1 alone: every
    // other op is legal, so it stays for convert-math-to-llvm (intrinsics
    // the kernel optimizer maps to vector variants).
    RewritePatternSet patterns(&getContext());
    populateMathToLibmConversionPatterns(patterns);
    ConversionTarget target(getContext());
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    target.addIllegalOp<math::ExpM1Op>();
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
