//===- LinkSharedLibrary.cpp - Object file to shared library --------------===//
//
// Linking a shared library needs the C library's startup conventions and
// libm, which the system C compiler driver knows; so stride-compile invokes
// it (found at run time) instead of carrying a linker of its own.
//
//===----------------------------------------------------------------------===//

#include "stride/AOT/AotCompiler.h"

#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::stride;

std::string mlir::stride::linkSharedLibrary(StringRef objectPath,
                                            StringRef outputPath,
                                            unsigned threads, bool gpu) {
  const char *fromEnv = std::getenv("CC");
  std::string driver = fromEnv && *fromEnv ? fromEnv : "cc";
  std::string program = driver;
  if (!llvm::sys::path::has_parent_path(driver)) {
    llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName(driver);
    if (!found)
      return "cannot find the C compiler '" + driver +
             "' to link the shared library (install gcc, set CC, or use "
             "--emit=obj and link it yourself)";
    program = *found;
  }
  std::vector<std::string> args = {program, "-shared", "-o", outputPath.str(),
                                    objectPath.str()};
  if (threads > 1) {
    // Threaded kernels call the OpenMP runtime (__kmpc_*), LLVM's libomp:
    // record where it is so that the library loads without LD_LIBRARY_PATH.
    std::string omp = STRIDE_OMP_LIBRARY;
    args.push_back(omp);
    StringRef dir = llvm::sys::path::parent_path(omp);
    if (!dir.empty())
      args.push_back("-Wl,-rpath," + dir.str());
  }
  if (gpu) {
    // The host code calls the mgpu* runtime. $ORIGIN first, so a library
    // carried to another machine with libstride_gpu_runtime.so beside it
    // loads that copy.
    std::string runtime = STRIDE_GPU_RUNTIME_LIBRARY;
    args.push_back(runtime);
    args.push_back("-Wl,-rpath,$ORIGIN");
    StringRef dir = llvm::sys::path::parent_path(runtime);
    if (!dir.empty())
      args.push_back("-Wl,-rpath," + dir.str());
  }
  args.push_back("-lm");
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  std::string message;
  int status = llvm::sys::ExecuteAndWait(program, argRefs, std::nullopt, {},
                                         0, 0, &message);
  if (status != 0) {
    std::string command;
    for (const std::string &a : args)
      command += (command.empty() ? "" : " ") + a;
    return "linking the shared library failed (" +
           (message.empty() ? "exit status " + std::to_string(status)
                            : message) +
           "): " + command;
  }
  return "";
}
