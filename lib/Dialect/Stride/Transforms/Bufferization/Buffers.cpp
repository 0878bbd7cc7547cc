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
  for (int64_t d : llvm::reverse(order)) {
    strides[d] = ShapedType::isDynamic(staticStrides[d])
                     ? running
                     : OpFoldResult(b.getIndexAttr(staticStrides[d]));
    OpFoldResult size = math.selectIfOne(sizes[d], math.constant(1), sizes[d]);
    // A size-0 dim still advances the running stride by one.
    if (std::optional<int64_t> c = getConstantIntValue(sizes[d]))
      size = math.constant(std::max<int64_t>(*c, 1));
    running = math.mul(running, size);
  }
  // `running` now counts the dense elements (at least 1).
  auto flatType = MemRefType::get({ShapedType::kDynamic}, type.getElementType());
  Value flat = memref::AllocOp::create(b, loc, flatType,
                                       ValueRange{math.value(running)},
                                       b.getI64IntegerAttr(64));
  if (alloc)
    *alloc = flat;
  Value view = memref::ReinterpretCastOp::create(b, loc, flat,
                                                 math.constant(0), sizes,
                                                 strides);
  return memref::CastOp::create(b, loc, target, view);
}

Value mlir::stride::inOperandLayout(OpBuilder &b, Location loc,
                                    RankedTensorType type, Value buffer) {
  // Only One-Shot's copies: an identity layout where the tensor's layout
  // is another dense one (a strided view's gaps are never copied so).
  auto have = cast<MemRefType>(buffer.getType());
  if (!have.getLayout().isIdentity() || !type.hasStaticShape())
    return buffer;
  SmallVector<int64_t> declared = getStridesOf(type);
  SmallVector<int64_t> order;
  if (LayoutAttr layout = getLayout(type))
    order = layout.getDimOrder(type.getShape());
  else
    return buffer; // row-major: the identity layout itself
  int64_t dense = 1;
  bool identity = true;
  for (int64_t d : llvm::reverse(order)) {
    int64_t size = type.getDimSize(d);
    if (size != 1 && declared[d] != dense)
      return buffer; // not a dense layout (or unknown strides)
    dense *= std::max<int64_t>(size, 1);
  }
  SmallVector<int64_t> rowMajor(type.getRank(), 1);
  for (int64_t d = type.getRank() - 2; d >= 0; --d)
    rowMajor[d] =
        rowMajor[d + 1] * std::max<int64_t>(type.getDimSize(d + 1), 1);
  for (int64_t d = 0; d < type.getRank(); ++d)
    identity &= type.getDimSize(d) == 1 || declared[d] == rowMajor[d];
  if (identity)
    return buffer;
  KernelBuilder kernels(b, /*threads=*/1);
  Value copy = kernels.allocate(loc, type, kernels.sizesOf(buffer));
  linalg::CopyOp::create(b, loc, buffer, copy);
  return copy;
}
