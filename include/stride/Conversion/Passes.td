//===- Passes.td - Stride conversion passes ----------------*- tablegen -*-===//
//
// Conversions between dialects: partitioned shard programs to Stride's MPI
// runtime, and a fix-up of the LLVM dialect. The passes that work on Stride
// ops are in stride/Dialect/Stride/Transforms/Passes.td, the CPU and GPU
// code generation in stride/Codegen/{CPU,GPU}/Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_CONVERSION_PASSES_TD
#define STRIDE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertShardToStrideMpi : Pass<"convert-shard-to-stride-mpi", "::mlir::ModuleOp"> {
  let summary = "Lower the collectives of partitioned shard programs to calls into Stride's MPI runtime";
  let description = [{
    After `shard-partition`, a program holds `shard` collectives on local
    tensors. Upstream's `convert-shard-to-mpi` lowers only `all_reduce` and
    `update_halo`, leaves every other collective behind with exit status 0,
    and ties the module to one MPI's ABI. This pass lowers every collective a
    partition emits instead, to calls into `libstride_mpi` (built
    against each installed MPI with its own `mpicc`, so one kernel runs
    under OpenMPI and MPICH alike):

    - `shard.all_reduce` (sum, product, min, max) ->
      `stride_mpi_allreduce_<type>(in, out, kind)`;
    - `shard.all_gather` -> `stride_mpi_allgather_<type>(in, out, dim)`;
    - `shard.all_to_all` -> `stride_mpi_alltoall_<type>(in, out, split, concat)`;
    - `shard.all_slice` and process indices -> upstream's local lowering
      (`tensor.extract_slice` at the rank's offset), with the rank from
      `stride_mpi_comm_rank()`; `shard.grid_shape` -> constants.

    On a grid of several dims (up to 4) a collective runs among the ranks
    its `grid_axes` span: a call of `stride_mpi_grid_group(g0, g1, g2, g3,
    axes)` (the grid's sizes, 0 for unused dims; the axes as 4-bit nibbles
    of axis + 1, first listed axis lowest) gives the group, a communicator
    the runtime splits once and caches, and the collective calls the
    `_group_<type>` variant with it (MPI rank r sits at the row-major
    coordinates of r in the grid, as `shard.process_multi_index` has it).

    Each collective reads its operand through `bufferization.to_buffer`,
    writes a fresh `memref.alloc`, and gives a `bufferization.to_tensor` of
    it, so One-Shot Bufferize and the ownership-based deallocation see plain
    calls on unranked memrefs (no op with unknown memory effects). A
    collective this pass cannot lower (another reduction kind, a grid of
    more than four dims, `send`/`recv`/`shift`/`broadcast`/`scatter`, halos) is an
    error naming the op, never left in place. The `shard.grid` symbols and
    stride-distribute's `stride.split_dims` records (read by runners before
    partitioning) are removed at the end.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::affine::AffineDialect"];
}

def StrideDropGepNuw : Pass<"stride-drop-gep-nuw", "::mlir::ModuleOp"> {
  let summary = "Drop the nuw flag from the address computations of "
                "memref accesses";
  let description = [{
    `finalize-memref-to-llvm` (MLIR 22) computes the address of a
    `memref.load` or `memref.store` as a `getelementptr inbounds|nuw` of
    the linearized index (the sum of index times stride) from the pointer to
    the element the offset names. Stride's memrefs have negative strides
    (reversed views, `x[::-1]`), so that index is negative for every
    element but the first of a reversed dim: `nuw` (no unsigned wrap) is
    then violated, the address is poison, and LLVM's optimizations may make
    anything of it (an `i1` transpose of a reversed array crashed). The
    products and sums of that index (`llvm.mul`/`llvm.add` by a negative
    stride) carry `overflow<nsw, nuw>` likewise. This pass clears `nuw` on
    every `llvm.getelementptr` and on the `llvm.add`, `llvm.sub` and
    `llvm.mul` ops its indices are computed with, and keeps `inbounds` and
    `nsw`, which hold: the accessed element lies in the buffer the offset
    points into, and no index overflows a signed 64-bit integer. Other
    arithmetic keeps its flags. The CPU pipeline runs it right after the
    memref lowering.

    Example:

    ```mlir
    %p = llvm.getelementptr inbounds|nuw %base[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i1
    // becomes
    %p = llvm.getelementptr inbounds %base[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i1
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def StrideBoolsAsBytes : Pass<"stride-bools-as-bytes", "::mlir::ModuleOp"> {
  let summary = "Load and store i1 memory elements as the bytes they are";
  let description = [{
    A memref of `i1` (a NumPy bool array, a comparison's result) holds one
    byte per element, and `finalize-memref-to-llvm` accesses an element
    with `llvm.load ... : i1` and `llvm.store %b, ... : i1`. LLVM's loop
    vectorizer refuses loops that load or store a type whose size is not
    its allocation size (1 bit in a byte), so every kernel that reads a
    mask (`np.where(m, a, b)`, `m.sum()`, `a[m].mean()` in a loop) ran one
    element at a time: `m.sum()` over 100,000 bools took 106 us where NumPy
    takes 24 us. This pass makes each such access a byte access: a load
    of `i8` followed by `llvm.trunc` to `i1`, and a store of the value
    zero-extended to `i8`. The bytes hold 0 or 1 (the drivers check the
    bool arrays they are given), so the values are the same, and the loops
    vectorize. The CPU pipeline runs it right after the memref lowering.

    Example:

    ```mlir
    %b = llvm.load %p : !llvm.ptr -> i1
    // becomes
    %byte = llvm.load %p : !llvm.ptr -> i8
    %b = llvm.trunc %byte : i8 to i1
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // STRIDE_CONVERSION_PASSES_TD
