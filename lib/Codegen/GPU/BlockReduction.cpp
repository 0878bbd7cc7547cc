//===- BlockReduction.cpp - Reductions as block trees on the GPU ---------===//
//
// A reduction whose dense loop is reduced (row sums of a row-major array),
// or whose outputs are too few to give every thread one (a full sum), is
// computed by blocks: each block takes (output, chunk) tasks, its threads
// stride over the chunk's reduction points accumulating from the
// combiner's identity, and gpu.all_reduce combines the threads' partials.
// convert-gpu-to-nvvm lowers that op to warp shuffles and workgroup memory
// (upstream's all-reduce rewrite), so the tree is upstream's code; this file
// decides the work split and the memory order. An argmax/argmin (marked by
// stride-bufferize) takes two all-reduces: the best value, then the first
// index holding it.
//
//===----------------------------------------------------------------------===//

#include "BlockReduction.h"

#include "GenericPayload.h"

#include "stride/Support/ArgReduceRule.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::stride::gpu_mapping;

namespace {
/// Tasks (output, chunk) the first launch aims at: enough blocks to fill a
/// large GPU, few enough that the second launch's combine stays small.
constexpr int64_t kTargetTasks = 1024;
/// Reduction points a thread accumulates at least before its chunk is
/// split further: short sequential runs keep float sums accurate (each
/// partial is a sum of at most ~16 terms before the tree's pairwise levels)
/// without making the partial buffer large.
constexpr int64_t kMinPointsPerThread = 16;
/// Fewer outputs than this cannot occupy the GPU with one thread each.
constexpr int64_t kFewOutputs = 1024;

using Kind = gpu::AllReduceOperation;

std::optional<Kind> allReduceKindOf(Operation *combiner) {
  return llvm::TypeSwitch<Operation *, std::optional<Kind>>(combiner)
      .Case<arith::AddFOp, arith::AddIOp>([](auto) { return Kind::ADD; })
      .Case<arith::MulFOp, arith::MulIOp>([](auto) { return Kind::MUL; })
      .Case<arith::MinUIOp>([](auto) { return Kind::MINUI; })
      .Case<arith::MinSIOp>([](auto) { return Kind::MINSI; })
      .Case<arith::MinNumFOp>([](auto) { return Kind::MINNUMF; })
      .Case<arith::MaxUIOp>([](auto) { return Kind::MAXUI; })
      .Case<arith::MaxSIOp>([](auto) { return Kind::MAXSI; })
      .Case<arith::MaxNumFOp>([](auto) { return Kind::MAXNUMF; })
      .Case<arith::AndIOp>([](auto) { return Kind::AND; })
      .Case<arith::OrIOp>([](auto) { return Kind::OR; })
      .Case<arith::XOrIOp>([](auto) { return Kind::XOR; })
      .Case<arith::MinimumFOp>([](auto) { return Kind::MINIMUMF; })
      .Case<arith::MaximumFOp>([](auto) { return Kind::MAXIMUMF; })
      .Default([](Operation *) { return std::nullopt; });
}

/// Element types the shuffles move: 32- and 64-bit floats, and integers
/// (those narrower than 32 bits are widened for the exchange).
bool isExchangeable(Type type) {
  if (auto f = dyn_cast<FloatType>(type))
    return f.getWidth() == 32 || f.getWidth() == 64;
  if (auto i = dyn_cast<IntegerType>(type))
    return i.getWidth() <= 64;
  return false;
}

/// The absolute static stride with which each loop moves through `operand`
/// (absent: the loop does not move it, or its stride is not static).
DenseMap<unsigned, int64_t> loopStrides(linalg::GenericOp op,
                                        OpOperand &operand) {
  DenseMap<unsigned, int64_t> strides;
  auto type = dyn_cast<MemRefType>(operand.get().getType());
  SmallVector<int64_t> memStrides;
  int64_t offset;
  if (!type || failed(type.getStridesAndOffset(memStrides, offset)))
    return strides;
  AffineMap map = op.getMatchingIndexingMap(&operand);
  for (auto [r, expr] : llvm::enumerate(map.getResults())) {
    if (ShapedType::isDynamic(memStrides[r]) || memStrides[r] == 0)
      continue;
    // A dim or a mirrored dim (`size - 1 - d`): one loop moves this index.
    std::optional<unsigned> loop;
    for (unsigned l = 0; l < map.getNumDims(); ++l)
      if (expr.isFunctionOfDim(l))
        loop = loop ? std::optional<unsigned>() : std::optional<unsigned>(l);
    if (!loop)
      continue;
    int64_t s = std::abs(memStrides[r]);
    auto [it, inserted] = strides.try_emplace(*loop, s);
    if (!inserted)
      it->second = std::min(it->second, s);
  }
  return strides;
}

std::optional<int64_t> staticProduct(linalg::GenericOp op,
                                     ArrayRef<unsigned> loops) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t product = 1;
  for (unsigned l : loops) {
    if (ShapedType::isDynamic(ranges[l]))
      return std::nullopt;
    product *= ranges[l];
  }
  return product;
}

Value product(OpBuilder &b, Location loc, ArrayRef<Value> sizes,
              ArrayRef<unsigned> loops) {
  Value total = indexConst(b, loc, 1);
  for (unsigned l : loops)
    total = b.createOrFold<arith::MulIOp>(loc, total, sizes[l]);
  return total;
}

/// gpu.all_reduce of `value` over the block; integers narrower than 32 bits
/// are exchanged widened (sign-extended for the signed orders), which gives
/// the same bits back after truncation for every operation, the wrapping
/// sums and products included.
Value allReduce(OpBuilder &b, Location loc, Kind kind, Value value) {
  Type type = value.getType();
  auto narrow = dyn_cast<IntegerType>(type);
  if (narrow && narrow.getWidth() < 32) {
    Type i32 = b.getI32Type();
    bool isSigned = kind == Kind::MINSI || kind == Kind::MAXSI;
    value = isSigned ? arith::ExtSIOp::create(b, loc, i32, value).getResult()
                     : arith::ExtUIOp::create(b, loc, i32, value).getResult();
  }
  Value reduced = gpu::AllReduceOp::create(
      b, loc, value.getType(), value,
      gpu::AllReduceOperationAttr::get(b.getContext(), kind), b.getUnitAttr());
  if (narrow && narrow.getWidth() < 32)
    reduced = arith::TruncIOp::create(b, loc, type, reduced);
  return reduced;
}

/// The payload's combiner for output `k`, applied to `lhs` and `rhs`.
Value combine(OpBuilder &b, Operation *combiner, Value lhs, Value rhs) {
  IRMapping mapping;
  mapping.map(combiner->getOperand(0), lhs);
  mapping.map(combiner->getOperand(1), rhs);
  return b.clone(*combiner, mapping)->getResult(0);
}

/// The combiner op of output `k` of `op` (validated by matchBlockReduction).
Operation *combinerOf(linalg::GenericOp op, unsigned k) {
  Block &body = op.getRegion().front();
  return body.getTerminator()->getOperand(k).getDefiningOp();
}

/// stride-bufferize's marks on a plain argmax/argmin generic
/// (lib/Dialect/Stride/Transforms/Bufferization/Preparation.h); this
/// library does not depend on the Stride dialect.
constexpr llvm::StringLiteral kArgReduceAttr = "stride.arg_reduce";
constexpr llvm::StringLiteral kUnsignedAttr = "stride.unsigned";

/// Partial argmax/argmin pairs merged by the libraries' rule.
SmallVector<Value> combinePairs(OpBuilder &b, Location loc,
                                const BlockReduction &plan, ValueRange acc,
                                ValueRange x) {
  auto [value, index] = stride::combineArgPairs(
      b, loc, plan.argMax, plan.argUnsigned, acc[0], acc[1], x[0], x[1]);
  return {value, index};
}

/// The value identity of an argmax/argmin: the worst value of its type.
std::optional<TypedAttr> argIdentity(Builder &b, Type type, bool max,
                                     bool isUnsigned) {
  if (auto f = dyn_cast<FloatType>(type)) {
    if (f.getWidth() != 32 && f.getWidth() != 64)
      return std::nullopt;
    return b.getFloatAttr(type, APFloat::getInf(f.getFloatSemantics(), max));
  }
  auto i = dyn_cast<IntegerType>(type);
  if (!i || i.getWidth() > 64)
    return std::nullopt;
  unsigned w = i.getWidth();
  APInt worst = isUnsigned ? (max ? APInt::getZero(w) : APInt::getMaxValue(w))
                           : (max ? APInt::getSignedMinValue(w)
                                  : APInt::getSignedMaxValue(w));
  return b.getIntegerAttr(type, worst);
}
} // namespace

std::optional<BlockReduction>
mlir::stride::gpu_mapping::matchBlockReduction(linalg::GenericOp op,
                                               ArrayRef<unsigned> parallel) {
  BlockReduction plan;
  plan.parallel.assign(parallel.begin(), parallel.end());
  for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray()))
    if (it == utils::IteratorType::reduction)
      plan.reduction.push_back(i);
  if (plan.reduction.empty() || op.getNumDpsInits() == 0)
    return std::nullopt;

  Block &body = op.getRegion().front();
  SmallVector<BlockArgument> carried(
      body.getArguments().take_back(op.getNumDpsInits()));
  if (auto arg = op->getAttrOfType<StringAttr>(kArgReduceAttr)) {
    if (carried.size() != 2 || !isa<IntegerType>(carried[1].getType()) ||
        (arg.getValue() != "max" && arg.getValue() != "min"))
      return std::nullopt;
    plan.argReduce = true;
    plan.argMax = arg.getValue() == "max";
    plan.argUnsigned = op->hasAttr(kUnsignedAttr);
    Type value = carried[0].getType();
    Builder builder(op.getContext());
    std::optional<TypedAttr> worst =
        argIdentity(builder, value, plan.argMax, plan.argUnsigned);
    if (!worst || !isExchangeable(carried[1].getType()))
      return std::nullopt;
    Kind extremum =
        isa<FloatType>(value) ? (plan.argMax ? Kind::MAXIMUMF : Kind::MINIMUMF)
        : plan.argUnsigned    ? (plan.argMax ? Kind::MAXUI : Kind::MINUI)
                              : (plan.argMax ? Kind::MAXSI : Kind::MINSI);
    plan.kinds = {extremum, Kind::MINSI};
    plan.identities = {*worst, builder.getIntegerAttr(carried[1].getType(), 0)};
  }
  for (unsigned k = 0; k < carried.size() && !plan.argReduce; ++k) {
    SmallVector<Operation *> combiners;
    if (!matchReduction(carried, k, combiners) || combiners.size() != 1)
      return std::nullopt;
    Operation *combiner = combiners.front();
    if (combiner != combinerOf(op, k) || !carried[k].hasOneUse())
      return std::nullopt;
    std::optional<Kind> kind = allReduceKindOf(combiner);
    std::optional<TypedAttr> identity = arith::getNeutralElement(combiner);
    if (!kind || !identity || !isExchangeable(carried[k].getType()))
      return std::nullopt;
    plan.kinds.push_back(*kind);
    plan.identities.push_back(*identity);
  }

  // Which loop walks the first memref input most densely.
  OpOperand *input = nullptr;
  for (OpOperand *in : op.getDpsInputOperands())
    if (isa<MemRefType>(in->get().getType())) {
      input = in;
      break;
    }
  DenseMap<unsigned, int64_t> strides;
  if (input)
    strides = loopStrides(op, *input);
  std::optional<unsigned> densest;
  for (auto [loop, stride] : strides)
    if (!densest || stride < strides.lookup(*densest) ||
        (stride == strides.lookup(*densest) && loop > *densest))
      densest = loop;
  bool denseReduced = densest && llvm::is_contained(plan.reduction, *densest);
  std::optional<int64_t> outputs = staticProduct(op, plan.parallel);
  std::optional<int64_t> points = staticProduct(op, plan.reduction);
  bool fewOutputs = outputs && *outputs < kFewOutputs;
  if (!denseReduced && !fewOutputs)
    return std::nullopt;
  // Reductions shorter than a warp: a thread per output is cheaper than a
  // tree that would leave most lanes without a point.
  if (points && *points < 32)
    return std::nullopt;

  // Reduction loops: larger strides outer, loops that do not move the
  // input outermost, ties in loop order.
  std::stable_sort(plan.reduction.begin(), plan.reduction.end(),
                   [&](unsigned a, unsigned b) {
                     bool ha = strides.count(a), hb = strides.count(b);
                     if (ha != hb)
                       return !ha;
                     return strides.lookup(a) > strides.lookup(b);
                   });
  return plan;
}

void mlir::stride::gpu_mapping::buildBlockReduction(linalg::GenericOp op,
                                                    const BlockReduction &plan,
                                                    int64_t blockSize,
                                                    int64_t maxBlocks) {
  Location loc = op.getLoc();
  OpBuilder b(op);
  SmallVector<Value> sizes = loopSizes(b, loc, op);
  Value one = indexConst(b, loc, 1);
  Value outputs = product(b, loc, sizes, plan.parallel);
  Value points = product(b, loc, sizes, plan.reduction);

  // Chunks per output: enough tasks to fill the GPU, at least
  // kMinPointsPerThread points per thread. Outputs known to be many need
  // no split, and then no second launch.
  std::optional<int64_t> staticOutputs = staticProduct(op, plan.parallel);
  bool split = !staticOutputs || *staticOutputs < kTargetTasks;
  Value chunks = one;
  if (split) {
    Value wanted = b.createOrFold<arith::CeilDivUIOp>(
        loc, indexConst(b, loc, kTargetTasks),
        b.createOrFold<arith::MaxUIOp>(loc, outputs, one));
    Value useful = b.createOrFold<arith::CeilDivUIOp>(
        loc, points, indexConst(b, loc, blockSize * kMinPointsPerThread));
    chunks = b.createOrFold<arith::MaxUIOp>(
        loc, one, b.createOrFold<arith::MinUIOp>(loc, wanted, useful));
    // Sizes that fold to one chunk need no second launch.
    split = getConstantIntValue(chunks) != 1;
  }

  SmallVector<Type> accTypes;
  for (Value out : op.getDpsInits())
    accTypes.push_back(cast<MemRefType>(out.getType()).getElementType());

  // One launch: blocks loop over `numTasks` = outputs x `perOutput` tasks;
  // the threads of a task stride over its chunk of `count` points,
  // `accumulate` folding point r of output p (whose parallel loop indices
  // are `at`, split once per task) into the accumulators; `finish`
  // (thread 0) stores the block's combined results.
  using Accumulate = function_ref<SmallVector<Value>(
      OpBuilder &, Value p, ArrayRef<Value> at, Value r, ValueRange acc)>;
  using Finish = function_ref<void(OpBuilder &, Value p, ArrayRef<Value> at,
                                   Value chunk, ValueRange)>;
  auto emitLaunch = [&](Value perOutput, Value count, Accumulate accumulate,
                        Finish finish) {
    Value numTasks = arith::MulIOp::create(b, loc, outputs, perOutput);
    Value block = indexConst(b, loc, blockSize);
    Value blocks = arith::MinUIOp::create(
        b, loc, arith::MaxUIOp::create(b, loc, numTasks, one),
        indexConst(b, loc, maxBlocks));
    // An argmax's thread pair outlives the value's all-reduce (a barrier):
    // it waits in private memory, which LLVM keeps in registers.
    SmallVector<Type> privateTypes;
    if (plan.argReduce) {
      auto priv = gpu::AddressSpaceAttr::get(b.getContext(),
                                             gpu::AddressSpace::Private);
      for (Type type : accTypes)
        privateTypes.push_back(
            MemRefType::get({1}, type, MemRefLayoutAttrInterface{}, priv));
    }
    auto launch = gpu::LaunchOp::create(
        b, loc, blocks, one, one, block, one, one,
        /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
        /*asyncDependencies=*/{}, /*workgroupAttributions=*/TypeRange{},
        privateTypes);
    OpBuilder kb = OpBuilder::atBlockBegin(&launch.getBody().front());
    gpu::TerminatorOp::create(kb, loc);
    kb.setInsertionPointToStart(&launch.getBody().front());
    Value bid = launch.getBlockIds().x, tid = launch.getThreadIds().x;
    Value bdim = launch.getBlockSize().x, gdim = launch.getGridSize().x;
    // Block-uniform: every thread of a block runs the same tasks, so the
    // all-reduce inside is reached by all of them.
    auto tasks = scf::ForOp::create(kb, loc, bid, numTasks, gdim);
    OpBuilder tb = OpBuilder::atBlockTerminator(tasks.getBody());
    Value task = tasks.getInductionVar();
    Value p = arith::DivUIOp::create(tb, loc, task, perOutput);
    Value chunk = arith::RemUIOp::create(tb, loc, task, perOutput);
    SmallVector<Value> at(sizes.size());
    delinearize(tb, loc, p, plan.parallel, sizes, at);
    Value length = arith::CeilDivUIOp::create(tb, loc, count, perOutput);
    Value lo = arith::MinUIOp::create(
        tb, loc, arith::MulIOp::create(tb, loc, chunk, length), count);
    Value hi = arith::MinUIOp::create(
        tb, loc, arith::AddIOp::create(tb, loc, lo, length), count);
    SmallVector<Value> init;
    for (auto [type, identity] : llvm::zip(accTypes, plan.identities))
      init.push_back(arith::ConstantOp::create(tb, loc, type, identity));
    auto walk = scf::ForOp::create(
        tb, loc, arith::AddIOp::create(tb, loc, lo, tid), hi, bdim, init,
        [&](OpBuilder &wb, Location, Value r, ValueRange acc) {
          scf::YieldOp::create(wb, loc, accumulate(wb, p, at, r, acc));
        });
    SmallVector<Value> reduced;
    if (plan.argReduce) {
      // The block's best value, then the smallest index among the threads
      // holding it (each thread's pair is its first best point).
      Value zero = indexConst(tb, loc, 0);
      ArrayRef<BlockArgument> pair = launch.getPrivateAttributions();
      for (auto [value, slot] : llvm::zip(walk.getResults(), pair))
        memref::StoreOp::create(tb, loc, value, slot, zero);
      Value best = allReduce(tb, loc, plan.kinds[0], walk.getResult(0));
      Value v = memref::LoadOp::create(tb, loc, pair[0], zero);
      Value i = memref::LoadOp::create(tb, loc, pair[1], zero);
      Value holds;
      if (isa<FloatType>(v.getType()))
        holds = arith::OrIOp::create(
            tb, loc,
            arith::CmpFOp::create(tb, loc, arith::CmpFPredicate::OEQ, v, best),
            arith::AndIOp::create(
                tb, loc,
                arith::CmpFOp::create(tb, loc, arith::CmpFPredicate::UNO, v, v),
                arith::CmpFOp::create(tb, loc, arith::CmpFPredicate::UNO, best,
                                      best)));
      else
        holds =
            arith::CmpIOp::create(tb, loc, arith::CmpIPredicate::eq, v, best);
      auto indexType = cast<IntegerType>(i.getType());
      Value none = arith::ConstantOp::create(
          tb, loc, indexType,
          tb.getIntegerAttr(indexType,
                            APInt::getSignedMaxValue(indexType.getWidth())));
      Value candidate = arith::SelectOp::create(tb, loc, holds, i, none);
      memref::StoreOp::create(tb, loc, best, pair[0], zero);
      Value first = allReduce(tb, loc, plan.kinds[1], candidate);
      reduced = {memref::LoadOp::create(tb, loc, pair[0], zero), first};
    } else {
      for (auto [kind, partial] : llvm::zip(plan.kinds, walk.getResults()))
        reduced.push_back(allReduce(tb, loc, kind, partial));
    }
    Value first = arith::CmpIOp::create(tb, loc, arith::CmpIPredicate::eq, tid,
                                        indexConst(tb, loc, 0));
    auto guard = scf::IfOp::create(tb, loc, first, /*withElse=*/false);
    OpBuilder gb = OpBuilder::atBlockTerminator(guard.thenBlock());
    finish(gb, p, at, chunk, reduced);
    // The all-reduce's workgroup buffer is reused by the next task.
    gpu::BarrierOp::create(tb, loc);
  };

  // The outputs' elements at output point p.
  // Accumulators `acc` combined with partial results `x`.
  auto combineAll = [&](OpBuilder &ob, ValueRange acc, ValueRange x) {
    if (plan.argReduce)
      return combinePairs(ob, loc, plan, acc, x);
    SmallVector<Value> next;
    for (unsigned k = 0; k < acc.size(); ++k)
      next.push_back(combine(ob, combinerOf(op, k), acc[k], x[k]));
    return next;
  };
  auto combineIntoOutputs = [&](OpBuilder &ob, ArrayRef<Value> at,
                                ValueRange reduced) {
    SmallVector<SmallVector<Value>> indices;
    SmallVector<Value> old;
    for (OpOperand &out : op.getDpsInitsMutable()) {
      indices.push_back(applyMap(ob, loc, op.getMatchingIndexingMap(&out), at));
      old.push_back(memref::LoadOp::create(ob, loc, out.get(), indices.back()));
    }
    for (auto [k, v] : llvm::enumerate(combineAll(ob, old, reduced)))
      memref::StoreOp::create(ob, loc, v, op.getDpsInits()[k], indices[k]);
  };

  auto fromInputs = [&](OpBuilder &ob, Value, ArrayRef<Value> at, Value r,
                        ValueRange acc) {
    SmallVector<Value> ivs(at);
    delinearize(ob, loc, r, plan.reduction, sizes, ivs);
    SmallVector<Value> args;
    for (OpOperand *in : op.getDpsInputOperands()) {
      Value v = in->get();
      if (isa<MemRefType>(v.getType()))
        v = memref::LoadOp::create(
            ob, loc, v, applyMap(ob, loc, op.getMatchingIndexingMap(in), ivs));
      args.push_back(v);
    }
    args.append(acc.begin(), acc.end());
    return clonePayload(ob, op, args, ivs);
  };

  if (!split) {
    emitLaunch(
        one, points, fromInputs,
        [&](OpBuilder &ob, Value, ArrayRef<Value> at, Value,
            ValueRange reduced) { combineIntoOutputs(ob, at, reduced); });
    op.erase();
    return;
  }

  // Two launches: chunk results into partial[p * chunks + chunk], then one
  // task per output combining its chunks into the output.
  Value numPartials = arith::MulIOp::create(b, loc, outputs, chunks);
  SmallVector<Value> partials;
  for (Type type : accTypes)
    partials.push_back(memref::AllocOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, type),
        ValueRange{numPartials}));
  emitLaunch(chunks, points, fromInputs,
             [&](OpBuilder &ob, Value p, ArrayRef<Value>, Value chunk,
                 ValueRange reduced) {
               Value slot = arith::AddIOp::create(
                   ob, loc, arith::MulIOp::create(ob, loc, p, chunks), chunk);
               for (auto [partial, v] : llvm::zip(partials, reduced))
                 memref::StoreOp::create(ob, loc, v, partial, slot);
             });
  emitLaunch(
      one, chunks,
      [&](OpBuilder &ob, Value p, ArrayRef<Value>, Value r, ValueRange acc) {
        Value slot = arith::AddIOp::create(
            ob, loc, arith::MulIOp::create(ob, loc, p, chunks), r);
        SmallVector<Value> loaded;
        for (Value partial : partials)
          loaded.push_back(memref::LoadOp::create(ob, loc, partial, slot));
        return combineAll(ob, acc, loaded);
      },
      [&](OpBuilder &ob, Value, ArrayRef<Value> at, Value, ValueRange reduced) {
        combineIntoOutputs(ob, at, reduced);
      });
  for (Value partial : partials)
    memref::DeallocOp::create(b, loc, partial);
  op.erase();
}
