"""Errors are Python exceptions raised where the expression is built, with
NumPy's wording where NumPy has one; nothing reaches a kernel that could
crash the interpreter."""
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


def test_numpy_ufuncs_refuse_expressions():
    with pytest.raises(TypeError):
        np.exp(stride.lazy(np.ones(3)))           # use stride.exp


def test_bool_operations_numpy_refuses():
    b = stride.lazy(np.array([True, False]))
    with pytest.raises(TypeError, match="boolean subtract"):
        b - b
    with pytest.raises(TypeError, match="boolean negative"):
        -b
    with pytest.raises(TypeError, match="float16"):
        stride.exp(b)
    with pytest.raises(TypeError, match="int8"):
        b ** b


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
