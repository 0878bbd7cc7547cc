//===- Threads.h - The drivers' thread-count rule ---------------*- C++ -*-===//
//
// The pipelines take a thread count as an option and never read the
// environment; the drivers (stride-run, stride-compile, Python, the C API)
// resolve a request of 0 threads here, once, before they build one.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_DRIVER_THREADS_H
#define STRIDE_DRIVER_THREADS_H

#include <string>

namespace mlir::stride {

/// The thread count a driver's request of `requested` threads means: itself
/// when positive; for 0, a positive integer in $STRIDE_NUM_THREADS, else the
/// machine's hardware threads (as PyTorch, numexpr and OpenBLAS default to).
unsigned resolveThreads(unsigned requested);
/// Checks $STRIDE_NUM_THREADS: empty when unset or a positive integer, else
/// a message naming the bad value (tools report it instead of ignoring it).
std::string checkThreadsEnvironment();

} // namespace mlir::stride

#endif // STRIDE_DRIVER_THREADS_H
