"""NumPy's API on lazy expressions: ufuncs through __array_ufunc__ and
functions through __array_function__, each mapped by name to the Stride
function that builds the same lazy op. New ops slot in with one table row."""
import os
import sys

import numpy as np

from . import _expr


def _clip(a, a_min, a_max):
    # numpy.clip is minimum(maximum(a, a_min), a_max), NaN propagating.
    return _expr.minimum(_expr.maximum(a, a_min), a_max)


def _binary(kind):
    return lambda a, b: _expr._binary(kind, _expr._operands((a, b), kind))


# ufunc.__name__ -> a function of the ufunc's inputs returning an Expr.
UFUNCS = {
    "add": _binary("add"), "subtract": _binary("sub"),
    "multiply": _binary("mul"), "true_divide": _binary("div"),
    "divide": _binary("div"), "power": _binary("pow"),
    "maximum": _expr.maximum, "minimum": _expr.minimum,
    "less": _binary("lt"), "less_equal": _binary("le"),
    "greater": _binary("gt"), "greater_equal": _binary("ge"),
    "equal": _binary("eq"), "not_equal": _binary("ne"),
    "matmul": _expr.matmul, "negative": _expr.negative,
    "absolute": _expr.absolute, "exp": _expr.exp, "log": _expr.log,
    "sqrt": _expr.sqrt, "tanh": _expr.tanh, "clip": _clip,
    "positive": lambda x: x if isinstance(x, _expr.Expr) else _expr.lazy(np.asarray(x)),
}

# NumPy's elementwise op set, each ufunc under its own __name__
# (np.bitwise_not is np.invert, np.mod is np.remainder).
for _name in (*_expr._UNARY_RULES, *_expr._BINARY_RULES):
    UFUNCS.setdefault(getattr(np, _name).__name__, getattr(_expr, _name))
del _name

# numpy function __name__ -> a function taking the same positional arguments.
FUNCTIONS = {
    "where": _expr.where, "clip": _clip, "matmul": _expr.matmul,
    "maximum": _expr.maximum, "minimum": _expr.minimum,
}

_PACKAGE = os.path.dirname(os.path.abspath(__file__))
_NUMPY = os.path.dirname(os.path.abspath(np.__file__))


def user_line():
    """' (at file:line: source)' for the innermost frame outside Stride and
    NumPy: the user's line that called the unsupported function."""
    frame = sys._getframe(1)
    while frame is not None:
        path = os.path.abspath(frame.f_code.co_filename)
        if not (path.startswith(_PACKAGE) or path.startswith(_NUMPY)
                or frame.f_code.co_filename.startswith("<__array_function__")):
            import linecache
            source = linecache.getline(frame.f_code.co_filename,
                                       frame.f_lineno).strip()
            where = f"{frame.f_code.co_filename}:{frame.f_lineno}"
            return f" (at {where}: {source})" if source else f" (at {where})"
        frame = frame.f_back
    return ""


def _unsupported(name, why=""):
    return TypeError(f"numpy.{name} is not supported on lazy stride "
                     f"expressions{why}; supported: "
                     f"{', '.join(sorted(set(UFUNCS) | set(FUNCTIONS)))}"
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
    from ._trace import write_out
    return write_out(result, target, inputs)


def array_function(func, args, kwargs):
    fn = FUNCTIONS.get(func.__name__)
    if fn is None:
        raise _unsupported(func.__name__)
    if kwargs:
        raise _unsupported(func.__name__, f" with keyword arguments "
                                          f"{', '.join(sorted(kwargs))}")
    return fn(*args)
