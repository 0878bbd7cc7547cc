"""Elementwise kernels that chain transcendental functions run in stages
over blocks of 512 elements (stride-split-math-chains): values across
block boundaries, in place, strided, broadcast, with two results and on two
threads must equal NumPy's, and special values must come through."""
import numpy as np
import pytest

import stride

# Around the block of 512 elements and the 64-iteration floor of the split.
SIZES = [1, 7, 63, 64, 511, 512, 513, 1024, 1537, 4099]


def rtol(dtype):
    return 2e-6 if dtype == np.float32 else 1e-13


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", SIZES)
def test_chain_across_blocks(n, dtype):
    x = np.random.default_rng(n).uniform(-3, 3, n).astype(dtype)
    f = stride.jit(lambda x: np.log1p(np.exp(x)) + np.sin(np.cos(x)) * x)
    np.testing.assert_allclose(f(x), np.log1p(np.exp(x)) + np.sin(np.cos(x)) * x,
                               rtol=rtol(dtype), atol=1e-6)


@pytest.mark.parametrize("threads", [1, 2])
def test_three_stages_threads(threads):
    x = np.random.default_rng(1).uniform(-2, 2, (37, 3001))
    f = stride.jit(lambda x: np.exp(np.sin(np.cos(x))) - x, threads=threads)
    np.testing.assert_allclose(f(x), np.exp(np.sin(np.cos(x))) - x, rtol=1e-13,
                               atol=1e-14)


def test_in_place_out():
    x = np.random.default_rng(2).uniform(0, 1, 10000)
    expect = np.log(np.exp(x) + np.tanh(x)) * 2
    f = stride.jit(lambda x: np.multiply(np.log(np.exp(x) + np.tanh(x)), 2, out=x))
    f(x)
    np.testing.assert_allclose(x, expect, rtol=1e-13)


def test_transposed_and_broadcast_operands():
    rng = np.random.default_rng(3)
    a = rng.uniform(0, 1, (700, 300)).T    # 300 x 700, column-major
    v = rng.uniform(0, 1, 700)
    fn = lambda a, v: np.arctan2(np.sin(a) * np.cos(v), np.exp(np.sqrt(v)))
    np.testing.assert_allclose(stride.jit(fn)(a, v), fn(a, v), rtol=1e-13)


def test_two_results_share_a_stage():
    x = np.random.default_rng(4).uniform(-1, 1, 3000).astype(np.float32)
    fn = lambda x: (np.exp(x), np.log(np.exp(x)) - x)
    got, want = stride.jit(fn)(x), fn(x)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-6)


def test_special_values_come_through():
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-310, 710.0, -745.0]
                 * 100)
    fn = lambda x: np.log1p(np.exp(x))
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(stride.jit(fn)(x), fn(x))


def test_integer_input_and_mixed_results():
    i = np.arange(-700, 700, dtype=np.int32)
    fn = lambda i: (np.sin(np.exp(i / 100.0)) > 0.5) | (i % 3 == 0)
    np.testing.assert_array_equal(stride.jit(fn)(i), fn(i))


def test_lazy_expression_and_stride_run_agree():
    x = np.random.default_rng(5).uniform(-5, 5, 2 ** 16)
    expr = np.log1p(np.exp(stride.lazy(x)))
    np.testing.assert_allclose(stride.materialize(expr), np.log1p(np.exp(x)),
                               rtol=1e-13)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_bool_and_integer_values_cross_stages(dtype):
    # The compare of exp(x) and its cast to an integer are computed beside
    # exp and read after log: i1 and i32 values cross in buffers.
    x = np.random.default_rng(6).uniform(-2, 2, 2000).astype(dtype)
    fn = lambda x: np.where(np.exp(x) > 1.5, np.log(np.exp(x) + 1), -1) \
        + (np.exp(x) * 3).astype(np.int32) * np.sin(np.log(np.exp(x) + 2))
    np.testing.assert_allclose(stride.jit(fn)(x), fn(x), rtol=2e-6 if dtype == np.float32 else 1e-13)
