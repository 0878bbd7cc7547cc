//===- LayoutGraph.cpp - Result layouts of a program from its inputs ------===//

#include "stride/Layout/LayoutGraph.h"

namespace stride::layout {

std::string evaluateLayoutGraph(const LayoutGraph &graph,
                                const std::vector<Operand> &args,
                                std::vector<Operand> &results) {
  std::vector<Operand> values;
  values.reserve(graph.nodes.size());
  // Resolves `ref` as read by node `reader` (graph.nodes.size() for the
  // function's results).
  auto lookup = [&](const LayoutRef &ref, size_t reader,
                    std::string &error) -> const Operand * {
    static const Operand scalar;
    switch (ref.kind) {
    case LayoutRef::Kind::Scalar:
      return &scalar;
    case LayoutRef::Kind::Argument:
      if (ref.index >= 0 && static_cast<size_t>(ref.index) < args.size())
        return &args[ref.index];
      error = "refers to argument #" + std::to_string(ref.index) +
              " of a function with " + std::to_string(args.size());
      return nullptr;
    case LayoutRef::Kind::Node:
      if (ref.index >= 0 && static_cast<size_t>(ref.index) < reader)
        return &values[ref.index];
      error = "refers to node #" + std::to_string(ref.index) +
              ", which is not an earlier node";
      return nullptr;
    }
    error = "has an unknown kind of operand";
    return nullptr;
  };

  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const LayoutNode &node = graph.nodes[i];
    std::string what = "node #" + std::to_string(i);
    std::vector<Operand> operands;
    for (const LayoutRef &ref : node.operands) {
      std::string error;
      const Operand *operand = lookup(ref, i, error);
      if (!operand)
        return what + " " + error;
      operands.push_back(*operand);
      operands.back().converted = ref.converted;
      if (ref.copied)
        operands.back().strides = copyLikeStrides(graph.policy, operands.back());
    }
    Operand value;
    if (node.kind == LayoutNode::Kind::Reduce) {
      if (operands.size() != 1)
        return what + " is a reduction of " + std::to_string(operands.size()) +
               " operands";
      if (node.reduced.size() != operands[0].shape.size())
        return what + " reduces " + std::to_string(node.reduced.size()) +
               " dims of a rank-" + std::to_string(operands[0].shape.size()) +
               " operand";
      value.shape = reduceShape(operands[0].shape, node.reduced, node.keepdims);
      value.strides =
          reduceOutputStrides(graph.policy, operands[0], node.reduced,
                              node.keepdims, node.indexResult);
    } else if (node.kind == LayoutNode::Kind::Matmul) {
      if (operands.size() != 2)
        return what + " is a matmul with " + std::to_string(operands.size()) +
               " operands";
      MatmulResult product = matmulShape(operands[0].shape, operands[1].shape);
      if (!product.ok())
        return what + " (matmul): " + product.error->message;
      value.shape = product.info.result;
      value.strides = matmulOutputStrides(graph.policy, operands[0],
                                          operands[1], value.shape);
    } else {
      std::vector<Shape> shapes;
      for (const Operand &operand : operands)
        shapes.push_back(operand.shape);
      BroadcastResult broadcast = broadcastShapes(shapes);
      if (!broadcast.ok())
        return what + " (elementwise): " + broadcast.error->message;
      value.shape = broadcast.shape;
      value.strides =
          node.kind == LayoutNode::Kind::Copy && operands.size() == 1 &&
                  operands[0].shape == value.shape
              ? copyLikeStrides(graph.policy, operands[0])
              : computeOutputStrides(graph.policy, operands, value.shape,
                                     node.kind == LayoutNode::Kind::Where
                                         ? NumpyLoop::Where
                                         : NumpyLoop::Ufunc);
    }
    values.push_back(std::move(value));
  }

  results.clear();
  for (size_t j = 0; j < graph.results.size(); ++j) {
    std::string error;
    const Operand *result = lookup(graph.results[j], values.size(), error);
    if (!result)
      return "result #" + std::to_string(j) + " " + error;
    results.push_back(*result);
  }
  return "";
}

} // namespace stride::layout
