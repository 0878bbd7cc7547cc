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

    With `threads=N` (N > 1), a kernel that moves at least 2 MiB or does at
    least 2^24 operations (its body's ops times its points; a math function
    counts 16) is split into N chunks of one loop under an `scf.parallel`
    (each chunk a `linalg.generic` on subviews), for `convert-scf-to-openmp`.
    Smaller kernels (small batched products, short vectors) stay on one
    thread: they take tens of microseconds, and OpenMP's fork/join costs a
    good part of that, much more when another process holds a core. The
    split loop is the outermost of the leading parallel loops that is a plain
    index in every view and has at least 4 iterations per thread (a short
    batch loop would leave threads idle), else the longest such loop.

    Named elementwise ops must have been generalized first
    (`stride-generalize`).

    This whole-function rewrite handles one block of Stride ops per function
    (no calls, no control flow, no other dialects' tensor ops). The pipeline
    now bufferizes with `stride-bufferize` (One-Shot Bufferize), which emits
    the same kernels; this pass stays for its tests and for callers that
    want its diagnostic on a destination read after being overwritten.
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

def StrideMapLinalgToGpu : Pass<"stride-map-linalg-to-gpu", "::mlir::func::FuncOp"> {
  let summary = "Map each linalg.generic on memrefs to a gpu.launch: a shared-memory "
                "tiled kernel for batched matmul, a grid-stride loop otherwise";
  let description = [{
    Every `linalg.generic` on memrefs (run `linalg-generalize-named-ops`
    first for `linalg.fill` and friends) becomes one `gpu.launch`.

    **Batched matmul: the tiled kernel.** A generic with two memref inputs A
    and B, one memref output C, one reduction loop `k` used by A and B, one
    parallel loop `m` used by A and C but not B, one parallel loop `n` used
    by B and C but not A (any other parallel loops are batch loops),
    integer or float elements and no `linalg.index` in its payload, is the
    classic tiled GEMM (with `tiled-matmul=true`, the default):

    - One block per (batch..., BM x BN tile of C): the tiles are linearized
      and blocks walk them with a block-uniform grid-stride loop (at most
      `max-blocks` blocks), so any batch count fits the grid.
    - TY x TX = 16 x 16 threads, each owning TM x TN = 4 x 4 outputs at rows
      `ty + i*16` and columns `tx + j*16` of the tile (BM = BN = 64), so a
      warp's stores of one register coalesce. A static M or N below 64
      shrinks the tile along it (M <= 16: M threads of one row each;
      otherwise 16 threads of ceil(M/16) rows), so batches of 8 x 8 products
      do not idle most threads.
    - A loop over K in steps of BK (16; 8 when an element is 64-bit; K when
      K is static and smaller): the block cooperatively stages a BK x BM tile
      of A and a BK x BN tile of B into workgroup memory (`gpu.launch`
      `workgroup(...)` attributions), each load walking the operand's
      smaller-stride loop fastest (coalesced), elements outside the operand
      staged as zero; `gpu.barrier`; each thread applies the generic's
      payload in `k` order to its accumulators (registers over the step,
      kept across steps in a `private(...)` attribution that LLVM promotes
      to registers); `gpu.barrier`. A full step has a constant trip count;
      only the last step of a K that is not a multiple of BK is shorter.
    - Accumulators start from C's value (linalg semantics; the zero fill is
      its own kernel); loads and stores of C are guarded at the edges, so
      any M, N, K and batch, static or dynamic, is exact.
    - Operands are read in place through their indexing maps: stride-0
      broadcast batches, transposed and mirrored operands need no copy.

    Upstream has no transform that stages linalg operands on strided memrefs
    into shared memory with edge guards for dynamic sizes (promotion in
    `linalg` tiling copies whole subviews and needs static tiles), so this
    `gpu.launch` is built by hand. Generics that do not match (matrix-vector
    products, where `m` or `n` is absent from an input) take the path below.

    **Everything else: a grid-stride loop** on a 1-D grid of 1-D blocks:

    - The parallel loops form one linear index space of `N` points. Thread
      `t = blockIdx.x * blockDim.x + threadIdx.x` visits `t, t + S, t + 2S, ...`
      below `N` with `S = gridDim.x * blockDim.x` (a grid-stride loop), so any
      size, static or dynamic, runs with a bounded grid and no tail guard.
    - Each point is split back into loop indices with
      `affine.delinearize_index`; the fastest-varying index is the loop along
      which the first output has its smallest static stride (stride 1 after
      `stride-coalesce`), so neighbouring threads write neighbouring
      addresses and stores coalesce. When the output's strides are dynamic
      the loops' own order is kept (the innermost loop is fastest).
    - Reduction loops stay sequential `scf.for` loops inside the thread,
      accumulating in registers (`iter_args`) from the output's initial
      value, then storing once. Register tiling: a thread computes
      `register-tile` outputs along a row loop, the last parallel loop
      before the fastest that the output uses and some input does not, so
      each value of that input is loaded once for all of them. Loads of rows
      past the end are clamped to the last row and their stores skipped.
    - The generic's body is cloned into the loop; operands are read with
      `memref.load` through their indexing maps, so stride-0 (broadcast),
      mirrored (negative-stride) and dynamic-offset views are read in place.

    The grid has `min(ceildiv(N, block-size), max-blocks)` blocks (at least
    one, so an empty iteration space launches a block that does nothing).
    These kernels use neither shared memory nor barriers.

    Why not `gpu-map-parallel-loops`: it maps at most three loops to hardware
    ids and, without tiling first, gives one thread per block; tiling dynamic
    sizes leaves `affine.min` guards per dimension. One delinearized index
    with a grid-stride loop handles any rank and any size the same way.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block of the grid-stride kernels (the tiled matmul "
           "has its own 16 x 16)">,
    Option<"maxBlocks", "max-blocks", "int64_t", /*default=*/"8192",
           "Upper bound on the number of blocks; blocks loop over the rest">,
    Option<"registerTile", "register-tile", "int64_t", /*default=*/"4",
           "Outputs per thread along the row loop of a reduction in the "
           "grid-stride kernel (1: none)">,
    Option<"tiledMatmul", "tiled-matmul", "bool", /*default=*/"true",
           "Map matmul-shaped generics to the shared-memory tiled kernel">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def StrideGpuDeviceAlloc : Pass<"stride-gpu-device-alloc", "::mlir::func::FuncOp"> {
  let summary = "Allocate host-side temporaries in device memory (gpu.alloc)";
  let description = [{
    After `stride-map-linalg-to-gpu`, intermediates that the lowering
    allocated with `memref.alloc` outside any kernel are read and written only
    by kernels, so they must live in device memory: each such `memref.alloc`
    becomes `gpu.alloc` and each `memref.dealloc` of it `gpu.dealloc`. Both
    are emitted in their async form, each after a `gpu.wait async` and
    followed by a `gpu.wait` on its token, because `gpu-to-llvm` lowers only
    async allocations (to `mgpuMemAlloc`/`mgpuMemFree` on a stream). Not run for host execution of the kernels
    (`stride-gpu-launch-to-host-loops`), where host memory is right.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

def StrideGpuLaunchToHostLoops : Pass<"stride-gpu-launch-to-host-loops", "::mlir::func::FuncOp"> {
  let summary = "Test-only: run each gpu.launch on the host, grid and block "
                "enumerated, split at barriers";
  let description = [{
    Replaces each `gpu.launch` with loops over `blockIdx.{z,y,x}` (bounds:
    the grid sizes) whose body is the kernel body run for every thread of
    the block, with the block and thread ids, grid and block sizes
    substituted (region arguments and `gpu.block_id`/`thread_id`/
    `grid_dim`/`block_dim` ops alike). The kernel's own code (index math,
    grid-stride loops, guards, broadcast and negative-stride reads, shared
    memory staging) thus runs unchanged on the CPU, so tests compare its
    values with NumPy on machines without a GPU.

    **Barriers: loop fission** (as MCUDA and POCL do). The body is split at
    each `gpu.barrier` into segments, maximal runs of barrier-free ops; each
    segment is cloned inside its own loops over `threadIdx.{z,y,x}`, so every
    thread finishes the segment before any thread starts the next one: the
    meaning of the barrier. A kernel without barriers is one segment (six
    nested loops). Barriers may sit at the top level of the body or inside
    `scf.for` / `scf.if` that yield no values and whose operands are
    block-uniform, computed without thread ids from memory-effect-free ops
    (these loops and conditions are re-created at block level, around the
    segments of their bodies). A barrier elsewhere (thread-dependent control
    flow, a loop carrying values, `scf.while`, ...) is an error naming the
    barrier, since splitting there would change the kernel's meaning.

    **Values across a barrier.** A value defined in one segment and used in
    a later one is recomputed (its defining ops cloned) in the later
    segment when it comes from ops free of memory effects and without
    regions, such as index arithmetic on thread ids; any other value (a
    load, say) crossing a barrier is an error naming its user and its
    definition. Thread-private state that must survive a barrier belongs in
    a `private(...)` attribution.

    **Memory.** Each workgroup attribution becomes one host `memref.alloc`
    per block (same shape, host memory space), shared by that block's
    threads; each private attribution becomes one allocation per block of
    `blockDim.z x blockDim.y x blockDim.x` copies, whose loads and stores
    get the thread ids `(z, y, x)` as leading indices: one copy per thread.
    Both are freed at the end of the block. Attributions may only be used
    as the memref of `memref.load` / `memref.store`; other users are
    refused with a diagnostic.

    Refused, with a diagnostic naming the reason: async launches, thread
    block clusters, dynamic shared memory, bodies of several blocks and
    operations that exchange values between threads without memory
    (`gpu.all_reduce`, `gpu.subgroup_reduce`, `gpu.shuffle`).
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def StrideBufferLayouts : Pass<"stride-buffer-layouts", "::mlir::ModuleOp"> {
  let summary = "Pin function arguments' buffer layouts to their tensor layouts";
  let description = [{
    Prepares a module for upstream One-Shot Bufferize with
    `bufferize-function-boundaries`. That pass gives every builtin tensor
    argument a memref with a fully dynamic layout, whatever its encoding, unless
    the argument carries a `bufferization.buffer_layout` attribute. This pass
    sets that attribute on every ranked tensor argument of every function with
    a body: `strided<[...], offset: ?>` with the strides of the argument's
    `#stride.layout` (`?` where unknown), or row-major strides for a tensor
    without an encoding, which Stride reads as row-major. The offset stays
    dynamic so that a caller may pass any slice.

    Results need nothing: One-Shot infers a function's result layouts from its
    body, where a Stride op's result is allocated in its propagated layout.
    A caller whose buffer has other strides gets a copy from One-Shot's
    call bufferization (a cast where the strides are known to agree).
    External declarations are left alone: their ABI is declared elsewhere.
    An attribute already present is kept.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def StrideBufferize : Pass<"stride-bufferize", "::mlir::ModuleOp"> {
  let summary = "Bufferize a module of Stride and other ops with One-Shot "
                "Bufferize, public functions in destination-passing style";
  let description = [{
    The route from tensors to strided memrefs used by `stride-cpu-pipeline`.
    It is upstream One-Shot Bufferize over the whole module (function
    boundaries, calls, `scf`, `tensor`, `linalg` on tensors and every other
    dialect with bufferization models), with Stride ops taking part through
    their `BufferizableOpInterface` models, plus two tensor-level steps that
    fix the calling convention of the functions the host calls:

    1. Every public function with a body and no caller in the module gets one
       trailing argument per tensor result (the attribute
       `stride.num_outputs` counts them). The returned value is computed into
       it: the `stride.broadcast` producing it (in the function's body, with
       no destinations of its own) takes it as destination, anything else is
       copied into it by a one-op `stride.broadcast`; when bufferization
       finds that copy's input to be a new buffer made in the same block (a
       `stride.matmul` result, say), the producer writes the output argument
       instead and the copy disappears: the argument is written by nothing
       else and read by nobody before the return. After bufferization the
       results are these arguments and the pass removes them (upstream's
       `drop-equivalent-buffer-results` leaves public functions alone).
    2. The same functions' input arguments are marked
       `bufferization.writable = false`: they are the caller's buffers (NumPy
       arrays, for Python), which must keep their values and may alias each
       other (one array passed twice), something the analysis cannot see. An
       input used as a destination makes the result go to a new buffer. Only
       the output arguments are written; they must not overlap an input or
       each other (C's `restrict`; every runner allocates them itself).
    3. Every tensor argument gets the `bufferization.buffer_layout` of its
       layout (as `stride-buffer-layouts`), so that One-Shot's function
       boundaries keep `#stride.layout` strides exactly.

    Then One-Shot runs with inferred result layouts and allocations returned
    from loops allowed (a Stride op in a loop body yields a new buffer; the
    ownership-based deallocation pipeline, run next, frees it). A Stride op's
    result is allocated in its propagated layout (a flat 64-byte aligned
    buffer viewed with those strides); a `stride.broadcast` with destinations
    writes into their buffers, in place where One-Shot's analysis allows and
    into a copy where a later read of the old value demands one. Aliasing
    follows NumPy's rule, as if every input were read before any destination
    is written: the broadcast model reports element-wise access for inputs
    that are not broadcast, so a destination equivalent to such an input is
    written in place, and any other alias of a destination (a shifted slice,
    a broadcast row) is a conflict that One-Shot resolves with a copy. A
    destination whose static strides put two elements at one address is an
    error. Finally, private functions stop returning results that are
    equivalent to one of their arguments (upstream's
    `dropEquivalentBufferResults`): callers use their own buffer, and the
    deallocation pipeline has no returned argument to clone.

    Each Stride op becomes the kernel `convert-stride-to-linalg` describes
    (strided views, stride 0 for broadcast dims, run-time size-1 selects,
    mirrored negative strides); with `threads=N` large kernels are split for
    `convert-scf-to-openmp` in the same way.

    Lowering Stride ops to linalg on tensors first was not chosen: a tensor
    `linalg.generic` cannot express a stride-0 or mirrored view of an operand
    or a size selected at run time, so it would force copies that the
    buffer-level kernels avoid.
  }];
  let options = [
    Option<"threads", "threads", "unsigned", /*default=*/"1",
           "Split large kernels into this many chunks of their outer loop, "
           "run in parallel">,
  ];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // STRIDE_CONVERSION_PASSES_TD
