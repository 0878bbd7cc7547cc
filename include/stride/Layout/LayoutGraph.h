//===- LayoutGraph.h - Result layouts from input layouts -------*- C++ -*-===//
//
// A Stride function reduced to what decides its results' shapes and strides:
// which elementwise ops and matmuls combine which values. stride-compile
// records it for an entry whose results depend on the input sizes, and the
// runtime evaluates it for the sizes (and strides) of a call, so that a
// caller can allocate outputs exactly as `stride-run --dynamic` does: that
// one specializes the function to the inputs and runs stride-infer-shapes and
// stride-propagate-layout, which call the same broadcastShapes, matmulShape,
// computeOutputStrides and matmulOutputStrides per op.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_LAYOUT_LAYOUTGRAPH_H
#define STRIDE_LAYOUT_LAYOUTGRAPH_H

#include "stride/Layout/Reduce.h"
#include "stride/Layout/Strides.h"

#include <string>
#include <vector>

namespace stride::layout {

/// A value an op reads: the function's argument `index`, the result of node
/// `index`, or a scalar computed inside the function (a 0-d operand).
struct LayoutRef {
  enum class Kind { Argument, Node, Scalar };
  Kind kind = Kind::Scalar;
  int64_t index = 0;
  /// As an operand: the op converts its element type inside the loop
  /// (Operand::converted, which NumPy's ufuncs care about).
  bool converted = false;
  /// As an operand: converted by a copy first (PyTorch's `.to()`), so it is
  /// laid out by copyLikeStrides before the op decides.
  bool copied = false;
};

/// One result of a Stride op. An elementwise op (named ops and
/// stride.broadcast without destinations) broadcasts its operands and takes
/// the policy's strides; a matmul takes matmulShape and matmulOutputStrides;
/// a cast or copy of one operand of the result's shape takes
/// copyLikeStrides (the eager libraries' allocate-like rule); a select
/// (np.where) is elementwise without NumPy's trivial loop (NumpyLoop::Where);
/// a reduction of its one operand over the `reduced` dims takes reduceShape
/// and reduceOutputStrides.
struct LayoutNode {
  enum class Kind { Elementwise, Matmul, Copy, Where, Reduce };
  Kind kind = Kind::Elementwise;
  std::vector<LayoutRef> operands;
  /// Reduce: per operand dim, whether it is reduced; whether the reduced
  /// dims are kept with size 1; whether the result is an index (argmax,
  /// argmin).
  std::vector<bool> reduced;
  bool keepdims = false;
  bool indexResult = false;
};

struct LayoutGraph {
  Policy policy = Policy::Torch;
  std::vector<LayoutNode> nodes;  // a node reads only arguments and earlier nodes
  std::vector<LayoutRef> results; // the function's results, in order
};

/// The layouts of `graph`'s results for arguments `args` (concrete sizes and
/// strides; a scalar argument is a 0-d operand). Returns "" and fills
/// `results`, or the first problem: shapes that do not broadcast or multiply
/// (the message names the node and the shapes), or a malformed graph (a
/// reference to a missing argument or to a later node, a matmul without two
/// operands). Never fails by crashing: the graph may come from a file.
std::string evaluateLayoutGraph(const LayoutGraph &graph,
                                const std::vector<Operand> &args,
                                std::vector<Operand> &results);

} // namespace stride::layout

#endif // STRIDE_LAYOUT_LAYOUTGRAPH_H
