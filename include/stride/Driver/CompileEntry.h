//===- CompileEntry.h - Entry selection and lowering to LLVM ----*- C++ -*-===//
//
// The steps that the JIT (stride-run, Python) and the ahead-of-time compiler
// (stride-compile) share, so that both compile a program the same way: which
// function is the entry, the Stride CPU pipeline down to the LLVM dialect,
// the kernel's parameters as the pipeline left them, and the host target
// machine whose CPU and features the code is optimized for.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_DRIVER_COMPILEENTRY_H
#define STRIDE_DRIVER_COMPILEENTRY_H

#include "stride/Pipelines/Pipelines.h"
#include "stride/Support/MLIRElementType.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::stride {

/// One parameter of the lowered kernel.
struct KernelParam {
  bool isBuffer = false;
  /// The element or scalar type; std::nullopt for a type that has no row in
  /// the element-type table (the kernel may still compile). Kept as a plain
  /// value: a kernel outlives the MLIRContext it was compiled in.
  std::optional<ElementType> element;
  std::string typeName;         // as MLIR prints it, for messages
  std::vector<int64_t> shape;   // buffers; kDynamic where unknown
  std::vector<int64_t> strides; // buffers; kDynamic where unknown
};

/// The program in file `path` (`-` for stdin), parsed with its buffer in
/// `sourceMgr` so that diagnostics can quote it. Null with `error` set ("cannot
/// parse '<path>'" after the parser's diagnostics) on failure.
OwningOpRef<ModuleOp> parseProgramFile(StringRef path,
                                       llvm::SourceMgr &sourceMgr,
                                       MLIRContext &context,
                                       std::string &error);

/// The entry function of `module`: `wanted` if given, else @main, else the
/// only function. Null with `error` set (naming `fileName` and the functions
/// there are) when there is no such function with a body.
func::FuncOp selectEntry(ModuleOp module, StringRef wanted, StringRef fileName,
                         std::string &error);

/// The kernel's inputs (the entry's arguments) and outputs (one buffer per
/// tensor result, passed by the caller after the inputs).
struct LoweredEntry {
  std::vector<KernelParam> inputs, outputs;
};

/// Lowers function `entry` of `module` (Stride ops on tensors) with the CPU
/// pipeline to the LLVM dialect. The module is modified: other functions are
/// dropped. With `emitCInterface` the entry also gets MLIR's C interface
/// (`_mlir_ciface_<entry>`, memrefs passed as descriptor pointers). On
/// failure returns std::nullopt and sets `error`; diagnostics go to the
/// context's handler.
std::optional<LoweredEntry>
lowerEntryToLLVM(ModuleOp module, StringRef entry,
                 const StridePipelineOptions &options, bool emitCInterface,
                 std::string &error);

/// Runs stride-infer-shapes and stride-propagate-layout (results laid out by
/// `policy`) on `module`: the result types an entry gets for its inputs,
/// without compiling it. Diagnostics go to the context's handler.
LogicalResult inferLayouts(ModuleOp module, ::stride::layout::Policy policy);

/// A target machine for this very CPU (its features included) at -O3. Without
/// one LLVM's cost model reports no vector registers and the loop vectorizer
/// does nothing. `positionIndependent` for code that goes into a shared
/// library. Null with `error` set on failure.
std::unique_ptr<llvm::TargetMachine>
createHostTargetMachine(bool positionIndependent, std::string &error);

} // namespace mlir::stride

#endif // STRIDE_DRIVER_COMPILEENTRY_H
