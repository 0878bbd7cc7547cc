"""Long traces split into several kernels (_trace._stages): every
KERNEL_WRITES writes outside a fori_loop body the traced program is cut,
and each kernel hands the values later ones read over as results. These
tests use a small KERNEL_WRITES so that short programs cross many cuts,
and compare each program with NumPy (values, dtypes, written arguments)
over two calls of the cached plan."""
import numpy as np
import pytest

import stride
from stride import _trace

from helpers import jit_like_numpy

rng = np.random.default_rng(7)


def rand(*shape):
    return rng.random(shape)


@pytest.fixture(params=[1, 3, 7])
def cut_every(monkeypatch, request):
    monkeypatch.setattr(_trace, "KERNEL_WRITES", request.param)
    return request.param


def _kernels(traced, args):
    plan = traced._find(args, traced._plans.get(_trace._signature(args)))
    return 1 + len(plan.earlier)


def test_stencil_time_steps(cut_every):
    """Jacobi 1-D: both arrays written at every step, each step reading the
    other's newest contents across the cuts; bit-identical to NumPy."""
    def jacobi(steps, a, b):
        for _ in range(1, steps):
            b[1:-1] = 0.33333 * (a[:-2] + a[1:-1] + a[2:])
            a[1:-1] = 0.33333 * (b[:-2] + b[1:-1] + b[2:])

    args = (20, rand(37), rand(37))
    traced = jit_like_numpy(jacobi, [args, (20, rand(37), rand(37))])
    assert _kernels(traced, args) == -(-38 // cut_every)  # 38 writes


def test_values_held_in_python_variables(cut_every):
    """Durbin's recurrence: 0-d values (alpha, beta) live in Python
    variables across cuts, slices grow with the loop index, and a local
    array is made, written and returned."""
    def durbin(r):
        y = np.empty_like(r)
        alpha = -r[0]
        beta = 1.0
        y[0] = -r[0]
        for k in range(1, r.shape[0]):
            beta *= 1.0 - alpha * alpha
            alpha = -(r[k] + np.dot(np.flip(r[:k]), y[:k])) / beta
            y[:k] += alpha * np.flip(y[:k])
            y[k] = alpha
        return y

    r = rand(16) * 0.1
    traced = jit_like_numpy(durbin, [(r,), (rand(16) * 0.1,)], rtol=1e-12)
    assert _kernels(traced, (r,)) > 1


def test_early_values_returned_at_the_end(cut_every):
    """Results computed before many writes (a sum of the argument as it was,
    a view of a local taken early) come back from the kernel that computed
    them, with the argument's later writes and other results intact."""
    def fn(x, w):
        total = x.sum(axis=0)
        first = x[0] * 2
        acc = np.zeros(x.shape[1])
        for i in range(x.shape[0]):
            x[i] = x[i] * w + acc
            acc += x[i]
        return total, first, acc, x.T

    args = (rand(9, 4), rand(4))
    jit_like_numpy(fn, [args, (rand(9, 4), rand(4))], rtol=1e-13)


def test_fori_loop_between_cuts(cut_every):
    """A fori_loop (never cut inside) between unrolled writes: its result
    and the arrays written before it cross the cuts."""
    def step(i, u):
        u[1:-1] = 0.5 * (u[:-2] + u[2:])
        return u

    def fn(u, v):
        for k in range(5):
            v[k] = u[k] + 1.0
        u = stride.fori_loop(0, 4, step, u)
        for k in range(5):
            v[k + 5] = u[k] * v[k]
        return u, v

    def numpy_fn(u, v):
        for k in range(5):
            v[k] = u[k] + 1.0
        for _ in range(4):
            u[1:-1] = 0.5 * (u[:-2] + u[2:])
        for k in range(5):
            v[k + 5] = u[k] * v[k]
        return u, v

    traced = stride.jit(fn)
    for _ in range(2):
        u, v = rand(12), rand(12)
        got = traced(u.copy(), v.copy())
        want = numpy_fn(u.copy(), v.copy())
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)


def test_every_dtype_and_masks(cut_every):
    """Integer, bool and float32 memory written across cuts, a boolean mask
    assignment and a reduction of bools read after them."""
    def fn(a, b, m):
        for i in range(4):
            a[i] += np.int32(i) * a[i + 1]
            m[i] = b[i] > 0.5
            b[i] = b[i] * np.float32(2)
        b[b > 1.0] = 0.0
        return a, b, m, m.any(), np.count_nonzero(m)

    def args():
        return (rng.integers(-9, 9, 6).astype(np.int32),
                rand(6).astype(np.float32), np.zeros(6, dtype=bool))

    jit_like_numpy(fn, [args(), args()])


def test_written_intermediates_and_views(cut_every):
    """An intermediate result written into (NumPy's results are arrays) and
    a transposed view of it read after later writes."""
    def fn(x):
        t = x * 2
        tt = t.T
        for i in range(3):
            t[i] = t[i] + tt[:, i].sum()
        return t, tt.copy()

    jit_like_numpy(fn, [(rand(3, 3),), (rand(3, 3),)], rtol=1e-13)


def test_one_kernel_below_the_cut():
    """A trace with fewer writes than KERNEL_WRITES is one kernel."""
    def fn(x):
        for i in range(3):
            x[i] = i
        return x * 2

    args = (rand(5),)
    traced = jit_like_numpy(fn, [args])
    assert _kernels(traced, args) == 1
