//===- Passes.td - Stride conversion passes ----------------*- tablegen -*-===//

#ifndef STRIDE_CONVERSION_PASSES_TD
#define STRIDE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertStrideToLinalg : Pass<"convert-stride-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lower Stride ops on tensors to linalg.generic on strided memrefs";
  let description = [{
    Rewrites every function that uses Stride ops into destination-passing
    style on memrefs:

    - Each tensor argument becomes a memref with the argument's layout as a
      `strided<[...], offset: ?>` layout (dynamic strides where unknown), so a
      caller passes any view (slice, permutation, broadcast zeros) without a
      copy. Each tensor result becomes an extra trailing argument, a memref in
      the result's propagated layout that the caller allocates; the function
      returns nothing. The attribute `stride.num_outputs` on the function says
      how many trailing arguments are outputs.
    - `stride.broadcast` becomes one `linalg.generic` over its iteration space:
      the loops of its `iteration` attribute (from `stride-coalesce`; otherwise
      one loop per dim in the result's memory order). Every operand is viewed
      with `memref.reinterpret_cast` as a memref of the loop rank whose strides
      are the operand's strides for those loops, 0 for broadcast dims; a dim
      of dynamic size that is 1 at run time gets stride 0 by an `arith.select`.
      Nothing is materialized.
    - `stride.matmul` becomes `linalg.fill` plus a `linalg.generic` with loops
      (batch..., m, k, n) — n innermost, so that the inner loop walks rows of
      the rhs and the output and vectorizes; broadcast batch dims and promoted
      1-D operands are views with stride 0 (burn#1679), never copies.
    - Results that are returned are computed directly into the output
      arguments; other intermediates get `memref.alloc` in their propagated
      layout and `memref.dealloc` before the return.

    Negative strides are never handed to the memref-to-LLVM lowering (its index
    arithmetic is `nuw` and its GEPs `inbounds`): a loop along which a view has
    a negative stride reads it flipped, as NumPy does — the view's offset moves
    to the last element, its stride becomes positive and the loop index is
    mirrored in the indexing map. This needs the loop's size to be static; a
    negative stride along a dynamic dim is a diagnostic. Destinations may be
    reversed too; a loop that appears only mirrored (in every operand) is
    walked backwards instead, as linalg needs each loop as a plain index
    somewhere and elementwise loops may run in any order. A destination with
    a stride-0 dim (that would write one element several times) is refused.

    With `threads=N` (N > 1), a kernel whose first loop is parallel, a plain
    index in every view that has it, and whose iteration space has at least
    65536 points is split into N chunks of that loop under an `scf.parallel`
    (each chunk a `linalg.generic` on subviews), for `convert-scf-to-openmp`.

    Named elementwise ops must have been generalized first
    (`stride-generalize`).
  }];
  let options = [
    Option<"threads", "threads", "unsigned", /*default=*/"1",
           "Split large kernels into this many chunks of their outer loop, "
           "run in parallel">,
  ];
  let statistics = [
    Statistic<"numFunctions", "functions", "Functions lowered">,
    Statistic<"numBroadcasts", "broadcasts",
              "stride.broadcast ops lowered to linalg.generic">,
    Statistic<"numMatmuls", "matmuls", "stride.matmul ops lowered">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // STRIDE_CONVERSION_PASSES_TD
