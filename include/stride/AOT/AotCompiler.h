//===- AotCompiler.h - Ahead-of-time compilation of Stride ------*- C++ -*-===//
//
// stride-compile's library: lowers entries of a Stride module with the same
// pipeline as the JIT, exports each as a C function taking strided memref
// descriptors, embeds the layout metadata that stride-exec reads, and writes
// an object file, a shared library and a C header.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_AOT_AOTCOMPILER_H
#define STRIDE_AOT_AOTCOMPILER_H

#include "stride/Layout/Strides.h"
#include "stride/Pipelines/Pipelines.h"
#include "stride/Runtime/AotMetadata.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::stride {

struct AotOptions {
  ::stride::layout::Policy policy = ::stride::layout::Policy::Torch;
  bool fuse = true;
  unsigned threads = 1;
  /// Keep the layouts declared on results (see StridePipelineOptions).
  bool keepResultLayouts = false;
  /// Target::Gpu: kernels in an embedded GPU binary, host code calling the
  /// mgpu* runtime (libstride_gpu_runtime); the library also exports the
  /// string kAotTargetSymbol = "gpu". Libraries are built for Cpu or Gpu.
  Target target = Target::Cpu;
  /// Exported C functions are named <prefix><entry>.
  std::string symbolPrefix = "stride_";
  /// --distribute N: each entry is compiled for one of N ranks (its
  /// declared static shapes split by stride-distribute with `strategy`);
  /// the metadata records the global parameters and their split dims.
  std::string distribute; // "4" or "2x2"; empty: one process
  std::string strategy = "auto";
};

/// Everything compiled from one module: one LLVM module holding every entry,
/// its packed wrapper and the metadata symbol; the lowered MLIR (LLVM
/// dialect) of each entry, for --emit=mlir.
struct AotModule {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  ::stride::runtime::AotMetadata metadata;
  std::string loweredMlir;
};

/// Compiles functions `entries` of `module` (which is not modified) for
/// `targetMachine`, optimized at -O3. On failure returns std::nullopt and sets
/// `error` (diagnostics go to the context's handler).
std::optional<AotModule> compileAot(ModuleOp module,
                                    ArrayRef<std::string> entries,
                                    const AotOptions &options,
                                    llvm::TargetMachine &targetMachine,
                                    std::string &error);

/// Writes `module` as a relocatable object. Returns "" or an error.
std::string emitObjectFile(llvm::Module &module,
                           llvm::TargetMachine &targetMachine,
                           StringRef path);

/// Links `objectPath` into the shared library `outputPath` with the system C
/// compiler ($CC, else `cc` on PATH), adding the OpenMP runtime when
/// `threads` > 1 and libstride_gpu_runtime when `gpu` (found next to the
/// library first, then where it was built). Returns "" or an error naming
/// what is missing.
std::string linkSharedLibrary(StringRef objectPath, StringRef outputPath,
                              unsigned threads, bool gpu = false);

/// The C header declaring every entry of `metadata`: descriptor structs, the
/// functions, and each parameter's shape and strides as constants.
std::string formatCHeader(const ::stride::runtime::AotMetadata &metadata,
                          StringRef guardName);

/// The layout graph of `func` as written: a node per result of a Stride op,
/// the function's results as references. On failure returns std::nullopt
/// and sets `error` to why (a sentence fragment naming the op that makes a
/// tensor without a layout rule).
std::optional<::stride::layout::LayoutGraph>
extractLayoutGraph(func::FuncOp func, ::stride::layout::Policy policy,
                   std::string &error);

/// The whole `stride-compile` command line tool; returns the exit status.
int strideCompileMain(int argc, char **argv);

} // namespace mlir::stride

#endif // STRIDE_AOT_AOTCOMPILER_H
