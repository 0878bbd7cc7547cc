//===- IndexBlocks.cpp - Whole-array argmax/argmin by block maxima --------===//
//
// np.argmax of a contiguous float array, the whole of it: the lanes kernel
// (Reduce.cpp) carries a value and an index per lane and steps both at
// every element (two compares, a mask and, two selects and an index per
// vector), 0.57 of NumPy 1.24's AVX-512 argmax on 1M f64. Here each block
// of four vectors is first folded to its elementwise maximum (three
// max instructions), and only that maximum is compared with the lanes:
// a lane keeps its best value and the number of the first block where it
// appeared. The index is recovered at the end by rescanning, per lane that
// holds the maximum, the one block it names. NaN (NumPy's first NaN wins)
// is detected per block by two unordered compares; when any is found the
// result is the first NaN, by a scan that stops there.
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"

#include "stride/Dialect/Stride/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::stride;

/// Vectors per block: three max instructions fold a block, and the lanes
/// step (a compare and two masked moves) runs once per four vectors.
static constexpr int64_t kBlockVectors = 4;

LogicalResult KernelBuilder::emitIndexBlocks(Operation *op, bool max,
                                             Value input,
                                             const StridedMetadata &in,
                                             Value dest) {
  auto type = dyn_cast<MemRefType>(input.getType());
  if (!type)
    return failure();
  auto element = dyn_cast<FloatType>(type.getElementType());
  if (!element || !(element.isF32() || element.isF64()))
    return failure();
  // Row-major contiguous: the array's logical indices are its offsets.
  int64_t count = 1;
  for (int64_t d = in.sizes.size() - 1; d >= 0; --d) {
    std::optional<int64_t> size = getConstantIntValue(in.sizes[d]);
    std::optional<int64_t> stride = getConstantIntValue(in.strides[d]);
    if (!size || !stride)
      return failure();
    if (*size != 1 && *stride != count)
      return failure();
    if (*size >
        std::numeric_limits<int32_t>::max() / std::max<int64_t>(1, count))
      return failure();
    count *= *size;
  }
  int64_t width = 512 / element.getWidth(); // lanes of a 64-byte vector
  int64_t blockSize = kBlockVectors * width;
  int64_t blocks = count / blockSize;
  // Short arrays keep the lanes kernel: the end's rescan and scans would
  // not pay off.
  if (blocks < 16)
    return failure();

  Location loc = op->getLoc();
  IndexMath math(b, loc);
  Type i32 = b.getI32Type(), indexType = b.getIndexType();
  auto vectorType = VectorType::get({width}, element);
  auto blockType = VectorType::get({width}, i32);
  auto maskType = VectorType::get({width}, b.getI1Type());
  Value flat = memref::ReinterpretCastOp::create(
      b, loc,
      MemRefType::get(
          {count}, element,
          StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, {1})),
      input, in.offset, ArrayRef<OpFoldResult>{math.constant(count)},
      ArrayRef<OpFoldResult>{math.constant(1)});
  auto cIndex = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  arith::CmpFPredicate better =
      max ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT;
  double inf = std::numeric_limits<double>::infinity();
  Value identity = arith::ConstantOp::create(
      b, loc, element, b.getFloatAttr(element, max ? -inf : inf));

  // With threads and at least kMinParallelBytes, the blocks are cut into
  // one run per thread, each with its own lanes (a row of the buffers
  // below); the runs are merged in order at the end.
  int64_t parts = 1;
  if (threads > 1 && count * (element.getWidth() / 8) >= kMinParallelBytes &&
      blocks >= 64 * int64_t(threads))
    parts = threads;
  // Scratch buffers (allocations, which the deallocation pipeline frees:
  // an alloca in a loop of the program would grow the stack).
  auto scratch = [&](ArrayRef<int64_t> shape, Type t) -> Value {
    return memref::AllocOp::create(b, loc, MemRefType::get(shape, t),
                                   b.getI64IntegerAttr(64));
  };
  Value bestLanes = scratch({parts, width}, element);
  Value blockLanes = scratch({parts, width}, i32);
  Value nanLanes = scratch({parts}, b.getI1Type());

  // Blocks [first, last) into row `p` of the lane buffers.
  auto emitRun = [&](Value first, Value last, Value p) {
    Value init[] = {
        vector::BroadcastOp::create(b, loc, vectorType, identity),
        arith::ConstantOp::create(b, loc, blockType, b.getZeroAttr(blockType)),
        arith::ConstantOp::create(b, loc, maskType, b.getZeroAttr(maskType))};
    auto loop = scf::ForOp::create(
        b, loc, first, last, cIndex(1), init,
        [&](OpBuilder &nb, Location nl, Value s, ValueRange acc) {
          Value base = arith::MulIOp::create(
              nb, nl, s, arith::ConstantIndexOp::create(nb, nl, blockSize));
          SmallVector<Value> v;
          for (int64_t j = 0; j < kBlockVectors; ++j)
            v.push_back(vector::LoadOp::create(
                nb, nl, vectorType, flat,
                ValueRange{arith::AddIOp::create(
                    nb, nl, base,
                    arith::ConstantIndexOp::create(nb, nl, j * width))}));
          Value nan = acc[2];
          for (int64_t j = 0; j < kBlockVectors; j += 2)
            nan = arith::OrIOp::create(
                nb, nl, nan,
                arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::UNO, v[j],
                                      v[j + 1]));
          // x > y ? x : y is one vmaxpd (x86's max returns y on NaN, which
          // the compares above have caught).
          auto pick = [&](Value x, Value y) -> Value {
            return arith::SelectOp::create(
                nb, nl, arith::CmpFOp::create(nb, nl, better, x, y), x, y);
          };
          Value m = pick(pick(v[0], v[1]), pick(v[2], v[3]));
          Value take = arith::CmpFOp::create(nb, nl, better, m, acc[0]);
          Value number = vector::BroadcastOp::create(
              nb, nl, blockType, arith::IndexCastOp::create(nb, nl, i32, s));
          scf::YieldOp::create(
              nb, nl,
              ValueRange{arith::SelectOp::create(nb, nl, take, m, acc[0]),
                         arith::SelectOp::create(nb, nl, take, number, acc[1]),
                         nan});
        });
    vector::StoreOp::create(b, loc, loop.getResult(0), bestLanes,
                            ValueRange{p, cIndex(0)});
    vector::StoreOp::create(b, loc, loop.getResult(1), blockLanes,
                            ValueRange{p, cIndex(0)});
    memref::StoreOp::create(
        b, loc,
        vector::ReductionOp::create(b, loc, vector::CombiningKind::OR,
                                    loop.getResult(2)),
        nanLanes, ValueRange{p});
  };
  if (parts == 1) {
    emitRun(cIndex(0), cIndex(blocks), cIndex(0));
  } else {
    auto parallel = scf::ParallelOp::create(b, loc, ValueRange{cIndex(0)},
                                            ValueRange{cIndex(parts)},
                                            ValueRange{cIndex(1)});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(parallel.getBody());
    Value p = parallel.getInductionVars()[0];
    // Part p: blocks [p * blocks / parts, (p + 1) * blocks / parts).
    auto bound = [&](Value q) -> Value {
      return arith::DivUIOp::create(
          b, loc, arith::MulIOp::create(b, loc, q, cIndex(blocks)),
          cIndex(parts));
    };
    emitRun(bound(p), bound(arith::AddIOp::create(b, loc, p, cIndex(1))), p);
  }
  if (parts > 1 && explainsDecisions(op))
    emitRemark(loc) << "stride-explain: threads: " << parts << " runs of the "
                    << blocks << " blocks of " << blockSize
                    << " elements, each in its own lanes, merged in order";

  // The end, in scalar code (a few dozen elements).
  Value zero = cIndex(0), one = cIndex(1);
  Value anyNaN = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
  // Per lane: the best value over the parts (the first part on a tie) and
  // its block; and the best of all lanes.
  Value laneBest = scratch({width}, element);
  Value laneBlock = scratch({width}, i32);
  Value best = identity;
  {
    auto partLoop = scf::ForOp::create(b, loc, zero, cIndex(parts), one,
                                       ValueRange{anyNaN});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(partLoop.getBody());
    Value p = partLoop.getInductionVar();
    scf::YieldOp::create(
        b, loc,
        ValueRange{arith::OrIOp::create(
            b, loc, partLoop.getRegionIterArgs()[0],
            memref::LoadOp::create(b, loc, nanLanes, ValueRange{p}))});
    b.setInsertionPointAfter(partLoop);
    anyNaN = partLoop.getResult(0);
  }
  {
    auto laneLoop =
        scf::ForOp::create(b, loc, zero, cIndex(width), one, ValueRange{best});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(laneLoop.getBody());
    Value l = laneLoop.getInductionVar();
    auto partLoop = scf::ForOp::create(
        b, loc, zero, cIndex(parts), one,
        ValueRange{identity, arith::ConstantOp::create(
                                 b, loc, i32, b.getI32IntegerAttr(0))});
    {
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(partLoop.getBody());
      Value p = partLoop.getInductionVar();
      Value v = memref::LoadOp::create(b, loc, bestLanes, ValueRange{p, l});
      Value n = memref::LoadOp::create(b, loc, blockLanes, ValueRange{p, l});
      Value take = arith::CmpFOp::create(b, loc, better, v,
                                         partLoop.getRegionIterArgs()[0]);
      scf::YieldOp::create(
          b, loc,
          ValueRange{arith::SelectOp::create(b, loc, take, v,
                                             partLoop.getRegionIterArgs()[0]),
                     arith::SelectOp::create(b, loc, take, n,
                                             partLoop.getRegionIterArgs()[1])});
    }
    Value v = partLoop.getResult(0);
    memref::StoreOp::create(b, loc, v, laneBest, ValueRange{l});
    memref::StoreOp::create(b, loc, partLoop.getResult(1), laneBlock,
                            ValueRange{l});
    Value acc = laneLoop.getRegionIterArgs()[0];
    scf::YieldOp::create(
        b, loc,
        ValueRange{arith::SelectOp::create(
            b, loc, arith::CmpFOp::create(b, loc, better, v, acc), v, acc)});
    b.setInsertionPointAfter(laneLoop);
    best = laneLoop.getResult(0);
  }
  Value countValue = cIndex(count);
  auto load = [&](Value i) {
    return memref::LoadOp::create(b, loc, flat, ValueRange{i}).getResult();
  };
  // The elements after the last whole block: the first of their best
  // (strictly better than the blocks' best, which comes earlier) and
  // whether one is NaN (the blocks hold none: their NaN wins first).
  Value tailStart = cIndex(blocks * blockSize);
  auto tail = scf::ForOp::create(
      b, loc, tailStart, countValue, one,
      ValueRange{best, countValue,
                 arith::ConstantOp::create(b, loc, b.getBoolAttr(false))});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(tail.getBody());
    Value i = tail.getInductionVar();
    ValueRange acc = tail.getRegionIterArgs();
    Value x = load(i);
    Value take = arith::CmpFOp::create(b, loc, better, x, acc[0]);
    scf::YieldOp::create(
        b, loc,
        ValueRange{arith::SelectOp::create(b, loc, take, x, acc[0]),
                   arith::SelectOp::create(b, loc, take, i, acc[1]),
                   arith::OrIOp::create(
                       b, loc, acc[2],
                       arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO,
                                             x, x))});
  }
  anyNaN = arith::OrIOp::create(b, loc, anyNaN, tail.getResult(2));
  Value tailIndex = tail.getResult(1);
  auto nanIf = scf::IfOp::create(b, loc, indexType, anyNaN,
                                 /*withElseRegion=*/true);
  {
    // The first NaN: a scan that stops at it (one exists).
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&nanIf.getThenRegion().front());
    auto scan = scf::WhileOp::create(
        b, loc, TypeRange{indexType}, ValueRange{zero},
        [&](OpBuilder &nb, Location nl, ValueRange args) {
          Value i = args[0];
          Value inside = arith::CmpIOp::create(
              nb, nl, arith::CmpIPredicate::ult, i, countValue);
          // Past the end reads element 0, never used: the loop ends there.
          Value at = arith::SelectOp::create(nb, nl, inside, i, zero);
          Value x = memref::LoadOp::create(nb, nl, flat, ValueRange{at});
          Value number =
              arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::ORD, x, x);
          scf::ConditionOp::create(
              nb, nl, arith::AndIOp::create(nb, nl, inside, number), args);
        },
        [&](OpBuilder &nb, Location nl, ValueRange args) {
          scf::YieldOp::create(
              nb, nl,
              ValueRange{arith::AddIOp::create(
                  nb, nl, args[0], arith::ConstantIndexOp::create(nb, nl, 1))});
        });
    scf::YieldOp::create(b, loc, scan.getResult(0));
    // No NaN: the tail's best if it beats the blocks', else the first
    // position of the best value in the block each lane names.
    b.setInsertionPointToStart(&nanIf.getElseRegion().front());
    Value tailWins = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                           tailIndex, countValue);
    Value none = cIndex(count);
    auto lanes =
        scf::ForOp::create(b, loc, zero, cIndex(width), one, ValueRange{none});
    {
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(lanes.getBody());
      Value l = lanes.getInductionVar();
      Value start = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(
              b, loc,
              arith::IndexCastOp::create(
                  b, loc, indexType,
                  memref::LoadOp::create(b, loc, laneBlock, ValueRange{l})),
              cIndex(blockSize)),
          l);
      // A lane holding another value finds nothing (its positions never
      // equal best, or come after the lane that holds it).
      Value holds = arith::CmpFOp::create(
          b, loc, arith::CmpFPredicate::OEQ,
          memref::LoadOp::create(b, loc, laneBest, ValueRange{l}), best);
      Value found = none;
      for (int64_t j = kBlockVectors - 1; j >= 0; --j) {
        Value i = arith::AddIOp::create(b, loc, start, cIndex(j * width));
        Value hit = arith::AndIOp::create(
            b, loc, holds,
            arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, load(i),
                                  best));
        found = arith::SelectOp::create(b, loc, hit, i, found);
      }
      scf::YieldOp::create(b, loc,
                           ValueRange{arith::MinUIOp::create(
                               b, loc, found, lanes.getRegionIterArgs()[0])});
    }
    scf::YieldOp::create(b, loc,
                         ValueRange{arith::SelectOp::create(
                             b, loc, tailWins, tailIndex, lanes.getResult(0))});
  }
  Value index = arith::IndexCastOp::create(
      b, loc, cast<MemRefType>(dest.getType()).getElementType(),
      nanIf.getResult(0));
  // The result has one element (0-d, or ones with keepdims).
  linalg::FillOp::create(b, loc, index, dest);
  return success();
}
