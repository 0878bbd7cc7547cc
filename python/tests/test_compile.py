"""stride.compile: hand-written IR called on NumPy arrays and scalars."""
import os

import numpy as np
import pytest

import stride
from helpers import elem_strides

IR = """
func.func @f(%x: tensor<?x?xf32>, %y: tensor<?xf32>, %s: f32) -> (tensor<*xf32>, tensor<*xi1>) {
  %0 = stride.mul %s, %x : f32, tensor<?x?xf32> -> tensor<*xf32>
  %1 = stride.add %0, %y : tensor<*xf32>, tensor<?xf32> -> tensor<*xf32>
  %2 = stride.cmp gt, %x, %y : tensor<?x?xf32>, tensor<?xf32> -> tensor<*xi1>
  return %1, %2 : tensor<*xf32>, tensor<*xi1>
}

func.func @g(%x: tensor<3x4xi32>) -> tensor<*xf64> {
  %0 = stride.cast %x : tensor<3x4xi32> -> tensor<*xf64>
  %1 = stride.sqrt %0 : tensor<*xf64> -> tensor<*xf64>
  return %1 : tensor<*xf64>
}
"""


def test_two_results_and_a_scalar():
    f = stride.compile(IR, "f")
    x = np.arange(12, dtype=np.float32).reshape(4, 3).T     # (3,4), strides (1,3)
    y = np.linspace(0, 3, 4, dtype=np.float32)
    r, c = f(x, y, 2.0)
    np.testing.assert_allclose(r, 2 * x + y)
    np.testing.assert_array_equal(c, x > y)
    assert c.dtype == np.bool_
    assert elem_strides(r) == (1, 3)                        # torch keeps the permutation
    r2, _ = stride.compile(IR, "@f", policy="contiguous")(x, y, np.float32(3))
    np.testing.assert_allclose(r2, 3 * x + y)
    assert r2.flags.c_contiguous


def test_specializes_per_layout_and_caches():
    f = stride.compile(IR, "f")
    x = np.ones((2, 5), np.float32)
    y = np.ones(5, np.float32)
    f(x, y, 1.0)
    before = stride.cache_info()
    f(x, y, 7.0)                                            # same layouts: a hit
    after = stride.cache_info()
    assert after.hits == before.hits + 1 and after.misses == before.misses
    f(x[:, ::2], y[::2], 1.0)                               # new strides: compiles
    assert stride.cache_info().misses == after.misses + 1


def test_static_function_and_single_result():
    g = stride.compile(IR, "g")
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    r = g(x)
    assert isinstance(r, np.ndarray) and r.dtype == np.float64
    np.testing.assert_allclose(r, np.sqrt(x))


def test_compile_errors():
    bad = """func.func @h(%a: tensor<3x4xf32>, %b: tensor<5xf32>) -> tensor<*xf32> {
  %0 = stride.add %a, %b : tensor<3x4xf32>, tensor<5xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}"""
    with pytest.raises(stride.CompileError, match="cannot broadcast operand 0 of shape 3x4 and operand 1 of shape 5"):
        stride.compile(bad, "h")(np.ones((3, 4), np.float32), np.ones(5, np.float32))
    assert issubclass(stride.CompileError, ValueError)
    with pytest.raises(stride.CompileError, match="does not parse"):
        stride.compile("func.func @x(", "x")(np.ones(2))
    with pytest.raises(stride.CompileError, match="no function @nope"):
        stride.compile(IR, "nope")()


def test_call_errors():
    g = stride.compile(IR, "g")
    with pytest.raises(stride.CompileError, match="has type tensor<3x4xi32> but the given array has shape"):
        g(np.ones((4, 3), np.int32))
    with pytest.raises(TypeError, match="dtype"):
        g(np.ones((3, 4), np.float32))
    with pytest.raises(TypeError, match="unsupported dtype complex128"):
        g(np.ones((3, 4), np.complex128))
    with pytest.raises(TypeError, match="expected a numpy.ndarray or a scalar"):
        g([[1] * 4] * 3)
    with pytest.raises(stride.CompileError, match="takes 1 arguments, got 2"):
        g(np.ones((3, 4), np.int32), 1.0)


def test_threads_give_the_same_values_and_are_part_of_the_key():
    rng = np.random.default_rng(5)
    a = rng.random((300, 257), dtype=np.float32)[:, ::-1]
    b = rng.random(257, dtype=np.float32)
    expr = stride.tanh(stride.lazy(a)) * b + 1
    try:
        stride.set_threads(1)
        single = stride.materialize(expr)
        stride.set_threads(2)
        misses = stride.cache_info().misses
        threaded = stride.materialize(expr)
        assert stride.cache_info().misses == misses + 1
        m = stride.materialize(stride.matmul(a[:200, :100].copy(), b[:100]))
    finally:
        stride.set_threads(None)
    np.testing.assert_allclose(threaded, single, rtol=1e-6)
    assert threaded.strides == single.strides
    np.testing.assert_allclose(m, a[:200, :100] @ b[:100], rtol=1e-4, atol=1e-4)
    with pytest.raises(ValueError, match="set_threads expects an int >= 1"):
        stride.set_threads(0)


def test_threads_default_to_the_environment_then_the_cores(monkeypatch):
    stride.set_threads(None)
    monkeypatch.delenv("STRIDE_NUM_THREADS", raising=False)
    assert stride.get_threads() == (os.cpu_count() or 1)
    monkeypatch.setenv("STRIDE_NUM_THREADS", "3")
    assert stride.get_threads() == 3
    try:
        stride.set_threads(1)
        assert stride.get_threads() == 1    # set_threads overrides the variable
    finally:
        stride.set_threads(None)
    monkeypatch.setenv("STRIDE_NUM_THREADS", "zero")
    with pytest.raises(ValueError, match="STRIDE_NUM_THREADS must be a positive "
                                         "integer, got 'zero'"):
        stride.get_threads()


ACCUMULATE = """
func.func @acc(%a: tensor<8xf64>, %b: tensor<8xf64>) -> tensor<8xf64> {
  %r = stride.broadcast ins(%a, %b : tensor<8xf64>, tensor<8xf64>) outs(%b : tensor<8xf64>) -> tensor<8xf64> {
  ^bb0(%u: f64, %v: f64):
    %s = arith.addf %u, %v : f64
    stride.yield %s : f64
  }
  return %r : tensor<8xf64>
}

func.func @square(%a: tensor<8xf64>, %b: tensor<8xf64>) -> tensor<8xf64> {
  %r = stride.broadcast ins(%a : tensor<8xf64>) outs(%b : tensor<8xf64>) -> tensor<8xf64> {
  ^bb0(%u: f64):
    %s = arith.mulf %u, %u : f64
    stride.yield %s : f64
  }
  return %r : tensor<8xf64>
}
"""


def test_arguments_are_never_written():
    """@acc uses its argument %b as the destination of a + b, @square as
    the destination of a * a (which does not read it). The arrays
    passed in are only read (entry inputs are not writable in the
    bufferization): the caller's b keeps its values, and the arguments may
    alias: the same array twice, or views of one array shifted either way
    (written in place, v[:-1] for b with v[1:] for a would read elements
    already overwritten)."""
    f = stride.compile(ACCUMULATE, "acc")
    a, b = np.arange(8.0), np.full(8, 10.0)
    np.testing.assert_array_equal(f(a, b), a + 10)
    np.testing.assert_array_equal(b, 10.0)
    np.testing.assert_array_equal(f(a, a), 2 * a)
    np.testing.assert_array_equal(a, np.arange(8.0))
    v = np.arange(9.0) ** 2
    before = v.copy()
    for x, y in ((v[1:], v[:-1]), (v[:-1], v[1:]), (v[::-1][1:], v[:-1])):
        np.testing.assert_array_equal(f(x, y), x.copy() + y.copy())
        np.testing.assert_array_equal(v, before)
    square = stride.compile(ACCUMULATE, "square")
    np.testing.assert_array_equal(square(a, b), a * a)
    np.testing.assert_array_equal(b, 10.0)
    np.testing.assert_array_equal(square(v[1:], v[:-1]), before[1:] ** 2)
    np.testing.assert_array_equal(v, before)


DYNAMIC_DESTINATION = """
func.func @f(%a: tensor<?xf32>, %d: tensor<?xf32>) -> tensor<?xf32> {
  %0 = stride.broadcast ins(%a : tensor<?xf32>) outs(%d : tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %e = math.exp %x : f32
    stride.yield %e : f32
  }
  %1 = stride.add %0, %a : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  return %1 : tensor<?xf32>
}
"""


def test_destination_of_dynamic_type_is_specialized_with_its_result():
    # Issue 25: specializing the destination argument left the op's result
    # dynamic, and the op failed to verify ("destination #0 has type
    # 'tensor<5xf32>' but result #0 has type 'tensor<?xf32>'").
    f = stride.compile(DYNAMIC_DESTINATION, "f")
    a = np.linspace(-1, 1, 5, dtype=np.float32)
    for d in (np.zeros(5, np.float32), np.zeros(10, np.float32)[::2]):
        r = f(a, d)
        np.testing.assert_allclose(r, np.exp(a) + a, rtol=1e-6)
