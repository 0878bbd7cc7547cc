//===- AotResultLayout.cpp - Output layouts of a call to a compiled entry -===//
//
// The caller of an ahead-of-time compiled kernel allocates its outputs. When
// their shapes or strides depend on the input sizes, the library's metadata
// carries the entry's layout graph and this evaluates it for a call: the
// C++ function for stride-exec, and `stride_aot_result_layout` for C callers
// (the generated header wraps it per entry as `<symbol>_result_layout`).
//
//===----------------------------------------------------------------------===//

#include "stride/Runtime/AotMetadata.h"

#include "stride/Runtime/RunSteps.h"
#include "stride/Runtime/StridedBuffer.h"

#include <algorithm>
#include <cstring>

namespace stride::runtime {

namespace layout = ::stride::layout;

static bool isStatic(const std::vector<int64_t> &values) {
  for (int64_t v : values)
    if (v == kAotDynamic)
      return false;
  return true;
}

std::string checkKernelCanWrite(const std::vector<int64_t> &declaredShape,
                                const std::vector<int64_t> &declaredStrides,
                                const std::vector<int64_t> &shape,
                                const std::vector<int64_t> &strides,
                                const std::string &what) {
  bool fits = shape.size() == declaredShape.size() &&
              strides.size() == shape.size() &&
              declaredStrides.size() == shape.size();
  bool empty = false;
  for (size_t d = 0; fits && d < shape.size(); ++d) {
    fits = declaredShape[d] == kAotDynamic || declaredShape[d] == shape[d];
    empty |= shape[d] == 0;
  }
  // The kernel addresses its output with its static strides; a dim of size
  // 0 or 1 is never stepped along, and nothing at all is written to an empty
  // result, so only the other strides must agree.
  for (size_t d = 0; fits && !empty && d < shape.size(); ++d)
    fits = declaredStrides[d] == kAotDynamic || shape[d] <= 1 ||
           declaredStrides[d] == strides[d];
  if (fits)
    return "";
  return what + " gets shape " + formatAotShape(shape) + " and strides " +
         formatAotStrides(strides) +
         " for these inputs, which the kernel compiled for shape " +
         formatAotShape(declaredShape) + " and strides " +
         formatAotStrides(declaredStrides) + " cannot write";
}

std::string
aotResultLayouts(const AotEntry &entry,
                 const std::vector<std::vector<int64_t>> &inputShapes,
                 const std::vector<std::vector<int64_t>> &inputStrides,
                 std::vector<std::vector<int64_t>> &shapes,
                 std::vector<std::vector<int64_t>> &strides) {
  std::string entryText = "@" + entry.name;
  shapes.clear();
  strides.clear();
  bool allStatic = true;
  for (const AotParam &out : entry.outputs)
    allStatic &= isStatic(out.shape) && isStatic(out.strides);
  if (allStatic) {
    for (const AotParam &out : entry.outputs) {
      shapes.push_back(out.shape);
      strides.push_back(out.strides);
    }
    return "";
  }
  if (!entry.hasLayoutGraph)
    return "the result layouts of " + entryText +
           " depend on the input sizes but the library has no layout graph "
           "for it";
  if (inputShapes.size() != entry.inputs.size() ||
      inputStrides.size() != entry.inputs.size())
    return entryText + " takes " + std::to_string(entry.inputs.size()) +
           " arguments, got " + std::to_string(inputShapes.size()) +
           " shapes and " + std::to_string(inputStrides.size()) + " strides";
  std::vector<layout::Operand> args;
  for (size_t i = 0; i < entry.inputs.size(); ++i) {
    const AotParam &param = entry.inputs[i];
    std::string what = "argument #" + std::to_string(i) + " of " + entryText;
    if (!param.isTensor) {
      args.push_back({}); // a scalar broadcasts like a 0-d tensor
      continue;
    }
    if (inputShapes[i].size() != param.shape.size() ||
        inputStrides[i].size() != param.shape.size())
      return what + " has rank " + std::to_string(param.shape.size()) +
             " but " + std::to_string(inputShapes[i].size()) + " sizes and " +
             std::to_string(inputStrides[i].size()) + " strides were given";
    if (std::string error =
            checkShape(inputShapes[i], param.shape, what, "the call gives ");
        !error.empty())
      return error;
    for (size_t d = 0; d < param.shape.size(); ++d) {
      if (inputShapes[i][d] < 0)
        return what + " is given a negative size";
      // The kernel reads through its static strides: the call must have them.
      if (param.strides[d] != kAotDynamic && inputShapes[i][d] > 1 &&
          inputStrides[i][d] != param.strides[d])
        return what + " needs strides " + formatAotStrides(param.strides) +
               " but has " + formatAotStrides(inputStrides[i]);
    }
    args.push_back({inputShapes[i], inputStrides[i]});
  }
  std::vector<layout::Operand> results;
  if (std::string error =
          layout::evaluateLayoutGraph(entry.layoutGraph, args, results);
      !error.empty())
    return "the inputs' shapes do not fit " + entryText + ": " + error;
  if (results.size() != entry.outputs.size())
    return "the layout graph of " + entryText + " gives " +
           std::to_string(results.size()) + " results, the entry has " +
           std::to_string(entry.outputs.size());
  for (size_t j = 0; j < results.size(); ++j) {
    const AotParam &declared = entry.outputs[j];
    const layout::Operand &result = results[j];
    std::string what = "result #" + std::to_string(j) + " of " + entryText;
    if (std::string error =
            checkKernelCanWrite(declared.shape, declared.strides, result.shape,
                                result.strides, what);
        !error.empty())
      return error;
    shapes.push_back(result.shape);
    strides.push_back(result.strides);
  }
  return "";
}

} // namespace stride::runtime

namespace rt = ::stride::runtime;

static void copyMessage(const std::string &message, char *error,
                        size_t errorSize) {
  if (!error || errorSize == 0)
    return;
  size_t n = std::min(message.size(), errorSize - 1);
  std::memcpy(error, message.data(), n);
  error[n] = '\0';
}

extern "C" __attribute__((visibility("default"))) int
stride_aot_result_layout(const char *metadata, const char *entryName,
                         const int64_t *const *inputSizes,
                         const int64_t *const *inputStrides,
                         int64_t *const *outSizes, int64_t *const *outStrides,
                         char *error, size_t errorSize) {
  if (!metadata || !entryName) {
    copyMessage("stride_aot_result_layout: no metadata or entry name", error,
                errorSize);
    return 1;
  }
  rt::AotMetadata parsed;
  if (std::string problem = rt::parseAotMetadata(metadata, parsed);
      !problem.empty()) {
    copyMessage(problem, error, errorSize);
    return 1;
  }
  const rt::AotEntry *entry = parsed.find(entryName);
  if (!entry) {
    copyMessage(std::string("no entry @") + entryName + " in the metadata",
                error, errorSize);
    return 1;
  }
  std::vector<std::vector<int64_t>> shapes, strides;
  for (size_t i = 0; i < entry->inputs.size(); ++i) {
    const rt::AotParam &param = entry->inputs[i];
    std::vector<int64_t> shape, stride;
    if (param.isTensor) {
      size_t rank = param.shape.size();
      if (rank > 0 && (!inputSizes || !inputSizes[i])) {
        copyMessage("the sizes of argument #" + std::to_string(i) + " of @" +
                        entry->name + " are missing",
                    error, errorSize);
        return 1;
      }
      if (rank > 0)
        shape.assign(inputSizes[i], inputSizes[i] + rank);
      // Without strides an input has the layout stride-exec gives it.
      if (inputStrides && inputStrides[i])
        stride.assign(inputStrides[i], inputStrides[i] + rank);
      else
        stride = rt::aotInputStrides(param, shape);
    }
    shapes.push_back(std::move(shape));
    strides.push_back(std::move(stride));
  }
  std::vector<std::vector<int64_t>> resultShapes, resultStrides;
  if (std::string problem = rt::aotResultLayouts(*entry, shapes, strides,
                                                 resultShapes, resultStrides);
      !problem.empty()) {
    copyMessage(problem, error, errorSize);
    return 1;
  }
  for (size_t j = 0; j < resultShapes.size(); ++j) {
    if (resultShapes[j].empty())
      continue;
    if (!outSizes || !outSizes[j] || !outStrides || !outStrides[j]) {
      copyMessage("no room for the sizes and strides of result #" +
                      std::to_string(j) + " of @" + entry->name,
                  error, errorSize);
      return 1;
    }
    // std::copy: a 0-d result has no sizes (and may pass null pointers).
    std::copy(resultShapes[j].begin(), resultShapes[j].end(), outSizes[j]);
    std::copy(resultStrides[j].begin(), resultStrides[j].end(), outStrides[j]);
  }
  copyMessage("", error, errorSize);
  return 0;
}
