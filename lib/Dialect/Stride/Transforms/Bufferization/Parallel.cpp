//===- Parallel.cpp - Kernels split into chunks under scf.parallel --------===//

#include "Kernels.h"

#include "stride/Dialect/Stride/Transforms/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::stride;

/// A kernel runs on several threads only when it moves at least
/// kMinParallelBytes (Kernels.h) ...
/// ... or does at least this many operations (flops; a math function such
/// as exp or tanh counts as kMathOpCost of them), about 100 us of vector
/// FMAs on one core. Small batched products (a few MFLOP) stay on one thread.
static constexpr int64_t kMinParallelOps = 1 << 24;
static constexpr int64_t kMathOpCost = 16;
/// The split loop should give every thread several iterations, so that the
/// chunks stay balanced.
static constexpr int64_t kMinItersPerThread = 4;
/// A loop split inside the reductions gives each thread at least this many
/// iterations.
static constexpr int64_t kMinInnerChunk = 256;

namespace {
/// Saturating multiplication for size estimates.
int64_t mulSat(int64_t x, int64_t y) {
  return x > 0 && y > std::numeric_limits<int64_t>::max() / x
             ? std::numeric_limits<int64_t>::max()
             : x * y;
}

/// Operations per iteration of `body`: its ops except the terminator, a
/// math function counting as kMathOpCost.
int64_t opsPerPoint(Block &body) {
  int64_t ops = 0;
  for (Operation &op : body.without_terminator())
    ops += isa<math::MathDialect>(op.getDialect()) ? kMathOpCost : 1;
  return std::max<int64_t>(ops, 1);
}

} // namespace

int64_t mlir::stride::viewBytes(Value operand) {
  auto type = dyn_cast<MemRefType>(operand.getType());
  if (!type)
    return 0;
  SmallVector<int64_t> strides;
  int64_t offset;
  bool known = succeeded(type.getStridesAndOffset(strides, offset));
  int64_t bytes = std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (known && strides[d] == 0)
      continue;
    int64_t size = type.getDimSize(d);
    bytes = mulSat(bytes, ShapedType::isDynamic(size) ? kMinParallelBytes : size);
  }
  return bytes;
}

void KernelBuilder::emitGeneric(
    Location loc, ValueRange inputs, ValueRange outputs,
    ArrayRef<AffineMap> maps, ArrayRef<utils::IteratorType> iterators,
    function_ref<void(OpBuilder &, Location, ValueRange)> body,
    ArrayRef<NamedAttribute> attrs, int64_t minOps) {
  if (minOps <= 0)
    minOps = kMinParallelOps;
  auto generic = linalg::GenericOp::create(b, loc, TypeRange{}, inputs,
                                           outputs, maps, iterators, body);
  for (NamedAttribute attr : attrs)
    generic->setAttr(attr.getName(), attr.getValue());
  if (threads <= 1)
    return;
  // A loop can be split when it is parallel and a plain index wherever it
  // is used.
  auto splittable = [&](unsigned loop) {
    if (iterators[loop] != utils::IteratorType::parallel)
      return false;
    for (AffineMap map : maps)
      for (AffineExpr e : map.getResults())
        if (e.isFunctionOfDim(loop) && e != b.getAffineDimExpr(loop))
          return false;
    return true;
  };
  // Each loop's size, from a view that indexes it plainly.
  SmallVector<Value> operands(inputs);
  llvm::append_range(operands, outputs);
  SmallVector<OpFoldResult> loopSizes(iterators.size());
  for (auto [operand, map] : llvm::zip(operands, maps))
    for (auto [pos, e] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(e))
        if (!loopSizes[dim.getPosition()])
          loopSizes[dim.getPosition()] =
              memref::getMixedSize(b, loc, operand, pos);
  int64_t points = 1;
  for (OpFoldResult size : loopSizes) {
    std::optional<int64_t> c = size ? getConstantIntValue(size) : std::nullopt;
    points = mulSat(points, c ? *c : kMinParallelOps); // unknown: large
  }
  int64_t bytes = 0;
  for (Value operand : operands) {
    // Saturating: an unknown size counts as INT64_MAX bytes.
    int64_t v = viewBytes(operand);
    bytes = v >= kMinParallelBytes - bytes ? kMinParallelBytes : bytes + v;
  }
  int64_t ops = mulSat(points, opsPerPoint(*generic.getBlock()));
  bool explain = explainsDecisions(generic);
  std::string opsText = llvm::isPowerOf2_64(minOps)
                            ? "2^" + std::to_string(llvm::Log2_64(minOps))
                            : std::to_string(minOps);
  auto sizeText = [&] {
    return "moves " +
           (bytes >= kMinParallelBytes ? std::string("at least 2 MiB")
                                       : std::to_string(bytes) + " bytes") +
           " and does " +
           (ops >= minOps ? "at least " + opsText : std::to_string(ops)) +
           " operations";
  };
  if (bytes < kMinParallelBytes && ops < minOps) {
    if (explain)
      emitRemark(loc) << "stride-explain: threads: one thread of " << threads
                      << ": the kernel " << sizeText() << " (under 2 MiB and "
                      << opsText
                      << " operations, OpenMP's fork/join would cost more "
                         "than it saves)";
    return;
  }
  // Split the outermost leading parallel loop that is long enough to give
  // every thread a few iterations (a short batch loop of 1 or 2 would leave
  // threads idle), else the longest one.
  std::optional<unsigned> split;
  int64_t longest = 0;
  for (unsigned loop = 0;
       loop < iterators.size() && iterators[loop] == utils::IteratorType::parallel;
       ++loop) {
    if (!loopSizes[loop] || !splittable(loop))
      continue;
    std::optional<int64_t> size = getConstantIntValue(loopSizes[loop]);
    if (!size || *size >= kMinItersPerThread * int64_t(threads)) {
      split = loop;
      longest = std::numeric_limits<int64_t>::max();
      break;
    }
    if (*size > longest && *size > 1) {
      split = loop;
      longest = *size;
    }
  }
  // No leading loop will do (a vector-matrix product's 1 x k x n, column
  // sums' reduced rows outermost): a parallel loop inside the reductions is
  // split instead, each chunk keeping its reductions whole, when every
  // chunk is a long run of it (kMinInnerChunk iterations): a reduction's 64
  // lanes split in two would have both threads stream every cache line.
  if (!split || longest < int64_t(threads))
    for (unsigned loop = 0; loop < iterators.size(); ++loop) {
      if (!loopSizes[loop] || !splittable(loop))
        continue;
      std::optional<int64_t> size = getConstantIntValue(loopSizes[loop]);
      if (size && *size >= kMinInnerChunk * int64_t(threads)) {
        split = loop;
        break;
      }
    }
  if (!split) {
    if (explain)
      emitRemark(loc) << "stride-explain: threads: one thread of " << threads
                      << ": no parallel loop is a plain index in every "
                         "operand with enough iterations to split";
    return;
  }
  if (explain)
    emitRemark(loc) << "stride-explain: threads: " << threads
                    << " chunks of loop #" << *split << " (the kernel "
                    << sizeText() << ")";
  generic.erase();

  // scf.parallel over chunks of the split loop; each chunk a generic on
  // subviews.
  IndexMath math(b, loc);
  Value size = math.value(loopSizes[*split]);
  Value count = arith::ConstantIndexOp::create(b, loc, threads);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value chunk = arith::CeilDivUIOp::create(b, loc, size, count);
  auto parallel = scf::ParallelOp::create(b, loc, ValueRange{zero},
                                          ValueRange{count}, ValueRange{one});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(parallel.getBody());
  Value lo = arith::MulIOp::create(b, loc, parallel.getInductionVars()[0],
                                   chunk);
  Value hi = arith::MinUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, lo, chunk), size);
  Value start = arith::MinUIOp::create(b, loc, lo, hi);
  Value length = arith::SubIOp::create(b, loc, hi, start);
  SmallVector<Value> sliced;
  for (auto [operand, map] : llvm::zip(operands, maps)) {
    auto type = dyn_cast<MemRefType>(operand.getType());
    std::optional<unsigned> pos =
        map.getResultPosition(b.getAffineDimExpr(*split));
    if (!type || !pos) {
      sliced.push_back(operand);
      continue;
    }
    SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes, strides(type.getRank(), b.getIndexAttr(1));
    for (int64_t d = 0; d < type.getRank(); ++d)
      sizes.push_back(memref::getMixedSize(b, loc, operand, d));
    offsets[*pos] = start;
    sizes[*pos] = length;
    sliced.push_back(
        memref::SubViewOp::create(b, loc, operand, offsets, sizes, strides));
  }
  auto chunkOp = linalg::GenericOp::create(
      b, loc, TypeRange{}, ArrayRef(sliced).take_front(inputs.size()),
      ArrayRef(sliced).drop_front(inputs.size()), maps, iterators, body);
  for (NamedAttribute attr : attrs)
    chunkOp->setAttr(attr.getName(), attr.getValue());
}
