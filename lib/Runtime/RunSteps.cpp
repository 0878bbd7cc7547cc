//===- RunSteps.cpp - Steps shared by stride-run and stride-exec ----------===//

#include "stride/Runtime/RunSteps.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <unistd.h>

namespace stride::runtime {

std::string formatDeclaredShape(const std::vector<int64_t> &declared) {
  if (declared.empty())
    return "0-d";
  std::string text;
  for (size_t i = 0; i < declared.size(); ++i)
    text += (i ? "x" : "") + (declared[i] == kAnySize
                                  ? std::string("?")
                                  : std::to_string(declared[i]));
  return text;
}

std::string checkElementType(ElementType actual, ElementType declared,
                             const std::string &what,
                             const std::string &source) {
  if (actual == declared)
    return "";
  return what + " has element type " + elementTypeName(declared) + " but " +
         source + " holds " + elementTypeName(actual);
}

std::string checkShape(const std::vector<int64_t> &shape,
                       const std::vector<int64_t> &declared,
                       const std::string &what, const std::string &sourceSays) {
  bool fits = shape.size() == declared.size();
  for (size_t d = 0; fits && d < declared.size(); ++d)
    fits = declared[d] == kAnySize || declared[d] == shape[d];
  if (fits)
    return "";
  return what + " has shape " + formatDeclaredShape(declared) + " but " +
         sourceSays + formatShape(shape);
}

PreparedArg prepareScalar(const Array &value) {
  PreparedArg arg;
  arg.shape = value.shape;
  // Bools are normalized to 0/1, as kernels expect; every other element is
  // copied as its bytes into the member of its type.
  if (isBool(value.dtype))
    arg.scalar.i1 = value.data[0] != 0;
  else
    std::memcpy(&arg.scalar, value.data.data(), elementSize(value.dtype));
  return arg;
}

std::optional<PreparedArg> prepareTensor(const Array &values,
                                         const std::vector<int64_t> &strides,
                                         std::string &error) {
  auto buffer = StridedBuffer::createFilled(values, strides);
  if (auto *message = std::get_if<std::string>(&buffer)) {
    error = *message;
    return std::nullopt;
  }
  PreparedArg arg;
  arg.buffer = std::move(std::get<StridedBuffer>(buffer));
  arg.shape = values.shape;
  arg.strides = strides;
  return arg;
}

std::optional<PreparedArg>
prepareRandomTensor(ElementType dtype, const std::vector<int64_t> &shape,
                    const std::vector<int64_t> &strides, uint64_t seed,
                    std::string &error) {
  std::optional<PreparedArg> arg = prepareOutput(dtype, shape, strides, error);
  if (!arg)
    return std::nullopt;
  Array storage =
      randomArray(dtype, {arg->buffer->allocatedElements()}, seed);
  if (!storage.data.empty()) // an empty array has no storage to copy
    std::memcpy(arg->buffer->allocated(), storage.data.data(),
                storage.data.size());
  return arg;
}

std::optional<PreparedArg> prepareOutput(ElementType dtype,
                                         const std::vector<int64_t> &shape,
                                         const std::vector<int64_t> &strides,
                                         std::string &error) {
  auto buffer = StridedBuffer::create(dtype, shape, strides);
  if (auto *message = std::get_if<std::string>(&buffer)) {
    error = *message;
    return std::nullopt;
  }
  PreparedArg arg;
  arg.buffer = std::move(std::get<StridedBuffer>(buffer));
  arg.shape = shape;
  arg.strides = strides;
  return arg;
}

std::string benchmark(unsigned runs, const std::function<void()> &call) {
  return benchmark(runs, call, [&] {
    auto start = std::chrono::steady_clock::now();
    call();
    auto stop = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::micro>(stop - start).count();
  });
}

std::string benchmark(unsigned runs, const std::function<void()> &call,
                      const std::function<double()> &timeMicros) {
  for (int warm = 0; warm < 3; ++warm)
    call();
  std::vector<double> micros;
  for (unsigned r = 0; r < runs; ++r)
    micros.push_back(timeMicros());
  std::sort(micros.begin(), micros.end());
  char line[128];
  std::snprintf(line, sizeof(line),
                "bench: %u calls, median %.3f us, min %.3f us\n", runs,
                micros[micros.size() / 2], micros.front());
  return line;
}

std::string formatArray(const Array &array) {
  if (array.shape.empty())
    return formatElement(array, 0) + "\n";
  int64_t numel = array.numel();
  if (numel > 10000)
    return "(" + std::to_string(numel) +
           " elements; use --output-dir to save them)\n";
  std::string os;
  size_t rank = array.shape.size();
  std::function<void(size_t, int64_t &)> rec = [&](size_t dim, int64_t &flat) {
    os += "[";
    for (int64_t i = 0; i < array.shape[dim]; ++i) {
      if (i > 0)
        os += dim + 1 == rank ? ", " : ",\n" + std::string(dim + 1, ' ');
      if (dim + 1 == rank)
        os += formatElement(array, flat++);
      else
        rec(dim + 1, flat);
    }
    os += "]";
  };
  int64_t flat = 0;
  rec(0, flat);
  return os + "\n";
}

std::string createDirectories(const std::string &path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec)
    return "cannot create '" + path + "': " + ec.message();
  return "";
}

std::string reportOutputs(const std::vector<PreparedArg> &outputs, bool print,
                          const std::string &outputDir, std::string &report) {
  if (!outputDir.empty())
    if (std::string error = createDirectories(outputDir); !error.empty())
      return error;
  for (size_t j = 0; j < outputs.size(); ++j) {
    const PreparedArg &out = outputs[j];
    Array values = out.buffer->gather();
    report += "output #" + std::to_string(j) + ": " +
              elementTypeName(values.dtype) + " " + formatShape(values.shape) +
              " strides " + formatStrides(out.strides) + "\n";
    if (print)
      report += formatArray(values);
    if (!outputDir.empty()) {
      std::string path = outputDir + "/out" + std::to_string(j) + ".npy";
      if (std::string error = writeNpy(path, values); !error.empty())
        return error;
    }
  }
  return "";
}

namespace {
const char *abortingTool = "stride";

extern "C" void onKernelAbort(int) {
  // The kernel printed its message with the C library; make sure it shows.
  std::fflush(stdout);
  const char message[] = ": error: a run-time check in the kernel failed (see "
                         "the message above)\n";
  (void)!write(STDERR_FILENO, abortingTool, std::strlen(abortingTool));
  (void)!write(STDERR_FILENO, message, sizeof(message) - 1);
  _exit(1);
}
} // namespace

void exitOnKernelAbort(const char *tool) {
  abortingTool = tool;
  std::signal(SIGABRT, onKernelAbort);
}

} // namespace stride::runtime
