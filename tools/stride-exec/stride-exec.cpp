//===- stride-exec.cpp - Runs kernels compiled by stride-compile ----------===//

#include "stride/Exec/StrideExec.h"

int main(int argc, char **argv) { return stride::exec::strideExecMain(argc, argv); }
