//===- TiledMatmul.cpp - Batched matmul as a shared-memory tiled kernel ---===//
//
// The classic tiled GEMM: one block per (batch, BM x BN output tile), TY x TX
// threads each owning a TM x TN register tile, a loop over K in steps of BK
// that stages a BK x BM tile of A and a BK x BN tile of B into workgroup
// memory (cooperative loads, barrier, compute, barrier). Operands are read in
// place through their indexing maps, so broadcast (stride-0) batches,
// transposed and mirrored operands need no copy. Hand-built gpu.launch IR:
// upstream has no transform that stages linalg operands on strided memrefs
// into shared memory with guards for dynamic sizes.
//
//===----------------------------------------------------------------------===//

#include "TiledMatmul.h"
#include "GenericPayload.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::stride::gpu_mapping;

namespace {

/// Threads and outputs per thread along one output dimension of static size
/// `size` (dynamic: the full 16 x 4). Small sizes shrink the tile so that a
/// batch of 8 x 8 products does not leave most of a 64 x 64 tile idle.
std::pair<int64_t, int64_t> dimTiling(int64_t size) {
  if (ShapedType::isDynamic(size) || size >= 64)
    return {16, 4};
  if (size <= 16)
    return {std::max<int64_t>(size, 1), 1};
  return {16, (size + 15) / 16};
}

bool isIntOrFloat(Type t) { return isa<IntegerType, FloatType>(t); }

Value zeroOf(OpBuilder &b, Location loc, Type t) {
  return arith::ConstantOp::create(b, loc, t,
                                   cast<TypedAttr>(b.getZeroAttr(t)));
}

/// The static |stride| of `operand` along loop `loop`, or nullopt when it is
/// dynamic or the loop is not a plain index of the operand.
std::optional<int64_t> loopStride(linalg::GenericOp op, OpOperand &operand,
                                  unsigned loop) {
  auto type = cast<MemRefType>(operand.get().getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return std::nullopt;
  for (auto [r, e] :
       llvm::enumerate(op.getMatchingIndexingMap(&operand).getResults()))
    if (auto d = dyn_cast<AffineDimExpr>(e);
        d && d.getPosition() == loop && !ShapedType::isDynamic(strides[r]))
      return std::abs(strides[r]);
  return std::nullopt;
}

Value andI(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::AndIOp::create(b, loc, x, y);
}
Value ult(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
}

/// `cond ? load(memref[indices]) : zero`, the load only when in bounds.
Value guardedLoad(OpBuilder &b, Location loc, Value cond, Value memref,
                  AffineMap map, ArrayRef<Value> ivs, Type elem) {
  auto ifOp = scf::IfOp::create(
      b, loc, cond,
      [&](OpBuilder &tb, Location l) {
        Value v =
            memref::LoadOp::create(tb, l, memref, applyMap(tb, l, map, ivs));
        scf::YieldOp::create(tb, l, v);
      },
      [&](OpBuilder &eb, Location l) {
        scf::YieldOp::create(eb, l, zeroOf(eb, l, elem));
      });
  return ifOp.getResult(0);
}

} // namespace

std::optional<MatmulLoops>
mlir::stride::gpu_mapping::matchTiledMatmul(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return std::nullopt;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || !isIntOrFloat(type.getElementType()))
      return std::nullopt;
  }
  if (!op.getRegion().front().getOps<linalg::IndexOp>().empty())
    return std::nullopt;
  AffineMap a = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  AffineMap b = op.getMatchingIndexingMap(op.getDpsInputOperand(1));
  AffineMap c = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  MatmulLoops loops;
  SmallVector<unsigned> ms, ns, ks;
  for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray())) {
    bool inA = a.isFunctionOfDim(i), inB = b.isFunctionOfDim(i),
         inC = c.isFunctionOfDim(i);
    if (it != utils::IteratorType::parallel) {
      if (!inA || !inB || inC)
        return std::nullopt;
      ks.push_back(i);
    } else if (inA && !inB) {
      if (!inC)
        return std::nullopt;
      ms.push_back(i);
    } else if (inB && !inA) {
      if (!inC)
        return std::nullopt;
      ns.push_back(i);
    } else {
      loops.batch.push_back(i);
    }
  }
  if (ks.size() != 1 || ms.size() != 1 || ns.size() != 1)
    return std::nullopt;
  loops.m = ms[0];
  loops.n = ns[0];
  loops.k = ks[0];
  return loops;
}

void mlir::stride::gpu_mapping::buildTiledMatmul(linalg::GenericOp op,
                                                 const MatmulLoops &loops,
                                                 int64_t maxBlocks) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  OpBuilder b(op);
  OpOperand &opA = *op.getDpsInputOperand(0);
  OpOperand &opB = *op.getDpsInputOperand(1);
  OpOperand &opC = *op.getDpsInitOperand(0);
  Value memA = opA.get(), memB = opB.get(), memC = opC.get();
  Type elemA = cast<MemRefType>(memA.getType()).getElementType();
  Type elemB = cast<MemRefType>(memB.getType()).getElementType();
  Type elemC = cast<MemRefType>(memC.getType()).getElementType();
  AffineMap mapA = op.getMatchingIndexingMap(&opA);
  AffineMap mapB = op.getMatchingIndexingMap(&opB);
  AffineMap mapC = op.getMatchingIndexingMap(&opC);

  // Loop sizes, on the host.
  SmallVector<int64_t> staticSizes = op.getStaticLoopRanges();
  SmallVector<Range> ranges =
      cast<linalg::LinalgOp>(op.getOperation()).createLoopRanges(b, loc);
  SmallVector<Value> sizes;
  for (Range r : ranges)
    sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, r.size));
  Value sizeM = sizes[loops.m], sizeN = sizes[loops.n], sizeK = sizes[loops.k];

  // Tile shape: f64/i64 stage half as many k per step (same bytes).
  int64_t ty, tm, tx, tn;
  std::tie(ty, tm) = dimTiling(staticSizes[loops.m]);
  std::tie(tx, tn) = dimTiling(staticSizes[loops.n]);
  unsigned widest =
      std::max({elemA.getIntOrFloatBitWidth(), elemB.getIntOrFloatBitWidth(),
                elemC.getIntOrFloatBitWidth()});
  int64_t bk = widest > 32 ? 8 : 16;
  int64_t staticK = staticSizes[loops.k];
  if (!ShapedType::isDynamic(staticK))
    bk = std::clamp<int64_t>(staticK, 1, bk);
  int64_t bm = ty * tm, bn = tx * tn, threads = tx * ty;

  // Each staged tile is stored k-major (tile[kk][row]) so the compute phase
  // reads a row of A and a row of B at each kk. The cooperative load walks
  // the operand's smaller-stride loop fastest (coalesced global reads); when
  // that is k the shared stores stride by the row length, padded by one
  // element against bank conflicts.
  auto kFastest = [&](OpOperand &operand, unsigned rowLoop, bool dflt) {
    std::optional<int64_t> sk = loopStride(op, operand, loops.k);
    std::optional<int64_t> sr = loopStride(op, operand, rowLoop);
    if (sk && sr)
      return *sk < *sr;
    return dflt;
  };
  bool aKFast = kFastest(opA, loops.m, /*dflt=*/true);
  bool bKFast = kFastest(opB, loops.n, /*dflt=*/false);
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto priv = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Private);
  auto tileA = MemRefType::get({bk, bm + (aKFast ? 1 : 0)}, elemA,
                               MemRefLayoutAttrInterface{}, workgroup);
  auto tileB = MemRefType::get({bk, bn + (bKFast ? 1 : 0)}, elemB,
                               MemRefLayoutAttrInterface{}, workgroup);
  auto accType =
      MemRefType::get({tm, tn}, elemC, MemRefLayoutAttrInterface{}, priv);

  // Grid: one block per (batch..., tile row, tile column), capped at
  // max-blocks; blocks walk the rest with a block-uniform grid-stride loop.
  Value one = indexConst(b, loc, 1);
  Value tilesM =
      arith::CeilDivUIOp::create(b, loc, sizeM, indexConst(b, loc, bm));
  Value tilesN =
      arith::CeilDivUIOp::create(b, loc, sizeN, indexConst(b, loc, bn));
  SmallVector<Value> tileBasis;
  for (unsigned l : loops.batch)
    tileBasis.push_back(sizes[l]);
  tileBasis.push_back(tilesM);
  tileBasis.push_back(tilesN);
  Value total = one;
  for (Value v : tileBasis)
    total = arith::MulIOp::create(b, loc, total, v);
  Value blocks = arith::MaxUIOp::create(b, loc, total, one);
  blocks =
      arith::MinUIOp::create(b, loc, blocks, indexConst(b, loc, maxBlocks));
  auto launch = gpu::LaunchOp::create(
      b, loc, blocks, one, one, indexConst(b, loc, tx), indexConst(b, loc, ty),
      one, /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, TypeRange{tileA, tileB}, TypeRange{accType});
  Value sharedA = launch.getWorkgroupAttributions()[0];
  Value sharedB = launch.getWorkgroupAttributions()[1];
  Value acc = launch.getPrivateAttributions()[0];

  Block &body = launch.getBody().front();
  OpBuilder kb = OpBuilder::atBlockBegin(&body);
  gpu::TerminatorOp::create(kb, loc);
  kb.setInsertionPointToStart(&body);
  Value tidX = launch.getThreadIds().x, tidY = launch.getThreadIds().y;
  auto tileLoop = scf::ForOp::create(kb, loc, launch.getBlockIds().x, total,
                                     launch.getGridSize().x);
  kb.setInsertionPoint(tileLoop.getBody()->getTerminator());
  SmallVector<OpFoldResult> basis;
  for (Value v : tileBasis)
    basis.push_back(getAsOpFoldResult(v));
  auto delin = affine::AffineDelinearizeIndexOp::create(
      kb, loc, tileLoop.getInductionVar(), basis, /*hasOuterBound=*/true);
  unsigned nb = loops.batch.size();
  SmallVector<Value> baseIvs(sizes.size());
  for (auto [j, l] : llvm::enumerate(loops.batch))
    baseIvs[l] = delin.getResult(j);
  Value rowBase = arith::MulIOp::create(kb, loc, delin.getResult(nb),
                                        indexConst(kb, loc, bm));
  Value colBase = arith::MulIOp::create(kb, loc, delin.getResult(nb + 1),
                                        indexConst(kb, loc, bn));

  // The output element of register (i, j): row ty + i*TY, column tx + j*TX
  // of the tile, so a warp's stores to one register index coalesce.
  auto outputAt = [&](OpBuilder &ob, int64_t i, int64_t j) {
    Value row = arith::AddIOp::create(
        ob, loc, rowBase,
        arith::AddIOp::create(ob, loc, tidY, indexConst(ob, loc, i * ty)));
    Value col = arith::AddIOp::create(
        ob, loc, colBase,
        arith::AddIOp::create(ob, loc, tidX, indexConst(ob, loc, j * tx)));
    SmallVector<Value> ivs(baseIvs);
    ivs[loops.m] = row;
    ivs[loops.n] = col;
    Value inside =
        andI(ob, loc, ult(ob, loc, row, sizeM), ult(ob, loc, col, sizeN));
    return std::make_pair(ivs, inside);
  };
  auto accIndex = [&](OpBuilder &ob, int64_t i, int64_t j) {
    return SmallVector<Value>{indexConst(ob, loc, i), indexConst(ob, loc, j)};
  };

  // Accumulators start from the output's value (linalg semantics).
  for (int64_t i = 0; i < tm; ++i)
    for (int64_t j = 0; j < tn; ++j) {
      auto [ivs, inside] = outputAt(kb, i, j);
      Value init = guardedLoad(kb, loc, inside, memC, mapC, ivs, elemC);
      memref::StoreOp::create(kb, loc, init, acc, accIndex(kb, i, j));
    }

  Value bkValue = indexConst(kb, loc, bk);
  auto kLoop =
      scf::ForOp::create(kb, loc, indexConst(kb, loc, 0), sizeK, bkValue);
  kb.setInsertionPoint(kLoop.getBody()->getTerminator());
  Value k0 = kLoop.getInductionVar();
  Value tid = arith::AddIOp::create(
      kb, loc, arith::MulIOp::create(kb, loc, tidY, indexConst(kb, loc, tx)),
      tidX);

  // Cooperative load of a BK x rows tile of `operand` (rows along
  // `rowLoop` from `base`), zero outside the operand.
  auto stage = [&](OpOperand &operand, AffineMap map, Value shared,
                   unsigned rowLoop, int64_t rows, Value base, Value rowSize,
                   bool kFast, Type elem) {
    int64_t elements = rows * bk;
    for (int64_t turn = 0; turn * threads < elements; ++turn) {
      OpBuilder sb = kb;
      Value e = arith::AddIOp::create(sb, loc, tid,
                                      indexConst(sb, loc, turn * threads));
      if ((turn + 1) * threads > elements) {
        auto guard = scf::IfOp::create(
            sb, loc, ult(sb, loc, e, indexConst(sb, loc, elements)),
            /*withElseRegion=*/false);
        sb.setInsertionPoint(guard.thenBlock()->getTerminator());
      }
      Value fastExtent = indexConst(sb, loc, kFast ? bk : rows);
      Value slow = arith::DivUIOp::create(sb, loc, e, fastExtent);
      Value fast = arith::RemUIOp::create(sb, loc, e, fastExtent);
      Value kk = kFast ? fast : slow, rr = kFast ? slow : fast;
      SmallVector<Value> ivs(baseIvs);
      ivs[rowLoop] = arith::AddIOp::create(sb, loc, base, rr);
      ivs[loops.k] = arith::AddIOp::create(sb, loc, k0, kk);
      Value inside = andI(sb, loc, ult(sb, loc, ivs[rowLoop], rowSize),
                          ult(sb, loc, ivs[loops.k], sizeK));
      Value v = guardedLoad(sb, loc, inside, operand.get(), map, ivs, elem);
      memref::StoreOp::create(sb, loc, v, shared, ValueRange{kk, rr});
    }
  };
  stage(opA, mapA, sharedA, loops.m, bm, rowBase, sizeM, aKFast, elemA);
  stage(opB, mapB, sharedB, loops.n, bn, colBase, sizeN, bKFast, elemB);
  gpu::BarrierOp::create(kb, loc);

  // Compute on the staged tiles: the accumulators in registers (iter_args)
  // over kk, the payload applied in k order as linalg does.
  auto compute = [&](OpBuilder &cb, Value kEnd) {
    SmallVector<Value> init;
    for (int64_t i = 0; i < tm; ++i)
      for (int64_t j = 0; j < tn; ++j)
        init.push_back(
            memref::LoadOp::create(cb, loc, acc, accIndex(cb, i, j)));
    auto inner = scf::ForOp::create(
        cb, loc, indexConst(cb, loc, 0), kEnd, indexConst(cb, loc, 1), init,
        [&](OpBuilder &ib, Location, Value kk, ValueRange carried) {
          SmallVector<Value> as, bs, next;
          for (int64_t i = 0; i < tm; ++i) {
            Value r = arith::AddIOp::create(ib, loc, tidY,
                                            indexConst(ib, loc, i * ty));
            as.push_back(
                memref::LoadOp::create(ib, loc, sharedA, ValueRange{kk, r}));
          }
          for (int64_t j = 0; j < tn; ++j) {
            Value c = arith::AddIOp::create(ib, loc, tidX,
                                            indexConst(ib, loc, j * tx));
            bs.push_back(
                memref::LoadOp::create(ib, loc, sharedB, ValueRange{kk, c}));
          }
          for (int64_t i = 0; i < tm; ++i)
            for (int64_t j = 0; j < tn; ++j)
              next.push_back(clonePayload(
                  ib, op, {as[i], bs[j], carried[i * tn + j]}, {})[0]);
          scf::YieldOp::create(ib, loc, next);
        });
    for (int64_t i = 0; i < tm; ++i)
      for (int64_t j = 0; j < tn; ++j)
        memref::StoreOp::create(cb, loc, inner.getResult(i * tn + j), acc,
                                accIndex(cb, i, j));
  };
  if (!ShapedType::isDynamic(staticK) && staticK % bk == 0) {
    compute(kb, bkValue);
  } else {
    // A full step has a constant trip count (unrolled by LLVM); only the
    // last step of a K that is not a multiple of BK is shorter.
    Value left = arith::SubIOp::create(kb, loc, sizeK, k0);
    Value full = arith::CmpIOp::create(kb, loc, arith::CmpIPredicate::uge, left,
                                       bkValue);
    scf::IfOp::create(
        kb, loc, full,
        [&](OpBuilder &tb, Location l) {
          compute(tb, bkValue);
          scf::YieldOp::create(tb, l);
        },
        [&](OpBuilder &eb, Location l) {
          compute(eb, left);
          scf::YieldOp::create(eb, l);
        });
  }
  gpu::BarrierOp::create(kb, loc);

  // Store the register tile, guarded at the edges.
  kb.setInsertionPointAfter(kLoop);
  for (int64_t i = 0; i < tm; ++i)
    for (int64_t j = 0; j < tn; ++j) {
      auto [ivs, inside] = outputAt(kb, i, j);
      auto guard = scf::IfOp::create(kb, loc, inside, /*withElseRegion=*/false);
      OpBuilder gb(guard.thenBlock()->getTerminator());
      Value v = memref::LoadOp::create(gb, loc, acc, accIndex(gb, i, j));
      memref::StoreOp::create(gb, loc, v, memC, applyMap(gb, loc, mapC, ivs));
    }
  op.erase();
}
