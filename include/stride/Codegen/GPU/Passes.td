//===- Passes.td - Stride's GPU codegen passes ------------*- tablegen -*-===//
//
// Mappings of linalg on memrefs to the GPU: launches, the shared-memory
// matmul kernel, device buffers, and the host emulation of launches used by
// the tests. Each is also a function in Transforms.h.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_CODEGEN_GPU_PASSES_TD
#define STRIDE_CODEGEN_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

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

    **Reductions: block trees.** A generic with reduction loops whose
    payload combines each output with one associative op that
    `gpu.all_reduce` also has (`matchReduction`: `arith.addf`/`addi`,
    `mulf`/`muli`, the min/max ops including NaN-propagating
    `maximumf`/`minimumf`, `andi`/`ori`/`xori`; 32- or 64-bit floats, any
    integer) maps to blocks instead of threads when its first memref input
    is densest along a reduction loop (row sums of a row-major array: a
    thread per row would read with the row's stride) or when it has fewer
    than 1024 outputs (a full sum: a thread per output would leave the GPU
    idle):

    - Blocks walk (output, chunk) tasks with a block-uniform grid-stride
      loop. A block's threads stride over the chunk's reduction points,
      linearized with the input's densest loop fastest (a warp's loads are
      consecutive), each accumulating from the combiner's identity
      (`arith::getNeutralElement`).
    - `gpu.all_reduce` (uniform) combines the threads' partials; upstream's
      rewrite inside `convert-gpu-to-nvvm` turns it into `gpu.shuffle` xor
      steps within each warp, one workgroup-memory slot per warp, a
      barrier, and a last warp-level step. Thread 0 combines the result
      with the output's initial value (linalg semantics) and stores it; a
      barrier follows, because the next task reuses the workgroup slots.
    - With fewer than 1024 outputs, each output's points are split into
      `min(ceil(1024 / outputs), ceil(points / (16 * block-size)))`
      chunks: the first launch writes each chunk's result to a partial
      buffer, a second launch combines each output's chunks. Every thread
      then adds at most about 16 points in sequence before the tree's
      pairwise levels, which keeps a float sum's error near a pairwise
      sum's without compensation (`stride-bufferize{gpu-reductions}` emits
      plain float sums for GPU targets).
    - Narrow integers are exchanged widened to 32 bits (sign-extended for
      signed min/max) and truncated back: the same bits for every
      operation, wrapping sums included.

    - **argmax/argmin**, marked `stride.arg_reduce = "max"|"min"` (with
      `stride.unsigned` for unsigned orders) by `stride-bufferize`, whose
      outputs are (value, index) and whose payload keeps the first index
      of the best value (NaN best): each thread accumulates its pair with
      the payload, then two all-reduces give the block's best value
      (`maximumf`/`minimumf`, NaN-propagating, or the integer extremum) and
      the smallest index among the threads holding it (`minsi`; a NaN
      matches a NaN best). The thread's pair waits in a `private(...)`
      attribution across the first. Chunk partials and the output's
      initial pair combine by the same rule (better, or equal with a
      smaller index), which is commutative and associative.

    Other reductions (multi-op payloads without that mark, reductions of
    fewer than 32 static points, those whose input
    is densest along an output loop, such as column sums) keep the
    thread-per-output loop below.

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
    Option<"blockReductions", "block-reductions", "bool", /*default=*/"true",
           "Map reductions with single-op combiners whose dense loop is "
           "reduced, or whose outputs are few, to block trees "
           "(gpu.all_reduce)">,
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

    **`gpu.all_reduce`** is first rewritten into what it means with
    barriers: each thread stores its value into its slot of a host buffer
    (one slot per thread of the block), a barrier, thread 0 folds the slots
    in thread order with the op (or the op's combiner region) into a result
    slot, a barrier, every thread loads the result. The fission above then
    runs it, so the all-reduce must sit where a barrier may. The fold's
    order is not the GPU's tree (upstream lowers the op to shuffles), so
    float sums round differently, within the tests' tolerances.

    Refused, with a diagnostic naming the reason: async launches, thread
    block clusters, dynamic shared memory, bodies of several blocks and
    operations that exchange values between threads without memory
    (`gpu.subgroup_reduce`, `gpu.shuffle`).
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // STRIDE_CODEGEN_GPU_PASSES_TD
