//===- Kernel.cpp - C API: compile and call Stride kernels ----------------===//
//
// A thin layer over JitKernel (the engine behind stride-run and Python): it
// specializes the entry to the caller's layouts, compiles a copy of the
// module, and turns the caller's (data, sizes, strides) into memref
// descriptors after checking them against the kernel's parameters.
//
//===----------------------------------------------------------------------===//

#include "stride-c/Kernel.h"

#include "stride/Driver/JitKernel.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

using namespace mlir;
using namespace mlir::stride;

namespace {
/// A kernel and the C views of its parameters.
struct CKernel {
  std::unique_ptr<JitKernel> kernel;
  std::vector<StrideKernelParam> inputs, outputs;
};
} // namespace

static CKernel *unwrapKernel(StrideKernel kernel) {
  return static_cast<CKernel *>(kernel.ptr);
}

static void report(MlirStringCallback onError, void *userData,
                   const std::string &message) {
  if (onError)
    onError(mlirStringRefCreate(message.data(), message.size()), userData);
}

// The C enum and union are ABI and stay spelled out in stride-c/Kernel.h;
// they must be the element-type table's, row by row.
#define STRIDE_CHECK_C_ROW(E, id, T, descr, numpy, cls, getter)                \
  static_assert(static_cast<int>(StrideElement##E) ==                          \
                    static_cast<int>(ElementType::E),                          \
                "StrideElementKind must follow the element-type table");       \
  static_assert(std::is_same_v<decltype(StrideScalar::id), T>,                 \
                "StrideScalar::" #id " must have the table's C type");
STRIDE_ELEMENT_TYPES(STRIDE_CHECK_C_ROW)
#undef STRIDE_CHECK_C_ROW
static_assert(StrideElementUnsupported == ::stride::kNumElementTypes,
              "StrideElementUnsupported follows the table's rows");
static_assert(sizeof(StrideScalar) == sizeof(ScalarValue),
              "a StrideScalar is copied into a ScalarValue");

static StrideElementKind toC(std::optional<ElementType> type) {
  return type ? static_cast<StrideElementKind>(*type)
              : StrideElementUnsupported;
}

static StrideKernelParam toC(const KernelParam &param) {
  return {param.isBuffer, toC(param.element),
          static_cast<intptr_t>(param.shape.size()), param.shape.data(),
          param.strides.data()};
}

StrideKernel strideKernelCompile(MlirModule module, MlirStringRef entry,
                                 intptr_t numArgs, const StrideBuffer *args,
                                 MlirStringRef options,
                                 MlirStringCallback onError, void *userData) {
  StringRef entryName = unwrap(entry);
  auto fail = [&](const std::string &message) {
    report(onError, userData, "cannot compile @" + entryName.str() + ": " +
                                  message);
    return StrideKernel{nullptr};
  };
  if (mlirModuleIsNull(module))
    return fail("the module is null");
  ModuleOp original = unwrap(module);
  MLIRContext *context = original.getContext();

  StridePipelineOptions pipelineOptions;
  std::string optionsError;
  llvm::raw_string_ostream optionsErrorStream(optionsError);
  if (failed(pipelineOptions.parseFromString(unwrap(options),
                                             optionsErrorStream)))
    return fail("invalid options '" + unwrap(options).str() +
                "': " + StringRef(optionsError).trim().str());

  // The JIT translates the lowered module to LLVM IR.
  DialectRegistry translations;
  registerBuiltinDialectTranslation(translations);
  registerLLVMDialectTranslation(translations);
  registerOpenMPDialectTranslation(translations);
  context->appendDialectRegistry(translations);

  OwningOpRef<ModuleOp> copy(original.clone());
  auto func = copy->lookupSymbol<func::FuncOp>(entryName);
  if (!func)
    return fail("the module has no function named '" + entryName.str() + "'");
  if (args) {
    std::vector<std::optional<ArgLayout>> layouts;
    for (intptr_t i = 0; i < numArgs; ++i) {
      const StrideBuffer &arg = args[i];
      if (arg.rank < 0) {
        layouts.push_back(std::nullopt);
        continue;
      }
      if (arg.rank > 0 && (!arg.sizes || !arg.strides))
        return fail("argument #" + std::to_string(i) + " has rank " +
                    std::to_string(arg.rank) + " but no sizes or strides");
      layouts.push_back(ArgLayout{
          std::vector<int64_t>(arg.sizes, arg.sizes + arg.rank),
          std::vector<int64_t>(arg.strides, arg.strides + arg.rank)});
    }
    std::string error;
    if (failed(specializeEntry(func, layouts, error)))
      return fail(error);
  }

  // Diagnostics from the pipeline go into the message and on to the
  // caller's handlers.
  std::string diagnostics;
  ScopedDiagnosticHandler collect(context, [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error) {
      llvm::raw_string_ostream os(diagnostics);
      os << "\n";
      if (!isa<UnknownLoc>(d.getLocation()))
        os << d.getLocation() << ": ";
      os << d;
    }
    return failure();
  });
  std::string error;
  std::unique_ptr<JitKernel> kernel =
      JitKernel::compile(*copy, entryName, pipelineOptions, error);
  if (!kernel)
    return fail(error + diagnostics);

  auto *result = new CKernel{std::move(kernel), {}, {}};
  for (const KernelParam &param : result->kernel->inputs())
    result->inputs.push_back(toC(param));
  for (const KernelParam &param : result->kernel->outputs())
    result->outputs.push_back(toC(param));
  return StrideKernel{result};
}

void strideKernelDestroy(StrideKernel kernel) { delete unwrapKernel(kernel); }

intptr_t strideKernelGetNumInputs(StrideKernel kernel) {
  return unwrapKernel(kernel)->inputs.size();
}

intptr_t strideKernelGetNumOutputs(StrideKernel kernel) {
  return unwrapKernel(kernel)->outputs.size();
}

StrideKernelParam strideKernelGetInput(StrideKernel kernel, intptr_t pos) {
  return unwrapKernel(kernel)->inputs[pos];
}

StrideKernelParam strideKernelGetOutput(StrideKernel kernel, intptr_t pos) {
  return unwrapKernel(kernel)->outputs[pos];
}

/// The memref descriptor of `buffer` for `param` by the drivers' one rule
/// (describeBuffer, which the Python extension uses too), or an error.
static std::string describe(const StrideBuffer &buffer,
                            const KernelParam &param, const std::string &what,
                            BufferArg &out) {
  int64_t rank = param.shape.size();
  if (buffer.rank != rank)
    return what + " has rank " + std::to_string(buffer.rank) +
           ", the kernel expects rank " + std::to_string(rank);
  if (!buffer.data)
    return what + " has a null data pointer";
  if (rank > 0 && (!buffer.sizes || !buffer.strides))
    return what + " has no sizes or strides";
  int64_t elementSize =
      param.element ? ::stride::elementSize(*param.element) : 0;
  return describeBuffer(
      buffer.data, elementSize, ArrayRef<int64_t>(buffer.sizes, rank),
      ArrayRef<int64_t>(buffer.strides, rank), param, [&] { return what; },
      out);
}

MlirLogicalResult strideKernelCall(StrideKernel kernel, intptr_t numBuffers,
                                   const StrideBuffer *buffers,
                                   intptr_t numScalars,
                                   const StrideScalar *scalars,
                                   MlirStringCallback onError,
                                   void *userData) {
  CKernel *k = unwrapKernel(kernel);
  auto fail = [&](const std::string &message) {
    report(onError, userData, message);
    return mlirLogicalResultFailure();
  };
  if (!k)
    return fail("cannot call a null kernel");
  std::vector<const KernelParam *> bufferParams;
  intptr_t expectedScalars = 0;
  for (const KernelParam &param : k->kernel->inputs()) {
    if (param.isBuffer)
      bufferParams.push_back(&param);
    else
      ++expectedScalars;
  }
  size_t numInputBuffers = bufferParams.size();
  for (const KernelParam &param : k->kernel->outputs())
    bufferParams.push_back(&param);
  if (numBuffers != static_cast<intptr_t>(bufferParams.size()))
    return fail("the kernel takes " + std::to_string(bufferParams.size()) +
                " buffers (" + std::to_string(numInputBuffers) +
                " inputs, then outputs), got " + std::to_string(numBuffers));
  if (numScalars != expectedScalars)
    return fail("the kernel takes " + std::to_string(expectedScalars) +
                " scalars, got " + std::to_string(numScalars));

  std::vector<BufferArg> descriptors(numBuffers);
  std::vector<BufferArg *> bufferPtrs;
  for (intptr_t i = 0; i < numBuffers; ++i) {
    size_t index = i;
    std::string what =
        index < numInputBuffers
            ? "input buffer #" + std::to_string(index)
            : "output buffer #" + std::to_string(index - numInputBuffers);
    if (std::string e =
            describe(buffers[i], *bufferParams[i], what, descriptors[i]);
        !e.empty())
      return fail(e);
    bufferPtrs.push_back(&descriptors[i]);
  }
  std::vector<ScalarValue> scalarValues(numScalars);
  std::vector<ScalarValue *> scalarPtrs;
  size_t nextScalar = 0;
  for (const KernelParam &param : k->kernel->inputs()) {
    if (param.isBuffer)
      continue;
    ScalarValue &value = scalarValues[nextScalar];
    const StrideScalar &given = scalars[nextScalar++];
    if (!param.element)
      return fail("scalar argument of type " + param.typeName +
                  " is not supported");
    // Same layout, member by member (checked above): the declared type's
    // bytes carry over.
    std::memcpy(&value, &given, ::stride::elementSize(*param.element));
    scalarPtrs.push_back(&value);
  }
  if (std::string e = k->kernel->invoke(bufferPtrs, scalarPtrs); !e.empty())
    return fail(e);
  return mlirLogicalResultSuccess();
}
