//===- CodegenFunctionsTest.cpp - Codegen as functions, no pass manager ---===//
//
// The CPU and GPU code generation called as the functions of
// stride/Codegen/*/Transforms.h, the way an embedding compiler would:
// each must rewrite what its pass rewrites, take the pass's options struct,
// and fail with a message on a bad option.
//
//===----------------------------------------------------------------------===//

#include "stride/Codegen/CPU/Transforms.h"
#include "stride/Codegen/GPU/Transforms.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <functional>
#include <string>

using namespace mlir;

namespace {
constexpr const char *kMatmul = R"mlir(
#mk = affine_map<(m, k, n) -> (m, k)>
#kn = affine_map<(m, k, n) -> (k, n)>
#mn = affine_map<(m, k, n) -> (m, n)>
func.func @sgemm(%a: memref<100x300xf32>, %b: memref<300x70xf32>, %c: memref<100x70xf32>) {
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<100x300xf32>, memref<300x70xf32>) outs(%c : memref<100x70xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}
)mlir";

constexpr const char *kTransposedAdd = R"mlir(
#id = affine_map<(i, j) -> (i, j)>
func.func @transposed_add(%a: memref<512x512xf32, strided<[1, 512]>>, %b: memref<512x512xf32>, %c: memref<512x512xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<512x512xf32, strided<[1, 512]>>, memref<512x512xf32>) outs(%c : memref<512x512xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}
)mlir";

constexpr const char *kExpAdd = R"mlir(
#id = affine_map<(i) -> (i)>
func.func @exp_add(%a: memref<300xf32>, %out: memref<300xf32>) {
  %t = memref.alloc() : memref<300xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<300xf32>) outs(%t : memref<300xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%t, %a : memref<300xf32>, memref<300xf32>) outs(%out : memref<300xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  memref.dealloc %t : memref<300xf32>
  return
}
)mlir";

class CodegenFunctions : public ::testing::Test {
protected:
  CodegenFunctions() {
    DialectRegistry registry;
    linalg::registerTilingInterfaceExternalModels(registry);
    context.appendDialectRegistry(registry);
    context.loadDialect<
        func::FuncDialect, linalg::LinalgDialect, memref::MemRefDialect,
        arith::ArithDialect, math::MathDialect, scf::SCFDialect,
        vector::VectorDialect, affine::AffineDialect, gpu::GPUDialect>();
  }

  OwningOpRef<ModuleOp> parse(const char *text) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
    EXPECT_TRUE(module);
    return module;
  }

  /// How many ops named `name` `module` holds.
  static int count(ModuleOp module, StringRef name) {
    int n = 0;
    module->walk(
        [&](Operation *op) { n += op->getName().getStringRef() == name; });
    return n;
  }

  MLIRContext context;
};

/// The last diagnostic `run` emits in `context`, and whether it failed.
template <typename Fn>
std::pair<bool, std::string> diagnosed(MLIRContext &context, Fn run) {
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    message = d.str();
    return success();
  });
  bool failedRun = failed(run());
  return {failedRun, message};
}

TEST_F(CodegenFunctions, TileMatmulsBuildsFmaMicroKernels) {
  OwningOpRef<ModuleOp> module = parse(kMatmul);
  ASSERT_TRUE(succeeded(stride::tileMatmuls(*module)));
  EXPECT_TRUE(succeeded(verify(*module)));
  // Register blocks of 8 rows become 8 FMAs per outer product, in scf.for
  // cache and register loops; peeled edges stay linalg.generic.
  EXPECT_GE(count(*module, "vector.fma"), 8);
  EXPECT_GE(count(*module, "scf.for"), 3);
}

// Each function refuses an option out of range with the pass's message,
// and rewrites nothing.
TEST_F(CodegenFunctions, OptionsOutOfRangeAreErrors) {
  struct Case {
    const char *module;
    std::function<LogicalResult(ModuleOp)> run;
    const char *message;
  };
  stride::StrideTileMatmulOptions tile;
  tile.cacheK = 0;
  stride::StrideBlockTransposesOptions block;
  block.registerBytes = -1;
  stride::StrideMapLinalgToGpuOptions gpu;
  gpu.blockSize = 2048;
  const Case cases[] = {
      {kMatmul, [&](ModuleOp m) { return stride::tileMatmuls(m, tile); },
       "stride-tile-matmul option cache-k is 0"},
      {kTransposedAdd,
       [&](ModuleOp m) { return stride::blockTransposes(m, block); },
       "stride-block-transposes option register-bytes is -1"},
      {kExpAdd, [&](ModuleOp m) { return stride::mapLinalgToGpu(m, gpu); },
       "block-size must be in [1, 1024], got 2048"},
  };
  for (const Case &c : cases) {
    OwningOpRef<ModuleOp> module = parse(c.module);
    int generics = count(*module, "linalg.generic");
    auto [failedRun, message] =
        diagnosed(context, [&] { return c.run(*module); });
    EXPECT_TRUE(failedRun) << c.message;
    EXPECT_NE(message.find(c.message), std::string::npos) << message;
    EXPECT_EQ(count(*module, "linalg.generic"), generics) << c.message;
    EXPECT_EQ(count(*module, "scf.for"), 0) << c.message;
  }
}

TEST_F(CodegenFunctions, BlockTransposesReadsLinesAndShuffles) {
  OwningOpRef<ModuleOp> module = parse(kTransposedAdd);
  stride::StrideBlockTransposesOptions options;
  options.tileBytes = 256;
  ASSERT_TRUE(succeeded(stride::blockTransposes(*module, options)));
  EXPECT_TRUE(succeeded(verify(*module)));
  EXPECT_GE(count(*module, "memref.transpose"), 1);
  EXPECT_GE(count(*module, "vector.shuffle"), 1);
  // The versions for rows on and off cache lines.
  EXPECT_EQ(count(*module, "scf.if"), 1);
}

TEST_F(CodegenFunctions, GpuMappingAllocationAndHostLoops) {
  OwningOpRef<ModuleOp> module = parse(kExpAdd);
  stride::StrideMapLinalgToGpuOptions options;
  options.blockSize = 64;
  ASSERT_TRUE(succeeded(stride::mapLinalgToGpu(*module, options)));
  EXPECT_EQ(count(*module, "gpu.launch"), 2);
  EXPECT_EQ(count(*module, "linalg.generic"), 0);

  stride::allocateOnDevice(*module);
  EXPECT_EQ(count(*module, "memref.alloc"), 0);
  EXPECT_EQ(count(*module, "gpu.alloc"), 1);
  EXPECT_EQ(count(*module, "gpu.dealloc"), 1);

  // The host emulation of the same launches (what the tests run).
  OwningOpRef<ModuleOp> host = parse(kExpAdd);
  ASSERT_TRUE(succeeded(stride::mapLinalgToGpu(*host, options)));
  ASSERT_TRUE(succeeded(stride::launchesToHostLoops(*host)));
  EXPECT_TRUE(succeeded(verify(*host)));
  EXPECT_EQ(count(*host, "gpu.launch"), 0);
  EXPECT_GE(count(*host, "scf.for"), 2);
}

} // namespace

namespace {
// Without linalg's TilingInterface models, tiling is an error, not a crash.
TEST(CodegenFunctionsUnregistered, TilingWithoutModelsIsAnError) {
  MLIRContext context;
  context
      .loadDialect<func::FuncDialect, linalg::LinalgDialect,
                   memref::MemRefDialect, arith::ArithDialect, scf::SCFDialect,
                   vector::VectorDialect, affine::AffineDialect>();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kMatmul, &context);
  ASSERT_TRUE(module);
  auto [failedRun, message] =
      diagnosed(context, [&] { return stride::tileMatmuls(*module); });
  EXPECT_TRUE(failedRun);
  EXPECT_NE(message.find("TilingInterface models are not registered"),
            std::string::npos)
      << message;
}
} // namespace
