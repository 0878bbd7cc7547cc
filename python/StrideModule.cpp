//===- StrideModule.cpp - The stride._stride Python extension -------------===//
//
// Compiles Stride functions with the CPU pipeline and calls them on NumPy
// arrays without copying: an array's data pointer and strides become the
// kernel's memref descriptor as they are.
//
//===----------------------------------------------------------------------===//

#include "IRBuilder.h"

#include "stride/AOT/DiskCache.h"
#include "stride/Codegen/CPU/Passes.h"
#include "stride/Dialect/Stride/IR/OpTable.h"
#include "stride/Dialect/Stride/IR/StrideAttrs.h"
#include "stride/Dialect/Stride/IR/StrideDialect.h"
#include "stride/Dialect/Stride/Transforms/Passes.h"
#include "stride/Driver/CompileEntry.h"
#include "stride/Driver/DistributionPlan.h"
#include "stride/Driver/JitKernel.h"
#include "stride/Driver/Threads.h"
#include "stride/Layout/Shape.h"
#include "stride/Layout/Strides.h"
#include "stride/Layout/Views.h"
#include "stride/Pipelines/Pipelines.h"
#include "stride/Support/GridShape.h"
#include "stride/Support/GuardedParse.h"

#include "MpiLoader.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/TargetParser/Host.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cstring>
#include <unistd.h>

namespace py = pybind11;
using namespace pybind11::literals;
using namespace mlir;
using namespace mlir::stride;

namespace {

using ::stride::elementTypeInfo;
using ::stride::ElementTypeInfo;
using ::stride::elementTypeName;
using ::stride::kElementTypes;
using ::stride::kNumElementTypes;

/// The NumPy dtype of a kernel parameter's element type.
py::dtype numpyDtype(std::optional<ElementType> type) {
  if (!type)
    throw py::type_error("the kernel uses an element type NumPy cannot hold");
  return py::dtype(std::string(elementTypeInfo(*type).numpyName));
}

/// The canonical dtype object of `type`, made once (identity is the fast
/// check; equivalence the complete one).
PyObject *expectedDtype(std::optional<ElementType> type) {
  static PyObject *cache[kNumElementTypes] = {};
  if (!type)
    return numpyDtype(type).release().ptr();
  PyObject *&slot = cache[static_cast<size_t>(*type)];
  if (!slot)
    slot = numpyDtype(type).release().ptr();
  return slot;
}

/// The MLIR spelling of a parameter's element type, "unsupported" for none.
const char *elementName(std::optional<ElementType> type) {
  return type ? elementTypeName(*type) : "unsupported";
}

/// One dict per row of `table`, made by `toDict`.
template <typename Table, typename ToDict>
py::list dictRows(const Table &table, ToDict toDict) {
  py::list rows;
  for (const auto &info : table)
    rows.append(toDict(info));
  return rows;
}

/// The element-type table, one dict per row, from which the stride package
/// builds its dtype maps.
py::list elementTypes() {
  return dictRows(kElementTypes, [](const ElementTypeInfo &info) {
    return py::dict("name"_a = info.name, "numpy"_a = info.numpyName,
                    "descr"_a = info.npyDescr, "size"_a = info.size,
                    "c_type"_a = info.cType);
  });
}

/// A Python tuple of sizes or strides; a dynamic one is None (a stride may
/// be -1).
py::tuple toTuple(const std::vector<int64_t> &values) {
  py::tuple t(values.size());
  for (size_t i = 0; i < values.size(); ++i)
    t[i] = ShapedType::isDynamic(values[i]) ? py::object(py::none())
                                            : py::object(py::int_(values[i]));
  return t;
}

/// stride.jit's cache key of a call whose arguments are all arrays of one
/// or more dims: per argument its dtype char, alignment, dims, shape and
/// strides, packed into one bytes object (hashed in one pass, where a tuple
/// of tuples of ints hashes every level). None when an argument is
/// anything else (a 0-d array's value class is part of its key; Python
/// builds those, as tuples, which never equal these bytes). A small call
/// costs its key on every call.
py::object arraySignature(py::tuple args) {
  auto &api = py::detail::npy_api::get();
  Py_ssize_t n = PyTuple_GET_SIZE(args.ptr());
  std::string key;
  key.reserve(static_cast<size_t>(n) * 64);
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *item = PyTuple_GET_ITEM(args.ptr(), i);
    if (!api.PyArray_Check_(item))
      return py::none();
    auto *a = py::detail::array_proxy(item);
    if (a->nd == 0)
      return py::none();
    char type = py::detail::array_descriptor_proxy(a->descr)->type;
    bool aligned = a->flags & py::detail::npy_api::NPY_ARRAY_ALIGNED_;
    key.push_back(type);
    key.push_back(aligned ? 1 : 0);
    key.push_back(static_cast<char>(a->nd));
    key.append(reinterpret_cast<const char *>(a->dimensions),
               sizeof(Py_intptr_t) * a->nd);
    key.append(reinterpret_cast<const char *>(a->strides),
               sizeof(Py_intptr_t) * a->nd);
  }
  return py::bytes(key);
}

/// Below this many elements over all its buffers, a kernel runs without
/// releasing the GIL (under 10 microseconds for elementwise kernels).
constexpr int64_t kKeepGilElements = 1 << 14;

/// A compiled kernel; owns its JIT engine.
class PyKernel {
public:
  PyKernel(std::unique_ptr<JitKernel> kernel, double seconds)
      : compileSeconds(seconds), kernel(std::move(kernel)) {}

  py::list params(bool outputs) const {
    py::list list;
    for (const KernelParam &p :
         outputs ? kernel->outputs() : kernel->inputs()) {
      py::dict d;
      if (!outputs)
        d["kind"] = p.isBuffer ? "buffer" : "scalar";
      d["dtype"] = elementName(p.element);
      d["type"] = p.typeName;
      d["shape"] = toTuple(p.shape);
      d["strides"] = toTuple(p.strides);
      list.append(d);
    }
    return list;
  }

  void call(py::sequence inputs, py::sequence outputs) {
    ArrayRef<KernelParam> ins = kernel->inputs(), outs = kernel->outputs();
    if (inputs.size() != ins.size())
      throw py::value_error("the kernel takes " + std::to_string(ins.size()) +
                            " inputs, got " + std::to_string(inputs.size()));
    if (outputs.size() != outs.size())
      throw py::value_error("the kernel has " + std::to_string(outs.size()) +
                            " outputs, got " + std::to_string(outputs.size()) +
                            " arrays for them");
    SmallVector<BufferArg, 4> buffers;
    SmallVector<ScalarValue, 4> scalars;
    buffers.reserve(ins.size() + outs.size());
    scalars.reserve(ins.size());
    // Messages are built only when a check fails: a cached call on small
    // arrays should cost little more than the kernel.
    // The arrays stay referenced while the GIL is released, even if another
    // thread changes the lists.
    SmallVector<py::object, 8> keepAlive;
    keepAlive.reserve(ins.size() + outs.size());
    for (size_t i = 0; i < ins.size(); ++i) {
      py::object item = inputs[i];
      if (ins[i].isBuffer)
        buffers.push_back(describe(item, ins[i], "input", i, false));
      else
        scalars.push_back(scalar(item, ins[i], i));
      keepAlive.push_back(std::move(item));
    }
    for (size_t j = 0; j < outs.size(); ++j) {
      py::object item = outputs[j];
      buffers.push_back(describe(item, outs[j], "output", j, true));
      keepAlive.push_back(std::move(item));
    }
    SmallVector<BufferArg *, 4> bufferPtrs;
    for (BufferArg &b : buffers)
      bufferPtrs.push_back(&b);
    SmallVector<ScalarValue *, 4> scalarPtrs;
    for (ScalarValue &s : scalars)
      scalarPtrs.push_back(&s);
    // Small kernels keep the GIL: releasing and taking it back costs about
    // a tenth of a small call, and other Python threads gain nothing from
    // a few microseconds.
    int64_t elements = 0;
    for (const BufferArg &b : buffers) {
      int64_t n = 1;
      for (int64_t size : b.sizes)
        n *= size;
      elements += n;
    }
    std::string error;
    if (elements < kKeepGilElements) {
      error = kernel->invoke(bufferPtrs, scalarPtrs);
    } else {
      py::gil_scoped_release release;
      error = kernel->invoke(bufferPtrs, scalarPtrs);
    }
    if (!error.empty())
      throw std::runtime_error("calling the kernel failed: " + error);
  }

  /// call(inputs, [target]) when `target`, an array the caller's function
  /// writes and returns (`np.exp(x, out=out)`), is writable and its
  /// memory's bounds overlap no array among `inputs` (np.may_share_memory's
  /// test); false, without calling, otherwise. The small-call path of
  /// stride.jit: the tests cost a fraction of Python's.
  bool callInto(py::sequence inputs, py::handle target) {
    if (!py::isinstance<py::array>(target))
      return false;
    auto *out = py::detail::array_proxy(target.ptr());
    if (!(out->flags & py::detail::npy_api::NPY_ARRAY_WRITEABLE_))
      return false;
    auto [outLo, outHi] = byteBounds(target);
    if (outLo != outHi)
      for (py::handle item : inputs) {
        if (!py::isinstance<py::array>(item))
          continue;
        auto [lo, hi] = byteBounds(item);
        if (lo < outHi && outLo < hi)
          return false;
      }
    py::list outputs(1);
    outputs[0] = target;
    call(inputs, outputs);
    return true;
  }

  double compileSeconds;

private:
  /// The bytes [lo, hi) an array's elements span; empty for no elements.
  static std::pair<intptr_t, intptr_t> byteBounds(py::handle object) {
    auto *a = py::detail::array_proxy(object.ptr());
    auto lo = reinterpret_cast<intptr_t>(a->data), hi = lo;
    for (int i = 0; i < a->nd; ++i) {
      if (a->dimensions[i] == 0)
        return {lo, lo};
      intptr_t span = a->strides[i] * (a->dimensions[i] - 1);
      (span < 0 ? lo : hi) += span;
    }
    return {lo, hi + py::detail::array_descriptor_proxy(a->descr)->elsize};
  }

  /// The memref descriptor of `object`, which must match `param` exactly.
  /// The caller's list holds `object` alive for the call.
  BufferArg describe(py::handle object, const KernelParam &param,
                     const char *role, size_t index, bool writable) {
    auto what = [&] { return std::string(role) + " #" + std::to_string(index); };
    if (!py::isinstance<py::array>(object))
      throw py::type_error(what() + " must be a numpy.ndarray");
    auto array = py::reinterpret_borrow<py::array>(object);
    // Equivalence, not identity: unpickled arrays, np.longlong and dtypes
    // with metadata are the kernel's element type under another object.
    auto *descr = py::detail::array_proxy(array.ptr())->descr;
    if (descr != expectedDtype(param.element) &&
        !py::detail::npy_api::get().PyArray_EquivTypes_(
            descr, expectedDtype(param.element)))
      throw py::type_error(
          what() + " has dtype " + py::str(array.dtype()).cast<std::string>() +
          " but the kernel expects " +
          py::str(numpyDtype(param.element)).cast<std::string>() + " (" +
          elementName(param.element) + ")");
    if (static_cast<size_t>(array.ndim()) != param.shape.size())
      throw py::value_error(what() + " has " + std::to_string(array.ndim()) +
                            " dims but the kernel expects " +
                            std::to_string(param.shape.size()));
    if (writable && !array.writeable())
      throw py::value_error(what() + " is read-only");
    BufferArg d;
    ssize_t itemsize = array.itemsize();
    SmallVector<int64_t, 6> sizes, strides;
    for (ssize_t i = 0; i < array.ndim(); ++i) {
      if (array.strides(i) % itemsize != 0)
        throw py::value_error(what() + " has a stride of " +
                              std::to_string(array.strides(i)) +
                              " bytes, not a multiple of its item size");
      sizes.push_back(array.shape(i));
      strides.push_back(array.strides(i) / itemsize);
    }
    // The drivers' one acceptance rule, shared with the C API.
    std::string error =
        describeBuffer(const_cast<void *>(array.data()), itemsize, sizes,
                       strides, param, what, d);
    if (!error.empty())
      throw py::value_error(error);
    return d;
  }

  ScalarValue scalar(py::handle object, const KernelParam &param,
                     size_t index) {
    std::string what = "input #" + std::to_string(index);
    ScalarValue s{};
    if (!param.element)
      throw py::type_error(what + " has an unsupported type " + param.typeName);
    try {
      ::stride::visitElementType(*param.element, [&](auto tag) {
        using T = typename decltype(tag)::type;
        T value = object.cast<T>();
        std::memcpy(&s, &value, sizeof(T)); // the member of type T
      });
    } catch (const py::cast_error &) {
      throw py::type_error(what + " must be a scalar convertible to " +
                           std::string(elementTypeName(*param.element)));
    }
    return s;
  }

  std::unique_ptr<JitKernel> kernel;
};

/// Raised for IR that does not parse, verify or lower; carries diagnostics.
PyObject *compileError = nullptr;

/// The layouts `args` gives the entry's arguments: (shape, strides) pairs,
/// nullopt for a scalar (specializeEntry's arguments).
std::vector<std::optional<ArgLayout>> argLayouts(const py::list &args) {
  std::vector<std::optional<ArgLayout>> layouts;
  for (py::handle item : args) {
    if (item.is_none()) {
      layouts.push_back(std::nullopt);
      continue;
    }
    auto pair =
        item.cast<std::pair<std::vector<int64_t>, std::vector<int64_t>>>();
    layouts.push_back(ArgLayout{pair.first, pair.second});
  }
  return layouts;
}

/// The dialects a kernel's context loads, registered once.
const DialectRegistry &jitRegistry() {
  static const DialectRegistry registry = [] {
    DialectRegistry r;
    registerJitDialects(r);
    return r;
  }();
  return registry;
}

/// One compile's context and the IR text's diagnostics: fail() raises
/// stride.CompileError with the message and every diagnostic so far.
struct SourceSession {
  explicit SourceSession(const std::string &text)
      : context(jitRegistry()), diagnosticStream(diagnostics),
        handler(sourceMgr, &context, diagnosticStream) {
    context.printOpOnDiagnostic(false);
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, "<stdin>"), llvm::SMLoc());
  }
  [[noreturn]] void fail(const std::string &message) {
    std::string full = message;
    if (!diagnostics.empty())
      full += ":\n" + diagnostics;
    PyErr_SetString(compileError, full.c_str());
    throw py::error_already_set();
  }
  /// The text's module and its function `entry`, which must have a body.
  func::FuncOp parseEntry(const std::string &entry,
                          OwningOpRef<ModuleOp> &module) {
    module = parseStrideSource(sourceMgr, context);
    if (!module)
      fail("the IR does not parse or verify");
    auto func = module->lookupSymbol<func::FuncOp>(entry);
    if (!func || func.isExternal())
      fail("no function @" + entry + " with a body");
    return func;
  }

  MLIRContext context;
  std::string diagnostics;
  llvm::raw_string_ostream diagnosticStream;
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler;
};

/// With `cacheDir` set, through the disk cache (DiskCache.h) under
/// `cacheKey`; `outcome` then says what the cache did.
std::unique_ptr<PyKernel>
compileKernel(const std::string &text, const std::string &entry,
              std::optional<py::list> args, const std::string &policy,
              bool fuse, bool keepResultLayouts, unsigned threads,
              const std::string &cacheDir, const std::string &cacheKey,
              std::string &outcome, std::string &note) {
  auto start = std::chrono::steady_clock::now();
  // One context per kernel: the engine does not need it afterwards, and
  // attributes do not pile up in a long-lived context.
  SourceSession session(text);
  auto fail = [&](const std::string &message) { session.fail(message); };

  std::unique_ptr<JitKernel> kernel;
  {
    OwningOpRef<ModuleOp> module;
    func::FuncOp func = session.parseEntry(entry, module);
    if (args) {
      std::string error;
      if (failed(specializeEntry(func, argLayouts(*args), error)))
        fail(error);
    }
    StridePipelineOptions options;
    std::optional<::stride::layout::Policy> parsed =
        ::stride::layout::parsePolicy(policy);
    if (!parsed)
      throw py::value_error("unknown policy '" + policy +
                            "'; expected one of torch, numpy, contiguous");
    options.policy = *parsed;
    options.fuse = fuse;
    options.keepResultLayouts = keepResultLayouts;
    options.threads = threads;
    std::string error;
    if (cacheDir.empty()) {
      kernel = JitKernel::compile(*module, entry, options, error);
    } else {
      AotOptions aot;
      aot.policy = options.policy;
      aot.fuse = fuse;
      aot.keepResultLayouts = keepResultLayouts;
      aot.threads = std::max(1u, threads);
      DiskCacheResult cached =
          compileWithDiskCache(*module, entry, aot, cacheDir, cacheKey, error);
      kernel = std::move(cached.kernel);
      outcome = diskCacheOutcomeName(cached.outcome);
      note = cached.note;
    }
    if (!kernel)
      fail("cannot compile @" + entry + ": " + error);
  }
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  return std::make_unique<PyKernel>(std::move(kernel), seconds);
}

/// Loads the MPI runtime for the launcher this process runs under and
/// initializes it (MPI itself stays as mpi4py initialized it): (rank,
/// size, library). Collective: every rank calls it.
py::tuple mpiInit() {
  std::string error;
  if (!::stride::mpi::loadRuntime(error))
    throw py::value_error("distribute=: " + error);
  const ::stride::mpi::Runtime &mpi = ::stride::mpi::runtime();
  if (mpi.init() != 0)
    throw std::runtime_error("distribute=: the MPI runtime did not start");
  return py::make_tuple(mpi.rank(), mpi.size(), std::string(mpi.library()));
}

py::dict paramDict(const ::stride::runtime::AotParam &p) {
  py::list split;
  for (int64_t d : p.split)
    split.append(d);
  return py::dict("tensor"_a = p.isTensor, "dtype"_a = elementTypeName(p.dtype),
                  "shape"_a = py::tuple(py::cast(p.shape)),
                  "strides"_a = py::tuple(py::cast(p.strides)),
                  "split"_a = py::tuple(split));
}

/// `entry` of `text` compiled for one rank of `grid` ("4", "2x2"):
/// (kernel on the rank's blocks, {"inputs": [...], "outputs": [...]}, the
/// single-process parameters with the dims each grid axis splits).
py::tuple compileDistributed(const std::string &text, const std::string &entry,
                             const std::string &grid,
                             const std::string &strategy,
                             const std::string &policy, bool fuse,
                             unsigned threads) {
  std::vector<int64_t> shape;
  if (std::string bad = ::stride::parseGridShape(grid, shape); !bad.empty())
    throw py::value_error("distribute=: " + bad);
  SourceSession session(text);
  MLIRContext &context = session.context;
  auto fail = [&](const std::string &message) { session.fail(message); };
  std::optional<::stride::layout::Policy> parsed =
      ::stride::layout::parsePolicy(policy);
  if (!parsed)
    throw py::value_error("unknown policy '" + policy +
                          "'; expected one of torch, numpy, contiguous");
  OwningOpRef<ModuleOp> module;
  func::FuncOp func = session.parseEntry(entry, module);
  OwningOpRef<ModuleOp> specialized;
  std::string error = specializeToDeclared(*module, func, specialized);
  DistributionPlan plan;
  if (error.empty())
    error = planDistribution(context, *specialized, entry, grid, strategy,
                             *parsed, /*showRemark=*/false, plan);
  if (!error.empty())
    fail(error);
  StridePipelineOptions options;
  options.policy = *parsed;
  options.fuse = fuse;
  options.threads = threads;
  options.distribute = grid;
  options.distributeStrategy = strategy;
  ScopedDiagnosticHandler quietRemarks(&context, [](Diagnostic &d) {
    return success(d.getSeverity() == DiagnosticSeverity::Remark);
  });
  auto start = std::chrono::steady_clock::now();
  std::unique_ptr<JitKernel> kernel =
      JitKernel::compile(*specialized, entry, options, error);
  if (!kernel)
    fail("cannot compile @" + entry + ": " + error);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  py::list inputs, outputs;
  for (const auto &p : plan.inputs)
    inputs.append(paramDict(p));
  for (const auto &p : plan.outputs)
    outputs.append(paramDict(p));
  return py::make_tuple(std::make_unique<PyKernel>(std::move(kernel), seconds),
                        py::dict("inputs"_a = inputs, "outputs"_a = outputs,
                                 "grid"_a = py::tuple(py::cast(shape))));
}

std::unique_ptr<PyKernel> compile(const std::string &text,
                                  const std::string &entry,
                                  std::optional<py::list> args,
                                  const std::string &policy, bool fuse,
                                  bool keepResultLayouts, unsigned threads) {
  std::string outcome, note;
  return compileKernel(text, entry, args, policy, fuse, keepResultLayouts,
                       threads, "", "", outcome, note);
}

/// compile through the disk cache: (kernel, outcome, note).
py::tuple compileCached(const std::string &text, const std::string &entry,
                        std::optional<py::list> args, const std::string &policy,
                        bool fuse, bool keepResultLayouts, unsigned threads,
                        const std::string &cacheDir,
                        const std::string &cacheKey) {
  // A hit needs no MLIR at all (a context alone costs milliseconds): load
  // the file and check it against the specialization; the dtypes are then
  // checked on every call. Anything else goes through compileWithDiskCache,
  // which replaces a file that fails these checks.
  if (args && !cacheKey.empty()) {
    auto start = std::chrono::steady_clock::now();
    std::string path = cacheDir + "/" + cacheKey + ".so", why;
    std::unique_ptr<JitKernel> loaded;
    if (::access(path.c_str(), R_OK) == 0)
      loaded = JitKernel::loadLibrary(path, entry, why,
                                      diskCacheSymbolPrefix(cacheKey));
    bool fits = loaded && loaded->inputs().size() == args->size();
    for (size_t i = 0; fits && i < args->size(); ++i) {
      py::handle item = (*args)[i];
      const KernelParam &param = loaded->inputs()[i];
      if (item.is_none()) {
        fits = !param.isBuffer;
        continue;
      }
      auto pair =
          item.cast<std::pair<std::vector<int64_t>, std::vector<int64_t>>>();
      fits = param.isBuffer && param.shape == pair.first &&
             param.strides == pair.second;
    }
    if (fits) {
      double seconds = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - start)
                           .count();
      return py::make_tuple(
          std::make_unique<PyKernel>(std::move(loaded), seconds), "hit", "");
    }
  }
  std::string outcome, note;
  std::unique_ptr<PyKernel> kernel =
      compileKernel(text, entry, args, policy, fuse, keepResultLayouts, threads,
                    cacheDir, cacheKey, outcome, note);
  return py::make_tuple(std::move(kernel), outcome, note);
}

/// stride-explain's remarks on `entry` of `text` specialized to `args`:
/// {"ops": [(op, remark)], "kernels": [...], "results": [(shape, strides)]},
/// the ops' after layout propagation, the kernels' after fusion and
/// coalescing (as the CPU pipeline runs them).
py::dict explainKernel(const std::string &text, const std::string &entry,
                       std::optional<py::list> args,
                       const std::string &policyName, bool fuse,
                       unsigned threads) {
  MLIRContext context(jitRegistry());
  context.printOpOnDiagnostic(false);
  std::optional<::stride::layout::Policy> policy =
      ::stride::layout::parsePolicy(policyName);
  if (!policy)
    throw py::value_error("unknown policy '" + policyName + "'");
  std::string diagnostics;
  std::vector<std::pair<std::string, std::string>> remarks;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    std::string message = d.str();
    if (d.getSeverity() == DiagnosticSeverity::Remark) {
      std::string op;
      if (auto loc = dyn_cast<FileLineColLoc>(d.getLocation()))
        op = "line " + std::to_string(loc.getLine());
      remarks.emplace_back(op, message);
    } else {
      diagnostics += message + "\n";
    }
    return success();
  });
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(text, "<ir>"),
                               llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseStrideSource(sourceMgr, context);
  if (!module)
    throw py::value_error("the IR does not parse:\n" + diagnostics);
  auto func = module->lookupSymbol<func::FuncOp>(entry);
  if (!func || func.isExternal())
    throw py::value_error("no function @" + entry + " with a body");
  if (args) {
    std::string error;
    if (failed(specializeEntry(func, argLayouts(*args), error)))
      throw py::value_error(error);
  }
  py::dict out;
  auto run = [&](auto build) {
    remarks.clear();
    PassManager pm(&context);
    build(pm);
    pm.addPass(createStrideExplain(StrideExplainOptions{*policy}));
    if (failed(pm.run(*module)))
      throw py::value_error("the program does not compile:\n" + diagnostics);
    py::list list;
    for (auto &[where, message] : remarks)
      list.append(py::make_tuple(where, message));
    return list;
  };
  // The passes that decide how the kernels run say what they chose: the
  // order of chained products first (it leads the decisions, and the ops
  // stage lists the ops as they then run), then row loops, threads
  // (resolved as the drivers resolve them) and the CPU's tiling.
  (*module)->setAttr(kExplainAttr, UnitAttr::get(&context));
  py::list ops = run([&](PassManager &pm) {
    pm.addPass(createStrideInferShapes());
    pm.addPass(createStrideReassociateMatmuls());
    pm.addPass(createStridePropagateLayout(
        StridePropagateLayoutOptions{*policy, false}));
  });
  py::list early, described;
  for (py::handle item : ops) {
    std::string message = py::cast<std::string>(item.cast<py::tuple>()[1]);
    (StringRef(message).starts_with("stride-explain: reassociate: ")
         ? early
         : described)
        .append(item);
  }
  out["ops"] = described;
  py::list results;
  for (Type t : module->lookupSymbol<func::FuncOp>(entry).getResultTypes())
    if (auto ranked = dyn_cast<RankedTensorType>(t)) {
      SmallVector<int64_t> strides = getStridesOf(ranked);
      results.append(py::make_tuple(
          toTuple(std::vector<int64_t>(ranked.getShape().begin(),
                                       ranked.getShape().end())),
          toTuple(std::vector<int64_t>(strides.begin(), strides.end()))));
    }
  out["results"] = results;
  out["kernels"] = run([&](PassManager &pm) {
    pm.addPass(createStrideGeneralize());
    if (fuse)
      pm.addPass(createStrideFuse());
    pm.addPass(createStrideCoalesce());
  });
  unsigned resolved = resolveThreads(threads);
  out["threads"] = resolved;
  py::list decisions = run([&](PassManager &pm) {
    if (fuse)
      pm.addPass(createStrideFuseRows());
    pm.addPass(createStrideBufferize(StrideBufferizeOptions{resolved}));
    pm.addPass(createStrideTileMatmul());
    pm.addPass(createStrideBlockTransposes());
  });
  for (py::handle item : decisions)
    early.append(item);
  out["decisions"] = early;
  return out;
}

/// What a cached kernel's key must include besides the program: the
/// compiler (LLVM's version) and the CPU it was compiled for.
py::dict buildInfo() {
  py::dict info;
  info["llvm"] = LLVM_VERSION_STRING;
  info["cpu"] = llvm::sys::getHostCPUName().str();
  std::string features;
  for (const auto &[name, on] : llvm::sys::getHostCPUFeatures())
    if (on)
      features += name.str() + ",";
  info["features"] = features;
  return info;
}

/// The op table (OpTable.h), one dict per op.
py::list elementwiseOps() {
  MLIRContext context;
  return dictRows(
      getElementwiseOpTable(context), [](const ElementwiseOpInfo &info) {
        return py::dict("mnemonic"_a = info.mnemonic, "ufunc"_a = info.ufunc,
                        "dtype_ufunc"_a = info.dtypeUfunc,
                        "arity"_a = info.arity, "result"_a = info.resultRule,
                        "element_types"_a = info.elementTypes);
      });
}

::stride::layout::Shape toShape(const py::sequence &dims) {
  ::stride::layout::Shape shape;
  for (py::handle d : dims)
    shape.push_back(d.cast<int64_t>());
  return shape;
}

/// NumPy's spelling of a shape: (3,4), (5,), ().
std::string numpyShape(const ::stride::layout::Shape &shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? "," : "") + std::to_string(shape[i]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

/// lib/Layout's broadcasting rule; its failure is NumPy's ValueError.
py::tuple broadcastShapes(const py::args &args) {
  std::vector<::stride::layout::Shape> shapes;
  for (py::handle a : args)
    shapes.push_back(toShape(a.cast<py::sequence>()));
  ::stride::layout::BroadcastResult result =
      ::stride::layout::broadcastShapes(shapes);
  if (!result.ok()) {
    std::string message =
        "operands could not be broadcast together with shapes";
    for (const ::stride::layout::Shape &shape : shapes)
      message += " " + numpyShape(shape);
    throw py::value_error(message);
  }
  return toTuple(result.shape);
}

/// lib/Layout's matmul rule (numpy.matmul's).
py::tuple matmulShape(const py::sequence &lhs, const py::sequence &rhs) {
  ::stride::layout::Shape a = toShape(lhs), b = toShape(rhs);
  for (auto [name, shape] : {std::pair{"lhs", &a}, std::pair{"rhs", &b}})
    if (shape->empty())
      throw py::value_error(std::string("matmul: ") + name +
                            " is 0-d (shape ()); matmul needs at least one "
                            "dimension per operand");
  ::stride::layout::MatmulResult result = ::stride::layout::matmulShape(a, b);
  if (!result.ok())
    throw py::value_error("matmul: " + result.error->message);
  return toTuple(result.info.result);
}

/// lib/Layout's view rule `kind` (Views.h) under `policy` on an operand of
/// `shape` and element `strides`: (shape, strides, offset, is_view), or
/// ValueError with the rule's message.
py::tuple viewLayout(const std::string &kind, const std::string &policyName,
                     const py::sequence &shapeSeq,
                     const py::sequence &stridesSeq, const py::object &attr) {
  namespace L = ::stride::layout;
  std::optional<L::Policy> policy = L::parsePolicy(policyName);
  if (!policy)
    throw py::value_error("unknown policy '" + policyName + "'");
  L::Shape shape = toShape(shapeSeq);
  L::Strides strides = toShape(stridesSeq);
  auto ints = [](const py::object &o) {
    std::vector<int64_t> v;
    for (py::handle h : o.cast<py::sequence>())
      v.push_back(h.cast<int64_t>());
    return v;
  };
  L::ViewResult result;
  if (kind == "permute") {
    result = L::permuteView(shape, strides, ints(attr));
  } else if (kind == "slice") {
    std::vector<L::SliceSpec> slices;
    for (py::handle s : attr.cast<py::sequence>()) {
      auto part = [&](size_t i) -> std::optional<int64_t> {
        py::object v = s.cast<py::sequence>()[i];
        if (v.is_none())
          return std::nullopt;
        return v.cast<int64_t>();
      };
      slices.push_back({part(0), part(1), part(2)});
    }
    result = L::sliceView(*policy, shape, strides, slices);
  } else if (kind == "expand") {
    result = L::expandView(*policy, shape, strides, ints(attr));
  } else if (kind == "squeeze") {
    std::optional<std::vector<int64_t>> dims;
    if (!attr.is_none())
      dims = ints(attr);
    result = L::squeezeView(shape, strides, dims);
  } else if (kind == "unsqueeze") {
    result = L::unsqueezeView(*policy, shape, strides, attr.cast<int64_t>());
  } else if (kind == "flip") {
    result = L::flipView(*policy, shape, strides, ints(attr));
  } else if (kind == "reshape") {
    result = L::reshapeView(*policy, shape, strides, ints(attr));
  } else {
    throw py::value_error("unknown view '" + kind + "'");
  }
  if (!result.ok())
    throw py::value_error("stride." + kind + ": " + *result.error);
  const L::View &view = result.view;
  return py::make_tuple(toTuple(view.shape), toTuple(view.strides),
                        view.offset, view.isView);
}

/// The policy names, in the enum's order.
py::list policies() {
  py::list names;
  for (::stride::layout::Policy p :
       {::stride::layout::Policy::Torch, ::stride::layout::Policy::Numpy,
        ::stride::layout::Policy::Contiguous})
    names.append(::stride::layout::policyName(p));
  return names;
}

/// The drivers' thread rule (resolveThreads), with a bad
/// $STRIDE_NUM_THREADS a ValueError.
unsigned resolveThreadCount(unsigned requested) {
  if (requested == 0) {
    std::string error = checkThreadsEnvironment();
    if (!error.empty())
      throw py::value_error(error);
  }
  return resolveThreads(requested);
}

} // namespace

PYBIND11_MODULE(_stride, m) {
  m.doc() = "Stride's compiler and JIT, for the stride package";
  ::stride::python::bindIRBuilder(m);
  compileError = PyErr_NewExceptionWithDoc(
      "stride._stride.CompileError",
      "The IR did not parse, verify or lower; the message holds the "
      "diagnostics.",
      PyExc_ValueError, nullptr);
  m.attr("CompileError") = py::handle(compileError);

  py::class_<PyKernel>(m, "Kernel")
      .def_property_readonly("inputs",
                             [](const PyKernel &k) { return k.params(false); })
      .def_property_readonly("outputs",
                             [](const PyKernel &k) { return k.params(true); })
      .def_readonly("compile_seconds", &PyKernel::compileSeconds)
      .def("__call__", &PyKernel::call, py::arg("inputs"), py::arg("outputs"))
      .def("call_into", &PyKernel::callInto, py::arg("inputs"),
           py::arg("target"));

  m.def("array_signature", &arraySignature, py::arg("args"),
        "stride.jit's cache key of a call whose arguments are arrays of one "
        "or more dims; None otherwise.");
  m.def("element_types", &elementTypes,
        "The element types Stride supports, one dict per row of its table: "
        "name (MLIR spelling), numpy (dtype name), descr (.npy), size "
        "(bytes), c_type.");

  m.def("elementwise_ops", &elementwiseOps,
        "The named elementwise ops of the dialect, one dict per op: mnemonic, "
        "ufunc (the NumPy ufunc it implements, '' for none), dtype_ufunc "
        "(the ufunc whose dtype resolution it follows), arity, result "
        "('same', 'i1' or 'custom'), element_types (accepted, MLIR names).");
  m.def("broadcast_shapes", &broadcastShapes,
        "NumPy's broadcast shape of the given shapes (ValueError with "
        "NumPy's message when they do not broadcast).");
  m.def("matmul_shape", &matmulShape, py::arg("lhs"), py::arg("rhs"),
        "numpy.matmul's result shape (ValueError naming the dims).");
  m.def("policies", &policies, "The layout policies' names.");
  m.def("view_layout", &viewLayout, py::arg("kind"), py::arg("policy"),
        py::arg("shape"), py::arg("strides"), py::arg("attr"),
        "The view rule `kind` of the layout algebra: (shape, strides, "
        "offset, is_view) of the view of an operand of `shape` and element "
        "`strides`.");
  m.def("resolve_threads", &resolveThreadCount, py::arg("requested") = 0,
        "The thread count a request means: itself when positive; for 0, "
        "$STRIDE_NUM_THREADS, else the machine's cores.");

  m.def("compile_cached", &compileCached, py::arg("mlir_text"),
        py::arg("entry"), py::arg("args"), py::arg("policy"), py::arg("fuse"),
        py::arg("keep_result_layouts"), py::arg("threads"),
        py::arg("cache_dir"), py::arg("cache_key"),
        "compile, through the disk cache file <cache_dir>/<cache_key>.so: "
        "(kernel, 'hit'|'written'|'replaced'|'unwritable', note).");
  m.def("explain", &explainKernel, py::arg("mlir_text"), py::arg("entry"),
        py::arg("args"), py::arg("policy"), py::arg("fuse") = true,
        py::arg("threads") = 0,
        "stride-explain's remarks on the entry specialized to args, and "
        "the decisions of the passes that choose how its kernels run "
        "(threads: 0 resolves as the drivers do).");
  m.def("build_info", &buildInfo,
        "LLVM's version and the host CPU's name and features.");
  m.def("mpi_init", &mpiInit,
        "Loads and starts Stride's MPI runtime under the running launcher: "
        "(rank, size, library).");
  m.def("compile_distributed", &compileDistributed, py::arg("mlir_text"),
        py::arg("entry"), py::arg("grid"), py::arg("strategy") = "auto",
        py::arg("policy") = "torch", py::arg("fuse") = true,
        py::arg("threads") = 0,
        "Compiles `entry` (static declared shapes) for one rank of `grid`: "
        "(kernel, plan).");
  m.def("compile", &compile, py::arg("mlir_text"), py::arg("entry"),
        py::arg("args") = py::none(), py::arg("policy") = "torch",
        py::arg("fuse") = true, py::arg("keep_result_layouts") = false,
        py::arg("threads") = 0,
        "Compiles function `entry` of `mlir_text` (specialized to `args`: per "
        "argument None for a scalar or (shape, strides) in elements).");
}
