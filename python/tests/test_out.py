"""materialize(expr, out=arr): in place, keeping arr's strides; aliasing."""
import numpy as np
import pytest

import stride
from helpers import elem_strides


def rand(*shape, dtype=np.float32):
    return np.random.default_rng(sum(shape) + len(shape)).uniform(-1, 1, shape).astype(dtype)


@pytest.mark.parametrize("make_out", [
    lambda: np.empty((3, 4), np.float32, order="F"),
    lambda: np.empty((4, 3), np.float32).T,
    lambda: np.empty((3, 8), np.float32)[:, ::2],                 # gaps
    lambda: np.empty((4, 2, 4), np.float32)[:, 1, 1:].T,              # sliced and transposed
])
def test_out_keeps_strides(make_out):
    out = make_out()
    strides = out.strides
    x, y = rand(3, 4), rand(4)
    r = stride.materialize(2 * stride.exp(stride.lazy(x)) - y, out=out)
    assert r is out and out.strides == strides
    np.testing.assert_allclose(out, 2 * np.exp(x) - y, rtol=1e-6)


def test_out_writes_only_its_elements():
    big = np.zeros((4, 9), np.float64)
    out = big[1:, 1::3]                                            # (3,3) view
    x = rand(3, 3, dtype=np.float64)
    stride.materialize(stride.lazy(x) + 1, out=out)
    np.testing.assert_array_equal(out, x + 1)
    mask = np.zeros_like(big, bool)
    mask[1:, 1::3] = True
    assert not big[~mask].any()


def test_out_3d_permuted():
    out = np.empty((5, 2, 3), np.float64).transpose(2, 0, 1)      # (3,5,2)
    a = rand(3, 5, 2, dtype=np.float64)
    stride.materialize(stride.tanh(a) * a, out=out)
    assert elem_strides(out) == (1, 6, 3)
    np.testing.assert_allclose(out, np.tanh(a) * a, rtol=1e-12)


def test_out_negative_strides_via_temporary():
    out = np.zeros((4, 6), np.float32)[::-1, ::-2]
    x = rand(4, 3)
    stride.materialize(stride.lazy(x) * 3, out=out)
    np.testing.assert_allclose(out, x * 3, rtol=1e-6)


def test_out_misaligned_via_temporary():
    buf = np.zeros(12 * 4 + 1, np.uint8)
    out = np.ndarray((4, 3), np.float32, buf, 1)
    assert not out.flags.aligned
    x = rand(4, 3)
    stride.materialize(stride.lazy(x) - 1, out=out)
    np.testing.assert_allclose(out, x - 1, rtol=1e-6)


def test_out_zero_d_and_zero_size():
    out = np.zeros((), np.float64)
    stride.materialize(stride.lazy(np.array(2.0)) * 4, out=out)
    assert out == 8.0
    empty = np.zeros((0, 3), np.float32)
    assert stride.materialize(stride.lazy(empty) + 1, out=np.empty((0, 3), np.float32)).shape == (0, 3)


def test_out_from_a_bare_array_copies():
    src = rand(3, 4)
    out = np.empty((4, 3), np.float32).T
    stride.materialize(src, out=out)
    np.testing.assert_array_equal(out, src)


def test_aliasing_element_for_element_is_fine():
    x = rand(64, 33)
    want = np.tanh(x) * x[0] + x
    y = x[0].copy()
    stride.materialize(stride.tanh(x) * y + x, out=x)               # x .= tanh.(x) .* y .+ x
    np.testing.assert_allclose(x, want, rtol=1e-5, atol=1e-6)
    t = rand(5, 7).T                                                # a transposed view in place
    want = t * t - 1
    stride.materialize(stride.lazy(t) * t - 1, out=t)
    np.testing.assert_allclose(t, want, rtol=1e-6)


def test_matmul_into_its_own_operand():
    a = rand(4, 4, dtype=np.float64)
    b = rand(4, 4, dtype=np.float64)
    want = a @ b
    stride.materialize(stride.matmul(a, b), out=a)                  # via a temporary
    np.testing.assert_allclose(a, want, rtol=1e-12)
    c = rand(3, 3, dtype=np.float64)
    want = np.exp(c @ c) + c
    stride.materialize(stride.exp(stride.matmul(c, c)) + c, out=c)   # the product is a temporary anyway
    np.testing.assert_allclose(c, want, rtol=1e-12)


def test_partial_overlap_gives_numpys_answer():
    """NumPy's rule: as if every input were read before out is written. The
    inputs that overlap out other than element for element are copied."""
    cases = [
        (lambda a: stride.lazy(a[:-1]) + 1, lambda a: a[:-1] + 1, lambda a: a[1:]),
        (lambda a: stride.lazy(a[1:]) + 1, lambda a: a[1:] + 1, lambda a: a[:-1]),
        (lambda a: stride.lazy(a[0]) + a, lambda a: a[0] + a, lambda a: a),  # a row of out, broadcast
        (lambda a: stride.lazy(a.T) * 2, lambda a: a.T * 2, lambda a: a.T[::-1]),  # other order
        (lambda a: stride.lazy(a[:, :2]) + 1, lambda a: a[:, :2] + 1, lambda a: a[:, 1:3]),
        (lambda a: stride.lazy(a[::-1]) - a, lambda a: a[::-1] - a, lambda a: a),  # reversed
        (lambda a: stride.matmul(a[:4], a[:4]), lambda a: a[:4] @ a[:4], lambda a: a[:4]),
    ]
    for build, eager, out in cases:
        a = rand(5, 4)
        want = eager(a.copy())
        got = stride.materialize(build(a), out=out(a))
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(out(a), want, rtol=1e-5, atol=1e-6)


def test_disjoint_views_of_one_buffer_are_fine():
    buf = rand(6, 4)
    stride.materialize(stride.lazy(buf[:3]) * 2, out=buf[3:])
    np.testing.assert_array_equal(buf[3:], buf[:3] * 2)
    stride.materialize(stride.lazy(buf[:, ::2]) + 1, out=buf[:, 1::2])
    np.testing.assert_array_equal(buf[:, 1::2], buf[:, ::2] + 1)


def test_stride_zero_out_rejected():
    out = np.lib.stride_tricks.as_strided(np.zeros(4, np.float32), (3, 4), (0, 4))
    with pytest.raises(ValueError, match="stride 0 in dim 0"):
        stride.materialize(stride.lazy(rand(3, 4)) + 1, out=out)
    # a stride 0 on a size-1 dim is harmless
    ok = np.lib.stride_tricks.as_strided(np.zeros(4, np.float32), (1, 4), (0, 4))
    stride.materialize(stride.lazy(rand(1, 4)) + 1, out=ok)


def test_self_overlapping_out_rejected():
    out = np.lib.stride_tricks.as_strided(np.zeros(9, np.float32), (3, 3), (4, 4))
    with pytest.raises(ValueError, match="overlaps itself"):
        stride.materialize(stride.lazy(rand(3, 3)) + 1, out=out)
    # interleaved but disjoint: (2,3) with element strides (3,2) -> offsets 0 2 4 3 5 7
    inter = np.lib.stride_tricks.as_strided(np.zeros(8, np.float32), (2, 3), (12, 8))
    x = rand(2, 3)
    stride.materialize(stride.lazy(x) + 1, out=inter)
    np.testing.assert_allclose(inter, x + 1)


def test_out_shape_dtype_and_writability_errors():
    x = stride.lazy(rand(3, 4))
    with pytest.raises(ValueError, match=r"out has shape \(4,3\) but the expression gives shape \(3,4\)"):
        stride.materialize(x + 1, out=np.empty((4, 3), np.float32))
    with pytest.raises(ValueError, match=r"\(3,1\).*\(3,4\)"):
        stride.materialize(x + 1, out=np.empty((3, 1), np.float32))  # no broadcasting into out
    with pytest.raises(TypeError, match="out has dtype float64 but the expression gives float32"):
        stride.materialize(x + 1, out=np.empty((3, 4), np.float64))
    ro = np.empty((3, 4), np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        stride.materialize(x + 1, out=ro)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        stride.materialize(x + 1, out=[[0.0] * 4] * 3)


def test_overlap_copy_is_not_reused_by_a_later_call():
    # The copy made for an overlapping out= belongs to that call only: the
    # same expression object, materialized again after its array changed,
    # reads the array, not the stale copy.
    a = np.arange(10.0)
    e = stride.lazy(a[:-1]) * 2
    stride.materialize(e, out=a[1:])
    np.testing.assert_array_equal(a, np.r_[0.0, np.arange(9.0) * 2])
    a[:] = 1.0
    np.testing.assert_array_equal(stride.materialize(e), np.full(9, 2.0))
    o = np.empty(9)
    stride.materialize(e, out=o)
    np.testing.assert_array_equal(o, np.full(9, 2.0))
