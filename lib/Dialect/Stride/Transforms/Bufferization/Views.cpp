//===- Views.cpp - Strided views for the Stride lowering ------------------===//

#include "Views.h"

#include "mlir/IR/IRMapping.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::stride;

Value IndexMath::value(OpFoldResult x) {
  if (auto v = dyn_cast<Value>(x))
    return v;
  return arith::ConstantIndexOp::create(b, loc, *getConstantIntValue(x));
}

OpFoldResult IndexMath::mul(OpFoldResult x, OpFoldResult y) {
  std::optional<int64_t> cx = getConstantIntValue(x), cy = getConstantIntValue(y);
  if (cx && cy)
    return constant(*cx * *cy);
  if ((cx && *cx == 1) || (cy && *cy == 0))
    return y;
  if ((cy && *cy == 1) || (cx && *cx == 0))
    return x;
  return arith::MulIOp::create(b, loc, value(x), value(y)).getResult();
}

OpFoldResult IndexMath::add(OpFoldResult x, OpFoldResult y) {
  std::optional<int64_t> cx = getConstantIntValue(x), cy = getConstantIntValue(y);
  if (cx && cy)
    return constant(*cx + *cy);
  if (cx && *cx == 0)
    return y;
  if (cy && *cy == 0)
    return x;
  return arith::AddIOp::create(b, loc, value(x), value(y)).getResult();
}

OpFoldResult IndexMath::selectIfOne(OpFoldResult size, OpFoldResult whenOne,
                                    OpFoldResult otherwise) {
  if (std::optional<int64_t> c = getConstantIntValue(size))
    return *c == 1 ? whenOne : otherwise;
  Value isOne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      value(size), value(constant(1)));
  return arith::SelectOp::create(b, loc, isOne, value(whenOne),
                                 value(otherwise))
      .getResult();
}

StridedMetadata mlir::stride::getStridedMetadata(OpBuilder &b, Location loc,
                                                 Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  auto [strides, offset] = type.getStridesAndOffset();
  StridedMetadata result;
  bool needsRuntime = ShapedType::isDynamic(offset) ||
                      llvm::any_of(strides, ShapedType::isDynamic) ||
                      !type.hasStaticShape();
  memref::ExtractStridedMetadataOp extracted;
  if (needsRuntime)
    extracted = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  result.offset = ShapedType::isDynamic(offset)
                      ? OpFoldResult(extracted.getOffset())
                      : OpFoldResult(b.getIndexAttr(offset));
  for (int64_t i = 0; i < type.getRank(); ++i) {
    result.sizes.push_back(type.isDynamicDim(i)
                               ? OpFoldResult(extracted.getSizes()[i])
                               : OpFoldResult(b.getIndexAttr(type.getDimSize(i))));
    result.strides.push_back(ShapedType::isDynamic(strides[i])
                                 ? OpFoldResult(extracted.getStrides()[i])
                                 : OpFoldResult(b.getIndexAttr(strides[i])));
  }
  return result;
}

FailureOr<LoopView> mlir::stride::makeView(OpBuilder &b, Location loc,
                                           Value source, OpFoldResult offset,
                                           ArrayRef<ViewDim> dims) {
  IndexMath math(b, loc);
  LoopView result;
  SmallVector<OpFoldResult> sizes, strides;
  for (const ViewDim &dim : dims) {
    AffineExpr index = b.getAffineDimExpr(dim.loop);
    std::optional<int64_t> stride = getConstantIntValue(dim.stride);
    if (stride && *stride < 0) {
      std::optional<int64_t> size = getConstantIntValue(dim.size);
      if (!size)
        return failure();
      // Start at the last element and walk back with a positive stride.
      if (*size > 0)
        offset = math.add(offset, math.constant((*size - 1) * *stride));
      sizes.push_back(dim.size);
      strides.push_back(math.constant(-*stride));
      result.exprs.push_back(b.getAffineConstantExpr(*size - 1) - index);
      continue;
    }
    sizes.push_back(dim.size);
    strides.push_back(dim.stride);
    result.exprs.push_back(index);
  }
  result.view =
      memref::ReinterpretCastOp::create(b, loc, source, offset, sizes, strides);
  return result;
}

void mlir::stride::plainLoopIndices(MutableArrayRef<AffineMap> maps,
                                    unsigned numLoops, MLIRContext *context) {
  for (unsigned loop = 0; loop < numLoops; ++loop) {
    AffineExpr index = getAffineDimExpr(loop, context);
    bool plain = false;
    for (AffineMap map : maps)
      plain |= llvm::is_contained(map.getResults(), index);
    if (plain)
      continue;
    for (AffineMap &map : maps) {
      SmallVector<AffineExpr> exprs(map.getResults());
      for (AffineExpr &e : exprs)
        if (e.isFunctionOfDim(loop))
          e = index;
      map = AffineMap::get(numLoops, 0, exprs, context);
    }
  }
}

SmallVector<Value> mlir::stride::cloneScalarBody(OpBuilder &b, Block &body,
                                                 ValueRange args) {
  IRMapping mapping;
  for (auto [arg, value] : llvm::zip(body.getArguments(), args))
    mapping.map(arg, value);
  for (Operation &op : body.without_terminator())
    b.clone(op, mapping);
  SmallVector<Value> yielded;
  for (Value v : body.getTerminator()->getOperands())
    yielded.push_back(mapping.lookupOrDefault(v));
  return yielded;
}
