"""dtypes: NumPy 1.24's promotion (scalars by value), stride.cast where
operand dtypes differ, true division, float functions of integers."""
import itertools
import operator

import numpy as np
import pytest

import stride

DTYPES = [np.float32, np.float64, np.int32, np.int64, np.bool_, np.int8, np.int16]
SUPPORTED = {np.dtype(d) for d in DTYPES}


def values(dtype, shape=(2, 3)):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return (np.arange(6).reshape(shape) % 3 != 1)
    v = (np.arange(6).reshape(shape) % 4) + 1        # positive: pow and log stay defined
    return v.astype(dtype) / (2 if dtype.kind == "f" else 1)


BINARY = {
    "add": (operator.add, operator.add), "sub": (operator.sub, operator.sub),
    "mul": (operator.mul, operator.mul), "div": (operator.truediv, operator.truediv),
    "pow": (operator.pow, operator.pow),  # ndarray.__pow__: a ** 2 is np.square
    "maximum": (stride.maximum, np.maximum), "minimum": (stride.minimum, np.minimum),
    "lt": (operator.lt, operator.lt), "ge": (operator.ge, operator.ge),
    "eq": (operator.eq, operator.eq), "ne": (operator.ne, operator.ne),
}


def check_like_numpy(make_stride, make_numpy):
    """stride gives NumPy's dtype and values, or a TypeError where NumPy
    raises one or gives a dtype Stride does not support."""
    try:
        with np.errstate(all="ignore"):
            want = np.asarray(make_numpy())
    except (TypeError, ValueError) as e:
        with pytest.raises(type(e)):
            stride.materialize(make_stride())
        return
    if want.dtype not in SUPPORTED:
        with pytest.raises(TypeError, match=str(want.dtype)):
            stride.materialize(make_stride())
        return
    got = stride.materialize(make_stride())
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-6)


@pytest.mark.parametrize("op", sorted(BINARY))
def test_binary_array_dtypes(op):
    sop, nop = BINARY[op]
    for da, db in itertools.product(DTYPES, DTYPES):
        a, b = values(da), values(db)[0]
        check_like_numpy(lambda: sop(stride.lazy(a), b), lambda: nop(a, b))


SCALARS = [True, 2, -3, 2.5, 2 ** 40, np.float32(1.5), np.float64(0.25), np.int32(3), np.int64(2)]


@pytest.mark.parametrize("op", sorted(BINARY))
def test_binary_with_scalars_both_sides(op):
    sop, nop = BINARY[op]
    for dtype, s in itertools.product(DTYPES, SCALARS):
        if op == "pow" and isinstance(s, int) and s > 100:
            continue  # 2**(2**40) overflows differently, not a dtype question
        a = values(dtype)
        check_like_numpy(lambda: sop(stride.lazy(a), s), lambda: nop(a, s))
        check_like_numpy(lambda: sop(s, stride.lazy(a)), lambda: nop(s, a))


@pytest.mark.parametrize("name", ["exp", "log", "sqrt", "tanh", "abs", "negative"])
def test_unary_dtypes(name):
    nfn = {"abs": np.abs, "negative": np.negative}.get(name) or getattr(np, name)
    sfn = {"abs": stride.abs, "negative": operator.neg}.get(name) or getattr(stride, name)
    for dtype in DTYPES:
        a = values(dtype)
        check_like_numpy(lambda: sfn(stride.lazy(a)), lambda: nfn(a))


def test_sigmoid_of_integers_goes_through_float64():
    a = np.arange(-3, 3, dtype=np.int32)
    r = stride.materialize(stride.sigmoid(a))
    assert r.dtype == np.float64
    np.testing.assert_allclose(r, 1 / (1 + np.exp(-a.astype(np.float64))))


def test_integer_division_is_true_division():
    a = np.array([-7, -1, 0, 5, 7], np.int32)
    r = stride.materialize(stride.lazy(a) / 2)
    assert r.dtype == np.float64
    np.testing.assert_array_equal(r, a / 2)                  # not truncated
    r = stride.materialize(stride.lazy(a) / np.int64(4))
    np.testing.assert_array_equal(r, a / np.int64(4))


def test_where_dtypes_and_truthiness():
    c = np.array([0, 2, -1, 0], np.int32)                    # nonzero is true
    x = np.arange(4, dtype=np.float32)
    y = np.arange(4, dtype=np.int64)
    for cond, a, b in [(c, x, y), (c > 0, x, 0.5), (c, 1, y), (np.float64(0.5) * c, x, x)]:
        check_like_numpy(lambda: stride.where(cond, a, b), lambda: np.where(cond, a, b))


def test_bool_arithmetic_like_numpy():
    a = np.array([True, True, False, False])
    b = np.array([True, False, True, False])
    la = stride.lazy(a)
    for got, want in [(la + b, a + b), (la * b, a * b), (stride.maximum(la, b), np.maximum(a, b)),
                      (stride.minimum(la, b), np.minimum(a, b)), (abs(la), np.abs(a)),
                      (la < b, a < b), (la >= b, a >= b)]:
        r = stride.materialize(got)
        assert r.dtype == np.bool_
        np.testing.assert_array_equal(r, want)


def test_astype():
    a = np.array([-1.7, -0.2, 0.0, 2.9])
    for dtype in DTYPES:
        r = stride.materialize(stride.lazy(a).astype(dtype))
        assert r.dtype == dtype
        np.testing.assert_array_equal(r, a.astype(dtype))


def test_value_based_scalar_dtype_makes_its_own_kernel():
    a = np.arange(3, dtype=np.int32)
    assert stride.materialize(stride.lazy(a) + 2).dtype == np.int32
    big = stride.materialize(stride.lazy(a) + 2 ** 40)
    assert big.dtype == np.int64 and big[1] == 2 ** 40 + 1
    assert stride.materialize(stride.lazy(a.astype(np.float32)) * 1e300).dtype == np.float64


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128, np.float16, np.longdouble,
                                   ">u2", ">i2", ">u8", object, "U3", "S2",
                                   "datetime64[s]", np.dtype(">f4")])
def test_unsupported_dtypes_raise_type_error(dtype):
    a = np.zeros(3, dtype=dtype)
    with pytest.raises(TypeError, match="dtype"):
        stride.lazy(a)
    with pytest.raises(TypeError, match="dtype"):
        stride.lazy(np.zeros(3, np.float32)) + a
    with pytest.raises(TypeError, match="dtype"):
        stride.materialize(a)


def test_unsupported_scalars():
    x = stride.lazy(np.zeros(3, np.int64))
    with pytest.raises(TypeError, match="object"):
        stride.materialize(x + 2 ** 70)                       # NumPy: object dtype
    with pytest.raises(TypeError, match="float16"):
        x + np.float16(1)
    with pytest.raises(TypeError):
        x + 1j


def test_mixed_dtype_loops_are_numpys_own():
    """Found: arctan2, hypot and copysign of int8 and uint16 arrays gave
    float64 (the loop of their promotion, int32) where NumPy runs the
    float32 loop, which takes both safely; int8 with uint8 is NumPy's
    float16 loop, refused by name. Every pair of dtypes, arrays and 0-d,
    against NumPy's result dtype."""
    dtypes = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8,
              np.uint16, np.uint32, np.uint64, np.float32, np.float64]
    for f in (np.arctan2, np.hypot, np.copysign, np.add, np.true_divide,
              np.power, np.fmod, np.logaddexp):
        jitted = stride.jit(lambda x, y: f(x, y))
        for d1, d2 in itertools.product(dtypes, dtypes):
            for shape in ((2,), ()):
                a, b = np.ones(shape, d1), np.ones(shape, d2)
                try:
                    want = f(a, b).dtype
                except TypeError:
                    continue
                if want == np.float16:
                    with pytest.raises(TypeError, match="float16"):
                        jitted(a, b)
                    continue
                assert np.asarray(jitted(a, b)).dtype == want, (f, d1, d2)


def test_zero_d_results_numpy_gives_as_arrays():
    """np.where and astype of a 0-d array give 0-d arrays in NumPy (a
    ufunc or a reduction of one gives a scalar); argmax of bools is
    NumPy's first True (it did not compile: policy torch's refusal)."""
    for dtype in (np.bool_, np.int8, np.uint32, np.float32, np.float64):
        x = np.array(1, dtype)
        fns = [lambda x: np.where(x > 0, x, 0), lambda x: x.astype(np.float32),
               lambda x: x.sum().astype(np.int64), lambda x: np.exp(x * 1.0),
               lambda x: x.argmax(), lambda x: np.argmin(x)]
        for fn in fns:
            want, got = fn(x), stride.jit(fn)(x)
            assert type(got) is type(want) and got.dtype == want.dtype
            assert got == want
    for b in (np.array([False, True, True]), np.zeros(4, bool),
              np.eye(3, dtype=bool)[::-1]):
        for fn in (lambda b: b.argmax(), lambda b: np.argmin(b, axis=0)):
            np.testing.assert_array_equal(stride.jit(fn)(b), fn(b))


def test_loops_numpy_finds_for_an_array_and_a_scalar():
    """Found: ufuncs that search their loops casting the scalar by value
    (floor_divide, remainder, fmod, power, shifts, bitwise ops, arctan2,
    hypot, copysign, fmax, logaddexp) gave the dtype of promotion: uint8 //
    1000 was uint16 where NumPy runs the int16 loop, arctan2 of uint16 and
    -3 float64 where NumPy gives float32, fmax of float32 and 70000 float32
    where NumPy gives float64. np.power of integers by a negative scalar
    (np.power(a, -3), np.int8(-3)) gave numbers where NumPy raises."""
    dtypes = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8,
              np.uint16, np.uint32, np.uint64, np.float32, np.float64]
    scalars = [-1, 1000, 2**31, 1.5, np.float32(2.5), np.int8(-3),
               np.array(-3)]
    for f in (np.floor_divide, np.fmod, np.arctan2, np.left_shift, np.power,
              np.minimum, np.fmax, np.logaddexp):
        for d, s in itertools.product(dtypes, scalars):
            a = np.array([1, 2, 3]).astype(d)
            for fn in (lambda a, s: f(a, s), lambda a, s: f(s, a)):
                with np.errstate(all="ignore"):
                    try:
                        want = fn(a, s).dtype
                    except (TypeError, ValueError) as e:
                        with pytest.raises(type(e)):
                            stride.jit(fn)(a, s)
                        continue
                    if want == np.float16:
                        with pytest.raises(TypeError, match="float16"):
                            stride.jit(fn)(a, s)
                        continue
                    assert stride.jit(fn)(a, s).dtype == want, (f, d, s)
