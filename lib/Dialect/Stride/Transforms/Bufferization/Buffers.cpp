//===- Buffers.cpp - Buffer types, sizes and allocations for kernels ------===//

#include "Kernels.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::stride;

MemRefType mlir::stride::memrefTypeFor(RankedTensorType type) {
  SmallVector<int64_t> strides = getStridesOf(type);
  auto layoutAttr = StridedLayoutAttr::get(type.getContext(),
                                           ShapedType::kDynamic, strides);
  return MemRefType::get(type.getShape(), type.getElementType(), layoutAttr);
}

OpFoldResult mlir::stride::broadcastStride(IndexMath &math,
                                           const StridedMetadata &meta,
                                           int64_t d) {
  std::optional<int64_t> stride = getConstantIntValue(meta.strides[d]);
  if (stride && *stride < 0 && !getConstantIntValue(meta.sizes[d]))
    return meta.strides[d];
  return math.selectIfOne(meta.sizes[d], math.constant(0), meta.strides[d]);
}

SmallVector<OpFoldResult> KernelBuilder::sizesOf(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<OpFoldResult> sizes;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    if (type.isDynamicDim(i))
      sizes.push_back(
          memref::DimOp::create(b, memref.getLoc(), memref, i).getResult());
    else
      sizes.push_back(b.getIndexAttr(type.getDimSize(i)));
  }
  return sizes;
}

SmallVector<OpFoldResult>
KernelBuilder::broadcastSizes(Location loc, RankedTensorType resultType,
                              ValueRange operands) {
  IndexMath math(b, loc);
  int64_t rank = resultType.getRank();
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < rank; ++d) {
    if (!resultType.isDynamicDim(d)) {
      sizes.push_back(b.getIndexAttr(resultType.getDimSize(d)));
      continue;
    }
    // The run-time size is the operands' size that is not 1 (the shape
    // checks guarantee they agree), or 1.
    OpFoldResult size = math.constant(1);
    for (Value operand : operands) {
      auto type = dyn_cast<MemRefType>(operand.getType());
      if (!type || d - (rank - type.getRank()) < 0)
        continue;
      int64_t own = d - (rank - type.getRank());
      OpFoldResult s =
          type.isDynamicDim(own)
              ? OpFoldResult(
                    memref::DimOp::create(b, operand.getLoc(), operand, own)
                        .getResult())
              : OpFoldResult(b.getIndexAttr(type.getDimSize(own)));
      size = math.selectIfOne(s, size, s);
    }
    sizes.push_back(size);
  }
  return sizes;
}

Value KernelBuilder::allocate(Location loc, RankedTensorType type,
                              ArrayRef<OpFoldResult> sizes, Value *alloc) {
  IndexMath math(b, loc);
  MemRefType target = memrefTypeFor(type);
  SmallVector<int64_t> staticStrides = getStridesOf(type);
  // Dense in the layout's dimension order: strides from the sizes.
  LayoutAttr layoutAttr = getLayout(type);
  SmallVector<int64_t> order;
  if (layoutAttr)
    order = layoutAttr.getDimOrder(type.getShape());
  else
    for (int64_t i = 0; i < type.getRank(); ++i)
      order.push_back(i);
  SmallVector<OpFoldResult> strides(type.getRank());
  OpFoldResult running = math.constant(1);
  bool gapped = false;
  for (int64_t d : llvm::reverse(order)) {
    std::optional<int64_t> size = getConstantIntValue(sizes[d]);
    std::optional<int64_t> dense = getConstantIntValue(running);
    if (ShapedType::isDynamic(staticStrides[d])) {
      strides[d] = running;
    } else {
      strides[d] = b.getIndexAttr(staticStrides[d]);
      gapped |= !(size && *size == 1) && dense != staticStrides[d];
    }
    OpFoldResult extent =
        math.selectIfOne(sizes[d], math.constant(1), sizes[d]);
    // A size-0 dim still advances the running stride by one.
    if (size)
      extent = math.constant(std::max<int64_t>(*size, 1));
    running = math.mul(running, extent);
  }
  // `running` now counts the dense elements (at least 1).
  OpFoldResult count = running, offset = math.constant(0);
  if (gapped) {
    // The layout's strides leave gaps (a view's layout, kept by a copy of
    // the view): allocate the span they address, from the lowest element
    // (negative strides) to the highest. The gaps are never touched.
    OpFoldResult high = math.constant(0), low = math.constant(0);
    for (int64_t d = 0; d < type.getRank(); ++d) {
      OpFoldResult reach;
      if (std::optional<int64_t> size = getConstantIntValue(sizes[d])) {
        reach = math.constant(std::max<int64_t>(*size - 1, 0));
      } else {
        Value dynamicSize = math.value(sizes[d]);
        Value one = arith::ConstantIndexOp::create(b, loc, 1);
        Value zero = arith::ConstantIndexOp::create(b, loc, 0);
        reach =
            arith::MaxSIOp::create(
                b, loc, arith::SubIOp::create(b, loc, dynamicSize, one), zero)
                .getResult();
      }
      std::optional<int64_t> stride = getConstantIntValue(strides[d]);
      if (stride && *stride < 0)
        low = math.add(low, math.mul(reach, math.constant(-*stride)));
      else
        high = math.add(high, math.mul(reach, strides[d]));
    }
    count = math.add(math.add(high, low), math.constant(1));
    offset = low;
  }
  auto flatType = MemRefType::get({ShapedType::kDynamic}, type.getElementType());
  Value flat = memref::AllocOp::create(
      b, loc, flatType, ValueRange{math.value(count)}, b.getI64IntegerAttr(64));
  if (alloc)
    *alloc = flat;
  Value view =
      memref::ReinterpretCastOp::create(b, loc, flat, offset, sizes, strides);
  return memref::CastOp::create(b, loc, target, view);
}

Value mlir::stride::inOperandLayout(OpBuilder &b, Location loc,
                                    RankedTensorType type, Value buffer) {
  // Only One-Shot's copies: an identity layout where the tensor's layout
  // is another one.
  auto have = cast<MemRefType>(buffer.getType());
  if (!have.getLayout().isIdentity() || !type.hasStaticShape())
    return buffer;
  if (!getLayout(type))
    return buffer; // row-major: the identity layout itself
  SmallVector<int64_t> declared = getStridesOf(type);
  if (llvm::any_of(declared, ShapedType::isDynamic))
    return buffer; // the layout does not fix the strides
  bool identity = true;
  SmallVector<int64_t> rowMajor(type.getRank(), 1);
  for (int64_t d = type.getRank() - 2; d >= 0; --d)
    rowMajor[d] =
        rowMajor[d + 1] * std::max<int64_t>(type.getDimSize(d + 1), 1);
  for (int64_t d = 0; d < type.getRank(); ++d)
    identity &= type.getDimSize(d) == 1 || declared[d] == rowMajor[d];
  if (identity)
    return buffer;
  return copyInLayout(b, loc, type, buffer);
}

Value mlir::stride::copyInLayout(OpBuilder &b, Location loc,
                                 RankedTensorType type, Value buffer) {
  KernelBuilder kernels(b, /*threads=*/1);
  Value copy = kernels.allocate(loc, type, kernels.sizesOf(buffer));
  linalg::CopyOp::create(b, loc, buffer, copy);
  return copy;
}
