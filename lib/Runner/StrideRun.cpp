//===- StrideRun.cpp - The stride-run command -----------------------------===//
//
// Reads a Stride program and its inputs (.npy files or random values), lays
// each input out in memory exactly as its argument's #stride.layout says, JIT
// compiles the entry function with the CPU pipeline and calls it with output
// buffers in the layouts the compiler chose; then prints, saves and times.
//
//===----------------------------------------------------------------------===//

#include "stride/Runner/StrideRun.h"

#include "stride/Dialect/Stride/IR/StrideOps.h"
#include "stride/Dialect/Stride/Transforms/Passes.h"
#include "stride/Layout/Strides.h"
#include "stride/Runner/GpuBuffers.h"
#include "stride/Runner/JitKernel.h"
#include "stride/Runtime/Npy.h"
#include "stride/Runtime/StridedBuffer.h"

#include "StrideGpuRuntime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <malloc.h>
#include <unistd.h>

using namespace mlir;
using namespace mlir::stride;
namespace rt = ::stride::runtime;
namespace cl = llvm::cl;

namespace {

int fail(const llvm::Twine &message) {
  llvm::errs() << "stride-run: error: " << message << "\n";
  return 1;
}

std::optional<rt::DType> dtypeOf(Type type) {
  if (type.isF32())
    return rt::DType::F32;
  if (type.isF64())
    return rt::DType::F64;
  if (type.isInteger(32))
    return rt::DType::I32;
  if (type.isInteger(64))
    return rt::DType::I64;
  if (type.isInteger(1))
    return rt::DType::I1;
  return std::nullopt;
}

std::string typeName(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// Parses "4x3", "7" or "scalar"/"" (0-d) into sizes.
std::optional<std::vector<int64_t>> parseShape(StringRef text) {
  std::vector<int64_t> shape;
  if (text.empty() || text == "scalar" || text == "0-d")
    return shape;
  SmallVector<StringRef> parts;
  text.split(parts, 'x');
  for (StringRef part : parts) {
    int64_t size;
    if (part.getAsInteger(10, size) || size < 0)
      return std::nullopt;
    shape.push_back(size);
  }
  return shape;
}

/// The element strides an argument of type `type` has in memory for the
/// concrete `shape`: its layout's, dense in its perm, or row-major.
std::vector<int64_t> argumentStrides(RankedTensorType type,
                                     ArrayRef<int64_t> shape) {
  LayoutAttr layoutAttr = getLayout(type);
  std::vector<int64_t> rowMajor =
      rt::rowMajorStrides(std::vector<int64_t>(shape.begin(), shape.end()));
  if (!layoutAttr)
    return rowMajor;
  SmallVector<int64_t> strides = layoutAttr.getStridesFor(shape);
  if (llvm::any_of(strides, ShapedType::isDynamic))
    return rowMajor;
  return std::vector<int64_t>(strides.begin(), strides.end());
}

/// Prints `array` like NumPy: nested brackets, one innermost row per line.
void printArray(llvm::raw_ostream &os, const rt::Array &array) {
  if (array.shape.empty()) {
    os << rt::formatElement(array, 0) << "\n";
    return;
  }
  int64_t numel = array.numel();
  if (numel > 10000) {
    os << "(" << numel << " elements; use --output-dir to save them)\n";
    return;
  }
  std::vector<int64_t> index(array.shape.size(), 0);
  size_t rank = array.shape.size();
  std::function<void(size_t, int64_t &)> rec = [&](size_t dim, int64_t &flat) {
    os << "[";
    for (int64_t i = 0; i < array.shape[dim]; ++i) {
      if (i > 0)
        os << (dim + 1 == rank ? ", " : ",\n" + std::string(dim + 1, ' '));
      if (dim + 1 == rank)
        os << rt::formatElement(array, flat++);
      else
        rec(dim + 1, flat);
    }
    os << "]";
  };
  int64_t flat = 0;
  rec(0, flat);
  os << "\n";
}

/// cf.assert in a kernel aborts after printing its message; turn that into
/// an ordinary error exit.
extern "C" void onKernelAbort(int) {
  // The kernel printed its message with the C library; make sure it shows.
  std::fflush(stdout);
  const char message[] =
      "stride-run: error: a run-time check in the kernel failed (see the "
      "message above)\n";
  (void)!write(STDERR_FILENO, message, sizeof(message) - 1);
  _exit(1);
}

/// An argument ready to pass: a buffer or a scalar.
struct PreparedArg {
  std::optional<rt::StridedBuffer> buffer;
  ScalarArg scalar{};
  std::vector<int64_t> shape, strides;
};

} // namespace

int mlir::stride::strideRunMain(int argc, char **argv) {
  static cl::OptionCategory category("stride-run options");
  static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                        cl::desc("<program.mlir>"),
                                        cl::cat(category));
  static cl::opt<std::string> entryName(
      "entry", cl::desc("Function to run (default: main, or the only one)"),
      cl::cat(category));
  static cl::list<std::string> inputPaths(
      "input", cl::desc("A .npy file per argument, in order (0-d for scalars)"),
      cl::cat(category));
  static cl::opt<bool> randomInputs(
      "random-inputs", cl::desc("Fill every argument with random values"),
      cl::cat(category));
  static cl::opt<uint64_t> seed("seed", cl::desc("Seed for --random-inputs"),
                                cl::init(0), cl::cat(category));
  static cl::list<std::string> shapeTexts(
      "shape",
      cl::desc("With --random-inputs: the shape of each argument, in order "
               "(e.g. --shape 4x3 --shape 3 --shape scalar); needed when an "
               "argument has dynamic dims"),
      cl::cat(category));
  static cl::opt<std::string> outputDir(
      "output-dir", cl::desc("Write each result as DIR/out<N>.npy"),
      cl::cat(category));
  static cl::opt<bool> printValues("print", cl::desc("Print the results"),
                                   cl::cat(category));
  static cl::opt<unsigned> benchRuns(
      "bench", cl::desc("Time N calls after warm-up; print median and min"),
      cl::init(0), cl::cat(category));
  static cl::opt<std::string> policy(
      "policy", cl::desc("Result strides of: torch (default), numpy, contiguous"),
      cl::init("torch"), cl::cat(category));
  static cl::opt<bool> dynamicShapes(
      "dynamic",
      cl::desc("Compile the function as written (dynamic dims stay dynamic) "
               "instead of specializing it to the inputs' shapes and strides"),
      cl::cat(category));
  static cl::opt<unsigned> threads(
      "num-threads",
      cl::desc("Run large kernels on this many threads (OpenMP; default 1)"),
      cl::init(1), cl::cat(category));
  static cl::opt<bool> noFuse(
      "no-fuse",
      cl::desc("Do not fuse elementwise expressions (one kernel per op)"),
      cl::cat(category));
  static cl::opt<std::string> target(
      "target",
      cl::desc("cpu (default); gpu: run on the GPU (sm_90 kernels, the "
               "CUDA driver through libstride_gpu_runtime; exit status 69 "
               "without a usable GPU); or gpu-host: compile the kernels as "
               "for the GPU and run them on this CPU with the grid and "
               "block enumerated (checks GPU kernel code without a GPU)"),
      cl::init("cpu"), cl::cat(category));
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "Stride JIT runner\n");

  // Kernels allocate their intermediates with malloc on every call. Keep
  // large blocks in the heap instead of fresh mmaps, so that repeated calls
  // (--bench) reuse warm pages rather than page-faulting 64 MiB temporaries.
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);

  if (!::stride::layout::parsePolicy(policy))
    return fail("unknown --policy '" + policy +
                "'; expected torch, numpy or contiguous");
  if (randomInputs && !inputPaths.empty())
    return fail("give either --input files or --random-inputs, not both");

  DialectRegistry registry;
  registerJitDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  std::string openError;
  auto file = openInputFile(inputFile, &openError);
  if (!file)
    return fail(openError);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return fail("cannot parse '" + inputFile + "'");

  // The entry function.
  SmallVector<func::FuncOp> funcs(module->getOps<func::FuncOp>());
  func::FuncOp entry;
  std::string wanted = entryName;
  if (wanted.empty() && module->lookupSymbol<func::FuncOp>("main"))
    wanted = "main";
  if (wanted.empty() && funcs.size() == 1)
    entry = funcs.front();
  else
    entry = module->lookupSymbol<func::FuncOp>(wanted);
  if (!entry || entry.isExternal()) {
    std::string names;
    for (func::FuncOp f : funcs)
      names += (names.empty() ? "@" : ", @") + f.getName().str();
    if (wanted.empty() && funcs.empty())
      return fail("'" + inputFile + "' has no functions");
    if (wanted.empty())
      return fail("'" + inputFile + "' has several functions (" + names +
                  "); choose one with --entry");
    return fail("no function @" + wanted + " with a body in '" + inputFile +
                "' (functions: " + (names.empty() ? "none" : names) + ")");
  }
  std::string entryText = "@" + entry.getName().str();
  TypeRange argTypes = entry.getArgumentTypes();
  if (!randomInputs && inputPaths.size() != argTypes.size())
    return fail(entryText + " takes " + llvm::Twine(argTypes.size()) +
                " arguments but " + llvm::Twine(inputPaths.size()) +
                " --input files were given");
  if (randomInputs && !shapeTexts.empty() &&
      shapeTexts.size() != argTypes.size())
    return fail(entryText + " takes " + llvm::Twine(argTypes.size()) +
                " arguments but " + llvm::Twine(shapeTexts.size()) +
                " --shape values were given");

  // Inputs, laid out as their declared layouts say.
  std::vector<PreparedArg> args(argTypes.size());
  for (auto [i, type] : llvm::enumerate(argTypes)) {
    std::string what = "argument #" + std::to_string(i) + " of " + entryText;
    if (isa<UnrankedTensorType>(type))
      return fail(what + " is unranked; give its rank");
    auto tensorType = dyn_cast<RankedTensorType>(type);
    Type element = tensorType ? tensorType.getElementType() : type;
    std::optional<rt::DType> dtype = dtypeOf(element);
    if (!dtype)
      return fail(what + " has element type " + typeName(element) +
                  ", which stride-run does not support (f32, f64, i32, i64, "
                  "i1)");
    std::vector<int64_t> declared;
    if (tensorType)
      declared.assign(tensorType.getShape().begin(),
                      tensorType.getShape().end());
    rt::Array values;
    if (randomInputs) {
      std::vector<int64_t> shape = declared;
      if (!shapeTexts.empty()) {
        std::optional<std::vector<int64_t>> parsed =
            parseShape(shapeTexts[i]);
        if (!parsed)
          return fail("--shape '" + shapeTexts[i] +
                      "' is not a shape like 4x3 or 'scalar'");
        shape = *parsed;
      } else if (llvm::any_of(shape, ShapedType::isDynamic)) {
        return fail(what + " has dynamic dims; give its shape with --shape");
      }
      if (!rt::checkedByteSize(*dtype, shape))
        return fail(what + ": shape " + rt::formatShape(shape) +
                    " is too large");
      // Tensor values are drawn later, straight into their buffers.
      values.dtype = *dtype;
      values.shape = shape;
      if (!tensorType)
        values = rt::randomArray(*dtype, shape, seed * 1000003 + i);
    } else {
      rt::NpyResult read = rt::readNpy(inputPaths[i]);
      if (!read.array)
        return fail(what + ": " + read.error);
      values = std::move(*read.array);
      if (values.dtype != *dtype)
        return fail(what + " has element type " + typeName(element) +
                    " but '" + inputPaths[i] + "' holds " +
                    rt::dtypeName(values.dtype));
    }
    // Shapes must fit the signature: same rank, equal static dims.
    bool fits = values.shape.size() == declared.size();
    for (size_t d = 0; fits && d < declared.size(); ++d)
      fits = ShapedType::isDynamic(declared[d]) ||
             declared[d] == values.shape[d];
    if (!fits) {
      SmallVector<int64_t> shown(declared.begin(), declared.end());
      std::string expected;
      llvm::raw_string_ostream os(expected);
      llvm::interleave(
          shown, os,
          [&](int64_t s) { os << (ShapedType::isDynamic(s) ? "?" : std::to_string(s)); },
          "x");
      if (shown.empty())
        expected = "0-d";
      return fail(what + " has shape " + expected + " but " +
                  (randomInputs ? std::string("--shape gives ")
                                : "'" + inputPaths[i] + "' has shape ") +
                  rt::formatShape(values.shape));
    }
    PreparedArg &arg = args[i];
    arg.shape = values.shape;
    if (!tensorType) {
      switch (*dtype) {
      case rt::DType::F32: std::memcpy(&arg.scalar.f32, values.data.data(), 4); break;
      case rt::DType::F64: std::memcpy(&arg.scalar.f64, values.data.data(), 8); break;
      case rt::DType::I32: std::memcpy(&arg.scalar.i32, values.data.data(), 4); break;
      case rt::DType::I64: std::memcpy(&arg.scalar.i64, values.data.data(), 8); break;
      case rt::DType::I1: arg.scalar.i1 = values.data[0] != 0; break;
      }
      continue;
    }
    arg.strides = argumentStrides(tensorType, values.shape);
    if (randomInputs) {
      // Random values go to memory itself, so that a broadcast (stride 0)
      // or overlapping layout is consistent by construction.
      auto buffer = rt::StridedBuffer::create(*dtype, values.shape, arg.strides);
      if (auto *error = std::get_if<std::string>(&buffer))
        return fail(what + ": " + *error);
      arg.buffer = std::move(std::get<rt::StridedBuffer>(buffer));
      rt::Array storage = rt::randomArray(
          *dtype, {arg.buffer->allocatedElements()}, seed * 1000003 + i);
      std::memcpy(arg.buffer->allocated(), storage.data.data(),
                  storage.data.size());
      continue;
    }
    auto buffer = rt::StridedBuffer::createFilled(values, arg.strides);
    if (auto *error = std::get_if<std::string>(&buffer))
      return fail(what + ": " + *error);
    arg.buffer = std::move(std::get<rt::StridedBuffer>(buffer));
  }

  // A copy of the entry specialized to the inputs' shapes and strides: it is
  // what gets compiled by default, and it tells the output shapes.
  OwningOpRef<ModuleOp> specialized = module->clone();
  auto specializedEntry =
      specialized->lookupSymbol<func::FuncOp>(entry.getName());
  std::vector<std::optional<ArgLayout>> layouts;
  for (PreparedArg &arg : args)
    layouts.push_back(arg.buffer ? std::optional<ArgLayout>(
                                       ArgLayout{arg.shape, arg.strides})
                                 : std::nullopt);
  std::string specializeError;
  if (failed(specializeEntry(specializedEntry, layouts, specializeError)))
    return fail(specializeError);

  CpuPipelineOptions options;
  options.policy = policy;
  options.fuse = !noFuse;
  options.threads = std::max(1u, threads.getValue());
  if (target != "cpu" && target != "gpu-host" && target != "gpu")
    return fail("unknown --target '" + target +
                "' (expected cpu, gpu or gpu-host)");
  options.gpuHost = target == "gpu-host";
  options.gpu = target == "gpu";
  if (options.gpuHost || options.gpu)
    options.threads = 1;
  if (options.gpu) {
    if (std::string why = gpuUnavailableReason(); !why.empty()) {
      llvm::errs() << "stride-run: error: --target=gpu: no usable GPU: "
                   << why << "\n";
      return STRIDE_GPU_EXIT_NO_DEVICE;
    }
  }
  std::vector<std::vector<int64_t>> outputShapes, outputStrides;
  std::string probeDiagnostics;
  if (dynamicShapes) {
    // Output shapes and strides come from shape inference on the inputs.
    // Its diagnostics are shown only if the outputs need it: otherwise the
    // kernel's own run-time checks report the problem.
    OwningOpRef<ModuleOp> probe = specialized->clone();
    ScopedDiagnosticHandler quiet(&context, [&](Diagnostic &d) {
      llvm::raw_string_ostream os(probeDiagnostics);
      os << d.getLocation() << ": " << d << "\n";
      return success();
    });
    PassManager pm(&context);
    pm.addPass(createStrideInferShapes());
    pm.addPass(createStridePropagateLayout(
        StridePropagateLayoutOptions{policy, false}));
    if (succeeded(pm.run(*probe))) {
      auto probeEntry = probe->lookupSymbol<func::FuncOp>(entry.getName());
      for (Type t : probeEntry.getResultTypes()) {
        auto ranked = dyn_cast<RankedTensorType>(t);
        if (!ranked)
          continue;
        outputShapes.emplace_back(ranked.getShape().begin(),
                                  ranked.getShape().end());
        SmallVector<int64_t> strides = getStridesOf(ranked);
        outputStrides.emplace_back(strides.begin(), strides.end());
      }
    }
  }

  std::string compileError;
  std::unique_ptr<JitKernel> kernel =
      JitKernel::compile(dynamicShapes ? *module : *specialized,
                         entry.getName(), options, compileError);
  if (!kernel)
    return fail("cannot compile " + entryText + ": " + compileError);
  if (kernel->inputs().size() != args.size())
    return fail("the compiled kernel takes a different number of inputs");

  // Output buffers: the kernel's static layout, else the inferred one.
  std::vector<PreparedArg> outputs(kernel->outputs().size());
  for (auto [j, param] : llvm::enumerate(kernel->outputs())) {
    bool isStatic = llvm::none_of(param.shape, ShapedType::isDynamic) &&
                    llvm::none_of(param.strides, ShapedType::isDynamic);
    std::vector<int64_t> shape = param.shape, strides = param.strides;
    if (!isStatic) {
      if (j >= outputShapes.size()) {
        llvm::errs() << probeDiagnostics;
        return fail("the inputs' shapes do not fit " + entryText);
      }
      shape = outputShapes[j];
      strides = outputStrides[j];
    }
    std::optional<rt::DType> dtype =
        rt::parseDType(elementKindName(param.element));
    if (!dtype)
      return fail("result #" + std::to_string(j) + " has element type " +
                  param.typeName +
                  ", which stride-run does not support");
    auto buffer = rt::StridedBuffer::create(*dtype, shape, strides);
    if (auto *error = std::get_if<std::string>(&buffer))
      return fail("result #" + std::to_string(j) + ": " + *error);
    outputs[j].buffer = std::move(std::get<rt::StridedBuffer>(buffer));
    outputs[j].shape = shape;
    outputs[j].strides = strides;
  }

  // Descriptors for the call.
  std::vector<BufferArg> descriptors;
  std::vector<ScalarArg *> scalars;
  auto describe = [](PreparedArg &arg) {
    BufferArg d;
    d.allocated = arg.buffer->allocated();
    d.aligned = arg.buffer->aligned();
    d.offset = arg.buffer->offset();
    d.sizes = arg.shape;
    d.strides = arg.strides;
    return d;
  };
  for (PreparedArg &arg : args) {
    if (arg.buffer)
      descriptors.push_back(describe(arg));
    else
      scalars.push_back(&arg.scalar);
  }
  for (PreparedArg &out : outputs)
    descriptors.push_back(describe(out));
  std::vector<BufferArg *> buffers;
  for (BufferArg &d : descriptors)
    buffers.push_back(&d);

  // --target=gpu: the kernels get device copies of every buffer's span.
  std::unique_ptr<DeviceBuffers> device;
  std::vector<BufferArg> deviceDescriptors;
  if (options.gpu) {
    device = std::make_unique<DeviceBuffers>();
    std::vector<const KernelParam *> bufferParams;
    for (const KernelParam &param : kernel->inputs())
      if (param.isBuffer)
        bufferParams.push_back(&param);
    for (const KernelParam &param : kernel->outputs())
      bufferParams.push_back(&param);
    if (bufferParams.size() != descriptors.size())
      return fail("the compiled kernel's buffers do not match the arguments");
    for (auto [d, param] : llvm::zip(descriptors, bufferParams))
      deviceDescriptors.push_back(
          device->add(d, elementSizeOf(param->element)));
    for (auto [i, d] : llvm::enumerate(deviceDescriptors))
      buffers[i] = &d;
  }

  std::signal(SIGABRT, onKernelAbort);
  if (std::string error = kernel->invoke(buffers, scalars); !error.empty())
    return fail("calling " + entryText + " failed: " + error);
  if (device)
    for (size_t j = 0; j < outputs.size(); ++j)
      device->copyBack(descriptors.size() - outputs.size() + j);

  if (benchRuns > 0) {
    for (int warm = 0; warm < 3; ++warm)
      (void)kernel->invoke(buffers, scalars);
    std::vector<double> micros;
    for (unsigned r = 0; r < benchRuns; ++r) {
      if (device) { // CUDA events
        micros.push_back(1000.0 * timeOnGpuMs([&] {
          (void)kernel->invoke(buffers, scalars);
        }));
        continue;
      }
      auto start = std::chrono::steady_clock::now();
      (void)kernel->invoke(buffers, scalars);
      auto stop = std::chrono::steady_clock::now();
      micros.push_back(
          std::chrono::duration<double, std::micro>(stop - start).count());
    }
    std::sort(micros.begin(), micros.end());
    llvm::outs() << llvm::format("bench: %u calls, median %.3f us, min %.3f us\n",
                                 benchRuns.getValue(), micros[micros.size() / 2],
                                 micros.front());
  }

  if (!outputDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(outputDir))
      return fail("cannot create '" + outputDir + "': " + ec.message());
  }
  for (auto [j, out] : llvm::enumerate(outputs)) {
    rt::Array values = out.buffer->gather();
    llvm::outs() << "output #" << j << ": " << rt::dtypeName(values.dtype)
                 << " " << rt::formatShape(values.shape) << " strides "
                 << rt::formatStrides(out.strides) << "\n";
    if (printValues)
      printArray(llvm::outs(), values);
    if (!outputDir.empty()) {
      SmallString<128> path(outputDir);
      llvm::sys::path::append(path, "out" + std::to_string(j) + ".npy");
      if (std::string error = rt::writeNpy(path.str().str(), values);
          !error.empty())
        return fail(error);
    }
  }
  return 0;
}
