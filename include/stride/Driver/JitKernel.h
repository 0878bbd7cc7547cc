//===- JitKernel.h - Compile and call Stride functions ----------*- C++ -*-===//
//
// Shared by stride-run and the Python package: compiles one function of a
// Stride module with the CPU pipeline into an ExecutionEngine and calls it
// with caller-owned buffers (destination passing).
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_DRIVER_JITKERNEL_H
#define STRIDE_DRIVER_JITKERNEL_H

#include "stride/Driver/CompileEntry.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::stride {

/// A strided buffer handed to a kernel: MLIR's memref descriptor, unpacked.
struct BufferArg {
  void *allocated = nullptr;
  void *aligned = nullptr;
  int64_t offset = 0;
  llvm::SmallVector<int64_t, 6> sizes, strides;
};

/// A scalar argument (the element-type table's union); the kernel reads it
/// as its declared type.
using ::stride::ScalarValue;

class JitKernel {
public:
  /// Lowers function `entry` of `module` (Stride ops on tensors; the module is
  /// modified: other functions are dropped) and JIT-compiles it. On failure
  /// returns null and sets `error`; diagnostics go to the context's handler.
  static std::unique_ptr<JitKernel>
  compile(ModuleOp module, StringRef entry,
          const StridePipelineOptions &options, std::string &error);

  /// The entry `entry` of a shared library written by stride-compile (or
  /// the disk cache): its metadata gives the parameters, its packed symbol
  /// the call. Null with `error` set when the file does not load, is not
  /// such a library, or lacks the entry; never calls into a library whose
  /// metadata does not parse.
  /// With `symbolPrefix`, the entry's exported symbol must be
  /// `<symbolPrefix><entry>` (how the disk cache recognizes its own file).
  static std::unique_ptr<JitKernel> loadLibrary(const std::string &path,
                                                StringRef entry,
                                                std::string &error,
                                                StringRef symbolPrefix = "");

  JitKernel(const JitKernel &) = delete;
  JitKernel &operator=(const JitKernel &) = delete;
  ~JitKernel();

  /// The kernel's inputs (the function's arguments) and outputs (one buffer
  /// per tensor result, passed after the inputs).
  ArrayRef<KernelParam> inputs() const { return inputParams; }
  ArrayRef<KernelParam> outputs() const { return outputParams; }

  /// Calls the kernel with the buffer params (inputs then outputs) taken in
  /// order from `buffers` and the scalar params from `scalars`. Returns an
  /// error message, or "" on success.
  std::string invoke(ArrayRef<BufferArg *> buffers,
                     ArrayRef<ScalarValue *> scalars);

private:
  JitKernel() = default;

  std::unique_ptr<ExecutionEngine> engine;
  /// A loaded library (dlopen handle) and its packed entry, which takes one
  /// pointer per parameter: to a descriptor, or to a scalar.
  void *library = nullptr;
  void (*libraryEntry)(void **) = nullptr;
  std::string name;
  /// The packed entry point, looked up once: a lookup by name costs
  /// microseconds, more than a small kernel runs.
  void (*packedEntry)(void **) = nullptr;
  std::vector<KernelParam> inputParams, outputParams;
};

/// The one rule by which every front door (the Python extension, the C API)
/// turns a caller's strided buffer (`data` addressing element [0, ..., 0],
/// sizes and element strides) into the descriptor of kernel parameter
/// `param`: the rank and every static size must match; a static stride must
/// match on a dim of size > 1, while any stride addresses a dim of size 0 or
/// 1 (the kernel's is used); a negative stride is taken where the kernel's
/// stride is static (so compiled for it), refused where it is dynamic. The
/// descriptor's base is the lowest address the buffer touches and its offset
/// leads back to element [0, ..., 0]. `elementSize` 0 means unknown (then a
/// negative stride is refused too). Returns "" or an error naming `what`,
/// the dim and the values.
std::string describeBuffer(void *data, int64_t elementSize,
                           ArrayRef<int64_t> sizes, ArrayRef<int64_t> strides,
                           const KernelParam &param,
                           llvm::function_ref<std::string()> what,
                           BufferArg &out);

/// The concrete shape and element strides of one tensor argument.
struct ArgLayout {
  std::vector<int64_t> shape, strides;
};

/// Specializes `entry` to concrete arguments: each tensor argument (an
/// ArgLayout; scalars are nullopt) gets its static shape and exactly these
/// strides as its layout. Fails with `error` when an argument does not fit
/// the declared type (rank, static sizes) or is unranked.
LogicalResult specializeEntry(func::FuncOp entry,
                              ArrayRef<std::optional<ArgLayout>> args,
                              std::string &error);

/// Registers everything a JIT context needs: Stride, the dialects the
/// pipeline produces, and the LLVM IR translations.
void registerJitDialects(DialectRegistry &registry);

} // namespace mlir::stride

#endif // STRIDE_DRIVER_JITKERNEL_H
