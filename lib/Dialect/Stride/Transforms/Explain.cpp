//===- Explain.cpp - Why each result has its strides ----------------------===//
//
// The layout algebra answers both "which strides" and "by which rule"
// (layout::explainOutputStrides), so these remarks cannot drift from what
// stride-propagate-layout decided: each one is computed from the same
// operand layouts by the same code.
//
//===----------------------------------------------------------------------===//

#include "stride/Dialect/Stride/Transforms/Passes.h"

#include "stride/Dialect/Stride/IR/ReduceOps.h"
#include "stride/Dialect/Stride/IR/StrideAttrs.h"
#include "stride/Dialect/Stride/IR/StrideOps.h"
#include "stride/Dialect/Stride/Transforms/Fusion.h"
#include "stride/Dialect/Stride/Transforms/LayoutOperands.h"
#include "stride/Layout/Coalesce.h"

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDEEXPLAIN
#include "stride/Dialect/Stride/Transforms/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;
using namespace mlir::stride;

namespace {

std::string list(ArrayRef<int64_t> values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "]";
}

std::string shapeText(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "0-d";
  std::string text;
  for (int64_t s : shape)
    text += (text.empty() ? "" : "x") + std::to_string(s);
  return text;
}

/// The static shape and strides of `type`, if it has them.
std::optional<layout::Operand> operandOf(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return std::nullopt;
  SmallVector<int64_t> strides = getStridesOf(tensor);
  if (llvm::any_of(strides, ShapedType::isDynamic))
    return std::nullopt;
  return layout::Operand{layout::Shape(tensor.getShape()),
                         layout::Strides(strides.begin(), strides.end())};
}

/// "dims [1] (2), dims [2, 0] (12)": loops outermost first, each with the
/// dims it covers (outermost first) and its trip count.
std::string loopsText(const layout::IterationSpace &space) {
  std::string text;
  for (size_t k = space.sizes.size(); k-- > 0;) {
    std::vector<int64_t> dims(space.dims[k].rbegin(), space.dims[k].rend());
    text += (text.empty() ? "" : ", ") + std::string("dims ") + list(dims) +
            " (" + std::to_string(space.sizes[k]) + ")";
  }
  return text.empty() ? "none (one element)" : text;
}

struct StrideExplainPass
    : public mlir::stride::impl::StrideExplainBase<StrideExplainPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation()->walk([&](Operation *op) {
      if (!isa<StrideDialect>(op->getDialect()) || op->getNumResults() != 1 ||
          isa<YieldOp>(op))
        return;
      std::optional<layout::Operand> result =
          operandOf(op->getResult(0).getType());
      if (!result)
        return;
      std::string head = "stride-explain: result " + shapeText(result->shape) +
                         " strides " + list(result->strides) + " (" +
                         layout::policyName(policy) + "): ";
      if (isa<BroadcastOp>(op) || isa<ScalarBodyOpInterface>(op))
        return explainElementwise(op, *result, head);
      if (isa<MatmulOp>(op)) {
        op->emitRemark() << head
                         << (policy == layout::Policy::Numpy
                                 ? "NumPy's matmul gufunc: the core dims "
                                   "row-major, the batch dims in the "
                                   "operands' order K"
                                 : "matmul results are allocated "
                                   "contiguous (row-major)");
        return;
      }
      auto mapReduce = dyn_cast<MapReduceOp>(op);
      if (isReduction(op) || mapReduce) {
        InFlightDiagnostic remark = op->emitRemark();
        remark << head
               << (policy == layout::Policy::Numpy
                       ? "NumPy lays a reduction out in its "
                         "input's order K, reduced axes removed "
                         "(kept with keepdims)"
                       : "reduction results are allocated "
                         "contiguous (row-major)");
        if (mapReduce) {
          remark << "; one kernel computes "
                 << opNames(mapReduce.getBodyBlock()) << " and reduces ("
                 << mapReduce.getKind()
                 << ") without storing the elementwise result";
        }
        return;
      }
      op->emitRemark() << head << "'" << op->getName()
                       << "' is a view: its strides are its operand's, as "
                          "the policy's view rule rearranges them";
    });
  }

  void explainElementwise(Operation *op, const layout::Operand &result,
                          const std::string &head) {
    ValueRange inputs = op->getOperands();
    bool destinations = false;
    if (auto broadcast = dyn_cast<BroadcastOp>(op)) {
      inputs = broadcast.getInputs();
      destinations = !broadcast.getInits().empty();
    }
    std::vector<layout::Operand> operands;
    std::vector<unsigned> positions;
    for (auto [i, v] : llvm::enumerate(inputs)) {
      if (!isa<TensorType>(v.getType()))
        continue; // a scalar broadcasts everywhere and decides nothing
      std::optional<layout::Operand> operand = operandOf(v.getType());
      if (!operand)
        return; // dynamic: decided at run time, nothing static to say
      operands.push_back(*operand);
      positions.push_back(i);
    }
    layout::StrideDecision decision = layout::explainOutputStrides(
        policy, operands, result.shape, numpyLoopOf(op));
    std::string why;
    if (decision.strides != result.strides)
      why = destinations ? "the layout of its destination (outs), written "
                           "in place"
                         : "the layout declared on the result (kept as "
                           "written; the policy would give " +
                               list(decision.strides) + ")";
    else
      why = decision.rule;
    if (decision.lead >= 0 && decision.strides == result.strides)
      why += "; it follows operand #" +
             std::to_string(positions[decision.lead]) + "'s memory order";
    std::vector<layout::Operand> all = {result};
    all.insert(all.end(), operands.begin(), operands.end());
    layout::IterationSpace loops = layout::coalesce(
        result.shape, layout::broadcastStrides(all, result.shape));
    InFlightDiagnostic remark = op->emitRemark();
    remark << head << why << "; loops, outermost first: " << loopsText(loops);
    if (auto broadcast = dyn_cast<BroadcastOp>(op)) {
      if (broadcast.getRegion().front().getOperations().size() > 2)
        remark << "; one kernel fuses "
               << opNames(broadcast.getRegion().front());
      for (auto [i, input] : llvm::enumerate(broadcast.getInputs()))
        if (std::string why = notFused(broadcast->getOpOperand(i));
            !why.empty())
          remark << "; operand #" << i << " is not fused: " << why;
    }
  }

  /// The names of a scalar body's ops, in order: "arith.subf, math.exp".
  static std::string opNames(Block &body) {
    std::string names;
    for (Operation &inner : body.without_terminator())
      names +=
          (names.empty() ? "" : ", ") + inner.getName().getStringRef().str();
    return names;
  }

  /// Why the producer of `operand` stays a kernel of its own (after
  /// stride-fuse; before it every producer is still separate).
  static std::string notFused(OpOperand &operand) {
    Operation *producer = operand.get().getDefiningOp();
    if (!producer || !isa<TensorType>(operand.get().getType()))
      return "";
    if (isa<MatmulOp>(producer))
      return "its producer is a stride.matmul (a kernel boundary: matmuls "
             "are tiled kernels of their own)";
    if (isReduction(producer) || isa<MapReduceOp>(producer))
      return "its producer is a reduction (a kernel boundary)";
    auto source = dyn_cast<BroadcastOp>(producer);
    if (!source || source->getBlock() != operand.getOwner()->getBlock())
      return "";
    if (!source.getInits().empty() || source->getNumResults() != 1)
      return "its producer writes a destination (outs) or has several "
             "results";
    if (!recomputeRule(/*recomputeLimit=*/2)(&operand)) {
      size_t uses = std::distance(source->getResult(0).use_begin(),
                                  source->getResult(0).use_end());
      return uses > 1 ? "its producer has " + std::to_string(uses) +
                            " uses and is too costly to recompute in each "
                            "(more than 2 ops, or a math function)"
                      : "this kernel reads its producer broadcast, and the "
                        "producer is costly (more than 2 ops, or a math "
                        "function): fused, it would run once per "
                        "broadcast element";
    }
    return "";
  }
};

} // namespace
