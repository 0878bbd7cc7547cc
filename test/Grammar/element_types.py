"""Stride's element types (f32 f64 i32 i64 i1 i8 i16): NumPy and PyTorch dtypes,
MLIR spelling of types and constants, and the bounds that keep values tame."""

import numpy as np

FLOATS = ("f32", "f64")
INTS = ("i32", "i64", "i8", "i16")
ALL = FLOATS + INTS + ("i1",)

NUMPY = {"f32": np.float32, "f64": np.float64, "i32": np.int32,
         "i64": np.int64, "i1": np.bool_, "i8": np.int8, "i16": np.int16}
NPY_NAME = {"f32": "float32", "f64": "float64", "i32": "int32",
            "i64": "int64", "i1": "bool", "i8": "int8", "i16": "int16"}
BITS = {"i32": 32, "i64": 64, "i1": 1, "i8": 8, "i16": 16}

# Values beyond these are not used as operands (no overflow, no inf).
TAME_FLOAT = 1.0e4
TAME_INT = {"i32": 1 << 24, "i64": 1 << 40, "i1": 1, "i8": 1 << 5,
            "i16": 1 << 11}


def is_float(dt):
    return dt in FLOATS


def is_int(dt):
    return dt in INTS


def torch_dtype(dt):
    import torch
    return {"f32": torch.float32, "f64": torch.float64, "i32": torch.int32,
            "i64": torch.int64, "i1": torch.bool, "i8": torch.int8,
            "i16": torch.int16}[dt]


def dtype_of_numpy(np_dtype):
    for dt, t in NUMPY.items():
        if np.dtype(t) == np.dtype(np_dtype):
            return dt
    raise ValueError(np_dtype)


def scalar_literal(dt, v):
    """The text of an arith.constant value (without the type)."""
    if dt == "i1":
        return "true" if bool(v) else "false"
    if is_int(dt):
        return str(int(v))
    f = float(v)
    text = repr(f)
    if "e" in text or "inf" in text or "nan" in text:
        text = "%.17e" % f
    elif "." not in text:
        text += ".0"
    return text


def dense_literal(dt, array):
    """dense<...> text of an array (nested brackets, rank 0 without)."""
    a = np.asarray(array)
    if a.ndim == 0:
        return "dense<%s>" % scalar_literal(dt, a[()])

    def rec(x):
        if x.ndim == 1:
            return "[" + ", ".join(scalar_literal(dt, v) for v in x) + "]"
        return "[" + ", ".join(rec(s) for s in x) + "]"
    return "dense<%s>" % rec(a)


class TensorType:
    """A builtin tensor type: dims is a tuple (None for '?') or None for an
    unranked tensor; enc the #stride.layout text or None."""

    def __init__(self, dt, dims, enc=None):
        self.dt, self.dims, self.enc = dt, None if dims is None else tuple(dims), enc

    @property
    def ranked(self):
        return self.dims is not None

    @property
    def static(self):
        return self.ranked and all(d is not None for d in self.dims)

    def spell(self):
        if self.dims is None:
            return "tensor<*x%s>" % self.dt
        body = "".join(("?" if d is None else str(d)) + "x" for d in self.dims)
        enc = ", " + self.enc if self.enc else ""
        return "tensor<%s%s%s>" % (body, self.dt, enc)

    def __eq__(self, other):
        return isinstance(other, TensorType) and self.spell() == other.spell()

    def __hash__(self):
        return hash(self.spell())


class ScalarType:
    def __init__(self, dt):
        self.dt = dt

    def spell(self):
        return self.dt

    def __eq__(self, other):
        return isinstance(other, ScalarType) and other.dt == self.dt

    def __hash__(self):
        return hash(self.dt)


def plain(dt, shape):
    return TensorType(dt, shape)


def contiguous_strides(shape):
    """torch.empty(shape).stride(): each size counts as at least 1."""
    inner = [max(n, 1) for n in shape[1:]] + [1]   # the size inside each dim
    return tuple(int(s) for s in np.cumprod(inner[::-1])[::-1])[:len(shape)]
