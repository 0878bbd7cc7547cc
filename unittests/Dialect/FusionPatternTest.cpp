//===- FusionPatternTest.cpp - stride.broadcast fusion as patterns --------===//
//
// The fusion rewrite used outside stride-fuse: populateStrideFusionPatterns
// under the greedy driver, with a caller's ControlFusionFn.
//
//===----------------------------------------------------------------------===//

#include "stride/Dialect/Stride/IR/StrideOps.h"
#include "stride/Dialect/Stride/Transforms/Fusion.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::stride;

namespace {
// (x + 1) * x, then exp of that, as three one-op broadcasts.
constexpr const char *kChain = R"mlir(
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stride.broadcast ins(%x : tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32):
    %one = arith.constant 1.0 : f32
    %r = arith.addf %a, %one : f32
    stride.yield %r : f32
  }
  %1 = stride.broadcast ins(%0, %x : tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.mulf %a, %b : f32
    stride.yield %r : f32
  }
  %2 = stride.broadcast ins(%1 : tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32):
    %r = math.exp %a : f32
    stride.yield %r : f32
  }
  return %2 : tensor<8xf32>
}
)mlir";

class FusionPatternTest : public ::testing::Test {
protected:
  FusionPatternTest() {
    context.loadDialect<StrideDialect, func::FuncDialect, arith::ArithDialect,
                        math::MathDialect>();
  }

  /// Fuses kChain with `control` under the greedy driver; returns the number
  /// of stride.broadcast ops left and the number of fusions counted.
  std::pair<int, int> fuse(const ControlFusionFn &control) {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(kChain, &context);
    EXPECT_TRUE(module);
    int fusions = 0;
    RewritePatternSet patterns(&context);
    populateStrideFusionPatterns(patterns, control, {[&] { ++fusions; }, {}});
    // Constants must stay in the bodies that use them.
    GreedyRewriteConfig config;
    config.enableConstantCSE(false);
    EXPECT_TRUE(succeeded(
        applyPatternsGreedily(module->getOperation(), std::move(patterns),
                              config)));
    EXPECT_TRUE(succeeded(verify(module->getOperation())));
    int left = 0;
    module->walk([&](BroadcastOp op) {
      ++left;
      // Every body is self-contained: it reads only its own arguments and
      // values it defines.
      op.getBody().walk([&](Operation *nested) {
        for (Value v : nested->getOperands())
          EXPECT_TRUE(op->isProperAncestor(v.getParentBlock()->getParentOp()) ||
                      v.getParentBlock()->getParentOp() == op);
      });
    });
    return {left, fusions};
  }

  MLIRContext context;
};

TEST_F(FusionPatternTest, AlwaysFusesTheWholeChain) {
  EXPECT_EQ(fuse([](OpOperand *) { return true; }), std::make_pair(1, 2));
}

TEST_F(FusionPatternTest, ControlFunctionKeepsProducers) {
  EXPECT_EQ(fuse([](OpOperand *) { return false; }), std::make_pair(3, 0));
}

TEST_F(FusionPatternTest, ControlFunctionSeesTheFusedOperand) {
  // Never fuse into a consumer that computes exp: only (x + 1) * x merges.
  auto control = [](OpOperand *operand) {
    auto consumer = cast<BroadcastOp>(operand->getOwner());
    return !llvm::any_of(consumer.getBodyBlock(), [](Operation &op) {
      return isa<math::ExpOp>(op);
    });
  };
  EXPECT_EQ(fuse(control), std::make_pair(2, 1));
}

TEST_F(FusionPatternTest, RecomputeRuleIsStrideFusesRule) {
  EXPECT_EQ(fuse(recomputeRule(2)), std::make_pair(1, 2));
}
} // namespace
