"""NumPy's own overlap tests (numpy/core/tests/test_mem_overlap.py, NumPy
1.24), ported to materialize(..., out=): the same view generators (imported
from NumPy's test module where it ships them, else the copies below), NumPy
as the oracle. Its rule: the result is as if every input were read before
out is written. The fuzz loops are sampled to keep the suite fast; each
test says how.

Not ported: reductions, accumulate, reduceat, gufuncs, `where=` masks and
ufunc.at (Stride has none of them), complex and int8/int16 dtypes (Stride
has none of them: the int16 fuzz runs on int32)."""
import itertools
import os

import numpy as np
import pytest

import stride
from numpy.core._multiarray_tests import internal_overlap

try:  # NumPy's view generators, unchanged, where Debian ships the tests
    from numpy.core.tests.test_mem_overlap import (
        _indices, iter_random_view_pairs, view_element_first_byte)
except ImportError:  # pragma: no cover - the tests are part of python3-numpy
    pytest.skip("numpy.core.tests.test_mem_overlap is not installed",
                allow_module_level=True)

DTYPES = [np.int32, np.int64, np.float32, np.float64]

# Every distinct layout is a kernel to compile (tens of ms), so the loops are
# sampled (seeded); STRIDE_OVERLAP_FULL=1 runs every case NumPy runs.
FULL = os.environ.get("STRIDE_OVERLAP_FULL") == "1"


def sample(cases, n, seed):
    cases = list(cases)
    if FULL or n >= len(cases):
        return cases
    picked = np.random.default_rng(seed).choice(len(cases), n, replace=False)
    return [cases[i] for i in sorted(picked)]


def copy_op(x):
    return stride.lazy(x) if isinstance(x, np.ndarray) else x


def assert_copy_equivalent(build, eager, args, out):
    """materialize(build(*args), out=out) gives eager(*args) computed from
    copies, written to out (NumPy's assert_copy_equivalent)."""
    expected = eager(*[a.copy() for a in args])
    got = stride.materialize(build(*args), out=out)
    np.testing.assert_array_equal(got, np.broadcast_to(expected, out.shape))
    assert got is out


def test_overlapping_assignments():
    """arr[dst] = arr[src] over NumPy's generator of 1,089 src/dst pairs
    (2-D, reversed and strided views); 48 sampled."""
    shape = (10, 10)
    for ind in sample(_indices(2), 48, 0):
        src = tuple(a[0] for a in ind)
        dst = tuple(a[1] for a in ind)
        arr = np.arange(100).reshape(shape)
        want = arr.copy()
        want[dst] = arr[src]
        # `...` keeps an element a 0-d view rather than a scalar copy.
        stride.materialize(stride.lazy(arr[src + (...,)]) + 0,
                           out=arr[dst + (...,)])
        np.testing.assert_array_equal(arr, want, err_msg=f"arr[{dst}] = arr[{src}]")


def _binary_1d_cases():
    n, k = 100, 10  # NumPy uses n=1000; the layouts are the same
    indices = []
    for p in (1, 2):
        indices += [np.index_exp[:p * n:p], np.index_exp[k:k + p * n:p],
                    np.index_exp[p * n - 1::-p], np.index_exp[k + p * n - 1:k - 1:-p]]
    return n, indices


@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_binary_ufunc_1d_manual(dtype):
    """np.add(x, y, out=z) over NumPy's 512 dependency orders of x, y, z in
    one buffer, with its 9 scalar cases; 4 triples sampled per dtype."""
    n, indices = _binary_1d_cases()
    triples = itertools.product(indices, indices, indices)
    for xi, yi, zi in sample(triples, 4, DTYPES.index(dtype)):
        for xs, ys in [(None, None), (np.s_[:1], None), (np.s_[-1:], None),
                       ("0d0", None), ("0d-1", None), (None, np.s_[:1]),
                       (None, np.s_[-1:]), (None, "0d0"), (None, "0d-1")]:
            v = np.arange(6 * n).astype(dtype)
            x, y, z = v[xi], v[yi], v[zi]
            # NumPy broadcasts inputs to out; materialize needs the shapes equal.
            x = np.broadcast_to(_scalar_case(x, xs), z.shape)
            y = np.broadcast_to(_scalar_case(y, ys), z.shape)
            assert_copy_equivalent(lambda a, b: stride.lazy(a) + b,
                                   np.add, [x, y], z)


def _scalar_case(x, how):
    if how is None:
        return x
    if how == "0d0":
        return x[:1].reshape([])
    if how == "0d-1":
        return x[-1:].reshape([])
    return x[how]


@pytest.mark.parametrize("dtype", DTYPES)
def test_unary_ufunc_1d_manual(dtype):
    """NumPy's unary fast-path cases (np.invert for integers, np.reciprocal
    for floats; Stride has neither, so -x and 1/x) with the scalar cases;
    4 of the 64 index pairs sampled per dtype."""
    n, k = 100, 10
    indices = [np.index_exp[:n], np.index_exp[k:k + n], np.index_exp[n - 1::-1],
               np.index_exp[k + n - 1:k - 1:-1], np.index_exp[:2 * n:2],
               np.index_exp[k:k + 2 * n:2], np.index_exp[2 * n - 1::-2],
               np.index_exp[k + 2 * n - 1:k - 1:-2]]
    if np.dtype(dtype).kind == "i":
        build, eager = (lambda a: -stride.lazy(a)), np.negative
    else:
        build, eager = (lambda a: 1 / stride.lazy(a)), np.reciprocal
    for xi, yi in sample(itertools.product(indices, indices), 4,
                         10 + DTYPES.index(dtype)):
        v = np.arange(1, 1 + n * 2 + k, dtype=dtype)
        x, y = v[xi], v[yi]
        for xx in (x, x[:1], x[-1:], x[:1].reshape([]), x[-1:].reshape([])):
            xx = np.broadcast_to(xx, y.shape)  # as NumPy does for out
            assert_copy_equivalent(build, eager, [xx], y)


def test_inplace_op_simple_manual():
    """x += x.T on a 200x200 array, bigger than NumPy's buffer."""
    rng = np.random.RandomState(1234)
    x = rng.rand(200, 200)
    stride.materialize(stride.lazy(x) + x.T, out=x)
    np.testing.assert_array_equal(x - x.T, 0)


def test_unary_ufunc_where_same():
    """NumPy's same-input-and-output cases (without where=): x = ~x as
    x = (x == False), on the same array, a copy, and over itself."""
    x = np.arange(100).astype(np.bool_)
    for a, out in ((x, x), (x, x.copy()), (x.copy(), x)):
        want = ~a.copy()
        got = stride.materialize(stride.lazy(a) == False, out=out)  # noqa: E712
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("ndim", range(1, 6))
def test_unary_fuzz(ndim):
    """check_unary_fuzz(np.invert) as -x on int32 (Stride has no int16):
    NumPy's random view pairs of one array, equal sizes, any steps; sampled
    to 10 overlapping pairs per rank (NumPy: 5000 // (ndim + 1)**2)."""
    shapes = [7, 13, 8, 21, 29, 32]
    rng = np.random.RandomState(1234)
    x = rng.randint(0, 2**16, size=shapes[:ndim]).astype(np.int32)
    it = iter_random_view_pairs(x, same_steps=False, equal_size=True)
    overlapping = 0
    while overlapping < (5000 // (ndim + 1)**2 if FULL else 10):
        a, b = next(it)
        if b.size == 0:
            continue
        if internal_overlap(b):
            # NumPy's result is unspecified there; Stride refuses.
            with pytest.raises(ValueError, match="stride 0|overlaps itself"):
                stride.materialize(-stride.lazy(a), out=b)
            continue
        if not np.shares_memory(a, b):
            continue  # NumPy runs these too; the other tests cover them
        overlapping += 1
        assert_copy_equivalent(lambda u: -stride.lazy(u), np.negative, [a], b)


def test_bool_views_of_first_bytes():
    """view_element_first_byte's bool arrays (bytes other than 0 and 1) as
    where masks, over an out they overlap."""
    for dtype in DTYPES:
        v = np.arange(1, 41, dtype=dtype)
        mask = view_element_first_byte(v[::2]).view(np.bool_)
        want = np.where(mask, -v[::2], v[1::2])
        got = stride.materialize(stride.where(mask, -stride.lazy(v[::2]), v[1::2]),
                                 out=v[::2])
        np.testing.assert_array_equal(got, want)


# Memmove-style overlaps: an input with out's shape and strides, shifted.
# stride._run decides from the offsets alone whether every element of the
# input is read before the kernel writes over it (_reads_ahead), and only
# then passes the input uncopied.


def _brute_force_reads_ahead(a, out):
    """Every pair (a[p], out[q]) sharing a byte has q >= p componentwise."""
    base_a = a.__array_interface__["data"][0]
    base_o = out.__array_interface__["data"][0]
    grid = np.indices(a.shape).reshape(a.ndim, -1).T
    addr_a = base_a + grid @ np.array(a.strides)
    addr_o = base_o + grid @ np.array(out.strides)
    near = np.abs(addr_a[:, None] - addr_o[None, :]) < a.itemsize
    p, q = np.nonzero(near)
    return bool(np.all(grid[q] >= grid[p]))


def test_reads_ahead_matches_brute_force():
    """_reads_ahead against an enumeration of every overlapping element
    pair, on random shifted views (any strides, shifts of whole elements
    and of bytes, forwards and backwards) of one buffer."""
    from stride._run import _reads_ahead, self_overlapping as _self_overlapping
    rng = np.random.default_rng(7)
    buf = np.zeros(4096, np.uint8)
    verdicts = set()
    checked = 0
    while checked < 300:
        ndim = int(rng.integers(1, 4))
        shape = tuple(int(n) for n in rng.integers(1, 6, ndim))
        strides = tuple(8 * int(s) for s in rng.integers(1, 13, ndim))
        out = np.ndarray(shape, np.float64, buf, 800, strides)
        shift = int(rng.integers(-60, 60)) * (8 if rng.random() < 0.7 else 1)
        a = np.ndarray(shape, np.float64, buf, 800 + shift, strides)
        if _self_overlapping(out) or shift == 0 or not np.shares_memory(a, out):
            continue
        checked += 1
        want = _brute_force_reads_ahead(a, out)
        verdicts.add(want)
        assert _reads_ahead(a, out) == want, (shape, strides, shift)
    assert verdicts == {True, False}


def _count_copies(monkeypatch):
    import stride._run as run
    calls = []
    real = run.copy_same_strides

    def counting(a, transform=None):
        calls.append(a.shape)
        return real(a, transform)
    monkeypatch.setattr(run, "copy_same_strides", counting)
    return calls


# (name, the buffer, out's index, the input's index, copied?)
SHIFTS = [
    ("1-D forward", (50,), np.s_[:-1], np.s_[1:], False),
    ("1-D forward by 3, step 2", (60,), np.s_[:-6:2], np.s_[3:-3:2], False),
    ("1-D backward", (50,), np.s_[1:], np.s_[:-1], True),
    ("rows forward", (6, 5), np.s_[:-1], np.s_[1:], False),
    ("columns forward", (6, 5), np.s_[:, :-1], np.s_[:, 1:], False),
    ("diagonal forward", (6, 5), np.s_[:-1, :-1], np.s_[1:, 1:], False),
    ("rows backward", (6, 5), np.s_[1:], np.s_[:-1], True),
    ("next row, previous column", (6, 5), np.s_[:-1, 1:], np.s_[1:, :-1], True),
]


@pytest.mark.parametrize("threads", [1, 4])
@pytest.mark.parametrize("name,shape,out_index,in_index,copied", SHIFTS,
                         ids=[case[0] for case in SHIFTS])
def test_shifted_input_reads_ahead(monkeypatch, threads, name, shape,
                                   out_index, in_index, copied):
    """out[...] = 2 * v[shifted] + out[...]: an input shifted forwards in
    every dim is read in place (the kernel reads ahead of its writes); one
    shifted backwards in some dim is copied. Both give NumPy's values."""
    calls = _count_copies(monkeypatch)
    v = np.arange(np.prod(shape), dtype=np.float64).reshape(shape) ** 1.5
    want = v.copy()
    want[out_index] = 2 * v[in_index] + v[out_index]
    import stride._run as run
    monkeypatch.setattr(run, "_threads", threads)  # stride.set_threads, undone
    out = v[out_index]
    stride.materialize(2 * stride.lazy(v[in_index]) + out, out=out)
    np.testing.assert_array_equal(v, want)
    assert len(calls) == (1 if copied else 0), calls


def test_dense_shift_with_carries_is_copied(monkeypatch):
    """A 3x4 array and its copy one element further in one buffer: element
    [0, 3] of the input is element [1, 0] of out, a pair with a negative
    column difference, which a column-outer loop order would write before
    reading. The kernel's order is not known here, so the input is copied."""
    calls = _count_copies(monkeypatch)
    buf = np.arange(13, dtype=np.float64)
    out, a = buf[:12].reshape(3, 4), buf[1:].reshape(3, 4)
    want = a.copy() * 3
    stride.materialize(3 * stride.lazy(a), out=out)
    np.testing.assert_array_equal(out, want)
    assert len(calls) == 1


def test_large_shift_with_threads_is_copied(monkeypatch):
    """From SERIAL_READ_AHEAD_LIMIT elements on, a multi-threaded kernel
    splits its outer loop into concurrent chunks: the input is copied and
    the kernel keeps its threads."""
    from stride._run import SERIAL_READ_AHEAD_LIMIT
    calls = _count_copies(monkeypatch)
    v = np.arange(SERIAL_READ_AHEAD_LIMIT + 1, dtype=np.float64)
    want = v.copy()
    want[:-1] = v[1:] + 1
    import stride._run as run
    monkeypatch.setattr(run, "_threads", 2)  # stride.set_threads, undone
    stride.materialize(stride.lazy(v[1:]) + 1, out=v[:-1])
    np.testing.assert_array_equal(v, want)
    assert len(calls) == 1
