//===- ToolOptions.h - Options the compiling tools share --------*- C++ -*-===//
//
// stride-run and stride-compile both read a program and compile it with the
// front half of the pipeline: the positional input file and the options
// that choose how (--policy, --dynamic, --num-threads, --no-fuse) are
// declared once, here, so that both tools spell and parse them alike.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_DRIVER_TOOLOPTIONS_H
#define STRIDE_DRIVER_TOOLOPTIONS_H

#include "stride/Layout/Strides.h"

#include "llvm/Support/CommandLine.h"

#include <string>

namespace mlir::stride {

/// The shared options, registered in the tool's `category` when constructed
/// (make it a function-local static, like the tool's other options). The
/// help of --dynamic and --num-threads, and the default thread count, depend
/// on the tool: the JIT specializes to its inputs and resolves 0 threads to
/// the environment; a library is compiled as written, for 1 thread unless
/// told otherwise.
struct CompileToolOptions {
  enum class Tool { Run, Compile };
  CompileToolOptions(llvm::cl::OptionCategory &category, Tool tool);

  llvm::cl::opt<std::string> inputFile;
  llvm::cl::opt<::stride::layout::Policy> policy;
  llvm::cl::opt<bool> dynamicShapes;
  llvm::cl::opt<unsigned> threads;
  llvm::cl::opt<bool> noFuse;
};

} // namespace mlir::stride

#endif // STRIDE_DRIVER_TOOLOPTIONS_H
