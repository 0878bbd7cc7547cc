//===- AotMetadata.h - What a compiled Stride library declares --*- C++ -*-===//
//
// stride-compile embeds in every library it writes a NUL-terminated text
// symbol, `stride_aot_metadata`, that lists the entries, their parameters
// (tensor or scalar, dtype, shape, strides) and their results in the layouts
// the compiler chose. stride-exec reads it back to lay inputs out, check them
// and allocate outputs; any other host can do the same with dlsym. The
// format is plain text so that it can be read with `strings` and parsed
// without LLVM; docs/aot.md describes it. Plain C++17, no LLVM/MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_RUNTIME_AOTMETADATA_H
#define STRIDE_RUNTIME_AOTMETADATA_H

#include "stride/Layout/LayoutGraph.h"
#include "stride/Runtime/Npy.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stride::runtime {

/// The symbol holding the metadata text, and the format version it has.
constexpr const char *kAotMetadataSymbol = "stride_aot_metadata";
/// `<entry symbol><this>` names the same text for one entry (what generated
/// headers use, since several libraries may share a program).
constexpr const char *kAotEntryMetadataSuffix = "_metadata";
/// A library compiled with --target=gpu also exports this NUL-terminated
/// string, "gpu": its buffers must be in device memory.
constexpr const char *kAotTargetSymbol = "stride_aot_target";
/// 4: layout graphs have `reduce` nodes.
constexpr int kAotMetadataVersion = 4;
/// A size or stride known only at run time.
constexpr int64_t kAotDynamic = INT64_MIN;

/// One parameter of an entry. Tensors are passed as strided memref
/// descriptors and must have exactly `strides` (where static); scalars by
/// value.
struct AotParam {
  bool isTensor = false;
  ElementType dtype = ElementType::F32;
  std::vector<int64_t> shape;   // kAotDynamic where the size is free
  std::vector<int64_t> strides; // kAotDynamic where any stride is accepted
  /// For a tensor whose declared layout is dense in a dim order
  /// (#stride.layout<perm = ...>) but whose strides depend on its sizes: that
  /// order, outermost dim first. Empty otherwise.
  std::vector<int64_t> perm;
  /// In an entry's global parameters (distributed libraries): per grid
  /// axis, the tensor dim that axis splits (-1: none; axes splitting one
  /// dim count major to minor in axis order). No entry, or all -1, when
  /// every rank holds all of it.
  std::vector<int64_t> split;
  bool isSplit() const {
    for (int64_t d : split)
      if (d >= 0)
        return true;
    return false;
  }
};

struct AotEntry {
  std::string name;         // the MLIR function, without '@'
  std::string symbol;       // the C function taking descriptor pointers
  std::string packedSymbol; // void f(void **args): one pointer per parameter
  std::vector<AotParam> inputs, outputs;
  /// How the results' layouts follow from the inputs', recorded when some
  /// result's shape or strides depend on the input sizes.
  bool hasLayoutGraph = false;
  ::stride::layout::LayoutGraph layoutGraph;
  /// A library compiled with --distribute N (or a grid NxM): `inputs` and
  /// `outputs` are one rank's (dense blocks), these the single-process ones
  /// with their split dims, and the entry runs as one of `ranks` processes
  /// (the product of `grid`) under mpirun.
  int64_t ranks = 0;
  std::vector<int64_t> grid;
  std::vector<AotParam> globalInputs, globalOutputs;
};

struct AotMetadata {
  std::vector<AotEntry> entries;
  const AotEntry *find(const std::string &name) const;
};

/// The text stored in the library.
std::string formatAotMetadata(const AotMetadata &metadata);

/// Parses formatAotMetadata's text into `metadata`. Returns "" on success,
/// else the first problem and its line. The text is untrusted (it comes from
/// any file given as a library): a bad one never crashes the reader.
std::string parseAotMetadata(const std::string &text, AotMetadata &metadata);

/// "4x?x3" (kAotDynamic as '?'), "0-d" for rank 0.
std::string formatAotShape(const std::vector<int64_t> &shape);
/// "[4, ?, 1]".
std::string formatAotStrides(const std::vector<int64_t> &strides);

/// The strides an input is laid out with for the concrete `shape`: the
/// declared ones where they are all static, else dense in the declared perm,
/// else row-major (the layout stride-run gives such an argument).
std::vector<int64_t> aotInputStrides(const AotParam &param,
                                     const std::vector<int64_t> &shape);

/// "" when a kernel compiled for an output of `declaredShape` and
/// `declaredStrides` (kAotDynamic where free) can write one of `shape` and
/// `strides`: equal static sizes, and equal static strides on every dim it
/// steps along (size over 1, in a result with elements). Else "<what> gets
/// shape ... which the kernel compiled for ... cannot write".
std::string checkKernelCanWrite(const std::vector<int64_t> &declaredShape,
                                const std::vector<int64_t> &declaredStrides,
                                const std::vector<int64_t> &shape,
                                const std::vector<int64_t> &strides,
                                const std::string &what);

/// The shapes and strides of `entry`'s results for a call with inputs of
/// `inputShapes` and `inputStrides` (one per input; a scalar's are empty):
/// the declared ones where they are static, else those the entry's layout
/// graph gives, which are stride-run --dynamic's. Returns "" or a problem:
/// inputs of the wrong count or rank, shapes that do not fit, or a layout
/// the kernel cannot write (its static sizes or strides differ).
std::string aotResultLayouts(const AotEntry &entry,
                             const std::vector<std::vector<int64_t>> &inputShapes,
                             const std::vector<std::vector<int64_t>> &inputStrides,
                             std::vector<std::vector<int64_t>> &shapes,
                             std::vector<std::vector<int64_t>> &strides);

} // namespace stride::runtime

#endif // STRIDE_RUNTIME_AOTMETADATA_H
