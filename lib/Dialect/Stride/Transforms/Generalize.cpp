//===- Generalize.cpp - Named elementwise ops to stride.broadcast ---------===//

#include "stride/Dialect/Stride/IR/StrideOps.h"
#include "stride/Dialect/Stride/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEGENERALIZE
#include "stride/Dialect/Stride/Transforms/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;
using namespace mlir::stride;

namespace {
// A walk rather than the greedy driver: each named op is rewritten exactly
// once and nothing else (dead ops, constants) is touched.
struct StrideGeneralizePass
    : mlir::stride::impl::StrideGeneralizeBase<StrideGeneralizePass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<ScalarBodyOpInterface> named;
    getOperation()->walk(
        [&](ScalarBodyOpInterface op) { named.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (ScalarBodyOpInterface op : named)
      generalizeNamedOp(rewriter, op);
  }
};
} // namespace
