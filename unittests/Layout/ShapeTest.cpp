//===- ShapeTest.cpp - Broadcasting and matmul shape rules ----------------===//

#include "stride/Layout/Shape.h"

#include <gtest/gtest.h>

using namespace stride::layout;

namespace {

constexpr int64_t D = kDynamic;

Shape broadcastOk(const std::vector<Shape> &shapes) {
  BroadcastResult r = broadcastShapes(shapes);
  EXPECT_TRUE(r.ok()) << (r.error ? r.error->message : "");
  return r.shape;
}

ShapeError broadcastError(const std::vector<Shape> &shapes) {
  BroadcastResult r = broadcastShapes(shapes);
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(r.shape.empty());
  return r.error.value_or(ShapeError{});
}

MatmulInfo matmulOk(const Shape &lhs, const Shape &rhs) {
  MatmulResult r = matmulShape(lhs, rhs);
  EXPECT_TRUE(r.ok()) << (r.error ? r.error->message : "");
  return r.info;
}

ShapeError matmulError(const Shape &lhs, const Shape &rhs) {
  MatmulResult r = matmulShape(lhs, rhs);
  EXPECT_FALSE(r.ok());
  return r.error.value_or(ShapeError{});
}

} // namespace

TEST(FormatShape, StaticDynamicAndRankZero) {
  EXPECT_EQ(formatShape({3, 4}), "3x4");
  EXPECT_EQ(formatShape({D, 5}), "?x5");
  EXPECT_EQ(formatShape({0, 3}), "0x3");
  EXPECT_EQ(formatShape({7}), "7");
  EXPECT_EQ(formatShape({}), "0-d");
}

TEST(Broadcast, RightAligned) {
  EXPECT_EQ(broadcastOk({{2, 3, 4}, {3, 1}}), (Shape{2, 3, 4}));
  EXPECT_EQ(broadcastOk({{2, 3, 4}, {4}}), (Shape{2, 3, 4}));
  EXPECT_EQ(broadcastOk({{5, 1, 3}, {4, 1}}), (Shape{5, 4, 3}));
  EXPECT_EQ(broadcastOk({{3, 1}, {1, 4}, {2, 1, 1}}), (Shape{2, 3, 4}));
}

TEST(Broadcast, OneStretchesEvenToZero) {
  EXPECT_EQ(broadcastOk({{1, 3}, {0, 1}}), (Shape{0, 3}));
  EXPECT_EQ(broadcastOk({{0}, {1}}), (Shape{0}));
  EXPECT_EQ(broadcastOk({{2, 0}, {0}}), (Shape{2, 0}));
}

TEST(Broadcast, RankZeroFitsAnything) {
  EXPECT_EQ(broadcastOk({{}, {3}}), (Shape{3}));
  EXPECT_EQ(broadcastOk({{2, 0}, {}}), (Shape{2, 0}));
  EXPECT_EQ(broadcastOk({{}, {}}), (Shape{}));
  EXPECT_EQ(broadcastOk({}), (Shape{}));
  EXPECT_EQ(broadcastOk({{4, 1}}), (Shape{4, 1}));
}

TEST(Broadcast, Dynamic) {
  EXPECT_EQ(broadcastOk({{D}, {5}}), (Shape{5}));
  EXPECT_EQ(broadcastOk({{5}, {D}}), (Shape{5}));
  EXPECT_EQ(broadcastOk({{D}, {1}}), (Shape{D}));
  EXPECT_EQ(broadcastOk({{1}, {D}}), (Shape{D}));
  EXPECT_EQ(broadcastOk({{D}, {D}}), (Shape{D}));
  EXPECT_EQ(broadcastOk({{D}, {0}}), (Shape{0}));
  EXPECT_EQ(broadcastOk({{D, 1}, {3, D}}), (Shape{3, D}));
  EXPECT_EQ(broadcastOk({{D}, {5}, {D}}), (Shape{5}));
  EXPECT_EQ(broadcastOk({{}, {D}}), (Shape{D}));
}

TEST(Broadcast, StaticMismatchIsErrorEvenNextToDynamic) {
  ShapeError e = broadcastError({{3, D}, {D}, {4, D}});
  EXPECT_EQ(e.resultDim, 0);
  EXPECT_EQ(e.operandDims, (std::vector<int64_t>{0, -1, 0}));
  EXPECT_EQ(e.message,
            "cannot broadcast operand 0 of shape 3x?, operand 1 of shape ? "
            "and operand 2 of shape 4x?: result dim 0 has size 3 in operand "
            "0 (its dim 0) but size 4 in operand 2 (its dim 0)");
}

TEST(Broadcast, ErrorNamesShapesAndDims) {
  ShapeError e = broadcastError({{3, 4}, {5, 4}});
  EXPECT_EQ(e.message, "cannot broadcast operand 0 of shape 3x4 and operand 1 "
                       "of shape 5x4: result dim 0 has size 3 in operand 0 "
                       "(its dim 0) but size 5 in operand 1 (its dim 0)");
  EXPECT_EQ(e.resultDim, 0);
  EXPECT_EQ(e.operandDims, (std::vector<int64_t>{0, 0}));
}

TEST(Broadcast, ErrorReportsRightmostFailingDimInResultIndexing) {
  // Corpus add-301: dims 1 (4 vs 3) fail; result dim 1 is operand 0's dim 0.
  ShapeError e = broadcastError({{2, 4, 1}, {0, 3, 4, 1}});
  EXPECT_EQ(e.resultDim, 1);
  EXPECT_EQ(e.operandDims, (std::vector<int64_t>{0, 1}));
  EXPECT_NE(e.message.find("2x4x1"), std::string::npos);
  EXPECT_NE(e.message.find("0x3x4x1"), std::string::npos);

  // Two failing dims: like PyTorch, the innermost one is reported.
  e = broadcastError({{2, 3}, {4, 5}});
  EXPECT_EQ(e.resultDim, 1);
}

TEST(Broadcast, ErrorWithThreeOperandsAndAScalar) {
  // Corpus where-23: the scalar condition is listed but lacks the dim.
  ShapeError e = broadcastError({{}, {2, 2, 5}, {1, 1, 2}});
  EXPECT_EQ(e.resultDim, 2);
  EXPECT_EQ(e.operandDims, (std::vector<int64_t>{-1, 2, 2}));
  EXPECT_EQ(e.message,
            "cannot broadcast operand 0 of shape 0-d, operand 1 of shape 2x2x5 "
            "and operand 2 of shape 1x1x2: result dim 2 has size 5 in operand "
            "1 (its dim 2) but size 2 in operand 2 (its dim 2)");
}

TEST(Broadcast, ZeroDoesNotStretch) {
  ShapeError e = broadcastError({{0}, {5}});
  EXPECT_EQ(e.resultDim, 0);
}

TEST(Matmul, VectorPromotion) {
  MatmulInfo i = matmulOk({3}, {3});
  EXPECT_EQ(i.result, (Shape{}));
  EXPECT_TRUE(i.lhsIsVector && i.rhsIsVector);
  EXPECT_EQ(i.m, 1);
  EXPECT_EQ(i.n, 1);
  EXPECT_EQ(i.k, 3);

  i = matmulOk({5, 3}, {3});
  EXPECT_EQ(i.result, (Shape{5}));
  EXPECT_FALSE(i.lhsIsVector);
  EXPECT_TRUE(i.rhsIsVector);
  EXPECT_EQ(i.m, 5);
  EXPECT_EQ(i.n, 1);

  i = matmulOk({3}, {3, 7});
  EXPECT_EQ(i.result, (Shape{7}));
  EXPECT_TRUE(i.lhsIsVector);
  EXPECT_EQ(i.m, 1);
  EXPECT_EQ(i.n, 7);

  i = matmulOk({2, 5, 3}, {3});
  EXPECT_EQ(i.result, (Shape{2, 5}));
  EXPECT_EQ(i.lhsBatch, (Shape{2}));
  EXPECT_EQ(i.rhsBatch, (Shape{}));
  EXPECT_EQ(i.batch, (Shape{2}));

  i = matmulOk({3}, {2, 3, 7});
  EXPECT_EQ(i.result, (Shape{2, 7}));
  EXPECT_EQ(i.rhsBatch, (Shape{2}));

  // Corpus matmul-14: a vector against a batch of column matrices.
  EXPECT_EQ(matmulOk({1}, {1, 7, 1, 1}).result, (Shape{1, 7, 1}));
}

TEST(Matmul, PlainMatrices) {
  MatmulInfo i = matmulOk({4, 3}, {3, 6});
  EXPECT_EQ(i.result, (Shape{4, 6}));
  EXPECT_EQ(i.batch, (Shape{}));
  EXPECT_EQ(i.m, 4);
  EXPECT_EQ(i.n, 6);
  EXPECT_EQ(i.k, 3);
}

TEST(Matmul, BatchDimsBroadcast) {
  EXPECT_EQ(matmulOk({2, 1, 2, 2}, {1, 2, 2, 2}).result,
            (Shape{2, 2, 2, 2}));
  MatmulInfo i = matmulOk({3, 1, 2, 4}, {1, 5, 4, 6});
  EXPECT_EQ(i.result, (Shape{3, 5, 2, 6}));
  EXPECT_EQ(i.batch, (Shape{3, 5}));
  EXPECT_EQ(i.lhsBatch, (Shape{3, 1}));
  EXPECT_EQ(i.rhsBatch, (Shape{1, 5}));
  i = matmulOk({1, 3, 4, 5, 3}, {8, 3, 1, 3, 7});
  EXPECT_EQ(i.result, (Shape{8, 3, 4, 5, 7}));
  // Batch ranks may differ; each side keeps its own.
  i = matmulOk({4, 2, 3}, {6, 1, 3, 5});
  EXPECT_EQ(i.result, (Shape{6, 4, 2, 5}));
  EXPECT_EQ(i.lhsBatch, (Shape{4}));
  EXPECT_EQ(i.rhsBatch, (Shape{6, 1}));
  // Zero-size batches and matrices are fine.
  EXPECT_EQ(matmulOk({0, 2, 3}, {1, 3, 0}).result, (Shape{0, 2, 0}));
  EXPECT_EQ(matmulOk({2, 0}, {0, 3}).result, (Shape{2, 3}));
}

TEST(Matmul, Dynamic) {
  MatmulInfo i = matmulOk({D, 2, D}, {5, 4, D});
  EXPECT_EQ(i.result, (Shape{5, 2, D}));
  EXPECT_EQ(i.k, 4);
  EXPECT_EQ(i.n, D);
  EXPECT_EQ(matmulOk({D}, {D}).k, D);
  EXPECT_EQ(matmulOk({3, D}, {D}).result, (Shape{3}));
  EXPECT_EQ(matmulOk({1, 2, 3}, {D, 3, 4}).result, (Shape{D, 2, 4}));
}

TEST(Matmul, ContractedMismatch) {
  ShapeError e = matmulError({2, 5, 3}, {4, 6});
  EXPECT_EQ(e.message, "contracted dimensions differ: lhs dim 2 has size 3, "
                       "rhs dim 0 has size 4 (lhs 2x5x3, rhs 4x6)");
  EXPECT_EQ(e.resultDim, -1);
  EXPECT_EQ(e.operandDims, (std::vector<int64_t>{2, 0}));

  // A size-1 contraction does not broadcast (corpus matmul-84).
  e = matmulError({1, 4, 2, 1}, {1, 4, 2, 1});
  EXPECT_EQ(e.operandDims, (std::vector<int64_t>{3, 2}));

  e = matmulError({3}, {4});
  EXPECT_EQ(e.operandDims, (std::vector<int64_t>{0, 0}));
}

TEST(Matmul, ZeroDimensionalOperand) {
  ShapeError e = matmulError({}, {3});
  EXPECT_EQ(e.message,
            "matmul needs operands of rank 1 or more, but lhs is 0-d (lhs 0-d, "
            "rhs 3)");
  EXPECT_EQ(e.resultDim, -1);
  e = matmulError({2, 3}, {});
  EXPECT_NE(e.message.find("rhs is 0-d"), std::string::npos);
}

TEST(Matmul, BatchMismatch) {
  ShapeError e = matmulError({2, 3, 4}, {3, 4, 5});
  EXPECT_EQ(e.message,
            "cannot broadcast lhs batch of shape 2 and rhs batch of shape 3: "
            "result dim 0 has size 2 in lhs batch (its dim 0) but size 3 in "
            "rhs batch (its dim 0) (lhs 2x3x4, rhs 3x4x5)");
  EXPECT_EQ(e.resultDim, 0);
  EXPECT_EQ(e.operandDims, (std::vector<int64_t>{0, 0}));

  e = matmulError({7, 2, 2, 3}, {5, 3, 4});
  EXPECT_EQ(e.resultDim, 1);
  EXPECT_EQ(e.operandDims, (std::vector<int64_t>{1, 0}));
}

TEST(Matmul, ContractedErrorTakesPrecedenceOverBatch) {
  // NumPy checks the core dims first; PyTorch would report the batch dims.
  ShapeError e = matmulError({2, 3, 4}, {3, 5, 6});
  EXPECT_EQ(e.resultDim, -1);
  EXPECT_EQ(e.message.rfind("contracted dimensions differ", 0), 0u);
}
