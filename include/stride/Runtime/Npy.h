//===- Npy.h - Dense arrays and NumPy .npy files ----------------*- C++ -*-===//
//
// The host-side array type of the runtime and its .npy reader/writer, used by
// stride-run (inputs, outputs, reference checks) and the Python package's
// tests. Plain C++17 with no LLVM/MLIR dependency (only the std-only layout
// algebra), so that programs which only run precompiled kernels can link it.
//
// The reader treats every file as untrusted: a malformed, truncated or lying
// file gives an error message naming the file and the problem, never a crash,
// an out-of-bounds read or a huge allocation.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_RUNTIME_NPY_H
#define STRIDE_RUNTIME_NPY_H

#include "stride/Support/ElementType.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stride::runtime {

// Element types (ElementType, elementSize, elementTypeName, ...) are the
// table in stride/Support/ElementType.h. I1 is NumPy's bool ('|b1'): one
// byte per element holding 0 or 1.

/// A dense array in C order (row-major) holding logical values in host byte
/// order. Invariant kept by every function here: all dims are >= 0 and
/// data.size() == numel() * elementSize(dtype). A rank-0 array has one element.
struct Array {
  ElementType dtype = ElementType::F32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;

  int64_t numel() const;
};

/// Bytes needed for an array of this shape, or std::nullopt when a dim is
/// negative or the count overflows int64_t. Callers that take shapes from
/// users check with this before calling zeros or randomArray.
std::optional<int64_t> checkedByteSize(ElementType dtype,
                                       const std::vector<int64_t> &shape);

/// "4x2x3", "7", "0x3", and "0-d" for rank 0: layout::formatShape, the
/// spelling of the diagnostics too.
std::string formatShape(const std::vector<int64_t> &shape);

/// An all-zero array. Precondition: checkedByteSize(dtype, shape) succeeds.
Array zeros(ElementType dtype, const std::vector<int64_t> &shape);

/// Deterministic pseudo-random values for the same (dtype, shape, seed) on
/// every platform: floats uniform in [-2, 2), integers in [-5, 5], bools 0/1.
/// Floats are multiples of 2^-22 (f32) or 2^-51 (f64), drawn from a
/// splitmix64 stream, so no platform rounding enters. Precondition as for
/// zeros.
Array randomArray(ElementType dtype, const std::vector<int64_t> &shape,
                  uint64_t seed);

/// Element `index` (in C order) converted to double; bools give 0 or 1.
/// i64 values beyond 2^53 round.
double elementAsDouble(const Array &array, int64_t index);

/// Element `index` as text: integers in decimal, bools as "true"/"false",
/// floats with enough digits to read back exactly (9 for f32, 17 for f64).
std::string formatElement(const Array &array, int64_t index);

/// The multi-index of C-order element `flatIndex` of `shape`, as "[1, 0, 2]"
/// ("[]" for rank 0). Precondition: 0 <= flatIndex < numel.
std::string formatIndex(const std::vector<int64_t> &shape, int64_t flatIndex);

/// Same dtype, shape and bytes (so NaN payloads and -0.0 count).
bool identical(const Array &a, const Array &b);

/// "" when `actual` matches `expected`, else a description of why not: a
/// dtype or shape mismatch, or the first element (by index, e.g. "[1, 0]")
/// outside |actual - expected| <= atol + rtol * |expected|. Integer and bool
/// elements compare exactly as integers; NaN matches NaN; infinities must be
/// equal. The dtypes must agree, since a kernel that returns the wrong
/// element type is a bug even when the values happen to be close.
std::string compareArrays(const Array &actual, const Array &expected,
                          double rtol, double atol);
/// compareArrays(...).empty(): |a - b| <= atol + rtol * |b|, as numpy.allclose
/// but with NaN equal to NaN.
bool allClose(const Array &a, const Array &b, double rtol, double atol);

struct NpyResult {
  std::optional<Array> array; // set on success
  std::string error;          // set on failure, starts with the path
};

/// Reads a .npy file (format versions 1.0, 2.0 and 3.0) whose dtype is f32,
/// f64, i32, i64 or bool, in either byte order (big-endian data is swapped
/// to host order). Fortran-ordered files are transposed to C order. Bytes
/// after the data are an error: they mean the header and the data disagree,
/// and it cannot be told which is right.
NpyResult readNpy(const std::string &path);

/// Writes `array` as a version 1.0 .npy file (2.0 if the header would not
/// fit), little-endian, C order, header padded to 64 bytes as NumPy does.
/// Returns "" on success, else an error naming the path.
std::string writeNpy(const std::string &path, const Array &array);

} // namespace stride::runtime

#endif // STRIDE_RUNTIME_NPY_H
