//===- Kernels.h - Stride ops as linalg kernels on buffers ------*- C++ -*-===//
//
// The buffer-level half of the Stride lowering, used by the bufferization
// models (BufferizableOpInterfaceImpl.cpp): given the buffers of a Stride
// op's operands and destinations, emit the linalg kernel that computes it.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_LIB_DIALECT_STRIDE_TRANSFORMS_BUFFERIZATION_KERNELS_H
#define STRIDE_LIB_DIALECT_STRIDE_TRANSFORMS_BUFFERIZATION_KERNELS_H

#include "Views.h"

#include "stride/Dialect/Stride/IR/StrideOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::stride {

/// A kernel (or a row loop) runs on several threads only when one thread
/// would take long enough to amortize OpenMP's fork/join (microseconds on
/// idle cores, much more when a core is busy with another process): when it
/// moves at least this many bytes, about 100 us of memory traffic on one
/// core.
constexpr int64_t kMinParallelBytes = 2 << 20;
/// A matrix product (one, not a batch) runs on several threads from this
/// many operations (a multiply and an add per point): its micro-kernel does
/// about 16 of them a cycle, so 2^21 is some 40 us on one core of the
/// project's AMD EPYC, where f64 100^3 ran 1.6x faster on two threads
/// (128^3: 1.8x). Batches of small products keep the elementwise rule
/// (docs/performance.md, "Threads").
constexpr int64_t kMinParallelMatmulOps = 1 << 21;

/// Bytes of the distinct elements a memref view holds (stride-0 dims count
/// once, a dynamic size as kMinParallelBytes); 0 for a scalar.
int64_t viewBytes(Value operand);

/// The memref a tensor of type `type` lives in: its layout's strides (dynamic
/// where unknown) and a dynamic offset, so that any view can be passed.
MemRefType memrefTypeFor(RankedTensorType type);

/// `buffer` itself, or, where it has the identity layout but its tensor
/// type has another layout with static strides (a permutation, or a view
/// with gaps), a copy of it in that layout. One-Shot Bufferize copies a
/// value it cannot share (an operand written in place elsewhere) into an
/// identity-layout allocation whatever the tensor's encoding, while views
/// and the entries' result copies read a tensor's buffer with the
/// encoding's strides.
Value inOperandLayout(OpBuilder &b, Location loc, RankedTensorType type,
                      Value buffer);

/// A copy of `buffer` in a new allocation laid out as `type` says.
Value copyInLayout(OpBuilder &b, Location loc, RankedTensorType type,
                   Value buffer);

/// The stride dim `d` of a view contributes where it is broadcast against a
/// larger size: 0 if the dim has size 1 (at run time, for a dynamic size).
/// A negative stride stays visible, so that makeView flips it or refuses.
OpFoldResult broadcastStride(IndexMath &math, const StridedMetadata &meta,
                             int64_t d);

/// Emits kernels at the builder's insertion point.
class KernelBuilder {
public:
  KernelBuilder(OpBuilder &b, unsigned threads) : b(b), threads(threads) {}

  /// Sizes of a memref: constants where static, memref.dim otherwise.
  SmallVector<OpFoldResult> sizesOf(Value memref);
  /// Sizes of the broadcast of `operands` (memrefs or scalars), right-aligned.
  SmallVector<OpFoldResult> broadcastSizes(Location loc,
                                           RankedTensorType resultType,
                                           ValueRange operands);
  /// A new buffer for a tensor of `type` with run-time `sizes`, dense in the
  /// type's layout: a flat 64-byte aligned memref.alloc (returned in `alloc`)
  /// viewed as `memrefTypeFor(type)`.
  Value allocate(Location loc, RankedTensorType type,
                 ArrayRef<OpFoldResult> sizes, Value *alloc = nullptr);

  /// `stride.broadcast` as one linalg.generic (or a threaded set of them)
  /// reading `inputs` (memrefs or scalars) and writing `dests`, whose common
  /// sizes are `sizes`. Errors are reported on `op`.
  LogicalResult emitBroadcast(BroadcastOp op, ValueRange inputs,
                              ValueRange dests, ArrayRef<OpFoldResult> sizes);

  /// `stride.matmul` of buffers `lhs` and `rhs` as linalg.fill plus a
  /// linalg.generic; `makeDest` gets the result's run-time sizes and returns
  /// the buffer to write.
  LogicalResult
  emitMatmul(MatmulOp op, Value lhs, Value rhs,
             function_ref<Value(ArrayRef<OpFoldResult>)> makeDest);

  /// A reduction (sum ... all, see ReduceKind) of buffer `input` as
  /// linalg.fill plus a linalg.generic with reduction iterators (see
  /// Reduce.cpp); `makeDest` gets the result's run-time sizes and returns
  /// the buffer to write.
  LogicalResult
  emitReduce(Operation *op, Value input,
             function_ref<Value(ArrayRef<OpFoldResult>)> makeDest);
  /// `stride.map_reduce` of `inputs` (memrefs or scalars): the same kernels
  /// as emitReduce, reading every input (broadcast to `mapped`'s shape) and
  /// applying the op's body before each accumulation step.
  LogicalResult
  emitMapReduce(MapReduceOp op, ValueRange inputs,
                function_ref<Value(ArrayRef<OpFoldResult>)> makeDest);

private:
  /// A large dot product of two vectors as one run per thread into its own
  /// partial sum (see Matmul.cpp); fails, emitting nothing, for any other
  /// product or without threads.
  LogicalResult emitSplitDot(
      MatmulOp op, Value lhs, Value rhs, const StridedMetadata &l,
      const StridedMetadata &r, ArrayRef<ViewDim> lhsDims,
      ArrayRef<ViewDim> rhsDims, Value dest, const StridedMetadata &o,
      ArrayRef<utils::IteratorType> iterators,
      function_ref<void(OpBuilder &, Location, ValueRange)> multiplyAdd);
  /// argmax, argmin, max or min (`kind`) of float buffer `input` (`in` its
  /// metadata) over its `reduced` dims, which must trail the kept ones and
  /// be row-major contiguous, into `dest`, by block maxima (BlockMaxima.cpp);
  /// fails, emitting nothing, for other inputs and for short rows.
  LogicalResult emitBlockMaxima(Operation *op, ReduceKind kind, Value input,
                                const StridedMetadata &in,
                                ArrayRef<bool> reduced, bool keepdims,
                                Value dest);
  LogicalResult
  emitReduction(Operation *op, ReduceKind kind, RankedTensorType inputType,
                ValueRange sources, Block *map,
                function_ref<Value(ArrayRef<OpFoldResult>)> makeDest);
  /// Emits the kernel's linalg.generic, in `threads` chunks of its first loop
  /// when that pays off (see stride-bufferize's description): it moves at
  /// least kMinParallelBytes or does at least `minOps` operations (0: the
  /// default for elementwise kernels, Parallel.cpp); `attrs` are set on each
  /// generic emitted.
  void emitGeneric(Location loc, ValueRange inputs, ValueRange outputs,
                   ArrayRef<AffineMap> maps,
                   ArrayRef<utils::IteratorType> iterators,
                   function_ref<void(OpBuilder &, Location, ValueRange)> body,
                   ArrayRef<NamedAttribute> attrs = {}, int64_t minOps = 0);

  OpBuilder &b;
  unsigned threads;
};

} // namespace mlir::stride

#endif // STRIDE_LIB_DIALECT_STRIDE_TRANSFORMS_BUFFERIZATION_KERNELS_H
