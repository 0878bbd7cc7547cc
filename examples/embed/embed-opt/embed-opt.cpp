//===- embed-opt.cpp - A compiler driver that embeds Stride ---------------===//
//
// What another MLIR-based compiler does to use Stride: register upstream MLIR
// and Stride through Stride's three hooks, and build its own pipeline that
// runs Stride's passes among upstream ones. Linked against the installed
// package (find_package(Stride)), not Stride's build tree.
//
//===----------------------------------------------------------------------===//

#include "stride/Dialect/Stride/Transforms/Passes.h"
#include "stride/InitAllDialects.h"
#include "stride/InitAllPasses.h"
#include "stride/InitAllPipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

namespace {
struct EmbedPipelineOptions
    : public mlir::PassPipelineOptions<EmbedPipelineOptions> {
  Option<::stride::layout::Policy> policy{
      *this, "policy", llvm::cl::desc("Stride's layout policy"),
      llvm::cl::init(::stride::layout::Policy::Torch),
      mlir::stride::policyOptionValues()};
};

/// The host compiler's cleanup, then Stride's analyses and fusion on the
/// Stride functions (other functions pass through untouched), then cleanup
/// again. Stride's passes are used one by one through their C++ API.
void buildEmbedPipeline(mlir::OpPassManager &pm,
                        const EmbedPipelineOptions &options) {
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(mlir::stride::createStrideInferShapes());
  pm.addPass(mlir::stride::createStridePropagateLayout(
      mlir::stride::StridePropagateLayoutOptions{options.policy, false}));
  pm.addPass(mlir::stride::createStrideGeneralize());
  pm.addPass(mlir::stride::createStrideFuse());
  pm.addPass(mlir::stride::createStrideCoalesce());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
}
} // namespace

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  stride::registerAllPasses();
  stride::registerAllPipelines();
  mlir::PassPipelineRegistration<EmbedPipelineOptions>(
      "embed-pipeline",
      "Upstream cleanup around Stride's shape, layout and fusion passes",
      buildEmbedPipeline);

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  stride::registerAllDialects(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "embed-opt: a driver embedding Stride\n", registry));
}
