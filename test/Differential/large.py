"""Large mode: shapes across the CPU codegen's tile, vector and threading boundaries.

Part of the differential test; see differential.py. The same program
generators as the default mode, with other shapes and sizes:

* elementwise targets of three classes: `tile` (1-4 dims of 1-130, biased
  towards the vector, register-tile and cache-block edges 7/8/9, 15/16/17,
  31/32/33, 63/64/65, 127/128/129), `rows` (one dim of 512-2,100 elements,
  usually the innermost) and `threads` (0.6-1.6 M elements, so that a kernel
  moves more than the 2 MiB that make it parallel, see
  lib/Dialect/Stride/Transforms/Bufferization/Parallel.cpp);
* matmul m/n/k of 1-130 and, for ~30% of the dims, 64-300 (the matmul
  tiler's cache blocks are 64 x 256 x 256, its register tiles 8 x 4 x 128
  bytes), and ~15% of the matmuls over the 2^24 operations at which a
  product runs in parallel;
* every argument layout of the default mode (permuted, sliced, broadcast,
  negative strides under policy numpy), with the buffers the layouts span
  bounded, so that a program holds at most ~4 M elements;
* both policies equally, and `--num-threads` 1 or 2 per program.
"""
from common import *  # noqa: F401,F403
from program import *  # noqa: F401,F403
from layouts import *  # noqa: F401,F403
from generator import *  # noqa: F401,F403

# Sizes at the vector (16 f32 per 64 bytes), register-tile and cache-block
# (128 f32 per 512 bytes) edges, and a few others.
EDGES = [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 47, 48, 63, 64,
         65, 96, 100, 127, 128, 129, 130]
ROW_EDGES = [512, 513, 640, 1000, 1023, 1024, 1025, 1536, 2047, 2048, 2049,
             2100]
# Elements a tensor's buffer may span, and a program's arguments in all.
MAX_EXTENT = 3_000_000
MAX_PROGRAM_ELEMENTS = 4_200_000


def edge_size(rng, hi=130):
    if rng.random() < 0.6:
        return rng.choice([e for e in EDGES if e <= hi])
    return rng.randint(1, hi)


def row_size(rng):
    if rng.random() < 0.5:
        return rng.choice(ROW_EDGES)
    return rng.randint(512, 2100)


def prod(shape):
    p = 1
    for s in shape:
        p *= s
    return p


def shrink(rng, shape, limit, keep=None):
    """Halves random dims (not `keep`) until the shape has <= limit elements."""
    shape = list(shape)
    while prod(shape) > limit:
        cands = [d for d in range(len(shape)) if d != keep and shape[d] > 1]
        if not cands:
            break
        d = rng.choice(cands)
        shape[d] = max(1, shape[d] // 2)
    return tuple(shape)


def large_target(rng):
    """A large result shape: tile, rows or threads class."""
    cls = rng.choices(["tile", "rows", "threads"], [40, 35, 25])[0]
    if cls == "tile":
        rank = rng.choices([1, 2, 3, 4], [10, 55, 25, 10])[0]
        return shrink(rng, [edge_size(rng) for _ in range(rank)], 300_000)
    if cls == "rows":
        rank = rng.choices([1, 2, 3], [20, 60, 20])[0]
        shape = [edge_size(rng) for _ in range(rank)]
        d = rank - 1 if rng.random() < 0.75 else rng.randrange(rank)
        shape[d] = row_size(rng)
        return shrink(rng, shape, 1_000_000, keep=d)
    rank = rng.choices([1, 2, 3], [15, 65, 20])[0]
    total = rng.randint(600_000, 1_600_000)
    if rank == 1:
        return (total,)
    r = row_size(rng)
    if rank == 2:
        shape = [max(1, total // r), r] if rng.random() < 0.5 else \
            [r, max(1, total // r)]
        return tuple(shape)
    b = rng.randint(2, 5)
    return (b, r, max(1, total // (b * r)))


def extent(shape, strides):
    """Elements a strided view's buffer spans."""
    if 0 in shape:
        return 0
    return 1 + sum((n - 1) * abs(s) for n, s in zip(shape, strides))


def large_layout(rng, shape, policy):
    """make_layout, redrawn while the buffer would span too much memory;
    then more often transposed (the innermost two dims' order swapped, so
    that operands are contiguous along different loops, which
    stride-block-transposes tiles) and, under numpy, reversed along a dim."""
    for _ in range(4):
        strides, enc, bdims = make_layout(rng, shape, policy)
        if extent(shape, strides) <= max(MAX_EXTENT, prod(shape)):
            break
    else:
        strides, enc, bdims = contiguous_strides(shape), None, []
    strides = list(strides)
    before = list(strides)
    big = [d for d in range(len(shape)) if shape[d] > 1]
    if enc is None and len(big) >= 2 and rng.random() < 0.5:
        # Dense with the two innermost non-trivial dims' order swapped.
        perm = list(range(len(shape)))
        i, j = big[-2], big[-1]
        perm[i], perm[j] = perm[j], perm[i]
        strides = strides_from_perm(shape, perm)
    if policy == "numpy" and rng.random() < 0.5:
        cands = [d for d in big if strides[d] > 0]
        if cands:
            d = rng.choice(cands)
            strides[d] = -strides[d]
    if strides != before:
        enc = f"#stride.layout<strides = [{', '.join(map(str, strides))}]>"
    return strides, enc, bdims


def large_matmul_sizes(rng):
    """(m, n, k, lhs 1-D, rhs 1-D, batch): 1-130, sometimes 64-300."""
    def size():
        if rng.random() < 0.3:
            return rng.randint(64, 300)
        return edge_size(rng)
    if rng.random() < 0.15:
        # Over the 2^24 operations at which a matmul runs in parallel.
        batch = (2,) if rng.random() < 0.3 else ()
        lo = 160 if batch else 230
        m, n = rng.randint(lo, 300), rng.randint(lo, 300)
        k = -(-(1 << 24) // (m * n * prod(batch))) + rng.randint(0, 200)
        return m, n, k, False, False, batch
    for _ in range(20):
        m, n, k = size(), size(), size()
        lvec, rvec = rng.random() < 0.1, rng.random() < 0.1
        rank = rng.choices([0, 1, 2], [60, 30, 10])[0]
        batch = tuple(rng.choice([1, 1, 2, 3]) for _ in range(rank))
        b = prod(batch)
        if b * (m * k + k * n + m * n) <= 1_500_000:
            return m, n, k, lvec, rvec, batch
    return m, n, min(k, 64), lvec, rvec, ()


def program_elements(case):
    """Elements of the arguments' buffers and of the results."""
    return sum(extent(a.shape, a.strides) + a.pad * prod(a.shape[1:])
               for a in case.args if not a.scalar) \
        + sum(prod(r.shape) for r in case.results)


def generate_large(seed, index):
    """Program `index` of `seed` in the large mode: redrawn (from a stream
    of its own per attempt) while it holds more than ~4 M elements."""
    for attempt in range(10):
        tag = f"{seed}-{index}" + (f"-{attempt}" if attempt else "")
        rng = random.Random(f"stride-large-{tag}")
        nrng = np.random.default_rng(rng.getrandbits(64))
        case = Case(seed, index)
        case.mode = "large"
        case.policy = "torch" if rng.random() < 0.5 else "numpy"
        case.threads = rng.choice([1, 2])
        if rng.random() < 0.3:
            gen_matmul(case, rng, nrng, large_matmul_sizes, large_layout)
        else:
            gen_elementwise(case, rng, nrng, large_target, large_layout,
                            ntensors=(2, 3))
        compose(case, random.Random(f"stride-compose-large-{tag}"))
        if program_elements(case) <= MAX_PROGRAM_ELEMENTS:
            break
    return case
