//===- Threads.cpp - The drivers' thread-count rule -----------------------===//

#include "stride/Driver/Threads.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <thread>

using namespace mlir::stride;

namespace {
/// The value of $STRIDE_NUM_THREADS when it is a positive integer.
std::optional<unsigned> threadsFromEnvironment() {
  const char *text = std::getenv("STRIDE_NUM_THREADS");
  unsigned value = 0;
  if (!text || llvm::StringRef(text).trim().getAsInteger(10, value) ||
      value == 0)
    return std::nullopt;
  return value;
}
} // namespace

unsigned mlir::stride::resolveThreads(unsigned requested) {
  if (requested > 0)
    return requested;
  if (std::optional<unsigned> fromEnv = threadsFromEnvironment())
    return *fromEnv;
  return std::max(1u, std::thread::hardware_concurrency());
}

std::string mlir::stride::checkThreadsEnvironment() {
  const char *text = std::getenv("STRIDE_NUM_THREADS");
  if (!text || threadsFromEnvironment())
    return "";
  return "STRIDE_NUM_THREADS must be a positive integer, got '" +
         std::string(text) + "'";
}
