//===- StridesTest.cpp - Output stride policies ---------------------------===//
//
// Expected values were recorded from PyTorch 1.13 and NumPy 1.24 (torch:
// torch.as_strided views, numpy: as_strided views, strides in elements).
//
//===----------------------------------------------------------------------===//

#include "stride/Layout/Shape.h"
#include "stride/Layout/Strides.h"

#include <gtest/gtest.h>

using namespace stride::layout;

namespace {

/// Output strides of an elementwise op, with the shape broadcast first as the
/// passes do.
Strides out(Policy policy, const std::vector<Operand> &inputs) {
  std::vector<Shape> shapes;
  for (const Operand &op : inputs)
    shapes.push_back(op.shape);
  BroadcastResult shape = broadcastShapes(shapes);
  EXPECT_TRUE(shape.ok());
  return computeOutputStrides(policy, inputs, shape.shape);
}

Strides torch(const std::vector<Operand> &inputs) {
  return out(Policy::Torch, inputs);
}
Strides numpy(const std::vector<Operand> &inputs) {
  return out(Policy::Numpy, inputs);
}

Operand contiguous(const Shape &shape) {
  return {shape, contiguousStrides(shape)};
}

} // namespace

TEST(Policy, ParseAndName) {
  for (Policy p : {Policy::Torch, Policy::Numpy, Policy::Contiguous})
    EXPECT_EQ(parsePolicy(policyName(p)), p);
  EXPECT_STREQ(policyName(Policy::Torch), "torch");
  EXPECT_EQ(parsePolicy("Torch"), std::nullopt);
  EXPECT_EQ(parsePolicy(""), std::nullopt);
}

TEST(ContiguousStrides, MatchTorchEmpty) {
  EXPECT_EQ(contiguousStrides({2, 3, 4}), (Strides{12, 4, 1}));
  EXPECT_EQ(contiguousStrides({2, 1, 3}), (Strides{3, 3, 1}));
  // A zero size enters as 1, like torch.empty(2, 0, 3).stride().
  EXPECT_EQ(contiguousStrides({2, 0, 3}), (Strides{3, 3, 1}));
  EXPECT_EQ(contiguousStrides({0, 3}), (Strides{3, 1}));
  EXPECT_EQ(contiguousStrides({3, 0}), (Strides{1, 1}));
  EXPECT_EQ(contiguousStrides({}), (Strides{}));
}

TEST(Perm, StridesFromPerm) {
  EXPECT_EQ(stridesFromPerm({4, 2, 3}, {1, 2, 0}), (Strides{1, 12, 4}));
  EXPECT_EQ(stridesFromPerm({2, 3, 4}, {0, 1, 2}), contiguousStrides({2, 3, 4}));
  EXPECT_EQ(stridesFromPerm({2, 3, 4, 5}, {0, 2, 3, 1}),
            (Strides{60, 1, 15, 3})); // channels-last
  EXPECT_EQ(stridesFromPerm({2, 0, 3}, {2, 1, 0}), (Strides{1, 2, 2}));
}

TEST(Perm, PermFromStrides) {
  EXPECT_EQ(permFromStrides({4, 2, 3}, {1, 12, 4}),
            (std::vector<int64_t>{1, 2, 0}));
  // Ties (here size-1 dims) keep C order.
  EXPECT_EQ(permFromStrides({3, 1}, {1, 1}), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(permFromStrides({2, 1, 5, 1}, {5, 1, 1, 1}),
            (std::vector<int64_t>{0, 1, 2, 3}));
  // Absolute values order negative strides.
  EXPECT_EQ(permFromStrides({2, 3}, {-1, -2}), (std::vector<int64_t>{1, 0}));
  // Round trip for dense strides.
  Shape s{3, 4, 5, 6};
  std::vector<int64_t> perm{2, 0, 3, 1};
  EXPECT_EQ(permFromStrides(s, stridesFromPerm(s, perm)), perm);
}

TEST(Perm, IsPermutation) {
  EXPECT_TRUE(isPermutation({2, 0, 1}, 3));
  EXPECT_TRUE(isPermutation({}, 0));
  EXPECT_FALSE(isPermutation({0, 0, 1}, 3));
  EXPECT_FALSE(isPermutation({0, 1}, 3));
  EXPECT_FALSE(isPermutation({0, 3, 1}, 3));
  EXPECT_FALSE(isPermutation({-1, 0}, 2));
}

// The examples in pytorch#42922's description, as strides in elements.
TEST(TorchSeed, SlicedPermuted) {
  // torch.randn(2,3,8)[:,:,::2].permute(2,0,1): exp, a+a, add(out=) all
  // give the dense version of the input's permutation.
  Operand a{{4, 2, 3}, {2, 24, 8}};
  EXPECT_EQ(torch({a}), (Strides{1, 12, 4}));
  EXPECT_EQ(torch({a, a}), (Strides{1, 12, 4}));
}

TEST(TorchSeed, DensePermuted) {
  // torch.randn(2,3,4).permute(2,0,1): dense, so strides are copied.
  Operand a{{4, 2, 3}, {1, 12, 4}};
  EXPECT_EQ(torch({a}), (Strides{1, 12, 4}));
  EXPECT_EQ(torch({a, a}), (Strides{1, 12, 4}));
}

TEST(TorchSeed, Dense311PlusOneElement) {
  EXPECT_EQ(torch({{{3, 1, 1}, {1, 3, 3}}, contiguous({1})}),
            (Strides{1, 3, 3}));
}

TEST(TorchSeed, Size1Permuted) {
  // torch.randn(2,1,3).permute(1,0,2) + 1-D tensor keeps (3,3,1).
  EXPECT_EQ(torch({{{1, 2, 3}, {3, 3, 1}}, contiguous({3})}),
            (Strides{3, 3, 1}));
}

TEST(TorchSeed, N1H1) {
  // Contiguous N1H1 has strides H,H,1,1; channels-last has H,1,1,1. Both
  // survive a binary op with a broadcast 1-D tensor.
  EXPECT_EQ(torch({{{2, 1, 5, 1}, {5, 5, 1, 1}}, contiguous({1})}),
            (Strides{5, 5, 1, 1}));
  EXPECT_EQ(torch({{{2, 1, 5, 1}, {5, 1, 1, 1}}, contiguous({1})}),
            (Strides{5, 1, 1, 1}));
}

TEST(TorchSeed, NC11ChannelsLastIsAmbiguous) {
  // Physically contiguous, so the contiguous fast path wins and the
  // channels-last strides C,1,C,C are not propagated.
  Operand a{{2, 3, 1, 1}, {3, 1, 3, 3}};
  EXPECT_EQ(torch({a}), (Strides{3, 1, 1, 1}));
  EXPECT_EQ(torch({a, a}), (Strides{3, 1, 1, 1}));
}

TEST(TorchSeed, FirstInputWins) {
  Operand cl{{2, 3, 4, 4}, {48, 1, 12, 3}};
  Operand c = contiguous({2, 3, 4, 4});
  EXPECT_EQ(torch({cl, c}), (Strides{48, 1, 12, 3}));
  EXPECT_EQ(torch({c, cl}), (Strides{48, 16, 4, 1}));
}

TEST(Torch, BroadcastDimsAreIgnoredInSorting) {
  EXPECT_EQ(torch({{{6, 5, 4, 3, 2}, {6, 0, 120, 0, 1}}}),
            (Strides{6, 36, 180, 2, 1}));
  EXPECT_EQ(torch({{{5, 3, 2}, {1, 0, 5}}}), (Strides{1, 5, 15}));
}

TEST(Torch, OperandOrderDecides) {
  Operand a{{4, 2, 3}, {6, 1, 2}};
  Operand b = contiguous({4, 2, 3});
  EXPECT_EQ(torch({a, b}), (Strides{6, 1, 2}));
  EXPECT_EQ(torch({b, a}), (Strides{6, 3, 1}));
  // C and F order: whichever comes first.
  Operand f{{2, 3}, {1, 2}};
  EXPECT_EQ(torch({contiguous({2, 3}), f}), (Strides{3, 1}));
  EXPECT_EQ(torch({f, contiguous({2, 3})}), (Strides{1, 2}));
}

TEST(Torch, FastPaths) {
  // Contiguous ignores size-1 strides, so this is plain contiguous.
  EXPECT_EQ(torch({{{3, 1, 1}, {1, 3, 3}}}), (Strides{1, 1, 1}));
  // All channels-last.
  Operand cl{{2, 3, 4, 5}, {60, 1, 15, 3}};
  EXPECT_EQ(torch({cl, cl}), cl.strides);
  // Dense, same strides: copied, including an odd size-1 stride.
  Operand odd{{4, 1, 3}, {1, 7, 4}};
  EXPECT_EQ(torch({odd, odd}), (Strides{1, 7, 4}));
  // Dense but different strides: sorted, the size-1 stride is recomputed.
  Operand odd2{{4, 1, 3}, {1, 9, 4}};
  EXPECT_EQ(torch({odd, odd2}), (Strides{1, 12, 4}));
}

TEST(Torch, OverlappingAndSlicedInputsGetDenseOutputs) {
  // Equal strides: the smaller dim goes inner.
  EXPECT_EQ(torch({{{3, 2}, {1, 1}}}), (Strides{2, 1}));
  EXPECT_EQ(torch({{{2, 3}, {1, 1}}}), (Strides{1, 2}));
  EXPECT_EQ(torch({{{2, 3}, {6, 2}}}), (Strides{3, 1}));
}

TEST(Torch, ZeroSize) {
  // Empty tensors count as contiguous for the fast path.
  EXPECT_EQ(torch({{{0, 3, 4}, {0, 1, 3}}}), (Strides{12, 4, 1}));
  // Broadcasting takes the general path; a non-C order packs with raw size
  // products, so dims outside a zero-size dim get stride 0.
  EXPECT_EQ(torch({{{0, 3, 4}, {0, 1, 3}}, contiguous({4})}),
            (Strides{12, 1, 3}));
  EXPECT_EQ(torch({{{3, 2, 0}, {1, 3, 1}}, contiguous({1, 1})}),
            (Strides{0, 0, 1}));
  EXPECT_EQ(torch({{{3, 0}, {1, 3}}, contiguous({1})}), (Strides{1, 3}));
  // C order: allocated like torch.empty.
  EXPECT_EQ(torch({{{0, 3}, {1, 0}}, contiguous({3})}), (Strides{3, 1}));
}

TEST(Torch, RankZeroAndScalars) {
  EXPECT_EQ(torch({contiguous({})}), (Strides{}));
  EXPECT_EQ(torch({contiguous({}), contiguous({})}), (Strides{}));
  // A 0-d operand is broadcast: it never matches the fast paths.
  EXPECT_EQ(torch({{{4, 2, 3}, {1, 12, 4}}, contiguous({})}),
            (Strides{1, 12, 4}));
  EXPECT_EQ(torch({{{7, 3, 3}, {1, 21, 7}}, contiguous({})}),
            (Strides{1, 21, 7}));
}

TEST(Torch, WhereTakesConditionFirst) {
  // where(cond, a, b): the condition is the first input.
  Operand cond = contiguous({2, 3});
  Operand f{{2, 3}, {1, 2}};
  EXPECT_EQ(torch({cond, f, f}), (Strides{3, 1}));
  EXPECT_EQ(torch({f, cond, cond}), (Strides{1, 2}));
}

TEST(Numpy, SortsByAbsoluteStrideAndAllocatesPositive) {
  EXPECT_EQ(numpy({{{2, 3}, {3, -1}}}), (Strides{3, 1}));
  EXPECT_EQ(numpy({{{2, 3}, {-1, 2}}}), (Strides{1, 2}));
  EXPECT_EQ(numpy({{{3, 4}, {-1, -3}}}), (Strides{1, 3}));
  // Size-1 dims are ignored, whatever their stride.
  EXPECT_EQ(numpy({{{2, 1, 3}, {-3, 1, 1}}}), (Strides{3, 3, 1}));
  EXPECT_EQ(numpy({{{2, 1, 3}, {-3, 1, 1}}, contiguous({3})}),
            (Strides{3, 3, 1}));
}

TEST(Numpy, TrivialLoop) {
  // 1-D inputs of any stride give a contiguous result.
  EXPECT_EQ(numpy({{{3}, {-2}}}), (Strides{1}));
  EXPECT_EQ(numpy({{{3}, {-2}}, contiguous({})}), (Strides{1}));
  // All F-contiguous inputs give an F-ordered result.
  Operand f{{2, 3}, {1, 2}};
  EXPECT_EQ(numpy({f}), (Strides{1, 2}));
  EXPECT_EQ(numpy({f, f}), (Strides{1, 2}));
  // Mixed C and F: nditer keeps C order whichever comes first, unlike torch.
  EXPECT_EQ(numpy({f, contiguous({2, 3})}), (Strides{3, 1}));
  EXPECT_EQ(numpy({contiguous({2, 3}), f}), (Strides{3, 1}));
  // An input the loop converts takes the nditer path, where size-1 dims keep
  // their place in the stride order; a converted 0-d input is cast before
  // the loop and keeps the trivial one (np.add(np.float32(1) 0-d, x) for a
  // float64 x of these strides gives (1, 5, 5)).
  Operand size1{{5, 1, 5}, {1, 25, 5}};
  Operand converted = size1;
  converted.converted = true;
  Operand convertedScalar{{}, {}, /*converted=*/true};
  EXPECT_EQ(numpy({size1}), (Strides{1, 5, 5}));
  EXPECT_EQ(numpy({converted}), (Strides{1, 25, 5}));
  EXPECT_EQ(numpy({convertedScalar, size1}), (Strides{1, 5, 5}));
}

TEST(Numpy, EveryOperandMustAgreeToMoveADim) {
  // Torch lets the first input decide (6,1,2); NumPy keeps C order when the
  // inputs disagree.
  Operand a{{4, 2, 3}, {6, 1, 2}};
  Operand b = contiguous({4, 2, 3});
  EXPECT_EQ(numpy({a, b}), (Strides{6, 3, 1}));
  EXPECT_EQ(numpy({b, a}), (Strides{6, 3, 1}));
  // Agreement (or indifference, via broadcasting) does move dims.
  Operand p{{2, 3, 4}, {3, 1, 6}};
  EXPECT_EQ(numpy({p}), (Strides{3, 1, 6}));
  EXPECT_EQ(numpy({p, contiguous({4})}), (Strides{3, 1, 6}));
}

TEST(Numpy, BroadcastDimsDifferFromTorch) {
  EXPECT_EQ(numpy({{{6, 5, 4, 3, 2}, {6, 0, 120, 0, 1}}}),
            (Strides{6, 144, 36, 2, 1}));
  EXPECT_EQ(numpy({{{5, 3, 2}, {1, 0, 5}}}), (Strides{1, 10, 5}));
}

TEST(Numpy, ZeroSizeArraysHaveZeroStrides) {
  EXPECT_EQ(numpy({contiguous({4, 3, 0})}), (Strides{0, 0, 0}));
  EXPECT_EQ(numpy({{{3, 4}, {1, 3}}, contiguous({0, 3, 4})}),
            (Strides{0, 0, 0}));
}

TEST(Contiguous, AlwaysRowMajor) {
  Operand a{{4, 2, 3}, {1, 12, 4}};
  EXPECT_EQ(out(Policy::Contiguous, {a}), (Strides{6, 3, 1}));
  EXPECT_EQ(out(Policy::Contiguous, {a, contiguous({2, 3})}),
            (Strides{6, 3, 1}));
  EXPECT_EQ(out(Policy::Contiguous, {contiguous({1, 0, 3})}),
            (Strides{3, 3, 1}));
}

// np.where (PyArray_Where) allocates through nditer without the ufuncs'
// trivial loop; checked against numpy 1.24 with as_strided operands: a
// 3x2x1 bool with strides (1, 3, 1) and an int32 with (1, 3, 6), both
// F-contiguous, give np.add F order (1, 3, 6) but np.where (1, 3, 1).
TEST(NumpyWhere, HasNoTrivialLoop) {
  Operand cond{{3, 2, 1}, {1, 3, 1}}, x{{3, 2, 1}, {1, 3, 6}};
  EXPECT_EQ(computeOutputStrides(Policy::Numpy, {cond, x, x}, {3, 2, 1}),
            (Strides{1, 3, 6}));
  EXPECT_EQ(computeOutputStrides(Policy::Numpy, {cond, x, x}, {3, 2, 1},
                                 NumpyLoop::Where),
            (Strides{1, 3, 1}));
  // torch.where is an ordinary TensorIterator op: the loop kind is NumPy's.
  EXPECT_EQ(computeOutputStrides(Policy::Torch, {cond, x, x}, {3, 2, 1},
                                 NumpyLoop::Where),
            computeOutputStrides(Policy::Torch, {cond, x, x}, {3, 2, 1}));
  StrideDecision d = explainOutputStrides(Policy::Numpy, {cond, x, x},
                                          {3, 2, 1}, NumpyLoop::Where);
  EXPECT_EQ(d.strides, (Strides{1, 3, 1}));
  EXPECT_NE(d.rule.find("np.where"), std::string::npos) << d.rule;
}

// Casts and copies follow the allocate-like rules, checked against
// torch 1.13 (.to/clone) and numpy 1.24 (astype/copy) by hand.
TEST(CopyLike, TorchKeepsDenseStridesExactly) {
  Operand dense{{4, 1}, {1, 4}};
  EXPECT_EQ(copyLikeStrides(Policy::Torch, dense), (Strides{1, 4}));
  // torch.neg of it takes the contiguous fast path instead.
  EXPECT_EQ(computeOutputStrides(Policy::Torch, {dense}, {4, 1}),
            (Strides{1, 1}));
}

TEST(CopyLike, TorchInfersDenseStridesOfBroadcastViews) {
  // torch.as_strided(x, (1,2,2,2), (4,0,0,48)).to(torch.float64).stride()
  Operand view{{1, 2, 2, 2}, {4, 0, 0, 48}};
  EXPECT_EQ(copyLikeStrides(Policy::Torch, view), (Strides{1, 2, 1, 4}));
}

TEST(CopyLike, NumpyNewLikeArray) {
  Operand view{{4, 1, 1, 4}, {0, 4, 4, 1}};
  EXPECT_EQ(copyLikeStrides(Policy::Numpy, view), (Strides{1, 16, 16, 4}));
  Operand fortran{{3, 4}, {1, 3}};
  EXPECT_EQ(copyLikeStrides(Policy::Numpy, fortran), (Strides{1, 3}));
  Operand reversed{{3, 4}, {-4, -1}};
  EXPECT_EQ(copyLikeStrides(Policy::Numpy, reversed), (Strides{4, 1}));
  EXPECT_EQ(copyLikeStrides(Policy::Contiguous, fortran), (Strides{4, 1}));
}

// explainOutputStrides names the rule that decided, and its strides are
// computeOutputStrides' own.
TEST(ExplainOutputStrides, SeedPermutedPlusVector) {
  // pytorch#42922: torch.randn(2,1,3).permute(1,0,2) + torch.randn(3)
  // keeps strides (3, 3, 1) (the stride sort), not contiguous (6, 3, 1).
  std::vector<Operand> inputs = {{{1, 2, 3}, {3, 3, 1}}, {{3}, {1}}};
  StrideDecision d = explainOutputStrides(Policy::Torch, inputs, {1, 2, 3});
  EXPECT_EQ(d.strides, (Strides{3, 3, 1}));
  EXPECT_EQ(d.strides, computeOutputStrides(Policy::Torch, inputs, {1, 2, 3}));
  EXPECT_NE(d.rule.find("stride sort"), std::string::npos) << d.rule;
  EXPECT_EQ(d.lead, 0);
}

TEST(ExplainOutputStrides, FastPathsAndPolicies) {
  // NC11 channels-last (2,3,1,1) strides (3,1,3,3) is also contiguous by
  // TensorIterator's test (size-1 dims ignored): the fast set-up keeps C.
  std::vector<Operand> nc11 = {{{2, 3, 1, 1}, {3, 1, 3, 3}},
                               {{2, 3, 1, 1}, {3, 1, 3, 3}}};
  StrideDecision d = explainOutputStrides(Policy::Torch, nc11, {2, 3, 1, 1});
  EXPECT_EQ(d.strides, (Strides{3, 1, 1, 1}));
  EXPECT_NE(d.rule.find("fast set-up"), std::string::npos) << d.rule;
  EXPECT_NE(d.rule.find("contiguous"), std::string::npos) << d.rule;

  std::vector<Operand> transposed = {{{4, 3}, {1, 4}}, {{4, 3}, {1, 4}}};
  d = explainOutputStrides(Policy::Torch, transposed, {4, 3});
  EXPECT_EQ(d.strides, (Strides{1, 4}));
  EXPECT_NE(d.rule.find("same strides"), std::string::npos) << d.rule;
  EXPECT_EQ(d.memoryOrder, (std::vector<int64_t>{1, 0}));

  d = explainOutputStrides(Policy::Numpy, transposed, {4, 3});
  EXPECT_NE(d.rule.find("trivial loop"), std::string::npos) << d.rule;
  EXPECT_NE(d.rule.find("F order"), std::string::npos) << d.rule;

  std::vector<Operand> mixed = {{{4, 3}, {1, 4}}, {{4, 3}, {3, 1}}};
  d = explainOutputStrides(Policy::Numpy, mixed, {4, 3});
  EXPECT_EQ(d.strides, computeOutputStrides(Policy::Numpy, mixed, {4, 3}));
  EXPECT_NE(d.rule.find("order K"), std::string::npos) << d.rule;

  d = explainOutputStrides(Policy::Numpy, {{{0, 3}, {3, 1}}}, {0, 3});
  EXPECT_NE(d.rule.find("without elements"), std::string::npos) << d.rule;
  d = explainOutputStrides(Policy::Contiguous, mixed, {4, 3});
  EXPECT_EQ(d.rule, "policy contiguous: row-major");
}
