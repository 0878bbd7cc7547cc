//===- DiskCache.cpp - Compiled kernels kept on disk ----------------------===//
//
// Writers never expose a partial file: each writes its own temporary file
// in the cache directory and renames it over the entry's name, which POSIX
// makes atomic, so two processes writing one entry both leave a whole
// library (the last rename wins; both are the same kernel).
//
//===----------------------------------------------------------------------===//

#include "stride/AOT/DiskCache.h"

#include "stride/Dialect/Stride/IR/StrideAttrs.h"
#include "stride/Support/MLIRElementType.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <random>
#include <unistd.h>

using namespace mlir;
using namespace mlir::stride;

std::string mlir::stride::diskCacheSymbolPrefix(StringRef key) {
  return ("stride_cache_" + key + "_").str();
}

const char *mlir::stride::diskCacheOutcomeName(DiskCacheOutcome outcome) {
  switch (outcome) {
  case DiskCacheOutcome::Hit:
    return "hit";
  case DiskCacheOutcome::Written:
    return "written";
  case DiskCacheOutcome::Replaced:
    return "replaced";
  case DiskCacheOutcome::Unwritable:
    return "unwritable";
  }
  return "unknown";
}

namespace {

/// Whether `kernel`'s inputs are exactly `entry`'s (specialized) arguments:
/// a file written for another signature must never be called.
bool matchesSignature(const JitKernel &kernel, func::FuncOp entry) {
  ArrayRef<KernelParam> inputs = kernel.inputs();
  if (inputs.size() != entry.getNumArguments())
    return false;
  for (auto [param, type] : llvm::zip(inputs, entry.getArgumentTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    Type element = tensor ? tensor.getElementType() : type;
    if (param.isBuffer != bool(tensor) ||
        param.element != elementTypeOf(element))
      return false;
    if (!tensor)
      continue;
    SmallVector<int64_t> strides = getStridesOf(tensor);
    if (!llvm::equal(param.shape, tensor.getShape()) ||
        !llvm::equal(param.strides, strides))
      return false;
  }
  return true;
}

std::string uniqueSuffix() {
  std::random_device device;
  return std::to_string(::getpid()) + "-" + std::to_string(device());
}

/// Compiles `entry` into the library `path`; "" or why not.
std::string writeLibrary(ModuleOp module, StringRef entry,
                         const AotOptions &options, const std::string &dir,
                         const std::string &path, std::string &compileError) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return "cannot create '" + dir + "': " + ec.message();
  std::string error;
  std::unique_ptr<llvm::TargetMachine> machine =
      createHostTargetMachine(/*positionIndependent=*/true, error);
  if (!machine)
    return error;
  std::optional<AotModule> compiled =
      compileAot(module, {entry.str()}, options, *machine, compileError);
  if (!compiled)
    return "compile";
  std::string base = path + "." + uniqueSuffix();
  std::string object = base + ".o", library = base + ".tmp";
  error = emitObjectFile(*compiled->module, *machine, object);
  if (error.empty())
    error = linkSharedLibrary(object, library, options.threads);
  llvm::sys::fs::remove(object);
  if (error.empty())
    if (std::error_code ec = llvm::sys::fs::rename(library, path))
      error = "cannot rename into '" + path + "': " + ec.message();
  if (!error.empty())
    llvm::sys::fs::remove(library);
  return error;
}

} // namespace

DiskCacheResult mlir::stride::compileWithDiskCache(
    ModuleOp module, StringRef entry, const AotOptions &options,
    const std::string &dir, const std::string &key, std::string &error) {
  DiskCacheResult result;
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func || func.isExternal()) {
    error = "no function @" + entry.str() + " with a body";
    return result;
  }
  std::string path = dir + "/" + key + ".so";
  // The key is in the symbol, so a file copied over another key's name (or
  // left by another Stride) is never taken for this kernel.
  AotOptions named = options;
  named.symbolPrefix = diskCacheSymbolPrefix(key);
  bool existed = llvm::sys::fs::exists(path);
  if (existed) {
    std::string why;
    result.kernel =
        JitKernel::loadLibrary(path, entry, why, named.symbolPrefix);
    if (result.kernel && matchesSignature(*result.kernel, func)) {
      result.outcome = DiskCacheOutcome::Hit;
      return result;
    }
    result.kernel.reset();
    result.note = why.empty() ? "'" + path + "' holds another kernel" : why;
  }
  std::string compileError;
  std::string why = writeLibrary(module, entry, named, dir, path, compileError);
  if (why == "compile") {
    error = compileError;
    return result;
  }
  if (why.empty()) {
    std::string loadError;
    result.kernel =
        JitKernel::loadLibrary(path, entry, loadError, named.symbolPrefix);
    if (result.kernel && matchesSignature(*result.kernel, func)) {
      result.outcome =
          existed ? DiskCacheOutcome::Replaced : DiskCacheOutcome::Written;
      return result;
    }
    why = loadError.empty() ? "the written library does not match" : loadError;
  }
  // The directory is read-only or full, or the library would not load:
  // the kernel still runs, compiled in memory.
  result.outcome = DiskCacheOutcome::Unwritable;
  result.note = why;
  StridePipelineOptions pipeline;
  pipeline.policy = options.policy;
  pipeline.fuse = options.fuse;
  pipeline.threads = options.threads;
  pipeline.keepResultLayouts = options.keepResultLayouts;
  OwningOpRef<ModuleOp> copy = module.clone();
  result.kernel = JitKernel::compile(*copy, entry, pipeline, error);
  return result;
}
