"""Lazy expressions over NumPy arrays: a DAG of Stride ops whose leaves are
arrays (by reference, never copied) and scalars. Shapes and dtypes are
decided when a node is built, so errors surface at the line that made them."""
import builtins
import itertools
import math

import numpy as np

from . import _dtypes, _table, _torch
from ._errors import user_line

BOOL = _dtypes.BOOL


class _Hooks:
    """What the layers above lend this one, set when they are imported, so
    that imports only go down (errors, dtypes and the op table, then
    expressions, then NumPy's API, codegen and running, then tracing):
    materialize (_run), structure (_codegen), array_ufunc and
    array_function (_numpy_api), and the trace's entry points (_trace)."""
    materialize = structure = array_ufunc = array_function = None
    refuse_conversion = inplace = on_view = setitem = resolve = None
    write_out = local_view = make_local = on_snapshot = laid_out = None
    on_index = select = host_method = host_index = None
    zero_d_array = None  # (node, source): a 0-d result NumPy has as an array
    dynamic_index = None  # (x, key): x[i] at a computed index i, or None
    is_numpy_scalar = None  # node: a value NumPy has as a NumPy scalar
    host_methods = frozenset()  # _masked.select: a[mask]

    @staticmethod
    def is_mask(key):
        return False

    @staticmethod
    def current_trace():
        return None  # no tracing layer: never in a trace


HOOKS = _Hooks()


class Scalar:
    """A Python or NumPy scalar operand. It becomes a scalar argument of the
    kernel, typed by the op that reads it, so 2*x and 3*x share a kernel."""
    __slots__ = ("value",)
    shape = ()

    def __init__(self, value):
        self.value = _dtypes.scalar_operand(value)


class Expr:
    """A lazy array-valued expression. Build with stride.lazy, operators and
    the stride functions; run with stride.materialize."""
    __slots__ = ("shape", "dtype", "__weakref__")
    __hash__ = None  # == builds an expression, so value hashing makes no sense

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        """NumPy ufuncs on lazy expressions build lazy expressions
        (np.exp(expr), ndarray + expr); see _numpy_api.UFUNCS."""
        return HOOKS.array_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        """np.where, np.clip, np.matmul, ... on lazy expressions; see
        _numpy_api.FUNCTIONS."""
        return HOOKS.array_function(func, args, kwargs)

    @property
    def ndim(self):
        return len(self.shape)

    # Shape facts are trace-time constants (Python ints), as np.size(x) is.
    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def itemsize(self):
        return np.dtype(self.dtype).itemsize

    @property
    def nbytes(self):
        return self.size * self.itemsize

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __bool__(self):
        raise TypeError("the truth value of a lazy stride expression is "
                        "undefined (data-dependent Python control flow "
                        "cannot be traced or fused); materialize it first"
                        + user_line())

    def __array__(self, dtype=None, copy=None):
        if HOOKS.current_trace() is not None:
            # Inside @stride.jit the value would be computed from the trace's
            # arguments and kept as a constant of the plan: later calls
            # would see stale values. (NumPy functions that convert their
            # argument, a[...] = expr on a NumPy array come here; the
            # trace answers np.asarray, np.array and
            # np.ascontiguousarray itself.)
            HOOKS.refuse_conversion("converting a lazy stride expression "
                                     "to a NumPy array (a NumPy function "
                                     "that converts its argument, a[...] = "
                                     "expr on a NumPy array)")
        result = HOOKS.materialize(self)  # a new array: no copy is ever needed
        return result if dtype is None else result.astype(dtype, copy=False)

    # Python scalars of a size-1 expression, as ndarray gives them: outside
    # a trace it is materialized; inside one (float(expr), a[i] = expr on a
    # float or int NumPy array) it would be a trace-time constant.
    def _to_python(self, convert, what, need):
        if HOOKS.current_trace() is not None:
            HOOKS.refuse_conversion(
                "using a lazy stride expression as an index "
                "(operator.index(expr), a slice bound)" if need == "index"
                else f"{what}(expr) of a lazy stride expression (also "
                "a[i] = expr into a NumPy array)")
        if need == "index":
            if self.shape != () or self.dtype.kind not in "iu":
                raise TypeError("only integer scalar arrays can be converted "
                                "to a scalar index")
        elif math.prod(self.shape) != 1:
            raise TypeError("only size-1 arrays can be converted to Python "
                            "scalars")
        return convert(self.__array__())

    def __float__(self):
        return self._to_python(float, "float", "size1")

    def __int__(self):
        return self._to_python(int, "int", "size1")

    def __complex__(self):
        return self._to_python(complex, "complex", "size1")

    def __index__(self):
        import operator
        return self._to_python(operator.index, "operator.index", "index")

    def __setitem__(self, key, value):
        if HOOKS.current_trace() is not None and type(self) in (Op, Written) \
                and self.shape != ():
            return HOOKS.setitem(self, key, value)  # NumPy's results are arrays
        if type(self) is Snapshot:
            if self.kind == "permute" and HOOKS.current_trace() is not None:
                return HOOKS.setitem(self, key, value)  # writes the array
            raise TypeError(f"assigning into the result of {self.kind} (a "
                            "view of an array) is not supported inside "
                            "@stride.jit; assign into the array with basic "
                            "indexing (x[...] = value)" + user_line())
        raise TypeError("assigning into a lazy stride expression "
                        "(expr[...] = value) is not supported: it is a value, "
                        "not memory" + user_line())

    def __getattr__(self, name):
        # ndarray methods the expression lacks (x.sum(), x.any(), x.T) are a
        # TypeError naming them and the user's line, like NumPy functions.
        if name.startswith("_"):
            raise AttributeError(name)
        if HOOKS.current_trace() is None and hasattr(np.ndarray, name):
            # Outside a trace: the method of the materialized array.
            return getattr(HOOKS.materialize(self), name)
        if name in HOOKS.host_methods and HOOKS.current_trace() is not None:
            # Inside a trace: NumPy's method on the value, between kernels.
            return lambda *args, **kwargs: HOOKS.host_method(
                name, self, args, kwargs)
        raise TypeError(f"ndarray.{name} is not supported on lazy stride "
                        f"expressions" + user_line())

    def __getitem__(self, key):
        if HOOKS.is_mask(key):
            return HOOKS.select(self, key)
        if advanced_key(key):
            return _advanced_index(self, key)
        return index(self, key)

    # ndarray's view methods (views of inputs and of intermediates).
    @property
    def T(self):
        return transpose(self)

    def transpose(self, *axes):
        if len(axes) == 1 and not isinstance(axes[0], (int, np.integer)):
            axes = axes[0]
        return transpose(self, axes or None)

    def swapaxes(self, axis1, axis2):
        return swapaxes(self, axis1, axis2)

    def reshape(self, *shape, order="C"):
        if len(shape) == 1 and not isinstance(shape[0], (int, np.integer)):
            shape = shape[0]
        return reshape(self, shape, order)

    def squeeze(self, axis=None):
        return squeeze(self, axis)

    def ravel(self, order="C"):
        return ravel(self, order)

    # ndarray's reduction methods, as numpy.var(x, ...) and numpy.std; sum,
    # prod, mean, max, min, argmax, argmin, any and all are set below the
    # class (_reduction_method).
    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return HOOKS.array_function(np.var, (self,), dict(
            axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims))

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return HOOKS.array_function(np.std, (self,), dict(
            axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims))

    # ndarray methods that are NumPy functions of the array.
    def dot(self, b, out=None):
        return HOOKS.array_function(np.dot, (self, b), dict(out=out))

    def flatten(self, order="C"):
        return ravel(self, order).copy()

    def diagonal(self, offset=0, axis1=0, axis2=1):
        return HOOKS.array_function(np.diagonal, (self,), dict(
            offset=offset, axis1=axis1, axis2=axis2))

    def ptp(self, axis=None, out=None, keepdims=False):
        return HOOKS.array_function(np.ptp, (self,), dict(
            axis=axis, out=out, keepdims=keepdims))

    def round(self, decimals=0, out=None):
        return HOOKS.array_function(np.around, (self,), dict(
            decimals=decimals, out=out))

    def repeat(self, repeats, axis=None):
        return HOOKS.array_function(np.repeat, (self, repeats), dict(
            axis=axis))

    def trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        return HOOKS.array_function(np.trace, (self,), dict(
            offset=offset, axis1=axis1, axis2=axis2, dtype=dtype, out=out))

    def copy(self, order="C"):
        """A new array with the same values: inside @stride.jit memory the
        function may write (a Local, in C or Fortran order as `order` says,
        C by default as ndarray.copy; 'K' and 'A' keep the values' layout),
        outside it the lazy copy."""
        op = _operand(self)
        if HOOKS.current_trace() is not None:
            if order in ("C", "F"):
                return HOOKS.laid_out(self, None, order)
            return HOOKS.make_local(op)
        return _elementwise("copy", (op,), op.dtype, op.dtype)

    def astype(self, dtype, order="K", casting="unsafe", subok=True,
               copy=True):
        """A lazy cast (stride.cast: floats to integers truncate, anything to
        bool tests nonzero), like ndarray.astype: `casting` is checked as
        NumPy checks it, and inside @stride.jit a cast to the same dtype
        with copy=True is a new array (writing it leaves the original
        alone). `order` and `subok` change no value."""
        dtype = _dtypes.check(dtype, "astype target")
        if casting != "unsafe" and not np.can_cast(self.dtype, dtype,
                                                   casting):
            raise TypeError(f"Cannot cast array data from {self.dtype!r} to "
                            f"{dtype!r} according to the rule {casting!r}"
                            + user_line())
        op = _operand(self)  # memory: its contents now
        if dtype == self.dtype:
            if copy and HOOKS.current_trace() is not None and \
                    not HOOKS.is_numpy_scalar(self):
                # (A NumPy scalar's astype is the scalar: nothing writes it.)
                return self.copy(order if order in ("C", "F") else "K")
            return self
        result = Op("cast", (op,), (op.dtype,), dtype, self.shape)
        if not self.shape and HOOKS.current_trace() is not None:
            HOOKS.zero_d_array(result, self)  # an array's astype: an array
        return result

    def __repr__(self):
        return (f"<stride.{type(self).__name__} {self.describe()} "
                f"shape={_table.fmt(self.shape)} dtype={self.dtype}>")

    # Arithmetic. Unsupported operand types give NotImplemented so that
    # Python's own TypeError (or the other operand's method) takes over.
    def __add__(self, other): return _binary_op("add", self, other)
    def __radd__(self, other): return _binary_op("add", other, self)
    def __sub__(self, other): return _binary_op("sub", self, other)
    def __rsub__(self, other): return _binary_op("sub", other, self)
    def __mul__(self, other): return _binary_op("mul", self, other)
    def __rmul__(self, other): return _binary_op("mul", other, self)
    def __truediv__(self, other): return _binary_op("div", self, other)
    def __rtruediv__(self, other): return _binary_op("div", other, self)
    def __pow__(self, other):
        fast = _fast_power(self, other)
        return _binary_op("pow", self, other) if fast is None else fast
    def __rpow__(self, other): return _binary_op("pow", other, self)
    def __matmul__(self, other): return _binary_op("matmul", self, other)
    def __rmatmul__(self, other): return _binary_op("matmul", other, self)
    def __lt__(self, other): return _binary_op("lt", self, other)
    def __le__(self, other): return _binary_op("le", self, other)
    def __gt__(self, other): return _binary_op("gt", self, other)
    def __ge__(self, other): return _binary_op("ge", self, other)
    def __eq__(self, other): return _binary_op("eq", self, other)
    def __ne__(self, other): return _binary_op("ne", self, other)
    def __mod__(self, other): return _binary_op("remainder", self, other)
    def __rmod__(self, other): return _binary_op("remainder", other, self)
    def __floordiv__(self, other): return _binary_op("floor_divide", self, other)
    def __rfloordiv__(self, other): return _binary_op("floor_divide", other, self)
    def __and__(self, other): return _binary_op("bitwise_and", self, other)
    def __rand__(self, other): return _binary_op("bitwise_and", other, self)
    def __or__(self, other): return _binary_op("bitwise_or", self, other)
    def __ror__(self, other): return _binary_op("bitwise_or", other, self)
    def __xor__(self, other): return _binary_op("bitwise_xor", self, other)
    def __rxor__(self, other): return _binary_op("bitwise_xor", other, self)
    def __lshift__(self, other): return _binary_op("left_shift", self, other)
    def __rlshift__(self, other): return _binary_op("left_shift", other, self)
    def __rshift__(self, other): return _binary_op("right_shift", self, other)
    def __rrshift__(self, other): return _binary_op("right_shift", other, self)
    def __neg__(self): return negative(self)
    def __abs__(self): return absolute(self)
    def __invert__(self): return invert(self)
    def __pos__(self): return HOOKS.array_ufunc(np.positive, "__call__", (self,), {})
    def __divmod__(self, other): return (_binary_op("floor_divide", self, other),
                                         _binary_op("remainder", self, other))
    def __rdivmod__(self, other): return (_binary_op("floor_divide", other, self),
                                          _binary_op("remainder", other, self))
    def __round__(self, ndigits=None):
        return HOOKS.array_function(np.around, (self,), dict(
            decimals=0 if ndigits is None else ndigits))

    # ndarray's methods and attributes of real arrays.
    def clip(self, min=None, max=None, out=None):
        if out is not None:
            return HOOKS.array_function(np.clip, (self, min, max),
                                        dict(out=out))
        return clip(self, min, max)

    def sort(self, axis=-1, kind=None, order=None):
        """In place, as ndarray.sort: inside @stride.jit, memory gets
        np.sort's result (NumPy's own, between kernels)."""
        if HOOKS.current_trace() is None:
            return HOOKS.materialize(self).sort(axis, kind, order)
        self[...] = HOOKS.array_function(np.sort, (self,), dict(
            axis=axis, kind=kind, order=order))

    def itemset(self, *args):
        """ndarray.itemset(index, value), or itemset(value) of one element:
        an item assignment, memory of a @stride.jit trace only."""
        if HOOKS.current_trace() is None:
            return HOOKS.materialize(self).itemset(*args)
        if len(args) == 1:
            if int(np.prod(self.shape)) != 1:
                raise ValueError("can only convert an array of size 1 to a "
                                 "Python scalar" + user_line())
            self[...] = args[0]
            return
        key = args[0] if len(args) == 2 else args[:-1]
        self[key] = args[-1]

    def conj(self):
        return HOOKS.array_ufunc(np.conjugate, "__call__", (self,), {})

    conjugate = conj

    @property
    def real(self):
        return self

    @property
    def imag(self):
        zeros = np.zeros((), self.dtype)
        return broadcast_to(lazy(zeros), self.shape)

    def fill(self, value):
        """In place, as ndarray.fill: memory of a @stride.jit trace only."""
        self[...] = value

    # Augmented assignment (__iadd__ ... __imatmul__) is set below the class
    # (_inplace_method).


def _set_method(name, method):
    """Makes `method` Expr's method `name`."""
    method.__name__ = name
    method.__qualname__ = "Expr." + name
    setattr(Expr, name, method)


def _reduction_method(kind):
    """An ndarray reduction method as numpy.<kind>(self, ...); sum's, prod's
    and mean's take dtype= too."""
    # Positional arguments in ndarray's order; out= goes through NumPy's
    # function (numpy.sum(self, ..., out=out)), which casts into it.
    # where= and initial= (where the method takes them) go through NumPy's
    # function too.
    if kind in ("sum", "prod", "mean"):
        def method(self, axis=None, dtype=None, out=None, keepdims=False,
                   **masks):
            if out is not None or masks:
                return HOOKS.array_function(REDUCTIONS[kind][0], (self,), dict(
                    axis=axis, dtype=dtype, out=out, keepdims=keepdims,
                    **masks))
            return reduce(kind, self, axis, keepdims, dtype)
    else:
        def method(self, axis=None, out=None, keepdims=False, **masks):
            if out is not None or masks:
                return HOOKS.array_function(REDUCTIONS[kind][0], (self,), dict(
                    axis=axis, out=out, keepdims=keepdims, **masks))
            return reduce(kind, self, axis, keepdims)
    return method


# Augmented assignment. Outside @stride.jit an expression is a value and
# `e += 1` binds the name to a new expression. Inside a trace it has
# NumPy's in-place meaning (see _trace.inplace): an argument (or a view
# of one) is written, an intermediate result is replaced.
def _inplace_method(symbol):
    def method(self, other):
        return _inplace(symbol, self, other)
    return method


for _name, _symbol in (
        ("__iadd__", "+="), ("__isub__", "-="), ("__imul__", "*="),
        ("__itruediv__", "/="), ("__ifloordiv__", "//="), ("__imod__", "%="),
        ("__ipow__", "**="), ("__iand__", "&="), ("__ior__", "|="),
        ("__ixor__", "^="), ("__ilshift__", "<<="), ("__irshift__", ">>="),
        ("__imatmul__", "@=")):
    _set_method(_name, _inplace_method(_symbol))
del _name, _symbol


# ndarray's reduction methods, as numpy.sum(x, ...) and the others.
for _name, _kind in (("sum", "sum"), ("prod", "prod"), ("mean", "mean"),
                     ("max", "amax"), ("min", "amin"), ("argmax", "argmax"),
                     ("argmin", "argmin"), ("any", "any"), ("all", "all")):
    _set_method(_name, _reduction_method(_kind))
del _name, _kind


def _fast_power(x, exponent):
    """ndarray ** scalar as NumPy 1.24 computes it (number.c,
    fast_scalar_power): a float array to the power 1, -1, 0.5 or 2 is
    positive, reciprocal, sqrt or square of it (sqrt is not pow(x, 0.5) in
    the last bit), to the power 0 ones of its dtype (ones_like: a 0-d
    float32 stays float32), any other array squared is square (an integer
    array and a float 2.0: of the array as float64). None: the ufunc
    power."""
    if isinstance(exponent, (bool, int, float)):
        is_float = isinstance(exponent, float)
    elif isinstance(exponent, (np.generic, np.ndarray)) and \
            np.ndim(exponent) == 0 and exponent.dtype.kind in "biuf":
        is_float = exponent.dtype.kind == "f"
    else:
        return None
    try:
        value = float(exponent)
    except OverflowError:
        return None
    if x.dtype.kind == "f":
        op = {1.0: "positive", -1.0: "reciprocal", 0.5: "sqrt",
              2.0: "square"}.get(value)
        if op == "positive":
            return x
        if value == 0.0:  # pow(x, 0) is 1 for every x; in x's dtype
            return _binary_op("pow", x, lazy(np.asarray(0, x.dtype)))
        return None if op is None else TABLE_FUNCTIONS[op](x)
    if value != 2.0:
        return None
    if is_float and x.dtype.kind in "iu":
        x = x.astype(_dtypes.FLOAT64)
    return TABLE_FUNCTIONS["square"](x)


def _inplace(symbol, target, other):
    if HOOKS.current_trace() is None:
        return NotImplemented  # a new expression, bound to the name
    return HOOKS.inplace(symbol, target, other)


# The ufunc behind each augmented assignment (ndarray.__iadd__ is
# np.add(a, b, out=a)), as the Stride op kind and NumPy's name.
INPLACE_KINDS = {
    "+=": ("add", "add"), "-=": ("sub", "subtract"),
    "*=": ("mul", "multiply"), "/=": ("div", "divide"),
    "//=": ("floor_divide", "floor_divide"), "%=": ("remainder", "remainder"),
    "**=": ("pow", "power"), "&=": ("bitwise_and", "bitwise_and"),
    "|=": ("bitwise_or", "bitwise_or"), "^=": ("bitwise_xor", "bitwise_xor"),
    "<<=": ("left_shift", "left_shift"), ">>=": ("right_shift", "right_shift"),
    "@=": ("matmul", "matmul"),
}


def inplace_value(symbol, target, other):
    """NumPy's new value of `target` after `target <op>= other`, which is
    ufunc(target, other, out=target) with casting='same_kind': the result of
    the ufunc on the operands, which must have target's shape, cast to
    target's dtype. NotImplemented where `other` is no operand."""
    kind, name = INPLACE_KINDS[symbol]
    result = _binary_op(kind, target, other)
    if result is NotImplemented:
        return result
    if result.shape != target.shape:
        raise ValueError(f"non-broadcastable output operand with shape "
                         f"{_table.fmt(target.shape)} doesn't match the "
                         f"broadcast shape {_table.fmt(result.shape)}")
    if result.dtype != target.dtype:
        if not np.can_cast(result.dtype, target.dtype, "same_kind"):
            raise TypeError(f"Cannot cast ufunc {name!r} output from "
                            f"{result.dtype!r} to {target.dtype!r} with "
                            "casting rule 'same_kind'")
        result = Op("cast", (result,), (result.dtype,), target.dtype,
                    target.shape)
    return result


class Leaf(Expr):
    """An array operand, held by reference: the kernel reads its memory as it
    is, with its own strides."""
    __slots__ = ("array", "from_torch", "written", "tree", "origin")

    def __init__(self, array, from_torch=False):
        self.array, self.from_torch = array, from_torch
        # (parent Leaf, key) of a view made by indexing: materialized alone
        # it is the policy's view of the parent (see _run.view_of_input).
        self.origin = None
        # In a @stride.jit trace that writes arguments (see _trace): WATCH,
        # its reads resolve to the memory's current contents and are
        # recorded for the per-call overlap checks.
        self.written = 0
        self.tree = None  # see _tree
        self.shape = tuple(array.shape)
        self.dtype = _dtypes.check(array.dtype)

    def describe(self):
        return "array"

    def __getitem__(self, key):
        """Basic indexing (ints, slices, ..., None) of the input array: a
        view, not a copy, so the kernel reads the array's memory."""
        if HOOKS.is_mask(key):
            return HOOKS.select(self, key)
        if advanced_key(key):
            return _advanced_index(self, key)
        raw = key
        key = basic_key(key, "a lazy stride array")
        # NumPy gives a scalar (a copy of the element, not a view) where
        # every dim is indexed by an integer.
        scalar = len(key) == len(self.shape) and all(
            isinstance(k, (int, np.integer)) for k in key)
        if Ellipsis not in key:
            key = key + (Ellipsis,)  # an element stays a 0-d view
        view = Leaf(self.array[key], self.from_torch)
        view.origin = (self, raw)
        value = HOOKS.on_view(self, view, key, raw, scalar)
        return view if value is None else value

    def __setitem__(self, key, value):
        """Inside @stride.jit, x[key] = value on an argument (or a view of
        one) is a functional update of its memory (see _trace); a lazy
        array outside a trace is a value and cannot be assigned into."""
        if HOOKS.current_trace() is None:
            raise TypeError("assigning into a lazy stride array (x[...] = "
                            "value) is not supported: it is a value, not "
                            "memory; materialize it first" + user_line())
        HOOKS.setitem(self, key, value)


_SERIALS = itertools.count()


def next_serial():
    """A serial above every node made so far."""
    return next(_SERIALS)


class Op(Expr):
    """One Stride op. `in_dtypes[i]` is the element type operand i is
    converted to before the op (a stride.cast, or the scalar argument's
    type); `attr` is the cmp predicate or a stride.broadcast body op."""
    __slots__ = ("kind", "operands", "in_dtypes", "attr", "structure",
                 "tree", "used", "_value", "serial")
    # _value: NumPy's value of a 0-d node (a 0-d array, or None where it
    # cannot be computed), which value-based promotion reads; unset until
    # asked (see _weak_value).

    def __init__(self, kind, operands, in_dtypes, dtype, shape, attr=None):
        self.kind, self.operands, self.in_dtypes = kind, operands, in_dtypes
        self.dtype, self.shape, self.attr = dtype, shape, attr
        self.structure = None  # _codegen.structure's answer, once asked
        # (structure id, leaf arrays, kernel arguments) where the operators
        # built this node over a tree of such nodes (see _binary_op), else
        # None: materialize then walks the expression for its key.
        self.tree = None
        self.used = False  # an operand of a node the operators built
        # Creation order: operands are always made before the nodes that
        # read them, so a @stride.jit trace splits its program into kernels
        # by serial (_trace.split_kernels).
        self.serial = next(_SERIALS)

    def structure_of(self):
        """(key, args) as _codegen.structure gives them, or an equivalent
        interned key computed when the node was built."""
        s = self.structure
        if s is None:
            t = self.tree
            if t is not None:
                s = self.structure = (t[0], list(t[2]))
            else:
                s = self.structure = HOOKS.structure(self)
        return s

    def describe(self):
        return self.kind if self.attr is None else f"{self.kind}[{self.attr}]"


class Written(Op):
    """In a @stride.jit trace: an intermediate result the function then
    wrote into (t[0] = 1, t += 1). As an operand the trace already recorded
    it is its old value (its own fields); read by the user it is the
    contents of its memory now (_trace.as_memory)."""
    __slots__ = ()


class Snapshot(Op):
    """In a @stride.jit trace: a view op (transpose, broadcast_to, flip,
    reshape, ...) of memory (an argument, a Local, or another Snapshot).
    NumPy's view shows later writes of that memory, so a read after one
    rebuilds the view from the memory's new contents (_trace.resolve)."""
    __slots__ = ()


class Local(Expr):
    """In a @stride.jit trace: an array made inside the function (np.zeros,
    np.empty, x.copy(), ...) or a basic-indexing view of one. It is memory:
    item assignment and in-place operations update it, and every read sees
    its contents at that point (the trace keeps them as a node, see
    _trace.Memory; `keys` are the index keys from the whole array)."""
    __slots__ = ("mem", "keys")

    def __init__(self, mem, keys, shape, dtype):
        self.mem, self.keys, self.shape, self.dtype = mem, keys, shape, dtype

    def describe(self):
        return "local array"

    def __getitem__(self, key):
        if HOOKS.is_mask(key):
            return HOOKS.select(self, key)
        if advanced_key(key):
            return _advanced_index(self, key)
        return HOOKS.local_view(self, key)

    def __setitem__(self, key, value):
        HOOKS.setitem(self, key, value)

    def copy(self, order="C"):
        if order in ("C", "F"):
            return HOOKS.laid_out(self, None, order)
        return HOOKS.make_local(_operand(self))


def lazy(a):
    """Wraps a NumPy array or a PyTorch CPU tensor (any strides, 0-d,
    zero-size) without copying."""
    if isinstance(a, Expr):
        return a
    if _torch.is_tensor(a):
        return Leaf(_torch.to_numpy(a), from_torch=True)
    if isinstance(a, np.ma.MaskedArray):
        raise TypeError("masked arrays are not supported: the mask would be "
                        "ignored")
    if not isinstance(a, np.ndarray):
        raise TypeError(f"stride.lazy expects a numpy.ndarray or a torch "
                        f"tensor, got "
                        f"{type(a).__name__} (use numpy.asarray first)")
    return Leaf(a)


def _operand(x):
    """An Expr or Scalar for `x`, or None when `x` cannot be an operand."""
    if isinstance(x, Expr):
        t = type(x)
        if t is Local or t is Snapshot or t is Written or (t is Leaf and x.written):
            return HOOKS.resolve(x)  # the memory's current contents
        return x
    if isinstance(x, np.ndarray) or _torch.is_tensor(x):
        return lazy(x)
    if _dtypes.is_scalar(x):
        return Scalar(x)
    return None


def operands(args, name):
    ops = []
    for x in args:
        op = _operand(x)
        if op is None:
            raise TypeError(f"stride.{name}: unsupported operand of type "
                            f"{type(x).__name__}")
        ops.append(op)
    return tuple(ops)


def _weak_value(o):
    """What NumPy 1.24's value-based casting sees for a weak operand: a
    scalar's value, a 0-d array itself, and for a 0-d lazy result the value
    NumPy computes for it from its 0-d operands (value_0d)."""
    if isinstance(o, Scalar):
        return o.value
    value = o.array if isinstance(o, Leaf) else value_0d(o)
    if value is None:
        value = np.zeros((), o.dtype)  # NumPy could not compute it: as 0
    return value


weak_value = _weak_value  # for the layers above


# NumPy 1.24's order of dtype kinds for value-based casting.
_KIND_ORDER = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def _values_matter(strong, weak):
    """NumPy 1.24 (should_use_min_scalar) reads the weak operands' values
    only where an array operand exists whose kind is at least theirs."""
    if not strong:
        return False
    top = max(_KIND_ORDER[d.kind] for d in strong)
    return all(_KIND_ORDER.get(np.asarray(v).dtype.kind, 9) <= top for v in weak)


# The smallest types np.min_scalar_type gives for a value of each kind.
_SMALLEST = {"b": ("?",), "u": ("B", "b"), "i": ("B", "b"), "f": ("e",)}
_VALUE_DECIDES = {}


def _value_decides(strong, dtype):
    """Whether a weak 0-d operand of `dtype` can promote with arrays of
    dtypes `strong` to different types by its value. Its value class lies
    between the smallest type of its kind and its own dtype, and promotion
    is monotone, so it cannot where those two promote alike (a float64
    0-d times a float64 array: float64 whatever the value)."""
    key = (strong, dtype)
    decides = _VALUE_DECIDES.get(key)
    if decides is None:
        smallest = _SMALLEST.get(dtype.kind)
        own = _dtypes.promote(strong + (dtype,))
        decides = smallest is None or any(
            _dtypes.promote(strong + (np.dtype(t),)) != own for t in smallest)
        _VALUE_DECIDES[key] = decides
    return decides


def _guard_weak(ops, strong, weak):
    """In a @stride.jit trace, a 0-d view, constant or result whose value
    decided a promotion makes its value class a guard of the plan (a 0-d
    argument's class is in the signature)."""
    trace = HOOKS.current_trace()
    if trace is None or not _values_matter(strong, weak):
        return
    weak_ops = [o for o in ops if isinstance(o, Scalar) or o.shape == ()]
    for o, v in zip(weak_ops, weak):
        if not isinstance(o, Scalar) and _value_decides(tuple(strong), o.dtype):
            trace.on_weak_value(o, v)


# NumPy's function of each op kind without a ufunc in the op table, for
# value_0d (the table's ops compute with their ufunc).
_NUMPY_OF_KIND = {
    "copy": lambda a: a, "cast": lambda a: a, "select": np.where,
    "matmul": np.matmul, "clip": np.clip,
    "sigmoid": lambda a: 1 / (1 + np.exp(-a)),
}
_NUMPY_CMP = {"lt": np.less, "le": np.less_equal, "gt": np.greater,
              "ge": np.greater_equal, "eq": np.equal, "ne": np.not_equal}


def numpy_function(node):
    """NumPy's function computing Op `node` from its converted operands."""
    if node.kind == "cmp":
        return _NUMPY_CMP[node.attr]
    if node.kind in VIEWS:
        return _numpy_view(node.kind, node.attr)
    if node.kind in REDUCTIONS:
        axes, keepdims = node.attr
        fn = REDUCTIONS[node.kind][0]
        if node.kind in ("argmax", "argmin"):
            axis = None if axes is None else (axes[0] if axes else None)
            return lambda a: fn(a, axis=axis, keepdims=keepdims)
        return lambda a: fn(a, axis=axes, keepdims=keepdims)
    row = _table.OPS.get(node.kind)
    if row is not None and row.ufunc is not None:
        return row.ufunc
    if node.kind == "loopindex":  # its value class: the largest index
        value = node._value
        return lambda: value
    return _NUMPY_OF_KIND.get(node.kind, _no_value)


def _no_value(*args):
    """A node NumPy has no value for at trace time (a loop's carry)."""
    raise ValueError("no trace-time value")


def value_0d(node, leaf_array=None, memo=None):
    """NumPy's value of the 0-d expression `node` as a 0-d array of its
    dtype: its leaves are 0-d arrays and scalars, each op is computed by
    NumPy on its operands converted as Stride converts them. `leaf_array`
    maps a Leaf to the array to read (default: its own); without it the
    value is memoized on the node. None where NumPy cannot compute it
    (the caller then counts the value as 0)."""
    if leaf_array is None:
        known = getattr(node, "_value", False)
        if known is not False:
            return known
    order, stack = [], [node]
    memo = {} if memo is None else memo
    while stack:  # iterative postorder (long 0-d chains)
        n = stack[-1]
        if id(n) in memo:
            stack.pop()
            continue
        if isinstance(n, Scalar):
            memo[id(n)] = n.value
            stack.pop()
            continue
        if isinstance(n, Leaf):
            memo[id(n)] = n.array if leaf_array is None else leaf_array(n)
            stack.pop()
            continue
        if leaf_array is None:
            known = getattr(n, "_value", False)
            if known is not False:
                memo[id(n)] = known
                stack.pop()
                continue
        pending = [o for o in n.operands if id(o) not in memo]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        memo[id(n)] = value = _compute_0d(n, [memo[id(o)] for o in n.operands])
        if leaf_array is None:
            n._value = value
    return memo[id(node)]


def _compute_0d(node, values):
    if any(v is None for v in values):
        return None
    try:
        with np.errstate(all="ignore"):
            args = [np.asarray(d.type(v) if not isinstance(v, np.ndarray)
                               else v.astype(d)) if d is not None else v
                    for v, d in zip(values, node.in_dtypes)]
            fn = numpy_function(node)
            return np.asarray(fn(*args)).astype(node.dtype)
    except Exception:  # e.g. an int to a negative int power; see _weak_value
        return None


_PROMOTIONS = {}
_WEAK_KEYS = {}


def _weak_key(v):
    """What NumPy 1.24's promotion sees of a weak operand: its own type and
    its value class (the smallest type its value fits, and for unsigned
    ones whether the signed type of that size holds it too: _dtypes.
    value_class). Python scalars (usually constants of the program) are
    memoized by value."""
    if type(v) in (float, int, bool):
        k = (type(v), v)
        key = _WEAK_KEYS.get(k)
        if key is None:
            if len(_WEAK_KEYS) > 4096:
                _WEAK_KEYS.clear()
            key = _WEAK_KEYS[k] = (type(v), None, _dtypes.value_class(v))
        return key
    return (type(v), getattr(v, "dtype", None), _dtypes.value_class(v))


def result_type(values, name):
    """NumPy 1.24's result type of `values` (lazy arrays and scalars, those
    of 0-d values promoted by value), as op `name`'s operands."""
    return _promote(operands(values, name))


def _promote(ops):
    if len(ops) == 2:  # the common case, without generators
        a, b = ops
        if (type(a) is not Scalar and type(b) is not Scalar
                and a.shape and b.shape):
            key = (a.dtype, b.dtype)
            result = _PROMOTIONS.get(key)
            if result is None:
                result = _PROMOTIONS[key] = _dtypes.promote(key)
            return result
    strong = tuple(o.dtype for o in ops if isinstance(o, Expr) and o.shape != ())
    if len(strong) == len(ops):
        # Arrays only: the result depends on the dtypes alone (memoized:
        # np.result_type costs microseconds, a lookup a fraction of one).
        result = _PROMOTIONS.get(strong)
        if result is None:
            result = _PROMOTIONS[strong] = _dtypes.promote(strong)
        return result
    weak = [_weak_value(o) for o in ops if isinstance(o, Scalar) or o.shape == ()]
    if len(weak) != sum(type(o) is Scalar for o in ops):
        _guard_weak(ops, strong, weak)  # a 0-d array or result: in a trace?
    # NumPy 1.24 decides from a weak operand's own type and the smallest
    # type its value fits (value-based casting), so those are the key.
    try:
        key = (strong, tuple(_weak_key(v) for v in weak))
    except (TypeError, ValueError, OverflowError):
        return _dtypes.promote(strong, weak)
    result = _PROMOTIONS.get(key)
    if result is None:
        result = _PROMOTIONS[key] = _dtypes.promote(strong, weak)
    return result


def _elementwise(kind, ops, in_dtype, dtype, attr=None, in_dtypes=None):
    if len(ops) == 2:
        shape = _table.broadcast(ops[0].shape, ops[1].shape)
    else:
        shape = _table.broadcast(*(o.shape for o in ops))
    return Op(kind, ops, in_dtypes or (in_dtype,) * len(ops), dtype, shape, attr)


_COMPARISONS = ("lt", "le", "gt", "ge", "eq", "ne")


_SCALAR_LOOPS = {}


def _scalar_loop_dtype(row, ops):
    """The result dtype NumPy 1.24 gives `row`'s ufunc of an array and a
    weak operand (a Python or NumPy scalar, a 0-d value), asked of NumPy
    on a one-element stand-in with the weak operand's value (its class
    decides it: most ufuncs search their loops casting the scalar by value,
    so floor_divide of uint8 by 1000 runs the int16 loop where promotion
    says uint16); None where NumPy refuses or the value is unknown."""
    i = 0 if type(ops[0]) is Scalar or ops[0].shape == () else 1
    value = _weak_value(ops[i])
    if value is None:
        return None
    try:
        key = (row.mnemonic, i, ops[1 - i].dtype, _weak_key(value))
    except (TypeError, ValueError, OverflowError):
        return None
    dtype = _SCALAR_LOOPS.get(key, False)
    if dtype is False:
        args = [None, None]
        args[i], args[1 - i] = value, np.ones(1, ops[1 - i].dtype)
        try:
            with np.errstate(all="ignore"):
                result = row.dtype_ufunc(*args)
            dtype = (result[0] if isinstance(result, tuple) else result).dtype
        except (TypeError, ValueError, OverflowError):
            dtype = None
        _SCALAR_LOOPS[key] = dtype
    return dtype


def _by_table(row, ops):
    """The op of table row `row` on `ops`, with NumPy's dtypes."""
    promoted = _promote(ops)
    if row.mnemonic == "pow" and len(ops) == 2:
        _negative_integer_power(ops, promoted)
    if len(ops) == 2 and type(ops[0]) is not Scalar and \
            type(ops[1]) is not Scalar and ops[0].dtype != ops[1].dtype and \
            bool(ops[0].shape) == bool(ops[1].shape):
        # Arrays (or 0-d values only: no value-based casting) of two
        # dtypes: NumPy's loop for the pair, which may lie below their
        # promotion's.
        in_dtype, dtype = row.resolve_each((ops[0].dtype, ops[1].dtype),
                                           promoted)
    else:
        in_dtype, dtype = row.resolve(promoted)
        if len(ops) == 2 and (type(ops[0]) is Scalar or not ops[0].shape) \
                != (type(ops[1]) is Scalar or not ops[1].shape) and \
                row.result == "same" and row.dtype_ufunc is not None:
            numpy_dtype = _scalar_loop_dtype(row, ops)
            if numpy_dtype is not None and numpy_dtype != dtype:
                in_dtype, dtype = row.resolve(numpy_dtype)
    return _elementwise(row.mnemonic, ops, in_dtype, dtype)


def _negative_integer_power(ops, promoted):
    """NumPy's refusal of an integer power with a negative scalar exponent
    (it checks when it computes; an array exponent's values are not known
    here)."""
    e = ops[1]
    if isinstance(e, Scalar):
        negative = not isinstance(e.value, (bool, np.bool_)) and e.value < 0
    else:  # a 0-d argument (np.int8(-3)): its value as traced
        negative = type(e) is Leaf and e.shape == () and \
            e.dtype.kind == "i" and e.array < 0
    if negative and promoted.kind in "iu":
        raise ValueError("Integers to negative integer powers are not allowed.")


def binary(kind, ops):
    """A binary op by its mnemonic (the operators'), a comparison or matmul."""
    if kind == "matmul":
        return _matmul(ops)
    if kind in _COMPARISONS:
        return _elementwise("cmp", ops, _promote(ops), BOOL, attr=kind)
    return _by_table(_table.OPS[kind], ops)


# The operators' fast path. A binary node's result (op, dtypes, shape) is
# a function of its operands' dtypes and shapes and of a Python scalar's
# type and value (NumPy 1.24's value-based casting), so it is memoized on
# those; 0-d expressions (whose value would count) take the full path, and
# so does every operand combination that raises (its message comes from
# there each time). Each node also gets its structural key from its
# children's keys (hash-consing): an interned int for (op, child ids, which
# leaves are the same array), with its leaf arrays and kernel arguments in
# the order codegen declares them, so materialize does not walk it.
_NODES = {}      # memo key -> (kind, in_dtypes, dtype, shape, attr, id)
_IDS = {}        # structural tuple -> interned int
# Ids are never reused, so clearing _IDS cannot alias live ids; count's
# next() is one C call, so two threads never draw the same id.
_NEXT_ID = itertools.count()
_MEMO_LIMIT = 4096
_TREE_LIMIT = 32  # kernel arguments past which the walk is cheap enough
_PY_SCALARS = (float, int, bool)
_new_scalar = object.__new__


def _intern(t):
    i = _IDS.get(t)
    if i is None:
        if len(_IDS) >= _MEMO_LIMIT:
            _IDS.clear()
        i = _IDS[t] = next(_NEXT_ID)
    return i


def _sig(x):
    """The part of operand `x` a binary node's result depends on, or None
    where the full path must decide."""
    t = type(x)
    if t is Op:
        return (x.dtype, x.shape) if x.shape else None
    if t is Leaf:
        return (x.dtype, x.shape) if x.shape and not x.written else None
    if t in _PY_SCALARS:
        return (t, x)
    return None


def _tree(o, in_dtype):
    """(id, leaves, args) of operand `o` of a new node, or None where the
    node cannot be keyed from its children (a shared or unkeyed child)."""
    t = type(o)
    if t is Op:
        if o.used:
            return None  # shared: the walk's back references decide
        o.used = True
        return o.tree
    if t is Leaf:
        tree = o.tree
        if tree is None:
            tree = o.tree = (_intern(("leaf", o.dtype, len(o.shape),
                                      o.from_torch)), (o.array,), (o.array,))
        return tree
    return (-1, (), ((o.value, in_dtype),))


def _binary_op(kind, a, b):
    # _sig inlined for both operands: this runs for every operator.
    ta, tb = type(a), type(b)
    if ta is Op or (ta is Leaf and not a.written):
        sa = (a.dtype, a.shape) if a.shape else None
    else:
        sa = (ta, a) if ta in _PY_SCALARS else None
    if tb is Op or (tb is Leaf and not b.written):
        sb = (b.dtype, b.shape) if b.shape else None
    else:
        sb = (tb, b) if tb in _PY_SCALARS else None
    if sa is not None and sb is not None:
        mkey = (kind, sa, sb)
        info = _NODES.get(mkey)
        if info is not None:
            if ta in _PY_SCALARS:
                a = _new_scalar(Scalar)
                a.value = mkey[1][1]  # what Scalar() keeps of a Python scalar
            if tb in _PY_SCALARS:
                b = _new_scalar(Scalar)
                b.value = mkey[2][1]
            node = Op(info[0], (a, b), info[1], info[2], info[3], info[4])
            _key_node(node, info)
            return node
    ops = (_operand(a), _operand(b))
    if ops[0] is None or ops[1] is None:
        return NotImplemented
    result = binary(kind, ops)
    if (sa is not None and sb is not None and type(result) is Op
            and result.operands is ops):
        if len(_NODES) >= _MEMO_LIMIT:
            _NODES.clear()
        mkey = (kind, sa, sb)
        info = (result.kind, result.in_dtypes, result.dtype, result.shape,
                result.attr)
        info = _NODES[mkey] = info + (_intern((kind,) + info),)
        _key_node(result, info)
    return result


def _key_node(node, info):
    """Sets node.tree from its operands' trees (see _NODES); info[5] is
    the interned id of the node's own part of the key."""
    ops = node.operands
    t0 = _tree(ops[0], info[1][0])
    t1 = _tree(ops[1], info[1][1])
    if t0 is None or t1 is None:
        return
    leaves, args = t0[1], t0[2]
    remap = []  # where each of the second operand's leaves is in `leaves`
    for a1 in t1[2]:
        if type(a1) is tuple:  # a scalar: always an argument of its own
            args += (a1,)
            continue
        for i, l in enumerate(leaves):
            if l is a1:
                break
        else:
            i = len(leaves)
            leaves += (a1,)
            args += (a1,)
        remap.append(i)
    if len(args) <= _TREE_LIMIT:
        node.tree = (_intern((info[5], t0[0], t1[0], tuple(remap))),
                     leaves, args)


def _matmul(ops):
    for i, o in enumerate(ops):
        if isinstance(o, Scalar):
            raise ValueError(f"matmul: operand {i} is a scalar; matmul needs "
                             "at least one dimension per operand")
    shape = _table.matmul(ops[0].shape, ops[1].shape)
    dtype = _promote(ops)
    if dtype == BOOL:
        # NumPy's bool matmul is "any of (a and b)": count in i64, then test
        # nonzero (i1 multiply-add would wrap like xor).
        counts = Op("matmul", ops, (np.dtype(np.int64),) * 2,
                    np.dtype(np.int64), shape)
        return Op("cast", (counts,), (counts.dtype,), BOOL, shape)
    return Op("matmul", ops, (dtype, dtype), dtype, shape)


def _table_function(row):
    """stride.<name> of a table row: the lazy op, with NumPy's dtypes."""
    nin, kind, name = row.arity, row.mnemonic, row.names[0]

    def fn(*args):
        if len(args) != nin:
            raise TypeError(f"stride.{name} takes {nin} operand(s), got "
                            f"{len(args)}")
        return _by_table(row, operands(args, name))
    fn.__name__ = name
    fn.__qualname__ = name
    fn.__doc__ = (f"Lazy numpy.{name}, with NumPy's result dtype (stride.{kind})."
                  if row.ufunc is not None else
                  f"Lazy stride.{kind}, with numpy.{row.dtype_ufunc.__name__}'s "
                  "dtypes.")
    return fn


# One function per op of the table, under each of its names.
TABLE_FUNCTIONS = {}
for _row in _table.FUNCTION_OPS:
    _fn = _table_function(_row)
    for _name in _row.names:
        TABLE_FUNCTIONS[_name] = _fn
del _row, _fn, _name
# (Not under names that would shadow builtins in this module: stride.abs
# and stride.pow are the package's.)
globals().update({k: v for k, v in TABLE_FUNCTIONS.items()
                  if not hasattr(builtins, k)})


def clip(a, a_min, a_max):
    """Lazy numpy.clip: minimum(maximum(a, a_min), a_max), NaN propagating;
    one bound may be None."""
    if a_min is None and a_max is None:
        raise ValueError("stride.clip: one of a_min and a_max must be given "
                         "(as in NumPy)")
    given = tuple(x for x in (a, a_min, a_max) if x is not None)
    dtype = _promote(operands(given, "clip"))
    # A missing bound is the dtype's extreme, not maximum/minimum: NumPy's
    # clip keeps the bound on a tie of -0.0 and +0.0, IEEE maximum does not.
    if dtype.kind == "f":
        extremes = (dtype.type(-np.inf), dtype.type(np.inf))
    elif dtype.kind == "b":
        extremes = (np.False_, np.True_)
    else:
        info = np.iinfo(dtype)
        extremes = (dtype.type(info.min), dtype.type(info.max))
    a_min = extremes[0] if a_min is None else a_min
    a_max = extremes[1] if a_max is None else a_max
    ops = operands((a, a_min, a_max), "clip")
    return _elementwise("clip", ops, dtype, dtype)


def matmul(a, b):
    """Lazy numpy.matmul: 1-D operands promoted, batch dims broadcast."""
    return _matmul(operands((a, b), "matmul"))


def where(condition, x, y):
    """Lazy numpy.where(condition, x, y); a non-bool condition tests nonzero."""
    ops = operands((condition, x, y), "where")
    dtype = _promote(ops[1:])
    return _elementwise("select", ops, None, dtype,
                        in_dtypes=(BOOL, dtype, dtype))


# NumPy's reductions: the Stride op of each (stride.<kind>), NumPy's
# function computing it (for 0-d values and result dtypes), and whether an
# empty reduced axis is an error (no identity).
REDUCTIONS = {
    "sum": (np.sum, False), "prod": (np.prod, False),
    "amax": (np.amax, True), "amin": (np.amin, True),
    "mean": (np.mean, False), "argmax": (np.argmax, True),
    "argmin": (np.argmin, True), "any": (np.any, False),
    "all": (np.all, False),
}
_NUMPY_REDUCTION_NAMES = {"amax": "maximum", "amin": "minimum",
                          "argmax": "argmax", "argmin": "argmin"}
_REDUCTION_DTYPES = {}


def _reduction_dtype(kind, dtype):
    """NumPy's result dtype of reduction `kind` of a `dtype` array (its own
    answer on one element: sum of int32 is int64, mean of ints float64)."""
    key = (kind, dtype)
    result = _REDUCTION_DTYPES.get(key)
    if result is None:
        with np.errstate(all="ignore"):
            result = REDUCTIONS[kind][0](np.ones(1, dtype)).dtype
        result = _REDUCTION_DTYPES[key] = _dtypes.check(
            result, f"the result of stride.{kind}")
    return result


def reduce(kind, x, axis=None, keepdims=False, dtype=None):
    """A lazy reduction (stride.sum, ...) of `x` over `axis` (None: all;
    an int or a tuple, negative ones from the end), as NumPy's function:
    its result dtype (dtype= for sum, prod and mean converts first, as
    NumPy accumulates in it), its axis errors, and argmax/argmin over one
    axis or the flattened array."""
    (op,) = operands((x,), kind)
    if isinstance(op, Scalar):
        op = as_root(op)
    if (kind == "mean" and dtype is None and op.dtype.kind in "biu"
            and HOOKS.current_trace() is not None):
        # A @stride.jit function is NumPy code: its mean of integers
        # accumulates in float64 whatever the layout policy (policy torch
        # refuses it for lazy expressions, as PyTorch does).
        dtype = np.float64
    ndim = len(op.shape)
    argument = kind in ("argmax", "argmin")
    if argument and op.dtype == BOOL and HOOKS.current_trace() is not None:
        # NumPy's argmax of bools is the first True (policy torch refuses
        # it for lazy expressions, as PyTorch does): the index of the
        # first 1 in uint8.
        op = Op("cast", (op,), (BOOL,), np.dtype(np.uint8), op.shape)
    if argument and axis is not None and not isinstance(
            axis, (int, np.integer)):
        raise TypeError(f"numpy.{kind}: axis must be an integer or None, "
                        f"got {axis!r}" + user_line())
    if axis is None:
        axes = None
    else:  # NumPy's own AxisError; argmax of a 0-d array takes axis 0 or -1
        try:
            axes = np.core.numeric.normalize_axis_tuple(
                axis, 1 if argument and ndim == 0 else ndim)
        except np.AxisError:
            raise
        except ValueError:  # ufunc.reduce's words for a repeated axis
            raise ValueError("duplicate value in 'axis'") from None
    reduced = range(ndim) if axes is None or ndim == 0 else axes
    if REDUCTIONS[kind][1] and any(op.shape[d] == 0 for d in reduced) or (
            REDUCTIONS[kind][1] and axes is None and 0 in op.shape):
        name = _NUMPY_REDUCTION_NAMES[kind]
        raise ValueError(
            f"attempt to get {name} of an empty sequence" if argument else
            f"zero-size array to reduction operation {name} which has no "
            "identity")
    source = op.dtype
    if dtype is not None:
        if kind not in ("sum", "prod", "mean"):
            raise TypeError(f"numpy.{kind}: dtype= is not supported")
        source = _dtypes.check(dtype, f"dtype of stride.{kind}")
    result = (source if dtype is not None and kind != "mean"
              else _reduction_dtype(kind, source))
    if dtype is not None and kind == "mean":
        result = source
    if argument and axes is None:
        shape = (1,) * ndim if keepdims else ()
    else:
        keep = set(reduced)
        shape = tuple((1 if d in keep else n) for d, n in enumerate(op.shape)
                      if keepdims or d not in keep)
    if ndim == 0:
        shape = ()
    attr = (None if axes is None else tuple(axes), bool(keepdims))
    widened = _reduction_dtype(kind, source)
    if dtype is not None and kind != "mean" and widened != result:
        # A sum or product in a narrower integer (or bool) dtype than the
        # op's own: summed in the op's (int64), then cast, which keeps the
        # same low bits as NumPy's wrapping accumulation in dtype= (and is
        # its logical or for bools).
        return Op(kind, (op,), (source,), widened, shape, attr).astype(result)
    # The op reads the input converted to dtype= (NumPy accumulates in it).
    return Op(kind, (op,), (source,), result, shape, attr)


def _reduction_function(kind):
    def fn(a, axis=None, keepdims=False, dtype=None):
        return reduce(kind, a, axis, keepdims, dtype)
    fn.__name__ = fn.__qualname__ = kind
    fn.__doc__ = (f"Lazy numpy.{kind}(a, axis=None, keepdims=False"
                  + (", dtype=None" if kind in ("sum", "prod", "mean") else "")
                  + f"), with NumPy's result dtype and layout (stride.{kind}).")
    return fn


REDUCTION_FUNCTIONS = {kind: _reduction_function(kind) for kind in REDUCTIONS}
globals().update({k: v for k, v in REDUCTION_FUNCTIONS.items()
                  if not hasattr(builtins, k)})


# View ops (stride.permute, slice, expand, squeeze, unsqueeze, flip,
# reshape): NumPy's result shape and errors come from NumPy itself, applied
# to a zero-stride stand-in of the operand's shape (no memory); the
# strides, offset and view-or-copy are the policy's, decided by the
# compiler (lib/Layout's view rules), and a chain of views of one input
# materializes as a view of it (_run).
VIEWS = ("permute", "slice", "expand", "squeeze", "unsqueeze", "flip",
         "reshape")


def _numpy_view(kind, attr):
    """NumPy's function of view `kind` with attribute `attr`."""
    if kind == "permute":
        return lambda a: np.transpose(a, attr)
    if kind == "slice":
        return lambda a: a[tuple(slice(*s) for s in attr)]
    if kind == "expand":
        return lambda a: np.broadcast_to(a, attr)
    if kind == "squeeze":
        return lambda a: np.squeeze(a, attr)
    if kind == "unsqueeze":
        return lambda a: np.expand_dims(a, attr)
    if kind == "flip":
        return lambda a: np.flip(a, attr)
    return lambda a: np.reshape(a, attr)


def _stand_in(shape):
    return np.lib.stride_tricks.as_strided(np.zeros(1, np.int8), shape,
                                           (0,) * len(shape))


def view(kind, x, attr, numpy_view):
    """The lazy view `kind` of `x` with attribute `attr` (see _codegen);
    `numpy_view` is NumPy's function of the same view, for the shape."""
    (op,) = operands((x,), kind)
    if isinstance(op, Scalar):
        op = as_root(op)
    shape = numpy_view(_stand_in(op.shape)).shape
    result = Op(kind, (op,), (op.dtype,), op.dtype, tuple(shape), attr)
    t = type(x)
    # An intermediate (Op) becomes memory if the function writes into it
    # later (NumPy's results are arrays): its views must then show the write.
    if (t is Leaf or t is Local or t is Snapshot or t is Written or t is Op) \
            and HOOKS.current_trace() is not None:
        HOOKS.on_snapshot(result, x)
    return result


def transpose(a, axes=None):
    """Lazy numpy.transpose (axes None reverses them)."""
    (op,) = operands((a,), "transpose")
    ndim = len(op.shape)
    perm = (tuple(range(ndim))[::-1] if axes is None else
            np.core.numeric.normalize_axis_tuple(axes, ndim, allow_duplicate=False))
    if len(perm) != ndim:
        raise ValueError("axes don't match array")
    return view("permute", a, tuple(perm), lambda v: np.transpose(v, perm))


def swapaxes(a, axis1, axis2):
    (op,) = operands((a,), "swapaxes")
    ndim = len(op.shape)
    a1, a2 = (np.core.numeric.normalize_axis_index(ax, ndim)
              for ax in (axis1, axis2))
    perm = list(range(ndim))
    perm[a1], perm[a2] = perm[a2], perm[a1]
    return view("permute", a, tuple(perm), lambda v: np.swapaxes(v, a1, a2))


def _index_order(a, order, what):
    """'C' or 'F' for NumPy's `order` of reshape and ravel: 'A' and 'K'
    read the layout of an array argument (Fortran-contiguous: 'F'); of a
    computed value Stride decides the layout, so they are refused."""
    if order in ("C", "F"):
        return order
    if order not in ("A", "K"):
        raise ValueError(f"{what}: order must be one of 'C', 'F', 'A' or "
                         f"'K' (got {order!r})")
    if isinstance(a, np.ndarray):
        a = lazy(a)
    if type(a) is Leaf:
        flags = a.array.flags
        return "F" if flags.f_contiguous and not flags.c_contiguous else "C"
    if type(a) is Local and not a.keys and a.mem.order in ("C", "F"):
        return a.mem.order
    if len(operand(a).shape) < 2:
        return "C"
    raise TypeError(f"{what} with order={order!r} of a computed value is not "
                    "supported: its memory order is Stride's choice; give "
                    "order='C' or 'F'" + user_line())


def reshape(a, newshape, order="C"):
    """numpy.reshape: order 'F' reads and writes the elements with the first
    index fastest, which is the C-order reshape of the reversed axes."""
    target = (newshape,) if isinstance(newshape, (int, np.integer)) else \
        tuple(int(n) for n in newshape)
    if _index_order(a, order, "reshape") == "F":
        return transpose(reshape(transpose(a), target[::-1]))
    return view("reshape", a, target, lambda v: v.reshape(target))


def ravel(a, order="C"):
    return reshape(a, (-1,), _index_order(a, order, "ravel"))


def squeeze(a, axis=None):
    (op,) = operands((a,), "squeeze")
    # Without axis, the unit dims of the traced shape: named, so that the
    # op also verifies on the dynamic shapes @stride.jit compiles.
    dims = tuple(d for d, n in enumerate(op.shape) if n == 1) if axis is None \
        else np.core.numeric.normalize_axis_tuple(axis, len(op.shape))
    return view("squeeze", a, dims, lambda v: np.squeeze(v, axis))


def expand_dims(a, axis):
    (op,) = operands((a,), "expand_dims")
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    out_ndim = len(op.shape) + len(axes)
    op = a
    for d in sorted(np.core.numeric.normalize_axis_tuple(axes, out_ndim)):
        op = view("unsqueeze", op, d, lambda v, d=d: np.expand_dims(v, d))
    return op


def flip(m, axis=None):
    (op,) = operands((m,), "flip")
    dims = tuple(range(len(op.shape))) if axis is None else \
        np.core.numeric.normalize_axis_tuple(axis, len(op.shape))
    return view("flip", m, dims, lambda v: np.flip(v, dims))


def broadcast_to(array, shape):
    target = (shape,) if isinstance(shape, (int, np.integer)) else \
        tuple(int(n) for n in shape)
    return view("expand", array, target, lambda v: np.broadcast_to(v, target))


def advanced_key(key):
    """Whether `key` indexes with integer arrays (NumPy's advanced
    indexing): inside a trace NumPy runs it between kernels, outside one
    it gives NumPy's answer on the materialized values (_numpy_index)."""
    for k in key if isinstance(key, tuple) else (key,):
        if isinstance(k, list) or (isinstance(k, (np.ndarray, Expr))
                                   and k.dtype.kind in "iu"):
            return True
    return False


def _advanced_index(x, key):
    """x[key] with integer index arrays: NumPy's own indexing, between
    kernels inside a trace, else on the materialized values (as NumPy
    functions Stride does not build lazily are)."""
    if HOOKS.current_trace() is not None:
        row = HOOKS.dynamic_index(x, key)
        return HOOKS.host_index(x, key) if row is None else row
    key = tuple(HOOKS.materialize(k) if isinstance(k, Expr) else k
                for k in (key if isinstance(key, tuple) else (key,)))
    return (x.array if type(x) is Leaf else HOOKS.materialize(x))[key]


def basic_key(key, what):
    """`key` as a tuple of basic indices (ints, slices, ..., None), else
    the TypeError naming `what` was indexed."""
    key = key if isinstance(key, tuple) else (key,)
    if any(not (k is None or k is Ellipsis or isinstance(k, (int, slice, np.integer)))
           or isinstance(k, (bool, np.bool_)) for k in key):
        raise TypeError(f"only basic indexing (integers, slices, ..., None) "
                        f"of {what} is supported" + user_line())
    return key


def index(x, key, positive_steps=False):
    """x[key] for basic indexing (ints, slices, ..., None) of an
    intermediate: a slice, then the integer-indexed dims squeezed, then the
    new axes inserted, as NumPy's view. Negative steps become a slice and a
    flip inside a trace, or with `positive_steps`."""
    key = basic_key(key, "a lazy stride expression")
    _stand_in(x.shape)[key]  # NumPy's IndexError for a bad key
    whole_key = key
    if sum(k is Ellipsis for k in key) == 0:
        key = key + (Ellipsis,)
    real = [k for k in key if k is not None and k is not Ellipsis]
    fill = len(x.shape) - len(real)
    expanded = []
    for k in key:
        expanded.extend([slice(None)] * fill if k is Ellipsis else [k])
    slices, ints, news, out_dim = [], [], [], 0
    for k in expanded:
        if k is None:
            news.append(out_dim)
            out_dim += 1
            continue
        d = len(slices)
        if isinstance(k, slice):
            slices.append((k.start, k.stop, k.step))
            out_dim += 1
        else:
            i = int(k) + (x.shape[d] if int(k) < 0 else 0)
            slices.append((i, i + 1, None))
            ints.append(d)
    op = x
    spec = tuple(tuple(None if v is None else int(v) for v in s) for s in slices)
    flipped = ()
    if (positive_steps or HOOKS.current_trace() is not None) and any(
            s[2] is not None and s[2] < 0 for s in spec):
        # A @stride.jit function is NumPy code whatever the layout policy:
        # a negative step selects the elements a positive one does, in
        # reverse order, so it is that slice and a flip.
        spec, flipped = _positive_steps(spec, x.shape)
    if any(s != (None, None, None) for s in spec):
        op = view("slice", op, spec, lambda v: v[tuple(
            slice(*s) for s in spec)])
    if flipped:
        op = flip(op, flipped)
    if ints:
        op = view("squeeze", op, tuple(ints), lambda v: np.squeeze(v, tuple(ints)))
    for d in news:
        op = view("unsqueeze", op, d, lambda v, d=d: np.expand_dims(v, d))
    if type(op) is Snapshot:
        HOOKS.on_index(op, x, whole_key)
    elif op is x and not x.shape and not whole_key and \
            HOOKS.current_trace() is not None:
        # z[()] of a 0-d array: NumPy's scalar, a copy of it now.
        (value,) = operands((x,), "index")
        op = Op("copy", (value,), (value.dtype,), value.dtype, ())
    return op


def _positive_steps(spec, shape):
    """Slices with negative steps as the slices of positive steps that
    select the same elements, and the dims to flip after them."""
    out, flipped = [], []
    for d, (start, stop, step) in enumerate(spec):
        if step is None or step > 0:
            out.append((start, stop, step))
            continue
        first, last, step = slice(start, stop, step).indices(shape[d])
        count = len(range(first, last, step))
        low = first + (count - 1) * step if count else 0
        out.append((low, low + (count - 1) * -step + 1 if count else 0,
                    -step if -step != 1 else None))
        flipped.append(d)
    return tuple(out), tuple(flipped)


def _broadcasts(op):
    """Whether a chain of view ops ending at `op` holds an expand (whose
    result repeats elements)."""
    while isinstance(op, Op) and op.kind in VIEWS:
        if op.kind == "expand":
            return True
        op = op.operands[0]
    return False


def as_root(x):
    """The expression materialize runs: a bare array or scalar becomes a copy
    so that every kernel has one op producing its result."""
    op = _operand(x)
    if op is None:
        raise TypeError(f"cannot materialize an object of type "
                        f"{type(x).__name__}")
    if isinstance(op, Op):
        if op.kind in VIEWS and _broadcasts(op):
            # A kernel result cannot repeat elements: a broadcast view of
            # an intermediate is materialized as a dense copy.
            return _elementwise("copy", (op,), op.dtype, op.dtype)
        return op
    dtype = _promote((op,))
    return _elementwise("copy", (op,), dtype, dtype)


# For the layers above: an operand's node (memory resolved), NumPy's view
# shapes on a stand-in, and NumPy's function of a view op.
operand, stand_in, numpy_view = _operand, _stand_in, _numpy_view
