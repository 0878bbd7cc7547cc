//===- Strides.cpp - Output strides of elementwise ops --------------------===//

#include "stride/Layout/Strides.h"

#include "stride/Layout/Coalesce.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <string>
#include <utility>

namespace stride::layout {

namespace {
/// Each policy and its name, the one table both directions read.
constexpr std::pair<Policy, const char *> kPolicyNames[] = {
    {Policy::Torch, "torch"},
    {Policy::Numpy, "numpy"},
    {Policy::Contiguous, "contiguous"},
};
} // namespace

std::optional<Policy> parsePolicy(std::string_view name) {
  for (auto [policy, spelling] : kPolicyNames)
    if (name == spelling)
      return policy;
  return std::nullopt;
}

const char *policyName(Policy policy) {
  for (auto [known, spelling] : kPolicyNames)
    if (known == policy)
      return spelling;
  return "unknown";
}

Strides contiguousStrides(const Shape &shape) {
  std::vector<int64_t> perm(shape.size());
  std::iota(perm.begin(), perm.end(), 0);
  return stridesFromPerm(shape, perm);
}

Strides stridesFromPerm(const Shape &shape, const std::vector<int64_t> &perm) {
  Strides strides(shape.size(), 0);
  // Unsigned so that a shape whose size overflows int64 wraps instead of
  // being undefined behaviour (callers check sizes where it matters).
  uint64_t stride = 1;
  for (auto it = perm.rbegin(); it != perm.rend(); ++it) {
    strides[*it] = static_cast<int64_t>(stride);
    stride *= static_cast<uint64_t>(std::max<int64_t>(shape[*it], 1));
  }
  return strides;
}

std::vector<int64_t> permFromStrides(const Shape &shape,
                                     const Strides &strides) {
  std::vector<int64_t> perm(shape.size());
  std::iota(perm.begin(), perm.end(), 0);
  std::stable_sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
    return std::llabs(strides[a]) > std::llabs(strides[b]);
  });
  return perm;
}

bool isPermutation(const std::vector<int64_t> &perm, size_t rank) {
  if (perm.size() != rank)
    return false;
  std::vector<bool> seen(rank, false);
  for (int64_t dim : perm) {
    if (dim < 0 || static_cast<size_t>(dim) >= rank || seen[dim])
      return false;
    seen[dim] = true;
  }
  return true;
}

namespace {

//===----------------------------------------------------------------------===//
// torch
//===----------------------------------------------------------------------===//

int64_t numElements(const Shape &shape) {
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s;
  return n;
}

/// Whether `op` is dense with the dims `innermostFirst` nested from the
/// innermost out, as PyTorch's contiguity checks define it: size-1 dims may
/// have any stride.
bool torchDenseInOrder(const Operand &op,
                       const std::vector<size_t> &innermostFirst) {
  int64_t expected = 1;
  for (size_t dim : innermostFirst) {
    if (op.shape[dim] == 1)
      continue;
    if (op.strides[dim] != expected)
      return false;
    expected *= op.shape[dim];
  }
  return true;
}

/// PyTorch's is_contiguous(): empty tensors count as contiguous, and size-1
/// dims may have any stride.
bool torchIsContiguous(const Operand &op) {
  if (numElements(op.shape) == 0)
    return true;
  std::vector<size_t> innermostFirst(op.shape.size());
  std::iota(innermostFirst.rbegin(), innermostFirst.rend(), 0);
  return torchDenseInOrder(op, innermostFirst);
}

/// is_contiguous(memory_format=channels_last): defined for 4-D only, dims
/// checked innermost first in the order C, W, H, N, size-1 dims skipped.
bool torchIsChannelsLast(const Operand &op) {
  return op.shape.size() == 4 && torchDenseInOrder(op, {1, 3, 2, 0});
}

/// is_non_overlapping_and_dense(): some permutation of the dims with two or
/// more elements is exactly dense; dims of size 0 or 1 are ignored.
bool torchIsNonOverlappingAndDense(const Operand &op) {
  if (torchIsContiguous(op) || torchIsChannelsLast(op))
    return true;
  const Shape &shape = op.shape;
  if (shape.size() == 1)
    return shape[0] < 2 || op.strides[0] == 1;
  std::vector<int64_t> dims;
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] >= 2)
      dims.push_back(static_cast<int64_t>(i));
  std::sort(dims.begin(), dims.end(),
            [&](int64_t a, int64_t b) { return op.strides[a] < op.strides[b]; });
  int64_t expected = 1;
  for (int64_t dim : dims) {
    if (op.strides[dim] != expected)
      return false;
    expected *= shape[dim];
  }
  return true;
}

/// torch.empty(shape, memory_format=torch.channels_last).stride(): raw size
/// products, so a zero size does zero the outer strides here.
Strides torchChannelsLastStrides(const Shape &s) {
  Strides strides(4);
  strides[1] = 1;
  strides[3] = s[1];
  strides[2] = strides[3] * s[3];
  strides[0] = strides[2] * s[2];
  return strides;
}

/// TensorIterator's fast set-up: only when every input has the output's
/// shape. Returns nothing when the general path must decide.
std::optional<Strides> torchFastSetup(const std::vector<Operand> &inputs,
                                      const Shape &outShape) {
  if (inputs.empty())
    return std::nullopt;
  for (const Operand &op : inputs)
    if (op.shape != outShape)
      return std::nullopt;
  auto all = [&](bool (*pred)(const Operand &)) {
    return std::all_of(inputs.begin(), inputs.end(), pred);
  };
  if (all(torchIsContiguous))
    return contiguousStrides(outShape);
  if (all(torchIsChannelsLast))
    return torchChannelsLastStrides(outShape);
  if (!all(torchIsNonOverlappingAndDense))
    return std::nullopt;
  // Dense but permuted: propagated only when every input agrees exactly,
  // including the otherwise meaningless strides of size-1 dims.
  for (const Operand &op : inputs)
    if (op.strides != inputs.back().strides)
      return std::nullopt;
  return inputs.back().strides;
}

Strides torchOutputStrides(const std::vector<Operand> &inputs,
                           const Shape &outShape) {
  if (std::optional<Strides> fast = torchFastSetup(inputs, outShape))
    return *fast;

  const std::vector<int64_t> order =
      iterationOrder(outShape, broadcastStrides(inputs, outShape));
  const size_t rank = outShape.size();
  // Loop order that is plain reverse C order means a contiguous result,
  // allocated like torch.empty (sizes enter as max(size, 1)).
  bool reverseC = true;
  for (size_t j = 0; j < rank; ++j)
    reverseC &= order[j] == static_cast<int64_t>(rank - 1 - j);
  if (reverseC)
    return contiguousStrides(outShape);

  // Otherwise torch allocates with empty_strided, packing the dims densely
  // in loop order with raw size products: after a zero-size dim all outer
  // strides are 0.
  Strides strides(rank);
  int64_t stride = 1;
  for (int64_t dim : order) {
    strides[dim] = stride;
    stride *= outShape[dim];
  }
  return strides;
}

//===----------------------------------------------------------------------===//
// numpy
//===----------------------------------------------------------------------===//

enum ContiguityFlags { kC = 1, kF = 2 };

/// NumPy's C/F contiguity flags: size-1 dims are ignored and an empty array
/// is both.
int numpyContiguity(const Operand &op) {
  if (numElements(op.shape) == 0)
    return kC | kF;
  auto dense = [&](auto begin, auto end) {
    int64_t expected = 1;
    for (auto it = begin; it != end; ++it) {
      int64_t size = op.shape[*it];
      if (size == 1)
        continue;
      if (op.strides[*it] != expected)
        return false;
      expected *= size;
    }
    return true;
  };
  std::vector<size_t> dims(op.shape.size());
  std::iota(dims.begin(), dims.end(), 0);
  int flags = 0;
  if (dense(dims.rbegin(), dims.rend()))
    flags |= kC;
  if (dense(dims.begin(), dims.end()))
    flags |= kF;
  return flags;
}

/// The ufunc trivial loop: non-0-d inputs all have one shape, need no cast,
/// and those of rank 2 or more are all C- or all F-contiguous (1-D inputs
/// may have any stride). The result is then plain C (or F when the inputs
/// were F and not C) order. A 0-d input that needs a cast does not stop it:
/// NumPy 1.24's try_trivial_single_output_loop casts 0-d inputs to the
/// loop's dtype up front.
std::optional<Strides> numpyTrivialLoop(const std::vector<Operand> &inputs,
                                        const Shape &outShape) {
  const Shape *shape = nullptr;
  int order = 0;
  for (const Operand &op : inputs) {
    if (op.shape.empty())
      continue;
    if (op.converted)
      return std::nullopt;
    if (!shape)
      shape = &op.shape;
    else if (op.shape != *shape)
      return std::nullopt;
    if (op.shape.size() == 1)
      continue;
    int flags = numpyContiguity(op);
    // Note that a C|F input (e.g. 3x1) only matches other C|F inputs.
    if (flags == 0 || (order != 0 && order != flags))
      return std::nullopt;
    order = flags;
  }
  std::vector<int64_t> perm(outShape.size());
  std::iota(perm.begin(), perm.end(), 0);
  if (order == kF)
    std::reverse(perm.begin(), perm.end());
  return stridesFromPerm(outShape, perm);
}

/// nditer's npyiter_find_best_axis_ordering. Axes are numbered innermost
/// first (axis a is dim rank-1-a). Unlike torch, a dim moves inwards past
/// another only when every operand that strides both agrees, absolute
/// strides are compared, and the element is shifted, not swapped, into place.
std::vector<int64_t> numpyAxisOrder(const std::vector<Strides> &axisStrides,
                                    size_t rank) {
  std::vector<int64_t> perm(rank);
  std::iota(perm.begin(), perm.end(), 0);
  for (size_t i0 = 1; i0 < rank; ++i0) {
    const int64_t moving = perm[i0];
    size_t insertAt = i0;
    for (size_t i1 = i0; i1-- > 0;) {
      bool decided = false, moveInwards = false;
      for (const Strides &s : axisStrides) {
        int64_t inner = s[moving], outer = s[perm[i1]];
        if (inner == 0 || outer == 0)
          continue;
        if (std::llabs(outer) <= std::llabs(inner))
          moveInwards = false; // any objection wins: C order is kept
        else if (!decided)
          moveInwards = true;
        decided = true;
      }
      if (!decided)
        continue;
      if (!moveInwards)
        break;
      insertAt = i1;
    }
    std::copy_backward(perm.begin() + insertAt, perm.begin() + i0,
                       perm.begin() + i0 + 1);
    perm[insertAt] = moving;
  }
  return perm;
}

Strides numpyOutputStrides(const std::vector<Operand> &inputs,
                           const Shape &outShape, NumpyLoop loop) {
  const size_t rank = outShape.size();
  // NumPy 1.24 gives every array without elements all-zero strides.
  if (numElements(outShape) == 0)
    return Strides(rank, 0);
  if (loop == NumpyLoop::Ufunc)
    if (std::optional<Strides> trivial = numpyTrivialLoop(inputs, outShape))
      return *trivial;

  // nditer ignores size-1 dims of an operand entirely (stride 0), not only
  // stretched ones, so they never influence the order.
  std::vector<Strides> axisStrides;
  for (const Operand &op : inputs) {
    Strides s(rank, 0);
    size_t offset = rank - op.shape.size();
    for (size_t i = 0; i < op.shape.size(); ++i)
      if (op.shape[i] != 1)
        s[rank - 1 - (offset + i)] = op.strides[i];
    axisStrides.push_back(std::move(s));
  }
  // The output is allocated dense with positive strides in iteration order:
  // its memory order follows the inputs even when they run backwards.
  Strides strides(rank);
  int64_t stride = 1;
  for (int64_t axis : numpyAxisOrder(axisStrides, rank)) {
    int64_t dim = static_cast<int64_t>(rank) - 1 - axis;
    strides[dim] = stride;
    stride *= outShape[dim];
  }
  return strides;
}

/// at::infer_dense_strides: a stable insertion sort of the dims (starting
/// from reverse C order) by stride, where a stride-0 dim is ambiguous with
/// every other and equal strides put the smaller size inside; then dense
/// strides in that order, size-0 and size-1 dims multiplying in as 1.
Strides torchInferDenseStrides(const Operand &op) {
  const size_t rank = op.shape.size();
  std::vector<int64_t> perm(rank); // innermost first
  for (size_t i = 0; i < rank; ++i)
    perm[i] = static_cast<int64_t>(rank - 1 - i);
  auto shouldSwap = [&](int64_t dim0, int64_t dim1) {
    int64_t s0 = op.strides[dim0], s1 = op.strides[dim1];
    if (s0 == 0 || s1 == 0)
      return 0;
    if (s0 != s1)
      return s0 < s1 ? -1 : 1;
    return op.shape[dim0] > op.shape[dim1] ? 1 : 0;
  };
  for (size_t i = 1; i < rank; ++i) {
    size_t dim1 = i;
    for (size_t dim0 = i; dim0-- > 0;) {
      int comparison = shouldSwap(perm[dim0], perm[dim1]);
      if (comparison > 0) {
        std::swap(perm[dim0], perm[dim1]);
        dim1 = dim0;
      } else if (comparison < 0) {
        break;
      }
    }
  }
  Strides strides(rank);
  int64_t stride = 1;
  for (int64_t dim : perm) {
    strides[dim] = stride;
    if (op.shape[dim] > 1)
      stride *= op.shape[dim];
  }
  return strides;
}

/// PyArray_NewLikeArray with order='K' (see copyLikeStrides).
Strides numpyNewLikeStrides(const Operand &op) {
  const size_t rank = op.shape.size();
  // As for ufunc results: NumPy 1.24 gives every array without elements
  // all-zero strides (astype, copy, empty_like of a zero-size array).
  if (numElements(op.shape) == 0)
    return Strides(rank, 0);
  int flags = numpyContiguity(op);
  if (rank <= 1 || (flags & kC))
    return contiguousStrides(op.shape);
  std::vector<int64_t> perm(rank); // outermost first
  std::iota(perm.begin(), perm.end(), 0);
  if (flags & kF) {
    std::reverse(perm.begin(), perm.end());
    return stridesFromPerm(op.shape, perm);
  }
  std::stable_sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
    return std::llabs(op.strides[a]) > std::llabs(op.strides[b]);
  });
  Strides strides(rank);
  int64_t stride = 1;
  for (size_t i = rank; i-- > 0;) {
    strides[perm[i]] = stride;
    stride *= op.shape[perm[i]];
  }
  return strides;
}

} // namespace

Strides computeOutputStrides(Policy policy, const std::vector<Operand> &inputs,
                             const Shape &outShape, NumpyLoop loop) {
  switch (policy) {
  case Policy::Torch:
    return torchOutputStrides(inputs, outShape);
  case Policy::Numpy:
    return numpyOutputStrides(inputs, outShape, loop);
  case Policy::Contiguous:
    break;
  }
  return contiguousStrides(outShape);
}

namespace {
std::string dimList(const std::vector<int64_t> &dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    text += (i ? ", " : "") + std::to_string(dims[i]);
  return text + "]";
}

/// Whether `op`'s non-broadcast dims (right-aligned to `rank`) appear in
/// `order` (outermost first) with non-increasing |stride|.
bool followsOrder(const Operand &op, const std::vector<int64_t> &order,
                  size_t rank) {
  size_t offset = rank - op.shape.size();
  int64_t previous = INT64_MAX;
  bool any = false;
  for (int64_t dim : order) {
    if (dim < int64_t(offset))
      continue;
    size_t d = dim - offset;
    if (op.shape[d] <= 1)
      continue;
    int64_t s = std::llabs(op.strides[d]);
    if (s == 0)
      continue;
    if (s > previous)
      return false;
    previous = s;
    any = true;
  }
  return any;
}
} // namespace

StrideDecision explainOutputStrides(Policy policy,
                                    const std::vector<Operand> &inputs,
                                    const Shape &outShape, NumpyLoop loop) {
  StrideDecision d;
  d.strides = computeOutputStrides(policy, inputs, outShape, loop);
  d.memoryOrder = permFromStrides(outShape, d.strides);
  const size_t rank = outShape.size();
  for (size_t i = 0; i < inputs.size() && d.lead < 0; ++i)
    if (followsOrder(inputs[i], d.memoryOrder, rank))
      d.lead = int64_t(i);
  auto all = [&](bool (*pred)(const Operand &)) {
    return !inputs.empty() && std::all_of(inputs.begin(), inputs.end(), pred);
  };
  bool sameShape = !inputs.empty() &&
                   std::all_of(inputs.begin(), inputs.end(),
                               [&](auto &op) { return op.shape == outShape; });
  switch (policy) {
  case Policy::Contiguous:
    d.rule = "policy contiguous: row-major";
    return d;
  case Policy::Torch:
    if (sameShape && all(torchIsContiguous))
      d.rule = "TensorIterator's fast set-up: every input has the result's "
               "shape and is contiguous, so the result is contiguous";
    else if (sameShape && all(torchIsChannelsLast))
      d.rule = "TensorIterator's fast set-up: every input has the result's "
               "shape and is channels-last, so the result is channels-last";
    else if (torchFastSetup(inputs, outShape))
      d.rule = "TensorIterator's fast set-up: every input is non-overlapping "
               "and dense with the same strides, which the result takes";
    else if (d.strides == contiguousStrides(outShape))
      d.rule = "TensorIterator's stride sort (reorder_dimensions) keeps C "
               "order, so the result is contiguous";
    else
      d.rule = "TensorIterator's stride sort (reorder_dimensions: smaller "
               "strides inner, the first operand whose strides differ "
               "decides, a stride 0 ties with anything, size-1 dims are "
               "compared too) orders the dims " +
               dimList(d.memoryOrder) +
               " outermost first; the result is dense in that order";
    return d;
  case Policy::Numpy:
    if (numElements(outShape) == 0)
      d.rule = "NumPy gives an array without elements all-zero strides";
    else if (loop == NumpyLoop::Ufunc && numpyTrivialLoop(inputs, outShape))
      d.rule = std::string("the ufunc trivial loop: the inputs share one "
                           "shape, need no cast and are all ") +
               (d.strides == contiguousStrides(outShape) ? "C" : "F") +
               "-contiguous, so the result is " +
               (d.strides == contiguousStrides(outShape) ? "C" : "F") +
               " order";
    else
      d.rule = std::string(loop == NumpyLoop::Where
                               ? "np.where allocates through nditer (it has "
                                 "no trivial loop): "
                               : "") +
               "nditer's order K (an axis moves inwards past another only "
               "when every operand that strides both agrees; size-1 dims are "
               "ignored) gives the memory order " +
               dimList(d.memoryOrder) +
               " outermost first; the result is dense in it";
    return d;
  }
  return d;
}

Strides copyLikeStrides(Policy policy, const Operand &input) {
  switch (policy) {
  case Policy::Torch:
    return torchIsNonOverlappingAndDense(input) ? input.strides
                                                : torchInferDenseStrides(input);
  case Policy::Numpy:
    return numpyNewLikeStrides(input);
  case Policy::Contiguous:
    break;
  }
  return contiguousStrides(input.shape);
}

Strides matmulOutputStrides(Policy policy, const Operand &lhs,
                            const Operand &rhs, const Shape &outShape) {
  const int64_t rank = static_cast<int64_t>(outShape.size());
  if (policy != Policy::Numpy)
    return contiguousStrides(outShape);
  int64_t core = (lhs.shape.size() > 1 ? 1 : 0) + (rhs.shape.size() > 1 ? 1 : 0);
  int64_t batchRank = rank - core;
  if (rank > 0 && numElements(outShape) == 0)
    return Strides(rank, 0);
  if (batchRank <= 0)
    return contiguousStrides(outShape);
  Shape batchShape(outShape.begin(), outShape.begin() + batchRank);
  std::vector<Operand> batchOperands;
  for (const Operand *op : {&lhs, &rhs}) {
    if (op->shape.size() <= 2)
      continue; // no batch dims: it broadcasts along all of them
    size_t n = op->shape.size() - 2;
    batchOperands.push_back(
        {Shape(op->shape.begin(), op->shape.begin() + n),
         Strides(op->strides.begin(), op->strides.begin() + n)});
  }
  Strides batchStrides =
      computeOutputStrides(Policy::Numpy, batchOperands, batchShape);
  // Core dims are row-major; every batch stride scales by the core's size.
  Strides strides(rank);
  int64_t running = 1;
  for (int64_t d = rank - 1; d >= batchRank; --d) {
    strides[d] = running;
    running *= std::max<int64_t>(outShape[d], 1);
  }
  for (int64_t d = 0; d < batchRank; ++d)
    strides[d] = batchStrides[d] * running;
  return strides;
}

} // namespace stride::layout
