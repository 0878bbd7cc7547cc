"""Indexing by a computed integer inside a stride.fori_loop body: x[i],
x[i + 1, 2:], x[:, n - 1 - i] read a row of x at an index the kernel
computes, and x[i] = v writes one (JAX's dynamic_slice and
dynamic_update_slice). The index is a 0-d integer expression of the loop
index and constants; its range is bounded when it is traced (interval
arithmetic from the loop's bounds), so an index that could leave the array
is NumPy's IndexError then, never a read outside the buffer. In the kernel
the row is a tensor.extract_slice / insert_slice with a dynamic offset."""
import numpy as np

from . import _expr
from ._errors import user_line

_I64 = np.dtype(np.int64)


def index_range(e):
    """(lowest, highest) value the 0-d integer expression `e` takes, or
    None where Stride cannot bound it (a value read from an array)."""
    if isinstance(e, _expr.Scalar):
        if isinstance(e.value, (bool, np.bool_)) or not isinstance(
                e.value, (int, np.integer)):
            return None
        return int(e.value), int(e.value)
    if not isinstance(e, _expr.Op) or e.shape != ():
        return None
    if e.kind == "loopindex":
        return e.attr
    if e.kind in ("cast", "copy") and e.dtype.kind in "iu" and \
            e.operands[0].dtype.kind in "iu":
        return index_range(e.operands[0])
    ranges = [index_range(o) for o in e.operands]
    if any(r is None for r in ranges):
        return None
    if e.kind == "neg":
        (lo, hi), = ranges
        return -hi, -lo
    if len(ranges) != 2:
        return None
    (a, b), (c, d) = ranges
    if e.kind == "add":
        return a + c, b + d
    if e.kind == "sub":
        return a - d, b - c
    if e.kind == "mul":
        products = (a * c, a * d, b * c, b * d)
        return min(products), max(products)
    if e.kind in ("remainder", "floor_divide") and c == d and c > 0:
        if e.kind == "floor_divide":
            return a // c, b // c
        return (a % c, b % c) if b - a < c and a % c <= b % c else (0, c - 1)
    if e.kind in ("maximum", "minimum"):
        pick = max if e.kind == "maximum" else min
        return pick(a, c), pick(b, d)
    return None


def dynamic_position(key):
    """The positions in `key` of its 0-d integer expressions, when it has
    some and its other entries are basic, else None."""
    entries = key if isinstance(key, tuple) else (key,)
    found = []
    for p, k in enumerate(entries):
        if isinstance(k, _expr.Expr) and k.shape == () and k.dtype.kind in "iu":
            found.append(p)
        elif isinstance(k, (list, np.ndarray, _expr.Expr)):
            return None
    return found or None


def bounded(key):
    """Whether every computed index in `key` has a range Stride can bound
    (else NumPy indexes between kernels, outside a loop body)."""
    entries = key if isinstance(key, tuple) else (key,)
    return all(index_range(_expr.operand(entries[p])) is not None
               for p in dynamic_position(entries))


def _axes(key, ndim, p):
    """(dim of the indexed array, dim of x[rest]) that entry p of the key
    (the dynamic index) addresses, rest being the key with a full slice
    there."""
    entries = key if isinstance(key, tuple) else (key,)
    real = sum(1 for k in entries if k is not None and k is not Ellipsis)
    dim = out = 0
    for k in entries[:p]:
        if k is Ellipsis:
            dim += ndim - real
            out += ndim - real
        elif k is None:
            out += 1
        elif isinstance(k, slice):
            dim += 1
            out += 1
        else:
            dim += 1
    return dim, out


def _bounded_index(idx, n, dim):
    """The index as a non-negative 0-d int64 node, after checking its range
    lies within an axis of size n (NumPy's negative indices wrap)."""
    bounds = index_range(_expr.operand(idx))
    if bounds is None:
        raise TypeError(
            "indexing with a computed integer inside @stride.jit is only "
            "supported for indices Stride can bound when it traces them: a "
            "stride.fori_loop index plus, minus or times constants (this one "
            "is read from an array); use np.take or a mask" + user_line())
    lo, hi = bounds
    if lo < -n or hi >= n:
        bad = hi if hi >= n else lo
        raise IndexError(f"index {bad} is out of bounds for axis {dim} with "
                         f"size {n} (the range of a computed index inside a "
                         "stride.fori_loop body)" + user_line())
    node = _expr.as_root(idx) if not isinstance(idx, _expr.Expr) else idx
    if node.dtype != _I64:
        node = node.astype(_I64)
    if hi < 0:
        node = node + n
    elif lo < 0:
        node = _expr.where(node < 0, node + n, node)
    return _expr.operand(node)


def read(x, key):
    """x[key] with computed integers in the key (see the module): the basic
    entries first, then each computed one as a row, the last axis first."""
    entries = key if isinstance(key, tuple) else (key,)
    dynamic = dynamic_position(entries)
    shape = _expr.operand(x).shape
    rest = tuple(slice(None) if p in dynamic else k
                 for p, k in enumerate(entries))
    y = _expr.operand(x[rest])
    for p in reversed(dynamic):
        dim, out = _axes(rest, len(shape), p)
        if dim >= len(shape):
            raise IndexError(f"too many indices for array: array is "
                             f"{len(shape)}-dimensional" + user_line())
        index = _bounded_index(entries[p], shape[dim], dim)
        row = y.shape[:out] + y.shape[out + 1:]
        y = _expr.Op("dynindex", (y, index), (y.dtype, _I64), y.dtype, row,
                     out)
    return y


def write_node(base, key, value, line):
    """The new contents of memory `base` (a node of static shape) after
    base[key] = value, the key holding computed integers and otherwise full
    slices: the row at the first computed index, written (recursively for
    the others), inserted back."""
    entries = key if isinstance(key, tuple) else (key,)
    dynamic = dynamic_position(entries)
    if any(k is not Ellipsis and k != slice(None)
           for i, k in enumerate(entries) if i not in dynamic):
        raise TypeError("assigning at a computed index inside a "
                        "stride.fori_loop body takes full slices beside the "
                        "index (x[i] = v, x[:, i] = v); slice the value "
                        "instead" + line)
    p = dynamic[0]
    dim, _ = _axes(entries, len(base.shape), p)
    if dim >= len(base.shape):
        raise IndexError(f"too many indices for array: array is "
                         f"{len(base.shape)}-dimensional" + line)
    index = _bounded_index(entries[p], base.shape[dim], dim)
    row = base.shape[:dim] + base.shape[dim + 1:]
    if len(dynamic) > 1:
        # The other computed indices address the row's dims.
        current = _expr.Op("dynindex", (base, index), (base.dtype, _I64),
                           base.dtype, row, dim)
        inner = entries[:p] + entries[p + 1:]
        op = write_node(current, inner, value, line)
    else:
        op = _row_value(value, row, base.dtype, line)
    return _expr.Op("dyninsert", (base, op, index),
                    (base.dtype, base.dtype, _I64), base.dtype, base.shape,
                    dim)


def _row_value(value, row, dtype, line):
    """`value` broadcast to the row's shape and cast to the array's dtype
    (NumPy's item assignment: casting='unsafe')."""
    op = _expr.operand(value)
    if isinstance(op, _expr.Scalar):
        op = _expr.Op("copy", (op,), (dtype,), dtype, ())
    while len(op.shape) > len(row) and op.shape[0] == 1:
        op = _expr.squeeze(op, 0)
    try:
        if len(op.shape) > len(row) or np.broadcast_shapes(op.shape, row) != row:
            raise ValueError
    except ValueError:
        raise ValueError(f"could not broadcast input array from shape "
                         f"{op.shape} into shape {row}" + line) from None
    if op.shape != row:
        op = _expr.broadcast_to(op, row)
    if op.dtype != dtype:
        op = op.astype(dtype)
    return _expr.operand(op)
