//===- stride-opt.cpp - Stride optimizer driver ---------------------------===//

#include "stride/Conversion/Passes.h"
#include "stride/Dialect/Stride/IR/StrideDialect.h"
#include "stride/Dialect/Stride/Transforms/Passes.h"
#include "stride/Pipelines/GpuPipeline.h"
#include "stride/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::stride::registerStridePasses();
  mlir::stride::registerStrideConversionPasses();
  mlir::stride::registerStridePipelines();
  mlir::stride::registerStrideGpuPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::stride::StrideDialect>();
  // gpu-module-to-binary translates kernels to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Stride optimizer driver\n", registry));
}
