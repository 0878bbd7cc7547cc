//===- StrideExec.h - The stride-exec command -------------------*- C++ -*-===//
//
// Runs an entry of a library written by stride-compile. No LLVM/MLIR
// dependency: only the runtime library and the C library's dlopen.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_EXEC_STRIDEEXEC_H
#define STRIDE_EXEC_STRIDEEXEC_H

namespace stride::exec {
/// The whole `stride-exec` command line tool; returns the exit status.
int strideExecMain(int argc, char **argv);
} // namespace stride::exec

#endif // STRIDE_EXEC_STRIDEEXEC_H
