//===- Views.h - Strided views for the Stride lowering ----------*- C++ -*-===//
//
// The lowering never copies an operand: it reinterprets each one as a memref
// whose dims are the loops of the kernel. These helpers build such views from
// per-loop (size, stride) pairs that may be static or run-time values.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_LIB_DIALECT_STRIDE_TRANSFORMS_BUFFERIZATION_VIEWS_H
#define STRIDE_LIB_DIALECT_STRIDE_TRANSFORMS_BUFFERIZATION_VIEWS_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Builders.h"

namespace mlir::stride {

/// Index arithmetic on values that may be constants, folding when both are.
class IndexMath {
public:
  IndexMath(OpBuilder &b, Location loc) : b(b), loc(loc) {}
  OpFoldResult mul(OpFoldResult x, OpFoldResult y);
  OpFoldResult add(OpFoldResult x, OpFoldResult y);
  /// `size == 1 ? whenOne : otherwise`.
  OpFoldResult selectIfOne(OpFoldResult size, OpFoldResult whenOne,
                           OpFoldResult otherwise);
  Value value(OpFoldResult x);
  OpFoldResult constant(int64_t v) { return b.getIndexAttr(v); }

private:
  OpBuilder &b;
  Location loc;
};

/// Offset, sizes and strides of a strided memref value: constants where its
/// type knows them, extracted at run time otherwise.
struct StridedMetadata {
  OpFoldResult offset;
  SmallVector<OpFoldResult> sizes, strides;
};
StridedMetadata getStridedMetadata(OpBuilder &b, Location loc, Value memref);

/// One dim of a view: `size` elements `stride` apart, walked by `loop`.
struct ViewDim {
  OpFoldResult size;
  OpFoldResult stride;
  unsigned loop;
};

/// A view of a memref and the affine expression, per view dim, of the loop
/// index that addresses it.
struct LoopView {
  Value view;
  SmallVector<AffineExpr> exprs;
};

/// Reinterprets `source` (whose first element is at `offset`) as the view
/// `dims`. A dim with a negative static stride is flipped: the view starts at
/// its last element with the positive stride and the loop index is mirrored,
/// because memref-to-LLVM index arithmetic assumes non-negative offsets.
/// Fails if a negative stride meets a dynamic size.
FailureOr<LoopView> makeView(OpBuilder &b, Location loc, Value source,
                             OpFoldResult offset, ArrayRef<ViewDim> dims);

/// linalg needs every loop as a plain index in some operand's map. A loop
/// that appears only mirrored (every view along it reversed by makeView) is
/// walked forwards in every map instead; valid where the loop's order is
/// free (parallel loops, or the commutative combiners of a reduction), and
/// each element is still visited once.
void plainLoopIndices(MutableArrayRef<AffineMap> maps, unsigned numLoops,
                      MLIRContext *context);

/// Clones the ops of a scalar body (stride.broadcast's, stride.map_reduce's)
/// at `b` with its arguments bound to `args`; returns the values its
/// terminator yields.
SmallVector<Value> cloneScalarBody(OpBuilder &b, Block &body, ValueRange args);

} // namespace mlir::stride

#endif // STRIDE_LIB_DIALECT_STRIDE_TRANSFORMS_BUFFERIZATION_VIEWS_H
