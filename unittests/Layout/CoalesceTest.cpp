//===- CoalesceTest.cpp - Loop order and dimension coalescing -------------===//

#include "stride/Layout/Coalesce.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace stride::layout;

namespace {

using Dims = std::vector<std::vector<int64_t>>;

/// Operand strides for `out = op(inputs...)` with the torch-policy output,
/// output first, as a pass would hand them to coalesce().
std::vector<Strides> withOutput(const Shape &outShape,
                                const std::vector<Operand> &inputs) {
  std::vector<Strides> strides{
      computeOutputStrides(Policy::Torch, inputs, outShape)};
  for (Strides &s : broadcastStrides(inputs, outShape))
    strides.push_back(std::move(s));
  return strides;
}

Operand contiguous(const Shape &shape) {
  return {shape, contiguousStrides(shape)};
}

/// Every tuple of per-operand offsets the loop nest visits, in visit order.
std::vector<std::vector<int64_t>> visits(const Shape &sizes,
                                         const std::vector<Strides> &strides) {
  std::vector<std::vector<int64_t>> result;
  int64_t total = 1;
  for (int64_t s : sizes)
    total *= s;
  for (int64_t linear = 0; linear < total; ++linear) {
    std::vector<int64_t> offsets(strides.size(), 0);
    int64_t rest = linear;
    // sizes[0] is the innermost loop, so it varies fastest.
    for (size_t loop = 0; loop < sizes.size(); ++loop) {
      int64_t index = rest % sizes[loop];
      rest /= sizes[loop];
      for (size_t op = 0; op < strides.size(); ++op)
        offsets[op] += index * strides[op][loop];
    }
    result.push_back(std::move(offsets));
  }
  return result;
}

std::vector<int64_t> reverseC(const Shape &shape) {
  std::vector<int64_t> order;
  for (size_t i = shape.size(); i-- > 0;)
    order.push_back(static_cast<int64_t>(i));
  return order;
}

} // namespace

TEST(BroadcastStrides, RightAlignedWithZeros) {
  std::vector<Strides> s =
      broadcastStrides({contiguous({2, 3, 4}), contiguous({3, 1}),
                        contiguous({4}), contiguous({})},
                       {2, 3, 4});
  EXPECT_EQ(s[0], (Strides{12, 4, 1}));
  EXPECT_EQ(s[1], (Strides{0, 1, 0}));
  EXPECT_EQ(s[2], (Strides{0, 0, 1}));
  EXPECT_EQ(s[3], (Strides{0, 0, 0}));
}

TEST(BroadcastStrides, SizeOneKeepsStrideWhenNotStretched) {
  // TensorIterator keeps it: the ordering looks at it (seed N1H1 examples).
  Operand a{{2, 1, 5, 1}, {5, 1, 1, 1}};
  EXPECT_EQ(broadcastStrides({a}, {2, 1, 5, 1})[0], (Strides{5, 1, 1, 1}));
  EXPECT_EQ(broadcastStrides({a}, {2, 3, 5, 1})[0], (Strides{5, 0, 1, 1}));
  EXPECT_EQ(broadcastStrides({{{1, 3}, {-7, -1}}}, {1, 3})[0],
            (Strides{-7, -1}));
}

TEST(IterationOrder, FollowsStrides) {
  EXPECT_EQ(iterationOrder({2, 3, 4}, {{12, 4, 1}}),
            (std::vector<int64_t>{2, 1, 0}));
  EXPECT_EQ(iterationOrder({4, 2, 3}, {{1, 12, 4}}),
            (std::vector<int64_t>{0, 2, 1}));
  EXPECT_EQ(iterationOrder({}, {{}}), (std::vector<int64_t>{}));
  EXPECT_EQ(iterationOrder({5}, {{-1}}), (std::vector<int64_t>{0}));
  // No operand cares: reverse C order.
  EXPECT_EQ(iterationOrder({2, 3}, {{0, 0}}),
            (std::vector<int64_t>{1, 0}));
}

TEST(IterationOrder, FirstDecisiveOperandWins) {
  EXPECT_EQ(iterationOrder({2, 3}, {{1, 2}, {3, 1}}),
            (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(iterationOrder({2, 3}, {{3, 1}, {1, 2}}),
            (std::vector<int64_t>{1, 0}));
  // A broadcast dim in the first operand hands the decision on.
  EXPECT_EQ(iterationOrder({2, 3}, {{0, 1}, {1, 2}}),
            (std::vector<int64_t>{0, 1}));
  // Equal strides: the bigger dim goes outer, else a later operand decides.
  EXPECT_EQ(iterationOrder({2, 3}, {{1, 1}}), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(iterationOrder({3, 2}, {{1, 1}, {1, 2}}),
            (std::vector<int64_t>{0, 1}));
}

TEST(IterationOrder, AmbiguousComparisonSwapsAcrossTheGap) {
  // Inserting dim 0 (stride 1): dim 1 is broadcast, so undecided; dim 2
  // (stride 2) swaps with it directly, leaving dim 1 in the middle. A
  // shifting insertion sort would give {0, 2, 1}. torch.as_strided(x,
  // (2,2,2), (1,0,2)).exp().stride() is (1, 2, 4), which needs {0, 1, 2}.
  EXPECT_EQ(iterationOrder({2, 2, 2}, {{1, 0, 2}}),
            (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(computeOutputStrides(Policy::Torch, {{{2, 2, 2}, {1, 0, 2}}},
                                 {2, 2, 2}),
            (Strides{1, 2, 4}));
}

TEST(Coalesce, BroadcastColumn) {
  // (2,3,4) + (3,1): the broadcast input breaks both merges.
  IterationSpace s =
      coalesce({2, 3, 4}, withOutput({2, 3, 4}, {contiguous({2, 3, 4}),
                                                 contiguous({3, 1})}));
  EXPECT_EQ(s.sizes, (Shape{4, 3, 2}));
  EXPECT_EQ(s.dims, (Dims{{2}, {1}, {0}}));
  ASSERT_EQ(s.strides.size(), 3u);
  EXPECT_EQ(s.strides[0], (Strides{1, 4, 12}));
  EXPECT_EQ(s.strides[1], (Strides{1, 4, 12}));
  EXPECT_EQ(s.strides[2], (Strides{0, 1, 0}));
}

TEST(Coalesce, BroadcastRow) {
  // (2,3,4) + (4,): the two outer dims are both stride 0 in the row.
  IterationSpace s = coalesce(
      {2, 3, 4}, withOutput({2, 3, 4}, {contiguous({2, 3, 4}), contiguous({4})}));
  EXPECT_EQ(s.sizes, (Shape{4, 6}));
  EXPECT_EQ(s.dims, (Dims{{2}, {1, 0}}));
  EXPECT_EQ(s.strides[0], (Strides{1, 4}));
  EXPECT_EQ(s.strides[2], (Strides{1, 0}));
}

TEST(Coalesce, ContiguousIsOneLoop) {
  IterationSpace s = coalesce({2, 3, 4}, {contiguousStrides({2, 3, 4}),
                                          contiguousStrides({2, 3, 4})});
  EXPECT_EQ(s.sizes, (Shape{24}));
  EXPECT_EQ(s.dims, (Dims{{2, 1, 0}}));
  EXPECT_EQ(s.strides, (std::vector<Strides>{{1}, {1}}));
}

TEST(Coalesce, PermutedOperandWithPropagatedOutput) {
  // The output copies the input's permutation, so memory is one run.
  Operand a{{4, 2, 3}, {1, 12, 4}};
  std::vector<Strides> strides = withOutput({4, 2, 3}, {a});
  EXPECT_EQ(strides[0], (Strides{1, 12, 4}));
  IterationSpace s = coalesce({4, 2, 3}, strides);
  EXPECT_EQ(s.sizes, (Shape{24}));
  EXPECT_EQ(s.dims, (Dims{{0, 2, 1}}));
}

TEST(Coalesce, PermutedInputContiguousOutput) {
  // The output leads: loops follow its C order; dims 2 and 1 are adjacent
  // in both operands' memory, dim 0 is not.
  IterationSpace s =
      coalesce({4, 2, 3}, {contiguousStrides({4, 2, 3}), {1, 12, 4}});
  EXPECT_EQ(s.sizes, (Shape{6, 4}));
  EXPECT_EQ(s.dims, (Dims{{2, 1}, {0}}));
  EXPECT_EQ(s.strides[0], (Strides{1, 6}));
  EXPECT_EQ(s.strides[1], (Strides{4, 1}));
}

TEST(Coalesce, SizeOneDimsMergeAndLendNoStride) {
  // The output ties dims 0 and 1 (stride 4), so the input's odd size-1
  // stride 99 orders dim 1 outermost; size 1 then merges regardless.
  IterationSpace s = coalesce({3, 1, 4}, {{4, 4, 1}, {4, 99, 1}});
  EXPECT_EQ(s.sizes, (Shape{12}));
  EXPECT_EQ(s.dims, (Dims{{2, 0, 1}}));
  EXPECT_EQ(s.strides, (std::vector<Strides>{{1}, {1}}));
  // An inner size-1 loop takes the stride of the loop merged into it.
  s = coalesce({5, 1}, {{1, 1}});
  EXPECT_EQ(s.sizes, (Shape{5}));
  EXPECT_EQ(s.dims, (Dims{{1, 0}}));
  EXPECT_EQ(s.strides[0], (Strides{1}));
}

TEST(Coalesce, NegativeStridesMergeWhenConsistent) {
  IterationSpace s = coalesce({2, 3}, {{3, 1}, {-3, -1}});
  EXPECT_EQ(s.sizes, (Shape{6}));
  EXPECT_EQ(s.strides[1], (Strides{-1}));
}

TEST(Coalesce, ZeroSizeDimsAreKept) {
  // As in TensorIterator a zero-size dim is not special: it merges only
  // where the stride rule allows, and the nest then runs no iterations.
  IterationSpace s = coalesce({2, 0, 3}, {contiguousStrides({2, 0, 3})});
  EXPECT_EQ(s.sizes, (Shape{0, 2}));
  EXPECT_EQ(s.dims, (Dims{{2, 1}, {0}}));
  EXPECT_EQ(s.strides[0], (Strides{1, 3}));
}

TEST(Coalesce, RankZeroAndOne) {
  IterationSpace s = coalesce({}, {{}, {}});
  EXPECT_TRUE(s.sizes.empty());
  EXPECT_TRUE(s.dims.empty());
  EXPECT_EQ(s.strides, (std::vector<Strides>{{}, {}}));
  s = coalesce({7}, {{1}, {-2}});
  EXPECT_EQ(s.sizes, (Shape{7}));
  EXPECT_EQ(s.dims, (Dims{{0}}));
  EXPECT_EQ(s.strides, (std::vector<Strides>{{1}, {-2}}));
}

// Coalescing and reordering must not change which elements are combined:
// the nest visits the same offset tuples as the plain C-order nest, and
// with a propagated (dense) output it writes the output sequentially.
TEST(Coalesce, RandomizedVisitsSameElements) {
  std::mt19937 rng(42);
  auto pick = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  for (int iter = 0; iter < 2000; ++iter) {
    Shape shape(pick(0, 5));
    for (int64_t &d : shape)
      d = pick(0, 9) == 0 ? 0 : pick(1, 3);
    std::vector<Operand> inputs(pick(1, 3));
    for (Operand &op : inputs) {
      op.shape = Shape(shape.begin() + pick(0, shape.size()), shape.end());
      for (int64_t &d : op.shape)
        d = pick(0, 3) == 0 ? 1 : d;
      for (size_t i = 0; i < op.shape.size(); ++i)
        op.strides.push_back(pick(-6, 12));
    }
    std::vector<Strides> strides = withOutput(shape, inputs);
    IterationSpace s = coalesce(shape, strides);

    // Loops partition the dims and their sizes multiply out.
    std::vector<int64_t> all;
    for (size_t loop = 0; loop < s.sizes.size(); ++loop) {
      int64_t product = 1;
      for (int64_t dim : s.dims[loop]) {
        product *= shape[dim];
        all.push_back(dim);
      }
      EXPECT_EQ(product, s.sizes[loop]);
    }
    std::sort(all.begin(), all.end());
    std::vector<int64_t> expectedDims(shape.size());
    for (size_t i = 0; i < shape.size(); ++i)
      expectedDims[i] = static_cast<int64_t>(i);
    EXPECT_EQ(all, expectedDims);

    // Same multiset of element tuples as the uncoalesced C-order nest.
    std::vector<Strides> cOrder;
    for (const Strides &st : strides) {
      Strides r;
      for (int64_t dim : reverseC(shape))
        r.push_back(st[dim]);
      cOrder.push_back(r);
    }
    Shape cSizes;
    for (int64_t dim : reverseC(shape))
      cSizes.push_back(shape[dim]);
    auto got = visits(s.sizes, s.strides);
    auto want = visits(cSizes, cOrder);
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    ASSERT_EQ(got, want) << "iteration " << iter;

    // The torch-policy output is dense, so it is written in memory order.
    auto ordered = visits(s.sizes, s.strides);
    for (size_t i = 0; i < ordered.size(); ++i)
      ASSERT_EQ(ordered[i][0], static_cast<int64_t>(i)) << "iteration " << iter;
  }
}
