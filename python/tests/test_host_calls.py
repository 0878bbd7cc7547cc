"""NumPy functions with no Stride op inside @stride.jit (np.cumsum, np.sort,
np.linalg.solve, advanced indexing, ...): NumPy runs them between kernels
on the values the kernel before computed, and the kernel after reads their
results. Checked against NumPy across two calls (the second through the
cached plan), with writes before and after them; results whose shape
depends on the values are a clear error, never a wrong read."""
import re

import numpy as np
import pytest

import stride
from helpers import jit_like_numpy

rng = np.random.default_rng(11)


def _scan_sort_solve(a):
    b = np.zeros_like(a)
    b[1:] = np.cumsum(a[:-1] * 2, axis=0)
    b[0] = 5
    c = np.sort(b, axis=None)
    b[2] = 0  # after the sort read b: c keeps the old contents
    x = np.linalg.solve(a[:4, :4] + 4 * np.eye(4), a[:4, 0])
    return c[::-1] + 1, b, np.linalg.norm(x), x


def _methods_and_accumulate(a):
    s = np.sort(a, axis=0)
    a[0] = 1  # the argument is written after NumPy read it
    return s, a.cumsum(1), np.maximum.accumulate(a, axis=1), a.argsort(0)


def _arguments_in_place_or_copied(a, b):
    s = np.sort(a, axis=1)     # a is read where it is: nothing wrote it yet
    a[:, 0] = -1               # written after NumPy read it
    t = np.sort(a, axis=1)     # a written before: the kernel's copy is read
    b[1::2] = np.argsort(b[::-2])  # a view of an argument, then written
    idx = np.arange(0, a.shape[1], 2)  # a constant the function made
    return s, t, a[:, idx] * 2, b.cumsum()


def _search_histogram_interp(x, y):
    xs = np.sort(x)
    i = np.searchsorted(xs, y)
    h, edges = np.histogram(x, bins=5, range=(0, 1))
    return i, h * 2, edges, np.interp(y, xs, np.arange(x.size, dtype=float))


def _linalg(a):
    q, r = np.linalg.qr(a)
    spd = a @ a.T + np.eye(a.shape[0])
    return (np.abs(np.diag(r)).sum(), q @ r, np.linalg.cholesky(spd),
            np.linalg.inv(spd) * 2, np.linalg.det(spd) * 1)


def _statistics(a):
    return (np.median(a, axis=1) - np.mean(a, axis=1), np.percentile(a, 25),
            np.nanmax(np.where(a > 0.5, np.nan, a)), np.nansum(a) * 2,
            np.trapz(a, axis=1), np.cumprod(a + 0.5, axis=0)[-1])


def _advanced_indexing(a, idx):
    b = a * 2
    b[np.array([0, 2])] = 0
    b[idx] += 1  # a repeated index adds once, as in NumPy
    a[idx[:1]] = -1
    c = np.zeros(a.shape[0])
    c[idx] = b[idx, 0] * 3
    return b, c, a[idx][:, ::-1], np.take(a, idx, axis=1).sum(0), b[np.argmax(c)]


def _dtypes_and_0d(i, f):
    return (np.cumsum(i), np.sort(i)[::-1] * 2, np.cumsum(f.astype(np.float32)),
            np.cumsum(i > 3), np.sort(f)[0], np.cross(f[:3], f[3:6]))


def _refused_forms(x, f):
    # Forms of functions Stride has that it refuses (keywords, einsum's
    # '...', per-element repeat counts) and ufuncs without an op.
    return (np.gcd(x, 6) * 2, np.add(x, x, dtype=np.float32),
            np.max(f, where=f > 0.3, initial=0), np.sum(f, where=f > .5, axis=1),
            np.einsum("bii->b", np.stack([f[:, :3], f[:, 1:]])),
            np.einsum("...i->...", f), np.repeat(f, [1, 2, 1], axis=0) + 1,
            np.ldexp(f, 3), np.add.reduceat(f, [0, 2], axis=1))


CASES = [
    (_refused_forms, lambda: (rng.integers(1, 13, (3, 4)),
                              rng.random((3, 4)))),
    (_scan_sort_solve, lambda: (rng.random((6, 5)),)),
    (_methods_and_accumulate, lambda: (rng.random((6, 5)),)),
    (_arguments_in_place_or_copied, lambda: (rng.random((4, 7)),
                                             rng.random(6))),
    (_search_histogram_interp, lambda: (rng.random(50), rng.random(10))),
    (_linalg, lambda: (rng.random((6, 5)),)),
    (_statistics, lambda: (rng.random((6, 5)),)),
    (_advanced_indexing, lambda: (rng.random((6, 4)), np.array([1, 3, 3]))),
    (_dtypes_and_0d, lambda: (rng.integers(-9, 9, 12).astype(np.int32),
                              rng.standard_normal(8))),
]


@pytest.mark.parametrize("fn, make", CASES, ids=[c[0].__name__ for c in CASES])
def test_numpy_functions_between_kernels(fn, make):
    """Each function's results and argument writes are NumPy's, on two
    calls with different values."""
    jit_like_numpy(fn, [make(), make()], rtol=1e-12)


def test_host_calls_split_the_plan():
    """The kernels around a NumPy call stay fused: the plan runs a kernel,
    NumPy, then a kernel (two compiled kernels, not one per op)."""
    def fn(x):
        return np.cumsum(np.exp(x) * 2 + 1) * 3 - 1
    traced = stride.jit(fn)
    x = rng.random(1000)
    np.testing.assert_allclose(traced(x), fn(x), rtol=1e-12)
    plan = traced._find((x,), None)
    assert len(plan.earlier) == 2  # the kernel before, the NumPy call


def test_value_dependent_shapes_are_an_error():
    """np.unique's length depends on the values: it is refused by name; a
    function not known for it (histogram edges of Freedman-Diaconis bins)
    whose result's shape changes is a call-time error instead of reading a
    result of another shape."""
    with pytest.raises(TypeError, match=r"numpy\.unique is not supported .*"
                       r"its result's length depends on the values"):
        stride.jit(lambda x: np.unique(x * 1))(np.array([1, 1, 2, 3, 3]))

    def edges(x):
        return np.histogram_bin_edges(x * 1, bins="fd")
    x = np.arange(50.0) ** 3
    with pytest.raises(ValueError, match=r"numpy\.histogram_bin_edges "
                       r"returned float64 \(\d+,\) at this call, where the "
                       r"trace planned float64 \(\d+,\)"):
        stride.jit(edges)(x)


def test_refusals_name_the_function():
    """Inside a fori_loop body (one kernel) a function with no op is still
    refused by name (with out= it runs between kernels and writes out, as
    NumPy's own does); NumPy refusing every stand-in value is a TypeError
    naming the function and NumPy's reason."""
    def loop(a):
        return stride.fori_loop(0, 3, lambda i, v: np.cumsum(v), a)
    with pytest.raises(TypeError, match="numpy.cumsum is not supported"):
        stride.jit(loop)(np.ones(4))
    o = np.zeros(4)
    stride.jit(lambda a, o: np.cumsum(a, out=o))(np.arange(4.0), o)
    np.testing.assert_array_equal(o, np.cumsum(np.arange(4.0)))
    with pytest.raises(TypeError, match=r"numpy\.linalg\.cholesky inside "
                       r"@stride\.jit runs NumPy .* refused"):
        stride.jit(lambda a: np.linalg.cholesky(a * 1))(np.ones((2, 3)))


def test_explain_names_the_numpy_calls():
    """stride.explain of a plan with a NumPy call says where it runs."""
    def fn(x):
        return np.cumsum(np.exp(x) * 2) + 1
    text = str(stride.explain(stride.jit(fn), np.ones(100)))
    assert re.search(r"decision: plan: numpy\.cumsum runs as NumPy's own "
                     r"function between kernels .*test_host_calls\.py:\d+: "
                     r"return np\.cumsum", text), text


def test_lazy_arrays_nested_in_arguments():
    """Found: np.lexsort((x, keys)) was refused: lazy arrays inside a tuple
    inside the argument list were not handed to NumPy."""
    keys = np.random.default_rng(0).integers(0, 5, 20)
    x = np.random.default_rng(1).random(20)
    fn = lambda k, v: v[np.lexsort((v * 2, k))] + 1  # noqa: E731
    np.testing.assert_array_equal(stride.jit(fn)(keys, x), fn(keys, x))
