//===- Array.cpp - Dense arrays and their elements ------------------------===//
//
// The Array type, dtypes, and element access and formatting; the .npy
// files are in NpyFile.cpp, random values and comparisons in
// RandomAndCompare.cpp.
//
//===----------------------------------------------------------------------===//

#include "stride/Runtime/Npy.h"

#include "ArrayAccess.h"
#include "stride/Layout/Shape.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <utility>

namespace stride::runtime {

using namespace detail;

//===----------------------------------------------------------------------===//
// DType and Array
//===----------------------------------------------------------------------===//

size_t dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::F64:
  case DType::I64:
    return 8;
  case DType::I1:
    return 1;
  }
  return 1;
}

const char *dtypeName(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::I1:
    return "i1";
  }
  return "?";
}

std::optional<DType> parseDType(std::string_view name) {
  for (DType dtype :
       {DType::F32, DType::F64, DType::I32, DType::I64, DType::I1})
    if (name == dtypeName(dtype))
      return dtype;
  return std::nullopt;
}

bool isFloat(DType dtype) { return dtype == DType::F32 || dtype == DType::F64; }

int64_t Array::numel() const {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

std::optional<int64_t> checkedByteSize(DType dtype,
                                       const std::vector<int64_t> &shape) {
  std::optional<int64_t> count = checkedNumel(shape);
  if (!count)
    return std::nullopt;
  return checkedMul(*count, static_cast<int64_t>(dtypeSize(dtype)));
}

std::string formatShape(const std::vector<int64_t> &shape) {
  // One spelling of shapes across the project, diagnostics included.
  return layout::formatShape(shape);
}

Array zeros(DType dtype, const std::vector<int64_t> &shape) {
  Array array;
  array.dtype = dtype;
  array.shape = shape;
  array.data.assign(static_cast<size_t>(checkedByteSize(dtype, shape).value()),
                    0);
  return array;
}

double elementAsDouble(const Array &array, int64_t index) {
  const uint8_t *base = array.data.data();
  switch (array.dtype) {
  case DType::F32:
    return load<float>(base, index);
  case DType::F64:
    return load<double>(base, index);
  case DType::I32:
    return load<int32_t>(base, index);
  case DType::I64:
    return static_cast<double>(load<int64_t>(base, index));
  case DType::I1:
    return base[index] ? 1.0 : 0.0;
  }
  return 0.0;
}

std::string formatIndex(const std::vector<int64_t> &shape, int64_t flatIndex) {
  std::vector<int64_t> coords(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    coords[d] = flatIndex % shape[d];
    flatIndex /= shape[d];
  }
  std::string text = "[";
  for (size_t d = 0; d < coords.size(); ++d)
    text += (d ? ", " : "") + std::to_string(coords[d]);
  return text + "]";
}

std::string formatElement(const Array &array, int64_t index) {
  char buffer[40];
  switch (array.dtype) {
  case DType::F32:
    std::snprintf(buffer, sizeof(buffer), "%.9g",
                  load<float>(array.data.data(), index));
    return buffer;
  case DType::F64:
    std::snprintf(buffer, sizeof(buffer), "%.17g",
                  load<double>(array.data.data(), index));
    return buffer;
  case DType::I32:
    return std::to_string(load<int32_t>(array.data.data(), index));
  case DType::I64:
    return std::to_string(load<int64_t>(array.data.data(), index));
  case DType::I1:
    return array.data[index] ? "true" : "false";
  }
  return "?";
}

bool identical(const Array &a, const Array &b) {
  return a.dtype == b.dtype && a.shape == b.shape && a.data == b.data;
}

} // namespace stride::runtime
