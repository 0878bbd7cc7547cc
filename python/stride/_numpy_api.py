"""NumPy's API on lazy expressions: ufuncs through __array_ufunc__ and
functions through __array_function__, each mapped by name to the Stride
function that builds the same lazy op. New ops slot in with one table row."""
import numpy as np

from . import _expr, _table
from ._errors import user_line


def _binary(kind):
    return lambda a, b: _expr.binary(kind, _expr.operands((a, b), kind))


def _positive(x):
    return x if isinstance(x, _expr.Expr) else _expr.lazy(np.asarray(x))


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

# numpy function __name__ -> a function taking the same positional arguments.
FUNCTIONS = {
    "where": _expr.where, "clip": _expr.clip, "matmul": _expr.matmul,
    "maximum": UFUNCS["maximum"], "minimum": UFUNCS["minimum"],
    # Views (of inputs and of intermediates).
    "transpose": _expr.transpose, "swapaxes": _expr.swapaxes,
    "reshape": _expr.reshape, "squeeze": _expr.squeeze,
    "expand_dims": _expr.expand_dims, "flip": _expr.flip,
    "broadcast_to": _expr.broadcast_to,
}


def _no_out(name, out, where=True, initial=None):
    if out is not None or where is not True or initial is not None:
        given = [k for k, v in (("out", out is not None),
                                ("where", where is not True),
                                ("initial", initial is not None)) if v]
        raise _unsupported(name, f" with keyword arguments {', '.join(given)}")


# NumPy's reductions with their own signatures (np.max is amax): the
# arguments Stride takes (axis, keepdims, dtype) and out=, where= and
# initial= refused by name.
def _sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None,
         where=True):
    _no_out("sum", out, where, initial)
    return _expr.reduce("sum", a, axis, keepdims, dtype)


def _prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None,
          where=True):
    _no_out("prod", out, where, initial)
    return _expr.reduce("prod", a, axis, keepdims, dtype)


def _mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    _no_out("mean", out, where)
    return _expr.reduce("mean", a, axis, keepdims, dtype)


def _extreme(kind):
    def fn(a, axis=None, out=None, keepdims=False, initial=None, where=True):
        _no_out(kind, out, where, initial)
        return _expr.reduce(kind, a, axis, keepdims)
    return fn


def _argument(kind):
    def fn(a, axis=None, out=None, *, keepdims=False):
        _no_out(kind, out)
        return _expr.reduce(kind, a, axis, keepdims)
    return fn


def _test(kind):
    def fn(a, axis=None, out=None, keepdims=False, *, where=True):
        _no_out(kind, out, where)
        return _expr.reduce(kind, a, axis, keepdims)
    return fn


REDUCTIONS = {"sum": _sum, "prod": _prod, "mean": _mean,
              "amax": _extreme("amax"), "amin": _extreme("amin"),
              "argmax": _argument("argmax"), "argmin": _argument("argmin"),
              "any": _test("any"), "all": _test("all")}

def _made(array):
    """An array a creation function made: in a trace, memory the function
    may write (_trace.make_local); outside one, a lazy constant."""
    if _expr.HOOKS.current_trace() is not None:
        return _expr.HOOKS.make_local(_expr.Leaf(array))
    return _expr.lazy(array)


def _like(fill):
    def fn(prototype, dtype=None, order="K", subok=True, shape=None):
        p = _expr._operand(prototype)
        return _made(fill(p.shape if shape is None else shape,
                          p.dtype if dtype is None else dtype))
    return fn


def _full_like(prototype, fill_value, dtype=None, order="K", subok=True,
               shape=None):
    p = _expr._operand(prototype)
    return _made(np.full(p.shape if shape is None else shape, fill_value,
                         p.dtype if dtype is None else dtype))


def _copy(a, order="K", subok=False):
    return a.copy() if isinstance(a, _expr.Expr) else _expr.lazy(np.copy(a))


def _copyto(dst, src, casting="same_kind", where=True):
    """np.copyto into memory a trace tracks (an argument, an array the
    function made, a view of either): dst[...] = src after NumPy's casting
    check. Into a NumPy array it materializes src (refused in a trace)."""
    if where is not True:
        raise _unsupported("copyto", " with keyword argument where")
    if isinstance(dst, np.ndarray):
        return np.copyto(dst, np.asarray(src), casting=casting)
    s = _expr._operand(src)
    dtype = s.dtype if isinstance(s, _expr.Expr) else \
        np.result_type(s.value)
    if not np.can_cast(dtype, dst.dtype, casting):
        raise TypeError(f"Cannot cast array data from {dtype!r} to "
                        f"{dst.dtype!r} according to the rule {casting!r}")
    dst[...] = src


CREATION = {"copyto": _copyto, "zeros_like": _like(np.zeros), "ones_like": _like(np.ones),
            "empty_like": _like(np.zeros), "full_like": _full_like,
            "copy": _copy}


def _unsupported(name, why=""):
    return TypeError(f"numpy.{name} is not supported on lazy stride "
                     f"expressions{why}; supported: "
                     f"{', '.join(sorted(set(UFUNCS) | set(FUNCTIONS) | set(REDUCTIONS) | set(CREATION)))}"
                     + user_line())


def array_ufunc(ufunc, method, inputs, kwargs):
    name = ufunc.__name__
    if method != "__call__":
        raise _unsupported(f"{name}.{method}", " (only elementwise calls are)")
    fn = UFUNCS.get(name)
    if fn is None:
        raise _unsupported(name)
    out = kwargs.pop("out", None)
    if kwargs:
        raise _unsupported(name, f" with keyword arguments "
                                 f"{', '.join(sorted(kwargs))}")
    result = fn(*inputs)
    if out is None:
        return result
    (target,) = out  # NumPy passes out= as a tuple, one per ufunc output
    return _expr.HOOKS.write_out(result, target, inputs)


def array_function(func, args, kwargs):
    reduction = REDUCTIONS.get(func.__name__)
    if reduction is not None:
        return reduction(*args, **kwargs)
    fn = CREATION.get(func.__name__)
    if fn is not None:
        return fn(*args, **kwargs)
    fn = FUNCTIONS.get(func.__name__)
    if fn is None:
        raise _unsupported(func.__name__)
    if kwargs:
        raise _unsupported(func.__name__, f" with keyword arguments "
                                          f"{', '.join(sorted(kwargs))}")
    return fn(*args)


_expr.HOOKS.array_ufunc = array_ufunc
_expr.HOOKS.array_function = array_function
