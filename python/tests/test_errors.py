"""Errors are Python exceptions raised where the expression is built, with
NumPy's wording where NumPy has one; nothing reaches a kernel that could
crash the interpreter."""
import os

import numpy as np
import pytest

import stride


def test_broadcast_error_names_the_shapes_when_built():
    x = stride.lazy(np.ones((3, 4), np.float32))
    with pytest.raises(ValueError, match=r"^operands could not be broadcast together with shapes \(3,4\) \(5,\)$"):
        x + np.ones(5, np.float32)
    with pytest.raises(ValueError, match=r"shapes \(2,1,3\) \(3,4\) \(3,\)"):
        stride.where(np.ones((2, 1, 3), bool), x, np.ones(3))
    with pytest.raises(ValueError, match=r"\(0,\) \(2,\)"):
        stride.exp(np.ones(0)) * np.ones(2)       # 0 only broadcasts with 1


def test_bad_operands():
    x = stride.lazy(np.ones(3))
    with pytest.raises(TypeError):
        x + [1, 2, 3]                             # lists would need a copy
    with pytest.raises(TypeError):
        x * "a"
    with pytest.raises(TypeError, match="numpy.ndarray"):
        stride.lazy([1.0, 2.0])
    with pytest.raises(TypeError, match="unsupported operand"):
        stride.exp(None)
    with pytest.raises(TypeError, match="masked"):
        stride.lazy(np.ma.masked_array([1.0, 2.0], mask=[0, 1]))
    with pytest.raises(TypeError, match="cannot materialize"):
        stride.materialize(None)


def test_truth_value_is_an_error():
    x = stride.lazy(np.ones(3))
    with pytest.raises(TypeError, match="truth value"):
        if x > 0:
            pass


def test_unsupported_numpy_functions_name_themselves_and_the_line():
    """Inside a trace a NumPy function Stride does not build lazily, where
    NumPy cannot run it between kernels (in a fori_loop body; elsewhere it
    does, with out= too: test_host_calls.py), is a TypeError naming it as
    the user wrote it, and the line."""
    # Anchored: the message ends with the user's line, which holds the
    # lambda and so the pattern's text too.
    loop = lambda f: (lambda x: stride.fori_loop(0, 2, lambda i, v: f(v), x))  # noqa: E731
    cases = [
        (loop(lambda v: np.sort(v)), r"^numpy\.sort is not supported.*test_errors.py:\d+: \(loop\(lambda v: np.sort"),
        (loop(lambda v: np.cumsum(v, out=v)), r"^numpy\.cumsum is not supported.*test_errors.py"),
        (loop(lambda v: np.add.accumulate(v, out=v)), r"^numpy\.add\.accumulate is not supported"),
        (loop(lambda v: np.add(v, v, dtype=np.float64)), r"^numpy\.add is not supported [^(]*with keyword arguments dtype"),
        (loop(lambda v: np.add.reduceat(v, [0, 1])[:3] + v), r"^numpy\.add\.reduceat is not supported"),
        (loop(lambda v: np.partition(v, 1)), r"^numpy\.partition is not supported"),
        (loop(lambda v: np.linalg.cholesky(v[:, None] * v)[0]), r"^numpy\.linalg\.cholesky is not supported"),
    ]
    for fn, message in cases:
        with pytest.raises(TypeError, match=message):
            stride.jit(fn)(np.ones(3))


def test_outside_a_trace_numpy_functions_get_numpys_answer():
    """Functions (and ndarray methods) Stride does not build lazily run on
    the materialized values, as on an ndarray."""
    a = np.arange(1.0, 7.0).reshape(2, 3)
    x = stride.lazy(a)
    np.testing.assert_allclose(np.logaddexp(x, x + 1), np.logaddexp(a, a + 1))
    np.testing.assert_array_equal(np.cumsum(x * 2, axis=1), np.cumsum(a * 2, axis=1))
    np.testing.assert_array_equal(np.add.reduce(x), np.add.reduce(a))
    assert np.add(x, x, dtype=np.float32).dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(x - 1), np.linalg.norm(a - 1))
    assert np.allclose(x @ a.T, a @ a.T)
    np.testing.assert_array_equal((x + 1).cumsum(), (a + 1).cumsum())
    # Integer index arrays: NumPy's advanced indexing of the values.
    idx = np.array([1, 0, 1])
    np.testing.assert_array_equal(x[idx], a[idx])
    np.testing.assert_array_equal((x * 2)[[0, 1], 2], (a * 2)[[0, 1], 2])
    np.testing.assert_array_equal(x[:, stride.lazy(np.array([2, 0]))],
                                  a[:, [2, 0]])
    with pytest.raises(TypeError, match="only basic indexing"):
        x[np.array([0.5])]
    np.testing.assert_array_equal(np.sort(-x, axis=None), np.sort(-a, axis=None))


def test_bool_operations_numpy_refuses():
    b = stride.lazy(np.array([True, False]))
    with pytest.raises(TypeError, match="boolean subtract"):
        b - b
    with pytest.raises(TypeError, match="boolean negative"):
        -b
    with pytest.raises(TypeError, match="float16"):
        stride.exp(b)


def test_negative_integer_power():
    with pytest.raises(ValueError, match="negative integer powers"):
        stride.lazy(np.arange(3)) ** -1


def test_unknown_policy():
    x = stride.lazy(np.ones(3))
    with pytest.raises(ValueError, match="unknown policy 'fortran'"):
        stride.materialize(x, policy="fortran")
    with pytest.raises(ValueError, match="unknown policy"):
        stride.compile("", "f", policy="C")


def test_errors_leave_the_cache_usable():
    x = np.ones((2, 2), np.float32)
    before = stride.cache_info()
    with pytest.raises(ValueError):
        stride.materialize(stride.lazy(x) + np.ones(3, np.float32))
    assert stride.cache_info().misses == before.misses    # nothing compiled
    np.testing.assert_array_equal(stride.materialize(stride.lazy(x) + 1), x + 1)


def test_compile_result_type_numpy_cannot_hold_is_a_type_error():
    ir = """func.func @f(%a: tensor<3xf32>) -> tensor<*xf16> {
      %0 = stride.cast %a : tensor<3xf32> -> tensor<*xf16>
      return %0 : tensor<*xf16>
    }"""
    f = stride.compile(ir, "f")
    with pytest.raises(TypeError, match="element type f16"):
        f(np.ones(3, np.float32))


def test_verifier_errors_are_compile_errors():
    ir = """func.func @f(%a: tensor<3xf32>) -> tensor<*xf32> {
      %0 = stride.exp %a : tensor<3xf32> -> tensor<4xf32>
      return %0 : tensor<4xf32>
    }"""
    with pytest.raises(stride.CompileError, match="does not parse or verify"):
        stride.compile(ir, "f")(np.ones(3, np.float32))


@pytest.mark.parametrize("op", [
    "linalg.transpose ins(%a : tensor<3x2xf32>) outs(%e : tensor<2x3xf32>)"
    " permutation = [,1, 0]",
    "linalg.transpose ins(%a : tensor<3x2xf32>) outs(%e : tensor<2x3xf32>)"
    " permutation = 3",
])
def test_malformed_linalg_lists_are_compile_errors(op):
    # MLIR 22's own parser crashes on these (a null attribute); Stride's
    # front door reports the list instead.
    ir = f"""func.func @f(%a: tensor<3x2xf32>) -> tensor<2x3xf32> {{
      %e = tensor.empty() : tensor<2x3xf32>
      %t = {op}
      return %t : tensor<2x3xf32>
    }}"""
    with pytest.raises(stride.CompileError,
                       match="expected a list of integers after 'permutation ='"):
        stride.compile(ir, "f")(np.ones((3, 2), np.float32))
    with pytest.raises(ValueError, match="expected a list of integers"):
        stride.explain(stride.compile(ir, "f"), np.ones((3, 2), np.float32))


def test_astype_to_an_unsupported_dtype():
    with pytest.raises(TypeError, match="astype target has unsupported dtype"):
        stride.lazy(np.ones(3, np.float32)).astype(np.complex64)


def test_cache_size_from_the_environment_is_checked():
    import subprocess
    import sys
    env = dict(os.environ, STRIDE_CACHE_SIZE="many")
    proc = subprocess.run([sys.executable, "-c", "import stride"], env=env,
                          capture_output=True, text=True)
    assert proc.returncode != 0
    assert "STRIDE_CACHE_SIZE must be an int >= 0, got 'many'" in proc.stderr


def test_unknown_attribute():
    with pytest.raises(AttributeError, match="module 'stride' has no attribute 'nope'"):
        stride.nope


def test_compile_arguments_must_be_strings():
    with pytest.raises(TypeError, match="stride.compile expects the IR text"):
        stride.compile(42, "f")


SCALAR_IR = """func.func @f(%s: f32, %a: tensor<3xf32>) -> tensor<*xf32> {
  %0 = stride.mul %s, %a : f32, tensor<3xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}"""


def test_compile_argument_kinds_must_match():
    f = stride.compile(SCALAR_IR, "f")
    with pytest.raises(stride.CompileError, match="argument #0 is a scalar but an array was given"):
        f(np.ones(3, np.float32), np.ones(3, np.float32))
    with pytest.raises(stride.CompileError, match="argument #1 is a tensor but a scalar was given"):
        f(2.0, 3.0)


def test_compile_unranked_argument():
    ir = """func.func @f(%a: tensor<*xf32>) -> tensor<*xf32> {
      %0 = stride.neg %a : tensor<*xf32> -> tensor<*xf32>
      return %0 : tensor<*xf32>
    }"""
    with pytest.raises(stride.CompileError, match="argument #0 is unranked"):
        stride.compile(ir, "f")(np.ones(3, np.float32))


def test_compile_lowering_failure_is_a_compile_error():
    # A destination with stride 0 would write one element several times.
    ir = """func.func @f(%x: tensor<4xf32>) -> tensor<4xf32, #stride.layout<strides = [0]>> {
      %d = tensor.empty() : tensor<4xf32, #stride.layout<strides = [0]>>
      %0 = stride.broadcast ins(%x : tensor<4xf32>) outs(%d : tensor<4xf32, #stride.layout<strides = [0]>>) -> tensor<4xf32, #stride.layout<strides = [0]>> {
      ^bb0(%a: f32):
        stride.yield %a : f32
      }
      return %0 : tensor<4xf32, #stride.layout<strides = [0]>>
    }"""
    with pytest.raises(stride.CompileError, match="cannot compile @f: lowering to linalg failed"):
        stride.compile(ir, "f")(np.ones(4, np.float32))


def test_scalar_argument_of_the_wrong_kind():
    ir = """func.func @f(%s: i32, %a: tensor<3xi32>) -> tensor<*xi32> {
      %0 = stride.add %s, %a : i32, tensor<3xi32> -> tensor<*xi32>
      return %0 : tensor<*xi32>
    }"""
    with pytest.raises(TypeError, match="must be a scalar convertible to i32"):
        stride.compile(ir, "f")(2.5, np.ones(3, np.int32))


def test_matmul_of_a_0d_rhs():
    with pytest.raises(ValueError, match="operand 1 is a scalar; matmul needs at least one dimension per operand"):
        stride.matmul(np.ones(3, np.float32), np.float32(2).reshape(()))
