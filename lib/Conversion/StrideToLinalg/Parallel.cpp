//===- Parallel.cpp - Kernels split into chunks under scf.parallel --------===//

#include "Kernels.h"

#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::stride;

/// Iteration spaces smaller than this run on one thread: the fork/join of
/// OpenMP costs microseconds.
static constexpr int64_t kMinParallelPoints = 1 << 16;

void KernelBuilder::emitGeneric(
    Location loc, ValueRange inputs, ValueRange outputs,
    ArrayRef<AffineMap> maps, ArrayRef<utils::IteratorType> iterators,
    function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  auto plain = [&]() -> LogicalResult {
    if (threads <= 1 || iterators.empty() ||
        iterators.front() != utils::IteratorType::parallel)
      return failure();
    // Loop 0 must be a plain index wherever it is used.
    for (AffineMap map : maps)
      for (AffineExpr e : map.getResults())
        if (e.isFunctionOfDim(0) && e != b.getAffineDimExpr(0))
          return failure();
    return success();
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
    points = c ? points * *c : kMinParallelPoints; // unknown: assume large
  }
  if (failed(plain()) || points < kMinParallelPoints || !loopSizes[0]) {
    linalg::GenericOp::create(b, loc, TypeRange{}, inputs, outputs, maps,
                              iterators, body);
    return;
  }
  // scf.parallel over chunks of loop 0; each chunk a generic on subviews.
  IndexMath math(b, loc);
  Value size0 = math.value(loopSizes[0]);
  Value count = arith::ConstantIndexOp::create(b, loc, threads);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value chunk = arith::CeilDivUIOp::create(b, loc, size0, count);
  auto parallel = scf::ParallelOp::create(b, loc, ValueRange{zero},
                                          ValueRange{count}, ValueRange{one});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(parallel.getBody());
  Value lo = arith::MulIOp::create(b, loc, parallel.getInductionVars()[0],
                                   chunk);
  Value hi = arith::MinUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, lo, chunk), size0);
  Value start = arith::MinUIOp::create(b, loc, lo, hi);
  Value length = arith::SubIOp::create(b, loc, hi, start);
  SmallVector<Value> sliced;
  for (auto [operand, map] : llvm::zip(operands, maps)) {
    auto type = dyn_cast<MemRefType>(operand.getType());
    std::optional<unsigned> pos =
        map.getResultPosition(b.getAffineDimExpr(0));
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
  linalg::GenericOp::create(
      b, loc, TypeRange{}, ArrayRef(sliced).take_front(inputs.size()),
      ArrayRef(sliced).drop_front(inputs.size()), maps, iterators, body);
}
