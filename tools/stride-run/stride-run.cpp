//===- stride-run.cpp - JIT runner for Stride programs --------------------===//

#include "stride/Runner/StrideRun.h"

int main(int argc, char **argv) { return mlir::stride::strideRunMain(argc, argv); }
