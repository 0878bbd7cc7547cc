//===- JitKernel.cpp - Compile and call Stride functions ------------------===//

#include "stride/Driver/JitKernel.h"

#include "stride/Dialect/Stride/IR/StrideOps.h"
#include "stride/Dialect/Stride/Transforms/BufferizableOpInterfaceImpl.h"
#include "stride/Dialect/Stride/Transforms/ShardingInterfaceImpl.h"
#include "stride/Driver/Threads.h"
#include "stride/Pipelines/GpuPipeline.h"
#include "stride/Pipelines/LLVMOptimization.h"
#include "stride/Runtime/AotMetadata.h"
#include "stride/Runtime/TemporaryCache.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>

using namespace mlir;
using namespace mlir::stride;

namespace {
/// The GPU runtime library the JIT loads for GPU kernels: the build's (or
/// install's) where it exists, else the one a relocated package holds
/// relative to the binary this code is linked into.
const char *gpuRuntimeLibrary() {
  static const std::string path = [] {
    std::string configured = STRIDE_GPU_RUNTIME_LIBRARY;
    if (llvm::sys::fs::exists(configured))
      return configured;
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&gpuRuntimeLibrary), &info) &&
        info.dli_fname) {
      StringRef dir = llvm::sys::path::parent_path(info.dli_fname);
      // A wheel: beside the extension; an install: <prefix>/lib, two
      // levels above <prefix>/python_packages/stride.
      for (llvm::SmallString<256> candidate :
           {llvm::SmallString<256>(dir),
            llvm::SmallString<256>(llvm::sys::path::parent_path(
                llvm::sys::path::parent_path(dir)))}) {
        if (candidate != dir)
          llvm::sys::path::append(candidate, "lib");
        llvm::sys::path::append(candidate, "libstride_gpu_runtime.so");
        if (llvm::sys::fs::exists(candidate))
          return std::string(candidate);
      }
    }
    return configured;
  }();
  return path.c_str();
}
} // namespace

void mlir::stride::registerJitDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registry.insert<StrideDialect>();
  registerBufferizableOpInterfaceExternalModels(registry);
  registerShardingInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
  // --target=gpu: kernels serialized by gpu-module-to-binary, embedded by
  // the gpu.binary translation.
  registerGPUDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
}

/// A Stride op's result has its destination's type; where an argument that
/// is a destination was specialized, its results (and any op they are a
/// destination of, in turn) take the new type. Users of other dialects keep
/// the old type through a tensor.cast, as the arguments' users do.
static void retypeDestinationResults(Value value) {
  SmallVector<Value> work{value};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (OpOperand &use : llvm::make_early_inc_range(v.getUses())) {
      auto op = dyn_cast<InferResultShapeOpInterface>(use.getOwner());
      if (!op)
        continue;
      for (auto [k, dest] : llvm::enumerate(op.getDestinations())) {
        OpResult result = op->getResult(k);
        if (dest != v || result.getType() == v.getType())
          continue;
        Type old = result.getType();
        result.setType(v.getType());
        for (OpOperand &resultUse :
             llvm::make_early_inc_range(result.getUses())) {
          Operation *user = resultUse.getOwner();
          if (isa<StrideDialect>(user->getDialect()))
            continue;
          OpBuilder b(user);
          resultUse.set(tensor::CastOp::create(b, user->getLoc(), old, result));
        }
        work.push_back(result);
      }
    }
  }
}

LogicalResult
mlir::stride::specializeEntry(func::FuncOp entry,
                              ArrayRef<std::optional<ArgLayout>> args,
                              std::string &error) {
  if (args.size() != entry.getNumArguments()) {
    error = "@" + entry.getName().str() + " takes " +
            std::to_string(entry.getNumArguments()) + " arguments, got " +
            std::to_string(args.size());
    return failure();
  }
  // A module without a Stride op or layout (an entry returning an argument
  // or a constant) has not loaded the dialect whose layouts it gets here.
  entry.getContext()->getOrLoadDialect<StrideDialect>();
  SmallVector<Type> types;
  for (auto [i, type] : llvm::enumerate(entry.getArgumentTypes())) {
    std::string what = "argument #" + std::to_string(i);
    auto tensorType = dyn_cast<RankedTensorType>(type);
    if (isa<UnrankedTensorType>(type)) {
      error = what + " is unranked; give its rank";
      return failure();
    }
    if (!tensorType) {
      if (args[i]) {
        error = what + " is a scalar but an array was given";
        return failure();
      }
      types.push_back(type);
      continue;
    }
    if (!args[i]) {
      error = what + " is a tensor but a scalar was given";
      return failure();
    }
    const ArgLayout &arg = *args[i];
    bool fits =
        static_cast<int64_t>(arg.shape.size()) == tensorType.getRank() &&
        arg.strides.size() == arg.shape.size();
    for (int64_t d = 0; fits && d < tensorType.getRank(); ++d)
      fits = tensorType.isDynamicDim(d) ||
             tensorType.getDimSize(d) == arg.shape[d];
    if (!fits) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << what << " has type " << type << " but the given array has shape (";
      llvm::interleaveComma(arg.shape, os);
      os << ")";
      error = text;
      return failure();
    }
    auto concrete =
        RankedTensorType::get(arg.shape, tensorType.getElementType());
    concrete =
        withLayout(concrete, LayoutAttr::get(entry.getContext(),
                                             ArrayRef<int64_t>(arg.strides)));
    BlockArgument argument = entry.getArgument(i);
    argument.setType(concrete);
    // Compiles load only the dialects they use; the casts below need tensor.
    entry.getContext()->getOrLoadDialect<tensor::TensorDialect>();
    // Ops of other dialects (a call, a loop) may need the declared type
    // exactly; the Stride passes look through the cast.
    for (OpOperand &use : llvm::make_early_inc_range(argument.getUses())) {
      Operation *user = use.getOwner();
      if (isa<StrideDialect>(user->getDialect()) || type == concrete)
        continue;
      OpBuilder b(user);
      use.set(tensor::CastOp::create(b, user->getLoc(), type, argument));
    }
    retypeDestinationResults(argument);
    types.push_back(concrete);
  }
  entry.setType(
      FunctionType::get(entry.getContext(), types, entry.getResultTypes()));
  return success();
}

std::unique_ptr<JitKernel>
JitKernel::compile(ModuleOp module, StringRef entry,
                   const StridePipelineOptions &requested, std::string &error) {
  // The JIT is a driver: threads=0 means $STRIDE_NUM_THREADS, else the cores.
  StridePipelineOptions options;
  options.copyOptionValuesFrom(requested);
  options.threads = resolveThreads(requested.threads);
  bool gpu = options.target == Target::Gpu;
  // Temporaries come from the cache of freed blocks bound below.
  options.cachedTemporaries = !gpu;
  // Without ptxas the kernels stay PTX, which the CUDA driver compiles.
  if (gpu && !hasPtxas())
    options.format = "isa";
  std::optional<LoweredEntry> lowered =
      lowerEntryToLLVM(module, entry, options, /*emitCInterface=*/false, error);
  if (!lowered)
    return nullptr;
  auto kernel = std::unique_ptr<JitKernel>(new JitKernel());
  kernel->name = entry.str();
  kernel->inputParams = std::move(lowered->inputs);
  kernel->outputParams = std::move(lowered->outputs);
  std::unique_ptr<llvm::TargetMachine> targetMachine =
      createHostTargetMachine(/*positionIndependent=*/false, error);
  if (!targetMachine)
    return nullptr;
  auto transformer = makeKernelOptimizer(targetMachine.get());
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  // Threaded kernels call the OpenMP runtime.
  SmallVector<StringRef> libraries;
  // Vectorized loops over math functions call libmvec's variants.
  if (*vectorMathLibrary())
    libraries.push_back(vectorMathLibrary());
  if (options.threads > 1)
    libraries.push_back(STRIDE_OMP_LIBRARY);
  // GPU kernels' host code calls the mgpu* runtime.
  if (gpu)
    libraries.push_back(gpuRuntimeLibrary());
  engineOptions.sharedLibPaths = libraries;
  auto engine =
      ExecutionEngine::create(module, engineOptions, std::move(targetMachine));
  if (!engine) {
    error = "JIT compilation failed: " + llvm::toString(engine.takeError());
    return nullptr;
  }
  kernel->engine = std::move(*engine);
  kernel->engine->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    auto bind = [&](const char *name, auto *function) {
      symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(function),
                                 llvm::JITSymbolFlags::Exported};
    };
    bind("_mlir_memref_to_llvm_alloc", &stride_temp_alloc);
    bind("_mlir_memref_to_llvm_aligned_alloc", &stride_temp_aligned_alloc);
    bind("_mlir_memref_to_llvm_free", &stride_temp_free);
    return symbols;
  });
  // GPU kernels' binaries are loaded by the module's constructors.
  if (gpu)
    kernel->engine->initialize();
  auto entryPoint = kernel->engine->lookupPacked(kernel->name);
  if (!entryPoint) {
    error = "JIT lookup of @" + kernel->name +
            " failed: " + llvm::toString(entryPoint.takeError());
    return nullptr;
  }
  kernel->packedEntry = *entryPoint;
  return kernel;
}

mlir::stride::JitKernel::~JitKernel() {
  // The engine's code goes with it; a library stays mapped, since dlclose
  // of one that started threads (OpenMP) may not be safe.
}

/// Whether `path` is a whole ELF shared object: every loaded segment and
/// the section headers lie inside the file. dlopen maps a truncated file
/// and then faults (SIGBUS) on the missing pages.
static bool isWholeSharedObject(const std::string &path, std::string &why) {
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file) {
    why = "cannot open '" + path + "'";
    return false;
  }
  std::fseek(file, 0, SEEK_END);
  long size = std::ftell(file);
  std::fseek(file, 0, SEEK_SET);
  Elf64_Ehdr header;
  bool ok = size >= long(sizeof header) &&
            std::fread(&header, sizeof header, 1, file) == 1 &&
            std::memcmp(header.e_ident, ELFMAG, SELFMAG) == 0 &&
            header.e_ident[EI_CLASS] == ELFCLASS64 &&
            header.e_phentsize == sizeof(Elf64_Phdr) &&
            header.e_phoff + uint64_t(header.e_phnum) * sizeof(Elf64_Phdr) <=
                uint64_t(size) &&
            header.e_shoff + uint64_t(header.e_shnum) * header.e_shentsize <=
                uint64_t(size);
  for (unsigned i = 0; ok && i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    ok = std::fseek(file, long(header.e_phoff + i * sizeof segment),
                    SEEK_SET) == 0 &&
         std::fread(&segment, sizeof segment, 1, file) == 1 &&
         (segment.p_type != PT_LOAD ||
          segment.p_offset + segment.p_filesz <= uint64_t(size));
  }
  std::fclose(file);
  if (!ok)
    why = "'" + path + "' is not a whole 64-bit ELF shared object";
  return ok;
}

std::unique_ptr<JitKernel>
mlir::stride::JitKernel::loadLibrary(const std::string &path, StringRef entry,
                                     std::string &error,
                                     StringRef symbolPrefix) {
  namespace rt = ::stride::runtime;
  if (!isWholeSharedObject(path, error))
    return nullptr;
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    error = "cannot load '" + path + "': " + (why ? why : "unknown reason");
    return nullptr;
  }
  auto *text = static_cast<const char *>(dlsym(handle, rt::kAotMetadataSymbol));
  rt::AotMetadata metadata;
  std::string parseError =
      text ? rt::parseAotMetadata(text, metadata) : "no metadata symbol";
  const rt::AotEntry *found =
      parseError.empty() ? metadata.find(entry.str()) : nullptr;
  if (found && !symbolPrefix.empty() &&
      found->symbol != (symbolPrefix + entry).str())
    found = nullptr;
  if (!found || found->ranks > 0) {
    error = "'" + path + "' is not a usable Stride library for @" +
            entry.str() + (parseError.empty() ? "" : ": " + parseError);
    dlclose(handle);
    return nullptr;
  }
  auto packed = reinterpret_cast<void (*)(void **)>(
      dlsym(handle, found->packedSymbol.c_str()));
  if (!packed) {
    error = "'" + path + "' has no symbol " + found->packedSymbol;
    dlclose(handle);
    return nullptr;
  }
  auto kernel = std::unique_ptr<JitKernel>(new JitKernel());
  kernel->name = entry.str();
  kernel->library = handle;
  kernel->libraryEntry = packed;
  static_assert(rt::kAotDynamic == ShapedType::kDynamic,
                "the metadata's dynamic marker is MLIR's");
  auto paramOf = [](const rt::AotParam &p) {
    KernelParam k;
    k.isBuffer = p.isTensor;
    k.element = p.dtype;
    k.typeName = ::stride::elementTypeName(p.dtype);
    k.shape = p.shape;
    k.strides = p.strides;
    return k;
  };
  for (const rt::AotParam &p : found->inputs)
    kernel->inputParams.push_back(paramOf(p));
  for (const rt::AotParam &p : found->outputs)
    kernel->outputParams.push_back(paramOf(p));
  return kernel;
}

std::string JitKernel::invoke(ArrayRef<BufferArg *> buffers,
                              ArrayRef<ScalarValue *> scalars) {
  // Pair each parameter with its argument first: both calling conventions
  // below need the same checks.
  struct Arg {
    BufferArg *buffer = nullptr;
    ScalarValue *scalar = nullptr;
  };
  SmallVector<Arg> paired;
  size_t nextBuffer = 0, nextScalar = 0;
  for (auto *params : {&inputParams, &outputParams})
    for (const KernelParam &param : *params) {
      Arg &arg = paired.emplace_back();
      if (!param.isBuffer) {
        if (nextScalar >= scalars.size())
          return "too few scalar arguments";
        arg.scalar = scalars[nextScalar++];
        continue;
      }
      if (nextBuffer >= buffers.size())
        return "too few buffer arguments";
      arg.buffer = buffers[nextBuffer++];
      if (arg.buffer->sizes.size() != param.shape.size() ||
          arg.buffer->strides.size() != param.shape.size())
        return "a buffer has the wrong rank";
    }

  SmallVector<void *> packed;
  if (libraryEntry) {
    // One pointer per parameter: a descriptor {allocated, aligned, offset,
    // sizes..., strides...} or a scalar.
    SmallVector<SmallVector<int64_t, 12>, 8> descriptors;
    descriptors.reserve(paired.size());
    for (const Arg &arg : paired) {
      if (!arg.buffer) {
        packed.push_back(arg.scalar);
        continue;
      }
      BufferArg *b = arg.buffer;
      SmallVector<int64_t, 12> &d = descriptors.emplace_back();
      d.push_back(reinterpret_cast<int64_t>(b->allocated));
      d.push_back(reinterpret_cast<int64_t>(b->aligned));
      d.push_back(b->offset);
      d.append(b->sizes.begin(), b->sizes.end());
      d.append(b->strides.begin(), b->strides.end());
      packed.push_back(d.data()); // `descriptors` never reallocates
    }
    libraryEntry(packed.data());
    return "";
  }
  // The packed wrapper takes one pointer per LLVM-level argument: a memref is
  // (allocated, aligned, offset, sizes..., strides...).
  for (const Arg &arg : paired) {
    if (!arg.buffer) {
      packed.push_back(arg.scalar);
      continue;
    }
    BufferArg *buffer = arg.buffer;
    packed.push_back(&buffer->allocated);
    packed.push_back(&buffer->aligned);
    packed.push_back(&buffer->offset);
    for (int64_t &size : buffer->sizes)
      packed.push_back(&size);
    for (int64_t &stride : buffer->strides)
      packed.push_back(&stride);
  }
  packedEntry(packed.data());
  return "";
}

std::string mlir::stride::describeBuffer(void *data, int64_t elementSize,
                                         ArrayRef<int64_t> sizes,
                                         ArrayRef<int64_t> strides,
                                         const KernelParam &param,
                                         llvm::function_ref<std::string()> what,
                                         BufferArg &out) {
  auto str = [](int64_t v) { return std::to_string(v); };
  int64_t rank = param.shape.size();
  if (static_cast<int64_t>(sizes.size()) != rank ||
      strides.size() != sizes.size())
    return what() + " has rank " + str(sizes.size()) +
           ", the kernel expects rank " + str(rank);
  bool empty = false;
  out.sizes.assign(sizes.begin(), sizes.end());
  out.strides.assign(strides.begin(), strides.end());
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = sizes[d], stride = strides[d];
    bool staticStride = !ShapedType::isDynamic(param.strides[d]);
    if (size < 0)
      return what() + " has negative size " + str(size) + " in dim " + str(d);
    if (!ShapedType::isDynamic(param.shape[d]) && param.shape[d] != size)
      return what() + " has size " + str(size) + " in dim " + str(d) +
             ", the kernel expects " + str(param.shape[d]);
    if (size <= 1) {
      // Any stride addresses a dim of size 0 or 1.
      if (staticStride)
        out.strides[d] = param.strides[d];
      empty |= size == 0;
      continue;
    }
    if (staticStride && param.strides[d] != stride)
      return what() + " has stride " + str(stride) + " in dim " + str(d) +
             ", the kernel expects " + str(param.strides[d]);
    if (!staticStride && stride < 0)
      return what() + " has a negative stride in dim " + str(d) +
             ", which this kernel was not compiled for (its stride there "
             "is dynamic)";
  }
  // Like NumPy, the descriptor's aligned pointer is the lowest address the
  // layout touches and the offset leads back to element [0, ..., 0], so
  // that no address is formed below the caller's allocation.
  int64_t back = 0;
  for (int64_t d = 0; d < rank && !empty; ++d)
    if (out.strides[d] < 0)
      back += (sizes[d] - 1) * -out.strides[d];
  char *lowest = static_cast<char *>(data);
  if (back != 0) {
    if (elementSize <= 0)
      return what() + " has element type " + param.typeName +
             ", whose size is not known, and a negative stride";
    lowest -= back * elementSize;
  }
  out.allocated = out.aligned = lowest;
  out.offset = back;
  return "";
}
