"""The blocked, vectorized matmul kernels (stride-tile-matmul) against NumPy.

Sizes are chosen to leave remainders in every blocked loop (register rows
8, register columns 32 f32 / 16 f64, k by 4, cache blocks 64 x 256 x 256),
so both the main micro-tiles and the edges run: the edges of static cache
blocks as smaller vector tiles, and on 2 threads the last rows of a chunk
(whose length is only known at run time) one row at a time. Matrix-vector
products read the matrix in blocks of 8 rows whose dot products advance
together; the rows left over are static blocks, or on 2 threads one dot
product at a time.
"""
import numpy as np
import pytest

import stride


def rand(shape, dtype, seed=0):
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype)


TOL = {np.float32: 2e-4, np.float64: 1e-11}
SHAPES = [
    ((67, 301), (301, 45)),          # remainders in m, n and k blocks
    ((130, 260), (260, 530)),        # more than one cache block each way
    ((500, 500), (500, 500)),        # partial last blocks; 2 threads: 250 rows
    ((259, 129), (129, 600)),        # 2 threads: chunks of 130 and 129 rows
    ((64, 1, 8, 8), (1, 64, 8, 8)),  # small static batched products
    ((4096, 4, 4), (4096, 4, 4)),
    ((3, 1, 40, 9), (1, 2, 9, 33)),  # broadcast batches, odd sizes
    ((257,), (257, 70)),             # vector @ matrix
    ((70, 257), (257,)),             # matrix @ vector
    ((403, 97), (97,)),              # row blocks of 8 and 3 left over
    ((5, 1001, 33), (33,)),          # batched; 2 threads: chunks of 501 rows
    # rhs of 4 MB and more: register blocks row panel by row panel, rhs
    # blocks packed into panels (the last one partial: 1025 = 32 x 32 + 1)
    ((67, 1030), (1030, 1025)),
    ((70, 700), (700, 750)),         # f64 only past 4 MB: both orders
    ((33, 530), (530, 1000)),        # fewer than 64 rows: rhs in place
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("sa,sb", SHAPES)
@pytest.mark.parametrize("threads", [1, 2])
def test_blocked_matmul_matches_numpy(sa, sb, dtype, threads):
    a, b = rand(sa, dtype), rand(sb, dtype, 1)
    stride.set_threads(threads)
    try:
        r = stride.materialize(stride.matmul(a, b))
    finally:
        stride.set_threads(None)
    want = np.matmul(a.astype(np.float64), b.astype(np.float64))
    scale = np.sqrt(sa[-1]) if len(sa) > 1 else np.sqrt(sa[0])
    np.testing.assert_allclose(r, want, rtol=0, atol=TOL[dtype] * scale)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_blocked_matmul_permuted_sliced_and_mirrored_operands(dtype):
    base = rand((300, 200), dtype)
    other = rand((180, 310), dtype, 1)
    cases = [
        (base.T, other.T[:300, :150]),              # both transposed
        (base[::2, ::-1][:, :170], other[:170, ::3]),  # mirrored k, strided n
        (base[::-1, :], other.T[:200, :]),           # mirrored m
    ]
    for a, b in cases:
        r = stride.materialize(stride.matmul(a, b))
        want = np.matmul(a.astype(np.float64), b.astype(np.float64))
        np.testing.assert_allclose(r, want, rtol=0,
                                   atol=TOL[dtype] * np.sqrt(a.shape[-1]))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("threads", [1, 2])
def test_matrix_vector_row_blocks(dtype, threads):
    """A @ x for row counts around the block of 8 and the thread split, with
    a strided vector, a mirrored matrix and x @ A.T (the same loops)."""
    stride.set_threads(threads)
    try:
        for m in (1, 7, 8, 9, 16, 17, 63, 130, 1001):
            a, x = rand((m, 45), dtype), rand(90, dtype, 1)
            for got, want in [
                (stride.jit(lambda a, x: a @ x[::2])(a, x), a @ x[::2]),
                (stride.jit(lambda a, x: a[::-1] @ x[1::2])(a, x), a[::-1] @ x[1::2]),
                (stride.jit(lambda a, x: x[::2] @ a.T)(a, x), x[::2] @ a.T),
            ]:
                assert got.shape == want.shape
                np.testing.assert_allclose(got, want, rtol=0,
                                           atol=TOL[dtype] * np.sqrt(45) * 4)
    finally:
        stride.set_threads(None)


BROADCAST_BATCHES = {
    # The vector is shared by every matrix of the stack: its loops hold
    # two m (or n) loops, the outer one a batch loop of the stack alone.
    "stack @ vector": (lambda s, x: s @ x[:45], (6, 37, 45)),
    "vector @ stack": (lambda s, x: x[:37] @ s, (6, 37, 45)),
    "transposed stack @ vector": (
        lambda s, x: s.transpose(0, 2, 1) @ x[:37], (6, 37, 45)),
    "strided stack @ vector": (lambda s, x: s[:, ::2] @ x[:180:2], (5, 17, 90)),
    "4-d stack @ vector": (lambda s, x: s @ x[:9], (2, 3, 11, 9)),
    "4-d vector @ stack": (lambda s, x: x[:11] @ s, (2, 3, 11, 9)),
    "stack @ matrix": (
        lambda s, x: s @ x[:45 * 13].reshape(45, 13), (4, 37, 45)),
    "matrix @ stack": (
        lambda s, x: x[:29 * 37].reshape(29, 37) @ s, (4, 37, 45)),
    # A unit batch dim both operands broadcast gets no loop.
    "unit batch": (
        lambda s, x: s[:, None] @ x[:45 * 13].reshape(45, 13), (4, 37, 45)),
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("name", sorted(BROADCAST_BATCHES))
def test_products_broadcast_over_a_stack(name, dtype, threads):
    fn, shape = BROADCAST_BATCHES[name]
    s, x = rand(shape, dtype), rand(29 * 37, dtype, 1)
    stride.set_threads(threads)
    try:
        got = stride.jit(fn)(s, x)
    finally:
        stride.set_threads(None)
    want = fn(s.astype(np.float64), x.astype(np.float64))
    assert got.shape == want.shape and got.dtype == dtype
    np.testing.assert_allclose(got, want, rtol=0,
                               atol=TOL[dtype] * np.sqrt(45) * 4)


def test_stack_times_vector_is_tiled_as_matrix_vector():
    """X @ v for a stack X reads each matrix in row blocks, as A @ x."""
    s, x = rand((8, 64, 32), np.float64), rand(32, np.float64, 1)
    text = str(stride.explain(stride.jit(lambda s, x: s @ x), s, x))
    assert "matrix-vector product whose matrix is contiguous along k" in text


FUSED_MATVEC = {
    "scaled": lambda a, b, x: 1.5 * a @ x,
    "axpby": lambda a, b, x: 1.5 * a @ x + 0.5 * b @ x,
    "product": lambda a, b, x: (a * b) @ x,
    "exp": lambda a, b, x: np.exp(a) @ x,
    "broadcast": lambda a, b, x: (a - x) @ x,
    "sliced": lambda a, b, x: (3 * a[:, ::2]) @ x[::2],
    "transposed": lambda a, b, x: (2 * a.T).T @ x,
    "vector-matrix": lambda a, b, x: a[:, 0] @ (2 * b),
    "vector-matrix-exp": lambda a, b, x: a[:, 1] @ np.exp(b.T).T,
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("name", sorted(FUSED_MATVEC))
def test_fused_matrix_vector(name, dtype, threads):
    """A matrix-vector (or vector-matrix) product whose matrix is an
    elementwise expression reads its inputs once (stride-fuse's plain
    map_reduce, blocked by rows as A @ x): the same values and strides as
    NumPy's, for row counts around the blocks and the thread split."""
    fn = FUSED_MATVEC[name]
    stride.set_threads(threads)
    try:
        for m in (1, 9, 130, 1001):
            a, b = rand((m, 46), dtype), rand((m, 46), dtype, 1)
            x = rand(46, dtype, 2)
            got, want = stride.jit(fn)(a, b, x), fn(a, b, x)
            assert got.shape == want.shape and got.dtype == want.dtype
            assert got.strides == want.strides
            np.testing.assert_allclose(got, want, rtol=0,
                                       atol=TOL[dtype] * np.sqrt(46) * 8)
    finally:
        stride.set_threads(None)


@pytest.mark.parametrize("fn,n", [(lambda a, x: 2.5 * a @ x, 200),
                                  (lambda a, x: x @ (a * 2.5), 300)])
def test_fused_matrix_vector_stores_no_matrix(fn, n):
    """alpha * A @ x and x @ (A * alpha) are one kernel each: the scaled
    matrix is never stored."""
    a, x = rand((300, 200), np.float64), rand(n, np.float64, 1)
    text = str(stride.explain(stride.jit(fn), a, x))
    # x @ P reads x through a view (x[:, None]), which computes nothing.
    kernels = [line for line in text.splitlines()
               if line.lstrip().startswith("kernel:") and "is a view" not in line]
    assert len(kernels) == 1, text
    assert "without storing the elementwise result" in kernels[0], text


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("threads", [1, 2])
def test_packed_operands(dtype, threads):
    """An lhs not contiguous along k or an rhs not contiguous along n is
    copied into a row-major buffer before the product (pack-reuse): the
    values still match NumPy across cache and register block edges, for
    transposed, stepped and batched operands, on both thread counts."""
    a, b = rand((301, 130), dtype), rand((260, 301), dtype, 1)
    c = rand((301, 250), dtype, 3)
    batch = rand((3, 70, 45), dtype, 2)
    cases = [
        (lambda x, y: x.T @ y, a, c),                      # lhs column-major
        (lambda x, y: x @ y.T, b, c[:, :250].T.copy()),    # rhs column-major
        (lambda x, y: x.T @ y.T, a, b),                    # both
        (lambda x, y: x[::2, ::2] @ y[::2, ::3], b, a),    # stepped
        (lambda x, y: np.swapaxes(x, 1, 2) @ x, batch, batch),  # batched A.T @ A
    ]
    for fn, x, y in cases:
        r = stride.jit(fn, threads=threads)(x, y)
        want = fn(x.astype(np.float64), y.astype(np.float64))
        k = np.shape(want)[-1]
        np.testing.assert_allclose(r, want, rtol=0,
                                   atol=TOL[dtype] * np.sqrt(max(k, 130)))
    text = stride.explain(stride.jit(lambda x, y: x.T @ y, threads=threads),
                          a, a)
    assert "copied into a row-major buffer" in str(text)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("threads", [1, 2])
def test_rhs_panels_of_large_products(dtype, threads):
    """Products whose rhs has 4 MB or more take their register blocks row
    panel by row panel and read the rhs from packed panels: the values match
    NumPy for a row-major rhs, a transposed one (first copied row-major,
    then into panels), a stepped view, an `out=` target and a result
    consumed by a later op, with partial panels and cache blocks."""
    a = rand((150, 1100), dtype)
    b = rand((1100, 1050), dtype, 1)
    bt = rand((1050, 1100), dtype, 2)
    big = rand((1100, 2100), dtype, 3)
    cases = [
        (lambda x, y: x @ y, a, b),
        (lambda x, y: x @ y.T, a, bt),
        (lambda x, y: x @ y[:, ::2], a, big),
        (lambda x, y: np.tanh(x @ y) + 1, a, b),
    ]
    for fn, x, y in cases:
        r = stride.jit(fn, threads=threads)(x, y)
        want = fn(x.astype(np.float64), y.astype(np.float64))
        np.testing.assert_allclose(r, want, rtol=0,
                                   atol=TOL[dtype] * np.sqrt(1100))
    out = np.empty((150, 1050), dtype)
    stride.jit(lambda x, y, o: np.matmul(x, y, out=o), threads=threads)(
        a, b, out)
    np.testing.assert_allclose(out, a.astype(np.float64) @ b, rtol=0,
                               atol=TOL[dtype] * np.sqrt(1100))
    text = str(stride.explain(stride.jit(lambda x, y: x @ y, threads=threads),
                              a, b))
    assert "row panel by row panel" in text and "contiguous panels" in text
    small = rand((100, 100), dtype)
    text = str(stride.explain(stride.jit(lambda x, y: x @ y, threads=threads),
                              small, small))
    assert "column panel by column panel" in text, text


@pytest.mark.parametrize("threads", [1, 2])
def test_rhs_panels_in_loops_and_mixed_dtypes(threads):
    """A program not shaped for the packing: products in a fori_loop whose
    rhs blocks are loop-invariant (the peeled edge block's subview moves out
    of the loop, the others stay in it), one f32 and one f64 product in the
    same loop body, each result fed to the next iteration. Each block packs
    into its own buffer, so the values match NumPy's loop."""
    rng = np.random.default_rng(5)
    b32 = rng.uniform(-1, 1, (300, 600)).astype(np.float32) / 30
    b64 = rng.uniform(-1, 1, (300, 600)) / 30
    x32 = rng.uniform(-1, 1, (128, 600)).astype(np.float32)
    x64 = rng.uniform(-1, 1, (128, 600))

    def step(a, b):
        return np.tanh(a[:, :300] @ b)

    def fn(x, y, b, c):
        return stride.fori_loop(0, 3, lambda i, xy: (step(xy[0], b),
                                                     step(xy[1], c)), (x, y))

    got32, got64 = stride.jit(fn, threads=threads)(x32, x64, b32, b64)
    want32, want64 = x32.astype(np.float64), x64
    for _ in range(3):
        want32, want64 = step(want32, b32.astype(np.float64)), step(want64, b64)
    np.testing.assert_allclose(got32, want32, rtol=0, atol=1e-5)
    np.testing.assert_allclose(got64, want64, rtol=0, atol=1e-12)


@pytest.mark.parametrize("threads", [1, 2])
def test_symmetric_products(threads):
    """A matrix times its own transpose (x @ x.T, x.T @ x, np.dot, batched
    b @ b.mT, stepped and reversed views, an intermediate, einsum, inner,
    tensordot) multiplies one
    side of the diagonal in blocks and copies the rest from its transpose:
    the values match NumPy at sizes across the block edges (63: one
    product; 64, 65, 130, 300: blocks of 32 and a partial last one; 1001:
    64; 1030: 128), for f32, f64 and integers, the copied part is exactly
    symmetric, and a result consumed by a later op sees every block."""
    cases = [
        (lambda x: x @ x.T, (64, 20)),
        (lambda x: x @ x.T, (65, 7)),
        (lambda x: x.T @ x, (300, 63)),
        (lambda x: x.T @ x, (40, 300)),
        (lambda x: np.dot(x, x.T), (1001, 9)),
        (lambda x: np.transpose(x) @ x, (50, 1030)),
        (lambda x: x[::2, ::-1] @ x[::2, ::-1].T, (260, 30)),
        (lambda x: np.swapaxes(x, -1, -2) @ x, (3, 20, 70)),
        (lambda x: (lambda y: y @ y.T)(x * 2 - 1), (130, 40)),
        (lambda x: np.tanh(x @ x.T) + x.sum(), (130, 40)),
        (lambda x: np.einsum("ij,kj->ik", x, x), (200, 30)),
        (lambda x: np.einsum("ji,jk->ik", x, x), (30, 200)),
        (lambda x: np.inner(x, x), (150, 20)),
        (lambda x: np.tensordot(x, x, axes=([0], [0])), (20, 150)),
    ]
    for dtype in (np.float32, np.float64):
        for fn, shape in cases:
            x = rand(shape, dtype)
            r = stride.jit(fn, threads=threads)(x)
            want = fn(x.astype(np.float64))
            np.testing.assert_allclose(r, want, rtol=0,
                                       atol=TOL[dtype] * max(shape) * 4)
    x = rand((300, 50), np.float64)
    r = stride.jit(lambda x: x @ x.T, threads=threads)(x)
    below = np.tril_indices(300, -32)
    assert (r[below] == r.T[below]).all()
    i = np.random.default_rng(5).integers(-9, 9, (200, 33))
    assert (stride.jit(lambda x: x.T @ x, threads=threads)(i) == i.T @ i).all()
    assert (stride.jit(lambda x: x @ x.T, threads=threads)(i) == i @ i.T).all()
    text = str(stride.explain(stride.jit(lambda x: x @ x.T, threads=threads), x))
    assert "is symmetric: column blocks of 32" in text, text
    for fn in (lambda x: np.einsum("ij,kj->ik", x, x), lambda x: np.inner(x, x)):
        assert "is symmetric" in str(stride.explain(stride.jit(fn), x))
    text = str(stride.explain(stride.jit(lambda x, y: x @ y.T, threads=threads),
                              x, x.copy()))
    assert "is symmetric" not in text, text


def test_matmul_chains_in_the_cheaper_order():
    """A @ B @ x runs as A @ (B @ x) when that does at least twice fewer
    multiplies (numpy.linalg.multi_dot's choice): the values match NumPy's
    left-to-right product to rounding for matrix-matrix-vector, transposed,
    thin and vector-first chains, integers exactly; square chains keep
    NumPy's order (the same bits), and stride.explain says which ran."""
    rng = np.random.default_rng(7)
    a, b = rng.standard_normal((300, 300)), rng.standard_normal((300, 300))
    x, t = rng.standard_normal(300), rng.standard_normal((400, 20))
    cases = [
        (lambda a, b, x: a @ b @ x, (a, b, x)),
        (lambda a, b, x: a.T @ a @ x, (a, b, x)),
        (lambda a, b, x: x @ a @ b, (a, b, x)),
        (lambda a, b, x: (a @ b) @ (b @ x), (a, b, x)),
        (lambda t: t @ t.T @ t, (t,)),
        (lambda t: t.T @ (t @ t.T), (t,)),
        (lambda a, b, x: np.tanh(a @ b @ x) + 1, (a, b, x)),
    ]
    for fn, args in cases:
        got, want = stride.jit(fn)(*args), fn(*args)
        np.testing.assert_allclose(got, want, rtol=0,
                                   atol=1e-12 * np.abs(want).max())
    i = rng.integers(-9, 9, (200, 200))
    v = rng.integers(-9, 9, 200)
    assert (stride.jit(lambda i, v: i @ i @ v)(i, v) == i @ i @ v).all()
    sq = stride.jit(lambda a, b: a @ b @ a)(a, b)
    assert (sq == stride.jit(lambda a, b: (a @ b) @ a)(a, b)).all()
    text = str(stride.explain(stride.jit(lambda a, b, x: a @ b @ x), a, b, x))
    assert "reassociate: (A @ B) @ C runs as A @ (B @ C)" in text, text
    text = str(stride.explain(stride.jit(lambda a, b: a @ b @ a), a, b))
    assert "reassociate" not in text, text


def test_dot_products_split_across_threads():
    """A dot product of two vectors over at least 2 MiB runs one run of k
    per thread into its own partial sum: f32, f64 and integers, k odd and
    not a multiple of the threads, strided and reversed vectors, a dot
    consumed by a later op, match NumPy on 2 threads; products that are not
    dots of two vectors (a 1 x k row, small k) keep one kernel."""
    rng = np.random.default_rng(21)
    for dtype in (np.float32, np.float64, np.int64):
        for k in (131_072, 600_001, 1 << 20):
            if dtype == np.int64:
                v = rng.integers(-1000, 1000, 2 * k)
                w = rng.integers(-1000, 1000, 2 * k)
            else:
                v = rng.standard_normal(2 * k).astype(dtype)
                w = rng.standard_normal(2 * k).astype(dtype)
            for fn, args in ((lambda a, b: a @ b, (v[:k], w[:k])),
                             (np.dot, (v[::2], w[1::2])),
                             (np.dot, (v[:k][::-1], w[:k])),
                             (lambda a, b: np.sqrt(np.abs(np.inner(a, b))) + 1,
                              (v[:k], w[:k]))):
                want = fn(*(a.astype(np.float64) for a in args))
                got = stride.jit(fn, threads=2)(*args)
                scale = np.abs(args[0].astype(np.float64)) @ np.abs(
                    args[1].astype(np.float64))
                tol = 1e-5 if dtype == np.float32 else 1e-12
                assert abs(float(got) - float(want)) <= tol * scale + 1e-9, (
                    dtype, k, got, want)
    v = rng.standard_normal(1 << 20)
    text = str(stride.explain(stride.jit(np.dot, threads=2), v, v))
    assert "2 runs of the dot product's 1048576 elements" in text, text
    for args in ((v[:1000], v[:1000]), (v.reshape(1, -1), v)):
        text = str(stride.explain(stride.jit(np.dot, threads=2), *args))
        assert "runs of the dot product" not in text, text
