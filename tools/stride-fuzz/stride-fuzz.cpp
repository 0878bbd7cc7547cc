//===- stride-fuzz.cpp - libFuzzer target for the Stride compiler ---------===//
//
// Feeds each input through parse, verify and the Stride CPU pipeline (both
// halves). Only diagnostics are allowed: a crash, an assertion, a sanitizer
// report or a hang is a bug. Inputs with ops outside the dialects a Stride
// program composes with are dropped, so the fuzzer spends its time on
// Stride's code and its composition (calls, scf loops and branches, tensor
// slices and casts, linalg on tensors, as the lit seeds have them) rather
// than on upstream passes fed IR they were never meant to see (gpu, llvm,
// memref-level code).
//
//===----------------------------------------------------------------------===//

#include "stride/Dialect/Stride/IR/StrideDialect.h"
#include "stride/Driver/CompileEntry.h"
#include "stride/Driver/JitKernel.h"
#include "stride/Pipelines/Pipelines.h"
#include "stride/Support/GuardedParse.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;

// The sanitizer defaults of scripts/test.sh, so that a finding replayed by
// hand (`stride-fuzz FILE`) behaves as in the test run: libMLIR is not
// instrumented, and LLVM's allocators inlined into Stride's code poison
// slabs that libMLIR then hands out without unpoisoning, which reads as a
// false use-after-poison in the parser. ASAN_OPTIONS still overrides.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0:detect_leaks=1:allocator_may_return_null=1";
}

static bool isStrideProgram(ModuleOp module) {
  static const llvm::StringSet<> allowed = {
      "builtin", "func", "arith", "math", "stride", "cf", "scf", "tensor",
      "linalg"};
  bool ok = true;
  module.walk([&](Operation *op) {
    if (!allowed.contains(op->getName().getDialectNamespace()))
      ok = false;
  });
  return ok;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const DialectRegistry registry = [] {
    DialectRegistry r;
    mlir::stride::registerJitDialects(r);
    return r;
  }();
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });
  // The MLIR lexer reads up to a terminating NUL, which fuzzer data lacks.
  std::string text(reinterpret_cast<const char *>(data), size);
  // Parsed as Stride's front doors parse (stride-run, stride-compile,
  // Python): with the guard against MLIR 22's linalg list parsers.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(text, "<fuzz>"),
                               llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      mlir::stride::parseStrideSource(sourceMgr, context);
  if (!module || failed(verify(*module)) || !isStrideProgram(*module))
    return 0;
  // The input's size picks the policy, fusion and threading, so that every
  // option's code path is reached.
  mlir::stride::StridePipelineOptions options;
  static const ::stride::layout::Policy policies[] = {
      ::stride::layout::Policy::Torch, ::stride::layout::Policy::Numpy,
      ::stride::layout::Policy::Contiguous};
  options.policy = policies[size % 3];
  options.fuse = (size / 3) % 2 == 0;
  options.threads = (size / 6) % 2 + 1;
  PassManager toLinalg(&context);
  mlir::stride::buildStrideToLinalgPipeline(toLinalg, options);
  if (failed(toLinalg.run(*module)))
    return 0;
  PassManager toLLVM(&context);
  mlir::stride::buildStrideLoweringPipeline(toLLVM, options);
  (void)toLLVM.run(*module);
  return 0;
}
