"""Element types Stride supports and NumPy's promotion rules for them."""
import numpy as np

from . import _stride

# The extension's element-type table (include/stride/Support/ElementType.h),
# one dict per row. Only these dtypes: the kernels are generated for exactly
# these, and every other dtype is rejected up front rather than silently
# converted (a silent copy would break zero-copy).
ELEMENT_TYPES = tuple(_stride.element_types())

# NumPy dtype -> MLIR element type, and back.
MLIR_TYPES = {np.dtype(row["numpy"]): row["name"] for row in ELEMENT_TYPES}
NUMPY_TYPES = {v: k for k, v in MLIR_TYPES.items()}

NUMPY_NAMES = [row["numpy"] for row in ELEMENT_TYPES]
# "float32, float64, int32, int64 and bool", for messages.
SUPPORTED = ", ".join(NUMPY_NAMES[:-1]) + " and " + NUMPY_NAMES[-1]

FLOAT64 = np.dtype(np.float64)
BOOL = np.dtype(np.bool_)


def check(dtype, what="array"):
    """Returns `dtype` if Stride supports it, else raises TypeError naming it."""
    dtype = np.dtype(dtype)
    if dtype not in MLIR_TYPES:
        if dtype.kind in "fiub" and not dtype.isnative:
            raise TypeError(
                f"{what} has non-native byte order dtype {dtype.str!r}; "
                f"Stride supports native {SUPPORTED} "
                "(use .astype(dtype.newbyteorder('=')))")
        raise TypeError(
            f"{what} has unsupported dtype {dtype}; Stride supports "
            f"{SUPPORTED}")
    return dtype


def mlir(dtype):
    return MLIR_TYPES[np.dtype(dtype)]


def is_scalar(value):
    """Python and NumPy scalars are weak operands: they become scalar
    arguments of the kernel rather than arrays."""
    return isinstance(value, (bool, int, float, np.generic))


def scalar_operand(value):
    """What np.result_type should see for a scalar: its value, so NumPy 1.24's
    value-based casting picks the dtype (x_int32 + 2 stays int32,
    x_int32 + 2**40 becomes int64)."""
    if isinstance(value, np.generic):
        check(value.dtype, f"scalar {value!r}")
    elif not isinstance(value, (bool, int, float)):
        raise TypeError(f"unsupported scalar {value!r} of type "
                        f"{type(value).__name__}")
    return value


def promote(strong, weak=()):
    """NumPy 1.24's result type for arrays of dtypes `strong` and weak
    operands `weak`: Python and NumPy scalars and 0-d arrays, which NumPy's
    value-based casting counts by value (int32_array + np.array(5) is int32)
    unless they are of a higher kind than every array."""
    try:
        result = np.result_type(*strong, *weak)
    except TypeError as e:
        raise TypeError(f"cannot promote {list(strong) + list(weak)}: {e}")
    return check(result, "the result")


def value_class(value):
    """What NumPy 1.24's value-based casting reads of a weak operand's value
    (a scalar or a 0-d array): np.min_scalar_type, plus, for an unsigned
    one, whether the value also fits the signed type of that size
    (PyArray_MinScalarType's is_small_unsigned: 855410396 is uint32 but
    keeps an int32 array int32, 2**31 is uint32 and makes it int64). Equal
    classes give equal promotions."""
    t = np.min_scalar_type(value)
    if t.kind == "u":
        return t.char + ("s" if int(value) >> (8 * t.itemsize - 1) == 0 else "")
    return t.char
