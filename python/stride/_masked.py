"""a[mask]: NumPy's boolean selection has a data-dependent shape, which a
kernel specialized to shapes cannot have. What real code does with it can
still be computed on the full shape: elementwise arithmetic on selections by
one mask (`1.0 / r[r > 0]`), storing such a value back under the same mask
(`r[r > 0] = ...`, a where), and sum/mean/max/min/any/all/count of it (a
where with the reduction's identity, mean dividing by the mask's count).
Anything else (its shape, returning it, indexing it) is a TypeError naming
the line."""
import numpy as np

from . import _expr
from ._errors import user_line

_IDENTITY = {"sum": 0, "any": False, "all": True}


def _refuse(what):
    raise TypeError(f"{what} of a boolean selection a[mask] is not supported "
                    "inside Stride (its shape depends on the data); use "
                    "np.where(mask, ...) or store it back with a[mask] = ..."
                    + user_line())


def same_mask(a, b):
    """Whether two masks are the same values: one object, or one lazy
    expression structure over the same arrays (inv_r > 0 written twice)."""
    if a is b:
        return True
    if not (isinstance(a, _expr.Op) and isinstance(b, _expr.Op)):
        return False
    (ka, aa), (kb, ab) = a.structure_of(), b.structure_of()
    same = lambda x, y: x is y if isinstance(x, np.ndarray) else x == y
    return ka == kb and len(aa) == len(ab) and all(map(same, aa, ab))


def is_mask(key):
    """A boolean mask index: a bool ndarray or lazy value of 1+ dims."""
    if isinstance(key, np.ndarray):
        return key.dtype == np.bool_ and key.ndim > 0
    return isinstance(key, _expr.Expr) and key.dtype == np.bool_ and \
        len(key.shape) > 0


class Masked:
    """full[mask]: `full` has the mask's shape; the selection is lazy."""
    __array_priority__ = 1000

    def __init__(self, full, mask):
        self.full, self.mask = full, mask
        self.dtype = full.dtype

    @property
    def shape(self):
        _refuse("the shape")

    def __array__(self, dtype=None, copy=None):
        _refuse("converting")

    def __getitem__(self, key):
        _refuse("indexing")

    def __len__(self):
        _refuse("len()")

    def __bool__(self):
        _refuse("the truth value")

    def _combine(self, fn, others):
        args = []
        for o in others:
            if isinstance(o, Masked):
                if not same_mask(o.mask, self.mask):
                    _refuse("combining selections by different masks")
                args.append(o.full)
            elif isinstance(o, (_expr.Expr, np.ndarray)) and \
                    np.shape(o) not in ((), (1,)):
                _refuse("broadcasting an array against")
            else:
                args.append(o)
        return Masked(fn(*args), self.mask)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if method != "__call__" or kwargs:
            _refuse(f"numpy.{ufunc.__name__}.{method}" if method != "__call__"
                    else f"numpy.{ufunc.__name__} with keyword arguments")
        return self._combine(ufunc, inputs)

    def __array_function__(self, func, types, args, kwargs):
        name = func.__name__
        if name in ("sum", "mean", "amax", "amin", "any", "all", "count_nonzero"):
            if len(args) != 1 or kwargs.get("axis") is not None or \
                    set(kwargs) - {"axis"}:
                _refuse(f"numpy.{name} with arguments")
            return reduce(name, args[0])
        _refuse(f"numpy.{name}")

    def astype(self, dtype):
        return Masked(_expr.operand(self.full).astype(dtype), self.mask)

    def sum(self):
        return reduce("sum", self)

    def mean(self):
        return reduce("mean", self)

    def max(self):
        return reduce("amax", self)

    def min(self):
        return reduce("amin", self)


def _binary(name, reflected=False):
    ufunc = getattr(np, name)

    def fn(self, other):
        return self._combine(lambda a, b: ufunc(b, a) if reflected else ufunc(a, b),
                             (self, other))
    return fn


for _dunder, _ufunc in (("add", "add"), ("sub", "subtract"), ("mul", "multiply"),
                        ("truediv", "divide"), ("floordiv", "floor_divide"),
                        ("mod", "remainder"), ("pow", "power"),
                        ("and", "bitwise_and"), ("or", "bitwise_or"),
                        ("xor", "bitwise_xor"), ("lt", "less"),
                        ("le", "less_equal"), ("gt", "greater"),
                        ("ge", "greater_equal"), ("eq", "equal"),
                        ("ne", "not_equal")):
    setattr(Masked, f"__{_dunder}__", _binary(_ufunc))
    if _dunder not in ("lt", "le", "gt", "ge", "eq", "ne"):
        setattr(Masked, f"__r{_dunder}__", _binary(_ufunc, reflected=True))
Masked.__neg__ = lambda self: Masked(np.negative(self.full), self.mask)
Masked.__abs__ = lambda self: Masked(np.absolute(self.full), self.mask)
Masked.__invert__ = lambda self: Masked(np.invert(self.full), self.mask)
Masked.__hash__ = None


def reduce(name, m):
    """A reduction of the selection over all of it."""
    full, mask = m.full, m.mask
    if name == "count_nonzero":
        return np.sum(np.where(mask, full != 0, False))
    if name in ("amax", "amin"):
        info = np.finfo(full.dtype) if full.dtype.kind == "f" else \
            np.iinfo(full.dtype) if full.dtype.kind in "iu" else None
        if info is None:
            fill = name == "amin"  # bool: max is any, min is all
        elif full.dtype.kind == "f":
            fill = -np.inf if name == "amax" else np.inf
        else:
            fill = info.min if name == "amax" else info.max
        # An empty selection has no max: NumPy raises, here it is the fill.
        return getattr(np, name)(np.where(mask, full, fill))
    if name == "mean":
        total = np.sum(np.where(mask, full, 0))
        return total / np.sum(mask)
    return getattr(np, name)(np.where(mask, full, _IDENTITY[name]))


def select(x, key):
    """x[key] for a boolean mask `key` of x's shape."""
    if tuple(np.shape(key)) != tuple(x.shape):
        raise IndexError("boolean index did not match indexed array: "
                         f"shape {tuple(x.shape)} against mask "
                         f"{tuple(np.shape(key))}" + user_line())
    mask = key if isinstance(key, _expr.Expr) else _expr.lazy(key)
    return Masked(_expr.operand(x), mask)
