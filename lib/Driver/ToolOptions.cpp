//===- ToolOptions.cpp - Options the compiling tools share ----------------===//

#include "stride/Driver/ToolOptions.h"

#include "stride/Dialect/Stride/Transforms/PolicyOption.h"

using namespace mlir::stride;
namespace cl = llvm::cl;

namespace {
const char *dynamicHelp(CompileToolOptions::Tool tool) {
  if (tool == CompileToolOptions::Tool::Run)
    return "Compile the function as written (dynamic dims stay dynamic) "
           "instead of specializing it to the inputs' shapes and strides";
  return "Compile the functions as written (always so ahead of time: there "
         "are no inputs to specialize to; accepted for stride-run "
         "compatibility)";
}

const char *threadsHelp(CompileToolOptions::Tool tool) {
  if (tool == CompileToolOptions::Tool::Run)
    return "Run large kernels on this many threads (OpenMP; default "
           "$STRIDE_NUM_THREADS, else the machine's cores)";
  return "Run large kernels on this many threads (OpenMP; the library then "
         "links LLVM's libomp; default 1)";
}
} // namespace

CompileToolOptions::CompileToolOptions(cl::OptionCategory &category, Tool tool)
    : inputFile(cl::Positional, cl::Required, cl::desc("<program.mlir>"),
                cl::cat(category)),
      policy("policy",
             cl::desc("Result strides of: torch (default), numpy, contiguous"),
             cl::init(::stride::layout::Policy::Torch), policyOptionValues(),
             cl::cat(category)),
      dynamicShapes("dynamic", cl::desc(dynamicHelp(tool)), cl::cat(category)),
      threads("num-threads", cl::desc(threadsHelp(tool)),
              cl::init(tool == Tool::Run ? 0 : 1), cl::cat(category)),
      noFuse("no-fuse",
             cl::desc("Do not fuse elementwise expressions (one kernel per "
                      "op)"),
             cl::cat(category)) {}
