//===- stride-opt.cpp - Stride optimizer driver ---------------------------===//
//
// mlir-opt with Stride: every upstream dialect, extension and pass, plus what
// Stride's registration hooks add. Embedders build the same tool from the same
// calls (examples/embed).
//
//===----------------------------------------------------------------------===//

#include "stride/InitAllDialects.h"
#include "stride/InitAllPasses.h"
#include "stride/InitAllPipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  stride::registerAllPasses();
  stride::registerAllPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  stride::registerAllDialects(registry);
  // gpu-module-to-binary translates kernels to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Stride optimizer driver\n", registry));
}
