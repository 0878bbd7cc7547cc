//===- StrideRun.cpp - The stride-run command -----------------------------===//
//
// Reads a Stride program and its inputs (.npy files or random values), lays
// each input out in memory exactly as its argument's #stride.layout says, JIT
// compiles the entry function with the CPU pipeline and calls it with output
// buffers in the layouts the compiler chose; then prints, saves and times.
// The phases are functions of their own; those that need no MLIR (checking,
// laying out, allocating, timing, reporting) are the runtime's RunSteps,
// which stride-exec shares.
//
//===----------------------------------------------------------------------===//

#include "stride/Driver/Threads.h"
#include "stride/ToolMains.h"

#include "stride/Dialect/Stride/IR/StrideOps.h"
#include "stride/Dialect/Stride/Transforms/Passes.h"
#include "stride/Driver/DistributeReport.h"
#include "stride/Driver/DistributionPlan.h"
#include "stride/Driver/GpuBuffers.h"
#include "stride/Driver/JitKernel.h"
#include "stride/Driver/ToolOptions.h"
#include "stride/Layout/Strides.h"
#include "stride/Runtime/AotMetadata.h"
#include "stride/Runtime/Distributed.h"
#include "stride/Runtime/Npy.h"
#include "stride/Runtime/RunSteps.h"
#include "stride/Runtime/StridedBuffer.h"
#include "stride/Support/GridShape.h"

#include "MpiLoader.h"
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
#include <cstdio>
#include <malloc.h>

using namespace mlir;
using namespace mlir::stride;
namespace rt = ::stride::runtime;
namespace cl = llvm::cl;

namespace {

int fail(const llvm::Twine &message) {
  llvm::outs().flush();
  // One write, so that the lines of the ranks of an mpirun job do not
  // interleave.
  llvm::errs() << ("stride-run: error: " + message + "\n").str();
  return 1;
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

struct RunOptions {
  std::string inputFile, entryName, outputDir;
  ::stride::layout::Policy policy = ::stride::layout::Policy::Torch;
  std::vector<std::string> inputPaths, shapeTexts;
  bool randomInputs = false, printValues = false, dynamicShapes = false,
       noFuse = false;
  // --target: cpu, gpu (device copies, CUDA-event timing) or gpu-host.
  Target target = Target::Cpu;
  uint64_t seed = 0;
  unsigned benchRuns = 0, threads = 0; // 0: $STRIDE_NUM_THREADS or the cores
  // --distribute: the grid of ranks ("4", "2x2"; empty: one process) and
  // the strategy.
  std::string distribute;
  std::vector<int64_t> grid;
  std::string strategy = "auto";
};

/// Phase 1: the program and its entry function.
std::string loadEntry(const RunOptions &options, MLIRContext &context,
                      llvm::SourceMgr &sourceMgr, OwningOpRef<ModuleOp> &module,
                      func::FuncOp &entry) {
  std::string error;
  module = parseProgramFile(options.inputFile, sourceMgr, context, error);
  if (!module)
    return error;
  entry = selectEntry(*module, options.entryName, options.inputFile, error);
  return error;
}

/// Phase 2: every argument read (or drawn), checked against the signature
/// and laid out as its declared layout says.
std::string prepareInputs(const RunOptions &options, func::FuncOp entry,
                          std::vector<rt::PreparedArg> &args) {
  std::string entryText = "@" + entry.getName().str();
  TypeRange argTypes = entry.getArgumentTypes();
  if (!options.randomInputs && options.inputPaths.size() != argTypes.size())
    return entryText + " takes " + std::to_string(argTypes.size()) +
           " arguments but " + std::to_string(options.inputPaths.size()) +
           " --input files were given";
  if (options.randomInputs && !options.shapeTexts.empty() &&
      options.shapeTexts.size() != argTypes.size())
    return entryText + " takes " + std::to_string(argTypes.size()) +
           " arguments but " + std::to_string(options.shapeTexts.size()) +
           " --shape values were given";
  for (auto [i, type] : llvm::enumerate(argTypes)) {
    std::string what = "argument #" + std::to_string(i) + " of " + entryText;
    if (isa<UnrankedTensorType>(type))
      return what + " is unranked; give its rank";
    auto tensorType = dyn_cast<RankedTensorType>(type);
    Type element = tensorType ? tensorType.getElementType() : type;
    std::optional<ElementType> dtype = elementTypeOf(element);
    if (!dtype)
      return what + " has element type " + typeName(element) +
             ", which stride-run does not support (" +
             ::stride::elementTypeList(&::stride::ElementTypeInfo::name) + ")";
    std::vector<int64_t> declared;
    if (tensorType)
      declared.assign(tensorType.getShape().begin(),
                      tensorType.getShape().end());
    uint64_t seed = options.seed * 1000003 + i;
    std::string error;
    if (options.randomInputs) {
      std::vector<int64_t> shape = declared;
      if (!options.shapeTexts.empty()) {
        std::optional<std::vector<int64_t>> parsed =
            parseShape(options.shapeTexts[i]);
        if (!parsed)
          return "--shape '" + options.shapeTexts[i] +
                 "' is not a shape like 4x3 or 'scalar'";
        shape = *parsed;
      } else if (llvm::any_of(shape, ShapedType::isDynamic)) {
        return what + " has dynamic dims; give its shape with --shape";
      }
      if (!rt::checkedByteSize(*dtype, shape))
        return what + ": shape " + rt::formatShape(shape) + " is too large";
      if (error = rt::checkShape(shape, declared, what, "--shape gives ");
          !error.empty())
        return error;
      if (!tensorType) {
        args.push_back(rt::prepareScalar(rt::randomArray(*dtype, shape, seed)));
        continue;
      }
      // Random values go to memory itself, so that a broadcast (stride 0)
      // or overlapping layout is consistent by construction.
      std::optional<rt::PreparedArg> arg = rt::prepareRandomTensor(
          *dtype, shape, argumentStrides(tensorType, shape), seed, error);
      if (!arg)
        return what + ": " + error;
      args.push_back(std::move(*arg));
      continue;
    }
    const std::string &path = options.inputPaths[i];
    rt::NpyResult read = rt::readNpy(path);
    if (!read.array)
      return what + ": " + read.error;
    const rt::Array &values = *read.array;
    if (error =
            rt::checkElementType(values.dtype, *dtype, what, "'" + path + "'");
        !error.empty())
      return error;
    if (error = rt::checkShape(values.shape, declared, what,
                               "'" + path + "' has shape ");
        !error.empty())
      return error;
    if (!tensorType) {
      args.push_back(rt::prepareScalar(values));
      continue;
    }
    std::optional<rt::PreparedArg> arg = rt::prepareTensor(
        values, argumentStrides(tensorType, values.shape), error);
    if (!arg)
      return what + ": " + error;
    args.push_back(std::move(*arg));
  }
  return "";
}

/// Phase 3 (--dynamic): the output shapes and strides, from shape inference
/// on the entry specialized to the inputs. Its diagnostics are kept in
/// `diagnostics` and shown only if the outputs need them: otherwise the
/// kernel's own run-time checks report the problem.
void inferOutputLayouts(MLIRContext &context, ModuleOp specialized,
                        StringRef entryName, ::stride::layout::Policy policy,
                        std::vector<std::vector<int64_t>> &shapes,
                        std::vector<std::vector<int64_t>> &strides,
                        std::string &diagnostics) {
  OwningOpRef<ModuleOp> probe = specialized.clone();
  ScopedDiagnosticHandler quiet(&context, [&](Diagnostic &d) {
    llvm::raw_string_ostream os(diagnostics);
    os << d.getLocation() << ": " << d << "\n";
    return success();
  });
  if (failed(inferLayouts(*probe, policy)))
    return;
  auto probeEntry = probe->lookupSymbol<func::FuncOp>(entryName);
  for (Type t : probeEntry.getResultTypes()) {
    auto ranked = dyn_cast<RankedTensorType>(t);
    if (!ranked)
      continue;
    shapes.emplace_back(ranked.getShape().begin(), ranked.getShape().end());
    SmallVector<int64_t> resultStrides = getStridesOf(ranked);
    strides.emplace_back(resultStrides.begin(), resultStrides.end());
  }
}

/// Phase 4: output buffers in the kernel's static layout, else the inferred
/// one.
std::string allocateOutputs(const JitKernel &kernel, StringRef entryText,
                            const std::vector<std::vector<int64_t>> &shapes,
                            const std::vector<std::vector<int64_t>> &strides,
                            const std::string &probeDiagnostics,
                            std::vector<rt::PreparedArg> &outputs) {
  for (auto [j, param] : llvm::enumerate(kernel.outputs())) {
    bool isStatic = llvm::none_of(param.shape, ShapedType::isDynamic) &&
                    llvm::none_of(param.strides, ShapedType::isDynamic);
    std::vector<int64_t> shape = param.shape, layout = param.strides;
    if (!isStatic) {
      if (j >= shapes.size()) {
        llvm::errs() << probeDiagnostics;
        return "the inputs' shapes do not fit " + entryText.str();
      }
      shape = shapes[j];
      layout = strides[j];
      // The kernel was compiled with the static strides of its output type,
      // decided with representative sizes; these sizes may give the policy
      // another layout, which it would write wrongly.
      static_assert(ShapedType::kDynamic == rt::kAotDynamic,
                    "the kernel's dynamic marker is the runtime's");
      if (std::string error = rt::checkKernelCanWrite(
              param.shape, param.strides, shape, layout,
              "result #" + std::to_string(j) + " of " + entryText.str());
          !error.empty())
        return error;
    }
    std::optional<ElementType> dtype = param.element;
    if (!dtype)
      return "result #" + std::to_string(j) + " has element type " +
             param.typeName + ", which stride-run does not support";
    std::string error;
    std::optional<rt::PreparedArg> out =
        rt::prepareOutput(*dtype, shape, layout, error);
    if (!out)
      return "result #" + std::to_string(j) + ": " + error;
    outputs.push_back(std::move(*out));
  }
  return "";
}

BufferArg describe(rt::PreparedArg &arg) {
  BufferArg d;
  d.allocated = arg.buffer->allocated();
  d.aligned = arg.buffer->aligned();
  d.offset = arg.buffer->offset();
  d.sizes.assign(arg.shape.begin(), arg.shape.end());
  d.strides.assign(arg.strides.begin(), arg.strides.end());
  return d;
}

/// Phase 5: the call, then --bench timing. With --target=gpu the kernel
/// gets device copies of every buffer's span, the outputs are copied back
/// after the first call, and --bench times with CUDA events.
std::string runKernel(JitKernel &kernel, StringRef entryText,
                      std::vector<rt::PreparedArg> &args,
                      std::vector<rt::PreparedArg> &outputs, unsigned benchRuns,
                      bool gpu) {
  std::vector<BufferArg> descriptors;
  std::vector<ScalarValue *> scalars;
  for (rt::PreparedArg &arg : args) {
    if (arg.buffer)
      descriptors.push_back(describe(arg));
    else
      scalars.push_back(&arg.scalar);
  }
  for (rt::PreparedArg &out : outputs)
    descriptors.push_back(describe(out));
  std::vector<BufferArg *> buffers;
  for (BufferArg &d : descriptors)
    buffers.push_back(&d);

  std::unique_ptr<DeviceBuffers> device;
  std::vector<BufferArg> deviceDescriptors;
  if (gpu) {
    device = std::make_unique<DeviceBuffers>();
    std::vector<const KernelParam *> bufferParams;
    for (const KernelParam &param : kernel.inputs())
      if (param.isBuffer)
        bufferParams.push_back(&param);
    for (const KernelParam &param : kernel.outputs())
      bufferParams.push_back(&param);
    if (bufferParams.size() != descriptors.size())
      return "the compiled kernel's buffers do not match the arguments";
    for (auto [d, param] : llvm::zip(descriptors, bufferParams)) {
      if (!param->element) // refused when the arguments were prepared
        return "a buffer of element type " + param->typeName +
               " cannot be copied to the device";
      deviceDescriptors.push_back(
          device->add(d, ::stride::elementSize(*param->element)));
    }
    for (auto [i, d] : llvm::enumerate(deviceDescriptors))
      buffers[i] = &d;
  }

  rt::exitOnKernelAbort("stride-run");
  if (std::string error = kernel.invoke(buffers, scalars); !error.empty())
    return "calling " + entryText.str() + " failed: " + error;
  if (device)
    for (size_t j = 0; j < outputs.size(); ++j)
      device->copyBack(descriptors.size() - outputs.size() + j);
  if (benchRuns == 0)
    return "";
  auto call = [&] { (void)kernel.invoke(buffers, scalars); };
  if (device)
    llvm::outs() << rt::benchmark(benchRuns, call,
                                  [&] { return 1000.0 * timeOnGpuMs(call); });
  else
    llvm::outs() << rt::benchmark(benchRuns, call);
  return "";
}

//===----------------------------------------------------------------------===//
// --distribute N: one process of an mpirun job
//===----------------------------------------------------------------------===//

int runDistributed(const RunOptions &options, MLIRContext &context,
                   ModuleOp module, func::FuncOp entry) {
  std::string entryText = "@" + entry.getName().str();
  ::stride::mpi::Job job(int(::stride::gridRanks(options.grid)),
                         "--distribute " + options.distribute);
  if (!job.error().empty())
    return fail(job.error());
  rt::Ranks ranks{::stride::mpi::runtime(), job.rank(), job.size(),
                  options.grid};

  // Every rank compiles the same program, specialized to the declared
  // (static) argument layouts, which rank 0's inputs must then match.
  OwningOpRef<ModuleOp> specialized;
  std::string error = specializeToDeclared(module, entry, specialized);
  DistributionPlan plan;
  if (error.empty())
    error = planDistribution(
        context, *specialized, entry.getName(), options.distribute,
        options.strategy, options.policy, /*showRemark=*/ranks.rank == 0, plan);
  std::unique_ptr<JitKernel> kernel;
  if (error.empty()) {
    StridePipelineOptions pipeline;
    pipeline.policy = options.policy;
    pipeline.fuse = !options.noFuse;
    pipeline.threads = options.threads;
    pipeline.distribute = options.distribute;
    pipeline.distributeStrategy = options.strategy;
    ScopedDiagnosticHandler quietRemarks(&context, [](Diagnostic &d) {
      return success(d.getSeverity() == DiagnosticSeverity::Remark);
    });
    kernel = JitKernel::compile(*specialized, entry.getName(), pipeline, error);
    if (!kernel)
      error = "cannot compile " + entryText + ": " + error;
  }
  if (!error.empty())
    fail(error);
  if (!rt::everyRankOk(ranks, error.empty()))
    return 1;

  std::vector<rt::PreparedArg> globalArgs, args, localOutputs, outputs;
  if (ranks.rank == 0)
    error = prepareInputs(options, entry, globalArgs);
  if (!error.empty())
    fail(error);
  if (!rt::everyRankOk(ranks, error.empty()))
    return 1;
  error = rt::scatterInputs(ranks, plan.inputs, globalArgs, args);
  globalArgs.clear();
  if (error.empty())
    error = allocateOutputs(*kernel, entryText, {}, {}, "", localOutputs);
  if (error.empty())
    error = runKernel(*kernel, entryText, args, localOutputs,
                      ranks.rank == 0 ? options.benchRuns : 0, false);
  if (!error.empty())
    fail(error);
  if (!rt::everyRankOk(ranks, error.empty()))
    return 1;
  error = rt::gatherOutputs(ranks, plan.outputs, localOutputs, outputs);
  if (error.empty() && ranks.rank == 0) {
    std::string report;
    error = rt::reportOutputs(outputs, options.printValues, options.outputDir,
                              report);
    llvm::outs() << report;
    llvm::outs().flush();
  }
  if (!error.empty())
    fail(error);
  return rt::everyRankOk(ranks, error.empty()) ? 0 : 1;
}

} // namespace

int ::stride::strideRunMain(int argc, char **argv) {
  static cl::OptionCategory category("stride-run options");
  static CompileToolOptions compile(category, CompileToolOptions::Tool::Run);
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
  static cl::opt<std::string> target(
      "target",
      cl::desc("cpu (default); gpu: run on the GPU (sm_90 kernels, the "
               "CUDA driver through libstride_gpu_runtime; exit status 69 "
               "without a usable GPU); or gpu-host: compile the kernels as "
               "for the GPU and run them on this CPU with the grid and "
               "block enumerated (checks GPU kernel code without a GPU)"),
      cl::init("cpu"), cl::cat(category));
  static cl::opt<std::string> distribute(
      "distribute",
      cl::desc("Run as one of N processes (or of a grid NxM...) started by "
               "mpirun (OpenMPI or "
               "MPICH): the entry is partitioned by stride-distribute, rank "
               "0 reads the inputs and scatters them, and gathers, prints "
               "and writes the results"),
      cl::cat(category));
  static cl::opt<bool> distributeReport(
      "distribute-report",
      cl::desc("With --distribute N: print, for every strategy, the bytes "
               "each rank would send and receive and the flops it would do, "
               "without running (no mpirun needed; any N)"),
      cl::cat(category));
  static cl::opt<std::string> strategy(
      "distribute-strategy",
      cl::desc("With --distribute: auto (default), rows, cols or k"),
      cl::init("auto"), cl::cat(category));
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "Stride JIT runner\n");
  RunOptions options;
  options.inputFile = compile.inputFile;
  options.entryName = entryName;
  options.inputPaths.assign(inputPaths.begin(), inputPaths.end());
  options.randomInputs = randomInputs;
  options.seed = seed;
  options.shapeTexts.assign(shapeTexts.begin(), shapeTexts.end());
  options.outputDir = outputDir;
  options.printValues = printValues;
  options.benchRuns = benchRuns;
  options.policy = compile.policy.getValue();
  options.dynamicShapes = compile.dynamicShapes;
  options.threads = compile.threads.getValue();
  options.noFuse = compile.noFuse;
  // "0" is one process, as when --distribute was a count.
  options.distribute = distribute == "0" ? "" : distribute.getValue();
  if (!options.distribute.empty())
    if (std::string error =
            ::stride::parseGridShape(options.distribute, options.grid);
        !error.empty())
      return fail("--distribute: " + error);
  options.strategy = strategy;
  std::optional<Target> parsedTarget = parseTarget(target);
  if (!parsedTarget)
    return fail("unknown --target '" + target +
                "' (expected cpu, gpu or gpu-host)");
  options.target = *parsedTarget;
  if (options.target != Target::Cpu)
    options.threads = 1;

  // Kernels allocate their intermediates with malloc on every call. Keep
  // large blocks in the heap instead of fresh mmaps, so that repeated calls
  // (--bench) reuse warm pages rather than page-faulting 64 MiB temporaries.
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);

  if (options.randomInputs && !options.inputPaths.empty())
    return fail("give either --input files or --random-inputs, not both");

  DialectRegistry registry;
  registerJitDialects(registry);
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module;
  func::FuncOp entry;
  if (std::string error = loadEntry(options, context, sourceMgr, module, entry);
      !error.empty())
    return fail(error);
  std::string entryText = "@" + entry.getName().str();
  if (distributeReport && options.distribute.empty())
    return fail("--distribute-report needs --distribute N");
  if (!options.distribute.empty()) {
    if (options.dynamicShapes || options.target != Target::Cpu ||
        !options.shapeTexts.empty())
      return fail("--distribute runs static shapes on the CPU: drop "
                  "--dynamic, --shape and --target");
    if (distributeReport) {
      OwningOpRef<ModuleOp> specialized;
      if (std::string error = specializeToDeclared(*module, entry, specialized);
          !error.empty())
        return fail(error);
      llvm::outs() << mlir::stride::distributeReport(
          context, *specialized, entry.getName(), options.distribute,
          options.policy);
      return 0;
    }
    return runDistributed(options, context, *module, entry);
  }

  std::vector<rt::PreparedArg> args;
  if (std::string error = prepareInputs(options, entry, args); !error.empty())
    return fail(error);

  // A copy of the entry specialized to the inputs' shapes and strides: it is
  // what gets compiled by default, and it tells the output shapes.
  OwningOpRef<ModuleOp> specialized = module->clone();
  auto specializedEntry =
      specialized->lookupSymbol<func::FuncOp>(entry.getName());
  std::vector<std::optional<ArgLayout>> layouts;
  for (rt::PreparedArg &arg : args)
    layouts.push_back(
        arg.buffer ? std::optional<ArgLayout>(ArgLayout{arg.shape, arg.strides})
                   : std::nullopt);
  std::string specializeError;
  if (failed(specializeEntry(specializedEntry, layouts, specializeError)))
    return fail(specializeError);

  if (std::string bad = checkThreadsEnvironment(); !bad.empty())
    return fail(bad);
  if (options.target == Target::Gpu) {
    if (std::string why = gpuUnavailableReason(); !why.empty()) {
      llvm::errs() << "stride-run: error: --target=gpu: no usable GPU: " << why
                   << "\n";
      return STRIDE_GPU_EXIT_NO_DEVICE;
    }
  }
  std::vector<std::vector<int64_t>> outputShapes, outputStrides;
  std::string probeDiagnostics;
  if (options.dynamicShapes)
    inferOutputLayouts(context, *specialized, entry.getName(), options.policy,
                       outputShapes, outputStrides, probeDiagnostics);

  StridePipelineOptions pipeline;
  pipeline.policy = options.policy;
  pipeline.fuse = !options.noFuse;
  pipeline.threads = options.threads;
  pipeline.target = options.target;
  if (options.target == Target::GpuHost) {
    // Small blocks and grids, so that the grid-stride loops of the GPU
    // kernels take several turns on test-sized arrays.
    pipeline.blockSize = 32;
    pipeline.maxBlocks = 4;
  }
  std::string compileError;
  std::unique_ptr<JitKernel> kernel =
      JitKernel::compile(options.dynamicShapes ? *module : *specialized,
                         entry.getName(), pipeline, compileError);
  if (!kernel)
    return fail("cannot compile " + entryText + ": " + compileError);
  if (kernel->inputs().size() != args.size())
    return fail("the compiled kernel takes a different number of inputs");

  std::vector<rt::PreparedArg> outputs;
  if (std::string error =
          allocateOutputs(*kernel, entryText, outputShapes, outputStrides,
                          probeDiagnostics, outputs);
      !error.empty())
    return fail(error);

  if (std::string error =
          runKernel(*kernel, entryText, args, outputs, options.benchRuns,
                    options.target == Target::Gpu);
      !error.empty())
    return fail(error);

  std::string report;
  std::string error = rt::reportOutputs(outputs, options.printValues,
                                        options.outputDir, report);
  llvm::outs() << report;
  if (!error.empty())
    return fail(error);
  return 0;
}
