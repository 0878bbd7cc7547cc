"""Elementwise kernels over operands whose layouts disagree, large enough for
stride-block-transposes to cache-block them (loops longer than one 256-byte
tile), with edges that do not divide evenly; values and strides as NumPy's."""
import numpy as np
import pytest

import stride
from helpers import elem_strides


def rand(shape, dtype, seed=0):
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("threads", [1, 2])
def test_transposed_operand(dtype, threads):
    a, b = rand((517, 300), dtype), rand((300, 517), dtype, 1)
    stride.set_threads(threads)
    try:
        r = stride.materialize(stride.lazy(a.T) + b, policy="numpy")
        out = np.empty((517, 300), dtype).T          # a permuted destination
        stride.materialize(stride.lazy(a.T) * 2 - b, out=out)
    finally:
        stride.set_threads(None)
    np.testing.assert_array_equal(r, a.T + b)
    assert elem_strides(r) == elem_strides(np.add(a.T, b))
    np.testing.assert_array_equal(out, a.T * 2 - b)


def test_nchw_plus_nhwc():
    x = rand((2, 3, 70, 90), np.float32)                       # NCHW
    y = rand((2, 70, 90, 3), np.float32, 1).transpose(0, 3, 1, 2)  # NHWC view
    r = stride.materialize(stride.lazy(x) + y, policy="numpy")
    np.testing.assert_array_equal(r, x + y)
    assert elem_strides(r) == elem_strides(np.add(x, y))
