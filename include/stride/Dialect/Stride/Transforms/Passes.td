//===- Passes.td - Stride dialect passes -------------------*- tablegen -*-===//

#ifndef STRIDE_DIALECT_STRIDE_TRANSFORMS_PASSES_TD
#define STRIDE_DIALECT_STRIDE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def StrideGeneralize : Pass<"stride-generalize"> {
  let summary = "Rewrite named elementwise ops into one-op stride.broadcast";
  let description = [{
    Every named elementwise op (`stride.add`, `stride.exp`, `stride.cmp`,
    `stride.select`, `stride.cast`, ...) becomes a `stride.broadcast` with the
    same operands and result type whose body applies the matching `arith` or
    `math` operation to one element of each operand. This is the single form
    that fusion, coalescing and the lowering consume, so they need no case per
    named op. The scalar semantics are NumPy's, except that integer `div`
    truncates toward zero as in C (NumPy's true division of integers needs a
    `stride.cast` to float first); further:
    `maximum`/`minimum` propagate NaN, `sigmoid` is `1 / (1 + exp(-x))`, casts
    to `i1` test for nonzero and `i1` converts to 0 or 1. Discardable
    attributes (such as the shape-check marker of `stride-infer-shapes`) carry
    over to the new op.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def StrideReassociateMatmuls : Pass<"stride-reassociate-matmuls"> {
  let summary = "Evaluate chains of matrix products in their cheaper order";
  let description = [{
    `A @ B @ C` is `(A @ B) @ C` in NumPy, whatever the shapes: with an
    `n x n` `A`, `B` and a vector `x`, `A @ B @ x` does `n^3` multiplies
    where `A @ (B @ x)` does `2 n^2`. Matrix products are associative, so,
    as `numpy.linalg.multi_dot` and Julia's three-argument `*` do, this pass
    takes the cheaper order of each pair of chained `stride.matmul`s: where
    a product's operand is another product used only there, it compares the
    multiplies of `(A @ B) @ C` (`m k n + m n p`) with those of
    `A @ (B @ C)` (`k n p + m k p`) and rewrites to the other order when it
    does at least `min-gain` times fewer. Chains of more products are
    taken pair by pair in program order.

    Only static shapes of rank 1 or 2 with one element type are
    considered, the two products in one block (a product made before a loop
    and used in its body is computed once, which the counts ignore), and
    the middle operand `B` must be a matrix: a vector
    there is promoted differently on each side (`(A @ b) @ C` is `b^T A^T
    C`), so that chain is not associative. The sums run in another order,
    so the result differs from NumPy's in rounding, as BLAS's blocking
    does; products of integers are exact either way. Chains whose two
    orders cost within `min-gain` of each other (square matrices) keep
    NumPy's.

    Example (`min-gain` 2): `%ab = stride.matmul %a, %b : tensor<500x500xf64>,
    tensor<500x500xf64> -> tensor<500x500xf64>` then `stride.matmul %ab, %x
    : ..., tensor<500xf64> -> tensor<500xf64>` becomes `%bx =
    stride.matmul %b, %x` then `stride.matmul %a, %bx` (250,000 multiplies
    twice instead of 125,250,000).
  }];
  let options = [
    Option<"minGain", "min-gain", "int64_t", /*default=*/"2",
           "Reorder a chain only when the other order does at least this "
           "many times fewer multiplies (0: never)">,
  ];
}

def StrideInferShapes : Pass<"stride-infer-shapes"> {
  let summary = "Refine result shapes by NumPy broadcasting and matmul rules";
  let description = [{
    Walks the Stride ops in order and refines each result type from its
    operands' types: elementwise ops by NumPy broadcasting (right-aligned, sizes
    equal or one of them 1, 1 maps to the other size, even 0), `stride.matmul`
    by NumPy's matmul (1-D promotion, broadcast batch dims). The result keeps
    whatever the declared type already knew; users of a refined value are
    updated in place when they accept any tensor, and `func.return` operands
    update the function signature. Running the pass twice changes nothing.

    Incompatible static shapes are diagnostics naming the op, every operand's
    shape and the failing dimension (for matmul, the contracted dims).

    Dynamic dims stay dynamic unless the rules decide them (`?` with 5 gives 5;
    `?` with 1 gives `?`). Where a dynamic dim meets another size that is not
    1, the pass inserts a `cf.assert` that the run-time sizes broadcast, with a
    message naming the op, the operands and the dimension, so an incompatible
    run-time size fails cleanly instead of reading out of bounds. (A dynamic
    dim that is 1 at run time broadcasts: the lowering gives it stride 0.)

    On a module the pass visits functions callees first and repeats until
    nothing changes (ModuleStructure.cpp): every `func.call` takes its
    callee's refined result types; a private function takes the argument
    types all its call sites agree on; a public function keeps its argument
    types; external declarations are untouched; recursion is an error naming
    the cycle. Loop-carried values of `scf.for` / `scf.while` take their
    initial values' shapes, yields are cast to them (another shape is an
    error on the `scf.yield`), and an `scf.if` result takes the shape both
    branches yield. See docs/composition.md.
  }];
  let dependentDialects = ["::mlir::cf::ControlFlowDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def StridePropagateLayout : Pass<"stride-propagate-layout"> {
  let summary = "Assign result layouts as PyTorch or NumPy would";
  let description = [{
    Gives every Stride op's result a `#stride.layout` encoding computed op by
    op from its operands' layouts, exactly as the eager library picks output
    strides:

    - `torch`: PyTorch's TensorIterator after pytorch#42922 (fast paths for
      all-contiguous, all-channels-last and identical dense inputs; otherwise
      the inverse of the permutation that sorts dimensions by stride);
    - `numpy`: NumPy ufuncs with `order='K'`;
    - `contiguous`: row-major.

    Static sizes get explicit strides; where sizes are dynamic the layout is
    the `perm` form computed from the operands' dimension orders, assuming the
    dynamic dims are neither 1 nor broadcast. A destination (`outs`) keeps its
    own layout. An operand that is a `stride.cast` marked `stride.promotion`
    (the op's own type promotion, which the eager libraries do inside the
    loop) counts as the uncast value. `stride.matmul` results are row-major under `torch` and
    `contiguous`; under `numpy` they are laid out as NumPy's matmul gufunc
    allocates them: batch dims in `order='K'` of the operands' batch dims,
    the core (m, n) dims row-major inside, all-zero strides when empty.
    (PyTorch's matmul can leave other strides on size-1 dims, artifacts of
    its internal paths; they address no memory differently and are not
    reproduced.) Function results take the propagated layout and the signature
    is updated, unless `keep-result-layouts` is set: then a declared result
    layout is kept and a copy (`stride.broadcast` into a `tensor.empty` of
    that layout) is inserted before the return.

    Calls and `scf` regions follow the rules of `stride-infer-shapes`, for
    layouts: call results take the callee's result layouts, a private
    callee takes the layouts its call sites agree on, and a loop-carried
    value keeps the layout it enters the loop with, a body result in another
    layout being copied into it (a one-op `stride.broadcast` into a
    `tensor.empty` of that layout).
  }];
  let options = [
    Option<"policy", "policy", "::stride::layout::Policy",
           /*default=*/"::stride::layout::Policy::Torch",
           "Whose output strides to reproduce: torch, numpy or contiguous",
           "::mlir::stride::policyOptionValues()">,
    Option<"keepResultLayouts", "keep-result-layouts", "bool",
           /*default=*/"false",
           "Keep the layouts declared on function results and insert copies">,
  ];
  let dependentDialects = ["::mlir::stride::StrideDialect",
                           "::mlir::tensor::TensorDialect"];
}

def StrideFuse : Pass<"stride-fuse"> {
  let summary = "Fuse elementwise producers into their consumers (Julia's dot fusion)";
  let description = [{
    Merges a `stride.broadcast` producer into each `stride.broadcast` that
    consumes it, as Julia's `Broadcasted` tree turns `2 .* (x .+ 1) .* y .-
    exp.(x)` into one loop: the consumer takes the producer's inputs as its
    own and computes the producer's scalar function inline, so after
    lowering the whole expression is one loop nest with no intermediate
    buffer. Run it after `stride-generalize` (only `stride.broadcast` fuses)
    and after `stride-propagate-layout`: result types, and so output strides,
    are never changed by fusion.

    Broadcasting composes: if `x` broadcasts to the producer's shape and that
    to the consumer's, `x` broadcasts to the consumer's shape with the same
    element mapping, so feeding `x` to the consumer is exact. As in Julia, a
    producer whose result the consumer broadcasts is evaluated once per
    consumer element. Inputs that become duplicated (the same value reaching
    the consumer twice) are read once: they share one block argument.

    Rules:
    - A producer with destinations (`outs`), with several results, or whose
      result has a use that is not an input of a `stride.broadcast` (a
      `stride.matmul`, a `func.return`, another op) is kept: fusion never
      crosses a matmul and never drops a value someone else reads.
    - A producer is cheap when its body has at most `recompute-limit`
      operations, none from the `math` dialect (transcendentals cost more
      than a load).
    - A producer with one use is fused, unless the consumer reads it
      broadcast (it iterates a dim of size other than 1 that the producer's
      result lacks or has with size 1) and it is not cheap: fused, it would
      run once per consumer element instead of once per element it makes
      (`a + exp(v)` with `a` a matrix and `v` a vector computes `exp(v)` once
      as its own kernel).
    - A producer with several uses is recomputed in every consumer when it is
      cheap and kept otherwise. `recompute-limit=0` keeps every shared
      producer.
    - Fusion sees through views: a view op (`stride.permute`, `stride.slice`,
      `stride.expand`, ...; not `stride.reshape`) of a producer's result that
      only one consumer reads, of a producer used only by that view and of
      static shape, becomes the same view of each of the producer's inputs
      (expanded to the producer's shape first), so `(a + b).T * c` is
      `a.T + b.T` fused into the product: one loop nest, and the
      intermediate is never materialized.
    - A producer whose only use is a reduction (`sum`, `prod`, `amax`,
      `amin`, `mean`, `any`, `all`; `argmax` and `argmin` too with
      `index-reductions`, when every input has static, non-negative strides,
      so that the kernel's loops, which give the indices, walk them
      forwards), of static shape and strides, becomes one
      `stride.map_reduce` with it: `sum(x * y)`, `amax(abs(a - b))`,
      `mean((x - m) ** 2)`, `argmax(abs(x))` read their inputs once and
      store nothing in between. Each element is still computed once, so no
      cost rule applies; the result rounds as before (the reduction's loop
      order and blocking follow the producer's layout, as they followed the
      materialized input's).
    - A producer whose only use is the matrix of a matrix-vector product
      (`P @ x` or `x @ P`, `x` of rank 1, floats of one type, static shapes
      and strides) becomes with it one `stride.map_reduce` "sum" of `P * x`
      along the last axis (of `x[:, None] * P`, through a `stride.unsqueeze`
      view of x, along the second last), marked `stride.plain_reduction`
      (summed plainly, as the matmul kernel did): `alpha * A @ x` reads A
      once and stores no scaled copy, and stride-tile-matmul blocks the rows
      of `P @ x` as it blocks `A @ x` (`x @ P` stays one row of P at a time).
      Fusion into the matrix of a matrix-matrix product is not done: its
      kernel reads each element many times.

    Algorithm: the consumers are visited once, in program order; each
    absorbs the producer of its first input that may fuse until none is
    left, so by the time a consumer is reached its producers hold their
    whole expressions. The structural rule is fixed; the recompute rule is a
    control function (`ControlFusionFn`, as upstream's linalg elementwise
    fusion), and the same rewrite is available as a pattern for the greedy
    driver (`populateStrideFusionPatterns`, `Fusion.h`). A fusion keeps the
    block and block arguments of the larger body (the absorbed producer's,
    or for a recomputed producer the consumer's) and moves or clones only
    the smaller one, so a chain of N ops fuses in time linear in N
    (`bench/fuse_chain.py`). The merged op's inputs are the consumer's other
    inputs in front of the producer's.
  }];
  let options = [
    Option<"recomputeLimit", "recompute-limit", "unsigned", /*default=*/"2",
           "Largest body (in operations) of a shared producer that is "
           "recomputed in each consumer">,
    Option<"indexReductions", "index-reductions", "bool", /*default=*/"true",
           "Fuse producers into argmax and argmin too (the GPU pipeline "
           "turns this off: its block trees take index reductions of "
           "stored tensors)">,
  ];
  let statistics = [
    Statistic<"numFused", "fused", "Producers merged into a consumer">,
    Statistic<"numRecomputed", "recomputed",
              "Shared producers recomputed in a consumer">,
    Statistic<"numKept", "kept",
              "Producers left in place although a stride.broadcast reads them">,
    Statistic<"numViewsSunk", "views-sunk",
              "Views of a producer's result moved onto its inputs">,
    Statistic<"numIntoReductions", "into-reductions",
              "Producers fused into a reduction (stride.map_reduce)">,
    Statistic<"numIntoMatrixVector", "into-matrix-vector",
              "Producers fused into a matrix-vector product "
              "(a plain stride.map_reduce)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::stride::StrideDialect"];
}

def StrideFuseRows : Pass<"stride-fuse-rows"> {
  let summary = "Fuse a reduction with its producers and the consumers that "
                "broadcast it back: one loop over blocks of rows";
  let description = [{
    Softmax (`exp(x - max(x, -1, keepdims)) / sum(...)`) and layer norm are
    a few kernels after `stride-fuse`: a reduction over the last axes, an
    elementwise op that reads the reduced values broadcast back, another
    reduction, another broadcast. Each kernel streams the whole array
    through memory. This pass puts such a group into one `scf.forall` over
    blocks of the leading dim: every op runs on a block of rows (about
    `block-bytes` of the largest operand), so the input is read from memory
    once, the intermediates stay in the cache, and the output is written
    once, as PyTorch's fused CPU softmax and layer norm do.

    A group has a root: a `stride.broadcast` with one result of static shape
    `S` (rank 2 or more) and no destinations. Going backwards from the root
    through the block, a producer joins the group when all its users are in
    the group and it is
    - a `stride.broadcast` with one result and no destinations whose shape
      is `S`, or `S` with the reduced dims set to 1;
    - a reduction (`stride.sum`, `prod`, `amax`, `amin`, `mean`, `any`,
      `all`, `stride.map_reduce`) with `keepdims`, input (or `mapped`) shape
      `S`, over a set of trailing dims that leaves dim 0 kept; every
      reduction of a group reduces the same dims.
    The group is fused when it holds a reduction. Values from outside the
    group (arguments, other ops' results, scalars) are read as slices of
    the block's rows where they have the leading dim, whole otherwise
    (broadcast operands such as layer norm's weights).

    Layouts never change: the pass fuses only groups whose root result and
    whose operands from outside are row-major (no `#stride.layout`
    encoding), so a block of rows is a contiguous slice of each. The ops
    inside the loop compute on row-major blocks; the root writes its block
    straight into a slice of the result (a destination). Values are the
    same as unfused: every op computes each of its elements as before, and
    a reduction of a block reduces each row in the same order.

    The block size is the largest divisor of the leading dim whose block of
    `S` takes at most `block-bytes`, so shapes stay static; a group is left
    alone when a row of `S` takes more than `max-row-bytes` (a block would
    not stay in the cache), when the loop would have one iteration, or when
    that divisor leaves blocks under 1/32 of `block-bytes` (a prime number
    of short rows: each iteration's kernel calls would cost more than its
    arithmetic).
    `stride-bufferize` then runs the loop on threads when the group moves
    at least 2 MiB and `threads` > 1, and keeps the blocks' temporaries on
    the stack: allocated once in the function's entry block on one thread
    (so an enclosing scf.for does not grow the stack), in each
    iteration (under OpenMP's per-iteration scope) on several. With the
    module attribute `stride.explain`, each group built or declined is a
    remark saying why.
  }];
  let options = [
    Option<"blockBytes", "block-bytes", "int64_t", /*default=*/"32768",
           "Largest block of the group's full shape, in bytes, that one "
           "iteration computes">,
    Option<"maxRowBytes", "max-row-bytes", "int64_t", /*default=*/"262144",
           "Groups whose one row (all dims but the leading one) takes more "
           "bytes stay unfused">,
  ];
  let statistics = [
    Statistic<"numGroups", "groups", "Groups fused into a loop over rows">,
    Statistic<"numOpsFused", "ops", "Ops moved into those loops">,
  ];
  let dependentDialects = ["::mlir::stride::StrideDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def StrideCoalesce : Pass<"stride-coalesce"> {
  let summary = "Choose the loop order and merge contiguous dimensions";
  let description = [{
    Sets the `iteration` attribute of every `stride.broadcast` whose operand
    and result strides are known: the loops follow the result's memory order
    (innermost loop = smallest stride) with ties broken as TensorIterator's
    reorder_dimensions does, then adjacent loops merge as in TensorIterator's
    coalesce_dimensions when, for every operand, one of the two dims has size
    1 or `stride[outer] == stride[inner] * size[inner]`. The lowering walks
    each group as one loop over a collapsed view, so a contiguous or
    consistently permuted expression becomes a single flat loop. Values and
    result strides never change; ops with unknown strides are left alone.
  }];
  let statistics = [
    Statistic<"numOrdered", "ordered", "Ops given an iteration order">,
    Statistic<"numDimsMerged", "dims-merged",
              "Result dimensions merged into an outer loop">,
    Statistic<"numSkipped", "skipped",
              "Ops left alone (unknown or dynamic strides, 0-d)">,
  ];
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
    their `BufferizableOpInterface` models, plus tensor-level steps: one for
    the element types, then those that fix the calling convention of the
    functions the host calls:

    0. Unsigned integer types (`ui8` ... `ui64`, NumPy's unsigned dtypes)
       become the signless integers of their width everywhere in the module
       (tensors, scalars, function types, type attributes): linalg, arith
       and the LLVM lowering compute on signless integers only, and the
       bits are the same. The unsigned meaning is already spelled out by
       then: the scalar bodies chose unsigned division, comparison, shifts,
       extension and conversion and cast their operands
       (`builtin.unrealized_conversion_cast`, dropped here as identities);
       reductions of unsigned elements, whose kernels are built during
       bufferization, are marked `stride.unsigned` first, so that they
       compare, widen and convert without a sign.
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

    **The kernels.** Nothing is materialized: every operand is read in place
    through a strided view.

    - `stride.broadcast` becomes one `linalg.generic` over its iteration
      space: the loops of its `iteration` attribute (from `stride-coalesce`;
      otherwise one loop per dim in the result's memory order). Every operand
      is viewed with `memref.reinterpret_cast` as a memref of the loop rank
      whose strides are the operand's strides for those loops, 0 for
      broadcast dims; a dim of dynamic size that is 1 at run time gets
      stride 0 by an `arith.select`. A scalar operand is a scalar input with
      an empty indexing map.
    - `stride.matmul` becomes `linalg.fill` plus a `linalg.generic` with
      loops (batch..., m, k, n) -- n innermost, so that the inner loop walks
      rows of the rhs and the output and vectorizes; broadcast batch dims and
      promoted 1-D operands are views with stride 0 (burn#1679), never
      copies.
    - Negative strides are never handed to the memref-to-LLVM lowering (its
      index arithmetic is `nuw` and its GEPs `inbounds`): a loop along which
      a view has a negative stride reads it flipped, as NumPy does -- the
      view's offset moves to the last element, its stride becomes positive
      and the loop index is mirrored in the indexing map. This needs the
      loop's size to be static; a negative stride along a dynamic dim is a
      diagnostic. Destinations may be reversed too; a loop that appears only
      mirrored (in every operand) is walked backwards instead, as linalg
      needs each loop as a plain index somewhere and elementwise loops may
      run in any order.
    - `argmax`, `argmin`, `max` and `min` of a float array over trailing
      row-major contiguous dims (the whole array, or its rows) of at least
      16 blocks of four vectors fold each block to its elementwise maxima
      (three max instructions) and compare only those with the lanes, which
      keep their best value (and, for an index, the number of the block
      where it first appeared); a block with NaN is flagged by two
      unordered compares. The end of an index reduction rescans the one
      block each lane holding the best value names (a loop over the set
      bits of their mask: the first index), and a NaN anywhere leads to a
      scan for the first NaN,
      NumPy's answer. Stepping a value and an index at every element took
      twice as many instructions (`np.argmax` of 1M f64 on one thread:
      0.163 ms, now 0.07-0.085; NumPy 0.093). Threads split the rows, or a
      whole array's blocks into one run each, merged in run order. The
      blocks loop is unrolled at most four times: LLVM unrolled rows of 16
      blocks completely and spilled half of their vectors.

    - With `threads=N` (N > 1), a kernel that moves at least 2 MiB or does
      at least 2^24 operations (its body's ops times its points; a math
      function counts 16; a single matrix product, whose micro-kernel does
      about 16 a cycle, 2^21: f64 128^3 ran 1.8x faster on two threads) is
      split into N chunks of one loop under an
      `scf.parallel` (each chunk a `linalg.generic` on subviews), for
      `convert-scf-to-openmp`. Smaller kernels (small batched products,
      short vectors) stay on one thread: they take tens of microseconds, and
      OpenMP's fork/join costs a good part of that, much more when another
      process holds a core. The split loop is the outermost of the leading
      parallel loops that is a plain index in every view and has at least 4
      iterations per thread (a short batch loop would leave threads idle),
      else the longest such loop. A reduction (named or `stride.map_reduce`)
      to fewer points than threads (a whole-array sum, max, argmax or any)
      has no such loop: its long contiguous reduced dim is instead cut into
      one run of blocks per thread, each accumulated in its own lanes (a
      leading parts dim of the lane buffers, an `scf.parallel` over the
      parts), and the parts are combined after the lane tree, as a split-K
      product combines partial products (`np.sum` of 1M f64: 0.18 ms on one
      thread, 0.087 on two; NumPy's is 0.18). A dot product of two vectors
      over at least 2 MiB likewise runs one run of k per thread into its
      own partial sum, a cache line apart, the partial sums added in part
      order (OpenBLAS's `ddot` splits its vectors the same way).

    - A `stride.matmul` whose operand is the other one's transpose
      (`x @ x.T`, `x.T @ x`, a batched `b @ b.mT`, einsum's `ij,kj->ik`:
      both operands view one value through permutations that fix every dim
      or swap the last two, an odd number of swaps between them, and
      reshapes that only add or drop leading unit dims) is symmetric, which BLAS's `syrk` (NumPy's choice for these) uses.
      With a static `m` of at least twice the block, only one side of the
      diagonal is multiplied, in blocks of `gram-block` (halved down to 32
      while `m` is under 8 blocks), each a `linalg.fill` plus
      `linalg.generic` as above: column blocks `[a0, a1)` of the rows
      `[0, a1)`, so that each block copies only its own columns of a
      column-major rhs (stride-tile-matmul's `pack-reuse`), or, when the
      lhs is the one stored against its grain (`x.T @ x` of a row-major x),
      row blocks `[a0, a1)` of the columns `[0, a1)`, with the column loop
      first, where threads split. The rest of the result is then copied
      from its transpose, one elementwise generic per block. This
      multiplies `1/2 + block / 2m` of the products: on the project's AMD
      EPYC, one thread, `x @ x.T` of a 1000 x 500 f64 went from 0.50 to
      0.93 of NumPy's speed, `x.T @ x` of 2000 x 300 from 0.55 to 1.06.
      Each element still sums its products in k order, and each copied
      element equals its transpose exactly.

    A named elementwise op bufferizes as the one-op `stride.broadcast` it is
    sugar for, so `stride-generalize` need not run first.

    Lowering Stride ops to linalg on tensors first was not chosen: a tensor
    `linalg.generic` cannot express a stride-0 or mirrored view of an operand
    or a size selected at run time, so it would force copies that the
    buffer-level kernels avoid.
  }];
  let options = [
    Option<"threads", "threads", "unsigned", /*default=*/"1",
           "Split large kernels into this many chunks of their outer loop, "
           "run in parallel">,
    Option<"gpuReductions", "gpu-reductions", "bool", /*default=*/"false",
           "Emit each reduction as one plain linalg.generic whose combiner "
           "is a single op (float sums uncompensated), for the block trees "
           "of stride-map-linalg-to-gpu; the CPU's compensated lanes and "
           "row blocks are not built">,
    Option<"gramBlock", "gram-block", "int64_t", /*default=*/"128",
           "Columns per block of a product of a matrix with its own "
           "transpose (x @ x.T, x.T @ x): only the blocks on and above the "
           "diagonal are multiplied and the rest is mirrored (0: never)">,
  ];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           // Block maxima (BlockMaxima.cpp): vectors, and
                           // an unroll limit on their loop.
                           "::mlir::vector::VectorDialect",
                           "::mlir::LLVM::LLVMDialect",
                           // The copies into an entry's result destinations
                           // are stride.broadcast ops, even in a module
                           // with no Stride op of its own.
                           "::mlir::stride::StrideDialect"];
}

def StrideEarlyDealloc : Pass<"stride-early-dealloc", "::mlir::func::FuncOp"> {
  let summary = "Free each buffer right after its last use instead of at the end of its block";
  let description = [{
    Upstream's ownership-based deallocation pipeline frees a buffer at the
    end of the block that allocates it. In a kernel made of many steps (a
    Python loop unrolled by `@stride.jit`: twenty sweeps of a stencil, each
    writing a new array) every step's buffer then stays allocated until the
    function returns: the memory in use grows with the number of steps, and
    the allocator hands out fresh pages (page faults, cache misses) where it
    could have reused the previous step's.

    This pass moves each unconditional `memref.dealloc` of a `memref.alloc`
    made in the same block up to just after the last op of that block that
    uses the buffer or any value that may alias it. The aliases are found
    conservatively: every memref result of any op that uses the buffer or
    an alias (views, casts, loops and calls alike), and every memref result
    of the ops of the block that contain such a use. A buffer that an alias
    of reaches the block's terminator is left alone. Deallocations inside
    conditionals (ownership that is only known at run time) are not moved.

    Example: in

    ```mlir
    %a = memref.alloc() : memref<8xf32>
    linalg.fill ins(%c : f32) outs(%a : memref<8xf32>)
    linalg.copy ins(%a : memref<8xf32>) outs(%out : memref<8xf32>)
    %b = memref.alloc() : memref<8xf32>
    ...
    memref.dealloc %a : memref<8xf32>
    ```

    the dealloc of `%a` moves to just after the `linalg.copy`, so that the
    allocation of `%b` can reuse its memory.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def StrideDistribute : Pass<"stride-distribute", "::mlir::ModuleOp"> {
  let summary = "Choose shardings of each entry over a grid of processes and propagate them";
  let description = [{
    Prepares a shape-inferred, layout-propagated module for upstream
    `shard-partition`: every public function with a body becomes a program
    that each process of `grid` (`4`, or `2x2`: rank r at the row-major
    coordinates of r) runs on its block of the data.

    1. **Choice.** A function that already holds `shard.shard` ops keeps its
       user's shardings. Otherwise one value is annotated and upstream
       `sharding-propagation` (run by this pass) spreads the choice through
       the function, backward to its arguments and forward to its results:
       - `auto`: with a `stride.matmul`, its batch dim, else its rows (M),
         else its contracted dim (K), the first of these whose size the
         grid divides; without one, the first returned value's outermost
         dim in memory order (largest stride, from its propagated layout)
         that the grid divides, so each rank's block of the result is one
         contiguous run of the single-process result; when no result dim
         divides (a full reduction's 0-d result), the first reduction's
         input, whose partial results a `shard.all_reduce` combines (a
         split `mean` is the mean of the ranks' means: the blocks are
         equal);
       - `rows` / `cols`: the matmul's M / N dim, or the result's first /
         last dim;
       - `k`: the matmul's contracted dim; each rank multiplies its slices
         of K and a `shard.all_reduce` sums the partial products.
       On a grid of several dims each axis, in order, takes a dim whose
       size (less what earlier axes took of it) it divides. Elementwise
       results reuse a split dim first (both axes on the outermost dim
       when it divides: one contiguous block per rank); an `auto` matmul
       takes distinct dims first among batch, M and then N (rows over axis
       0, columns over axis 1: a 2-D block decomposition). An axis no dim
       fits stays whole: the ranks along it compute the same blocks.
       The choice is printed as a remark on the function.
    2. **Layouts.** Every rank holds each split (or replicated) argument as
       a dense row-major block, which the runner copies out of the caller's
       strided array, so the pass drops the `#stride.layout` encodings of the
       function: `stride-propagate-layout`, run again after partitioning,
       gives each local result the layout the policy gives it for those
       blocks, and the runner writes the gathered blocks into the strides
       the single-process run gives.
    3. **Reshardings.** Upstream `shard-partition` reshards correctly in one
       step only when one grid axis is appended to or dropped from the end
       of one dim's list, or moved from the end of one dim's list to the
       end of another's; on grids of several dims it gives wrong shapes or
       crashes on the others (swapping the axes of two dims). The pass
       chains such a change as single steps: drop the axes that do not
       stay, last first, then append the new ones.
    4. **Record.** Each split argument and result gets `stride.split_dims`
       (per grid axis, the tensor dim it splits or -1) and the function
       gets `stride.grid` (the grid's shape), so runners scatter and gather
       without re-deriving the shardings.

    Refused with an error naming the value or op, never partitioned wrongly:
    a dim that the grid does not divide (uneven shards), a dynamic shape,
    an op without a sharding rule (views and calls for now), an `argmax` or
    `argmin` over a split dim,
    halo or explicit shard-offset shardings, a user's sharding over a grid
    of another shape, one that lists a dim's axes out of ascending order,
    and grids of more than four dims.
  }];
  let options = [
    Option<"grid", "grid", "std::string", /*default=*/"\"2\"",
           "the grid of processes: a number (4) or sizes joined by 'x' "
           "(2x2), at most 4 dims">,
    Option<"strategy", "strategy", "std::string", /*default=*/"\"auto\"",
           "auto, rows, cols or k">,
  ];
  let dependentDialects = ["::mlir::shard::ShardDialect",
                           "::mlir::tensor::TensorDialect"];
}

def StrideDropShardings : Pass<"stride-drop-shardings", "::mlir::ModuleOp"> {
  let summary = "Remove shard annotations from a program that runs in one process";
  let description = [{
    A program written for `stride-distribute` may carry its user's
    shardings (`shard.grid`, `shard.sharding`, `shard.shard`). They say how
    to split work between processes and nothing about values, so a run in
    one process drops them: every `shard.shard` is replaced by its operand,
    and the sharding and grid ops, then unused, are erased. The CPU pipeline
    runs this pass unless `distribute` is set. Any other `shard` op (a
    collective) has no single-process meaning and is an error.
  }];
}

def StrideExplain : Pass<"stride-explain"> {
  let summary = "Say, as remarks, why each result has its strides and how its kernel loops";
  let description = [{
    For every Stride op whose operand and result layouts are static (run it
    after `stride-propagate-layout`), a remark names the rule of the
    policy's library that gave the result its strides:
    - elementwise ops: TensorIterator's fast set-up (all contiguous, all
      channels-last, all dense with one stride) or its stride sort, NumPy's
      empty-array rule, ufunc trivial loop or nditer's order K, row-major
      under `contiguous`; with the operand whose memory order the result
      follows, and the loops the kernel runs (TensorIterator's order and
      coalescing: dims per loop, outermost first, with their sizes);
    - matmul, reductions and views: their library's allocation or view rule.
    A result whose layout is its destination's (`outs`, kept result
    layouts) says so. After `stride-fuse` and `stride-coalesce`, a
    `stride.broadcast` also lists the ops fused into its body, and why an
    operand's producer was not fused: a matmul or reduction boundary, a
    destination, or stride-fuse's recompute rule (at its default limit of
    2 ops: a shared costly producer, or a costly one read broadcast). Nothing is changed; `stride.explain` in Python
    reads these remarks.

    The decisions made later, about how kernels run, are remarks of the
    passes that make them, when the module has the unit attribute
    `stride.explain`: `stride-fuse-rows` (a row loop built, or why not),
    `stride-bufferize` (threads: chunks of which loop, or one thread and
    why), `stride-tile-matmul` (cache and register blocks, a
    matrix-vector product's loop order) and `stride-block-transposes`
    (blocked loops). They start with `stride-explain: ` as these do.
  }];
  let options = [
    Option<"policy", "policy", "::stride::layout::Policy",
           /*default=*/"::stride::layout::Policy::Torch",
           "the policy the layouts were propagated with",
           "::mlir::stride::policyOptionValues()">,
  ];
}

#endif // STRIDE_DIALECT_STRIDE_TRANSFORMS_PASSES_TD
