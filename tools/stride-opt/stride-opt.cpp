//===- stride-opt.cpp - Stride optimizer driver ---------------------------===//
//
// mlir-opt with Stride: every upstream dialect, extension and pass, plus what
// Stride's registration hooks add. Embedders build the same tool from the same
// calls (examples/embed). The input is checked by the parse guard first:
// MLIR 22's linalg list parsers crash on some malformed input.
//
//===----------------------------------------------------------------------===//

#include "stride/InitAllDialects.h"
#include "stride/InitAllPasses.h"
#include "stride/InitAllPipelines.h"
#include "stride/Support/GuardedParse.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <unistd.h>

// Reads the input once to check it. A file is read again by MlirOptMain;
// stdin is copied into an unlinked temporary file put in its place, so that
// MlirOptMain reads the same text and still names it <stdin>. False with
// the error printed when the input is refused.
static bool checkInput(const std::string &inputFilename) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file =
      mlir::openInputFile(inputFilename, &error);
  if (!file)
    return true; // MlirOptMain reports it
  if (inputFilename == "-") {
    FILE *copy = std::tmpfile();
    if (!copy ||
        std::fwrite(file->getBufferStart(), 1, file->getBufferSize(), copy) !=
            file->getBufferSize() ||
        std::fflush(copy) != 0 || std::fseek(copy, 0, SEEK_SET) != 0 ||
        dup2(fileno(copy), STDIN_FILENO) < 0) {
      llvm::errs() << "stride-opt: cannot buffer stdin\n";
      return false;
    }
  }
  size_t at = mlir::stride::findUnparsableLinalgList(file->getBuffer());
  if (at == llvm::StringRef::npos)
    return true;
  mlir::MLIRContext context;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  mlir::stride::emitUnparsableLinalgList(sourceMgr, at, context);
  return false;
}

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

  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "Stride optimizer driver\n", registry);
  if (!checkInput(inputFilename))
    return EXIT_FAILURE;
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
}
