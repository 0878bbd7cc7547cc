//===- stride-compile.cpp - Ahead-of-time compiler for Stride programs ----===//

#include "stride/AOT/AotCompiler.h"

int main(int argc, char **argv) {
  return mlir::stride::strideCompileMain(argc, argv);
}
