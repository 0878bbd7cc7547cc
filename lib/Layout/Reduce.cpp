//===- Reduce.cpp - Shapes and strides of reduction results ---------------===//

#include "stride/Layout/Reduce.h"

#include <cstdlib>

namespace stride::layout {

std::optional<std::vector<bool>>
reducedAxes(int64_t rank, const std::optional<std::vector<int64_t>> &axes,
            std::string &error) {
  std::vector<bool> reduced(rank, !axes.has_value());
  if (!axes)
    return reduced;
  // A 0-d input is wrapped as PyTorch wraps scalars: axis 0 and -1 name it.
  int64_t bound = rank == 0 ? 1 : rank;
  std::vector<bool> seen(bound, false);
  for (int64_t axis : *axes) {
    if (axis < -bound || axis >= bound) {
      error = "axis " + std::to_string(axis) +
              " is out of range for an input of rank " + std::to_string(rank) +
              " (valid axes are " + std::to_string(-bound) + " to " +
              std::to_string(bound - 1) + ")";
      return std::nullopt;
    }
    int64_t d = axis < 0 ? axis + bound : axis;
    if (seen[d]) {
      error = "axis " + std::to_string(axis) + " repeats axis " +
              std::to_string(d);
      return std::nullopt;
    }
    seen[d] = true;
    if (rank > 0)
      reduced[d] = true;
  }
  return reduced;
}

Shape reduceShape(const Shape &input, const std::vector<bool> &reduced,
                  bool keepdims) {
  Shape result;
  for (size_t d = 0; d < input.size(); ++d) {
    if (!reduced[d])
      result.push_back(input[d]);
    else if (keepdims)
      result.push_back(1);
  }
  return result;
}

std::vector<int64_t> numpyReduceAxisOrder(const Shape &shape,
                                          const Strides &strides) {
  int64_t rank = shape.size();
  // nditer broadcasts size-1 dims with stride 0, so they compare with
  // nothing and stay where C order puts them unless a comparable dim moves.
  std::vector<int64_t> st(rank);
  for (int64_t d = 0; d < rank; ++d)
    st[d] = shape[d] == 1 ? 0 : strides[d];
  std::vector<int64_t> perm; // innermost first, as nditer's AXISDATA
  for (int64_t d = rank - 1; d >= 0; --d)
    perm.push_back(d);
  for (int64_t i0 = 1; i0 < rank; ++i0) {
    int64_t ipos = i0, j0 = perm[i0];
    for (int64_t i1 = i0 - 1; i1 >= 0; --i1) {
      int64_t s0 = st[j0], s1 = st[perm[i1]];
      if (s0 == 0 || s1 == 0)
        continue; // ambiguous: look further out
      if (std::llabs(s1) <= std::llabs(s0))
        break;
      ipos = i1;
    }
    if (ipos != i0) {
      perm.erase(perm.begin() + i0);
      perm.insert(perm.begin() + ipos, j0);
    }
  }
  return perm;
}

Strides reduceOutputStrides(Policy policy, const Operand &input,
                            const std::vector<bool> &reduced, bool keepdims,
                            bool indexResult) {
  Shape shape = reduceShape(input.shape, reduced, keepdims);
  if (policy != Policy::Numpy)
    return contiguousStrides(shape);
  for (int64_t size : shape)
    if (size == 0)
      return Strides(shape.size(), 0);
  if (indexResult)
    return contiguousStrides(shape);
  int64_t rank = input.shape.size();
  // nditer's new_temp_array: walk the axes innermost first, giving each
  // result dim the running extent (a kept reduced dim has size 1).
  // Unsigned, so that a size that overflows int64 wraps instead of being
  // undefined behaviour (as stridesFromPerm).
  std::vector<int64_t> full(rank, 0);
  uint64_t running = 1;
  for (int64_t d : numpyReduceAxisOrder(input.shape, input.strides)) {
    full[d] = static_cast<int64_t>(running);
    if (!reduced[d])
      running *= static_cast<uint64_t>(input.shape[d]);
  }
  Strides strides;
  for (int64_t d = 0; d < rank; ++d)
    if (!reduced[d] || keepdims)
      strides.push_back(full[d]);
  return strides;
}

} // namespace stride::layout
