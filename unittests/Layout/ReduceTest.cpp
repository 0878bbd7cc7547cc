//===- ReduceTest.cpp - Shapes and strides of reduction results -----------===//

#include "stride/Layout/Reduce.h"

#include <gtest/gtest.h>

using namespace stride::layout;

namespace {

std::vector<bool> axes(int64_t rank, std::optional<std::vector<int64_t>> a) {
  std::string error;
  std::optional<std::vector<bool>> reduced = reducedAxes(rank, a, error);
  EXPECT_TRUE(reduced.has_value()) << error;
  return reduced.value_or(std::vector<bool>(rank, false));
}

TEST(ReduceAxes, AllNegativeAndErrors) {
  EXPECT_EQ(axes(3, std::nullopt), (std::vector<bool>{true, true, true}));
  EXPECT_EQ(axes(3, std::vector<int64_t>{-1, 0}),
            (std::vector<bool>{true, false, true}));
  // A 0-d input takes axis 0 and -1 and reduces nothing.
  EXPECT_EQ(axes(0, std::vector<int64_t>{-1}), std::vector<bool>{});
  std::string error;
  EXPECT_FALSE(reducedAxes(2, std::vector<int64_t>{2}, error));
  EXPECT_EQ(error, "axis 2 is out of range for an input of rank 2 (valid "
                   "axes are -2 to 1)");
  EXPECT_FALSE(reducedAxes(2, std::vector<int64_t>{1, -1}, error));
  EXPECT_EQ(error, "axis -1 repeats axis 1");
}

TEST(ReduceShape, KeepdimsAndScalar) {
  EXPECT_EQ(reduceShape({4, 5, 6}, {true, false, true}, false), (Shape{5}));
  EXPECT_EQ(reduceShape({4, 5, 6}, {true, false, true}, true),
            (Shape{1, 5, 1}));
  EXPECT_EQ(reduceShape({4, 5}, {true, true}, false), Shape{});
  EXPECT_EQ(reduceShape({kDynamic, 5}, {false, true}, false),
            (Shape{kDynamic}));
}

/// One reduction result's expected strides: with or without keepdims, of
/// argmax/argmin (indexResult) or another reduction.
struct StridesCase {
  bool keepdims, indexResult;
  Strides want;
};

/// Checks reduceOutputStrides of `input` reduced over `reduced` for each
/// of `cases`.
void expectStrides(Policy policy, const Operand &input,
                   const std::vector<bool> &reduced,
                   std::initializer_list<StridesCase> cases) {
  for (const StridesCase &c : cases)
    EXPECT_EQ(
        reduceOutputStrides(policy, input, reduced, c.keepdims, c.indexResult),
        c.want)
        << "keepdims " << c.keepdims << ", index result " << c.indexResult;
}

TEST(ReduceStrides, TorchIsContiguous) {
  expectStrides(Policy::Torch, {{4, 2, 3}, {1, 12, 4}}, {false, true, false},
                {{false, false, {3, 1}}, {true, false, {3, 3, 1}}});
}

TEST(ReduceStrides, NumpyFollowsTheInputsOrder) {
  // (4, 2, 3) with strides (1, 12, 4): dim 2 outside dim 0. argmax/argmin
  // allocate C-contiguous.
  expectStrides(Policy::Numpy, {{4, 2, 3}, {1, 12, 4}}, {false, true, false},
                {{false, false, {1, 4}},
                 {true, false, {1, 12, 4}},
                 {false, true, {3, 1}}});
}

TEST(ReduceStrides, NumpyNegativeSizeOneAndEmpty) {
  // |stride| decides; the result's strides are positive.
  expectStrides(Policy::Numpy, {{4, 3, 5}, {-1, 20, 4}}, {false, false, true},
                {{true, false, {1, 4, 4}}});
  // A size-1 dim compares with nothing (stride 0 in nditer).
  expectStrides(Policy::Numpy, {{3, 1, 4}, {1, 1, 3}}, {true, false, false},
                {{true, false, {1, 4, 1}}});
  // An empty result gets all-zero strides, argmax's too.
  expectStrides(Policy::Numpy, {{0, 3, 2}, {0, 0, 0}}, {false, true, false},
                {{false, false, {0, 0}}, {true, true, {0, 0, 0}}});
}

} // namespace
