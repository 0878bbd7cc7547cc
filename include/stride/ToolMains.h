//===- ToolMains.h - The command line tools' logic --------------*- C++ -*-===//
//
// Each tool under tools/ is a `main` that calls one of these, so that its
// logic lives in a library that tests and embedders can link. Each returns
// the tool's exit status.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_TOOLMAINS_H
#define STRIDE_TOOLMAINS_H

namespace stride {
/// `stride-run` (library StrideDriver): compile an entry with the JIT and run
/// it on .npy or random inputs.
int strideRunMain(int argc, char **argv);
/// `stride-exec` (library StrideExec, no LLVM/MLIR dependency: only the
/// runtime library and the C library's dlopen): run an entry of a library
/// written by stride-compile.
int strideExecMain(int argc, char **argv);
} // namespace stride

#endif // STRIDE_TOOLMAINS_H
