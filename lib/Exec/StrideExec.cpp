//===- StrideExec.cpp - The stride-exec command ---------------------------===//
//
// Loads a library written by stride-compile, reads the layout metadata it
// embeds, lays the inputs out with the strides each argument declares (the
// runtime's StridedBuffer, as stride-run does), checks every argument against
// the declaration before anything reaches the kernel, allocates the outputs
// in the compiler's layouts and calls the entry's packed function.
//
//===----------------------------------------------------------------------===//

#include "stride/ToolMains.h"

#include "DeviceCopies.h"
#include "MpiLoader.h"

#include "stride/Runtime/AotMetadata.h"
#include "stride/Runtime/Distributed.h"
#include "stride/Runtime/Npy.h"
#include "stride/Runtime/RunSteps.h"
#include "stride/Support/GridShape.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace rt = ::stride::runtime;

// The metadata's dynamic marker goes straight into the shape checks.
static_assert(rt::kAotDynamic == rt::kAnySize,
              "a dynamic size in the metadata must accept any size");

namespace {

const char *kUsage =
    "usage: stride-exec LIBRARY [--entry NAME] (--input FILE.npy ... | "
    "--random-inputs [--seed N] [--shape 4x3 ...]) [--output-dir DIR] "
    "[--print] [--bench N] [--list]\n"
    "Runs an entry of a library compiled by stride-compile.\n"
    "  --entry NAME      the entry to run (default: main, or the only one)\n"
    "  --input FILE      a .npy file per argument, in order (0-d for "
    "scalars)\n"
    "  --random-inputs   fill every argument with random values (as "
    "stride-run)\n"
    "  --seed N          seed for --random-inputs\n"
    "  --shape S         with --random-inputs: each argument's shape, in "
    "order (needed for dynamic dims)\n"
    "  --output-dir DIR  write each result as DIR/out<N>.npy\n"
    "  --print           print the results\n"
    "  --bench N         time N calls after warm-up; print median and min\n"
    "  --list            list the library's entries and their layouts\n";

/// The runtime's EX_UNAVAILABLE: no driver or no GPU for a GPU library.
constexpr int kExitNoDevice = 69;

int fail(const std::string &message) {
  std::fflush(stdout);
  // One write, so that the lines of an mpirun job's ranks do not interleave.
  std::cerr << ("stride-exec: error: " + message + "\n") << std::flush;
  return 1;
}

struct Options {
  std::string library, entry, outputDir;
  std::vector<std::string> inputs, shapes;
  bool randomInputs = false, print = false, list = false;
  uint64_t seed = 0;
  unsigned bench = 0;
};

bool parseUnsigned(const std::string &text, uint64_t &value) {
  if (text.empty() || text[0] == '-')
    return false;
  errno = 0;
  char *end = nullptr;
  value = std::strtoull(text.c_str(), &end, 10);
  return errno == 0 && end == text.c_str() + text.size();
}

/// Parses argv; "" or an error. --help prints the usage and exits.
std::string parseOptions(int argc, char **argv, Options &options) {
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    bool hasValue = false;
    if (arg.rfind("--", 0) == 0) {
      size_t eq = arg.find('=');
      if (eq != std::string::npos) {
        value = arg.substr(eq + 1);
        arg = arg.substr(0, eq);
        hasValue = true;
      }
    }
    auto takeValue = [&]() -> bool {
      if (hasValue)
        return true;
      if (i + 1 >= argc)
        return false;
      value = argv[++i];
      return true;
    };
    auto noValue = [&]() { return !hasValue; };
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else if (arg == "--entry" || arg == "--input" || arg == "--shape" ||
               arg == "--output-dir" || arg == "--seed" || arg == "--bench") {
      if (!takeValue())
        return "option " + arg + " needs a value";
      uint64_t number = 0;
      if ((arg == "--seed" || arg == "--bench") &&
          !parseUnsigned(value, number))
        return "option " + arg + " takes a non-negative integer, not '" +
               value + "'";
      if (arg == "--bench" && number > 100000000)
        return "--bench " + value + " is too many calls";
      if (arg == "--entry")
        options.entry = value;
      else if (arg == "--input")
        options.inputs.push_back(value);
      else if (arg == "--shape")
        options.shapes.push_back(value);
      else if (arg == "--output-dir")
        options.outputDir = value;
      else if (arg == "--seed")
        options.seed = number;
      else
        options.bench = static_cast<unsigned>(number);
    } else if (arg == "--random-inputs" && noValue()) {
      options.randomInputs = true;
    } else if (arg == "--print" && noValue()) {
      options.print = true;
    } else if (arg == "--list" && noValue()) {
      options.list = true;
    } else if (arg.size() > 1 && arg[0] == '-') {
      return "unknown option '" + std::string(argv[i]) +
             "' (see stride-exec --help)";
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.size() != 1)
    return positional.empty()
               ? "give the library to run (see stride-exec --help)"
               : "give one library, not " + std::to_string(positional.size());
  options.library = positional.front();
  if (options.randomInputs && !options.inputs.empty())
    return "give either --input files or --random-inputs, not both";
  return "";
}

/// Parses "4x3", "7" or "scalar"/"0-d".
bool parseShape(const std::string &text, std::vector<int64_t> &shape) {
  shape.clear();
  if (text.empty() || text == "scalar" || text == "0-d")
    return true;
  size_t start = 0;
  while (true) {
    size_t x = text.find('x', start);
    uint64_t size;
    if (!parseUnsigned(text.substr(start, x - start), size) ||
        size > static_cast<uint64_t>(INT64_MAX))
      return false;
    shape.push_back(static_cast<int64_t>(size));
    if (x == std::string::npos)
      return true;
    start = x + 1;
  }
}

std::string describeParam(const rt::AotParam &param) {
  if (!param.isTensor)
    return std::string("scalar ") + elementTypeName(param.dtype);
  return std::string("tensor ") + elementTypeName(param.dtype) + " " +
         rt::formatAotShape(param.shape) + " strides " +
         rt::formatAotStrides(param.strides);
}

/// The entry to run: `wanted`, else main, else the only one.
const rt::AotEntry *selectEntry(const rt::AotMetadata &metadata,
                                const std::string &wanted,
                                const std::string &library,
                                std::string &error) {
  std::string name = wanted;
  if (name.empty() && metadata.find("main"))
    name = "main";
  if (name.empty() && metadata.entries.size() == 1)
    return &metadata.entries.front();
  if (const rt::AotEntry *entry = metadata.find(name))
    return entry;
  std::string names;
  for (const rt::AotEntry &e : metadata.entries)
    names += (names.empty() ? "@" : ", @") + e.name;
  if (name.empty() && metadata.entries.empty())
    error = "'" + library + "' has no entries";
  else if (name.empty())
    error = "'" + library + "' has several entries (" + names +
            "); choose one with --entry";
  else
    error = "no entry @" + name + " in '" + library + "' (entries: " +
            (names.empty() ? "none" : names) + ")";
  return nullptr;
}

/// Reads and checks every input; all mismatches go to `errors`, one line
/// each, so a user fixes them in one go.
std::vector<rt::PreparedArg> prepareInputs(const rt::AotEntry &entry,
                                           const Options &options,
                                           std::vector<std::string> &errors) {
  std::vector<rt::PreparedArg> args;
  std::string entryText = "@" + entry.name;
  size_t count = entry.inputs.size();
  if (!options.randomInputs && options.inputs.size() != count) {
    errors.push_back(entryText + " takes " + std::to_string(count) +
                     " arguments but " + std::to_string(options.inputs.size()) +
                     " --input files were given");
    return args;
  }
  if (options.randomInputs && !options.shapes.empty() &&
      options.shapes.size() != count) {
    errors.push_back(entryText + " takes " + std::to_string(count) +
                     " arguments but " + std::to_string(options.shapes.size()) +
                     " --shape values were given");
    return args;
  }
  for (size_t i = 0; i < count; ++i) {
    const rt::AotParam &param = entry.inputs[i];
    std::string what = "argument #" + std::to_string(i) + " of " + entryText;
    std::string error;
    if (options.randomInputs) {
      std::vector<int64_t> shape = param.shape;
      if (!options.shapes.empty()) {
        if (!parseShape(options.shapes[i], shape)) {
          errors.push_back("--shape '" + options.shapes[i] +
                           "' is not a shape like 4x3 or 'scalar'");
          continue;
        }
        if (error = rt::checkShape(shape, param.shape, what, "--shape gives ");
            !error.empty()) {
          errors.push_back(error);
          continue;
        }
      } else if (!param.shape.empty() &&
                 std::count(shape.begin(), shape.end(), rt::kAotDynamic)) {
        errors.push_back(what + " has dynamic dims; give its shape with --shape");
        continue;
      }
      if (!rt::checkedByteSize(param.dtype, shape)) {
        errors.push_back(what + ": shape " + rt::formatShape(shape) +
                         " is too large");
        continue;
      }
      uint64_t seed = options.seed * 1000003 + i;
      if (!param.isTensor) {
        args.push_back(rt::prepareScalar(rt::randomArray(param.dtype, {}, seed)));
        continue;
      }
      std::optional<rt::PreparedArg> arg = rt::prepareRandomTensor(
          param.dtype, shape, rt::aotInputStrides(param, shape), seed, error);
      if (!arg)
        errors.push_back(what + ": " + error);
      else
        args.push_back(std::move(*arg));
      continue;
    }
    const std::string &path = options.inputs[i];
    rt::NpyResult read = rt::readNpy(path);
    if (!read.array) {
      errors.push_back(what + ": " + read.error);
      continue;
    }
    const rt::Array &values = *read.array;
    bool ok = true;
    for (const std::string &problem :
         {rt::checkElementType(values.dtype, param.dtype, what,
                               "'" + path + "'"),
          rt::checkShape(values.shape, param.shape, what,
                         "'" + path + "' has shape ")})
      if (!problem.empty()) {
        errors.push_back(problem);
        ok = false;
      }
    if (!ok)
      continue;
    if (!param.isTensor) {
      args.push_back(rt::prepareScalar(values));
      continue;
    }
    std::vector<int64_t> strides = rt::aotInputStrides(param, values.shape);
    // The kernel assumes its static strides; a layout that cannot have them
    // for these sizes must not reach it.
    for (size_t d = 0; d < strides.size(); ++d)
      if (param.strides[d] != rt::kAotDynamic && param.strides[d] != strides[d]) {
        errors.push_back(what + " needs strides " +
                         rt::formatAotStrides(param.strides) +
                         ", which shape " + rt::formatShape(values.shape) +
                         (param.perm.empty() ? " in row-major order"
                                             : " dense in its dim order") +
                         " does not have");
        ok = false;
        break;
      }
    if (!ok)
      continue;
    std::optional<rt::PreparedArg> arg =
        rt::prepareTensor(values, strides, error);
    if (!arg)
      errors.push_back(what + ": " + error);
    else
      args.push_back(std::move(*arg));
  }
  return args;
}

/// MLIR's C-interface memref descriptor: allocated and aligned pointers,
/// then offset, sizes and strides, all 8 bytes on the 64-bit hosts the
/// runtime supports.
std::vector<int64_t> descriptorOf(rt::PreparedArg &arg) {
  static_assert(sizeof(void *) == sizeof(int64_t),
                "descriptors are built for 64-bit hosts");
  std::vector<int64_t> words(3 + 2 * arg.shape.size());
  void *allocated = arg.buffer->allocated();
  void *aligned = arg.buffer->aligned();
  std::memcpy(&words[0], &allocated, sizeof(void *));
  std::memcpy(&words[1], &aligned, sizeof(void *));
  words[2] = arg.buffer->offset();
  for (size_t d = 0; d < arg.shape.size(); ++d) {
    words[3 + d] = arg.shape[d];
    words[3 + arg.shape.size() + d] = arg.strides[d];
  }
  return words;
}

/// The entry's descriptors and scalar pointers for one packed call.
struct PackedArgs {
  std::vector<std::vector<int64_t>> descriptors;
  std::vector<void *> args;
};
PackedArgs packArgs(std::vector<rt::PreparedArg> &inputs,
                    std::vector<rt::PreparedArg> &outputs) {
  PackedArgs packed;
  packed.descriptors.reserve(inputs.size() + outputs.size());
  for (rt::PreparedArg &arg : inputs) {
    if (!arg.buffer) {
      packed.args.push_back(&arg.scalar);
      continue;
    }
    packed.descriptors.push_back(descriptorOf(arg));
    packed.args.push_back(packed.descriptors.back().data());
  }
  for (rt::PreparedArg &out : outputs) {
    packed.descriptors.push_back(descriptorOf(out));
    packed.args.push_back(packed.descriptors.back().data());
  }
  return packed;
}

/// "split along dim 1", or on a grid of several dims "split along dim 0
/// (grid axis 0) and dim 1 (grid axis 1)".
std::string splitText(const rt::AotParam &p, const std::vector<int64_t> &grid) {
  std::string text;
  for (size_t a = 0; a < p.split.size(); ++a) {
    if (p.split[a] < 0)
      continue;
    text += (text.empty() ? "split along dim " : " and dim ") +
            std::to_string(p.split[a]);
    if (grid.size() > 1)
      text += " (grid axis " + std::to_string(a) + ")";
  }
  return text;
}

/// A library compiled with --distribute N, run as one rank of an mpirun
/// job: as stride-run --distribute, rank 0 reads or draws the inputs in the
/// global layouts, scatters blocks, gathers the results and reports them.
int execDistributed(const rt::AotEntry &entry, const Options &options,
                    void (*packed)(void **)) {
  if (entry.globalInputs.size() != entry.inputs.size() ||
      entry.globalOutputs.size() != entry.outputs.size())
    return fail("the metadata of @" + entry.name +
                " has global parameters that do not match its own");
  ::stride::mpi::Job job(int(entry.ranks),
                         "@" + entry.name + " (compiled for " +
                             std::to_string(entry.ranks) + " ranks)");
  if (!job.error().empty())
    return fail(job.error());
  rt::Ranks ranks{::stride::mpi::runtime(), job.rank(), job.size(), entry.grid};
  // Rank 0 reads the inputs as the single-process entry declares them.
  rt::AotEntry global = entry;
  global.inputs = entry.globalInputs;
  global.outputs = entry.globalOutputs;
  std::vector<std::string> errors;
  std::vector<rt::PreparedArg> globalInputs;
  if (ranks.rank == 0)
    globalInputs = prepareInputs(global, options, errors);
  for (size_t i = 0; i + 1 < errors.size(); ++i)
    std::cerr << "stride-exec: error: " << errors[i] << "\n";
  if (!errors.empty())
    fail(errors.back());
  if (!rt::everyRankOk(ranks, errors.empty()))
    return 1;

  const std::vector<rt::DistributedParam> &inParams = entry.globalInputs;
  const std::vector<rt::DistributedParam> &outParams = entry.globalOutputs;
  std::vector<rt::PreparedArg> inputs, outputs, results;
  std::string error = rt::scatterInputs(ranks, inParams, globalInputs, inputs);
  globalInputs.clear();
  for (size_t j = 0; error.empty() && j < entry.outputs.size(); ++j) {
    const rt::AotParam &param = entry.outputs[j];
    std::optional<rt::PreparedArg> out =
        rt::prepareOutput(param.dtype, param.shape, param.strides, error);
    if (out)
      outputs.push_back(std::move(*out));
  }
  if (!error.empty())
    fail(error);
  if (!rt::everyRankOk(ranks, error.empty()))
    return 1;
  PackedArgs args = packArgs(inputs, outputs);
  rt::exitOnKernelAbort("stride-exec");
  auto call = [&] { packed(args.args.data()); };
  call();
  if (options.bench > 0 && ranks.rank == 0)
    std::cout << rt::benchmark(options.bench, call);
  else if (options.bench > 0)
    for (unsigned k = 0; k < options.bench + 3; ++k)
      call(); // the other ranks take part in the kernels' collectives
  error = rt::gatherOutputs(ranks, outParams, outputs, results);
  if (error.empty() && ranks.rank == 0) {
    std::string report;
    error =
        rt::reportOutputs(results, options.print, options.outputDir, report);
    std::cout << report << std::flush;
  }
  if (!error.empty())
    fail(error);
  return rt::everyRankOk(ranks, error.empty()) ? 0 : 1;
}

} // namespace

int stride::strideExecMain(int argc, char **argv) {
  Options options;
  if (std::string error = parseOptions(argc, argv, options); !error.empty())
    return fail(error);

  // A bare file name would make dlopen search the system paths only.
  std::string path = options.library;
  if (path.find('/') == std::string::npos)
    path = "./" + path;
  // A GPU library loads its kernels in its constructor; without a GPU the
  // runtime then defers the error, which is reported below (or not at all
  // for --list).
  setenv("STRIDE_GPU_DEFER_NO_DEVICE", "1", /*overwrite=*/1);
  // A library compiled with --distribute calls the MPI runtime: under
  // mpirun, load the launcher's build first so that its symbols resolve.
  std::string mpiError;
  if (::stride::mpi::detectVariant() != ::stride::mpi::Variant::None)
    (void)::stride::mpi::loadRuntime(mpiError);
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    std::string text = why ? why : "unknown reason";
    // Outside mpirun a distributed library still lists and says how it
    // runs: any build of the MPI runtime binds its symbols (it is never
    // called, so MPI is never started).
    if (text.find("stride_mpi_") != std::string::npos)
      for (auto variant :
           {::stride::mpi::Variant::MPICH, ::stride::mpi::Variant::OpenMPI})
        for (const std::string &candidate :
             ::stride::mpi::candidatePaths(variant))
          if (!handle && dlopen(candidate.c_str(), RTLD_NOW | RTLD_GLOBAL))
            handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      return fail("cannot load '" + options.library + "': " + text);
  }
  auto *text = static_cast<const char *>(dlsym(handle, rt::kAotMetadataSymbol));
  if (!text)
    return fail("'" + options.library +
                "' is not a library written by stride-compile (it has no " +
                rt::kAotMetadataSymbol + " symbol)");
  rt::AotMetadata metadata;
  if (std::string error = rt::parseAotMetadata(text, metadata); !error.empty())
    return fail("'" + options.library + "': " + error);

  if (options.list) {
    for (const rt::AotEntry &entry : metadata.entries) {
      std::cout << "@" << entry.name << " (" << entry.symbol << ")\n";
      for (size_t i = 0; i < entry.inputs.size(); ++i)
        std::cout << "  argument #" << i << ": "
                  << describeParam(entry.inputs[i]) << "\n";
      for (size_t j = 0; j < entry.outputs.size(); ++j)
        std::cout << "  result #" << j << ": "
                  << describeParam(entry.outputs[j]) << "\n";
      if (entry.ranks > 0) {
        std::cout << "  compiled for "
                  << (entry.grid.size() > 1
                          ? "a " + ::stride::formatGridShape(entry.grid) +
                                " grid of "
                          : std::string())
                  << entry.ranks << " ranks (mpirun -np " << entry.ranks
                  << "); single-process parameters:\n";
        for (auto [kind, params] : {std::pair("argument", &entry.globalInputs),
                                    std::pair("result", &entry.globalOutputs)})
          for (size_t k = 0; k < params->size(); ++k) {
            const rt::AotParam &p = (*params)[k];
            std::cout << "    " << kind << " #" << k << ": " << describeParam(p)
                      << (p.isSplit()
                              ? ", " + splitText(p, entry.grid)
                              : std::string(p.isTensor ? ", whole on every rank"
                                                       : ""))
                      << "\n";
          }
      }
      if (entry.hasLayoutGraph)
        std::cout << "  results follow the input sizes ("
                  << entry.layoutGraph.nodes.size() << " layout nodes, policy "
                  << ::stride::layout::policyName(entry.layoutGraph.policy)
                  << ")\n";
    }
    return 0;
  }

  // A GPU library's buffers go to device memory; without a usable GPU it
  // cannot run: one line, exit status 69 (the runtime's).
  std::unique_ptr<stride::exec::DeviceCopies> device;
  if (auto *target =
          static_cast<const char *>(dlsym(handle, rt::kAotTargetSymbol));
      target && std::strcmp(target, "gpu") == 0) {
    device = std::make_unique<stride::exec::DeviceCopies>();
    bool noDevice = false;
    if (std::string why = device->init(handle, noDevice); !why.empty()) {
      if (!noDevice)
        return fail("'" + options.library + "': " + why);
      std::fflush(stdout);
      std::cerr << "stride-exec: error: '" << options.library
                << "' runs on the GPU: no usable GPU: " << why << "\n";
      return kExitNoDevice;
    }
  }

  std::string error;
  const rt::AotEntry *entry =
      selectEntry(metadata, options.entry, options.library, error);
  if (!entry)
    return fail(error);
  using Packed = void (*)(void **);
  auto packed = reinterpret_cast<Packed>(dlsym(handle, entry->packedSymbol.c_str()));
  if (!packed)
    return fail("'" + options.library + "' declares @" + entry->name +
                " but has no symbol " + entry->packedSymbol);

  if (entry->ranks > 0) {
    if (device)
      return fail("a distributed library runs on the CPU");
    return execDistributed(*entry, options, packed);
  }

  std::vector<std::string> errors;
  std::vector<rt::PreparedArg> inputs = prepareInputs(*entry, options, errors);
  if (!errors.empty()) {
    for (size_t i = 0; i + 1 < errors.size(); ++i)
      std::cerr << "stride-exec: error: " << errors[i] << "\n";
    return fail(errors.back());
  }
  // Outputs in the declared layouts, or in those the entry's layout graph
  // gives for these inputs when they depend on the sizes.
  std::vector<std::vector<int64_t>> inputShapes, inputStrides, outputShapes,
      outputStrides;
  for (rt::PreparedArg &arg : inputs) {
    inputShapes.push_back(arg.buffer ? arg.shape : std::vector<int64_t>());
    inputStrides.push_back(arg.buffer ? arg.strides : std::vector<int64_t>());
  }
  if (error = rt::aotResultLayouts(*entry, inputShapes, inputStrides,
                                   outputShapes, outputStrides);
      !error.empty())
    return fail(error);
  std::vector<rt::PreparedArg> outputs;
  for (size_t j = 0; j < entry->outputs.size(); ++j) {
    const rt::AotParam &param = entry->outputs[j];
    std::optional<rt::PreparedArg> out = rt::prepareOutput(
        param.dtype, outputShapes[j], outputStrides[j], error);
    if (!out)
      return fail("result #" + std::to_string(j) + ": " + error);
    outputs.push_back(std::move(*out));
  }

  std::vector<std::vector<int64_t>> descriptors;
  descriptors.reserve(inputs.size() + outputs.size());
  std::vector<void *> args;
  std::vector<rt::PreparedArg *> buffers;
  for (rt::PreparedArg &arg : inputs) {
    if (!arg.buffer) {
      args.push_back(&arg.scalar);
      continue;
    }
    descriptors.push_back(descriptorOf(arg));
    buffers.push_back(&arg);
    args.push_back(descriptors.back().data());
  }
  for (rt::PreparedArg &out : outputs) {
    descriptors.push_back(descriptorOf(out));
    buffers.push_back(&out);
    args.push_back(descriptors.back().data());
  }

  if (device) {
    size_t k = 0;
    for (rt::PreparedArg *arg : buffers)
      device->add(descriptors[k++], arg->shape.size(),
                  elementSize(arg->buffer->dtype()));
  }

  rt::exitOnKernelAbort("stride-exec");
  auto call = [&] { packed(args.data()); };
  call();
  if (device)
    for (size_t j = 0; j < outputs.size(); ++j)
      device->copyBack(descriptors.size() - outputs.size() + j);
  if (options.bench > 0 && device)
    std::cout << rt::benchmark(options.bench, call,
                               [&] { return device->timeMicros(call); });
  else if (options.bench > 0)
    std::cout << rt::benchmark(options.bench, call);
  std::string report;
  error = rt::reportOutputs(outputs, options.print, options.outputDir, report);
  std::cout << report << std::flush;
  if (!error.empty())
    return fail(error);
  return 0;
}
