//===- StrideCompile.cpp - The stride-compile command ---------------------===//
//
// Reads a Stride program and compiles the chosen entries ahead of time into
// a shared library (or an object file, or the lowered MLIR or LLVM IR) plus
// an optional C header. The options and their errors are stride-run's.
//
//===----------------------------------------------------------------------===//

#include "stride/AOT/AotCompiler.h"

#include "stride/Driver/CompileEntry.h"
#include "stride/Driver/JitKernel.h"
#include "stride/Driver/ToolOptions.h"
#include "stride/Layout/Strides.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::stride;
namespace cl = llvm::cl;

namespace {

int fail(const llvm::Twine &message) {
  llvm::errs() << "stride-compile: error: " << message << "\n";
  return 1;
}

/// Writes `text` to `path` ("-" is stdout).
std::string writeText(StringRef path, StringRef text) {
  std::string error;
  auto file = openOutputFile(path, &error);
  if (!file)
    return error;
  file->os() << text;
  file->keep();
  return "";
}

/// STRIDE_<NAME>_H from the header's file name.
std::string headerGuard(StringRef path) {
  std::string guard = "STRIDE_";
  for (char c : llvm::sys::path::filename(path))
    guard += llvm::isAlnum(c) ? static_cast<char>(llvm::toUpper(c)) : '_';
  return guard;
}

} // namespace

int mlir::stride::strideCompileMain(int argc, char **argv) {
  static cl::OptionCategory category("stride-compile options");
  static CompileToolOptions compile(category,
                                    CompileToolOptions::Tool::Compile);
  static cl::opt<std::string> outputFile(
      "o", cl::desc("Output file (default: stdout for --emit=mlir|llvm)"),
      cl::value_desc("path"), cl::cat(category));
  static cl::opt<std::string> headerFile(
      "header", cl::desc("Also write a C header declaring the entries"),
      cl::value_desc("path"), cl::cat(category));
  static cl::list<std::string> entryNames(
      "entry",
      cl::desc("A function to export (repeatable; default: every function "
               "with a body)"),
      cl::cat(category));
  static cl::opt<std::string> emit(
      "emit",
      cl::desc("What to write: shared (a shared library, default), obj, "
               "mlir (the LLVM dialect) or llvm (optimized LLVM IR)"),
      cl::init("shared"), cl::cat(category));
  static cl::opt<std::string> target(
      "target",
      cl::desc("Where the kernels run: cpu (the host CPU) or gpu (sm_90 "
               "kernels in an embedded fatbin, PTX without ptxas; the "
               "library links libstride_gpu_runtime)"),
      cl::init("cpu"), cl::cat(category));
  static cl::opt<std::string> symbolPrefix(
      "symbol-prefix",
      cl::desc("Exported functions are named <prefix><entry>"),
      cl::init("stride_"), cl::cat(category));
  static cl::opt<std::string> distribute(
      "distribute",
      cl::desc("Compile each entry for one of N MPI processes, or of a grid "
               "NxM... (its static shapes split by stride-distribute); run "
               "the library with mpirun -np N stride-exec"),
      cl::cat(category));
  static cl::opt<std::string> strategy(
      "distribute-strategy",
      cl::desc("With --distribute: auto (default), rows, cols or k"),
      cl::init("auto"), cl::cat(category));
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "Stride ahead-of-time compiler\n");

  if (target != "cpu" && target != "gpu")
    return fail("unknown --target '" + target + "'; expected cpu or gpu");
  if (target == "gpu" && compile.threads > 1)
    return fail("--num-threads applies to --target=cpu only");
  if (emit != "shared" && emit != "obj" && emit != "mlir" && emit != "llvm")
    return fail("unknown --emit '" + emit +
                "'; expected shared, obj, mlir or llvm");
  if (outputFile.empty() && (emit == "shared" || emit == "obj"))
    return fail("give the output file with -o");

  DialectRegistry registry;
  registerJitDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  std::string parseError;
  OwningOpRef<ModuleOp> module =
      parseProgramFile(compile.inputFile, sourceMgr, context, parseError);
  if (!module)
    return fail(parseError);

  std::vector<std::string> entries;
  for (const std::string &name : entryNames) {
    std::string error;
    func::FuncOp entry = selectEntry(*module, name, compile.inputFile, error);
    if (!entry)
      return fail(error);
    entries.push_back(entry.getName().str());
  }
  if (entryNames.empty()) {
    for (func::FuncOp func : module->getOps<func::FuncOp>())
      if (!func.isExternal())
        entries.push_back(func.getName().str());
    if (entries.empty())
      return fail("'" + compile.inputFile + "' has no functions with a body");
  }

  std::string error;
  std::unique_ptr<llvm::TargetMachine> targetMachine =
      createHostTargetMachine(/*positionIndependent=*/true, error);
  if (!targetMachine)
    return fail(error);
  AotOptions options;
  options.policy = compile.policy.getValue();
  options.fuse = !compile.noFuse;
  options.threads = std::max(1u, compile.threads.getValue());
  options.target = *parseTarget(target);
  options.symbolPrefix = symbolPrefix;
  // "0" is one process, as when --distribute was a count.
  options.distribute = distribute == "0" ? "" : distribute.getValue();
  options.strategy = strategy;
  if (!options.distribute.empty() && compile.dynamicShapes)
    return fail("--distribute needs static shapes; drop --dynamic");
  std::optional<AotModule> compiled =
      compileAot(*module, entries, options, *targetMachine, error);
  if (!compiled)
    return fail(error);

  std::string output = outputFile.empty() ? "-" : outputFile.getValue();
  if (emit == "mlir") {
    error = writeText(output, compiled->loweredMlir);
  } else if (emit == "llvm") {
    std::string text;
    llvm::raw_string_ostream(text) << *compiled->module;
    error = writeText(output, text);
  } else if (emit == "obj") {
    error = emitObjectFile(*compiled->module, *targetMachine, output);
  } else {
    SmallString<128> object;
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("stride-aot", "o", object))
      return fail("cannot create a temporary object file: " + ec.message());
    error = emitObjectFile(*compiled->module, *targetMachine, object);
    if (error.empty())
      error = linkSharedLibrary(object, output, options.threads,
                                options.target == Target::Gpu);
    llvm::sys::fs::remove(object);
  }
  if (!error.empty())
    return fail(error);

  if (!headerFile.empty()) {
    error = writeText(headerFile, formatCHeader(compiled->metadata,
                                                headerGuard(headerFile)));
    if (!error.empty())
      return fail(error);
  }
  return 0;
}
