//===- Coalesce.cpp - Loop order and dimension coalescing -----------------===//

#include "stride/Layout/Coalesce.h"

#include <utility>

namespace stride::layout {

std::vector<Strides> broadcastStrides(const std::vector<Operand> &inputs,
                                      const Shape &outShape) {
  std::vector<Strides> result;
  result.reserve(inputs.size());
  for (const Operand &op : inputs) {
    Strides strides(outShape.size(), 0);
    size_t offset = outShape.size() - op.shape.size();
    for (size_t i = 0; i < op.shape.size(); ++i) {
      bool stretched = op.shape[i] == 1 && outShape[offset + i] != 1;
      strides[offset + i] = stretched ? 0 : op.strides[i];
    }
    result.push_back(std::move(strides));
  }
  return result;
}

namespace {

/// TensorIterator's comparison of two dims: 1 when `dim0` should be the outer
/// of the two, -1 when it should be the inner one, 0 when no operand cares.
int compareDims(const Shape &shape, const std::vector<Strides> &operandStrides,
                int64_t dim0, int64_t dim1) {
  for (const Strides &strides : operandStrides) {
    int64_t stride0 = strides[dim0], stride1 = strides[dim1];
    // A broadcast dim says nothing about memory order.
    if (stride0 == 0 || stride1 == 0)
      continue;
    if (stride0 < stride1)
      return -1;
    if (stride0 > stride1)
      return 1;
    // Equal strides (size-1 dims, overlapping views): putting the smaller
    // dim inner is only a preference to swap; keeping the order is left to
    // later operands to overrule.
    if (shape[dim0] > shape[dim1])
      return 1;
  }
  return 0;
}

} // namespace

std::vector<int64_t> iterationOrder(const Shape &shape,
                                    const std::vector<Strides> &operandStrides) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<int64_t> perm(rank);
  // Start from reverse C order, so ties leave C-ordered memory walking
  // forwards.
  for (int64_t i = 0; i < rank; ++i)
    perm[i] = rank - 1 - i;

  // Insertion sort that tolerates undecided comparisons: an undecided pair
  // does not end the scan, and a later decisive one swaps the two
  // (possibly non-adjacent) positions directly, exactly like TensorIterator,
  // because that swap is what makes its ambiguous cases come out as they do.
  for (int64_t i = 1; i < rank; ++i) {
    int64_t dim1 = i;
    for (int64_t dim0 = i - 1; dim0 >= 0; --dim0) {
      int cmp = compareDims(shape, operandStrides, perm[dim0], perm[dim1]);
      if (cmp > 0) {
        std::swap(perm[dim0], perm[dim1]);
        dim1 = dim0;
      } else if (cmp < 0) {
        break;
      }
    }
  }
  return perm;
}

IterationSpace coalesce(const Shape &outShape,
                        const std::vector<Strides> &operandStrides) {
  const std::vector<int64_t> order = iterationOrder(outShape, operandStrides);
  const size_t rank = order.size();

  IterationSpace space;
  for (int64_t dim : order) {
    space.sizes.push_back(outShape[dim]);
    space.dims.push_back({dim});
  }
  for (const Strides &strides : operandStrides) {
    Strides permuted;
    for (int64_t dim : order)
      permuted.push_back(strides[dim]);
    space.strides.push_back(std::move(permuted));
  }
  if (rank <= 1)
    return space;

  auto canMerge = [&](size_t inner, size_t outer) {
    int64_t innerSize = space.sizes[inner];
    if (innerSize == 1 || space.sizes[outer] == 1)
      return true;
    for (const Strides &s : space.strides)
      if (s[inner] * innerSize != s[outer])
        return false;
    return true;
  };

  // `last` is the loop being grown; each next loop either joins it or
  // becomes the new last one.
  size_t last = 0;
  for (size_t next = 1; next < rank; ++next) {
    if (canMerge(last, next)) {
      // A size-1 loop has no meaningful stride of its own.
      if (space.sizes[last] == 1)
        for (Strides &s : space.strides)
          s[last] = s[next];
      space.sizes[last] *= space.sizes[next];
      space.dims[last].insert(space.dims[last].end(), space.dims[next].begin(),
                              space.dims[next].end());
      continue;
    }
    ++last;
    if (last != next) {
      space.sizes[last] = space.sizes[next];
      space.dims[last] = std::move(space.dims[next]);
      for (Strides &s : space.strides)
        s[last] = s[next];
    }
  }
  space.sizes.resize(last + 1);
  space.dims.resize(last + 1);
  for (Strides &s : space.strides)
    s.resize(last + 1);
  return space;
}

} // namespace stride::layout
