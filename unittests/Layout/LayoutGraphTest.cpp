//===- LayoutGraphTest.cpp - Result layouts from input layouts ------------===//
//
// The graph's evaluation is the per-op rules chained: each node must give
// what broadcastShapes/computeOutputStrides or matmulShape/
// matmulOutputStrides give for its operands, and a malformed graph (it comes
// from a file) is an error, never a crash.
//
//===----------------------------------------------------------------------===//

#include "stride/Layout/LayoutGraph.h"

#include <gtest/gtest.h>

using namespace stride::layout;

namespace {
using Kind = LayoutRef::Kind;
LayoutRef arg(int64_t i) { return {Kind::Argument, i}; }
LayoutRef node(int64_t i) { return {Kind::Node, i}; }
} // namespace

TEST(LayoutGraph, ChainsTheOpRules) {
  // n0 = a + b; n1 = n0 @ c; n2 = s * n1.
  LayoutGraph graph;
  graph.policy = Policy::Numpy;
  graph.nodes = {{LayoutNode::Kind::Elementwise, {arg(0), arg(1)}},
                 {LayoutNode::Kind::Matmul, {node(0), arg(2)}},
                 {LayoutNode::Kind::Elementwise, {LayoutRef{}, node(1)}}};
  graph.results = {node(2), node(0)};
  std::vector<Operand> args = {{{2, 3, 4}, {1, 2, 6}}, // a: reversed dims
                               {{4}, {1}},
                               {{4, 5}, {1, 4}}};
  std::vector<Operand> results;
  ASSERT_EQ(evaluateLayoutGraph(graph, args, results), "");
  ASSERT_EQ(results.size(), 2u);

  Shape sum = broadcastShapes({args[0].shape, args[1].shape}).shape;
  Strides sumStrides =
      computeOutputStrides(Policy::Numpy, {args[0], args[1]}, sum);
  EXPECT_EQ(results[1].shape, sum);
  EXPECT_EQ(results[1].strides, sumStrides);
  Operand n0{sum, sumStrides};
  Shape product = matmulShape(sum, args[2].shape).info.result;
  EXPECT_EQ(results[0].shape, (Shape{2, 3, 5}));
  Strides productStrides =
      matmulOutputStrides(Policy::Numpy, n0, args[2], product);
  EXPECT_EQ(results[0].strides,
            computeOutputStrides(Policy::Numpy, {Operand{}, {product, productStrides}},
                                 product));
}

TEST(LayoutGraph, WhereNodesSkipTheTrivialLoop) {
  LayoutGraph graph;
  graph.policy = Policy::Numpy;
  graph.nodes = {{LayoutNode::Kind::Where, {arg(0), arg(1), arg(1)}},
                 {LayoutNode::Kind::Elementwise, {arg(0), arg(1), arg(1)}}};
  graph.results = {node(0), node(1)};
  std::vector<Operand> args = {{{3, 2, 1}, {1, 3, 1}}, {{3, 2, 1}, {1, 3, 6}}};
  std::vector<Operand> results;
  ASSERT_EQ(evaluateLayoutGraph(graph, args, results), "");
  EXPECT_EQ(results[0].strides, (Strides{1, 3, 1}));
  EXPECT_EQ(results[1].strides, (Strides{1, 3, 6}));
}

TEST(LayoutGraph, MatmulStridesByPolicy) {
  // lhs is dense with its dim 1 outermost and dim 0 inside it.
  Operand lhs{{3, 5, 2, 4}, {8, 24, 4, 1}}, rhs{{5, 4, 6}, {24, 6, 1}};
  Shape out = {3, 5, 2, 6};
  EXPECT_EQ(matmulOutputStrides(Policy::Torch, lhs, rhs, out),
            contiguousStrides(out));
  // numpy: batch dims in the operands' order (dim 0 has the smaller
  // stride), core 2x6 row-major inside.
  EXPECT_EQ(matmulOutputStrides(Policy::Numpy, lhs, rhs, out),
            (Strides{12, 36, 6, 1}));
  EXPECT_EQ(matmulOutputStrides(Policy::Numpy, lhs, rhs, {3, 5, 0, 6}),
            (Strides{0, 0, 0, 0}));
  EXPECT_EQ(matmulOutputStrides(Policy::Numpy, {{4}, {1}}, {{4}, {1}}, {}),
            Strides{});
}

TEST(LayoutGraph, ShapeErrorsNameTheNode) {
  LayoutGraph graph;
  graph.nodes = {{LayoutNode::Kind::Elementwise, {arg(0), arg(1)}},
                 {LayoutNode::Kind::Matmul, {node(0), arg(1)}}};
  graph.results = {node(1)};
  std::vector<Operand> results;
  EXPECT_EQ(evaluateLayoutGraph(graph, {{{3}, {1}}, {{4}, {1}}}, results)
                .rfind("node #0 (elementwise): cannot broadcast", 0),
            0u);
  EXPECT_EQ(evaluateLayoutGraph(graph, {{{2, 3}, {3, 1}}, {{1}, {1}}}, results)
                .rfind("node #1 (matmul): ", 0),
            0u);
}

TEST(LayoutGraph, ReduceNodes) {
  // A sum over dim 1 of a column-major 3x4x5 with keepdims, then an argmax
  // over dim 0 of the sum: NumPy keeps the input's order (order K), PyTorch
  // allocates contiguous; argmax results are C-contiguous in both.
  LayoutNode sum{LayoutNode::Kind::Reduce, {arg(0)}};
  sum.reduced = {false, true, false};
  sum.keepdims = true;
  LayoutNode argmax{LayoutNode::Kind::Reduce, {node(0)}};
  argmax.reduced = {true, false, false};
  argmax.indexResult = true;
  Operand input{{3, 4, 5}, {1, 3, 12}};
  for (Policy policy : {Policy::Torch, Policy::Numpy}) {
    LayoutGraph graph;
    graph.policy = policy;
    graph.nodes = {sum, argmax};
    graph.results = {node(0), node(1)};
    std::vector<Operand> results;
    ASSERT_EQ(evaluateLayoutGraph(graph, {input}, results), "");
    ASSERT_EQ(results.size(), 2u);
    EXPECT_EQ(results[0].shape, (Shape{3, 1, 5}));
    EXPECT_EQ(results[0].strides,
              reduceOutputStrides(policy, input, sum.reduced, true, false));
    EXPECT_EQ(results[1].shape, (Shape{1, 5}));
    EXPECT_EQ(
        results[1].strides,
        reduceOutputStrides(policy, results[0], argmax.reduced, false, true));
  }
  LayoutGraph graph;
  graph.nodes = {sum};
  std::vector<Operand> results;
  EXPECT_EQ(evaluateLayoutGraph(graph, {{{3, 4}, {4, 1}}}, results),
            "node #0 reduces 3 dims of a rank-2 operand");
  graph.nodes = {{LayoutNode::Kind::Reduce, {arg(0), arg(0)}}};
  EXPECT_EQ(evaluateLayoutGraph(graph, {{{3}, {1}}}, results),
            "node #0 is a reduction of 2 operands");
}

TEST(LayoutGraph, MalformedGraphsAreErrors) {
  std::vector<Operand> args = {{{3}, {1}}};
  std::vector<Operand> results;
  LayoutGraph graph;
  graph.nodes = {{LayoutNode::Kind::Elementwise, {arg(1)}}};
  EXPECT_EQ(evaluateLayoutGraph(graph, args, results),
            "node #0 refers to argument #1 of a function with 1");
  graph.nodes = {{LayoutNode::Kind::Elementwise, {node(0)}}};
  EXPECT_EQ(evaluateLayoutGraph(graph, args, results),
            "node #0 refers to node #0, which is not an earlier node");
  graph.nodes = {{LayoutNode::Kind::Matmul, {arg(0)}}};
  EXPECT_EQ(evaluateLayoutGraph(graph, args, results),
            "node #0 is a matmul with 1 operands");
  graph.nodes = {};
  graph.results = {node(-1)};
  EXPECT_EQ(evaluateLayoutGraph(graph, args, results),
            "result #0 refers to node #-1, which is not an earlier node");
  graph.results = {arg(0), LayoutRef{}};
  ASSERT_EQ(evaluateLayoutGraph(graph, args, results), "");
  EXPECT_EQ(results[0].shape, (Shape{3}));
  EXPECT_TRUE(results[1].shape.empty());
}
