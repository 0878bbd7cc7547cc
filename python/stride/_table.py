"""The op table, the shape rules and the policy names, served by the
extension from the C++ that owns them: the named elementwise ops come from
the dialect's TableGen (`_stride.elementwise_ops()`, OpTable.h), broadcasting
and matmul shapes from lib/Layout, the policies from its enum. Adding an
elementwise op to StrideOps.td makes it a NumPy ufunc on lazy expressions
and a `stride.<name>` function here without a Python edit.

Each op's result dtype is NumPy's own: the promoted operand dtype goes
through `resolve_dtypes` of the ufunc the op follows, so the loop NumPy
would run (exp of int32 is float64, logical_and of int32 reads bools) is
the op Stride builds."""
import numpy as np

from . import _dtypes, _stride

POLICIES = tuple(_stride.policies())


def check_policy(policy):
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; expected one of "
                         + ", ".join(POLICIES))


def fmt(shape):
    """NumPy's spelling of a shape in messages: (3,4), (5,), ()."""
    if len(shape) == 1:
        return f"({shape[0]},)"
    return "(" + ",".join(str(n) for n in shape) + ")"


_BROADCASTS = {}
_SHAPES_LIMIT = 4096


def broadcast(*shapes):
    """NumPy's broadcast shape (lib/Layout's rule), or ValueError with
    NumPy's message; memoized, since every node asks."""
    shape = _BROADCASTS.get(shapes)
    if shape is None:
        shape = _stride.broadcast_shapes(*shapes)
        if len(_BROADCASTS) >= _SHAPES_LIMIT:
            _BROADCASTS.clear()
        _BROADCASTS[shapes] = shape
    return shape


def matmul(lhs, rhs):
    """numpy.matmul's result shape (lib/Layout's rule), or ValueError."""
    return _stride.matmul_shape(lhs, rhs)


# ufunc -> its names in NumPy's namespace, its __name__ first.
_NUMPY_NAMES = {}
for _name, _value in vars(np).items():
    if isinstance(_value, np.ufunc):
        _NUMPY_NAMES.setdefault(_value, [_value.__name__])
        if _name != _value.__name__:
            _NUMPY_NAMES[_value].append(_name)
del _name, _value


class OpRow:
    """One named elementwise op of the dialect."""
    __slots__ = ("mnemonic", "ufunc", "dtype_ufunc", "arity", "result",
                 "accepts", "names", "_loops")

    def __init__(self, row):
        self.mnemonic = row["mnemonic"]
        self.ufunc = getattr(np, row["ufunc"]) if row["ufunc"] else None
        self.dtype_ufunc = (getattr(np, row["dtype_ufunc"])
                            if row["dtype_ufunc"] else None)
        self.arity = row["arity"]
        self.result = row["result"]
        self.accepts = frozenset(_dtypes.NUMPY_TYPES[t]
                                 for t in row["element_types"])
        # stride.<name>: every NumPy name of the ufunc (np.abs and
        # np.absolute, np.mod and np.remainder), its __name__ first,
        # and the op's mnemonic.
        self.names = (*_NUMPY_NAMES.get(self.ufunc, ()), self.mnemonic)
        self.names = tuple(dict.fromkeys(self.names))
        self._loops = {}

    def resolve(self, dtype):
        """(operand dtype, result dtype) of the op on operands promoted to
        `dtype`: NumPy's loop, taken as the op accepts it; TypeError where
        NumPy refuses or gives a dtype Stride lacks."""
        loop = self._loops.get(dtype)
        if loop is None:
            loop = self._loops[dtype] = self._resolve(dtype)
        if isinstance(loop, Exception):
            raise TypeError(str(loop))
        return loop

    def resolve_each(self, dtypes, promoted):
        """resolve() for operands of different array dtypes: NumPy searches
        its loops with each operand's own dtype, so arctan2 of int8 and
        uint8 runs the float16 loop (both cast safely), not the loop of
        their promotion (int16: float32). Loops that read their operands
        in different types keep the promoted dtype's loop."""
        loop = self._loops.get(dtypes)
        if loop is None:
            loop = self._loops[dtypes] = self._resolve(dtypes)
            if not isinstance(loop, Exception) and loop[0] is None:
                loop = self._loops[dtypes] = self.resolve(promoted)
        if isinstance(loop, Exception):
            raise TypeError(str(loop))
        return loop

    def _resolve(self, dtype):
        name = self.names[0]
        if self.dtype_ufunc is None:
            return TypeError(f"stride.{name} has no NumPy ufunc to take its "
                             "dtypes from; it is reached only through IR")
        each = dtype if isinstance(dtype, tuple) else (dtype,) * self.arity
        if isinstance(dtype, tuple):
            dtype = ", ".join(str(d) for d in dtype)
        try:
            loop = self.dtype_ufunc.resolve_dtypes(each + (None,))
        except TypeError as e:  # NumPy's own refusal (bool subtract, ...)
            return TypeError(f"stride.{name}: {e}")
        if len(set(loop[:-1])) != 1:
            return None, None  # operands read in different types
        operand, result = loop[0], loop[-1]
        for d in (operand, result):
            if d not in _dtypes.MLIR_TYPES:
                return TypeError(
                    f"stride.{name} of {dtype} operands gives {d} in NumPy, "
                    "a dtype Stride does not support")
        if operand not in self.accepts:
            # NumPy's loop reads the operands as its result type (the
            # logical ops test integers for nonzero): so does the op.
            if result in self.accepts:
                operand = result
            else:
                return TypeError(f"stride.{name} is not defined for {dtype} "
                                 "operands")
        gives = {"same": operand, "i1": _dtypes.BOOL}.get(self.result)
        if gives != result:
            return TypeError(f"stride.{name} of {dtype} gives {gives} while "
                             f"NumPy gives {result}")
        return operand, result


OPS = {row["mnemonic"]: OpRow(row) for row in _stride.elementwise_ops()}
# The ops front ends reach through a ufunc's name or a stride.<name>
# function: those with a dtype rule (cmp, select, cast and clip have
# functions of their own).
UFUNC_OPS = {r.ufunc.__name__: r for r in OPS.values() if r.ufunc is not None}
FUNCTION_OPS = [r for r in OPS.values() if r.dtype_ufunc is not None]
