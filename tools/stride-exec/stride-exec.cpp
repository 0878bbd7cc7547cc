//===- stride-exec.cpp - Runs kernels compiled by stride-compile ----------===//

#include "stride/ToolMains.h"

int main(int argc, char **argv) { return stride::strideExecMain(argc, argv); }
