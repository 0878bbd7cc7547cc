//===- stride-run.cpp - JIT runner for Stride programs --------------------===//

#include "stride/ToolMains.h"

int main(int argc, char **argv) { return stride::strideRunMain(argc, argv); }
