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
