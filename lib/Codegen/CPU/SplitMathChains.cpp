//===- SplitMathChains.cpp - Stages over blocks for chained math ----------===//
//
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "stride/Codegen/CPU/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"

#include <functional>

namespace mlir::stride {
#define GEN_PASS_DEF_STRIDESPLITMATHCHAINS
#include "stride/Codegen/CPU/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;
using namespace mlir::stride;

namespace {
constexpr int64_t kMaxBlock = 65536;

/// Whether `op` is evaluated by a vector polynomial of tens of operations
/// (one of the kernel optimizer's vector variants). A power with a constant
/// exponent is not: stride-expand-powers turns it into products.
bool isTranscendental(Operation *op) {
  if (auto pow = dyn_cast<math::PowFOp>(op))
    return !matchPattern(pow.getRhs(), m_Constant());
  return isa<math::ExpOp, math::Exp2Op, math::ExpM1Op, math::LogOp,
             math::Log2Op, math::Log10Op, math::Log1pOp, math::SinOp,
             math::CosOp, math::TanOp, math::AsinOp, math::AcosOp, math::AtanOp,
             math::Atan2Op, math::SinhOp, math::CoshOp, math::TanhOp,
             math::AsinhOp, math::AcoshOp, math::AtanhOp, math::ErfOp,
             math::ErfcOp, math::CbrtOp>(op);
}

/// Where an op runs: its stage, and whether a transcendental function of
/// that stage is on a path to it (values with `afterMath` false depend on
/// no function at all and are recomputed where they are needed).
struct Placement {
  unsigned stage = 0;
  bool afterMath = false;
};

/// The stages of the ops of `body` (a payload or a loop body), or failure
/// when an op cannot be moved between stages (a region, a side effect
/// other than a load or store, a non-scalar result).
FailureOr<DenseMap<Operation *, Placement>> placeOps(Block &body,
                                                     unsigned &stages) {
  DenseMap<Operation *, Placement> of;
  auto placed = [&](Value v) -> Placement {
    Operation *def = v.getDefiningOp();
    auto it = def ? of.find(def) : of.end();
    return it == of.end() ? Placement{} : it->second;
  };
  stages = 1;
  for (Operation &op : body.without_terminator()) {
    if (op.getNumRegions() != 0 ||
        (!isa<memref::LoadOp, memref::StoreOp>(op) && !isMemoryEffectFree(&op)))
      return failure();
    if (llvm::any_of(op.getResultTypes(),
                     [](Type t) { return !t.isIntOrIndexOrFloat(); }))
      return failure();
    Placement p;
    if (isTranscendental(&op)) {
      for (Value v : op.getOperands()) {
        Placement q = placed(v);
        p.stage = std::max(p.stage, q.stage + unsigned(q.afterMath));
      }
      p.afterMath = true;
    } else {
      for (Value v : op.getOperands()) {
        Placement q = placed(v);
        if (q.stage > p.stage)
          p = q;
        else if (q.stage == p.stage)
          p.afterMath |= q.afterMath;
      }
    }
    of[&op] = p;
    stages = std::max(stages, p.stage + 1);
  }
  return of;
}

/// Splits `loop` (the innermost loop of an all-parallel generic, unit step)
/// into stages over blocks of `block` iterations. Leaves it alone when its
/// body does not chain functions.
void splitLoop(scf::ForOp loop, int64_t block) {
  Block &body = *loop.getBody();
  unsigned stages = 1;
  FailureOr<DenseMap<Operation *, Placement>> of = placeOps(body, stages);
  if (failed(of) || stages < 2)
    return;
  unsigned last = stages - 1;

  // The ops each stage clones: its own (stores all in the last), and the
  // function-free values they read, recomputed. Values computed after a
  // function in an earlier stage cross in a buffer.
  SmallVector<DenseSet<Operation *>> runs(stages);
  llvm::MapVector<Value, SmallVector<bool>> crossing;
  std::function<void(Operation *, unsigned)> need = [&](Operation *op,
                                                        unsigned k) {
    if (!runs[k].insert(op).second)
      return;
    for (Value v : op->getOperands()) {
      Operation *def = v.getDefiningOp();
      if (!def || def->getBlock() != &body)
        continue;
      Placement p = (*of)[def];
      if (!p.afterMath || p.stage == k) {
        need(def, k);
        continue;
      }
      SmallVector<bool> &usedIn = crossing[v];
      usedIn.resize(stages, false);
      usedIn[k] = true;
    }
  };
  for (Operation &op : body.without_terminator()) {
    Placement p = (*of)[&op];
    if (isa<memref::StoreOp>(op))
      need(&op, last);
    else if (p.afterMath)
      need(&op, p.stage);
  }

  // The buffers live on the stack for the loop nest alone: saved and
  // restored around it (memref.alloca_scope's lowering would split the
  // block of an enclosing scf.for), so a split inner loop of an outer loop
  // or of a thread's chunk does not grow the stack at every iteration.
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  MLIRContext *context = loop.getContext();
  Value stack =
      LLVM::StackSaveOp::create(b, loc, LLVM::LLVMPointerType::get(context));
  DenseMap<Value, Value> buffers;
  for (auto &[v, usedIn] : crossing)
    buffers[v] =
        memref::AllocaOp::create(b, loc, MemRefType::get({block}, v.getType()),
                                 ValueRange{}, b.getI64IntegerAttr(64));
  Value step = arith::ConstantIndexOp::create(b, loc, block);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto blocks = scf::ForOp::create(b, loc, loop.getLowerBound(),
                                   loop.getUpperBound(), step);
  LLVM::StackRestoreOp::create(b, loc, stack);

  b.setInsertionPoint(blocks.getBody()->getTerminator());
  Value start = blocks.getInductionVar();
  Value end = arith::MinSIOp::create(
      b, loc, arith::AddIOp::create(b, loc, start, step), loop.getUpperBound());
  // Unrolled, a stage of a block whose trip count LLVM can prove constant
  // (the blocks divide the loop) becomes straight-line code whose buffer
  // SROA puts back in registers: the functions chain again.
  auto keepLoop = LLVM::LoopAnnotationAttr::get(
      context, {}, {}, {},
      LLVM::LoopUnrollAttr::get(context, /*disable=*/b.getBoolAttr(true), {},
                                {}, {}, {}, {}, {}),
      {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {});
  for (unsigned k = 0; k < stages; ++k) {
    auto stage = scf::ForOp::create(b, loc, start, end, one);
    // scf-to-cf moves LLVM attributes onto the loop's back edge.
    stage->setAttr("loop_annotation", keepLoop);
    OpBuilder sb(stage.getBody()->getTerminator());
    Value iv = stage.getInductionVar();
    Value offset = arith::SubIOp::create(sb, loc, iv, start);
    IRMapping map;
    map.map(loop.getInductionVar(), iv);
    for (auto &[v, usedIn] : crossing)
      if (usedIn[k])
        map.map(v, memref::LoadOp::create(sb, loc, buffers[v], offset));
    for (Operation &op : body.without_terminator())
      if (runs[k].contains(&op))
        sb.clone(op, map);
    for (auto &[v, usedIn] : crossing)
      if ((*of)[v.getDefiningOp()].stage == k)
        memref::StoreOp::create(sb, loc, map.lookup(v), buffers[v], offset);
  }
  loop.erase();
}

/// Whether `op` is an elementwise generic on buffers whose payload chains
/// two transcendental functions over an innermost loop worth splitting.
bool chainsFunctions(linalg::GenericOp op, int64_t minTrip) {
  if (!op.hasPureBufferSemantics() || op.getNumLoops() == 0 ||
      op.getNumParallelLoops() != op.getNumLoops())
    return false;
  int64_t trip = op.getStaticLoopRanges().back();
  if (!ShapedType::isDynamic(trip) && trip < minTrip)
    return false;
  unsigned stages = 1;
  return succeeded(placeOps(*op.getBlock(), stages)) && stages > 1;
}

} // namespace

LogicalResult
mlir::stride::splitMathChains(Operation *root,
                              const StrideSplitMathChainsOptions &options) {
  SmallVector<linalg::GenericOp> chains;
  root->walk([&](linalg::GenericOp op) {
    if (chainsFunctions(op, options.minTrip))
      chains.push_back(op);
  });
  IRRewriter rewriter(root->getContext());
  for (linalg::GenericOp op : chains) {
    // The buffers are on the stack: a block of more than 64 Ki elements
    // (512 KiB of f64 a buffer) would risk the thread's stack.
    if (options.block < 1 || options.block > kMaxBlock)
      return op.emitError()
             << "cannot be split: stride-split-math-chains option block is "
             << options.block << ", it must be between 1 and " << kMaxBlock;
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::LinalgLoops> loops =
        linalg::linalgOpToLoops(rewriter, op);
    if (failed(loops))
      return op.emitError("cannot be split: stride-split-math-chains could "
                          "not lower this generic to loops");
    rewriter.eraseOp(op);
    auto inner =
        dyn_cast_or_null<scf::ForOp>(loops->empty() ? nullptr : loops->back());
    std::optional<int64_t> unit =
        inner ? getConstantIntValue(inner.getStep()) : std::nullopt;
    if (unit && *unit == 1)
      splitLoop(inner, options.block);
  }
  return success();
}

namespace {
struct StrideSplitMathChainsPass
    : mlir::stride::impl::StrideSplitMathChainsBase<StrideSplitMathChainsPass> {
  using Base::Base;

  void runOnOperation() override {
    StrideSplitMathChainsOptions options;
    options.block = block;
    options.minTrip = minTrip;
    if (failed(splitMathChains(getOperation(), options)))
      signalPassFailure();
  }
};
} // namespace
