"""Inputs of every layout are read in place; results get the policy's
strides."""
import numpy as np
import pytest

import stride
from stride import _codegen, _expr
from helpers import elem_strides, make_view, torch

needs_torch = pytest.mark.skipif(torch is None, reason="needs torch")


def seed_view():
    # DESIGN's seed: randn(2,3,8)[:,:,::2].permute(2,0,1), strides (2,24,8).
    return np.arange(48, dtype=np.float32).reshape(2, 3, 8)[:, :, ::2].transpose(2, 0, 1)


def test_seed_example_torch_strides():
    a = seed_view()
    assert elem_strides(a) == (2, 24, 8)
    x = stride.lazy(a)
    r = stride.materialize(stride.exp(x / 48) + x)
    np.testing.assert_allclose(r, np.exp(a / 48) + a, rtol=1e-6)
    assert elem_strides(r) == (1, 12, 4)


@needs_torch
@pytest.mark.parametrize("layout", ["c", "perm", "sliced", "broadcast", "size1", "mixed"])
def test_layouts_torch(layout):
    rng = np.random.default_rng(hash(layout) % 1000)
    for shape in [(4, 3), (2, 1, 5), (3, 4, 2, 2), (5,)]:
        v = make_view(rng, shape, layout)
        w = make_view(rng, shape[1:], "c")
        r = stride.materialize(stride.tanh(stride.lazy(v.np)) * w.np - 1)
        np.testing.assert_allclose(r, np.tanh(v.np) * w.np - 1, rtol=1e-5, atol=1e-6)
        t = torch.sub(torch.mul(torch.tanh(v.torch()), w.torch()), torch.tensor(1.0))
        assert elem_strides(r) == t.stride()


@pytest.mark.parametrize("layout", ["c", "perm", "sliced", "broadcast", "negative", "mixed"])
def test_layouts_numpy(layout):
    rng = np.random.default_rng(7)
    for shape in [(4, 3), (2, 1, 5), (3, 4, 2, 2), (5,)]:
        v = make_view(rng, shape, layout)
        w = make_view(rng, shape[-1:], "negative")
        r = stride.materialize(stride.lazy(v.np) * w.np + np.float32(1), policy="numpy")
        want = v.np * w.np + np.float32(1)
        np.testing.assert_allclose(r, want, rtol=1e-6)
        assert elem_strides(r) == elem_strides(want)


def test_negative_strides_read_in_place():
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    v = a[::-1, ::-2]
    r = stride.materialize(stride.lazy(v) + 0.5, policy="numpy")
    np.testing.assert_array_equal(r, v + 0.5)
    assert elem_strides(r) == elem_strides(v + 0.5)


def test_broadcast_views_and_broadcasting():
    row = np.arange(4, dtype=np.float32)
    b = np.broadcast_to(row, (3, 4))          # stride 0, never copied
    col = np.arange(3, dtype=np.float32)[:, None]
    r = stride.materialize(stride.lazy(b) * col + row)
    np.testing.assert_array_equal(r, b * col + row)
    assert r.shape == (3, 4) and elem_strides(r) == (4, 1)


@needs_torch
def test_zero_d():
    a = np.array(2.5, dtype=np.float32)
    b = np.arange(3, dtype=np.float32)
    r = stride.materialize(stride.lazy(a) * b + a)
    np.testing.assert_array_equal(r, a * b + a)
    r0 = stride.materialize(stride.exp(stride.lazy(a)))
    assert r0.shape == () and r0.dtype == np.float32
    np.testing.assert_allclose(r0, np.exp(a), rtol=1e-6)


@needs_torch
@pytest.mark.parametrize("policy", ["torch", "numpy"])
def test_zero_size(policy):
    a = np.zeros((4, 3, 0), np.float32)
    b = np.ones((3, 1), np.float32)
    r = stride.materialize(stride.lazy(a) + b, policy=policy)
    assert r.shape == (4, 3, 0) and r.dtype == np.float32
    if policy == "numpy":
        assert elem_strides(r) == elem_strides(a + b) == (0, 0, 0)
    else:
        assert elem_strides(r) == torch.add(torch.zeros(4, 3, 0), torch.ones(3, 1)).stride()
    e = stride.materialize(stride.exp(np.ones((0, 5), np.float64)), policy=policy)
    assert e.shape == (0, 5)


def test_contiguous_policy():
    a = seed_view()
    r = stride.materialize(stride.lazy(a) * 2, policy="contiguous")
    assert r.flags.c_contiguous and elem_strides(r) == (6, 3, 1)


def test_scalars_in_every_position():
    x = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
    lx = stride.lazy(x)
    cases = [
        (2 * lx, 2 * x), (1 - lx, 1 - x), (3 / (lx + 2), 3 / (x + 2)),
        (2 ** lx, 2 ** x), (lx ** 2, x ** 2),
        (stride.maximum(0.0, lx), np.maximum(0.0, x)),
        (stride.minimum(lx, 0.25), np.minimum(x, 0.25)),
        (stride.where(lx > 0, 1.0, lx), np.where(x > 0, np.float32(1.0), x)),
        (stride.where(True, lx, 0.0), x),
        (0.5 < lx, 0.5 < x), (np.float32(2) * lx, np.float32(2) * x),
    ]
    for expr, want in cases:
        got = stride.materialize(expr)
        assert got.dtype == want.dtype, expr
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_scalars_only():
    assert stride.materialize(stride.maximum(0.0, 1.0)) == 1.0
    r = stride.materialize(stride.where(False, 1, 2.5))
    assert r.shape == () and r.dtype == np.float64 and r == 2.5


def test_scalars_are_arguments_not_constants():
    x = np.ones(5, np.float32)
    text, args = _codegen.generate(_expr.as_root(2 * stride.lazy(x) + 3))
    assert "arith.constant" not in text
    assert [a[0] for a in args if isinstance(a, tuple)] == [2, 3]


def test_same_array_is_one_argument():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    y = x[::-1]                      # the same memory, another view: its own argument
    expr = stride.lazy(x) * stride.lazy(x) + x + stride.lazy(y)
    text, args = _codegen.generate(_expr.as_root(expr))
    arrays = [a for a in args if isinstance(a, np.ndarray)]
    assert len(arrays) == 2 and arrays[0] is x and arrays[1] is y
    np.testing.assert_array_equal(stride.materialize(expr), x * x + x + y)


def test_lazy_reads_memory_at_materialize_time():
    x = np.zeros(4, np.float64)
    expr = stride.lazy(x) + 1     # no copy: later writes to x are seen
    x[:] = 5
    np.testing.assert_array_equal(stride.materialize(expr), np.full(4, 6.0))


def test_ndarray_operands_and_array_protocol():
    x = np.arange(3.0)
    expr = x + stride.lazy(x) * 2     # ndarray first: NumPy defers to stride
    assert isinstance(expr, stride.Expr)
    np.testing.assert_array_equal(np.asarray(expr), 3 * x)


def test_long_chain_is_one_kernel_without_recursion_limits():
    x = np.ones(8, np.float32)
    acc = stride.lazy(x)
    for _ in range(1500):
        acc = acc + x
    np.testing.assert_array_equal(stride.materialize(acc), np.full(8, 1501, np.float32))


# Large results start on a cache line (NumPy's own large arrays start 16
# bytes into a page, which makes every 64-byte vector row of a transposing
# kernel straddle two lines; docs/performance.md), in the policy's layout,
# C order or not; small ones are plain np.empty arrays.
@pytest.mark.parametrize("policy", ["torch", "numpy"])
def test_large_results_start_on_a_cache_line(policy):
    a = np.arange(512 * 600, dtype=np.float32).reshape(512, 600)
    b = np.ones((600, 512), np.float32)
    for expr, want in [(stride.lazy(a) + 1, a + 1), (stride.lazy(a.T) + b, a.T + b)]:
        got = stride.materialize(expr, policy=policy)
        np.testing.assert_array_equal(got, want)
        assert got.ctypes.data % 64 == 0
        assert got.nbytes >= 1 << 20
    small = stride.materialize(stride.lazy(a[:4, :4]) + 1, policy=policy)
    np.testing.assert_array_equal(small, a[:4, :4] + 1)
