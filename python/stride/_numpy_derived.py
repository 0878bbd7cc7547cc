"""NumPy functions that are compositions of other lazy ops: differences,
rolls, axis moves, products over named indices (einsum, tensordot, inner),
rounding, repeats, ufunc reductions. Each builds what NumPy 1.24 computes,
from the views, elementwise ops, reductions and matmul Stride already
has, so the fused kernels see ordinary ops."""
import string

import numpy as np

from . import _expr
from ._errors import user_line


def _root(x):
    return x if isinstance(x, _expr.Expr) else _expr.as_root(x)


def _unsupported(name, why):
    return TypeError(f"numpy.{name} {why} is not supported on lazy stride "
                     "expressions" + user_line())


def _axis(axis, ndim):
    return np.core.numeric.normalize_axis_index(axis, ndim)


def _take(x, axis, part):
    key = [slice(None)] * len(x.shape)
    key[axis] = part
    return _expr.index(x, tuple(key))


def diff(a, n=1, axis=-1, prepend=np._NoValue, append=np._NoValue):
    """np.diff: x[1:] - x[:-1] along `axis`, n times (booleans: !=)."""
    x = _root(a)
    if not x.shape:
        raise ValueError("diff requires input that is at least one "
                         "dimensional")
    axis = _axis(axis, len(x.shape))
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n!r}")
    parts = []
    for value in (prepend, append):
        if value is np._NoValue:
            parts.append(None)
            continue
        v = _root(value)
        if len(v.shape) == 0:
            shape = list(x.shape)
            shape[axis] = 1
            v = _expr.broadcast_to(v, tuple(shape))
        parts.append(v)
    if parts[0] is not None or parts[1] is not None:
        x = _expr.HOOKS.array_function(np.concatenate, ([
            p for p in (parts[0], x, parts[1]) if p is not None],),
            {"axis": axis})
    for _ in range(n):
        hi, lo = _take(x, axis, slice(1, None)), _take(x, axis, slice(None, -1))
        x = (_expr.binary("ne", (hi, lo)) if x.dtype == np.bool_
             else hi - lo)
    return x


def roll(a, shift, axis=None):
    """np.roll: the last `shift` elements along `axis` first (the flattened
    array when axis is None), as a join of two slices."""
    x = _root(a)
    if axis is None:
        return _expr.reshape(roll(_expr.reshape(x, (-1,)), shift, 0), x.shape)
    shifts = np.broadcast_to(shift, np.broadcast(shift, axis).shape)
    axes = np.broadcast_to(axis, shifts.shape)
    for s, ax in zip(shifts.ravel(), axes.ravel()):
        ax = _axis(int(ax), len(x.shape))
        n = x.shape[ax]
        s = int(s) % n if n else 0
        if s:
            x = _expr.HOOKS.array_function(np.concatenate, (
                [_take(x, ax, slice(n - s, None)), _take(x, ax, slice(0, n - s))],),
                {"axis": ax})
    return x


def moveaxis(a, source, destination):
    x = _root(a)
    ndim = len(x.shape)
    src = np.core.numeric.normalize_axis_tuple(source, ndim, "source")
    dst = np.core.numeric.normalize_axis_tuple(destination, ndim,
                                               "destination")
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have "
                         "the same number of elements")
    order = [d for d in range(ndim) if d not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return _expr.transpose(x, tuple(order))


def ptp(a, axis=None, out=None, keepdims=False):
    if out is not None:
        raise _unsupported("ptp", "with out=")
    x = _root(a)
    return (_expr.reduce("amax", x, axis, keepdims)
            - _expr.reduce("amin", x, axis, keepdims))


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """np.average: the mean, or sum(a * w) / sum(w) with weights of a's
    shape (1-D weights along one axis are broadcast along it)."""
    x = _root(a)
    if weights is None:
        avg = _expr.reduce("mean", x, axis, keepdims)
        if returned:
            count = np.prod(x.shape) / max(1, np.prod(avg.shape))
            return avg, _expr.broadcast_to(
                _expr.lazy(np.asarray(count, avg.dtype)), avg.shape)
        return avg
    w = _root(weights)
    if w.shape != x.shape:
        if axis is None or len(w.shape) != 1:
            raise TypeError("Axis must be specified when shapes of a and "
                            "weights differ.")
        ax = _axis(axis, len(x.shape))
        shape = [1] * len(x.shape)
        shape[ax] = w.shape[0]
        w = _expr.reshape(w, tuple(shape))
    total = _expr.reduce("sum", w if w.shape == x.shape else
                         _expr.broadcast_to(w, x.shape), axis, keepdims)
    avg = _expr.reduce("sum", x * w, axis, keepdims) / total
    return (avg, total) if returned else avg


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    v = _root(x)
    if v.dtype.kind != "f":
        return v
    info = np.finfo(v.dtype)
    big = info.max if posinf is None else posinf
    small = info.min if neginf is None else neginf
    typed = lambda c: _expr.lazy(np.asarray(c, v.dtype))
    isinf = _expr.TABLE_FUNCTIONS["isinf"](v)
    zero = typed(0)
    v2 = _expr.where(_expr.TABLE_FUNCTIONS["isnan"](v), typed(nan), v)
    v2 = _expr.where(_expr.binary("gt", (v, zero)) & isinf, typed(big), v2)
    return _expr.where(_expr.binary("lt", (v, zero)) & isinf, typed(small), v2)


def around(a, decimals=0, out=None):
    """np.around as NumPy computes it: rint(x * 10**d) / 10**d (d < 0:
    rint(x / 10**-d) * 10**-d); integers with d >= 0 unchanged, with d < 0
    rounded half to even in float64."""
    if out is not None:
        # Written into out= as NumPy does (cast to its dtype).
        result = _expr.as_root(around(a, decimals))
        if result.dtype != out.dtype:
            result = result.astype(out.dtype)
        return _expr.HOOKS.write_out(result, out, (a,))
    x = _root(a)
    rint = _expr.TABLE_FUNCTIONS["rint"]
    if x.dtype.kind in "iub":
        if decimals >= 0:
            return x
        # Half to even, through float64 as NumPy's true division goes.
        scale = _expr.lazy(np.asarray(10.0 ** -decimals))
        return (rint(x.astype(np.float64) / scale) * scale).astype(x.dtype)
    if decimals == 0:
        return rint(x)
    scale = _expr.lazy(np.asarray(10.0 ** abs(decimals), x.dtype))
    return (rint(x * scale) / scale if decimals > 0
            else rint(x / scale) * scale)


def repeat(a, repeats, axis=None):
    """np.repeat with one count for every element: each element broadcast
    along a new axis after `axis`, then merged into it."""
    x = _root(a)
    if not isinstance(repeats, (int, np.integer)):
        if np.ndim(repeats) == 0 or np.size(repeats) == 1:
            repeats = int(np.asarray(repeats).ravel()[0])
        else:
            raise _unsupported("repeat", "with one count per element")
    if repeats < 0:
        raise ValueError("negative dimensions are not allowed")
    if axis is None:
        x, axis = _expr.reshape(x, (-1,)), 0
    axis = _axis(axis, len(x.shape))
    grown = _expr.expand_dims(x, axis + 1)
    shape = list(grown.shape)
    shape[axis + 1] = repeats
    merged = list(x.shape)
    merged[axis] *= repeats
    return _expr.reshape(_expr.broadcast_to(grown, tuple(shape)), tuple(merged))


def tile(A, reps):
    """np.tile: each dim d of the (promoted) array broadcast along a new
    axis before it, `reps[d]` long, then merged into it."""
    x = _root(A)
    reps = (reps,) if isinstance(reps, (int, np.integer)) else tuple(reps)
    ndim = max(len(x.shape), len(reps))
    reps = (1,) * (ndim - len(reps)) + tuple(int(r) for r in reps)
    x = _expr.reshape(x, (1,) * (ndim - len(x.shape)) + tuple(x.shape))
    grown = _expr.reshape(x, tuple(v for n in x.shape for v in (1, n)))
    shape = tuple(v for r, n in zip(reps, x.shape) for v in (r, n))
    return _expr.reshape(_expr.broadcast_to(grown, shape),
                         tuple(r * n for r, n in zip(reps, x.shape)))


# Products over named indices.
def _sum_keeping(v, axes):
    """The sum over `axes` in v's own dtype, as einsum and dot sum (np.sum
    would widen int32 to int64); booleans sum as NumPy's einsum does,
    any true product making True."""
    if v.dtype == np.bool_:
        return _expr.reduce("any", v, axes, False)
    return _expr.reduce("sum", v, axes, False, v.dtype)


def _contract(x, xs, y, ys, out):
    """The product of x (indices xs) and y (indices ys) summed over the
    indices not in `out`, with indices `out`: a batched matmul of x as
    (batch, left, k) and y as (batch, k, right)."""
    # Indices of one operand alone and not kept are summed first.
    def sum_alone(v, names, other):
        alone = [i for i, c in enumerate(names) if c not in other
                 and c not in out]
        if alone:
            v = _sum_keeping(v, tuple(alone))
            names = "".join(c for c in names if c in other or c in out)
        return v, names
    x, xs = sum_alone(x, xs, ys)
    y, ys = sum_alone(y, ys, xs)
    batch = [c for c in xs if c in ys and c in out]
    k = [c for c in xs if c in ys and c not in out]
    left = [c for c in xs if c not in ys]
    right = [c for c in ys if c not in xs]
    size = dict(zip(xs, x.shape))
    size.update(zip(ys, y.shape))
    if not k or not (left or right):
        # No index summed over (an outer product), or none but the shared
        # ones (row dot products): elementwise products of views aligned
        # on batch + left + right + k, summed over k, which stride-fuse
        # makes one map-reduce kernel.
        names = batch + left + right + k
        def aligned(v, vs):
            v = _expr.transpose(v, tuple(vs.index(c) for c in names
                                         if c in vs))
            return _expr.reshape(v, tuple(size[c] if c in vs else 1
                                          for c in names))
        r = aligned(x, xs) * aligned(y, ys)
        if k:
            r = _sum_keeping(r, tuple(range(len(names) - len(k),
                                            len(names))))
        names = batch + left + right
        return _expr.transpose(r, tuple(names.index(c) for c in out))
    prod = lambda names: int(np.prod([size[c] for c in names]))
    xm = _expr.reshape(_expr.transpose(x, tuple(xs.index(c) for c in
                                                batch + left + k)),
                       (prod(batch), prod(left), prod(k)))
    ym = _expr.reshape(_expr.transpose(y, tuple(ys.index(c) for c in
                                                batch + k + right)),
                       (prod(batch), prod(k), prod(right)))
    names = batch + left + right
    r = _expr.reshape(_expr.matmul(xm, ym), tuple(size[c] for c in names))
    return _expr.transpose(r, tuple(names.index(c) for c in out))


def _diagonal_of(v, names):
    """v with each repeated index taken once (its diagonal), as einsum's
    'ii->i' does: the dims of a repeated index become one strided view."""
    if len(set(names)) == len(names):
        return v, names
    if len(v.shape) != 2:
        raise _unsupported("einsum", "with a repeated index in an operand of "
                           "more than 2 dims")
    return diagonal2d(v, 0), names[0]


def einsum(subscripts, *operands, out=None, dtype=None, order="K",
           casting="safe", optimize=False):
    """np.einsum for explicit or implicit subscripts without '...': one
    operand is summed and transposed; several are multiplied pairwise,
    left to right, each pair as a batched matmul over its shared indices."""
    if out is not None or dtype is not None:
        raise _unsupported("einsum", "with out= or dtype=")
    if not isinstance(subscripts, str):
        raise _unsupported("einsum", "with sublist subscripts")
    spec = subscripts.replace(" ", "")
    if "." in spec:
        raise _unsupported("einsum", "with '...' subscripts")
    inputs, arrow, output = spec.partition("->")
    names = inputs.split(",")
    if len(names) != len(operands):
        raise ValueError("more operands provided to einstein sum function "
                         "than specified in the subscripts string"
                         if len(operands) > len(names) else
                         "fewer operands provided to einstein sum function "
                         "than specified in the subscripts string")
    if not arrow:
        output = "".join(sorted(c for c in set(inputs.replace(",", ""))
                                if inputs.count(c) == 1))
    values = []
    for v, n in zip(operands, names):
        v = _root(v)
        if len(n) != len(v.shape) or any(c not in string.ascii_letters
                                         for c in n):
            raise ValueError(f"einstein sum subscripts string '{n}' does not "
                             f"match operand of {len(v.shape)} dims")
        values.append(_diagonal_of(v, n))
    v, vs = values[0]
    for i, (w, ws) in enumerate(values[1:], 1):
        later = "".join(n for _, n in values[i + 1:]) + output
        keep = "".join(dict.fromkeys(c for c in vs + ws if c in later))
        if v.dtype != w.dtype:
            common = np.result_type(v.dtype, w.dtype)
            v, w = v.astype(common), w.astype(common)
        v, vs = _contract(v, vs, w, ws, keep), keep
    alone = tuple(i for i, c in enumerate(vs) if c not in output)
    if alone:
        v = _sum_keeping(v, alone)
        vs = "".join(c for c in vs if c in output)
    return _expr.transpose(v, tuple(vs.index(c) for c in output)) \
        if vs != output else v


def kron(a, b):
    """np.kron: each element of a times all of b, as one product of a and
    b with interleaved unit dims, merged pairwise."""
    x, y = _root(a), _root(b)
    nd = max(len(x.shape), len(y.shape))
    xs = (1,) * (nd - len(x.shape)) + tuple(x.shape)
    ys = (1,) * (nd - len(y.shape)) + tuple(y.shape)
    xv = _expr.reshape(x, tuple(v for n in xs for v in (n, 1)))
    yv = _expr.reshape(y, tuple(v for n in ys for v in (1, n)))
    return _expr.reshape(xv * yv, tuple(m * n for m, n in zip(xs, ys)))


def tensordot(a, b, axes=2):
    x, y = _root(a), _root(b)
    if isinstance(axes, (int, np.integer)):
        xa = list(range(len(x.shape) - axes, len(x.shape)))
        ya = list(range(axes))
    else:
        xa, ya = ([ax] if isinstance(ax, (int, np.integer)) else list(ax)
                  for ax in axes)
    xa = [_axis(i, len(x.shape)) for i in xa]
    ya = [_axis(i, len(y.shape)) for i in ya]
    if len(xa) != len(ya) or any(x.shape[i] != y.shape[j]
                                 for i, j in zip(xa, ya)):
        raise ValueError("shape-mismatch for sum")
    letters = iter(string.ascii_letters)
    xs = [next(letters) for _ in x.shape]
    ys = [None] * len(y.shape)
    for i, j in zip(xa, ya):
        ys[j] = xs[i]
    ys = [c or next(letters) for c in ys]
    out = [c for i, c in enumerate(xs) if i not in xa] + \
          [c for j, c in enumerate(ys) if j not in ya]
    return einsum(f"{''.join(xs)},{''.join(ys)}->{''.join(out)}", x, y)


def inner(a, b):
    x, y = _root(a), _root(b)
    if not x.shape or not y.shape:
        return x * y
    return tensordot(x, y, ([-1], [-1]))


def vdot(a, b):
    x, y = _root(a), _root(b)
    if int(np.prod(x.shape)) != int(np.prod(y.shape)):
        raise ValueError("cannot reshape array: vdot's operands differ in "
                         "size")
    return _sum_keeping(_expr.reshape(x, (-1,)) * _expr.reshape(y, (-1,)),
                        None)


def diagonal2d(x, k):
    """The k-th diagonal of a 2-D lazy array: a strided slice of its
    flattening (np.diag of a matrix)."""
    rows, cols = x.shape
    start = k if k >= 0 else -k * cols
    count = max(0, min(rows, cols - k) if k >= 0 else min(rows + k, cols))
    if count == 0:
        return _expr.lazy(np.zeros(0, x.dtype))
    flat = _expr.reshape(x, (-1,))
    return _expr.index(flat, (slice(start, start + (count - 1) * (cols + 1)
                                    + 1, cols + 1),))


def diagonal(a, offset=0, axis1=0, axis2=1):
    x = _root(a)
    if len(x.shape) != 2 or {_axis(axis1, 2), _axis(axis2, 2)} != {0, 1}:
        raise _unsupported("diagonal", "of other than a 2-D array's axes")
    return diagonal2d(x if _axis(axis1, 2) == 0 else _expr.transpose(x),
                      offset)


# ufunc.reduce: the reduction each ufunc's reduce is.
_UFUNC_REDUCTIONS = {"add": "sum", "multiply": "prod", "maximum": "amax",
                     "minimum": "amin", "logical_and": "all",
                     "logical_or": "any"}


def ufunc_reduce(name, array, axis=0, dtype=None, out=None, keepdims=False,
                 initial=np._NoValue, where=True):
    kind = _UFUNC_REDUCTIONS.get(name)
    if kind is None:
        return None
    if out is not None or initial is not np._NoValue or where is not True:
        raise _unsupported(f"{name}.reduce", "with out=, initial= or where=")
    x = _root(array)
    if kind in ("all", "any") and x.dtype != np.bool_:
        x = x.astype(np.bool_)
    return _expr.reduce(kind, x, axis, keepdims,
                        dtype if kind in ("sum", "prod") else None)


def _pair(x1, x2):
    """Two ufunc operands as lazy arrays: a Python or NumPy scalar becomes
    NumPy's 0-d array of it, which promotes by value."""
    lazy = [v if isinstance(v, _expr.Expr) else None for v in (x1, x2)]
    for i, v in enumerate((x1, x2)):
        if lazy[i] is None:
            if isinstance(v, np.ndarray) and v.ndim:
                lazy[i] = _expr.lazy(v)
            else:
                # NumPy's own 0-d array of the scalar (a Python int is
                # int64, 2**63 uint64): the ops promote it by its value.
                lazy[i] = _expr.lazy(np.asarray(v))
    return lazy


def _logaddexp(base):
    def fn(x1, x2):
        """log(b**x1 + b**x2) as NumPy computes it: the larger plus
        log1p(b**-|x1 - x2|), and x1 itself where both are equal (infs)."""
        x, y = _pair(x1, x2)
        common = _result_float(np.logaddexp if base == "e" else np.logaddexp2,
                               x, y)
        x = x if x.dtype == common else x.astype(common)
        y = y if y.dtype == common else y.astype(common)
        f = _expr.TABLE_FUNCTIONS
        d = f["absolute"](x - y)
        if base == 2:
            tail = f["log1p"](f["exp2"](-d)) / _expr.lazy(
                np.asarray(np.log(2), d.dtype))
        else:
            tail = f["log1p"](f["exp"](-d))
        m = f["maximum"](x, y)
        return _expr.where(_expr.binary("eq", (x, y)),
                           x + _expr.lazy(np.asarray(
                               1.0 if base == 2 else np.log(2), d.dtype)),
                           m + tail)
    return fn


def _numpy_dtype(ufunc, *operands):
    """The result dtype NumPy's `ufunc` gives lazy `operands`: stand-ins of
    their dtypes, the 0-d ones with their values (NumPy 1.24 casts those by
    value when an array is among the operands)."""
    with np.errstate(all="ignore"):
        return ufunc(*(np.zeros((1,) * len(v.shape), v.dtype) if v.shape
                       else _expr.weak_value(v) for v in operands)).dtype


def _result_float(ufunc, *operands):
    """The dtype NumPy's float-only `ufunc` gives these operands (their
    0-d values stand for them, as NumPy 1.24's promotion of 0-d operands
    reads values), or NumPy's TypeError where that is float16."""
    dtype = _numpy_dtype(ufunc, *operands)
    if dtype == np.float16:
        raise TypeError(f"numpy.{ufunc.__name__} of "
                        f"{', '.join(str(v.dtype) for v in operands)} operands "
                        "gives float16 in NumPy, a dtype Stride does not "
                        "support" + user_line())
    return dtype


def heaviside(x1, x2):
    x, h = _pair(x1, x2)
    dtype = _result_float(np.heaviside, x, h)
    zero = _expr.lazy(np.zeros((), dtype))
    one = _expr.lazy(np.ones((), dtype))
    h = h.astype(dtype) if h.dtype != dtype else h
    xc = x.astype(dtype) if x.dtype != dtype else x
    value = _expr.where(_expr.binary("lt", (xc, zero)), zero,
                        _expr.where(_expr.binary("gt", (xc, zero)), one, h))
    return _expr.where(_expr.TABLE_FUNCTIONS["isnan"](xc), xc, value) \
        if dtype.kind == "f" else value


def _float_of(ufunc, x):
    """x converted to the float dtype NumPy's `ufunc` computes in (float64
    for integers), or NumPy's TypeError where that is float16."""
    dtype = _result_float(ufunc, x)
    return x if x.dtype == dtype else x.astype(dtype)


def _scaled(ufunc, factor):
    """deg2rad and rad2deg: x times NumPy's constant (pi / 180, 180 / pi)."""
    def fn(x):
        v = _float_of(ufunc, _root(x))
        return v * _expr.lazy(np.asarray(factor, v.dtype))
    return fn


def _nan_ignoring(kind):
    """fmax / fmin: maximum / minimum where a NaN operand loses to the
    other one (both NaN: NaN)."""
    def fn(x1, x2):
        x, y = _pair(x1, x2)
        # fmax searches its loops casting a scalar by value: its dtype,
        # which may lie above maximum's.
        want = _numpy_dtype(np.fmax if kind == "maximum" else np.fmin, x, y)
        if x.dtype != want and y.dtype != want:
            x, y = x.astype(want), y.astype(want)
        both = _expr.TABLE_FUNCTIONS[kind](x, y)
        if both.dtype.kind != "f":
            return both
        isnan = _expr.TABLE_FUNCTIONS["isnan"]
        return _expr.where(isnan(y), x if x.dtype == both.dtype else
                           x.astype(both.dtype),
                           _expr.where(isnan(x), y if y.dtype == both.dtype
                                       else y.astype(both.dtype), both))
    return fn


def signbit(x):
    v = _root(x)
    if v.dtype.kind == "f":
        one = _expr.lazy(np.ones((), v.dtype))
        return _expr.binary("lt", (_expr.TABLE_FUNCTIONS["copysign"](one, v),
                                   _expr.lazy(np.zeros((), v.dtype))))
    return _expr.binary("lt", (v, _expr.lazy(np.zeros((), v.dtype))))


def _real_part(x):
    v = _root(x)
    return v.copy() if _expr.HOOKS.current_trace() is not None else v


def float_power(x1, x2):
    x, y = _pair(x1, x2)
    f = lambda v: v if v.dtype == np.float64 else v.astype(np.float64)
    return _expr.TABLE_FUNCTIONS["power"](f(x), f(y))


def modf(x):
    """(fraction, integral part), both with x's sign; an infinity's
    fraction is a signed zero, as C's modf."""
    v = _float_of(np.trunc, _root(x))
    whole = _expr.TABLE_FUNCTIONS["trunc"](v)
    zero = _expr.lazy(np.zeros((), v.dtype))
    frac = _expr.where(_expr.TABLE_FUNCTIONS["isinf"](v),
                       _expr.TABLE_FUNCTIONS["copysign"](zero, v), v - whole)
    return frac, whole


def divmod_(x1, x2):
    f = _expr.TABLE_FUNCTIONS
    return f["floor_divide"](x1, x2), f["remainder"](x1, x2)


def sinc(x):
    """sin(pi x) / (pi x), 1 at 0, as NumPy computes it (x = 0 replaced by
    1e-20)."""
    v = _float_of(np.sinc, _root(x))
    tiny = _expr.lazy(np.asarray(1.0e-20, v.dtype))
    y = _expr.lazy(np.asarray(np.pi, v.dtype)) * _expr.where(
        _expr.binary("eq", (v, _expr.lazy(np.zeros((), v.dtype)))), tiny, v)
    return _expr.TABLE_FUNCTIONS["sin"](y) / y


def isclose(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False):
    """NumPy 1.24's isclose: |a - b| <= atol + rtol * |b| where both are
    finite, a == b elsewhere, and NaN against NaN where equal_nan."""
    x, y = _pair(a, b)
    if y.dtype.kind != "f" or y.dtype.itemsize < 8 and x.dtype.kind != "f":
        y = y.astype(np.result_type(y.dtype, 1.0))
    f = _expr.TABLE_FUNCTIONS
    finite = f["isfinite"](x) & f["isfinite"](y)
    within = _expr.binary("le", (f["absolute"](x - y),
                                 _expr.lazy(np.asarray(atol)) +
                                 _expr.lazy(np.asarray(rtol)) *
                                 f["absolute"](y)))
    close = _expr.where(finite, within, _expr.binary("eq", (x, y)))
    if equal_nan:
        close = close | (f["isnan"](x) & f["isnan"](y))
    return close


def select(condlist, choicelist, default=0):
    """np.select: the choice of the first true condition, else `default`,
    in the result type of every choice and the default (NumPy 1.24's, value-
    based for scalars): nested wheres, the last condition innermost."""
    condlist, choicelist = list(condlist), list(choicelist)
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of "
                         "conditions")
    if not condlist:
        raise ValueError("select with an empty condition list is not "
                         "possible")
    conds = _expr.operands(condlist, "select")
    for i, c in enumerate(conds):
        if c.dtype != np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be "
                            "boolean ndarray")
    dtype = _expr.result_type(choicelist + [default], "select")
    result = _root(default).astype(dtype) if isinstance(
        default, _expr.Expr) else _expr.lazy(np.asarray(default, dtype))
    for cond, choice in zip(condlist[::-1], choicelist[::-1]):
        result = _expr.where(cond, _pair(choice, result)[0].astype(dtype),
                             result)
    return result


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """np.meshgrid: each 1-D input along its own axis (the first two
    swapped for 'xy'), broadcast to the common shape unless sparse, copied
    (C order) unless copy=False."""
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    ndim = len(xi)
    out = []
    for i, x in enumerate(xi):
        axis = {0: 1, 1: 0}.get(i, i) if indexing == "xy" and ndim > 1 else i
        shape = [1] * ndim
        shape[axis] = -1
        out.append(_expr.reshape(_root(x), tuple(shape)))
    if not sparse:
        shape = np.broadcast_shapes(*(o.shape for o in out))
        out = [_expr.broadcast_to(o, shape) for o in out]
    if copy:
        out = [o.copy() if _expr.HOOKS.current_trace() is not None
               else _expr.as_root(o) for o in out]
    return out


UFUNCS = {"logaddexp": _logaddexp("e"), "logaddexp2": _logaddexp(2),
          "heaviside": heaviside,
          "deg2rad": _scaled(np.deg2rad, np.pi / 180.0),
          "radians": _scaled(np.radians, np.pi / 180.0),
          "rad2deg": _scaled(np.rad2deg, 180.0 / np.pi),
          "degrees": _scaled(np.degrees, 180.0 / np.pi),
          "fmax": _nan_ignoring("maximum"), "fmin": _nan_ignoring("minimum"),
          "signbit": signbit, "conjugate": _real_part,
          "float_power": float_power, "modf": modf, "divmod": divmod_}

FUNCTIONS = {"diff": diff, "roll": roll, "moveaxis": moveaxis, "ptp": ptp,
             "average": average, "nan_to_num": nan_to_num,
             "around": around, "round_": around, "round": around,
             "repeat": repeat, "tile": tile, "einsum": einsum,
             "tensordot": tensordot, "inner": inner, "vdot": vdot,
             "diagonal": diagonal, "sinc": sinc, "isclose": isclose,
             "real": _real_part, "meshgrid": meshgrid, "kron": kron,
             "select": select}
