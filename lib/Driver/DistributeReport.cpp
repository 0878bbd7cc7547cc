//===- DistributeReport.cpp - What a distributed run would cost -----------===//
//
// Counts follow the runner's protocol and common collective algorithms:
// rank 0 sends every other rank its block of each split argument and all of
// each replicated one (and scalars), every other rank sends rank 0 its block
// of each split result; in the kernel an all-reduce of B bytes moves
// 2 (N-1)/N B per rank each way (ring), an all-gather or all-to-all of a
// local result of B bytes (N-1)/N B, where N is the size of the group the
// collective runs in (the product of its grid axes' sizes). Flops: one per body
// op per element of an elementwise result, 2 M N K per (local) matmul, one per
// input element of a reduction.
//
//===----------------------------------------------------------------------===//

#include "stride/Driver/DistributeReport.h"

#include "stride/Dialect/Stride/IR/ReduceOps.h"
#include "stride/Dialect/Stride/IR/StrideOps.h"
#include "stride/Dialect/Stride/Transforms/Passes.h"
#include "stride/Support/GridShape.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Transforms/Passes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::stride;

namespace {

int64_t bytesOf(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return 8; // a scalar travels as one 8-byte value
  int64_t bits = tensor.getElementType().getIntOrFloatBitWidth();
  return tensor.getNumElements() * std::max<int64_t>(1, bits / 8);
}

struct Costs {
  int64_t rootSends = 0, rootReceives = 0, otherSends = 0, otherReceives = 0;
  int64_t collectiveBytes = 0; // per rank, each way
  int64_t flops = 0;           // per rank
  std::string collectives;
};

int64_t flopsOf(func::FuncOp fn) {
  int64_t flops = 0;
  fn.walk([&](Operation *op) {
    if (auto matmul = dyn_cast<MatmulOp>(op)) {
      auto lhs = cast<RankedTensorType>(matmul.getLhs().getType());
      auto result = cast<RankedTensorType>(matmul.getResult().getType());
      flops += 2 * result.getNumElements() * lhs.getShape().back();
      return;
    }
    if (isReduction(op)) {
      flops +=
          cast<RankedTensorType>(op->getOperand(0).getType()).getNumElements();
      return;
    }
    if (op->getNumRegions() != 1 || !isa<BroadcastOp>(op))
      return;
    int64_t bodyOps = 0;
    for (Operation &inner : op->getRegion(0).front().without_terminator())
      (void)inner, ++bodyOps;
    for (Value r : op->getResults())
      flops += bodyOps * cast<RankedTensorType>(r.getType()).getNumElements();
  });
  return flops;
}

/// The strategy's costs, or its failure as text in `why`.
std::optional<Costs> costsOf(MLIRContext &context, ModuleOp specialized,
                             StringRef entry, StringRef grid,
                             ::stride::layout::Policy policy,
                             StringRef strategy, std::string &why) {
  OwningOpRef<ModuleOp> probe = specialized.clone();
  std::string errors;
  ScopedDiagnosticHandler capture(&context, [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Remark) {
      std::string text = d.str();
      size_t at = text.find("split along ");
      why = at == std::string::npos ? text : text.substr(at);
    } else if (errors.empty()) {
      errors = d.str();
    }
    return success();
  });
  PassManager pm(&context);
  pm.addPass(createStrideInferShapes());
  pm.addPass(
      createStridePropagateLayout(StridePropagateLayoutOptions{policy, false}));
  pm.addPass(createStrideGeneralize());
  pm.addPass(createStrideDistribute(
      StrideDistributeOptions{grid.str(), strategy.str()}));
  pm.addNestedPass<func::FuncOp>(shard::createPartition());
  if (failed(pm.run(*probe))) {
    why = errors;
    return std::nullopt;
  }
  auto fn = probe->lookupSymbol<func::FuncOp>(entry);
  Costs c;
  std::vector<int64_t> shape;
  (void)::stride::parseGridShape(grid.str(), shape); // the pass checked it
  int64_t n = ::stride::gridRanks(shape);
  auto isSplit = [](DictionaryAttr attrs) {
    auto a = attrs ? attrs.getAs<DenseI64ArrayAttr>("stride.split_dims")
                   : DenseI64ArrayAttr();
    return a && llvm::any_of(a.asArrayRef(), [](int64_t d) { return d >= 0; });
  };
  for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
    int64_t local = bytesOf(fn.getArgumentTypes()[i]);
    c.rootSends += local * (n - 1); // a block, or all of it, to each rank
    c.otherReceives += local;
  }
  for (unsigned j = 0; j < fn.getNumResults(); ++j) {
    if (!isSplit(fn.getResultAttrDict(j)))
      continue;
    int64_t local = bytesOf(fn.getResultTypes()[j]);
    c.otherSends += local;
    c.rootReceives += local * (n - 1);
  }
  std::map<std::string, int> counts;
  fn.walk([&](Operation *op) {
    int64_t bytes =
        op->getNumResults() ? bytesOf(op->getResult(0).getType()) : 0;
    // The group's size: the product of the collective's grid axes.
    auto axesAttr = op->getAttrOfType<DenseI16ArrayAttr>("grid_axes");
    int64_t n = 1;
    if (axesAttr)
      for (int16_t axis : axesAttr.asArrayRef())
        n *= shape[size_t(axis)];
    if (isa<shard::AllReduceOp>(op))
      c.collectiveBytes += 2 * (n - 1) * bytes / n;
    else if (isa<shard::AllGatherOp>(op))
      c.collectiveBytes += (n - 1) * bytes / n;
    else if (isa<shard::AllToAllOp>(op))
      c.collectiveBytes += (n - 1) * bytes / n;
    else
      return;
    ++counts[op->getName().stripDialect().str()];
  });
  for (auto &[name, count] : counts)
    c.collectives += (c.collectives.empty() ? "" : ", ") +
                     std::to_string(count) + " " + name;
  if (c.collectives.empty())
    c.collectives = "none";
  c.flops = flopsOf(fn);
  return c;
}

} // namespace

std::string mlir::stride::distributeReport(MLIRContext &context,
                                           ModuleOp specialized,
                                           StringRef entry, StringRef grid,
                                           ::stride::layout::Policy policy) {
  std::string text;
  llvm::raw_string_ostream os(text);
  int64_t total = 0;
  {
    OwningOpRef<ModuleOp> whole = specialized.clone();
    PassManager pm(&context);
    pm.addPass(createStrideInferShapes());
    pm.addPass(createStrideGeneralize());
    ScopedDiagnosticHandler quiet(&context,
                                  [](Diagnostic &) { return success(); });
    if (succeeded(pm.run(*whole)))
      total = flopsOf(whole->lookupSymbol<func::FuncOp>(entry));
  }
  std::vector<int64_t> shape;
  if (std::string error = ::stride::parseGridShape(grid.str(), shape);
      !error.empty())
    return "distribute report: " + error + "\n";
  os << "distribute report: @" << entry << " over ";
  if (shape.size() > 1)
    os << "a " << grid << " grid of ";
  os << ::stride::gridRanks(shape) << " ranks; one process does " << total
     << " flops\n";
  for (StringRef strategy : {"auto", "rows", "cols", "k"}) {
    std::string why;
    std::optional<Costs> c =
        costsOf(context, specialized, entry, grid, policy, strategy, why);
    os << "strategy " << strategy << ": ";
    if (!c) {
      os << "not possible: " << why << "\n";
      continue;
    }
    os << why << "\n"
       << "  scatter and gather: rank 0 sends " << c->rootSends
       << " B and receives " << c->rootReceives << " B; every other rank "
       << "receives " << c->otherReceives << " B and sends " << c->otherSends
       << " B\n"
       << "  in the kernel: " << c->collectives << "; " << c->collectiveBytes
       << " B sent and received per rank\n"
       << "  flops per rank: " << c->flops;
    if (c->flops > 0 && total > 0)
      os << " (" << llvm::format("%.3g", double(total) / c->flops)
         << "x fewer than one process)";
    os << "\n";
  }
  return text;
}
