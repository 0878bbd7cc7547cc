"""stride.matmul: NumPy matmul semantics, lazy and composable."""
import numpy as np
import pytest

import stride
from helpers import elem_strides, torch

SHAPES = [
    ((3, 4), (4, 5)), ((4,), (4, 5)), ((3, 4), (4,)), ((4,), (4,)),
    ((2, 3, 4), (4,)), ((4,), (2, 4, 5)), ((3, 1, 2, 4), (1, 5, 4, 6)),
    ((2, 1, 2, 2), (1, 2, 2, 2)), ((1, 3, 4, 5, 3), (8, 3, 1, 3, 7)),
    ((5, 3, 4), (4, 2)), ((0, 3), (3, 4)), ((3, 0), (0, 4)),
]


def rand(shape, dtype=np.float64, seed=0):
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype)


@pytest.mark.parametrize("sa,sb", SHAPES)
@pytest.mark.parametrize("policy", ["torch", "numpy"])
def test_matmul_shapes_values_strides(sa, sb, policy):
    a, b = rand(sa), rand(sb, seed=1)
    r = stride.materialize(stride.matmul(a, b), policy=policy)
    want = np.matmul(a, b)
    assert r.shape == want.shape and r.dtype == want.dtype
    np.testing.assert_allclose(r, want, rtol=1e-12, atol=1e-12)
    if policy == "numpy":
        assert elem_strides(r) == elem_strides(want)
    elif torch is not None:
        t = torch.matmul(torch.from_numpy(a), torch.from_numpy(b))
        # torch.matmul's size-1 dims get path-dependent strides (see
        # test/Differential): compare the dims that address memory.
        assert [s for n, s in zip(r.shape, elem_strides(r)) if n > 1] == \
            [s for n, s in zip(t.shape, t.stride()) if n > 1]


def test_strided_operands_are_not_copied():
    a = rand((6, 8))[::2, 1::2]           # (3,4) sliced
    b = rand((5, 4), seed=2).T             # (4,5) transposed
    r = stride.materialize(stride.matmul(a, b))
    np.testing.assert_allclose(r, a @ b, rtol=1e-12)
    bb = np.broadcast_to(rand((4, 2), seed=3), (7, 4, 2))   # stride-0 batch
    np.testing.assert_allclose(stride.materialize(stride.matmul(a, bb)), a @ bb, rtol=1e-12)


def test_composed_and_operator():
    a, b = rand((3, 4), np.float32), rand((4, 5), np.float32, 1)
    c = rand((5,), np.float32, 2)
    la = stride.lazy(a)
    expr = stride.exp(la @ b) * 2 + c
    np.testing.assert_allclose(stride.materialize(expr), np.exp(a @ b) * 2 + c, rtol=1e-5)
    expr = stride.matmul(la * 2, stride.tanh(b)) @ stride.lazy(c)
    np.testing.assert_allclose(stride.materialize(expr), ((a * 2) @ np.tanh(b)) @ c, rtol=1e-5)
    assert isinstance(a @ stride.lazy(b), stride.Expr)        # ndarray @ expr defers too


def test_integer_bool_and_mixed_dtypes():
    ai = np.arange(12, dtype=np.int32).reshape(3, 4)
    bi = np.arange(8, dtype=np.int64).reshape(4, 2)
    r = stride.materialize(stride.matmul(ai, bi))
    assert r.dtype == np.int64
    np.testing.assert_array_equal(r, ai @ bi)
    ab = np.array([[True, False], [False, False]])
    bb = np.array([[True, True], [False, True]])
    r = stride.materialize(stride.matmul(ab, bb))
    assert r.dtype == np.bool_
    np.testing.assert_array_equal(r, ab @ bb)
    af = rand((2, 3), np.float32)
    r = stride.materialize(stride.matmul(af, ai[:, :2][:3]))
    assert r.dtype == np.float64
    np.testing.assert_allclose(r, af @ ai[:, :2][:3], rtol=1e-6)


def test_matmul_errors():
    with pytest.raises(ValueError, match="lhs dim 1 has size 3, rhs dim 0 has size 4"):
        stride.matmul(rand((2, 3)), rand((4, 5)))
    with pytest.raises(ValueError, match="lhs dim 0 has size 3, rhs dim 0 has size 2"):
        stride.matmul(rand((3,)), rand((2,)))
    with pytest.raises(ValueError, match=r"cannot broadcast lhs batch of shape 2 and rhs batch of shape 3"):
        stride.matmul(rand((2, 2, 2)), rand((3, 2, 2)))
    with pytest.raises(ValueError, match="0-d"):
        stride.matmul(np.float64(1.0) * stride.lazy(np.array(2.0)), rand((2,)))
    with pytest.raises(ValueError, match="scalar"):
        stride.matmul(2.0, rand((2,)))
    with pytest.raises(ValueError, match="scalar"):
        stride.lazy(rand((2, 2))) @ 3
