"""Accuracy of the vectorized math functions (Stride's own vector variants,
lib/Pipelines/VectorMath, and glibc's libmvec for the rest, through LLVM's
vector library mapping) against a higher-precision reference, next to
NumPy's own error on the same inputs (issue 28): float32 against float64 rounded to
float32, float64 against long double (x87, 64-bit mantissa) rounded to
float64. The error is in units of the last place of the larger of the two
values compared. Inputs: 20,000 values spread over each function's domain
on a log scale, plus zeros of both signs, infinities, NaN, a subnormal and
small integers; NaN and infinities must come out where NumPy's do.

Stride's error must not exceed NumPy's, except by the margins listed in
EXCESS (measured; libmvec's variants of these are less accurate than the
scalar or SIMD code NumPy 1.24 runs; more of them on AVX-512 hosts). A
regression past them fails."""
import numpy as np
import pytest

import stride

FUNCTIONS = ["arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2",
             "arctanh", "cbrt", "cos", "cosh", "exp", "exp2", "expm1", "hypot",
             "log", "log10", "log1p", "log2", "power", "sin", "sinh", "tan",
             "tanh"]

# ULPs by which Stride's maximum error may exceed NumPy's (measured). hypot
# is evaluated as sqrt(x*x + y*y) in the element type, which NumPy's libm
# hypot rounds better; every function of Stride's own vector math
# (lib/Pipelines/VectorMath) is within NumPy's error, with no excess.
EXCESS = {("hypot", "float32"): 2, ("hypot", "float64"): 1}


DOMAIN = {"arccos": (-1, 1), "arcsin": (-1, 1), "arctanh": (-1, 1),
          "arccosh": (1, 1e6), "log": (0, 1e30), "log10": (0, 1e30),
          "log2": (0, 1e30), "log1p": (-1, 1e30), "exp": (-80, 80),
          "exp2": (-120, 120), "expm1": (-80, 80), "sinh": (-80, 80),
          "cosh": (-80, 80), "tan": (-1e4, 1e4), "sin": (-1e4, 1e4),
          "cos": (-1e4, 1e4)}


def draw(name, dtype, rng, n=20000):
    lo, hi = DOMAIN.get(name, (-1e6, 1e6))
    if lo >= 0 or hi <= 1:
        x = rng.uniform(lo, hi, n)
    else:
        magnitude = 10 ** rng.uniform(-8, np.log10(max(-lo, hi)), n)
        x = np.clip(magnitude * np.where(rng.random(n) < 0.5, -1, 1), lo, hi)
    tiny = 1e-40 if dtype == np.float32 else 1e-310
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, tiny, 1.0, -1.0, 0.5, 2.0]
    return np.concatenate([x, special]).astype(dtype)


def max_ulps(got, ref, dtype):
    both = np.isfinite(ref) & np.isfinite(got)
    if not both.any():
        return 0.0
    g, r = got[both].astype(np.float64), ref[both].astype(np.float64)
    ulp = np.spacing(np.maximum(np.abs(g), np.abs(r)).astype(dtype)).astype(np.float64)
    ulp = np.where(ulp == 0, np.finfo(dtype).smallest_subnormal, ulp)
    return float(np.max(np.abs(g - r) / ulp))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", FUNCTIONS)
def test_within_numpys_error(name, dtype):
    dtype = np.dtype(dtype).type
    ufunc = getattr(np, name)
    rng = np.random.default_rng(FUNCTIONS.index(name))
    x = draw(name, dtype, rng)
    if name == "power":
        args = [np.abs(x), rng.uniform(-4, 4, x.size).astype(dtype)]
    elif ufunc.nin == 2:
        args = [x, np.abs(draw(name, dtype, rng))[::-1].copy()]
    else:
        args = [x]
    wide = np.longdouble if dtype == np.float64 else np.float64
    if dtype == np.float64 and np.finfo(np.longdouble).nmant < 63:
        pytest.skip("no extended long double on this platform: no float64 reference")
    with np.errstate(all="ignore"):
        got = stride.materialize(ufunc(*(stride.lazy(a) for a in args)))
        numpy = ufunc(*args)
        ref = ufunc(*(a.astype(wide) for a in args)).astype(dtype)
    assert got.dtype == numpy.dtype
    np.testing.assert_array_equal(np.isnan(got), np.isnan(numpy))
    np.testing.assert_array_equal(np.isposinf(got), np.isposinf(numpy))
    np.testing.assert_array_equal(np.isneginf(got), np.isneginf(numpy))
    ours, theirs = max_ulps(got, ref, dtype), max_ulps(numpy, ref, dtype)
    allowed = theirs + EXCESS.get((name, np.dtype(dtype).name), 0)
    assert ours <= allowed, (f"{name} {np.dtype(dtype).name}: {ours} ulp, NumPy "
                             f"{theirs} ulp, allowed {allowed}")


# Where float64 exp's reduction and scaling change regime: the overflow and
# underflow thresholds, the subnormal results, k = +-1022..1024 (both powers
# of two of the scaling at their limits), halfway points of the rounding
# of x / ln 2, tiny arguments and the special values.
EXP_EDGES = [709.782712893384, 709.7827128933841, 709.79, 710.0, 1e300,
             -708.3964185322641, -708.4, -709.0, -744.44, -745.1332191019411,
             -745.1332191019412, -745.14, -746.0, -1e300, 0.5 * np.log(2),
             -0.5 * np.log(2), 1.5 * np.log(2), 1e-310, -1e-310, 5e-324,
             1e-17, -1e-17, 0.0, -0.0, 1.0, -1.0, 88.0, -88.0, np.inf,
             -np.inf, np.nan]


@pytest.mark.skipif(np.finfo(np.longdouble).nmant < 63,
                    reason="no extended long double: no float64 reference")
def test_exp_float64_edges():
    x = np.array(EXP_EDGES)
    with np.errstate(all="ignore"):
        got = stride.materialize(np.exp(stride.lazy(x)))
        ref = np.exp(x.astype(np.longdouble)).astype(np.float64)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(ref))
    np.testing.assert_array_equal(np.isinf(got), np.isinf(ref))
    np.testing.assert_array_equal(got == 0, ref == 0)
    assert max_ulps(got, ref, np.float64) <= 1, list(zip(x, got, ref))


def test_exp_float64_scalars_and_fused():
    """0-d arguments and an exp fused between other ops (the expansion is
    inlined into each kernel) agree with NumPy within its error."""
    for value in [0.0, -3.5, 700.0, -740.0, np.nan]:
        x = np.array(value)
        with np.errstate(all="ignore"):
            got = stride.materialize(np.exp(stride.lazy(x)))
            want = np.exp(x)
        assert got.shape == () and got.dtype == np.float64
        np.testing.assert_allclose(got, want, rtol=4.5e-16, atol=0)
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=(37, 19)), rng.normal(size=19) * 20
    got = stride.materialize(stride.lazy(a) * np.exp(stride.lazy(b) - 1.0) + 2.0)
    np.testing.assert_allclose(got, a * np.exp(b - 1.0) + 2.0, rtol=1e-15)


# Where Stride's own vector variants (lib/Pipelines/VectorMath, inlined into
# vectorized loops) change regime: sin and cos reduce by pi in three parts
# below 2^30 and hand larger, infinite and NaN lanes to libm one lane at a
# time; zeros keep their sign; arguments next to multiples of pi / 2 cancel
# the most.
TRIG_EDGES = [0.0, -0.0, 5e-324, -1e-310, 1e-200, 1e-8, -1e-8, np.pi / 2,
              -np.pi / 2, np.pi, 2 * np.pi, 3 * np.pi / 2, 355.0, 103993.0,
              2.0**30 - 1, 2.0**30, -(2.0**30) - 1, 2.0**31, 1e15, -1e22,
              1.7e308, 22.0, 1e6 * np.pi, np.inf, -np.inf, np.nan]


@pytest.mark.skipif(np.finfo(np.longdouble).nmant < 63,
                    reason="no extended long double: no float64 reference")
@pytest.mark.parametrize("name", ["sin", "cos"])
@pytest.mark.parametrize("length", [1, 7, 8, 33, 203])
def test_trig_float64_edges(name, length):
    """Each edge value in every lane position of a vector, among ordinary
    lanes (one huge lane sends its vector through the scalar fallback, the
    others must keep their values), at lengths that leave scalar tails."""
    ufunc = getattr(np, name)
    rng = np.random.default_rng(length)
    for start in range(0, len(TRIG_EDGES), 3):
        x = rng.uniform(-10, 10, length)
        edges = TRIG_EDGES[start:start + 3]
        x[rng.permutation(length)[:len(edges)]] = edges[:length]
        with np.errstate(all="ignore"):
            got = stride.materialize(ufunc(stride.lazy(x)))
            ref = ufunc(x.astype(np.longdouble)).astype(np.float64)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(ref))
        np.testing.assert_array_equal(np.signbit(got[got == 0]),
                                      np.signbit(ref[got == 0]))
        assert max_ulps(got, ref, np.float64) <= 2, list(zip(x, got, ref))


# Each function's special and boundary arguments: zeros of both signs,
# subnormals, infinities, NaN, the bounds where the vector variants hand
# lanes to libm or clamp (exp's overflow and underflow, tanh's saturation,
# trig's 2^30 reduction limit, float32 sin's 12288), and the points where
# they switch polynomials.
EDGES = {
    "exp": [709.78, 709.8, -708.39, -745.13, -745.2, 88.7, 88.8, -87.3,
            -103.9, -104.0, 1e-300, 0.5, -0.5],
    "exp2": [1023.9, 1024.0, -1022.0, -1074.0, -1075.0, 127.9, 128.0, -149.0,
             -150.0, 125.9, 126.0, -125.9, -126.0, -127.5],
    "expm1": [1e-300, -1e-300, 1e-17, -40.0, -41.0, 709.7, 709.8, 88.7, 0.3,
              -32.0, -31.9, 87.9, 88.0, 1e-40],
    "sinh": [710.4, 710.5, -710.5, 1e-300, 89.4, 89.5, 0.3, -0.3, 85.9, 86.0,
             1e-40],
    "cosh": [710.4, 710.5, -710.5, 89.4, 89.5, 0.3, 85.9, 86.0, 1e-40],
    "tanh": [19.0, 19.5, 20.0, -20.0, 9.0, 9.5, 0.55, -0.55, 1e-300, 1e-40],
    "log": [5e-324, 1e-310, 2.2250738585072014e-308, 0.7071067811865476,
            1.4142135623730951, 1.0, 1.0 + 2**-52, 1.0 - 2**-53, 1.7e308],
    "log2": [5e-324, 1e-310, 1e-40, 1.1754944e-38, 0.5, 1.0, 2.0, 1024.0,
             1.4142135623730951, 0.9999999, 1.0000001, 3e38],
    "log10": [5e-324, 1e-310, 1e-40, 1.1754944e-38, 0.1, 1.0, 10.0, 1000.0,
              0.9999999, 1.0000001, 3e38, 1e300],
    "log1p": [-1.0, -1.0 + 2**-53, -0.5, 1e-300, -1e-300, 1e-17, 0.41, 1e308],
    "sin": [2.0**30, 2.0**30 + 1, 12287.9, 12288.0, 3e38, np.pi, 1e-40],
    "cos": [2.0**30, 2.0**30 + 1, 12287.9, 12288.0, 3e38, np.pi / 2, 1e-40],
    "tan": [2.0**30, 2.0**30 + 1, np.pi / 2, -np.pi / 2, np.pi / 4, 1e-300],
    "arctan": [1e300, -1e300, 0.5463024898437905, 1.830487721712452, 1e-300],
    "arcsin": [1.0, -1.0, 0.5, -0.5, 1.0 + 2**-52, 1e-300],
    "arccos": [1.0, -1.0, 0.5, -0.5, -1.0 - 2**-52, 1e-300],
    "arcsinh": [1e-300, 1e-40, 2.0**-26, 1e-8, 1.0, 2.0**63, 1e19, 1e300,
                1.7e308, 3e38],
    "arccosh": [1.0, 1.0 + 2**-52, 1.0000001, 2.0, 2.0**63, 1e300, 1.7e308,
                3e38, 0.5],
    "arctanh": [1.0, 1.0 - 2**-53, 0.9999999, 1e-300, 1e-40, 0.5, 1.5],
    "cbrt": [5e-324, 1e-310, 2.0**-960, 2.0**-961, 2.0**-100, 2.0**-101,
             1e-40, 1.17e-38, 8.0, 27.0, 1e300, 1.7e308, 3e38, 0.001],
}
SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-310]


@pytest.mark.skipif(np.finfo(np.longdouble).nmant < 63,
                    reason="no extended long double: no float64 reference")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(EDGES))
def test_edges_in_vector_lanes(name, dtype):
    """Edge arguments scattered among ordinary lanes of long vectors (so
    they meet the vectorized fast path and its per-lane fallbacks), with
    NumPy's NaN, infinity and zero-sign results and at most NumPy's error
    on the same arguments (plus EXCESS; one ulp where NumPy is exact)."""
    dtype = np.dtype(dtype).type
    ufunc = getattr(np, name)
    rng = np.random.default_rng(len(name))
    with np.errstate(all="ignore"):
        edges = np.array(EDGES[name] + SPECIAL, dtype=np.float64)
        edges = np.concatenate([edges, -edges]).astype(dtype)
        x = rng.uniform(0.1, 2.0, 517).astype(dtype)
        x[rng.permutation(x.size)[:edges.size]] = edges
        got = stride.materialize(ufunc(stride.lazy(x)))
        numpy = ufunc(x)
        wide = np.longdouble if dtype == np.float64 else np.float64
        ref = ufunc(x.astype(wide)).astype(dtype)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(numpy))
    np.testing.assert_array_equal(np.isposinf(got), np.isposinf(numpy))
    np.testing.assert_array_equal(np.isneginf(got), np.isneginf(numpy))
    zeros = (got == 0) & (ref == 0)
    np.testing.assert_array_equal(np.signbit(got[zeros]), np.signbit(ref[zeros]))
    ours, theirs = max_ulps(got, ref, dtype), max_ulps(numpy, ref, dtype)
    allowed = max(theirs, 1) + EXCESS.get((name, np.dtype(dtype).name), 0)
    assert ours <= allowed, [(a, g, r) for a, g, r in zip(x, got, ref)
                             if abs(float(g) - float(r)) > 0][:10]


def _pairs_among_lanes(firsts, seconds, dtype, n, first_range, second_range,
                       seed):
    """Two arrays of n arguments drawn from the ranges, with every pair (a,
    b) of `firsts` x `seconds` put in lanes scattered among them."""
    with np.errstate(over="ignore"):  # 1e308 is infinite in float32
        a, b = (np.array(v, dtype=dtype)
                for v in zip(*[(p, q) for p in firsts for q in seconds]))
    rng = np.random.default_rng(seed)
    xs = rng.uniform(*first_range, n).astype(dtype)
    ys = rng.uniform(*second_range, n).astype(dtype)
    at = rng.permutation(n)[:a.size]
    xs[at], ys[at] = a, b
    return xs, ys


@pytest.mark.skipif(np.finfo(np.longdouble).nmant < 63,
                    reason="no extended long double: no float64 reference")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_arctan2_special_pairs(dtype):
    """Every pair of special and ordinary arguments (signed zeros,
    infinities, NaN, subnormals, huge and tiny values) in vector lanes:
    NumPy's quadrants, signed zeros and NaNs exactly, its error elsewhere."""
    dtype = np.dtype(dtype).type
    values = [0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -1e-310, 1.0, -1.0,
              1e308, -1e308, 1e-300, 3.0, -0.5, 1e-40, -3e38]
    ys, xs = _pairs_among_lanes(values, values, dtype, 401, (-3, 3), (-3, 3), 7)
    with np.errstate(all="ignore"):
        got = stride.materialize(np.arctan2(stride.lazy(ys), stride.lazy(xs)))
        wide = np.longdouble if dtype == np.float64 else np.float64
        ref = np.arctan2(ys.astype(wide), xs.astype(wide)).astype(dtype)
        numpy = np.arctan2(ys, xs)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(numpy))
    # (A NaN's sign bit means nothing: NumPy's float32 loop and libm differ.)
    numbers = ~np.isnan(numpy)
    np.testing.assert_array_equal(np.signbit(got[numbers]), np.signbit(numpy[numbers]))
    assert max_ulps(got, ref, dtype) <= max(max_ulps(numpy, ref, dtype), 1)


@pytest.mark.skipif(np.finfo(np.longdouble).nmant < 63,
                    reason="no extended long double: no float64 reference")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_power_special_pairs(dtype):
    """Every pair of special and ordinary bases and exponents in vector
    lanes: zeros of both signs, negative bases with integer and fractional
    exponents, 1 with NaN and infinite exponents, subnormals, infinities
    and NaN (the lanes Stride's own pow hands to libm) give NumPy's
    results bit for bit where those are not finite, its error elsewhere."""
    dtype = np.dtype(dtype).type
    bases = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -3.5, np.inf, -np.inf,
             np.nan, 1e-310 if dtype == np.float64 else 1e-40, 1e30, 1e-30]
    exponents = [0.0, -0.0, 1.0, -1.0, 2.0, 3.0, -3.0, 0.5, -0.5, 2.5, np.inf,
                 -np.inf, np.nan, 1e10, -1e10, 7.0]
    xs, ys = _pairs_among_lanes(bases, exponents, dtype, 733, (0.25, 4),
                                (-20, 20), 11)
    wide = np.longdouble if dtype == np.float64 else np.float64
    with np.errstate(all="ignore"):
        got = stride.materialize(np.power(stride.lazy(xs), stride.lazy(ys)))
        numpy = np.power(xs, ys)
        ref = np.power(xs.astype(wide), ys.astype(wide)).astype(dtype)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(numpy))
    np.testing.assert_array_equal(np.isposinf(got), np.isposinf(numpy))
    np.testing.assert_array_equal(np.isneginf(got), np.isneginf(numpy))
    zeros = got == 0
    np.testing.assert_array_equal(zeros, numpy == 0)
    np.testing.assert_array_equal(np.signbit(got[zeros]), np.signbit(numpy[zeros]))
    assert max_ulps(got, ref, dtype) <= max(max_ulps(numpy, ref, dtype), 1)


@pytest.mark.skipif(np.finfo(np.longdouble).nmant < 63,
                    reason="no extended long double: no float64 reference")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_power_where_the_logarithm_weighs_most(dtype):
    """Bases next to 1 with exponents that bring y log(x) near the overflow
    and underflow bounds (where an error in log(x) is multiplied most),
    results next to the subnormal range, and exact powers (2^10, 10^3)."""
    dtype = np.dtype(dtype).type
    info = np.finfo(dtype)
    rng = np.random.default_rng(12)
    n = 4096
    limit = np.log(info.max) * 0.999
    x = (1 + rng.uniform(-1, 1, n) * (1e-3 if dtype == np.float64 else 1e-2)).astype(dtype)
    y = (rng.choice([-1, 1], n) * limit / np.abs(np.log(x.astype(np.float64)))).astype(dtype)
    near_tiny = rng.uniform(0.1, 0.9, 512).astype(dtype)
    tiny_y = (np.log(info.tiny) / np.log(near_tiny.astype(np.float64))
              * rng.uniform(0.97, 1.03, 512)).astype(dtype)
    exact_x = np.array([2, 10, 3, 0.5, 4], dtype=dtype)
    exact_y = np.array([10, 3, 5, 7, 0.5], dtype=dtype)
    xs = np.concatenate([x, near_tiny, exact_x])
    ys = np.concatenate([y, tiny_y, exact_y])
    wide = np.longdouble if dtype == np.float64 else np.float64
    with np.errstate(all="ignore"):
        got = stride.materialize(np.power(stride.lazy(xs), stride.lazy(ys)))
        numpy = np.power(xs, ys)
        ref = np.power(xs.astype(wide), ys.astype(wide)).astype(dtype)
    np.testing.assert_array_equal(np.isinf(got), np.isinf(numpy))
    np.testing.assert_array_equal(got[-5:], np.array([1024, 1000, 243, 2**-7, 2],
                                                     dtype=dtype))
    assert max_ulps(got, ref, dtype) <= max(max_ulps(numpy, ref, dtype), 1)


@pytest.mark.skipif(np.finfo(np.longdouble).nmant < 63,
                    reason="no extended long double: no float64 reference")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 7, 13, 64, -1, -2, -3, -7,
                               -64])
def test_integral_powers(dtype, n):
    """x ** n for integral n: a literal exponent is expanded into binary
    powering at compile time (stride-expand-powers), an exponent array of
    integral values takes the vector pow's run-time test for the same
    powering; both against the long double power, within NumPy's error
    (at least 1 ulp), with NumPy's signs, zeros, infinities and NaN for
    zeros of both signs, negative bases, infinities, NaN, and bases whose
    powers overflow, underflow or land in the subnormal range."""
    dtype = np.dtype(dtype).type
    rng = np.random.default_rng(100 + n)
    with np.errstate(over="ignore"):  # 1e300 as float32 is inf
        x = np.concatenate([rng.uniform(-10, 10, 3000),
                            10 ** rng.uniform(-30, 30, 3000),
                            [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0,
                             0.5, -2.0, 1e-300, -1e-300, 1e300, 1e-5, 1e5,
                             1e-40, 3.0, 1e-160, 1e154, 2e-155]]).astype(dtype)
    wide = np.longdouble if dtype == np.float64 else np.float64
    exponent = dtype(n)
    with np.errstate(all="ignore"):
        literal = stride.jit(lambda a: a ** n)(x)
        lanes = stride.materialize(np.power(stride.lazy(x), stride.lazy(
            np.full(x.shape, exponent))))
        numpy = np.power(x, exponent)
        ref = np.power(x.astype(wide), wide(n)).astype(dtype)
    for got in (literal, lanes):
        assert got.dtype == numpy.dtype
        np.testing.assert_array_equal(np.isnan(got), np.isnan(numpy))
        np.testing.assert_array_equal(np.isposinf(got), np.isposinf(numpy))
        np.testing.assert_array_equal(np.isneginf(got), np.isneginf(numpy))
        zeros = got == 0
        np.testing.assert_array_equal(zeros, numpy == 0)
        np.testing.assert_array_equal(np.signbit(got[zeros]),
                                      np.signbit(numpy[zeros]))
        assert max_ulps(got, ref, dtype) <= max(max_ulps(numpy, ref, dtype), 1)
