//===- Passes.td - Stride's CPU codegen passes ------------*- tablegen -*-===//
//
// Rewrites of linalg on memrefs into CPU loop nests: cache and register
// blocks, vectorized micro-kernels. They know nothing of Stride ops; the
// passes that do are in stride/Dialect/Stride/Transforms/Passes.td. Each is
// also a function in Transforms.h.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_CODEGEN_CPU_PASSES_TD
#define STRIDE_CODEGEN_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def StrideTileMatmul : Pass<"stride-tile-matmul"> {
  let summary = "Cache-block, register-block and vectorize matmul contractions";
  let description = [{
    Rewrites every `linalg` contraction on buffers that has the shape of a
    (batched) matrix product -- the `linalg.generic` that
    `stride-bufferize` emits for `stride.matmul`, with any batch,
    broadcast (stride 0) or permuted operand views -- into a GotoBLAS-style
    loop nest built from upstream pieces:

    1. cache blocks (`scf::tileUsingSCF`): batch loops one at a time, then n
       by `cache-n`, k by `cache-k`, m by `cache-m`, so the rhs block and the
       lhs block stay in L2 while the micro-kernel streams over them;
    2. register blocks: n by `register-n-bytes` (two AVX-512 or four AVX2
       registers of elements) and m by `register-m` -- row panels
       outermost when the rhs (k x n) has `rows-outer-bytes` or more, so
       that an lhs panel's k block stays in L1 while the rhs block streams
       past it from L2, column panels outermost below (on the project's AMD
       EPYC, with packed panels, the first is 5-15% faster at f64 1024 and
       f32 2048, 3-5% slower at f64 500) -- and k by `register-k`
       innermost; the m, n and k loops are peeled
       (`scf::peelForLoopAndSimplifyBounds`) so the main iterations have
       static tiles;
    3. each static `register-m` x `register-k` x `register-n` tile drops its
       unit batch loops (rank-reducing subviews) and is vectorized
       (`linalg::vectorize`) into a `vector.contract`, which becomes
       `register-k` outer products, i.e. broadcast FMAs, one per row; the
       accumulator's read and write move out of the k loop and it is carried
       as an `iter_args` vector, so it lives in registers for the whole k
       block (upstream's `hoistRedundantVectorTransfers` refuses buffers that
       come from subviews, which every tile's are).

    A matrix-vector product (a static m or n of 1, as `A @ x` and `y @ A`
    become) reads each matrix element once, so cache blocks buy it nothing.
    When the matrix's unit-stride loop is k (a row-major `A @ x`), its
    loops are interchanged (`linalg::interchangeGenericOp`) to put k
    innermost, for LLVM's loop vectorizer, and its multiply and add get
    `reassoc` and `contract` fast-math flags, so each dot product
    vectorizes with several partial sums, as BLAS sums it. The rows are then
    tiled by `matrix-vector-rows`; each static block becomes loops
    (`linalg::linalgOpToLoops`) with k outside the block's rows, and the row
    loop is unrolled (`scf` `loopUnrollFull`): the k loop's body holds every
    row's multiply-add, so the loop vectorizer keeps the block's partial
    sums side by side, each vector of x is loaded once per block, and the
    matrix is read as that many row streams. On the project's AMD EPYC a C
    loop of this shape read a 4000 x 5000 f64 matrix in 7.0-7.4 ms with 8
    rows per block, 8.0-8.5 ms with 4 and 12-13 ms one row at a time.
    Rows left over by the blocks (fewer than `matrix-vector-rows`, or a
    thread's chunk of run-time length) stay one dot product at a time. When it is an output loop (`y @ A`, `A.T @ x`),
    the row-at-a-time loop would load and store every output once per
    matrix row: instead the product is cut into blocks of
    `vector-matrix-rows` matrix rows (outermost), each into register blocks
    of `register-n-bytes` of outputs, whose contraction becomes one
    broadcast FMA per row (upstream's outer-product lowering would
    transpose the rows into dot products); the outputs are loaded and
    stored once per block and the matrix is read as that many sequential
    row streams. A transposed matrix (`A.T @ x`) is read through
    `memref.transpose` as A's own rows. Each output element still sums in k
    order. `vector-matrix-rows=1` keeps the single loop nest. A matrix with
    no static unit stride is blocked as usual.

    The cache-block loops whose bounds are static are peeled as well,
    innermost first, after the register loops: the last partial block of
    each dim then has a static size, so its register tiles and their
    remainders are static and vectorized like the main ones (a 6-column
    edge as `vector<6xf32>` FMAs). On the project's AMD EPYC a 500 x 500
    f64 product took 6.2-6.7 ms with scalar remainders and 4.7 ms with
    them vectorized, the same time per flop as 496 x 496, where there are
    none; compiling it took 0.16 s more. An edge tile wider than half of
    `register-n-bytes` but not a multiple of that half (17 to 31 f32
    columns) is split into one of the half and one of the rest: LLVM widens
    a `vector<20xf32>` to 32 lanes of work, and f32 500 x 500 (edge 20)
    ran at 93 GF/s against 108-111 with the split. Only when the rhs is contiguous
    along n: with a column-major rhs (`x @ x.T`) every static edge copy
    gathers its rhs tiles element by element, and the peeled product ran
    10-20x slower than the unpeeled loops (f64 500 x 500: 121 against 7
    ms), so its cache blocks stay whole. Partial tiles whose sizes stay
    dynamic (dynamic shapes, the rows of a thread's chunk) stay scalar
    generics (lowered to loops later). Tile sizes shrink to a static dimension when it is smaller, so
    small static products (8x8, 4x4 batches) become one fully vectorized
    tile per batch with no call or loop overhead beyond the batch loop.
    A dot product of two vectors (`x @ y`: unit m and n, broadcast with
    stride 0) stays one untiled loop nest; its multiply and add get
    `reassoc` and `contract`, so it sums in vector partial sums as BLAS's
    ddot does (276 f64 elements: 0.30 -> 0.12 us a call).
    Contractions with mirrored (negative-stride) dimensions or integer
    elements are left alone. Each output element still sums its products in
    k order; the micro-kernel fuses each multiply and add (one rounding, as
    BLAS kernels do), so results can differ from the scalar loop's in the
    last bits. The threads of `stride-bufferize` (chunks of the outermost
    loop) are kept: each chunk is tiled on its own.

    When the product has `pack-panels` rows or more (or a thread's chunk of
    them), each rhs cache block is first copied into contiguous panels of
    one register block's width (GotoBLAS's packed B): panel p holds the
    block's columns [p nr, (p + 1) nr) row after row, so each micro-kernel
    reads its rhs tile as one sequential stream instead of one cache line
    per rhs row, and rows of a power-of-two length no longer share a few
    cache sets. The copy sits in the k-block loop, outside the m blocks
    that reuse it; each block's subview has its own buffer, allocated once
    before the outermost loop around that subview (inside a thread's chunk),
    so that a block whose subview moved out of more loops than another's
    (a peeled edge block) is not overwritten by the other's copies. On the project's AMD EPYC, one
    thread, x OpenBLAS: f64 1024 0.88 -> 1.00, f32 2048 0.93 -> 1.03 with
    row panels outer (0.89 and 0.85 with neither). Packing the lhs as well
    (row panels of `register-m` rows, column after column) was measured
    and lost: f32 2048 1.02 -> 0.84.

    Operands are read in place when their layout suits the micro-kernel: an
    lhs contiguous along k (each row's elements broadcast in turn) and an
    rhs contiguous along n (its rows loaded as vectors). Otherwise (`A.T @
    B`, `A @ B.T`, a stepped view) the operand is first copied into a
    row-major buffer, when the product reads each of its elements at least
    `pack-reuse` times: the copy is an elementwise generic that
    `stride-block-transposes` turns into register transposes, one pass
    over the operand, against a strided micro-kernel that lost up to half
    its speed on every use (f64 1000 x 1000 on the project's AMD EPYC, one
    thread: `A.T @ B` 70 -> 41 ms, `A @ B` 39-41 ms). A thread's chunk
    copies its own lhs rows and the whole rhs. Operands with a broadcast
    (stride 0) or dynamic stride, or whose contiguous loop is not their last
    dim, stay in place.
  }];
  let options = [
    Option<"registerM", "register-m", "int64_t", /*default=*/"8",
           "Rows of the register block (accumulator vectors)">,
    Option<"registerK", "register-k", "int64_t", /*default=*/"4",
           "Depth of the register block (outer products per iteration)">,
    Option<"registerNBytes", "register-n-bytes", "int64_t", /*default=*/"128",
           "Bytes of a register block row (2 AVX-512 or 4 AVX2 registers)">,
    Option<"cacheM", "cache-m", "int64_t", /*default=*/"64",
           "Rows of the lhs block kept in L2">,
    Option<"cacheN", "cache-n", "int64_t", /*default=*/"256",
           "Columns of the rhs block">,
    Option<"cacheK", "cache-k", "int64_t", /*default=*/"256",
           "Depth of the lhs and rhs blocks">,
    Option<"packReuse", "pack-reuse", "int64_t", /*default=*/"32",
           "Copy an lhs not contiguous along k, or an rhs not contiguous "
           "along n, into a row-major buffer when the product reads each "
           "of its elements at least this many times (0: never)">,
    Option<"rowsOuterBytes", "rows-outer-bytes", "int64_t",
           /*default=*/"4194304",
           "Take the register blocks of a cache block row panel by row "
           "panel (the lhs panel stays in L1) when the rhs (k x n) has at "
           "least this many bytes, column panel by column panel below">,
    Option<"packPanels", "pack-panels", "int64_t", /*default=*/"64",
           "Copy each rhs cache block into contiguous panels of one "
           "register block's width when the product has at least this "
           "many rows (0: never)">,
    Option<"matrixVectorRows", "matrix-vector-rows", "int64_t",
           /*default=*/"8",
           "Rows of the matrix a matrix-vector product (A @ x) reads at "
           "once, their dot products side by side in the k loop (1: one "
           "row at a time)">,
    Option<"vectorMatrixRows", "vector-matrix-rows", "int64_t",
           /*default=*/"8",
           "Rows of the matrix a vector-matrix product (y @ A, A.T @ x) "
           "takes per pass over its outputs (1: one row at a time, as a "
           "loop nest)">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def StrideBlockTransposes : Pass<"stride-block-transposes"> {
  let summary = "Cache-block and vectorize elementwise loops whose operands disagree on their contiguous dimension";
  let description = [{
    An elementwise `linalg.generic` on buffers (all loops parallel) walks
    memory in its loop order, which `stride-coalesce` takes from the result.
    When an operand's contiguous (smallest-stride) loop is another loop than
    the result's -- `a.T + b`, NHWC with NCHW, a permuted destination -- the
    innermost loop streams that operand against its grain: every element it
    reads is a scalar load from another cache line, and with power-of-two
    row pitches those lines fall into the same few L1 sets and evict each
    other before the next column uses them. An operand that does not move
    along the result's grain loop at all (a column `a[:, k][:, None]`
    broadcast across the rows it is added to) is one scalar per row of that
    loop, whatever its own grain, and triggers nothing. This pass rewrites
    exactly those two loops (the result's grain and the last other
    operand's):

    1. cache blocks (`scf::tileUsingSCF`): both loops by `tile-bytes` /
       element size (the widest operand element; 128 x 128 for f32 at the
       default 512 bytes: on the project's AMD EPYC box `a.T + b` on 4096²
       f32 took 8.4 ms at 512, 9.5 ms at 256 and 8.2 ms at 1024 bytes on
       one thread, 4.4 / 5.7 / 4.5 ms on two), keeping the
       loop order inside and around the blocks, so each block's lines of
       every operand are reused from L1/L2 (and its pages from the TLB)
       before they are evicted;
    2. register tiles inside each block: both loops by `register-bytes` /
       element size (16 x 16 f32 or 8 x 8 f64 at the default 64 bytes, i.e.
       one cache line of each operand per tile row), every other loop by 1;
       the tile loops are peeled (`scf::peelForLoopAndSimplifyBounds`) so the
       main tiles are static;
    3. each static tile drops its unit loops (rank-reducing subviews), gives
       every operand a `memref.transpose` view whose last dimension is the
       contiguous one, and is vectorized by `linalg::vectorize`: the
       transposed operand becomes a `vector.transfer_read` with a permutation
       map, i.e. one contiguous vector load per cache line followed by a
       `vector.transpose` in registers, lowered to shuffles (the
       `shuffle_16x16` strategy of unpack/shuffle stages for 16 x 16 32-bit
       tiles, `shuffle_1d` otherwise).

    Each cache line of every operand is then loaded once, as a whole, and
    both operands stream at close to copy bandwidth -- when the rows start
    on a cache line. NumPy's large arrays start 16 bytes into a page, where
    every 64-byte tile row would straddle two lines, so an op whose register
    tiles are one line wide is versioned at run time (`scf.if` on the
    output's and the transposed operand's addresses): aligned, it is blocked
    as above with its static sizes; otherwise the leading elements up to the
    first line boundary along each of the two loops are split off
    (`linalg::splitOp`) into scalar edge ops, and the rest, whose rows then
    start on lines, is blocked. Partial tiles left by
    peeling stay scalar loops. Ops with `i1` operands (vector loads of `i1`
    would read packed bits, while memrefs hold a byte per element) or with
    body ops that are not elementwise-mappable get the cache blocks only, as
    does every op with `register-bytes=0`.

    Only operands whose strides are static are considered (the runner and
    Python specialize kernels to their inputs' strides); loops shorter than a
    tile, reductions and ops whose operands agree are left alone. Values and
    output strides never change: tiling and vectorizing only reorder
    independent iterations.
  }];
  let options = [
    Option<"tileBytes", "tile-bytes", "int64_t", /*default=*/"512",
           "Bytes of a cache block along each of the two blocked loops">,
    Option<"registerBytes", "register-bytes", "int64_t", /*default=*/"64",
           "Bytes of a vectorized register tile along each of the two "
           "loops (0: scalar tiles)">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def StrideVectorizeLanes : Pass<"stride-vectorize-lanes"> {
  let summary = "Keep a reduction's lane accumulators in vector registers";
  let description = [{
    `stride-bufferize` splits a long contiguous reduced dim into blocks of
    L lanes (16 to 64) so that independent accumulators break the
    dependency chain: a `linalg.generic` with loops `..., blocks, lanes`
    whose outputs are lane buffers indexed by the kept loops and the lanes,
    marked `stride.lanes`. Lowered to loops, that generic loads and stores
    every accumulator at every block: LLVM cannot keep them in registers
    across the blocks loop (the lanes loop inside it is the one it
    vectorizes), and store-to-load forwarding from its masked stores
    stalls. The stages of the tree that then folds the lanes in halves are
    marked too (all loops parallel, the last one the lanes): left to LLVM,
    their short static lane loops were unrolled into scalar compares and
    selects, since the SLP vectorizer gave up on an argmax step's `i1`
    logic (argmax of 16384 x 256 f32 rows: 1.63 ms, 0.85 with the stages
    vectorized). This pass instead

    1. tiles every loop but the lanes by 1 (`scf::tileUsingSCF`), so the
       blocks and any other reduced loops become `scf.for` loops around a
       1 x ... x 1 x L tile;
    2. drops the tile's unit loops and vectorizes it (`linalg::vectorize`):
       one `vector<L x T>` op per payload op, `vector.step` for the lane
       index;
    3. moves loop-invariant views out of the tile loops
       (`moveLoopInvariantCode`) and then each accumulator's
       `vector.transfer_read`/`vector.transfer_write` pair whose indices do
       not depend on a loop into that loop's `iter_args`, innermost loop
       first, so a row's accumulators stay in registers for all of its
       blocks. Upstream's `hoistRedundantVectorTransfers` declines reads
       of views (it cannot rule out aliasing); here the buffers are the
       kernel's own lane buffers, read and written by nothing else in the
       loop (checked), so the promotion is exact.

    4. when a lane buffer is a `memref.alloc` filled with a constant just
       before the generic (its identity) and used by nothing else before
       it, and the reads ended up outside every reduction loop (each kept
       point reads its lanes once, before writing them), the reads become
       `vector.broadcast`s of that constant and the fill is erased: the
       generic writes the whole buffer anyway.

    Generics whose payload is not elementwise or calls a math function
    (`math.exp`, `math.log`, ...: LLVM's loop vectorizer maps those to
    libmvec's 16-lane variants, while a `vector<64xf32>` call would be
    split into scalar calls), whose lanes are not static, whose operands
    are `i1` or whose maps are not projected permutations (mirrored dims)
    are left to LLVM's loop vectorizer. Values
    are unchanged: each lane still meets its elements in the same order.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def StrideSplitMathChains : Pass<"stride-split-math-chains"> {
  let summary = "Strip-mined fission of elementwise loops that chain transcendental functions";
  let description = [{
    An elementwise `linalg.generic` on buffers whose payload feeds one
    transcendental function into another (`log1p(exp(x))`,
    `arctan2(sqrt(a), sqrt(1 - a))` after `sin`s and `cos`s) is lowered to
    loops here, and its innermost loop is split into stages that run over a
    block of `block` elements each, one after the other, handing the values
    that cross from one stage to a later one over in small stack buffers
    (64-byte aligned `memref.alloca`s of `block` elements, between
    `llvm.intr.stacksave` and
    `llvm.intr.stackrestore`, so that a split loop inside another loop or a
    thread's chunk takes the same stack at every iteration):

    ```
    for b in [lb, ub) step block:
      for i in [b, min(b + block, ub)): t[i - b] = exp(x[i])
      for i in [b, min(b + block, ub)): y[i] = log1p(t[i - b])
    ```

    Why: each vectorized function is a dependency chain of tens of vector
    operations, and a loop that evaluates two of them back to back doubles
    the chain while the core's out-of-order window stays the same, so fewer
    iterations overlap. On the project's AMD EPYC (Zen 5) a fused
    `log1p(exp(x))` over 2^20 f64 took 1.12-1.14 ms against 0.23 ms for
    `exp` and 0.42 ms for `log1p` alone (interleave counts 1, 2 and 4
    changed nothing); the stages over blocks of 128 to 1024 elements take
    the sum of the two, and the buffers stay in L1. The stage loops carry
    `llvm.loop.unroll.disable`: where the blocks divide the loop, LLVM
    would otherwise unroll a stage whose trip count it proves constant and
    let SROA put the buffer back into registers, chaining the functions
    again. The buffers are 64-byte aligned: at 8 bytes every vector store
    and load of them split across two cache lines (`sin(log1p(exp(x)))`:
    1.17 ms against 0.97).

    Placement: an op's stage is the first one in which its operands are
    available with at most one transcendental function on any path inside
    that stage (a function whose operand already depends on one in its
    stage moves to the next stage); other ops go to the stage of their
    latest operand. Values that depend on no function (loads of the
    operands, index arithmetic and what is computed from them alone) are
    recomputed in every stage that uses them rather than buffered; every
    store stays in the last stage, in its order, so loads and stores of an
    in-place operand keep their order in each iteration. Only generics
    whose loops are all parallel are split (the iterations of the innermost
    loop are independent, so running them stage by stage is exact), whose
    payload holds no region and whose crossing values are scalars; a
    power with a constant exponent is not counted (stride-expand-powers
    makes products of it). An innermost loop with a static trip count below
    `min-trip` is left to `convert-linalg-to-loops`.
  }];
  let options = [
    Option<"block", "block", "int64_t", /*default=*/"512",
           "Elements per stage and block (the buffers hold this many; 1 to 65536)">,
    Option<"minTrip", "min-trip", "int64_t", /*default=*/"64",
           "Split only innermost loops of at least this many iterations "
           "(or a dynamic count)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def StrideExpm1ToLibm : Pass<"stride-expm1-to-libm", "::mlir::ModuleOp"> {
  let summary = "Lower math.expm1 to calls of libm's expm1 and expm1f";
  let description = [{
    Rewrites every `math.expm1` (scalars, and vectors lane by lane) into a
    call of libm's `expm1` or `expm1f`, with upstream's `math-to-libm`
    patterns applied to that op alone. `convert-math-to-llvm` would lower
    it as `exp(x) - 1`, which loses every digit near 0; as a libm call, the
    kernel optimizer maps a vectorized loop's calls to a vector variant
    (Stride's own float64 expm1, libmvec's float32 one), and a scalar call
    is libm's, accurate to 1 ulp. Runs in the CPU lowering before
    `convert-math-to-llvm`; GPU kernels keep libdevice's `__nv_expm1`.

    Example:

    ```mlir
    %y = math.expm1 %x : f64
    ```

    becomes `%y = call @expm1(%x) : (f64) -> f64` with `func.func private
    @expm1(f64) -> f64` declared in the module.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::arith::ArithDialect"];
}

def StrideExpandPowers : Pass<"stride-expand-powers"> {
  let summary = "Evaluate float powers with a constant integral exponent (x ** 3) by binary powering";
  let description = [{
    Rewrites every `math.powf` on `f64` or `f32` (a scalar or a vector of
    any shape) whose exponent is a constant integral value n with |n| <= 64
    (`x ** 3`, `np.power(x, -2.0)`: the tracer keeps a literal exponent as
    a constant) into products that LLVM vectorizes, instead of the vector
    pow's logarithm and exponential (about 70 operations a vector):

    - **float64**: binary powering in double-double. Each product is hi =
      a b rounded plus lo = fma(a, b, -hi) and the cross terms of the low
      parts, so hi + lo stays within about 2^-100 of x^|n|, and one final
      addition rounds. A negative n powers 1 / x, as qh + ql with ql
      from the division's exact residual (fma(-qh, x, 1) qh), so that no
      intermediate power overflows where the result is subnormal (x^-64
      of 8e4). The result matches the long
      double pow rounded to double up to that reference's own double
      roundings: 1 ulp in `python/tests/test_math_accuracy.py`'s metric,
      where NumPy's pow (SVML) has 1.
    - **float32**: the same powering in plain float64 products (at most 13
      roundings of 2^-53 against float's 2^-24), one rounding to float.

    Special values come out as IEEE pow gives them, with no call: n = 0
    gives 1 for every x (NaN too); x = +-0 and +-inf give signed zeros and
    infinities by the products' signs (the low parts, NaN there, are
    dropped where hi is zero, infinite or NaN); overflow gives inf and
    underflow a subnormal or zero (within an ulp of the subnormal grid).
    Exponents that are not constant, not integral, or beyond 64 in
    magnitude keep `math.powf` (the vector pow of `lib/Pipelines/VectorMath`
    tests for integral exponents at run time too). Runs in the CPU
    lowering; GPU kernels keep libdevice's pow.

    Measured on this project's Zen 5 box, 2^20 doubles, one thread:
    `x ** 3` 1.30 ms -> 0.15-0.20 ms (NumPy 1.39), `x ** -2` 1.27 ->
    0.24-0.34 ms, a GELU with `x ** 3` 2.76 -> 1.22 ms (NumPy 5.6-6.0).

    Example:

    ```mlir
    %c3 = arith.constant 3.0 : f64
    %y = math.powf %x, %c3 : f64
    ```

    becomes a squaring and a product in double-double (mulf, fma, addf)
    and a select that keeps hi where it is zero or not finite.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def StrideExpandMath : Pass<"stride-expand-math"> {
  let summary = "Evaluate float64 exp inline as a polynomial that LLVM vectorizes, instead of calling libmvec";
  let description = [{
    Rewrites every `math.exp` on `f64` (a scalar or a vector of any shape)
    into arith and math ops that compute it in registers:

    1. the argument is clamped to [-746, 710] (`arith.maxnumf` and
       `arith.minnumf`: NaN becomes -746, and is restored at the end);
       beyond those bounds the result is 0 or infinity anyway;
    2. k = roundeven(x / ln 2), and r = x - k ln 2 with ln 2 split in two
       doubles (two FMAs), so |r| <= ln(2) / 2 and r is exact to about
       2^-55;
    3. exp(r) = 1 + r + r^2 q(r), q of degree 9 in Horner form with the
       coefficients that minimize the maximum relative error on that
       interval (2^-57.9; a Remez exchange, `utils/remez-exp`); 1 + r is
       split into its rounded sum and the exact error (Fast2Sum), which
       joins r^2 q(r), so that only the last addition rounds at 1's scale;
    4. the result is exp(r) 2^k1 2^k2 with k1 = k >> 1, k2 = k - k1, each
       power built in the exponent bits: both factors are normal doubles
       for every k in range, so overflow to infinity, the subnormal range
       and underflow to 0 come out of the second multiplication, rounded
       once. k reaches the integer unit through the 1.5 * 2^52 shift
       (an add and a bitcast), not a conversion that AVX2 lacks.

    The maximum error is below one ulp (0.79 measured over 4 million
    arguments against `expl`); libmvec's is 3 ulp and NumPy 1.24's AVX-512
    loop 2 ulp against the rounded reference of
    `python/tests/test_math_accuracy.py`. Speed, 2^20 doubles on the
    project's AMD EPYC (Zen 4) box: in C loops built by clang 22, this
    expansion took 0.82 ms (0.95 ms with a degree-11 Taylor q, 0.76 ms
    without the Fast2Sum, at 1.04 ulp), libmvec's 8-lane `_ZGVeN8v_exp`
    0.75 ms on arguments in [0.5, 1.5) and 1.2-1.3 ms on [-5, 5), its
    4-lane variant 0.94 ms; in Stride's kernel (`stride-run --bench`, one
    thread) the libmvec calls took 0.90-0.96 ms and the expansion
    0.80-0.83 ms; NumPy's loop 0.79-1.07 ms. Zen 4 runs one 512-bit FMA
    per cycle and the expansion has 16 of them per 8 lanes, so the
    degree of q is the cost. Upstream's `math-polynomial-approximation`
    covers `f32` only (whose libmvec variants are faster than NumPy's
    here), so `f32` is left alone, as is every other function: libmvec's
    log, sin and cos were as fast as a division-based or Taylor
    expansion. GPU kernels keep libdevice (the pass runs in the CPU
    lowering only).

    The CPU pipeline runs it only with `expand-math=1` (default 0): the
    kernel optimizer's own vector exp (`lib/Pipelines/VectorMath`, a
    2^(j/8) table read by AVX-512 permutes and a degree-7 polynomial,
    inlined into the vectorized loop) took 0.48 ms on the same 2^20
    doubles where this expansion took 0.80 ms.

    Example:

    ```mlir
    %y = math.exp %x : vector<8xf64>
    ```

    becomes about 40 arith and math ops on `vector<8xf64>` and
    `vector<8xi64>` and no call.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

#endif // STRIDE_CODEGEN_CPU_PASSES_TD
