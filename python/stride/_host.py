"""NumPy functions Stride has no op for, inside @stride.jit: the trace
hands them to NumPy between kernels (np.cumsum, np.sort, np.linalg.solve,
np.interp, ...). The kernel before computes their array arguments, NumPy
runs on those values at each call, and the kernel after reads NumPy's
result as an input; everything around them stays compiled and fused.

The result's shape and dtype are part of the plan: the trace asks NumPy
for them on stand-in values of the arguments' shapes and dtypes, and each
call checks that NumPy's real result has them (np.unique, whose length
depends on the values, is refused there rather than read wrongly)."""
import numpy as np

from . import _dtypes, _expr
from ._errors import user_line

# Methods of ndarray that have no op and do not write their array: x.m(...)
# is numpy's function of the same name.
METHODS = frozenset({"cumsum", "cumprod", "argsort", "take", "searchsorted",
                     "argpartition"})

# Functions whose result's length depends on the values: a plan cannot
# hold them, so they stay refused by name (np.where with one argument is
# np.nonzero).
VALUE_SHAPED = frozenset({
    "nonzero", "where", "argwhere", "flatnonzero", "unique", "extract",
    "compress", "bincount", "trim_zeros", "setdiff1d", "intersect1d",
    "union1d", "setxor1d"})


def value_shaped(name):
    """Whether `name` (numpy.unique, ndarray.nonzero) is one of those."""
    return name.rsplit(".", 1)[-1] in VALUE_SHAPED


def scatter(x, key, value):
    """x with x[key] = value (NumPy's assignment through index arrays), as
    a new array: its contents replace x's."""
    y = np.array(x, copy=True)
    y[key] = value
    return y


class HostCall:
    """The NumPy call a "host" node stands for: `fn` applied to the
    arguments `template` lists (with `_Slot(i)` where the node's operand i
    goes), result `index` of a tuple result (None: the result itself)."""
    __slots__ = ("fn", "name", "args", "kwargs", "index", "line")

    def __init__(self, fn, name, args, kwargs, index, line):
        self.fn, self.name, self.args, self.kwargs = fn, name, args, kwargs
        self.index, self.line = index, line

    def raw(self, values):
        """NumPy's own result for the operands' values."""
        return self.fn(*_fill(self.args, values),
                       **{k: _fill(v, values) for k, v in self.kwargs.items()})

    def __call__(self, *values):
        result = self.raw(values)
        if self.index is not None:
            result = result[self.index]
        return np.asarray(result)

    def __repr__(self):
        return self.name + ("" if self.index is None
                            else f" (result {self.index})")


class _Slot:
    __slots__ = ("i",)

    def __init__(self, i):
        self.i = i


def _fill(x, values):
    if type(x) is _Slot:
        return values[x.i]
    if isinstance(x, (list, tuple)) and _holds(x, _Slot):
        return type(x)(_fill(v, values) for v in x)
    return x


def _holds(x, kind):
    """Whether list or tuple `x` holds a `kind` at any depth."""
    return any(isinstance(v, kind) or (isinstance(v, (list, tuple))
                                       and _holds(v, kind)) for v in x)


def _lift(x, operands):
    """x with each lazy array (in lists and tuples too, at any depth:
    np.lexsort((a, b))) replaced by a slot for a new operand."""
    if isinstance(x, _expr.Expr):
        operands.append(x)
        return _Slot(len(operands) - 1)
    if isinstance(x, (list, tuple)) and _holds(x, _expr.Expr):
        return type(x)(_lift(v, operands) for v in x)
    return x


def _stand_ins(node, attempt):
    """Values of `node`'s shape and dtype to ask NumPy for the shape and
    dtype of a result: uniform values in [0.5, 1.5) (integers 1 to 7) that
    make matrices invertible, else identity matrices (square trailing dims;
    a Cholesky factorization needs them)."""
    shape, dtype = node.shape, np.dtype(node.dtype)
    if attempt == 0:
        rng = np.random.default_rng(7)
        if dtype.kind == "b":
            return rng.random(shape) < 0.5
        if dtype.kind in "iu":
            return rng.integers(1, 8, shape).astype(dtype)
        return rng.uniform(0.5, 1.5, shape).astype(dtype)
    value = np.zeros(shape, dtype)
    if len(shape) >= 2 and shape[-1] == shape[-2]:
        value[...] = np.eye(shape[-1], dtype=dtype)
    elif dtype.kind != "b":
        value[...] = 1
    return value


def call(func, name, args, kwargs, in_loop):
    """The lazy result of NumPy's `func(*args, **kwargs)` (`name` in
    messages: numpy.cumsum, ndarray.take) inside a trace: a
    "host" node (a tuple of them for a tuple result), or None where NumPy
    cannot run there (the caller then refuses the function by name)."""
    if in_loop or "out" in kwargs or value_shaped(name):
        return None
    operands = []
    template_args = _lift(tuple(args), operands)
    template_kwargs = {k: _lift(v, operands) for k, v in kwargs.items()}
    if not operands:
        return None
    # Each operand is a value the kernel before hands over (a copy of the
    # memory's current contents, never a view of it), or an argument (or a
    # view of one) nothing wrote yet, which NumPy reads in place.
    trace = _expr.HOOKS.current_trace()
    nodes = []
    for o in operands:
        in_place = trace.in_place(o)
        if in_place is not None:
            nodes.append(in_place)
            continue
        n = _expr.as_root(o)
        nodes.append(_expr.Op("copy", (n,), (n.dtype,), n.dtype, n.shape))
    line = user_line()
    probe = HostCall(func, name, template_args, template_kwargs, None, line)
    result, error = None, None
    for attempt in (0, 1):
        values = [_stand_ins(n, attempt) for n in nodes]
        try:
            with np.errstate(all="ignore"):
                result = probe.raw(values)
            break
        except Exception as e:  # NumPy refused the stand-ins
            error = e
    else:
        raise TypeError(f"{name} inside @stride.jit runs NumPy on the "
                        f"values between kernels, but NumPy refused values of "
                        f"the arguments' shapes and dtypes: {error}" + line)
    results = result if isinstance(result, tuple) else (result,)
    kept = []
    for r in results:
        if not isinstance(r, (np.ndarray, np.generic, int, float, bool)):
            return None  # a list, a string, an object: not an array value
        r = np.asarray(r)
        try:
            _dtypes.check(r.dtype, "result")
        except TypeError:
            return None
        kept.append(r)
    trace.host_cut()  # the copies go to the kernel before
    out = []
    for k, r in enumerate(kept):
        attr = HostCall(func, name, template_args, template_kwargs,
                        k if isinstance(result, tuple) else None, line)
        node = _expr.Op("host", tuple(nodes), tuple(n.dtype for n in nodes),
                        r.dtype, r.shape, attr)
        node._value = None  # NumPy's value is known only at a call
        trace.keep.append(node)
        out.append(node)
    trace.host_cut()  # what reads the results goes to the kernel after
    return tuple(out) if isinstance(result, tuple) else out[0]


def run(node_attr, shape, dtype, values):
    """NumPy's result for a call, checked against the traced shape and
    dtype, as a C-contiguous array the next kernel reads."""
    with np.errstate(all="ignore"):
        result = node_attr(*values)
    if result.shape != tuple(shape) or result.dtype != dtype:
        raise ValueError(
            f"{node_attr!r} returned {result.dtype} {result.shape} at this "
            f"call, where the trace planned {np.dtype(dtype)} "
            f"{tuple(shape)} (from values of the arguments' shapes): inside "
            "@stride.jit a NumPy function Stride hands to NumPy must give a "
            "result whose shape and dtype depend only on its arguments' "
            "shapes and dtypes" + node_attr.line)
    # (np.ascontiguousarray would make a 0-d result 1-d.)
    return result if result.flags.c_contiguous else result.copy(order="C")
