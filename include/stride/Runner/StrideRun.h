//===- StrideRun.h - The stride-run command -------------------------*- C++ -*-===//

#ifndef STRIDE_RUNNER_STRIDERUN_H
#define STRIDE_RUNNER_STRIDERUN_H

namespace mlir::stride {
/// The whole `stride-run` command line tool; returns the exit status.
int strideRunMain(int argc, char **argv);
} // namespace mlir::stride

#endif // STRIDE_RUNNER_STRIDERUN_H
