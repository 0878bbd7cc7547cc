//===- RegisterAll.cpp - Stride's registration hooks ----------------------===//

#include "stride/InitAllDialects.h"
#include "stride/InitAllPasses.h"
#include "stride/InitAllPipelines.h"

#include "stride/Codegen/CPU/Passes.h"
#include "stride/Codegen/GPU/Passes.h"
#include "stride/Conversion/Passes.h"
#include "stride/Dialect/Stride/IR/StrideDialect.h"
#include "stride/Dialect/Stride/Transforms/BufferizableOpInterfaceImpl.h"
#include "stride/Dialect/Stride/Transforms/Passes.h"
#include "stride/Dialect/Stride/Transforms/ShardingInterfaceImpl.h"
#include "stride/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"

#include <mutex>

void stride::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::stride::StrideDialect, mlir::func::FuncDialect>();
  // Stride ops take part in One-Shot Bufferize through external models.
  mlir::stride::registerBufferizableOpInterfaceExternalModels(registry);
  // ... and in upstream sharding-propagation and shard-partition.
  mlir::stride::registerShardingInterfaceExternalModels(registry);
}

// MLIR's registry treats a second registration of a pipeline as a fatal
// error, and both the C API and C++ embedders may call these more than once.
void stride::registerAllPasses() {
  static std::once_flag once;
  std::call_once(once, [] {
    mlir::stride::registerStridePasses();
    mlir::stride::registerStrideConversionPasses();
    mlir::stride::registerStrideCodegenCPUPasses();
    mlir::stride::registerStrideCodegenGPUPasses();
  });
}

void stride::registerAllPipelines() {
  static std::once_flag once;
  std::call_once(once, [] { mlir::stride::registerStridePipelines(); });
}
