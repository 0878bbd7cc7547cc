//===- BlockMaxima.cpp - argmax, argmin, max and min by block maxima ------===//
//
// np.argmax of a contiguous float array or of its rows: the lanes kernel
// (Reduce.cpp) carries a value and an index per lane and steps both at
// every element (two compares, a mask and, two selects and an index per
// vector), 0.57 of NumPy 1.24's AVX-512 argmax on 1M f64. Here each block
// of four vectors is first folded to its elementwise maximum (three
// max instructions), and only that maximum is compared with the lanes:
// a lane keeps its best value and the number of the first block where it
// appeared. The index is recovered at the end by rescanning, for each lane
// that holds the maximum, the one block it names. NaN (NumPy's first NaN
// wins) is detected per block by two unordered compares; when any is found
// the result is the first NaN, by a scan that stops there. max and min
// fold the same blocks without block numbers (the NaN-propagating step of
// the lanes kernel is two compares and a select per vector). Rows are
// independent (threads split them); a whole array's blocks are split into
// one run per thread instead, each with its own lanes, merged in order.
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"

#include "stride/Dialect/Stride/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
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

LogicalResult KernelBuilder::emitBlockMaxima(Operation *op, ReduceKind kind,
                                             Value input,
                                             const StridedMetadata &in,
                                             ArrayRef<bool> reduced,
                                             bool keepdims, Value dest) {
  auto type = dyn_cast<MemRefType>(input.getType());
  if (!type)
    return failure();
  auto element = dyn_cast<FloatType>(type.getElementType());
  if (!element || !(element.isF32() || element.isF64()))
    return failure();
  bool index = kind == ReduceKind::Argmax || kind == ReduceKind::Argmin;
  bool max = kind == ReduceKind::Argmax || kind == ReduceKind::Max;
  if (!index && kind != ReduceKind::Min && !max)
    return failure();
  int64_t rank = in.sizes.size();
  SmallVector<int64_t> sizes, strides;
  for (int64_t d = 0; d < rank; ++d) {
    std::optional<int64_t> size = getConstantIntValue(in.sizes[d]);
    std::optional<int64_t> stride = getConstantIntValue(in.strides[d]);
    if (!size || !stride)
      return failure();
    sizes.push_back(*size);
    strides.push_back(*stride);
  }
  // Kept dims lead and reduced dims trail, these row-major contiguous: the
  // logical indices of a row are its offsets.
  int64_t firstReduced = rank;
  while (firstReduced > 0 && reduced[firstReduced - 1])
    --firstReduced;
  if (llvm::count(reduced, true) != rank - firstReduced)
    return failure();
  int64_t count = 1, rows = 1;
  for (int64_t d = rank - 1; d >= firstReduced; --d) {
    if (sizes[d] != 1 && strides[d] != count)
      return failure();
    if (sizes[d] >
        std::numeric_limits<int32_t>::max() / std::max<int64_t>(1, count))
      return failure();
    count *= sizes[d];
  }
  for (int64_t d = 0; d < firstReduced; ++d)
    rows = llvm::SaturatingMultiply<uint64_t>(rows, sizes[d]);
  int64_t width = 512 / element.getWidth(); // lanes of a 64-byte vector
  int64_t blockSize = kBlockVectors * width;
  int64_t blocks = count / blockSize;
  // Short rows keep the lanes kernel: the end's merge and rescan would
  // not pay off.
  if (blocks < 16 || rows <= 0)
    return failure();

  Location loc = op->getLoc();
  IndexMath math(b, loc);
  Type i32 = b.getI32Type(), indexType = b.getIndexType();
  auto vectorType = VectorType::get({width}, element);
  auto blockType = VectorType::get({width}, i32);
  auto maskType = VectorType::get({width}, b.getI1Type());
  auto cIndex = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  arith::CmpFPredicate better =
      max ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT;
  double inf = std::numeric_limits<double>::infinity();
  Value identity = arith::ConstantOp::create(
      b, loc, element, b.getFloatAttr(element, max ? -inf : inf));
  Value countValue = cIndex(count);
  // A row (`count` elements from `offset`) as a 1-D contiguous view.
  auto rowView = [&](OpFoldResult offset) -> Value {
    return memref::ReinterpretCastOp::create(
        b, loc,
        MemRefType::get(
            {count}, element,
            StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, {1})),
        input, offset, ArrayRef<OpFoldResult>{math.constant(count)},
        ArrayRef<OpFoldResult>{math.constant(1)});
  };
  // Blocks [first, last) of `flat`: (best value, block number, NaN seen)
  // per lane.
  auto runBlocks = [&](Value flat, Value first, Value last) {
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
          if (!index) {
            // max/min: the block's maxima replace the lanes' unless these
            // are better (on a tie the later element, as in the lanes
            // kernel and NumPy: -0.0 after 0.0 gives -0.0).
            scf::YieldOp::create(nb, nl,
                                 ValueRange{pick(acc[0], m), acc[1], nan});
            return;
          }
          Value take = arith::CmpFOp::create(nb, nl, better, m, acc[0]);
          Value number = vector::BroadcastOp::create(
              nb, nl, blockType, arith::IndexCastOp::create(nb, nl, i32, s));
          scf::YieldOp::create(
              nb, nl,
              ValueRange{arith::SelectOp::create(nb, nl, take, m, acc[0]),
                         arith::SelectOp::create(nb, nl, take, number, acc[1]),
                         nan});
        });
    // LLVM unrolled rows of 16 blocks completely, loaded all 64 vectors
    // first and spilled half of them (4096 x 1024 f32 max rows: 0.39 ms
    // against 0.26 for the lanes kernel); four blocks an iteration at most.
    // (The annotation's bare name is the one llvm.br takes as its own.)
    loop->setAttr(
        "loop_annotation",
        LLVM::LoopAnnotationAttr::get(
            b.getContext(), {}, {}, {},
            LLVM::LoopUnrollAttr::get(
                b.getContext(), BoolAttr(), b.getI32IntegerAttr(4), BoolAttr(),
                BoolAttr(), LLVM::LoopAnnotationAttr(),
                LLVM::LoopAnnotationAttr(), LLVM::LoopAnnotationAttr()),
            {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}));
    return loop;
  };
  // The index of the first NaN in `flat`: a scan that stops at it (one
  // exists).
  auto firstNaN = [&](Value flat) -> Value {
    Value zero = cIndex(0);
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
    return scan.getResult(0);
  };
  // The best of the lanes (a tree of halves, the upper half winning a
  // tie: the last of the tied lanes, as a chain through the lanes in order
  // would give, in log2(lanes) vector steps), then of the elements after
  // the last whole block: (best, the tail's first index holding a better
  // value than the blocks' or `count`, NaN seen). An index keeps the
  // earlier element on a tie, a value the later one.
  auto lanesAndTail = [&](Value flat, Value anyNaN,
                          Value bestLanes) -> SmallVector<Value> {
    Value r = bestLanes;
    for (int64_t half = width / 2; half >= 1; half /= 2) {
      Value lo = vector::ExtractStridedSliceOp::create(
          b, loc, r, ArrayRef<int64_t>{0}, ArrayRef<int64_t>{half},
          ArrayRef<int64_t>{1});
      Value hi = vector::ExtractStridedSliceOp::create(
          b, loc, r, ArrayRef<int64_t>{half}, ArrayRef<int64_t>{half},
          ArrayRef<int64_t>{1});
      r = arith::SelectOp::create(
          b, loc, arith::CmpFOp::create(b, loc, better, lo, hi), lo, hi);
    }
    r = vector::ExtractOp::create(b, loc, r, ArrayRef<int64_t>{0});
    auto tail =
        scf::ForOp::create(b, loc, cIndex(blocks * blockSize), countValue,
                           cIndex(1), ValueRange{r, countValue, anyNaN});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(tail.getBody());
    Value i = tail.getInductionVar();
    ValueRange acc = tail.getRegionIterArgs();
    Value x = memref::LoadOp::create(b, loc, flat, ValueRange{i});
    Value take =
        index ? arith::CmpFOp::create(b, loc, better, x, acc[0]).getResult()
              : arith::XOrIOp::create(
                    b, loc, arith::CmpFOp::create(b, loc, better, acc[0], x),
                    arith::ConstantOp::create(b, loc, b.getBoolAttr(true)))
                    .getResult();
    scf::YieldOp::create(
        b, loc,
        ValueRange{arith::SelectOp::create(b, loc, take, x, acc[0]),
                   arith::SelectOp::create(b, loc, take, i, acc[1]),
                   arith::OrIOp::create(
                       b, loc, acc[2],
                       arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO,
                                             x, x))});
    return SmallVector<Value>(tail.getResults());
  };
  // The index in `flat` of its best element, given the lanes' best values
  // and blocks and whether a block held NaN.
  auto finish = [&](Value flat, Value anyNaN, Value bestLanes,
                    Value blockLanes) -> Value {
    // The lanes hold no NaN (a NaN block maximum is never taken).
    SmallVector<Value> tail = lanesAndTail(flat, anyNaN, bestLanes);
    Value best = tail[0], tailIndex = tail[1];
    anyNaN = tail[2];
    auto nanIf = scf::IfOp::create(b, loc, indexType, anyNaN,
                                   /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&nanIf.getThenRegion().front());
    scf::YieldOp::create(b, loc, firstNaN(flat));
    // No NaN: the tail's best if it beats the blocks', else the first
    // position of the best value in the block each lane holding it names:
    // a loop over the set bits of those lanes' mask (usually one), four
    // loads each. Four gathers of every lane cost as much as 16 blocks of
    // a 1024-element f32 row.
    b.setInsertionPointToStart(&nanIf.getElseRegion().front());
    Value tailWins = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                           tailIndex, countValue);
    Value holds = arith::CmpFOp::create(
        b, loc, arith::CmpFPredicate::OEQ, bestLanes,
        vector::BroadcastOp::create(b, loc, vectorType, best));
    Type maskInt = b.getIntegerType(width);
    Value bits = vector::ExtractOp::create(
        b, loc,
        vector::BitCastOp::create(b, loc, VectorType::get({1}, maskInt), holds),
        ArrayRef<int64_t>{0});
    Value noBits =
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(maskInt, 0));
    auto lanes = scf::WhileOp::create(
        b, loc, TypeRange{maskInt, indexType}, ValueRange{bits, countValue},
        [&](OpBuilder &nb, Location nl, ValueRange args) {
          scf::ConditionOp::create(
              nb, nl,
              arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::ne, args[0],
                                    noBits),
              args);
        },
        [&](OpBuilder &nb, Location nl, ValueRange args) {
          OpBuilder::InsertionGuard inner(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          Value mask = args[0];
          Value l = arith::IndexCastUIOp::create(
              b, loc, indexType,
              math::CountTrailingZerosOp::create(b, loc, mask));
          Value number = vector::ExtractOp::create(b, loc, blockLanes,
                                                   ArrayRef<OpFoldResult>{l});
          Value start = arith::AddIOp::create(
              b, loc,
              arith::MulIOp::create(
                  b, loc, arith::IndexCastOp::create(b, loc, indexType, number),
                  cIndex(blockSize)),
              l);
          Value found = args[1];
          for (int64_t j = kBlockVectors - 1; j >= 0; --j) {
            Value i = arith::AddIOp::create(b, loc, start, cIndex(j * width));
            Value x = memref::LoadOp::create(b, loc, flat, ValueRange{i});
            Value hit = arith::AndIOp::create(
                b, loc,
                arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x,
                                      best),
                arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, i,
                                      found));
            found = arith::SelectOp::create(b, loc, hit, i, found);
          }
          // The lowest bit cleared.
          Value rest = arith::AndIOp::create(
              b, loc, mask,
              arith::SubIOp::create(b, loc, mask,
                                    arith::ConstantOp::create(
                                        b, loc, b.getIntegerAttr(maskInt, 1))));
          scf::YieldOp::create(b, loc, ValueRange{rest, found});
        });
    Value first = lanes.getResult(1);
    scf::YieldOp::create(b, loc,
                         ValueRange{arith::SelectOp::create(b, loc, tailWins,
                                                            tailIndex, first)});
    return nanIf.getResult(0);
  };
  // max/min: the best of the lanes and the tail; the first NaN where
  // there is one.
  auto finishValue = [&](Value flat, Value anyNaN, Value bestLanes) -> Value {
    SmallVector<Value> tail = lanesAndTail(flat, anyNaN, bestLanes);
    auto nanIf = scf::IfOp::create(b, loc, element, tail[2],
                                   /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&nanIf.getThenRegion().front());
    scf::YieldOp::create(b, loc,
                         ValueRange{memref::LoadOp::create(
                             b, loc, flat, ValueRange{firstNaN(flat)})});
    b.setInsertionPointToStart(&nanIf.getElseRegion().front());
    scf::YieldOp::create(b, loc, tail[0]);
    return nanIf.getResult(0);
  };
  Type resultElement = cast<MemRefType>(dest.getType()).getElementType();
  // Stores row `kept`'s result (the kept dims' loop indices) into `dest`.
  auto store = [&](Value result, ValueRange kept) {
    assert(int64_t(kept.size()) == firstReduced && "one index per kept dim");
    SmallVector<Value> at;
    for (int64_t d = 0, k = 0; d < rank; ++d) {
      if (!reduced[d])
        at.push_back(kept[k++]);
      else if (keepdims)
        at.push_back(cIndex(0));
    }
    if (index)
      result = arith::IndexCastOp::create(b, loc, resultElement, result);
    memref::StoreOp::create(b, loc, result, dest, at);
  };

  uint64_t bytes = llvm::SaturatingMultiply<uint64_t>(
      llvm::SaturatingMultiply<uint64_t>(rows, count), element.getWidth() / 8);
  bool threaded = threads > 1 && bytes >= uint64_t(kMinParallelBytes);
  if (rows > 1 || !threaded) {
    // One row after another (threads split the kept dims' points), each
    // from its lanes in registers.
    SmallVector<Value> zeros, uppers, ones;
    for (int64_t d = 0; d < firstReduced; ++d) {
      zeros.push_back(cIndex(0));
      uppers.push_back(cIndex(sizes[d]));
      ones.push_back(cIndex(1));
    }
    auto row = [&](ValueRange kept) {
      OpFoldResult offset = in.offset;
      for (auto [d, k] : llvm::enumerate(kept))
        offset = math.add(offset, math.mul(k, math.constant(strides[d])));
      Value flat = rowView(offset);
      auto loop = runBlocks(flat, cIndex(0), cIndex(blocks));
      Value anyNaN = vector::ReductionOp::create(
          b, loc, vector::CombiningKind::OR, loop.getResult(2));
      store(index ? finish(flat, anyNaN, loop.getResult(0), loop.getResult(1))
                  : finishValue(flat, anyNaN, loop.getResult(0)),
            kept);
    };
    if (zeros.empty()) {
      row({});
      return success();
    }
    if (threaded && rows >= int64_t(threads)) {
      auto parallel = scf::ParallelOp::create(b, loc, zeros, uppers, ones);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(parallel.getBody());
      row(parallel.getInductionVars());
      return success();
    }
    scf::buildLoopNest(b, loc, zeros, uppers, ones,
                       [&](OpBuilder &nb, Location, ValueRange kept) {
                         OpBuilder::InsertionGuard guard(b);
                         b.setInsertionPoint(nb.getInsertionBlock(),
                                             nb.getInsertionPoint());
                         row(kept);
                       });
    return success();
  }

  // A whole array on threads: one run of blocks per thread, each into its
  // own row of the lane buffers (freed by the deallocation pipeline), then
  // the rows merged in run order.
  int64_t parts = threads;
  Value flat = rowView(in.offset);
  auto scratch = [&](ArrayRef<int64_t> shape, Type t) -> Value {
    return memref::AllocOp::create(b, loc, MemRefType::get(shape, t),
                                   b.getI64IntegerAttr(64));
  };
  Value bestLanes = scratch({parts, width}, element);
  // Block numbers: an index reduction's only.
  Value blockLanes = index ? scratch({parts, width}, i32) : Value();
  Value nanParts = scratch({parts}, b.getI1Type());
  {
    auto parallel = scf::ParallelOp::create(b, loc, ValueRange{cIndex(0)},
                                            ValueRange{cIndex(parts)},
                                            ValueRange{cIndex(1)});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(parallel.getBody());
    Value p = parallel.getInductionVars()[0];
    // Run p: blocks [p * blocks / parts, (p + 1) * blocks / parts).
    auto bound = [&](Value q) -> Value {
      return arith::DivUIOp::create(
          b, loc, arith::MulIOp::create(b, loc, q, cIndex(blocks)),
          cIndex(parts));
    };
    auto loop = runBlocks(flat, bound(p),
                          bound(arith::AddIOp::create(b, loc, p, cIndex(1))));
    vector::StoreOp::create(b, loc, loop.getResult(0), bestLanes,
                            ValueRange{p, cIndex(0)});
    if (index)
      vector::StoreOp::create(b, loc, loop.getResult(1), blockLanes,
                              ValueRange{p, cIndex(0)});
    memref::StoreOp::create(
        b, loc,
        vector::ReductionOp::create(b, loc, vector::CombiningKind::OR,
                                    loop.getResult(2)),
        nanParts, ValueRange{p});
  }
  if (explainsDecisions(op))
    emitRemark(loc) << "stride-explain: threads: " << parts << " runs of the "
                    << blocks << " blocks of " << blockSize
                    << " elements, each in its own lanes, merged in order";
  Value anyNaN = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
  Value best = vector::BroadcastOp::create(b, loc, vectorType, identity);
  Value number =
      arith::ConstantOp::create(b, loc, blockType, b.getZeroAttr(blockType));
  for (int64_t p = 0; p < parts; ++p) {
    anyNaN = arith::OrIOp::create(
        b, loc, anyNaN,
        memref::LoadOp::create(b, loc, nanParts, ValueRange{cIndex(p)}));
    Value v = vector::LoadOp::create(b, loc, vectorType, bestLanes,
                                     ValueRange{cIndex(p), cIndex(0)});
    // An index: the first run wins a tie; a value: the later one.
    if (index) {
      Value n = vector::LoadOp::create(b, loc, blockType, blockLanes,
                                       ValueRange{cIndex(p), cIndex(0)});
      Value take = arith::CmpFOp::create(b, loc, better, v, best);
      best = arith::SelectOp::create(b, loc, take, v, best);
      number = arith::SelectOp::create(b, loc, take, n, number);
    } else {
      best = arith::SelectOp::create(
          b, loc, arith::CmpFOp::create(b, loc, better, best, v), best, v);
    }
  }
  // The one row's kept dims (all of size 1) at 0.
  SmallVector<Value> origin(firstReduced, cIndex(0));
  store(index ? finish(flat, anyNaN, best, number)
              : finishValue(flat, anyNaN, best),
        origin);
  return success();
}
