//===- ShardToStrideMpi.cpp - shard collectives to Stride's MPI runtime ---===//
//
// The runtime (runtime/mpi) takes every buffer as an unranked memref, i.e.
// (rank, pointer to the ranked descriptor), so one C function per element
// type serves every rank and layout, and the kernel stays independent of
// which MPI the process was started under.
//
//===----------------------------------------------------------------------===//

#include "stride/Conversion/Passes.h"

#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Transforms/Transforms.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::stride {
#define GEN_PASS_DEF_CONVERTSHARDTOSTRIDEMPI
#include "stride/Conversion/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;
using namespace mlir::stride;

namespace {

/// "f32", "f64", "i32", "i64", "i1": the runtime's function suffixes.
FailureOr<std::string> suffixOf(Type element) {
  if (element.isF32())
    return std::string("f32");
  if (element.isF64())
    return std::string("f64");
  for (unsigned width : {1u, 32u, 64u})
    if (element.isSignlessInteger(width))
      return "i" + std::to_string(width);
  return failure();
}

struct ConvertShardToStrideMpiPass
    : public mlir::stride::impl::ConvertShardToStrideMpiBase<
          ConvertShardToStrideMpiPass> {
  using Base::Base;

  /// The declaration of `name`, added to the module on first use.
  func::FuncOp declare(StringRef name, FunctionType type) {
    ModuleOp module = getOperation();
    if (auto fn = module.lookupSymbol<func::FuncOp>(name))
      return fn;
    OpBuilder b(module.getBodyRegion());
    b.setInsertionPointToEnd(module.getBody());
    auto fn = func::FuncOp::create(b, module.getLoc(), name, type);
    fn.setPrivate();
    return fn;
  }

  FailureOr<shard::GridOp> checkGrid(Operation *op, FlatSymbolRefAttr gridName,
                                     SymbolTableCollection &symbols) {
    shard::GridOp grid = shard::getGridOrNull(op, gridName, symbols);
    if (!grid)
      return op->emitError()
             << "convert-shard-to-stride-mpi: no grid " << gridName;
    if (grid.getRank() > 4)
      return op->emitError()
             << "convert-shard-to-stride-mpi: grid " << gridName << " has "
             << grid.getRank()
             << " dims; Stride's MPI runtime takes grids of up to 4 dims";
    if (llvm::any_of(grid.getShape(), ShapedType::isDynamic))
      return op->emitError() << "convert-shard-to-stride-mpi: grid " << gridName
                             << " has a dynamic shape";
    return grid;
  }

  /// The group of ranks a collective over `axes` of `grid` runs among: no
  /// value on a 1-D grid (the runtime's plain functions run over all
  /// ranks), else a call of `stride_mpi_grid_group`.
  FailureOr<Value> groupOf(Operation *op, FlatSymbolRefAttr gridName,
                           ArrayRef<int16_t> axes,
                           SymbolTableCollection &symbols) {
    FailureOr<shard::GridOp> grid = checkGrid(op, gridName, symbols);
    if (failed(grid))
      return failure();
    if (grid->getRank() == 1)
      return Value();
    OpBuilder b(op);
    Location loc = op->getLoc();
    Type i64 = b.getI64Type();
    SmallVector<Value> args;
    for (int64_t d = 0; d < 4; ++d)
      args.push_back(arith::ConstantOp::create(
          b, loc, i64,
          b.getI64IntegerAttr(d < grid->getRank() ? grid->getShape()[d] : 0)));
    uint64_t code = 0;
    for (int16_t axis : llvm::reverse(axes))
      code = code << 4 | uint64_t(axis + 1);
    args.push_back(
        arith::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(code)));
    func::FuncOp fn =
        declare("stride_mpi_grid_group",
                b.getFunctionType(SmallVector<Type>(5, i64), {b.getI32Type()}));
    return func::CallOp::create(b, loc, fn, args).getResult(0);
  }

  Value rankIndex(OpBuilder &b, Location loc) {
    func::FuncOp fn = declare("stride_mpi_comm_rank",
                              b.getFunctionType({}, {b.getI32Type()}));
    Value rank = func::CallOp::create(b, loc, fn, ValueRange{}).getResult(0);
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), rank);
  }

  /// Replaces `op` (tensor in, tensor out) by a call of
  /// `stride_mpi_<what>_<type>(in, out, extra...)`.
  LogicalResult lowerCollective(Operation *op, StringRef what,
                                ArrayRef<int64_t> extra, Type extraType,
                                Value group) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    Value input = op->getOperand(0);
    auto inType = dyn_cast<RankedTensorType>(input.getType());
    auto outType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!inType || !outType || !outType.hasStaticShape())
      return op->emitError() << "convert-shard-to-stride-mpi: needs ranked "
                                "tensors with static result shapes";
    FailureOr<std::string> suffix = suffixOf(inType.getElementType());
    if (failed(suffix))
      return op->emitError()
             << "convert-shard-to-stride-mpi: element type "
             << inType.getElementType() << " has no MPI runtime function";
    auto inMemref = MemRefType::get(inType.getShape(), inType.getElementType());
    auto outMemref =
        MemRefType::get(outType.getShape(), outType.getElementType());
    auto unranked = UnrankedMemRefType::get(inType.getElementType(), 0);
    Value inBuffer = bufferization::ToBufferOp::create(b, loc, inMemref, input,
                                                       /*read_only=*/true);
    Value outBuffer = memref::AllocOp::create(b, loc, outMemref);
    SmallVector<Value> args = {
        memref::CastOp::create(b, loc, unranked, inBuffer),
        memref::CastOp::create(b, loc, unranked, outBuffer)};
    SmallVector<Type> argTypes = {unranked, unranked};
    for (int64_t v : extra) {
      args.push_back(arith::ConstantOp::create(b, loc, extraType,
                                               b.getIntegerAttr(extraType, v)));
      argTypes.push_back(extraType);
    }
    if (group) {
      args.push_back(group);
      argTypes.push_back(group.getType());
    }
    func::FuncOp fn = declare(
        ("stride_mpi_" + what + (group ? "_group_" : "_") + *suffix).str(),
        b.getFunctionType(argTypes, {}));
    func::CallOp::create(b, loc, fn, args);
    Value result = bufferization::ToTensorOp::create(
        b, loc, outType, outBuffer, /*restrict=*/true, /*writable=*/true);
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbols;
    // all_slice and multi-indices become local index arithmetic first.
    RewritePatternSet patterns(&getContext());
    shard::populateAllOpLoweringPatterns(patterns, symbols);
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();

    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<shard::ShardDialect>(op->getDialect()) && !isa<shard::GridOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      LogicalResult done =
          llvm::TypeSwitch<Operation *, LogicalResult>(op)
              .Case([&](shard::AllReduceOp r) -> LogicalResult {
                FailureOr<Value> group =
                    groupOf(op, r.getGridAttr(), r.getGridAxes(), symbols);
                if (failed(group))
                  return failure();
                // The runtime's kind codes (0=sum 1=product 2=min 3=max)
                // are the indices of this list.
                static constexpr shard::ReductionKind kKinds[] = {
                    shard::ReductionKind::Sum, shard::ReductionKind::Product,
                    shard::ReductionKind::Min, shard::ReductionKind::Max};
                const auto *it = llvm::find(kKinds, r.getReduction());
                if (it == std::end(kKinds))
                  return op->emitError()
                         << "convert-shard-to-stride-mpi: reduction "
                         << shard::stringifyReductionKind(r.getReduction())
                         << " has no MPI runtime function";
                int64_t kind = it - std::begin(kKinds);
                Builder b(op->getContext());
                return lowerCollective(op, "allreduce", {kind}, b.getI32Type(),
                                       *group);
              })
              .Case([&](shard::AllGatherOp g) -> LogicalResult {
                FailureOr<Value> group =
                    groupOf(op, g.getGridAttr(), g.getGridAxes(), symbols);
                if (failed(group))
                  return failure();
                Builder b(op->getContext());
                return lowerCollective(op, "allgather",
                                       {g.getGatherAxis().getSExtValue()},
                                       b.getI64Type(), *group);
              })
              .Case([&](shard::AllToAllOp a) -> LogicalResult {
                FailureOr<Value> group =
                    groupOf(op, a.getGridAttr(), a.getGridAxes(), symbols);
                if (failed(group))
                  return failure();
                Builder b(op->getContext());
                return lowerCollective(op, "alltoall",
                                       {a.getSplitAxis().getSExtValue(),
                                        a.getConcatAxis().getSExtValue()},
                                       b.getI64Type(), *group);
              })
              .Case([&](shard::ProcessLinearIndexOp p) -> LogicalResult {
                if (failed(checkGrid(op, p.getGridAttr(), symbols)))
                  return failure();
                OpBuilder b(op);
                p.getResult().replaceAllUsesWith(rankIndex(b, op->getLoc()));
                op->erase();
                return success();
              })
              .Case([&](shard::GridShapeOp s) -> LogicalResult {
                shard::GridOp grid =
                    shard::getGridOrNull(op, s.getGridAttr(), symbols);
                if (!grid)
                  return op->emitError()
                         << "convert-shard-to-stride-mpi: no grid";
                OpBuilder b(op);
                ArrayRef<int16_t> axes = s.getAxes();
                for (auto [i, result] : llvm::enumerate(s.getResults())) {
                  int64_t axis = axes.empty() ? i : axes[i];
                  result.replaceAllUsesWith(arith::ConstantIndexOp::create(
                      b, op->getLoc(), grid.getShape()[axis]));
                }
                op->erase();
                return success();
              })
              .Default([](Operation *op) -> LogicalResult {
                return op->emitError()
                       << "convert-shard-to-stride-mpi: '" << op->getName()
                       << "' has no lowering to Stride's MPI runtime";
              });
      if (failed(done))
        return signalPassFailure();
    }
    for (auto grid : llvm::make_early_inc_range(module.getOps<shard::GridOp>()))
      grid.erase();
    // stride-distribute's records are for runners, which read them before
    // partitioning; the LLVM translation would warn about argument ones.
    for (auto fn : module.getOps<func::FuncOp>()) {
      for (unsigned i = 0; i < fn.getNumArguments(); ++i)
        fn.removeArgAttr(i, "stride.split_dims");
      for (unsigned j = 0; j < fn.getNumResults(); ++j)
        fn.removeResultAttr(
            j, StringAttr::get(&getContext(), "stride.split_dims"));
    }
  }
};

} // namespace
