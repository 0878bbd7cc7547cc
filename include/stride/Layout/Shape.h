//===- Shape.h - Broadcasting and matmul shape rules ------------*- C++ -*-===//
//
// Shape inference shared by the compiler passes, the runtime and Python. It
// deliberately uses only the standard library so that every consumer computes
// the same answer from the same code.
//
// Semantics follow NumPy (and PyTorch, which agrees on these rules):
//  * broadcasting is right-aligned; two sizes fit when they are equal or one
//    of them is 1, and 1 stretches to the other size, even to 0;
//  * matmul promotes 1-D operands to matrices, contracts the last dim of the
//    lhs with the second-to-last of the rhs and broadcasts the batch dims.
//
// Dynamic sizes (kDynamic, printed "?") are accepted: an unknown size combined
// with a static size other than 1 takes that static size (the run time must
// then check that the unknown size is that size or 1); with 1 or another
// unknown it stays unknown.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_LAYOUT_SHAPE_H
#define STRIDE_LAYOUT_SHAPE_H

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace stride::layout {

using Shape = std::vector<int64_t>;
using Strides = std::vector<int64_t>;

/// Marker for a size unknown at compile time. Same value as
/// mlir::ShapedType::kDynamic so passes can pass MLIR shapes through as is.
constexpr int64_t kDynamic = std::numeric_limits<int64_t>::min();

inline bool isDynamic(int64_t size) { return size == kDynamic; }

/// Renders a shape the way diagnostics print it: sizes joined by 'x',
/// "?" for a dynamic size, and "0-d" for a rank-0 shape (e.g. "3x4", "?x5").
std::string formatShape(const Shape &shape);

/// Why shapes do not fit together.
struct ShapeError {
  /// A full sentence starting in lower case that names every operand's shape
  /// and the failing dimension, ready for a diagnostic.
  std::string message;
  /// Broadcasting: the failing dim, indexed from the left of the result.
  /// Matmul: the failing result dim for batch errors, -1 otherwise.
  int64_t resultDim = -1;
  /// Per operand, that operand's own index of the dim involved, or -1 when
  /// the operand does not have it (it is shorter, or the error is not about
  /// one of its dims).
  std::vector<int64_t> operandDims;
};

struct BroadcastResult {
  Shape shape;
  std::optional<ShapeError> error;
  bool ok() const { return !error; }
};

/// NumPy broadcasting of any number of shapes (zero shapes give a rank-0
/// result). On a mismatch the error reports the rightmost failing dim, as
/// PyTorch does, and the shape is left empty.
BroadcastResult broadcastShapes(const std::vector<Shape> &shapes);

struct MatmulInfo {
  /// Shape of the product: batch, then m unless the lhs is a vector, then n
  /// unless the rhs is a vector.
  Shape result;
  /// Broadcast batch dims (the result's leading dims).
  Shape batch;
  /// A 1-D lhs is a row (1 x k), a 1-D rhs a column (k x 1); the promoted
  /// dim is dropped from the result again.
  bool lhsIsVector = false;
  bool rhsIsVector = false;
  /// Matrix dims: lhs is m x k, rhs is k x n. m / n are 1 for a promoted
  /// vector. Any of them may be kDynamic; k is static when either side is.
  int64_t m = 0, n = 0, k = 0;
  /// Each operand's batch dims exactly as given (ranks may differ from
  /// `batch`): kernels address a broadcast batch dim with stride 0 instead of
  /// materializing it.
  Shape lhsBatch, rhsBatch;
};

struct MatmulResult {
  MatmulInfo info;
  std::optional<ShapeError> error;
  bool ok() const { return !error; }
};

/// NumPy/PyTorch matmul shape rules. Errors: a 0-d operand, contracted dims
/// of different static sizes (both dims are named), or batch dims that do not
/// broadcast (reported like broadcastShapes, operandDims = {lhs, rhs}).
MatmulResult matmulShape(const Shape &lhs, const Shape &rhs);

} // namespace stride::layout

#endif // STRIDE_LAYOUT_SHAPE_H
