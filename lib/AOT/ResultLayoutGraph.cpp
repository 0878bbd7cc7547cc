//===- ResultLayoutGraph.cpp - Record how result layouts follow inputs ----===//
//
// An entry whose results' shapes or strides depend on its input sizes cannot
// list them in the header; instead the library records the entry's layout
// graph (stride/Layout/LayoutGraph.h), which the runtime evaluates for each
// call. The graph is read off the function as written: stride-propagate-
// layout decides a result's layout by the op's LayoutRuleOpInterface rule
// from the operands the rule names, and so does the graph.
// Anything else that produces a tensor the results depend on (a call,
// control flow, another dialect's tensor op) has no rule here and is
// reported.
//
//===----------------------------------------------------------------------===//

#include "stride/AOT/AotCompiler.h"

#include "stride/Dialect/Stride/IR/StrideOps.h"
#include "stride/Dialect/Stride/Transforms/LayoutOperands.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::stride;
namespace layout = ::stride::layout;

std::optional<layout::LayoutGraph>
mlir::stride::extractLayoutGraph(func::FuncOp func, layout::Policy policy,
                                 std::string &error) {
  std::string what = "@" + func.getName().str();
  if (!func.getBody().hasOneBlock()) {
    error = what + " has more than one block";
    return std::nullopt;
  }
  layout::LayoutGraph graph;
  graph.policy = policy;
  llvm::DenseMap<Value, layout::LayoutRef> refs;
  // Tensors made by ops without a layout rule, and the op that made each.
  llvm::DenseMap<Value, Operation *> unknown;
  for (BlockArgument arg : func.getArguments())
    refs[arg] = {layout::LayoutRef::Kind::Argument,
                 static_cast<int64_t>(arg.getArgNumber())};

  auto refOf = [&](Value value) -> std::optional<layout::LayoutRef> {
    if (auto it = refs.find(value); it != refs.end())
      return it->second;
    if (!isa<TensorType>(value.getType()))
      return layout::LayoutRef{}; // a scalar computed in the function
    std::string producer = "a value defined outside the function body";
    if (auto it = unknown.find(value); it != unknown.end())
      producer = "'" + it->second->getName().getStringRef().str() + "'";
    error = "it depends on a tensor made by " + producer +
            ", whose layout stride-compile cannot derive from the inputs";
    return std::nullopt;
  };
  TorchDtypes torch;
  auto addNode = [&](layout::LayoutNode node, Operation *op,
                     ValueRange operands, ResultRange results) -> bool {
    layout::LayoutNode::Kind kind = node.kind;
    // The values stride-propagate-layout decides from: a promotion cast is
    // seen through, to its source, marked converted in the loop (numpy) or
    // copied first (torch).
    SmallVector<bool> none(operands.size(), false);
    LayoutOperands seen =
        kind == layout::LayoutNode::Kind::Matmul ||
                kind == layout::LayoutNode::Kind::Reduce
            ? LayoutOperands{SmallVector<Value>(operands), none, none}
            : layoutOperands(policy, op, operands, torch);
    for (auto [operand, converted, copied] :
         llvm::zip_equal(seen.values, seen.converted, seen.copied)) {
      std::optional<layout::LayoutRef> ref = refOf(operand);
      if (!ref)
        return false;
      ref->converted = converted;
      ref->copied = copied;
      node.operands.push_back(*ref);
    }
    for (Value result : results) {
      refs[result] = {layout::LayoutRef::Kind::Node,
                      static_cast<int64_t>(graph.nodes.size())};
      graph.nodes.push_back(node);
    }
    return true;
  };

  for (Operation &op : func.getBody().front()) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (Value operand : ret.getOperands()) {
        if (!isa<TensorType>(operand.getType()))
          continue; // the lowering rejects non-tensor results itself
        std::optional<layout::LayoutRef> ref = refOf(operand);
        if (!ref)
          return std::nullopt;
        graph.results.push_back(*ref);
      }
      continue;
    }
    bool ok = true;
    auto ruled = dyn_cast<LayoutRuleOpInterface>(op);
    std::optional<LayoutRule> rule;
    if (ruled)
      rule = ruled.getLayoutRule();
    std::optional<SmallVector<bool>> reduced;
    if (rule && rule->kind == LayoutRuleKind::Reduce)
      reduced = getReducedDims(&op);
    if (!rule || rule->kind == LayoutRuleKind::View ||
        (rule->kind == LayoutRuleKind::Reduce &&
         (!reduced || rule->operands.size() != 1))) {
      // View ops have no node kind yet (nor a map_reduce of several
      // inputs): their results are unknown below.
      for (Value result : op.getResults())
        if (isa<TensorType>(result.getType()))
          unknown[result] = &op;
      continue;
    }
    switch (rule->kind) {
    case LayoutRuleKind::Destination:
      // A destination's result is the destination: its shape and strides.
      for (auto [result, init] : llvm::zip(op.getResults(), rule->operands)) {
        std::optional<layout::LayoutRef> ref = refOf(init);
        if (!ref)
          return std::nullopt;
        refs[result] = *ref;
      }
      break;
    case LayoutRuleKind::Reduce: {
      layout::LayoutNode node;
      node.kind = layout::LayoutNode::Kind::Reduce;
      node.reduced.assign(reduced->begin(), reduced->end());
      node.keepdims = getKeepdims(&op);
      std::optional<ReduceKind> kind = getReduceKind(&op);
      node.indexResult =
          kind == ReduceKind::Argmax || kind == ReduceKind::Argmin;
      ok = addNode(std::move(node), &op, rule->operands, op.getResults());
      break;
    }
    case LayoutRuleKind::Matmul:
    case LayoutRuleKind::Elementwise:
    case LayoutRuleKind::Where:
    case LayoutRuleKind::Copy: {
      layout::LayoutNode node;
      node.kind = rule->kind == LayoutRuleKind::Matmul
                      ? layout::LayoutNode::Kind::Matmul
                  : rule->kind == LayoutRuleKind::Where
                      ? layout::LayoutNode::Kind::Where
                  : rule->kind == LayoutRuleKind::Copy
                      ? layout::LayoutNode::Kind::Copy
                      : layout::LayoutNode::Kind::Elementwise;
      ok = addNode(std::move(node), &op, rule->operands, op.getResults());
      break;
    }
    case LayoutRuleKind::View:
      break; // unknown, above
    }
    if (!ok)
      return std::nullopt;
  }
  return graph;
}
