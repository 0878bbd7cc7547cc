//===- Strides.h - Output strides of elementwise ops ------------*- C++ -*-===//
//
// Which strides the result of an elementwise op gets, for each supported
// policy. The answers are meant to be bit-exact with the library the policy is
// named after, so that a compiled kernel and the eager library lay results out
// identically (see docs/Layout.md for how each policy decides):
//
//  * Torch      - PyTorch's TensorIterator (1.13, i.e. after pytorch#42922):
//                 fast paths for same-shaped dense inputs, otherwise the
//                 inverse of the stride-sorting permutation of the inputs.
//  * Numpy      - NumPy ufuncs with order='K' (1.24): the trivial-loop fast
//                 path, otherwise nditer's stride-sorted axis order.
//  * Contiguous - always row-major.
//
// All strides are in elements, never bytes.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_LAYOUT_STRIDES_H
#define STRIDE_LAYOUT_STRIDES_H

#include "stride/Layout/Shape.h"

#include <optional>
#include <string_view>

namespace stride::layout {

enum class Policy { Torch, Numpy, Contiguous };

/// "torch", "numpy" or "contiguous"; anything else gives std::nullopt.
std::optional<Policy> parsePolicy(std::string_view name);
const char *policyName(Policy policy);

/// An input of an elementwise op: concrete sizes (no kDynamic) and element
/// strides, which may be 0 (broadcast views) or negative (NumPy only).
struct Operand {
  Shape shape;
  Strides strides;
  /// The op converts this operand's element type inside its loop. NumPy's
  /// ufuncs then skip the trivial (all C or all F) loop and order axes with
  /// nditer; PyTorch does not care.
  bool converted = false;
};

/// Row-major strides exactly as PyTorch's torch.empty(shape).stride(): the
/// innermost stride is 1 and each size multiplies in as max(size, 1), so a
/// size-1 dim gets its inner neighbour's extent and a 0 never zeroes strides.
Strides contiguousStrides(const Shape &shape);

/// Dense strides for a layout whose dims, listed outermost to innermost, are
/// `perm`; sizes enter as max(size, 1) like contiguousStrides, so
/// stridesFromPerm(s, {0, 1, ..., n-1}) == contiguousStrides(s).
Strides stridesFromPerm(const Shape &shape, const std::vector<int64_t> &perm);

/// A perm (outermost to innermost) along which |stride| never increases;
/// equal strides keep C order (lower dim outer). For dense strides without
/// size-1 dims, stridesFromPerm(shape, permFromStrides(shape, s)) == s.
std::vector<int64_t> permFromStrides(const Shape &shape, const Strides &strides);

/// True when `perm` holds each of 0 .. rank-1 exactly once.
bool isPermutation(const std::vector<int64_t> &perm, size_t rank);

/// How NumPy runs an elementwise op. Ufuncs take the trivial loop when they
/// can (all inputs one shape, all C- or all F-contiguous). np.where
/// (PyArray_Where) has no such path: it allocates its result through nditer
/// with order K, so a 3x2x1 F-contiguous pair gives [1, 3, 1], not F's
/// [1, 3, 6]. PyTorch's where is an ordinary TensorIterator op.
enum class NumpyLoop { Ufunc, Where };

/// Strides of the result of an elementwise op over `inputs` (in operand
/// order: for where(c, a, b) that is c, a, b) whose broadcast shape is
/// `outShape`. Preconditions: every input broadcasts to `outShape` (see
/// broadcastShapes) and has as many strides as dims.
Strides computeOutputStrides(Policy policy, const std::vector<Operand> &inputs,
                             const Shape &outShape,
                             NumpyLoop loop = NumpyLoop::Ufunc);

/// Strides of a cast or copy of `input` (same shape), as the eager
/// libraries allocate one: they use their allocate-like rule, not the
/// elementwise one (a cast of a dense view keeps even its size-1 strides).
///  * torch: `.to(dtype)` / `clone()` with preserve_format, i.e.
///    empty_like: a non-overlapping and dense input's exact strides, else
///    infer_dense_strides (dims sorted by stride, stride-0 dims stay put).
///  * numpy: `astype` / `copy(order='K')`, i.e. PyArray_NewLikeArray: C
///    order for C-contiguous (and 0-d/1-d) inputs, F order for F-contiguous
///    ones, else dims sorted by descending |stride| (ties by dim index).
///  * contiguous: row-major.
/// PyTorch's TensorIterator also converts an input whose dtype is not the
/// common one with `.to()` before it picks the output's strides (on the
/// CPU), so under torch a promotion cast is laid out by this rule too.
Strides copyLikeStrides(Policy policy, const Operand &input);

/// Strides of the result of a matmul of `lhs` and `rhs` whose shape is
/// `outShape` (see matmulShape). torch and contiguous: row-major, as PyTorch
/// allocates matmul results. numpy: a generalized ufunc's, its batch (loop)
/// dims ordered as computeOutputStrides(Numpy) orders the operands' batch
/// dims, the core dims (m, n) row-major inside, and all zeros when the
/// result has no elements. Concrete sizes and strides only.
Strides matmulOutputStrides(Policy policy, const Operand &lhs,
                            const Operand &rhs, const Shape &outShape);

/// Why an elementwise result gets its strides: the rule of the policy's
/// eager library that decided (stride.explain, stride-explain).
struct StrideDecision {
  Strides strides;  // computeOutputStrides' answer
  std::string rule; // one sentence naming the rule
  /// The result's dims in memory order, outermost first.
  std::vector<int64_t> memoryOrder;
  /// The first input whose own memory order (of its dims that are not
  /// broadcast) the result follows; -1 when none does, or all are scalars.
  int64_t lead = -1;
};

/// computeOutputStrides with the deciding rule: under torch TensorIterator's
/// fast set-up (all contiguous, all channels-last, all dense with one
/// stride) or its stride sort (C order kept, or the loop order it found,
/// which compares size-1 dims' strides too); under numpy the empty-array
/// rule, the ufunc trivial loop (C or F), or nditer's order K; contiguous.
StrideDecision explainOutputStrides(Policy policy,
                                    const std::vector<Operand> &inputs,
                                    const Shape &outShape,
                                    NumpyLoop loop = NumpyLoop::Ufunc);

} // namespace stride::layout

#endif // STRIDE_LAYOUT_STRIDES_H
