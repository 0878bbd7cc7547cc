//===- GenericPayload.h - Reading a linalg.generic inside a kernel --------===//
//
// Shared by the grid-stride and the tiled-matmul mappings: operand indices
// from an indexing map and the generic's payload cloned at given values.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_LIB_CONVERSION_LINALGTOGPU_GENERICPAYLOAD_H
#define STRIDE_LIB_CONVERSION_LINALGTOGPU_GENERICPAYLOAD_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::stride::gpu_mapping {

inline Value indexConst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// The size of each of `op`'s loops at `b` (constants where static).
inline SmallVector<Value> loopSizes(OpBuilder &b, Location loc,
                                    linalg::GenericOp op) {
  SmallVector<Value> sizes;
  for (Range r :
       cast<linalg::LinalgOp>(op.getOperation()).createLoopRanges(b, loc))
    sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, r.size));
  return sizes;
}

/// Splits `linear` into the indices of `loops` (slowest first) in `ivs`.
inline void delinearize(OpBuilder &b, Location loc, Value linear,
                        ArrayRef<unsigned> loops, ArrayRef<Value> sizes,
                        SmallVectorImpl<Value> &ivs) {
  if (loops.empty())
    return;
  if (loops.size() == 1) {
    ivs[loops[0]] = linear;
    return;
  }
  SmallVector<OpFoldResult> basis;
  for (unsigned l : loops)
    basis.push_back(getAsOpFoldResult(sizes[l]));
  auto split = affine::AffineDelinearizeIndexOp::create(b, loc, linear, basis,
                                                        /*hasOuterBound=*/true);
  for (auto [k, l] : llvm::enumerate(loops))
    ivs[l] = split.getResult(k);
}

/// The indices of `map` for loop values `ivs` (entries of loops that `map`
/// does not use may be null).
inline SmallVector<Value> applyMap(OpBuilder &b, Location loc, AffineMap map,
                                   ArrayRef<Value> ivs) {
  SmallVector<Value> indices;
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      indices.push_back(ivs[dim.getPosition()]);
    } else if (auto cst = dyn_cast<AffineConstantExpr>(expr)) {
      indices.push_back(indexConst(b, loc, cst.getValue()));
    } else {
      // A mirrored (negative-stride) index such as `size - 1 - d`: only the
      // dims it uses must be set; the others get a dummy zero.
      AffineMap one = AffineMap::get(map.getNumDims(), map.getNumSymbols(),
                                     expr, b.getContext());
      SmallVector<Value> operands(ivs);
      for (Value &v : operands)
        if (!v)
          v = indexConst(b, loc, 0);
      indices.push_back(affine::AffineApplyOp::create(b, loc, one, operands));
    }
  }
  return indices;
}

/// Clones the payload of `op` with block arguments `args` and loop values
/// `ivs`; returns the yielded values.
inline SmallVector<Value> clonePayload(OpBuilder &b, linalg::GenericOp op,
                                       ArrayRef<Value> args,
                                       ArrayRef<Value> ivs) {
  IRMapping mapping;
  Block &body = op.getRegion().front();
  for (auto [arg, v] : llvm::zip(body.getArguments(), args))
    if (v) // null: an output the payload does not read
      mapping.map(arg, v);
  for (Operation &inner : body.without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      mapping.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    b.clone(inner, mapping);
  }
  SmallVector<Value> yielded;
  for (Value v : body.getTerminator()->getOperands())
    yielded.push_back(mapping.lookupOrDefault(v));
  return yielded;
}

} // namespace mlir::stride::gpu_mapping

#endif // STRIDE_LIB_CONVERSION_LINALGTOGPU_GENERICPAYLOAD_H
