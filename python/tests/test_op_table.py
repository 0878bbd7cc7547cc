"""The op table: Python's elementwise ops come from the dialect's TableGen
(through _stride.elementwise_ops), its shape rules from lib/Layout and its
policies from the policy enum. stride.fabs and stride.cbrt are defined only
in StrideOps.td: these tests show that such an op reaches NumPy's ufunc
protocol, @stride.jit and stride.<name> with no Python of its own."""
import os
import re

import numpy as np
import pytest

import stride
from stride import _stride, _table

PACKAGE = os.path.dirname(stride.__file__)
TABLEGEN_ONLY = ("fabs", "cbrt")


def package_sources():
    for name in sorted(os.listdir(PACKAGE)):
        if name.endswith(".py"):
            with open(os.path.join(PACKAGE, name)) as f:
                yield name, f.read()


def test_tablegen_only_ops_are_not_named_in_python():
    for name, text in package_sources():
        for op in TABLEGEN_ONLY:
            assert not re.search(rf"\b{op}\b", text), (name, op)


def test_table_rows_come_from_the_dialect():
    rows = {r["mnemonic"]: r for r in _stride.elementwise_ops()}
    for op in TABLEGEN_ONLY:
        assert rows[op]["ufunc"] == op and rows[op]["arity"] == 1
        assert rows[op]["element_types"] == ["f32", "f64"]
    assert rows["sigmoid"]["ufunc"] == "" and rows["sigmoid"]["dtype_ufunc"] == "exp"
    assert rows["isnan"]["result"] == "i1"
    assert rows["cast"]["result"] == "custom"
    assert set(rows["logical_and"]["element_types"]) == {"i1"}


@pytest.mark.parametrize("op", TABLEGEN_ONLY)
def test_tablegen_only_op_as_ufunc_and_function(op):
    ufunc = getattr(np, op)
    x = np.linspace(-3, 3, 24, dtype=np.float32).reshape(4, 6).T
    got = stride.materialize(ufunc(stride.lazy(x)))
    np.testing.assert_allclose(got, ufunc(x), rtol=1e-6)
    assert got.dtype == np.float32
    got = stride.materialize(getattr(stride, op)(stride.lazy(x) * 2))
    np.testing.assert_allclose(got, ufunc(x * 2), rtol=1e-6)


@pytest.mark.parametrize("op", TABLEGEN_ONLY)
def test_tablegen_only_op_under_jit(op):
    ufunc = getattr(np, op)

    @stride.jit
    def f(a, b):
        return ufunc(a) * b + 1

    a = np.arange(-6, 6, dtype=np.int32).reshape(3, 4)  # NumPy: float64
    b = np.float64(0.5)
    want = ufunc(a) * b + 1
    for _ in range(2):
        got = f(a, b)
    assert got.dtype == want.dtype == np.float64
    np.testing.assert_allclose(got, want, rtol=1e-14)  # a fused multiply-add


DTYPES = [np.dtype(t) for t in ("bool", "int8", "int16", "int32", "int64",
                                 "float32", "float64")]


@pytest.mark.parametrize("name", sorted(_table.UFUNC_OPS))
def test_every_table_ufunc_gives_numpys_dtype_or_refuses(name):
    """For each ufunc of the table and each dtype: Stride's result dtype is
    NumPy's, or both refuse (NumPy raises, or gives a dtype Stride lacks)."""
    ufunc = getattr(np, name)
    for dtype in DTYPES:
        arrays = [np.ones((2, 3), dtype) for _ in range(ufunc.nin)]
        try:
            with np.errstate(all="ignore"):
                want = ufunc(*arrays).dtype
        except TypeError:
            want = None
        if want is not None and want not in _table.OPS["add"].accepts | {np.dtype("bool")}:
            want = None  # a dtype Stride does not have: refused
        if want is None:
            with pytest.raises(TypeError):
                ufunc(*[stride.lazy(a) for a in arrays])
        else:
            expr = ufunc(*[stride.lazy(a) for a in arrays])
            assert expr.dtype == want, (name, dtype)


def test_shape_rules_come_from_the_layout_library():
    assert _stride.broadcast_shapes((3, 1), (4,)) == (3, 4)
    assert _stride.broadcast_shapes() == ()
    with pytest.raises(ValueError, match=r"^operands could not be broadcast "
                       r"together with shapes \(2,3\) \(4,\)$"):
        _stride.broadcast_shapes((2, 3), (4,))
    assert _stride.matmul_shape((5, 2, 3), (3,)) == (5, 2)
    with pytest.raises(ValueError, match="matmul: .*lhs is 0-d"):
        _stride.matmul_shape((), (3,))
    with pytest.raises(ValueError, match=r"matmul: .*lhs dim 1 has size 3, rhs dim 0 has size 4"):
        _stride.matmul_shape((2, 3), (4, 5))


def test_policies_come_from_the_enum():
    assert _table.POLICIES == ("torch", "numpy", "contiguous")
    with pytest.raises(ValueError, match="unknown policy 'fortran'"):
        stride.materialize(stride.lazy(np.ones(3)) + 1, policy="fortran")


def test_threads_follow_the_drivers_rule(monkeypatch):
    stride.set_threads(None)
    monkeypatch.setenv("STRIDE_NUM_THREADS", "3")
    assert stride.get_threads() == 3
    monkeypatch.setenv("STRIDE_NUM_THREADS", "three")
    with pytest.raises(ValueError, match="STRIDE_NUM_THREADS"):
        stride.get_threads()
    monkeypatch.delenv("STRIDE_NUM_THREADS")
    assert stride.get_threads() == (os.cpu_count() or 1)
