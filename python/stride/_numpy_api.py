"""NumPy's API on lazy expressions: ufuncs through __array_ufunc__ and
functions through __array_function__, each mapped by name to the Stride
function that builds the same lazy op. New ops slot in with one table row."""
import operator

import numpy as np

from . import _expr, _host, _numpy_derived, _table
from ._errors import user_line


def _binary(kind):
    return lambda a, b: _expr.binary(kind, _expr.operands((a, b), kind))


def _positive(x):
    """np.positive (+x): a new array in NumPy, so inside @stride.jit a
    value (an elementwise copy), never the memory itself, which a later
    `y += 1` would write."""
    if not isinstance(x, _expr.Expr):
        return _expr.lazy(np.asarray(x))
    if _in_trace():
        op = _expr.operand(x)
        return _expr.Op("copy", (op,), (op.dtype,), op.dtype, op.shape)
    return x


# ufunc.__name__ -> a function of the ufunc's inputs returning an Expr: every
# ufunc of the op table (StrideOps.td), the comparisons (stride.cmp), matmul
# and positive.
UFUNCS = {name: _expr.TABLE_FUNCTIONS[name] for name in _table.UFUNC_OPS}
UFUNCS.update({
    "less": _binary("lt"), "less_equal": _binary("le"),
    "greater": _binary("gt"), "greater_equal": _binary("ge"),
    "equal": _binary("eq"), "not_equal": _binary("ne"),
    "matmul": _expr.matmul, "positive": _positive,
    # np.clip calls the clip ufunc on arrays; on lazy ones it is stride.clip.
    "clip": _expr.clip,
})
UFUNCS.update(_numpy_derived.UFUNCS)

def _dot(a, b, out=None):
    """np.dot: a product for a 0-d operand, else matmul's for 1-D and 2-D
    operands (NumPy's dot of N-D arrays contracts other dims: refused)."""
    if out is not None:
        raise _unsupported("dot", " with keyword argument out")
    x, y = _expr.operands((a, b), "dot")
    if not x.shape or not y.shape:
        return _expr.binary("mul", (x, y))
    if len(x.shape) > 2 or len(y.shape) > 2:
        raise TypeError("numpy.dot of arrays of more than 2 dims is not "
                        "supported on lazy stride expressions (use matmul, "
                        "whose batch rule differs)" + user_line())
    return _expr.matmul(a, b)


def _ravel(x, order="C"):
    return _expr.ravel(x, order)


def _cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None,
         aweights=None, *, dtype=None):
    """np.cov as NumPy 1.24 computes it: each variable's deviations from its
    mean, their product with its transpose, times 1 / (observations -
    ddof), squeezed. Float64 unless `dtype` says otherwise."""
    given = [k for k, v in (("y", y), ("fweights", fweights),
                            ("aweights", aweights)) if v is not None]
    if given:
        raise _unsupported("cov", f" with keyword arguments {', '.join(given)}")
    (x,) = _expr.operands((m,), "cov")
    if len(x.shape) > 2:
        raise ValueError("m has more than 2 dimensions" + user_line())
    want = np.result_type(x.dtype, np.float64) if dtype is None else np.dtype(dtype)
    if x.dtype != want:
        x = _expr.as_root(x).astype(want)
    if len(x.shape) < 2:
        x = _expr.reshape(x, (1, -1))
    if not rowvar and x.shape[0] != 1:
        x = _expr.transpose(x)
    if ddof is None:
        ddof = 0 if bias else 1
    fact = max(x.shape[1] - ddof, 0.0)
    d = x - _expr.reduce("mean", x, 1, True)
    c = _expr.matmul(d, _expr.transpose(d))
    return _expr.squeeze(c * np.true_divide(1, fact))


def _outer(a, b, out=None):
    """np.outer: the flattened operands' products, a[:, None] * b[None, :]."""
    if out is not None:
        raise _unsupported("outer", " with keyword argument out")
    return _expr.binary("mul", _expr.operands(
        (_expr.index(_ravel(a), (slice(None), None)),
         _expr.index(_ravel(b), (None, slice(None)))), "outer"))


def _ufunc_outer(fn, a, b):
    """ufunc.outer(a, b): fn of a with b.ndim unit dims appended and b."""
    x, y = _expr.operands((a, b), "outer")
    for _ in range(len(y.shape)):
        a = _expr.expand_dims(a, -1)
    return fn(a, b)


def _part(a):
    """A part of a join as a lazy array: lists ([0.0], [x[0], 1.0]) are
    arrays as np.array (the trace's, for lazy elements) makes them."""
    return a if isinstance(a, _expr.Expr) else _expr.as_root(
        np.array(a) if isinstance(a, (list, tuple)) else a)


def _concatenate(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    """np.concatenate of a few arrays: each is inserted into a new array of
    the promoted dtype (tensor.insert_slice), so the parts are computed into
    place by one kernel."""
    if out is not None:
        raise _unsupported("concatenate", " with keyword argument out")
    ops = [_part(a) for a in arrays]
    if not ops:
        raise ValueError("need at least one array to concatenate")
    ndim = len(ops[0].shape)
    if ndim == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    axis = np.core.numeric.normalize_axis_index(axis, ndim)
    for i, o in enumerate(ops):
        if len(o.shape) != ndim:
            raise ValueError(
                "all the input array dimensions except for the concatenation "
                "axis must match exactly, but along dimension 0, the array at "
                f"index 0 has {ndim} dimension(s) and the array at index {i} "
                f"has {len(o.shape)} dimension(s)")
        for d in range(ndim):
            if d != axis and o.shape[d] != ops[0].shape[d]:
                raise ValueError(
                    "all the input array dimensions except for the "
                    f"concatenation axis must match exactly, but along "
                    f"dimension {d}, the array at index 0 has size "
                    f"{ops[0].shape[d]} and the array at index {i} has size "
                    f"{o.shape[d]}")
    result = np.result_type(*[o.dtype for o in ops]) if dtype is None \
        else np.dtype(dtype)
    for o in ops:
        if not np.can_cast(o.dtype, result, casting):
            raise TypeError(f"Cannot cast array data from {o.dtype!r} to "
                            f"{result!r} according to the rule {casting!r}")
    shape = list(ops[0].shape)
    shape[axis] = sum(o.shape[axis] for o in ops)
    shape = tuple(shape)
    node, at = _expr.lazy(np.zeros(shape, result)), 0
    for o in ops:
        n = o.shape[axis]
        if n:
            if o.dtype != result:
                o = o.astype(result)
            offsets = tuple(at if d == axis else 0 for d in range(ndim))
            node = _expr.Op("insert", (node, o), (result, result), result,
                            shape, (offsets, o.shape, (1,) * ndim))
        at += n
    return node


def _stack(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    ops = [_part(a) for a in arrays]
    if not ops:
        raise ValueError("need at least one array to stack")
    if any(o.shape != ops[0].shape for o in ops):
        raise ValueError("all input arrays must have the same shape")
    axis = np.core.numeric.normalize_axis_index(axis, len(ops[0].shape) + 1)
    return _concatenate([_expr.expand_dims(o, axis) for o in ops], axis, out,
                        dtype, casting)


def _atleast(ndim):
    """np.atleast_1d/2d/3d, as NumPy writes them: a 0-d value is reshaped
    to (1,)*ndim; a 1-d value (N,) is x[None, :] in 2-d and x[None, :, None]
    in 3-d; a 2-d (M, N) is x[:, :, None] in 3-d (new axes of stride 0)."""
    full = slice(None)

    def grow(a):
        # NumPy returns the array itself or a view of it: inside @stride.jit
        # writes through the result reach the memory.
        o = _part(a)
        rank = len(o.shape)
        if rank >= ndim:
            return o
        if rank == 0:
            return _expr.reshape(o, (1,) * ndim)
        if rank == 1:
            return o[(None, full, None)[:ndim]]
        return o[full, full, None]

    def fn(*arys):
        res = [grow(a) for a in arys]
        return res[0] if len(res) == 1 else res
    return fn


def _stacking(name, ndim, axis_of):
    """np.hstack / vstack / dstack: concatenate after atleast_{ndim}d, along
    the axis NumPy picks for the first part."""
    grow = _atleast(ndim)

    def fn(tup, dtype=None, casting="same_kind"):
        if not isinstance(tup, (list, tuple)):
            raise TypeError(f"arrays to {name} must be passed as a sequence "
                            "type such as list or tuple" + user_line())
        parts = [grow(a) for a in tup]
        if not parts:
            raise ValueError("need at least one array to concatenate")
        return _concatenate(parts, axis_of(parts[0]), dtype=dtype,
                            casting=casting)
    return fn


def _column_stack(tup):
    """np.column_stack: 1-d (and 0-d) parts become columns (N, 1)."""
    parts = []
    for a in tup:
        o = _part(a)
        if len(o.shape) < 2:
            o = _expr.reshape(o, (int(np.prod(o.shape)), 1))
        parts.append(o)
    return _concatenate(parts, 1)


def _where(condition, *xy):
    if len(xy) != 2:
        raise TypeError("numpy.where with one argument (numpy.nonzero: the "
                        "indices of true elements) is not supported on lazy "
                        "stride expressions: its length depends on the "
                        "values; give np.where(condition, x, y)" + user_line())
    result = _expr.where(condition, *xy)
    if not result.shape and _in_trace():
        _expr.HOOKS.zero_d_array(result, None)  # NumPy's is an array
    return result


# numpy function __name__ -> a function taking the same positional arguments.
FUNCTIONS = {
    "where": _where,
    "clip": _expr.clip, "matmul": _expr.matmul,
    "maximum": UFUNCS["maximum"], "minimum": UFUNCS["minimum"],
    # Views (of inputs and of intermediates).
    "transpose": _expr.transpose, "swapaxes": _expr.swapaxes,
    "reshape": _expr.reshape, "squeeze": _expr.squeeze,
    "expand_dims": _expr.expand_dims, "flip": _expr.flip,
    "broadcast_to": _expr.broadcast_to,
    "ravel": _ravel,
}


def _no_out(name, out, where=True, initial=None):
    if out is not None or where is not True or initial is not None:
        given = [k for k, v in (("out", out is not None),
                                ("where", where is not True),
                                ("initial", initial is not None)) if v]
        raise _unsupported(user_name(name),
                           f" with keyword arguments {', '.join(given)}")


def _out_dtype(name, out):
    """out='s dtype, or NumPy's TypeError when out is not an array."""
    if not (hasattr(out, "dtype") and hasattr(out, "shape")):
        raise TypeError(f"numpy.{user_name(name)}: out= must be an array, "
                        f"not {type(out).__name__}")
    return np.dtype(out.dtype)


def _into(name, result, out, a):
    """A reduction's out=: NumPy casts the result into out unsafely (a
    float sum into an integer out truncates), and out must have the
    result's shape (write_out names both when it does not). Returns out,
    as NumPy does."""
    if out is None:
        return result
    dtype = _out_dtype(name, out)
    if result.dtype != dtype:
        result = result.astype(dtype)
    return _expr.HOOKS.write_out(result, out, (a,))


def _accumulator(a, dtype, out):
    """The dtype sum and prod accumulate in when out= is given and dtype=
    is not: NumPy's reduce resolves its loop from the accumulator (out)
    and the input together, so a float32 sum into a float64 out adds in
    float64, and a float64 sum into a float32 out still adds in float64."""
    if out is None or dtype is not None:
        return dtype
    x = _expr.as_root(a) if not isinstance(a, _expr.Expr) else a
    return np.promote_types(_out_dtype("sum", out), x.dtype)


def _where_mask(name, a, where):
    """where= of a reduction as a lazy bool array broadcast to a's shape
    (NumPy casts it to bool by the 'safe' rule: only booleans)."""
    x = _expr.as_root(a) if not isinstance(a, _expr.Expr) else a
    if isinstance(where, (list, tuple)):
        where = np.asarray(where)
    (m,) = _expr.operands((where,), name)
    if isinstance(m, _expr.Scalar):  # NumPy takes any scalar's truth
        m = _expr.lazy(np.asarray(where).astype(np.bool_))
    elif m.dtype != np.bool_:
        raise TypeError(f"Cannot cast array data from dtype('{m.dtype}') to "
                        "dtype('bool') according to the rule 'safe'")
    return x, _expr.broadcast_to(m, x.shape)


def _masked_operand(name, a, where, fill):
    """a with the elements where= leaves out replaced by `fill` (the
    reduction's identity), so that the plain reduction skips them."""
    if where is True:
        return a
    x, m = _where_mask(name, a, where)
    return _expr.where(m, x, _expr.lazy(np.asarray(fill, x.dtype)))


def _with_initial(kind, total, initial):
    """NumPy's initial= is one more operand of every sum or product, cast
    to the result's dtype."""
    if initial is None:
        return total
    init = _expr.lazy(np.asarray(initial, total.dtype))
    return total + init if kind == "sum" else total * init


# NumPy's reductions with their own signatures (np.max is amax): the
# arguments Stride takes (axis, keepdims, dtype, out, where, initial).
# where= replaces the elements it leaves out by the reduction's identity
# (or by initial=, which max and min need then, as in NumPy).
def _sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None,
         where=True):
    x = _masked_operand("sum", a, where, 0)
    total = _expr.reduce("sum", x, axis, keepdims, _accumulator(a, dtype, out))
    return _into("sum", _with_initial("sum", total, initial), out, a)


def _prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None,
          where=True):
    x = _masked_operand("prod", a, where, 1)
    total = _expr.reduce("prod", x, axis, keepdims,
                         _accumulator(a, dtype, out))
    return _into("prod", _with_initial("prod", total, initial), out, a)


def _mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    if where is not True:
        # NumPy's _mean: the sum under the mask over the mask's count, in
        # the sum's dtype (float64 for integers).
        x, m = _where_mask("mean", a, where)
        if dtype is None and x.dtype.kind in "biu":
            dtype = np.float64
        total = _expr.reduce("sum", _masked_operand("mean", x, m, 0), axis,
                             keepdims, _accumulator(x, dtype, out))
        count = _expr.reduce("sum", m.astype(np.int64), axis, keepdims)
        return _into("mean", (total / count).astype(total.dtype), out, a)
    if out is None:
        return _expr.reduce("mean", a, axis, keepdims, dtype)
    # NumPy's _mean with out=: the sum (integers in float64) goes into
    # out, which is then divided by the count in place.
    x = _expr.as_root(a) if not isinstance(a, _expr.Expr) else a
    if dtype is None and x.dtype.kind in "biu":
        dtype = np.float64
    total = _expr.reduce("sum", x, axis, keepdims, _accumulator(x, dtype, out))
    total = total.astype(_out_dtype("mean", out))
    return _into("mean", total / _count(x, axis), out, a)


def _count(x, axis):
    """The number of elements a reduction of x over axis combines."""
    axes = range(len(x.shape)) if axis is None else \
        np.core.numeric.normalize_axis_tuple(axis, len(x.shape))
    return int(np.prod([x.shape[k] for k in axes]))


def _extreme(kind):
    def fn(a, axis=None, out=None, keepdims=False, initial=None, where=True):
        if where is not True:
            if initial is None:
                raise ValueError(
                    f"reduction operation '{_NUMPY_UFUNC[kind]}' does not "
                    "have an identity, so to use a where mask one has to "
                    "specify 'initial'")
            a = _masked_operand(kind, a, where, initial)
        if initial is not None:
            # NumPy's initial= is one more element of every reduction.
            x = _expr.as_root(a) if not isinstance(a, _expr.Expr) else a
            init = _expr.lazy(np.asarray(initial, x.dtype))
            if int(np.prod(x.shape)) == 0:
                shape = np.amax(np.zeros(x.shape, np.int8), axis,
                                keepdims=keepdims, initial=0).shape
                result = _expr.broadcast_to(init, shape).copy() \
                    if _expr.HOOKS.current_trace() is not None else \
                    _expr.broadcast_to(init, shape)
                return _into(kind, result, out, a)
            both = _expr.TABLE_FUNCTIONS["maximum" if kind == "amax"
                                         else "minimum"]
            return _into(kind, both(_expr.reduce(kind, x, axis, keepdims),
                                    init), out, a)
        return _into(kind, _expr.reduce(kind, a, axis, keepdims), out, a)
    return fn


def _argument(kind):
    def fn(a, axis=None, out=None, *, keepdims=False):
        return _into(kind, _expr.reduce(kind, a, axis, keepdims), out, a)
    return fn


def _test(kind):
    def fn(a, axis=None, out=None, keepdims=False, *, where=True):
        x = _masked_operand(kind, a, where, 0 if kind == "any" else 1)
        return _into(kind, _expr.reduce(kind, x, axis, keepdims), out, a)
    return fn


_NUMPY_UFUNC = {"amax": "maximum", "amin": "minimum"}


def _var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *,
         where=True):
    """np.var as NumPy computes it: the mean of the squared deviations from
    the mean (kept dims), divided by max(n - ddof, 0); float64 for
    integers and bools. out= gets the result cast to its dtype."""
    _no_out("var", None, where)
    x = _expr.as_root(a) if not isinstance(a, _expr.Expr) else a
    if x.dtype.kind in "biu" and dtype is None:
        x = x.astype(np.float64)  # NumPy's var of integers is float64
    mean = _expr.reduce("mean", x, axis, True, dtype)
    d = x - mean
    n = _count(x, axis)
    total = _expr.reduce("sum", d * d, axis, keepdims, dtype)  # in dtype=
    result = total / max(n - ddof, 0)
    # NumPy divides in the sum's dtype (ret.dtype.type(ret / n) of a 0-d
    # sum, true_divide(..., out=ret) of an array).
    result = result if result.dtype == total.dtype else result.astype(total.dtype)
    return _into("var", result, out, a)


def _std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *,
         where=True):
    _no_out("std", None, where)
    root = _expr.TABLE_FUNCTIONS["sqrt"](_var(a, axis, dtype, None, ddof,
                                              keepdims))
    return _into("std", root, out, a)


def _count_nonzero(a, axis=None, *, keepdims=False):
    """np.count_nonzero: the int64 sum of a != 0."""
    x = _expr.as_root(a) if not isinstance(a, _expr.Expr) else a
    return _expr.reduce("sum", x != 0, axis, keepdims)


def _nan_filled(a, fill):
    """NumPy's _replace_nan: (a with NaN replaced by fill, the NaN mask),
    or (a, None) for dtypes without NaN (integers and bools), whose nan-
    reductions are the plain ones."""
    x = _expr.as_root(a) if not isinstance(a, _expr.Expr) else a
    if x.dtype.kind != "f":
        return x, None
    mask = _expr.TABLE_FUNCTIONS["isnan"](x)
    return _expr.where(mask, _expr.lazy(np.asarray(fill, x.dtype)), x), mask


def _divide_by_count(total, count):
    """NumPy's _divide_by_count: total / count in float64 (true_divide of
    a float and an intp), cast back to total's dtype."""
    wide = total.astype(np.float64) if total.dtype != np.float64 else total
    result = wide / count.astype(np.float64)
    return result if result.dtype == total.dtype else result.astype(total.dtype)


def _nan_reduction(name, kind, fill, plain):
    """np.nansum and np.nanprod: the plain reduction of a with NaN
    replaced by the identity, fused into one kernel (NumPy copies a and
    masks it first)."""
    def fn(a, axis=None, dtype=None, out=None, keepdims=False, initial=None,
           where=True):
        x, mask = _nan_filled(a, fill)
        if mask is None:
            return plain(a, axis, dtype, out, keepdims, initial, where)
        _no_out(name, None, where, initial)
        return _into(name, _expr.reduce(kind, x, axis, keepdims,
                                        _accumulator(x, dtype, out)), out, a)
    return fn


def _nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *,
             where=True):
    """np.nanmean: the sum of the non-NaN elements over their count, divided
    as NumPy divides (in float64, cast back to the sum's dtype); an all-NaN
    slice gives NaN (0 / 0), without NumPy's RuntimeWarning."""
    x, mask = _nan_filled(a, 0)
    if mask is None:
        return _mean(a, axis, dtype, out, keepdims, where=where)
    _no_out("nanmean", out, where)
    count = _expr.reduce("sum", ~mask, axis, keepdims, np.intp)
    return _divide_by_count(_expr.reduce("sum", x, axis, keepdims, dtype),
                            count)


def _nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *,
            where=True):
    """np.nanvar as NumPy computes it: the non-NaN mean (kept dims), the
    squared deviations with NaN's set to 0, their sum over max(count -
    ddof, 0), and NaN where count - ddof <= 0."""
    x, mask = _nan_filled(a, 0)
    if mask is None:
        return _var(a, axis, dtype, out, ddof, keepdims, where=where)
    _no_out("nanvar", out, where)
    count = _expr.reduce("sum", ~mask, axis, True, np.intp)
    mean = _divide_by_count(_expr.reduce("sum", x, axis, True, dtype), count)
    d = x - mean
    if d.dtype != x.dtype:  # NumPy subtracts into a copy of a (unsafe cast)
        d = d.astype(x.dtype)
    d = _expr.where(mask, _expr.lazy(np.asarray(0, x.dtype)), d)
    total = _expr.reduce("sum", d * d, axis, keepdims, dtype)
    if not keepdims:  # the kept unit dims of the count go (no second sum)
        count = _expr.squeeze(count, tuple(range(len(x.shape))) if axis is None
                              else axis)
    dof = count - ddof
    result = _divide_by_count(total, dof)
    return _expr.where(dof <= 0, _expr.lazy(np.asarray(np.nan, result.dtype)),
                       result)


def _nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *,
            where=True):
    x = _expr.as_root(a) if not isinstance(a, _expr.Expr) else a
    if x.dtype.kind != "f":  # no NaN: np.std, with its out=
        return _std(a, axis, dtype, out, ddof, keepdims, where=where)
    return _expr.TABLE_FUNCTIONS["sqrt"](_nanvar(a, axis, dtype, out, ddof,
                                                 keepdims, where=where))


REDUCTIONS = {"var": _var, "std": _std, "count_nonzero": _count_nonzero,
              "nansum": _nan_reduction("nansum", "sum", 0, _sum),
              "nanprod": _nan_reduction("nanprod", "prod", 1, _prod),
              "nanmean": _nanmean, "nanvar": _nanvar, "nanstd": _nanstd,
              "sum": _sum, "prod": _prod, "mean": _mean,
              "amax": _extreme("amax"), "amin": _extreme("amin"),
              "argmax": _argument("argmax"), "argmin": _argument("argmin"),
              "any": _test("any"), "all": _test("all")}

def _made(array):
    """An array a creation function made: in a trace, memory the function
    may write (_trace.make_local); outside one, a lazy constant."""
    if _expr.HOOKS.current_trace() is not None:
        return _expr.HOOKS.make_local(_expr.Leaf(array), fresh=True)
    return _expr.lazy(array)


def _like(fill):
    def fn(prototype, dtype=None, order="K", subok=True, shape=None):
        p = _expr.operand(prototype)
        return _made(fill(p.shape if shape is None else shape,
                          p.dtype if dtype is None else dtype))
    return fn


def _full_like(prototype, fill_value, dtype=None, order="K", subok=True,
               shape=None):
    p = _expr.operand(prototype)
    return _made(np.full(p.shape if shape is None else shape, fill_value,
                         p.dtype if dtype is None else dtype))


def _copy(a, order="K", subok=False):
    return a.copy(order) if isinstance(a, _expr.Expr) else \
        _expr.lazy(np.copy(a, order))


def _copyto(dst, src, casting="same_kind", where=True):
    """np.copyto into memory a trace tracks (an argument, an array the
    function made, a view of either): dst[...] = src after NumPy's casting
    check. Into a NumPy array it materializes src (refused in a trace)."""
    if isinstance(dst, np.ndarray):
        return np.copyto(dst, np.asarray(src), casting=casting, where=where)
    s = _expr.operand(src)
    dtype = s.dtype if isinstance(s, _expr.Expr) else \
        np.result_type(s.value)
    if not np.can_cast(dtype, dst.dtype, casting):
        raise TypeError(f"Cannot cast array data from {dtype!r} to "
                        f"{dst.dtype!r} according to the rule {casting!r}")
    if where is not True:
        # dst keeps its elements where the mask is false.
        _, mask = _where_mask("copyto", dst, where)
        src = _expr.where(mask, src, dst)
    dst[...] = src


def _putmask(a, mask, values):
    """np.putmask: a[...] = where(mask, values, a), for values of a's size
    or one value (NumPy repeats a shorter values array along a's flat
    order, which is refused here)."""
    x = _expr.operand(a)
    (m, v) = _expr.operands((mask, values), "putmask")
    if m.shape != x.shape and int(np.prod(m.shape)) != int(np.prod(x.shape)):
        raise ValueError("putmask: mask and data must be the same size")
    v_size = 1 if isinstance(v, _expr.Scalar) else int(np.prod(v.shape))
    if v_size not in (1, int(np.prod(x.shape))):
        raise _unsupported("putmask", " with values repeated along the "
                                      "array (values of another size)")
    m = _expr.reshape(m, x.shape).astype(np.bool_)
    v = values if isinstance(v, _expr.Scalar) else \
        _expr.reshape(v, x.shape if v_size > 1 else ())
    a[...] = _expr.where(m, v, a)


def _fill_diagonal(a, val, wrap=False):
    """np.fill_diagonal: NumPy's flat positions 0, n + 1, 2 (n + 1), ...
    (a mask made at trace time from the constant shape), set to val; a
    constant val array is laid along them as NumPy repeats it."""
    x = _expr.operand(a)
    if len(x.shape) < 2:
        raise ValueError("array must be at least 2-d")
    if len(x.shape) == 2:
        step = x.shape[1] + 1
        end = None if wrap else x.shape[1] * x.shape[1]
    else:
        if len(set(x.shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        step, end = 1 + int(np.cumprod(x.shape[:-1]).sum()), None
    mask = np.zeros(x.shape, np.bool_)
    mask.flat[:end:step] = True
    v = _expr.operand(val)
    if isinstance(v, _expr.Expr) and int(np.prod(v.shape)) != 1:
        raise _unsupported("fill_diagonal", " with a computed array of values "
                                            "(give one value or a constant "
                                            "array)")
    if isinstance(val, (list, tuple, np.ndarray)) and np.size(val) != 1:
        laid = np.zeros(x.shape, np.asarray(val).dtype)
        laid.flat[:end:step] = np.asarray(val)
        v = _expr.lazy(laid)
    elif isinstance(v, _expr.Expr):
        v = _expr.reshape(v, ())
    else:
        v = val
    a[...] = _expr.where(mask, v, a)


def _triangle(upper):
    """np.triu / np.tril: where(mask, m, 0) with NumPy's mask of the last
    two dims, made at trace time (shapes are constants)."""
    def fn(m, k=0):
        x = _expr.as_root(m) if not isinstance(m, _expr.Expr) else m
        if len(x.shape) < 2:
            raise TypeError(f"numpy.{'triu' if upper else 'tril'} of a lazy "
                            "array of fewer than 2 dims is not supported"
                            + user_line())
        ones = np.ones(x.shape[-2:], bool)
        mask = np.triu(ones, k) if upper else np.tril(ones, k)
        return _expr.where(mask, x, np.zeros((), x.dtype))
    return fn


def _diag(v, k=0):
    """np.diag: a 1-D v on the k-th diagonal of a square matrix, or the
    k-th diagonal of a 2-D v (a strided slice of its flattening)."""
    x = _expr.as_root(v) if not isinstance(v, _expr.Expr) else v
    if len(x.shape) == 1:
        # Row i holds v[i] at column i + k (k >= 0); column j holds v[j] at
        # row j - k (k < 0): v padded to n, broadcast along the other dim.
        n = x.shape[0] + abs(k)
        padded = x if k == 0 else _concatenate(
            [x, np.zeros(abs(k), x.dtype)], axis=0)
        line = _expr.index(padded, (slice(None), None) if k >= 0
                           else (None, slice(None)))
        return _expr.where(np.eye(n, k=k, dtype=bool), line,
                           np.zeros((), x.dtype))
    if len(x.shape) != 2:
        raise ValueError("Input must be 1- or 2-d.")
    return _numpy_derived.diagonal2d(x, k)


def _trace_of(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    if out is not None or (axis1, axis2) != (0, 1):
        raise _unsupported("trace", " with out= or other axes")
    return _expr.reduce("sum", _diag(a, offset), None, False, dtype)


# Functions called with NumPy's keyword arguments (creation, copies,
# products, joins).
def _size(a, axis=None):
    shape = _expr.operand(a).shape
    return int(np.prod(shape)) if axis is None else shape[axis]


def _clip(a, a_min, a_max, out=None):
    """np.clip, with out= written as the clip ufunc's (NumPy's
    np.clip(x, lo, hi, out=x) clamps in place)."""
    result = _expr.clip(a, a_min, a_max)
    if out is None:
        return result
    return _write_cast("clip", result, out, (a, a_min, a_max))


KEYWORD_FUNCTIONS = {"shape": lambda a: _expr.operand(a).shape,
            "reshape": _expr.reshape, "ravel": _ravel,
            "ndim": lambda a: len(_expr.operand(a).shape), "size": _size,
            "triu": _triangle(True), "tril": _triangle(False),
            "diag": _diag, "trace": _trace_of, "dot": _dot, "outer": _outer, "concatenate": _concatenate,
            "stack": _stack, "hstack": _stacking(
                "hstack", 1, lambda p: 0 if len(p.shape) == 1 else 1),
            "vstack": _stacking("vstack", 2, lambda p: 0),
            "dstack": _stacking("dstack", 3, lambda p: 2),
            "column_stack": _column_stack, "atleast_1d": _atleast(1),
            "atleast_2d": _atleast(2), "atleast_3d": _atleast(3),
            "copyto": _copyto, "putmask": _putmask,
            "fill_diagonal": _fill_diagonal, "zeros_like": _like(np.zeros), "ones_like": _like(np.ones),
            "empty_like": _like(np.zeros), "full_like": _full_like,
            "copy": _copy, "cov": _cov, "clip": _clip}
KEYWORD_FUNCTIONS.update(_numpy_derived.FUNCTIONS)


# NumPy functions under another name than the one users write (np.max is
# numpy.amax): the names a message may use, if the user's line has them.
_ALIASES = {"amax": ("max",), "amin": ("min",), "around": ("round", "round_"),
            "absolute": ("abs",), "concatenate": ("concat",)}


def qualified(func, name=None):
    """numpy.linalg.cholesky, numpy.max: the name the user wrote, as near
    as the function and the user's source line tell."""
    name = name or func.__name__
    module = getattr(func, "__module__", None) or "numpy"
    if not module.startswith("numpy"):
        module = "numpy"
    return f"{module}.{user_name(name)}"


def user_name(name):
    """NumPy's name `name` (amax), or the alias the user's line calls it
    by (max)."""
    line = user_line()
    for alias in _ALIASES.get(name, ()):
        if f"{alias}(" in line and f"{name}(" not in line:
            return alias
    return name


def _supported():
    return ", ".join(sorted(set(UFUNCS) | set(FUNCTIONS) | set(REDUCTIONS)
                            | set(KEYWORD_FUNCTIONS)))


def _unsupported(name, why=""):
    return TypeError(f"{name if '.' in name else 'numpy.' + name} is not "
                     f"supported on lazy stride expressions{why}; supported: "
                     f"{_supported()}" + user_line())


def _in_trace():
    return _expr.HOOKS.current_trace() is not None


def _host_method(name, x, args, kwargs):
    """x.name(*args, **kwargs) of an ndarray method with no op, inside a
    trace: NumPy's method run between kernels."""
    hosted = _host_call(getattr(np.ndarray, name), f"ndarray.{name}",
                        (x,) + tuple(args), kwargs)
    if hosted is None:
        raise TypeError(f"ndarray.{name} is not supported on lazy stride "
                        f"expressions" + user_line())
    return hosted


_expr.HOOKS.host_method = _host_method
_expr.HOOKS.host_methods = _host.METHODS


def _host_call(func, name, args, kwargs):
    """Inside a trace, NumPy's own `func` run between kernels (_host), or
    None where it cannot be (in a fori_loop body, with out=)."""
    trace = _expr.HOOKS.current_trace()
    out = kwargs.get("out")
    if out is not None and isinstance(out, (np.ndarray, _expr.Expr)):
        # NumPy's result written into out= (np.cumsum(x, out=y)), cast to
        # its dtype as a ufunc's out= is.
        rest = {k: v for k, v in kwargs.items() if k != "out"}
        result = _host.call(func, name, args, rest, bool(trace.loops))
        if result is None or isinstance(result, tuple):
            return None
        return _write_cast(name, result, out, args)
    return _host.call(func, name, args, kwargs, bool(trace.loops))


class _WritesFirst:
    """NumPy's `func` that writes its first argument in place (np.put,
    np.place, np.put_along_axis, ufunc.at), run between kernels on a copy
    of that argument's current contents: the copy it returns becomes the
    memory's new contents."""

    def __init__(self, func):
        self.func = func
        self.__name__ = getattr(func, "__name__", "at")

    def __call__(self, target, *args, **kwargs):
        result = np.array(target, copy=True)
        self.func(result, *args, **kwargs)
        return result


_WRITES_FIRST = {"put": np.put, "place": np.place,
                 "put_along_axis": np.put_along_axis}


def _write_first(func, name, args, kwargs):
    """func(target, ...) writing `target` (memory of the trace) as NumPy
    does; False where NumPy cannot run between kernels here."""
    new = _host_call(_WritesFirst(func), name, args, kwargs)
    if new is None:
        return False
    args[0][...] = new
    return True


def _host_index(x, key):
    """x[key] with integer index arrays inside a trace: NumPy's advanced
    indexing (a copy) run between kernels."""
    hosted = _host_call(operator.getitem, "indexing with an integer array",
                        (x, key), {})
    if hosted is None:
        raise TypeError("only basic indexing (integers, slices, ..., None) "
                        "and boolean masks of a lazy stride expression are "
                        "supported here (not inside a stride.fori_loop "
                        "body)" + user_line())
    return hosted


_expr.HOOKS.host_index = _host_index


def _concrete(x):
    """x with every lazy expression materialized (NumPy arrays), through
    tuples and lists, for running NumPy's own function."""
    if isinstance(x, _expr.Expr):
        return np.asarray(x)
    if isinstance(x, (tuple, list)):
        return type(x)(_concrete(v) for v in x)
    return x


def _numpy_fallback(call, args, kwargs):
    """Outside a trace, a NumPy function Stride does not build lazily gets
    NumPy's answer: it runs on the materialized values."""
    return call(*_concrete(args), **{k: _concrete(v) for k, v in kwargs.items()})


def array_ufunc(ufunc, method, inputs, kwargs):
    name = ufunc.__name__
    fn = UFUNCS.get(name)
    if fn is not None and method == "__call__" and "where" in kwargs and \
            set(kwargs) <= {"out", "where"} and ufunc.nout == 1:
        return _masked_ufunc(name, fn, inputs, kwargs)
    lazy_form = fn is not None and (
        (method == "__call__" and set(kwargs) <= {"out"}) or
        (method == "outer" and not kwargs and len(inputs) == 2))
    if method == "at" and _in_trace() and \
            _write_first(ufunc.at, f"numpy.{name}.at", inputs, kwargs):
        return None
    if method == "reduce" and _in_trace() or (
            method == "reduce" and any(isinstance(i, _expr.Expr)
                                       for i in inputs)):
        reduced = _numpy_derived.ufunc_reduce(name, *inputs, **kwargs)
        if reduced is not None:
            return reduced
    if not lazy_form:
        if not _in_trace() and not any(isinstance(o, _expr.Expr) for o in
                                       _flatten(kwargs.get("out", ()))):
            return _numpy_fallback(getattr(ufunc, method), inputs, kwargs)
        if method in ("__call__", "accumulate", "reduceat", "reduce"):
            # NumPy's own ufunc between kernels (np.gcd, dtype=, where=,
            # np.add.accumulate), where it can run there.
            hosted = _host_call(getattr(ufunc, method), f"numpy.{name}" + (
                "" if method == "__call__" else f".{method}"), inputs, kwargs)
            if hosted is not None:
                return hosted
        if fn is None:
            raise _unsupported(f"numpy.{name}" if method == "__call__"
                               else f"numpy.{name}.{method}")
        if method not in ("__call__", "outer"):
            raise _unsupported(f"numpy.{name}.{method}", " (only elementwise "
                               "calls and outer are)")
        given = sorted(set(kwargs) - {"out"}) or ["out"]
        raise _unsupported(f"numpy.{name}" + ("" if method == "__call__" else
                                              f".{method}"),
                           f" with keyword arguments {', '.join(given)}")
    if method == "outer":
        return _ufunc_outer(fn, *inputs)
    out = kwargs.pop("out", None)
    result = fn(*inputs)
    if out is None:
        return result
    # NumPy passes out= as a tuple, one per ufunc output (None: a new
    # array); divmod has two.
    results = result if isinstance(result, tuple) else (result,)
    if len(out) != len(results):
        raise ValueError(f"numpy.{name}: out= needs {len(results)} arrays, "
                         f"got {len(out)}" + user_line())
    written = tuple(r if t is None else _write_cast(name, r, t, inputs)
                    for r, t in zip(results, out))
    return written if isinstance(result, tuple) else written[0]


def _masked_ufunc(name, fn, inputs, kwargs):
    """ufunc(..., out=o, where=m): o keeps its elements where m is false
    (np.divide(a, b, out=np.zeros_like(a), where=b != 0)); without out=,
    where NumPy leaves them uninitialized, they are 0."""
    where = kwargs["where"]
    result = fn(*inputs)
    if where is True:
        mask = None
    else:
        _, mask = _where_mask(f"numpy.{name}", result, where)
    out = kwargs.get("out")
    target = out[0] if isinstance(out, tuple) else out
    if target is None:
        if mask is None:
            return result
        return _expr.where(mask, result, _expr.lazy(np.zeros((),
                                                             result.dtype)))
    if mask is not None:
        result = _expr.where(mask, result, target)
    return _write_cast(name, result, target, inputs)


def _write_cast(name, result, target, inputs):
    """One ufunc output written into its out= target."""
    if (isinstance(target, (np.ndarray, _expr.Expr))
            and result.dtype != target.dtype):
        # NumPy picks the loop from the inputs and casts its result into
        # out under casting='same_kind' (int32 + int32 into float64 adds
        # in int32).
        if not np.can_cast(result.dtype, target.dtype, "same_kind"):
            raise TypeError(f"Cannot cast ufunc '{name}' output from "
                            f"{result.dtype!r} to {np.dtype(target.dtype)!r} "
                            "with casting rule 'same_kind'" + user_line())
        result = result.astype(target.dtype)
    return _expr.HOOKS.write_out(result, target, inputs)


def _flatten(x):
    return x if isinstance(x, (tuple, list)) else (x,)


def _norm(x, ord=None, axis=None, keepdims=False):
    """np.linalg.norm as NumPy 1.24 computes it: vector norms (ord None or
    2, 1, inf, -inf, 0 and other powers) over one axis or a 1-D array,
    matrix norms (None or 'fro', 1, -1, inf, -inf) over two axes or a 2-D
    array; the spectral and nuclear norms (2, -2, 'nuc' of a matrix) need
    an SVD and are refused."""
    v = _expr.as_root(x) if not isinstance(x, _expr.Expr) else x
    if v.dtype.kind != "f":
        v = v.astype(np.float64)
    nd = len(v.shape)
    if axis is None:
        if (nd == 1 and not keepdims and (ord is None or ord == 2)
                and isinstance(v, _expr.Leaf)):
            # NumPy's sqrt(x.dot(x)) of an array: a dot product, summed in
            # vector partial sums as BLAS sums it, at twice the speed of a
            # compensated sum (1M f64: 0.09 against 0.18 ms). An
            # expression keeps the fused sum, which reads its operands
            # without storing it (norm(v - w): 0.23 against 0.73 ms).
            return _expr.TABLE_FUNCTIONS["sqrt"](_expr.matmul(v, v))
        if ord is None:  # the 2-norm of the flattened array
            return _expr.TABLE_FUNCTIONS["sqrt"](
                _expr.reduce("sum", v * v, None, keepdims))
        axes = tuple(range(nd))
    elif isinstance(axis, (int, np.integer)):
        axes = (int(axis),)
    else:
        axes = tuple(axis)
    axes = np.core.numeric.normalize_axis_tuple(axes, nd)
    f = _expr.TABLE_FUNCTIONS
    a = f["absolute"](v)
    inf = float("inf")
    if len(axes) == 1:
        if ord is None or ord == 2:
            return f["sqrt"](_expr.reduce("sum", v * v, axes, keepdims))
        if ord == inf:
            return _expr.reduce("amax", a, axes, keepdims)
        if ord == -inf:
            return _expr.reduce("amin", a, axes, keepdims)
        if ord == 0:
            return _expr.reduce("sum", _expr.binary("ne", (
                v, _expr.lazy(np.zeros((), v.dtype)))).astype(v.dtype),
                axes, keepdims)
        if ord == 1:
            return _expr.reduce("sum", a, axes, keepdims)
        if isinstance(ord, str):
            raise ValueError(f"Invalid norm order '{ord}' for vectors")
        p = _expr.lazy(np.asarray(ord, v.dtype))
        total = _expr.reduce("sum", f["power"](a, p), axes, keepdims)
        return f["power"](total, _expr.lazy(np.asarray(1.0 / ord, v.dtype)))
    if len(axes) != 2:
        raise ValueError("Improper number of dimensions to norm.")
    row, col = axes
    if ord is None or ord == "fro":
        return f["sqrt"](_expr.reduce("sum", v * v, axes, keepdims))
    if ord in (1, -1, inf, -inf):
        # 1: the largest column sum of |v|; inf: the largest row sum.
        summed, kept = (row, col) if ord in (1, -1) else (col, row)
        sums = _expr.reduce("sum", a, (summed,), True)
        # Over both axes (sums has one element along `summed`), so that
        # the 2-D norm is a computed 0-d value: NumPy's scalar.
        return _expr.reduce("amax" if ord in (1, inf) else "amin", sums,
                            axes, keepdims)
    raise _unsupported("numpy.linalg.norm",
                       f" with ord={ord!r} of a matrix (an SVD)")


LINALG = {"norm": _norm}


def array_function(func, args, kwargs):
    name = func.__name__
    module = getattr(func, "__module__", "")
    numpy_namespace = module == "numpy"
    fn = LINALG.get(name) if module == "numpy.linalg" else None
    if numpy_namespace and name in _WRITES_FIRST and _in_trace() and \
            _write_first(_WRITES_FIRST[name], qualified(func), args, kwargs):
        return None
    if numpy_namespace:  # np.linalg.norm is not np.norm
        fn = REDUCTIONS.get(name) or KEYWORD_FUNCTIONS.get(name)
        if fn is None and (not kwargs) and name in FUNCTIONS:
            fn = FUNCTIONS[name]
    if fn is not None:
        try:
            return fn(*args, **kwargs)
        except TypeError as refusal:
            # A form Stride refuses (einsum's '...', where=) inside a trace:
            # NumPy's own between kernels, where it can run there.
            if not _in_trace() or \
                    "on lazy stride expressions" not in str(refusal):
                raise
            hosted = _host_call(func, qualified(func), args, kwargs)
            if hosted is None:
                raise
            return hosted
    if not _in_trace():
        return _numpy_fallback(func, args, kwargs)
    hosted = _host_call(func, qualified(func), args, kwargs)
    if hosted is not None:
        return hosted
    if numpy_namespace and name in FUNCTIONS:
        raise _unsupported(qualified(func), f" with keyword arguments "
                                            f"{', '.join(sorted(kwargs))}")
    raise _unsupported(qualified(func), " (its result's length depends on "
                       "the values)" if _host.value_shaped(name) else "")


_expr.HOOKS.array_ufunc = array_ufunc
_expr.HOOKS.array_function = array_function
