"""NumPy's elementwise op set: every function and operator, for every dtype
Stride supports, gives NumPy 1.24's result dtype and values, or the same
kind of error where NumPy refuses or would give a dtype Stride lacks."""
import operator

import numpy as np
import pytest

import stride

DTYPES = [np.float32, np.float64, np.int32, np.int64, np.bool_, np.int8, np.int16]
SUPPORTED = {np.dtype(d) for d in DTYPES}


def values(dtype, which):
    """Arrays with the awkward cases: zeros, negatives, the extremes of the
    integer range, shift amounts past the width, NaN and infinities."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return np.array([True, False, True, False, True, True] * 2)[::-1 if which else 1]
    if dtype.kind == "i":
        info = np.iinfo(dtype)
        a = [-7, 7, -7, 7, 0, info.min, info.min, 5, 1, -1, 123456, info.max]
        b = [2, -2, 0, 3, 5, -1, 1, -3, 31, info.bits, 40, -1]
        # 123456 wraps in int8 and int16, as NumPy's cast does.
        return np.array(b if which else a, dtype=np.int64).astype(dtype)
    a = [-0.75, 0.5, -0.0, 0.0, 0.9, -0.3, np.nan, np.inf, -np.inf, 7.5, -7.5, 1e-9]
    b = [2.0, -2.0, 0.0, -0.0, 0.25, np.nan, 1.0, 3.0, np.inf, -2.0, 2.0, 0.7]
    return np.array(b if which else a, dtype=dtype)


UNARY = ["sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh",
         "arcsinh", "arccosh", "arctanh", "exp2", "expm1", "log2", "log10",
         "log1p", "floor", "ceil", "trunc", "rint", "sign", "square",
         "reciprocal", "isnan", "isinf", "isfinite", "logical_not",
         "bitwise_not", "invert"]
BINARY = ["arctan2", "hypot", "copysign", "remainder", "mod", "fmod", "floor_divide",
          "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift",
          "right_shift", "logical_and", "logical_or", "logical_xor"]
OPERATORS = {"%": operator.mod, "//": operator.floordiv, "&": operator.and_,
             "|": operator.or_, "^": operator.xor, "<<": operator.lshift,
             ">>": operator.rshift}


def check_like_numpy(make_stride, make_numpy):
    try:
        with np.errstate(all="ignore"):
            want = np.asarray(make_numpy())
    except TypeError:
        with pytest.raises(TypeError):
            make_stride()
        return
    if want.dtype not in SUPPORTED:
        with pytest.raises(TypeError, match=str(want.dtype)):
            make_stride()
        return
    got = stride.materialize(make_stride())
    assert got.dtype == want.dtype
    assert got.shape == want.shape
    if want.dtype.kind == "f":
        rtol = 1e-5 if want.dtype == np.float32 else 1e-12
        np.testing.assert_allclose(got, want, rtol=rtol, atol=0, equal_nan=True)
        # Signed zeros too (remainder, floor_divide, sign, copysign).
        zero = want == 0
        assert (np.signbit(got[zero]) == np.signbit(want[zero])).all()
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", UNARY)
def test_unary(name, dtype):
    a = values(dtype, 0)
    check_like_numpy(lambda: getattr(stride, name)(a),
                     lambda: getattr(np, name)(a))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", BINARY)
def test_binary(name, dtype):
    a, b = values(dtype, 0), values(dtype, 1)
    check_like_numpy(lambda: getattr(stride, name)(a, b),
                     lambda: getattr(np, name)(a, b))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", list(OPERATORS))
def test_operator(op, dtype):
    a, b = values(dtype, 0), values(dtype, 1)
    fn = OPERATORS[op]
    check_like_numpy(lambda: fn(stride.lazy(a), b), lambda: fn(a, b))
    check_like_numpy(lambda: fn(a, stride.lazy(b)), lambda: fn(a, b))


@pytest.mark.parametrize("dtype", DTYPES)
def test_invert_operator(dtype):
    a = values(dtype, 0)
    check_like_numpy(lambda: ~stride.lazy(a), lambda: ~a)


@pytest.mark.parametrize("ldtype,rdtype", [(np.int32, np.int64),
                                           (np.int32, np.float32),
                                           (np.bool_, np.int32),
                                           (np.float32, np.float64)])
@pytest.mark.parametrize("name", ["arctan2", "remainder", "fmod", "floor_divide",
                                  "bitwise_or", "left_shift", "logical_and"])
def test_mixed_dtypes(name, ldtype, rdtype):
    a, b = values(ldtype, 0), values(rdtype, 1)
    check_like_numpy(lambda: getattr(stride, name)(a, b),
                     lambda: getattr(np, name)(a, b))


@pytest.mark.parametrize("scalar", [3, -2, 2.5, True])
@pytest.mark.parametrize("op", ["%", "//", "&", "<<"])
def test_scalar_operands(op, scalar):
    a = values(np.int32, 0)
    fn = OPERATORS[op]
    check_like_numpy(lambda: fn(stride.lazy(a), scalar), lambda: fn(a, scalar))
    check_like_numpy(lambda: fn(scalar, stride.lazy(a)), lambda: fn(scalar, a))


@pytest.mark.parametrize("dtype", DTYPES)
def test_clip(dtype):
    a, b = values(dtype, 0), values(dtype, 1)
    low = a.dtype.type(0) if dtype != np.bool_ else False
    check_like_numpy(lambda: stride.clip(a, low, b),
                     lambda: np.clip(a, low, b))
    check_like_numpy(lambda: stride.clip(a, None, b),
                     lambda: np.clip(a, None, b))
    check_like_numpy(lambda: stride.clip(a, b, None),
                     lambda: np.clip(a, b, None))


def test_clip_needs_a_bound():
    with pytest.raises(ValueError, match="a_min and a_max"):
        stride.clip(np.zeros(3), None, None)


def test_fused_expression_with_broadcasting():
    """The new ops fuse with the old ones into one kernel over broadcast,
    strided operands."""
    x = np.linspace(-3, 3, 24).reshape(4, 6).T          # transposed
    y = np.linspace(0.5, 2, 4)
    i = np.arange(-12, 12, dtype=np.int64).reshape(6, 4)
    got = stride.materialize(stride.hypot(stride.sin(x), y) * (i % 5)
                             + stride.floor(x / 0.7) - ((i >> 1) & 3))
    want = np.hypot(np.sin(x), y) * (i % 5) + np.floor(x / 0.7) - ((i >> 1) & 3)
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_wrong_operand_count():
    with pytest.raises(TypeError, match="takes 2 operand"):
        stride.arctan2(np.zeros(3))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_clip_maximum_minimum_zero_ties_match_numpy(dtype):
    # Issue 24/25: np.clip on a lazy expression (minimum(maximum())) and
    # stride.clip differed on -0/+0 ties, and stride.maximum/minimum were
    # IEEE's (+0 wins) where NumPy gives the second operand on a tie.
    x = np.array([-0.0, 0.0, -0.0, 0.0, 1.0, np.nan, -3.0], dtype)
    y = np.array([0.0, -0.0, -0.0, 0.0, np.nan, 1.0, -3.0], dtype)
    lx = stride.lazy(x)
    for got, want in [
            (np.maximum(lx, y), np.maximum(x, y)),
            (np.minimum(lx, y), np.minimum(x, y)),
            (np.maximum(y, lx), np.maximum(y, x)),
            (np.minimum(y, lx), np.minimum(y, x))]:
        got = stride.materialize(got)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
        np.testing.assert_array_equal(got, want)
    for lo, hi in [(0.0, 1.0), (-0.0, 1.0), (-1.0, 0.0), (-1.0, -0.0)]:
        want = np.clip(x, dtype(lo), dtype(hi))
        for got in (np.clip(lx, dtype(lo), dtype(hi)),
                    stride.clip(lx, dtype(lo), dtype(hi))):
            got = stride.materialize(got)
            np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
            np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
def test_scalar_power_is_numpys_fast_power(dtype):
    """ndarray ** scalar is NumPy's fast_scalar_power: square, sqrt,
    reciprocal or the array itself for the exponents it special-cases (bit
    for bit: sqrt is not pow(x, 0.5) everywhere), power otherwise."""
    a = np.linspace(0.1, 7.3, 37).astype(dtype)
    for e in (2, 2.0, 0.5, -1, -1.0, 1, 0, 3, 1.5, np.float32(2), np.int64(2),
              np.array(2.0), True):
        if a.dtype.kind == "i" and float(e) < 0 and np.asarray(e).dtype.kind == "i":
            with pytest.raises(ValueError, match="negative integer powers"):
                a ** e
            with pytest.raises(ValueError, match="negative integer powers"):
                stride.lazy(a) ** e
            continue
        with np.errstate(all="ignore"):
            want = a ** e
            got = stride.materialize(stride.lazy(a) ** e)
        assert got.dtype == want.dtype, (dtype, e)
        if float(e) == 2 or (a.dtype.kind == "f" and float(e) in (0.5, -1, 1)):
            np.testing.assert_array_equal(got, want, err_msg=f"{dtype} ** {e!r}")
        else:  # pow: libmvec's vector pow is within a few ulp of libm's
            np.testing.assert_allclose(got, want, rtol=4e-7 if dtype ==
                                       "float32" else 1e-15, err_msg=f"{e!r}")


def test_bool_power_shifts_and_floor_divide_give_numpys_int8():
    b = np.array([True, False, True])
    c = np.array([True, True, False])
    with np.errstate(all="ignore"):
        for f in (lambda x, y: x ** 2, lambda x, y: x ** y,
                  lambda x, y: x << y, lambda x, y: x // y,
                  lambda x, y: np.square(x), lambda x, y: x % y):
            want = f(b, c)
            assert want.dtype == np.int8
            got = stride.materialize(f(stride.lazy(b), stride.lazy(c)))
            assert got.dtype == np.int8
            np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("threads", [1, 2])
def test_integer_division_through_float64_is_exact(threads):
    """int64 and int32 floor division, remainder, fmod and divmod by an
    array or a scalar divide through float64 in vector lanes (one division
    below 2^53; beyond, a float64 estimate and two integer corrections):
    against NumPy at the edges, |x| near
    and past 2^53, the extremes, divisors 0, -1, 1, large and negative, in
    long arrays so that the loops vectorize."""
    rng = np.random.default_rng(31)
    n = 4099
    fns = (lambda a, b: a // b, lambda a, b: a % b, np.fmod,
           lambda a, b: np.divmod(a, b), lambda a, b: a // 7 + a % 10,
           lambda a, b: (a * 3 + b) % 1000003)
    for dtype in (np.int64, np.int32):
        info = np.iinfo(dtype)
        edges = np.array([0, 1, -1, 2, -2, 7, -7, info.max, info.min,
                          info.max - 1, info.min + 1], dtype=dtype)
        if dtype == np.int64:
            edges = np.concatenate([edges, np.array(
                [2**53 - 1, 2**53, 2**53 + 1, -2**53 + 1, -2**53, -2**53 - 1,
                 3 * 2**52 + 5, 2**62 + 3, -2**62 - 3], dtype=dtype)])
        cases = []
        a = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
        b = rng.integers(-1000, 1000, n, dtype=dtype)
        cases.append((a, b))
        cases.append((rng.integers(-10**6, 10**6, n).astype(dtype), b))
        big = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
        cases.append((a, big))
        grid_a = np.repeat(edges, len(edges))
        grid_b = np.tile(edges, len(edges))
        reps = n // len(grid_a) + 1
        cases.append((np.tile(grid_a, reps)[:n], np.tile(grid_b, reps)[:n]))
        for x, y in cases:
            for fn in fns:
                with np.errstate(divide="ignore", over="ignore"):
                    want = fn(x, y)
                    got = stride.jit(fn, threads=threads)(x, y)
                for g, w in zip(got if isinstance(got, tuple) else (got,),
                                want if isinstance(want, tuple) else (want,)):
                    assert g.dtype == w.dtype
                    np.testing.assert_array_equal(g, w)
        for k in (7, -3, 1, -1, 2**40 + 1, 46341, 2**20 + 1, 2**30, -2**31):
            if dtype == np.int32 and abs(k) > info.max:
                continue
            x = cases[0][0]
            with np.errstate(divide="ignore", over="ignore"):
                for fn in (lambda a: a // k, lambda a: a % k):
                    np.testing.assert_array_equal(
                        stride.jit(fn, threads=threads)(x), fn(x))


def test_narrow_integer_floor_division_through_float32_is_exact():
    """int8 and int16 floor division and remainder take the floor of a
    float32 product, np.fmod its truncation: every int8 pair, and every
    int16 dividend against small, large and extreme divisors (arrays and
    trace constants)."""
    f = stride.jit(lambda a, b: (a // b, a % b, np.fmod(a, b)))
    v8 = np.arange(-128, 128, dtype=np.int8)
    v16 = np.arange(-32768, 32768, dtype=np.int16)
    divisors = [*range(-40, 41), 181, 255, 256, 4097, 32767, -32768, -32767]
    cases = [(np.repeat(v8, 256), np.tile(v8, 256))]
    cases += [(v16, np.full(v16.size, y, np.int16)) for y in divisors]
    for x, y in cases:
        with np.errstate(divide="ignore", over="ignore"):
            got, want = f(x, y), (x // y, x % y, np.fmod(x, y))
        for g, w in zip(got, want):
            assert g.dtype == w.dtype
            np.testing.assert_array_equal(g, w)
    for k in (7, -7, 255, -32768):
        g = stride.jit(lambda a: (a // k, a % k))
        with np.errstate(over="ignore"):
            got = g(v16)
        np.testing.assert_array_equal(got[0], v16 // k)
        np.testing.assert_array_equal(got[1], v16 % k)


def test_unsigned_division_in_float_lanes_is_exact():
    """Unsigned floor division and remainder: uint8 and uint16 through a
    float32 product, uint32 through float64, uint64 through float64 with
    integer corrections beyond 2^53 (divisors near 2^62, 2^63 and 2^64
    included): every uint8 pair, every uint16 dividend, random uint32 and
    uint64 against NumPy, arrays and trace constants; np.fmod, the same
    remainder, too."""
    rng = np.random.default_rng(41)
    f = stride.jit(lambda a, b: (a // b, a % b, np.fmod(a, b)))
    v8 = np.arange(256, dtype=np.uint8)
    v16 = np.arange(65536, dtype=np.uint16)
    cases = [(np.repeat(v8, 256), np.tile(v8, 256))]
    cases += [(v16, np.full(v16.size, y, np.uint16))
              for y in (*range(0, 40), 181, 4097, 32767, 32768, 65535)]
    top = 2**64 - 1
    special = np.array([1, 2, 3, 7, 2**32 - 1, 2**53 - 1, 2**53, 2**53 + 1,
                        2**62 - 1, 2**62, 2**63 - 1, 2**63, 2**63 + 1,
                        0x5555555555555555, 0x5555555555555556, top - 1,
                        top], dtype=np.uint64)
    n = 4099
    for dtype, spread in ((np.uint32, rng.integers(0, 32, n)),
                          (np.uint64, rng.integers(0, 64, n))):
        info = np.iinfo(dtype)
        a = rng.integers(0, info.max, n, dtype=dtype, endpoint=True)
        b = rng.integers(0, info.max, n, dtype=dtype, endpoint=True)
        cases.append((a, b >> spread.astype(dtype)))
        cases.append((a, b))
    grid_a = np.repeat(special, special.size)
    grid_b = np.tile(special, special.size)
    cases.append((np.tile(grid_a, 16), np.tile(grid_b, 16)))
    cases.append((rng.integers(0, top, n, dtype=np.uint64, endpoint=True),
                  rng.choice(special, n)))
    for x, y in cases:
        with np.errstate(divide="ignore"):
            got, want = f(x, y), (x // y, x % y, np.fmod(x, y))
        for g, w in zip(got, want):
            assert g.dtype == w.dtype
            np.testing.assert_array_equal(g, w)
    x = cases[-1][0]
    for k in (7, 2**63 + 1, top):
        g = stride.jit(lambda a: (a // np.uint64(k), a % np.uint64(k)))
        got = g(x)
        np.testing.assert_array_equal(got[0], x // np.uint64(k))
        np.testing.assert_array_equal(got[1], x % np.uint64(k))


def test_float_power_zero_is_ones_like():
    """NumPy 1.24's ndarray ** 0 of a float array is ones_like (number.c's
    fast_scalar_power): a 0-d float32 array stays float32 (the ufunc power
    would promote it with the int 0 to float64), and NaN ** 0 is 1."""
    for x in (np.asarray(2.5, np.float32), np.asarray(np.nan, np.float32),
              np.array([np.nan, -np.inf, 0.0], np.float32), np.asarray(3.0)):
        want = x ** 0
        for got in (stride.jit(lambda a: a ** 0)(x),
                    stride.materialize(stride.lazy(x) ** 0)):
            assert np.asarray(got).dtype == np.asarray(want).dtype
            np.testing.assert_array_equal(got, want)


def _constant_division_ir(k):
    """Floor division, remainder and np.fmod of a 1-d int64 array by the IR
    constant k (an arith.constant, as hand-written IR and AOT libraries
    hold it; @stride.jit passes a Python scalar as an argument, and
    arith.constant has no unsigned form)."""
    return f"""
func.func @f(%x: tensor<?xi64>) -> (tensor<*xi64>, tensor<*xi64>, tensor<*xi64>) {{
  %k = arith.constant {k} : i64
  %q = stride.floor_divide %x, %k : tensor<?xi64>, i64 -> tensor<*xi64>
  %r = stride.remainder %x, %k : tensor<?xi64>, i64 -> tensor<*xi64>
  %m = stride.fmod %x, %k : tensor<?xi64>, i64 -> tensor<*xi64>
  return %q, %r, %m : tensor<*xi64>, tensor<*xi64>, tensor<*xi64>
}}"""


@pytest.mark.parametrize("threads", [1, 2])
def test_int64_division_by_constant_magic_numbers(threads):
    """An int64 division by an IR constant that is not a power of two takes
    its magic number's multiply-high in 32-bit halves (the kernel
    optimizer's mulhu64): exact against NumPy for full-range dividends, the
    extremes and multiples of the divisor and their neighbours, for
    divisors of every magic shape (odd, even, negative, magic numbers of
    either sign, near 2^32, 2^62 and 2^63)."""
    rng = np.random.default_rng(53)
    info = np.iinfo(np.int64)
    edges = np.array([0, 1, 2, 3, 6, 7, -1, -2, -7, info.max, info.max - 1,
                      info.min, info.min + 1, 2**32, 2**32 - 1, -2**32,
                      2**53 + 1, -2**53 - 1], dtype=np.int64)
    full = rng.integers(info.min, info.max, 4099, dtype=np.int64, endpoint=True)
    for k in [3, 5, 6, 7, 10, 12, 641, 1000003, 6700417, -3, -7, -10, -641,
              2**32 + 1, 2**33 - 1, 3 * 2**40, -(3 * 2**40), 2**62 + 3,
              -(2**62 + 3), 2**63 - 1, -(2**63) + 1]:
        near = np.arange(-40, 40, dtype=np.int64)
        multiples = near * k if abs(k) < 2**56 else near
        x = np.concatenate([full, edges, multiples, multiples + 1, multiples - 1])
        f = stride.compile(_constant_division_ir(k), "f")
        stride.set_threads(threads)
        try:
            got = f(x)
        finally:
            stride.set_threads(None)
        with np.errstate(over="ignore"):
            want = (x // k, x % k, np.fmod(x, k))
        for g, w in zip(got, want):
            assert g.dtype == w.dtype
            np.testing.assert_array_equal(g, w, err_msg=f"int64 // {k}")


@pytest.mark.parametrize("threads", [1, 2])
def test_int64_division_by_a_scalar_argument(threads):
    """An int64 division by a scalar a @stride.jit call passes (fixed for
    the loop, known only at run time) is branch-free: a magic number
    computed once per call (stride_vm_sdiv_magic_i64) and a multiply-high
    in 32-bit halves. Exact against NumPy for every divisor shape: powers
    of two of either sign, 1, -1, 0, INT64_MIN, odd, even and near the
    extremes; dividends over the full range, the extremes and around
    multiples of the divisor."""
    rng = np.random.default_rng(59)
    info = np.iinfo(np.int64)
    edges = np.array([0, 1, 2, 3, 7, -1, -2, -7, info.max, info.max - 1,
                      info.min, info.min + 1, 2**32, 2**32 - 1, -2**32,
                      2**53 + 1, -2**53 - 1], dtype=np.int64)
    full = rng.integers(info.min, info.max, 4099, dtype=np.int64, endpoint=True)
    f = stride.jit(lambda a, k: (a // k, a % k, np.fmod(a, k), np.divmod(a, k)[0]),
                   threads=threads)
    for k in [1, -1, 2, -2, 8, -8, 2**40, -2**40, 2**62, -2**62, info.min, 0,
              3, 5, 6, 7, 10, 12, 641, 1000003, 6700417, -3, -7, -10, -641,
              2**32 - 1, 2**32 + 1, 2**33 - 1, 3 * 2**40, -(3 * 2**40),
              2**62 + 3, -(2**62 + 3), info.max, info.max - 1, info.min + 1]:
        near = np.arange(-40, 40, dtype=np.int64)
        multiples = near * k if 0 < abs(k) < 2**56 else near
        x = np.concatenate([full, edges, multiples, multiples + 1, multiples - 1])
        with np.errstate(divide="ignore", over="ignore"):
            got = f(x, k)
            want = (x // k, x % k, np.fmod(x, k), np.divmod(x, k)[0])
        for g, w in zip(got, want):
            assert g.dtype == w.dtype
            np.testing.assert_array_equal(g, w, err_msg=f"int64 by {k}")


@pytest.mark.parametrize("threads", [1, 2])
def test_uint64_division_by_a_scalar_argument(threads):
    """uint64 division by a scalar argument: libdivide's branch-free
    unsigned scheme (stride_vm_udiv_magic_u64 once per call, the high
    product, a halving add and a shift; 1 selected around). Exact against
    NumPy for powers of two, 0, 1, divisors with a 65-bit magic number and
    beyond 2^63; dividends over the full range and the extremes."""
    rng = np.random.default_rng(61)
    top = 2**64 - 1
    edges = np.array([0, 1, 2, 3, 7, 2**32 - 1, 2**32, 2**53 + 1, 2**63 - 1,
                      2**63, 2**63 + 1, top - 1, top], dtype=np.uint64)
    full = rng.integers(0, top, 4099, dtype=np.uint64, endpoint=True)
    f = stride.jit(lambda a, k: (a // k, a % k, np.fmod(a, k)), threads=threads)
    for k in [1, 2, 8, 2**40, 2**63, 0, 3, 5, 6, 7, 10, 641, 1000003,
              2**32 - 1, 2**32 + 1, 3 * 2**40, 0x5555555555555555,
              2**63 - 1, 2**63 + 1, top - 1, top]:
        k = np.uint64(k)
        near = np.arange(1, 60, dtype=np.uint64)
        multiples = near * k if 0 < k < 2**56 else near
        x = np.concatenate([full, edges, multiples, multiples + np.uint64(1),
                            multiples - np.uint64(1)])
        with np.errstate(divide="ignore", over="ignore"):
            got = f(x, k)
            want = (x // k, x % k, np.fmod(x, k))
        for g, w in zip(got, want):
            assert g.dtype == w.dtype
            np.testing.assert_array_equal(g, w, err_msg=f"uint64 by {k}")
