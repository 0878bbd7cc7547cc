"""The Stride op table as the generator sees it: for every named elementwise
op its element types, its meaning in NumPy (the value oracle), the domain
on which the comparison is well defined, and whether exact operands give an
exact result.

A guard gets the operand arrays (broadcast already), the flags saying which
operands are exact, and the NumPy result; it raises Untame when the result
depends on rounding (an inexact operand near a discontinuity), on overflow,
or leaves the tame range. `check_result` decides whether a result is exact.
"""

import numpy as np

from element_types import (BITS, FLOATS, INTS, NUMPY, TAME_FLOAT, TAME_INT,
                           is_float, is_int)


class Untame(Exception):
    """The op is not well defined (or not tame) on these values."""


ALL_DT = FLOATS + INTS + ("i1",)
NUM = FLOATS + INTS            # NumPy's numbers (bool arithmetic aside)
INTS_BOOL = INTS + ("i1",)


def margin(dt):
    return 1e-3 if dt == "f32" else 1e-8


def far_from(x, points_fn, dt):
    """Raises unless x is farther than the margin from the nearest point."""
    x = np.asarray(x, dtype=np.float64)
    if x.size == 0:
        return
    d = np.abs(x - points_fn(x))
    if np.any(d <= margin(dt) * np.maximum(1.0, np.abs(x))):
        raise Untame("near a discontinuity")


def near_int(x):
    return np.round(x)


def near_half(x):
    return np.floor(x) + 0.5


def zero(x):
    return np.zeros_like(x)


def within(x, lo, hi):
    x = np.asarray(x, dtype=np.float64)
    if x.size and (np.any(x < lo) or np.any(x > hi)):
        raise Untame("outside the domain")


def as_ints(a):
    return np.asarray(a).astype(object)


def int_fits(values, dt):
    """Exact integer results (Python ints) must fit the dtype."""
    v = np.asarray(values, dtype=object)
    if v.size == 0:
        return
    lo, hi = -(1 << (BITS[dt] - 1)), (1 << (BITS[dt] - 1)) - 1
    if any(x < lo or x > hi for x in v.flat):
        raise Untame("integer overflow")


class OpDef:
    """kind: unary, binary, cmp, select, clip, cast, predicate."""

    def __init__(self, name, kind, dtypes, fn, guard=None, exact=False,
                 scalar=None, hi_precision=False):
        self.name, self.kind, self.dtypes = name, kind, dtypes
        self.fn, self.guard, self.exact = fn, guard, exact
        self.scalar = scalar          # arith/math spelling inside a body
        self.hi_precision = hi_precision  # exactness checked in higher precision

    @property
    def arity(self):
        return {"unary": 1, "predicate": 1, "cast": 1, "binary": 2, "cmp": 2,
                "select": 3, "clip": 3}[self.kind]


def _np(f):
    def run(dt, *xs):
        with np.errstate(all="ignore"):
            return np.asarray(f(*xs)).astype(NUMPY[dt])
    return run


def g_domain(lo, hi):
    def g(dt, xs, exact, r):
        within(xs[0], lo, hi)
        if not exact[0] and lo > -np.inf:
            within(xs[0], lo + margin(dt), hi)
    return g


def g_disc(points):
    def g(dt, xs, exact, r):
        if is_float(dt) and not exact[0]:
            far_from(xs[0], points, dt)
    return g


def sigmoid(x):
    one = x.dtype.type(1)
    return one / (one + np.exp(-x))


def int_trunc_div(dt, a, b):
    a, b = as_ints(a), as_ints(b)
    if np.any(b == 0):
        raise Untame("integer division by zero")
    q = np.vectorize(lambda x, y: abs(x) // abs(y) * (1 if (x >= 0) == (y >= 0) else -1),
                     otypes=[object])(a, b)
    int_fits(q, dt)
    return q.astype(NUMPY[dt])


def div(dt, a, b):
    if is_int(dt):
        return int_trunc_div(dt, a, b)
    with np.errstate(all="ignore"):
        return np.divide(a, b).astype(NUMPY[dt])


def g_div(dt, xs, exact, r):
    if is_float(dt):
        b = np.asarray(xs[1], dtype=np.float64)
        if b.size and np.any(np.abs(b) < 0.1):
            raise Untame("small divisor")


def int_arith(op):
    """add/sub/mul of integers: exact in Python ints, must fit."""
    def run(dt, a, b):
        if dt == "i1":
            with np.errstate(all="ignore"):
                return np.asarray(getattr(np, op)(a, b)).astype(np.bool_)
        if is_int(dt):
            r = getattr(np, op)(as_ints(a), as_ints(b))
            int_fits(r, dt)
            return np.asarray(r).astype(NUMPY[dt])
        with np.errstate(all="ignore"):
            return np.asarray(getattr(np, op)(a, b)).astype(NUMPY[dt])
    return run


def power(dt, a, b):
    if is_int(dt):
        if np.any(np.asarray(b) < 0) or np.any(np.asarray(b) > 4):
            raise Untame("integer exponent")
        r = np.power(as_ints(a), as_ints(b))
        int_fits(r, dt)
        return np.asarray(r).astype(NUMPY[dt])
    with np.errstate(all="ignore"):
        return np.power(a, b).astype(NUMPY[dt])


def g_pow(dt, xs, exact, r):
    if is_int(dt):
        return
    base = np.asarray(xs[0], dtype=np.float64)
    e = np.asarray(xs[1], dtype=np.float64)
    within(e, -3, 3)
    integral = exact[1] and np.all(e == np.round(e))
    if not integral:
        within(base, 0.1, np.inf)


def g_arctan2(dt, xs, exact, r):
    y, x = (np.asarray(v, dtype=np.float64) for v in xs)
    y, x = np.broadcast_arrays(y, x)
    if y.size == 0:
        return
    # Discontinuous along the negative x axis, undefined-ish at the origin.
    if not (exact[0] and exact[1]):
        bad = (np.abs(y) <= margin(dt)) & (x <= margin(dt))
        if np.any(bad):
            raise Untame("arctan2 branch cut")
    if np.any((y == 0) & (x == 0)):
        raise Untame("arctan2 at the origin")


def g_copysign(dt, xs, exact, r):
    if not exact[1]:
        far_from(xs[1], zero, dt)


def g_floormod(dt, xs, exact, r):
    if is_int(dt):
        a, b = as_ints(xs[0]), as_ints(xs[1])
        if np.any((a == -(1 << (BITS[dt] - 1))) & (b == -1)):
            raise Untame("most negative // -1")
        return
    a, b = np.broadcast_arrays(np.asarray(xs[0], np.float64), np.asarray(xs[1], np.float64))
    if b.size and np.any(np.abs(b) < 0.1):
        raise Untame("small divisor")
    if not (exact[0] and exact[1]):
        far_from(a / b, near_int, dt)


def g_shift(dt, xs, exact, r):
    pass


def g_cmp(dt, xs, exact, r):
    if is_float(dt) and not (exact[0] and exact[1]):
        a, b = np.broadcast_arrays(np.asarray(xs[0], np.float64), np.asarray(xs[1], np.float64))
        if a.size and np.any(np.abs(a - b) <= margin(dt) * np.maximum(1, np.abs(a))):
            raise Untame("close comparison")


def g_sqrt(dt, xs, exact, r):
    within(xs[0], 0 if exact[0] else margin(dt), np.inf)


def g_reciprocal(dt, xs, exact, r):
    if is_float(dt):
        x = np.asarray(xs[0], np.float64)
        if x.size and np.any(np.abs(x) < 0.1):
            raise Untame("small reciprocal")


def floor_divide(dt, a, b):
    with np.errstate(all="ignore"):
        return np.floor_divide(a, b).astype(NUMPY[dt])


def remainder(dt, a, b):
    with np.errstate(all="ignore"):
        return np.remainder(a, b).astype(NUMPY[dt])


def clip(dt, x, lo, hi):
    with np.errstate(all="ignore"):
        return np.minimum(np.maximum(x, lo), hi).astype(NUMPY[dt])


def select(dt, c, a, b):
    return np.where(c, a, b).astype(NUMPY[dt])


def S(f):
    """A scalar spelling: f(dt) gives the arith/math op name or None."""
    return f


OPS = {}


def op(*args, **kw):
    d = OpDef(*args, **kw)
    OPS[d.name] = d
    return d


FL = FLOATS
# Unary ops.
op("neg", "unary", NUM, _np(np.negative), exact=True,
   scalar=lambda dt: "arith.negf" if is_float(dt) else None)
op("abs", "unary", ALL_DT, _np(np.absolute), exact=True,
   scalar=lambda dt: "math.absf" if is_float(dt) else ("math.absi" if is_int(dt) else None))
op("exp", "unary", FL, _np(np.exp), g_domain(-30, 8), scalar=lambda dt: "math.exp")
op("log", "unary", FL, _np(np.log), g_domain(0.05, np.inf), scalar=lambda dt: "math.log")
op("sqrt", "unary", FL, _np(np.sqrt), g_sqrt, scalar=lambda dt: "math.sqrt")
op("tanh", "unary", FL, _np(np.tanh), scalar=lambda dt: "math.tanh")
op("sigmoid", "unary", FL, _np(sigmoid), g_domain(-30, 30))
op("sin", "unary", FL, _np(np.sin), g_domain(-100, 100), scalar=lambda dt: "math.sin")
op("cos", "unary", FL, _np(np.cos), g_domain(-100, 100), scalar=lambda dt: "math.cos")
op("tan", "unary", FL, _np(np.tan), g_domain(-1.3, 1.3))
op("arcsin", "unary", FL, _np(np.arcsin), g_domain(-0.95, 0.95))
op("arccos", "unary", FL, _np(np.arccos), g_domain(-0.95, 0.95))
op("arctan", "unary", FL, _np(np.arctan))
op("sinh", "unary", FL, _np(np.sinh), g_domain(-8, 8))
op("cosh", "unary", FL, _np(np.cosh), g_domain(-8, 8))
op("arcsinh", "unary", FL, _np(np.arcsinh))
op("arccosh", "unary", FL, _np(np.arccosh), g_domain(1.05, np.inf))
op("arctanh", "unary", FL, _np(np.arctanh), g_domain(-0.9, 0.9))
op("exp2", "unary", FL, _np(np.exp2), g_domain(-30, 12))
op("expm1", "unary", FL, _np(np.expm1), g_domain(-30, 8))
op("log2", "unary", FL, _np(np.log2), g_domain(0.05, np.inf))
op("log10", "unary", FL, _np(np.log10), g_domain(0.05, np.inf))
op("log1p", "unary", FL, _np(np.log1p), g_domain(-0.9, np.inf))
op("floor", "unary", FL, _np(np.floor), g_disc(near_int), exact=True,
   scalar=lambda dt: "math.floor")
op("ceil", "unary", FL, _np(np.ceil), g_disc(near_int), exact=True)
op("trunc", "unary", FL, _np(np.trunc), g_disc(near_int), exact=True)
op("rint", "unary", FL, _np(np.rint), g_disc(near_half), exact=True)
op("sign", "unary", NUM, _np(np.sign), g_disc(zero), exact=True)
op("square", "unary", NUM, lambda dt, x: int_arith("multiply")(dt, x, x),
   exact=True, hi_precision=True)
op("reciprocal", "unary", NUM, _np(np.reciprocal), g_reciprocal, exact=True,
   hi_precision=True)
op("bitwise_not", "unary", INTS_BOOL, _np(np.invert), exact=True)
op("logical_not", "unary", ("i1",), _np(np.logical_not), exact=True)
op("isnan", "predicate", ALL_DT, lambda dt, x: np.isnan(x) if is_float(dt) else np.zeros(np.shape(x), bool),
   exact=True)
op("isinf", "predicate", ALL_DT, lambda dt, x: np.isinf(x) if is_float(dt) else np.zeros(np.shape(x), bool),
   exact=True)
op("isfinite", "predicate", ALL_DT, lambda dt, x: np.isfinite(x) if is_float(dt) else np.ones(np.shape(x), bool),
   exact=True)

# Binary ops. Bool add/mul/maximum/minimum follow NumPy (or, and, or, and).
op("add", "binary", ALL_DT, int_arith("add"), exact=True, hi_precision=True,
   scalar=lambda dt: "arith.addf" if is_float(dt) else ("arith.addi" if is_int(dt) else None))
op("sub", "binary", NUM, int_arith("subtract"), exact=True, hi_precision=True,
   scalar=lambda dt: "arith.subf" if is_float(dt) else ("arith.subi" if is_int(dt) else None))
op("mul", "binary", ALL_DT, int_arith("multiply"), exact=True, hi_precision=True,
   scalar=lambda dt: "arith.mulf" if is_float(dt) else ("arith.muli" if is_int(dt) else None))
op("div", "binary", NUM, div, g_div, exact=True, hi_precision=True,
   scalar=lambda dt: "arith.divf" if is_float(dt) else None)
op("maximum", "binary", ALL_DT, _np(np.maximum), exact=True,
   scalar=lambda dt: "arith.maximumf" if is_float(dt) else ("arith.maxsi" if is_int(dt) else None))
op("minimum", "binary", ALL_DT, _np(np.minimum), exact=True,
   scalar=lambda dt: "arith.minimumf" if is_float(dt) else ("arith.minsi" if is_int(dt) else None))
op("pow", "binary", NUM, power, g_pow)
op("arctan2", "binary", FL, _np(np.arctan2), g_arctan2)
op("hypot", "binary", FL, _np(np.hypot))
op("copysign", "binary", FL, _np(np.copysign), g_copysign, exact=True)
op("remainder", "binary", NUM, remainder, g_floormod, exact=True)
op("floor_divide", "binary", NUM, floor_divide, g_floormod, exact=True)
op("bitwise_and", "binary", INTS_BOOL, _np(np.bitwise_and), exact=True,
   scalar=lambda dt: "arith.andi")
op("bitwise_or", "binary", INTS_BOOL, _np(np.bitwise_or), exact=True,
   scalar=lambda dt: "arith.ori")
op("bitwise_xor", "binary", INTS_BOOL, _np(np.bitwise_xor), exact=True,
   scalar=lambda dt: "arith.xori")
op("left_shift", "binary", INTS, _np(np.left_shift), g_shift, exact=True)
op("right_shift", "binary", INTS, _np(np.right_shift), g_shift, exact=True)
op("logical_and", "binary", ("i1",), _np(np.logical_and), exact=True)
op("logical_or", "binary", ("i1",), _np(np.logical_or), exact=True)
op("logical_xor", "binary", ("i1",), _np(np.logical_xor), exact=True)

CMP_PREDICATES = {"eq": np.equal, "ne": np.not_equal, "lt": np.less,
                  "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal}
op("cmp", "cmp", ALL_DT, None, g_cmp, exact=True)
op("select", "select", ALL_DT, select, exact=True)
op("clip", "clip", ALL_DT, clip, exact=True)
op("cast", "cast", ALL_DT, None, exact=True)

# arith.addi/muli/maxsi/minsi on i1 are xor/and/min/max of signed bits, not
# NumPy's or/and/or/and: a stride.broadcast body never uses them on i1.
BOOL_ARITH = ("add", "mul", "maximum", "minimum")

UNARY = [n for n, d in OPS.items() if d.kind in ("unary", "predicate")]
BINARY = [n for n, d in OPS.items() if d.kind == "binary"]


def apply(opdef, dt, xs, exact, pred=None, to=None):
    """NumPy result of a named op on operands of element type dt (the result
    dtype differs for cmp/predicates/cast) and whether it is exact. Raises
    Untame."""
    xs = [np.asarray(x) for x in xs]
    if opdef.kind == "cmp":
        r = CMP_PREDICATES[pred](*xs)
    elif opdef.kind == "cast":
        r = cast_values(dt, to, xs[0], exact[0])
    elif opdef.kind == "select":
        r = opdef.fn(dt, *xs)
    else:
        r = opdef.fn(dt, *xs)
    r = np.asarray(r)
    if opdef.guard:
        opdef.guard(dt, xs, exact, r)
    out_dt = {"cmp": "i1", "predicate": "i1", "cast": to}.get(opdef.kind, dt)
    if not is_float(out_dt):
        return r, True, check_result(out_dt, r)
    ok_exact = opdef.exact and all(exact)
    if opdef.kind == "select":
        ok_exact = all(exact[1:])
    if opdef.kind == "cast":
        ok_exact = cast_exact(dt, to, xs[0], r, exact[0])
    elif ok_exact and is_float(out_dt) and opdef.hi_precision:
        ok_exact = hi_precision_equal(opdef, dt, xs, r)
    return r, ok_exact, check_result(out_dt, r)


def check_result(dt, r):
    """Whether a result may be used as an operand again (tame); raises
    Untame for float results that are not finite or too large."""
    r = np.asarray(r)
    if r.size == 0:
        return True
    if is_float(dt):
        if not np.all(np.isfinite(r)) or np.max(np.abs(r)) > TAME_FLOAT:
            raise Untame("float result out of range")
        return True
    if is_int(dt):
        return bool(np.max(np.abs(r.astype(object))) <= TAME_INT[dt])
    return True


def hi_precision_equal(opdef, dt, xs, r):
    hi = np.float64 if dt == "f32" else np.longdouble
    with np.errstate(all="ignore"):
        hx = [np.asarray(x).astype(hi) for x in xs]
        if opdef.name == "add":
            h = hx[0] + hx[1]
        elif opdef.name == "sub":
            h = hx[0] - hx[1]
        elif opdef.name in ("mul",):
            h = hx[0] * hx[1]
        elif opdef.name == "square":
            h = hx[0] * hx[0]
        elif opdef.name == "div":
            h = hx[0] / hx[1]
        elif opdef.name == "reciprocal":
            h = 1 / hx[0]
        else:
            return False
    return bool(np.all(h == np.asarray(r).astype(hi)))


def cast_values(frm, to, x, exact):
    x = np.asarray(x)
    if to == "i1":
        if is_float(frm) and not exact:
            far_from(x, zero, frm)
        return x != 0
    if is_int(to) and is_float(frm):
        if not exact:
            far_from(x, near_int, frm)
        t = np.trunc(x.astype(np.float64))
        lim = 1 << (BITS[to] - 1)
        if t.size and (np.any(t >= lim) or np.any(t < -lim)):
            raise Untame("float to int out of range")
        return t.astype(NUMPY[to])
    with np.errstate(all="ignore"):
        return x.astype(NUMPY[to])


def cast_exact(frm, to, x, r, exact):
    if not exact:
        return is_int(to) or to == "i1"
    if is_float(to):
        back = np.asarray(r).astype(np.longdouble)
        return bool(np.all(back == np.asarray(x).astype(np.longdouble)))
    return True
