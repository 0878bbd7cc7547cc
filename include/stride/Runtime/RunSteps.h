//===- RunSteps.h - Steps shared by stride-run and stride-exec --*- C++ -*-===//
//
// The two runners differ only in where a kernel comes from (the JIT or a
// compiled library); checking inputs, laying them out, allocating outputs,
// timing, printing and saving are the same code, here, with no LLVM/MLIR
// dependency. Messages are returned, not printed, so each tool prefixes them
// with its own name.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_RUNTIME_RUNSTEPS_H
#define STRIDE_RUNTIME_RUNSTEPS_H

#include "stride/Runtime/StridedBuffer.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace stride::runtime {

/// A size that any value fits (MLIR's ShapedType::kDynamic, the metadata's
/// '?').
constexpr int64_t kAnySize = INT64_MIN;

/// "4x?x3" with kAnySize as '?', "0-d" for rank 0.
std::string formatDeclaredShape(const std::vector<int64_t> &declared);

/// "" when `actual` is `declared`, else "<what> has element type <declared>
/// but <source> holds <actual>".
std::string checkElementType(ElementType actual, ElementType declared,
                             const std::string &what,
                             const std::string &source);
/// "" when `shape` fits `declared` (same rank, equal static sizes), else
/// "<what> has shape <declared> but <sourceSays><shape>", where `sourceSays`
/// is e.g. "'a.npy' has shape ".
std::string checkShape(const std::vector<int64_t> &shape,
                       const std::vector<int64_t> &declared,
                       const std::string &what, const std::string &sourceSays);

/// An argument ready to pass to a kernel: a buffer in its layout, or a
/// scalar value (8 bytes, the low ones used as the declared type).
struct PreparedArg {
  std::optional<StridedBuffer> buffer;
  ScalarValue scalar{};
  std::vector<int64_t> shape, strides;
};

/// A scalar argument from a 0-d array.
PreparedArg prepareScalar(const Array &value);
/// A tensor argument holding `values` at `strides`; "" or an error in `error`.
std::optional<PreparedArg> prepareTensor(const Array &values,
                                         const std::vector<int64_t> &strides,
                                         std::string &error);
/// A tensor argument in `strides` whose memory, every element of the
/// allocation, is filled with randomArray values: a broadcast (stride 0) or
/// overlapping layout stays consistent.
std::optional<PreparedArg>
prepareRandomTensor(ElementType dtype, const std::vector<int64_t> &shape,
                    const std::vector<int64_t> &strides, uint64_t seed,
                    std::string &error);
/// An output buffer in the compiler's layout.
std::optional<PreparedArg> prepareOutput(ElementType dtype,
                                         const std::vector<int64_t> &shape,
                                         const std::vector<int64_t> &strides,
                                         std::string &error);

/// Times `runs` calls of `call` after three warm-up calls: the line
/// "bench: N calls, median X us, min Y us\n".
std::string benchmark(unsigned runs, const std::function<void()> &call);
/// The same, with `timeMicros` timing one call (e.g. with CUDA events on a
/// GPU, where the host clock would measure launches, not kernels).
std::string benchmark(unsigned runs, const std::function<void()> &call,
                      const std::function<double()> &timeMicros);

/// Prints `array` like NumPy: nested brackets, one innermost row per line.
std::string formatArray(const Array &array);

/// For each output: the line "output #j: f32 4x3 strides [1, 4]", the
/// values with `print`, and DIR/out<j>.npy when `outputDir` is not empty.
/// Returns "" or an error; `report` gets the text to print.
std::string reportOutputs(const std::vector<PreparedArg> &outputs, bool print,
                          const std::string &outputDir, std::string &report);

/// Creates `path` and its parents; "" or an error.
std::string createDirectories(const std::string &path);

/// A `cf.assert` in a kernel aborts after printing its message. From now
/// on, SIGABRT flushes stdout, prints "<tool>: error: a run-time check in the
/// kernel failed (see the message above)" and exits with status 1, an
/// ordinary error exit. `tool` must outlive the process (a literal).
void exitOnKernelAbort(const char *tool);

} // namespace stride::runtime

#endif // STRIDE_RUNTIME_RUNSTEPS_H
