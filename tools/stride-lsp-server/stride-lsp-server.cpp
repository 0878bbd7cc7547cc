//===- stride-lsp-server.cpp - MLIR language server with Stride -----------===//
//
// mlir-lsp-server knowing the Stride dialect: editors get Stride's parser and
// verifier diagnostics, hover and go-to-definition on .mlir files. It
// registers the same dialects as stride-opt, so a file that stride-opt
// accepts is clean in the editor too.
//
//===----------------------------------------------------------------------===//

#include "stride/InitAllDialects.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  stride::registerAllDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
