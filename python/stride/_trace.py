"""@stride.jit: trace a plain NumPy function with lazy expressions, compile
everything it returns into one fused kernel per signature, and run later
calls through a plan that does only what a call must: check the signature,
allocate the results, call the kernel (which releases the GIL)."""
import bisect
import copy
import functools
import inspect
import linecache
import os
import sys
import threading

import numpy as np

from . import (_codegen, _dtypes, _dynamic_index, _expr, _host, _masked,
               _numpy_api, _run,
               _stride, _table, _torch)
from ._cache import CACHE, compile_kernel
from ._errors import user_line

_tracing = threading.local()

# The most writes one trace may make (see _Trace._written).
MAX_WRITES = int(os.environ.get("STRIDE_MAX_TRACE_WRITES", "12000"))

# A trace is cut into one kernel per this many writes (outside fori_loop
# bodies; see _stages): upstream One-Shot Bufferize's analysis of a chain
# of in-place inserts grows about as the cube of its length (98 writes of
# a Jacobi sweep: 4.2 s, 298: 86 s), so a long unrolled Python loop
# compiles as a sequence of short kernels instead, each handing the values
# later ones read over as results (24 writes: 0.65 s per kernel).
KERNEL_WRITES = int(os.environ.get("STRIDE_KERNEL_WRITES", "24"))

# Leaf.written in a trace that writes arguments: reads of the leaf resolve.
WATCH = 1


def current():
    """The trace running on this thread, or None."""
    return getattr(_tracing, "current", None)


def _user_line():
    return user_line()


def refuse_conversion(what):
    """A TypeError for an implicit materialization inside a trace."""
    raise TypeError(
        f"{what} is not supported inside a @stride.jit function: the value "
        "would be computed once, when the function is traced, and kept as a "
        "constant, so later calls would see stale values. Return the "
        "expression (or write an argument with out= or an augmented "
        "assignment) instead" + _user_line())


def write_out(result, target, inputs=()):
    """ufunc(*inputs, out=target) on a lazy expression. Outside a trace it
    runs now (materialize into target); inside one, target must be memory
    the trace tracks (an argument, an array made in the function, or a
    basic-indexing view of either): its contents become the result (see
    _Trace.write). Returns target, as NumPy does."""
    trace = current()
    if trace is None:
        if _torch.is_tensor(target):
            _run.materialize(result, out=_torch.to_numpy(target, "out"))
            return target
        return _run.materialize(result, out=target)
    permuted = (type(target) is _expr.Snapshot and target.kind == "permute"
                and id(target) in trace.snapshots)
    if (type(target) is not _expr.Local and not trace.is_memory(target)
            and not permuted):
        raise TypeError("writing into an array inside a @stride.jit function "
                        "(out=, np.copyto) is only supported for the "
                        "function's array arguments, arrays it makes, and "
                        "basic-indexing views and transposes of them"
                        + _user_line())
    root = _expr.as_root(result)
    if root.shape != target.shape or root.dtype != target.dtype:
        raise ValueError(f"out= argument has dtype {target.dtype} and shape "
                         f"{target.shape}, the result {root.dtype} "
                         f"{root.shape}")
    if permuted:
        # A transpose of memory (out=o.T): the result, permuted back, is
        # written into the memory the view shows.
        source = trace.snapshots[id(target)][0]
        inverse = tuple(int(i) for i in np.argsort(target.attr))
        write_out(_expr.transpose(root, inverse), source, inputs)
        return target
    trace.write(target, Ellipsis, root, "out=", _user_line())
    return target


def inplace(symbol, target, other):
    """`target <op>= other` inside a trace, with NumPy's meaning: memory (an
    argument, an array made in the function, an intermediate result, a view
    of one of these) gets ufunc(target, other, out=target) and the name
    stays bound to it. Scalars
    (scalar arguments, elements x[i], 0-d results, which NumPy gives as
    scalars) rebind the name to a new value."""
    trace = current()
    t = type(target)
    if trace.is_value(target) or (t is not _expr.Local and not trace.is_memory(target)
                                  and t is not _expr.Leaf and target.shape == ()):
        return NotImplemented  # a Python or NumPy scalar: `a = a + b`
    written = _written_through(trace, target)
    if written is not None:
        # A view NumPy writes through (x[key], a row x[i] at a computed
        # index, x.T): the value is stored into what it shows, and the name
        # stays standing for the view (a row is read again).
        source, key = written
        value = _expr.inplace_value(symbol, target, other)
        if value is NotImplemented:
            return value
        setitem(source, key, value)
        return source[key] if id(target) in trace.dynamic_rows else target
    if t is _expr.Snapshot:
        raise TypeError(f"augmented assignment ({symbol}) on the result of "
                        f"{target.kind} (a view of an array) is not supported "
                        "inside @stride.jit; update the array itself"
                        + _user_line())
    line = _user_line()
    if t is _expr.Leaf and not trace.is_memory(target):
        raise TypeError(f"augmented assignment ({symbol}) on an array the "
                        "@stride.jit function closed over is not supported "
                        "(only its array arguments, arrays it makes and views "
                        "of them can be written)" + line)
    if symbol == "@=":
        raise TypeError("In-place matrix multiplication is not (yet) "
                        "supported. Use 'a = a @ b' instead of 'a @= b' "
                        "(as in NumPy 1.24)" + line)
    if symbol == "**=":
        raise TypeError("augmented assignment **= of an array is not "
                        "supported inside @stride.jit: NumPy's in-place "
                        "power takes value-dependent shortcuts (a **= 2 is "
                        "np.square, a **= 0.5 np.sqrt, ...); write a = a ** "
                        "b, or np.power(a, b, out=a)" + line)
    value = _expr.inplace_value(symbol, target, other)
    if value is NotImplemented:
        return value
    trace.as_memory(target)
    trace.write(target, Ellipsis, value, symbol, line)
    return target


def setitem(target, key, value):
    """target[key] = value inside a trace (an argument, an array made in
    the function, an intermediate result, or a view of one of these)."""
    trace = current()
    line = _user_line()
    if isinstance(target, _expr.Op) and id(target) in trace.dynamic_rows:
        raise TypeError("assigning into x[i] (a row at a computed index "
                        "inside a stride.fori_loop body) is not supported; "
                        "assign the row itself, x[i] = ..." + line)
    if _dynamic_index.dynamic_position(key) is not None and \
            not _masked.is_mask(key) and \
            (trace.loops or _dynamic_index.bounded(key)):
        trace.as_memory(target)
        trace.write_at(target, key, value, line)
        return
    if type(target) is _expr.Snapshot and target.kind == "permute" and \
            id(target) in trace.snapshots and not _expr.advanced_key(key) \
            and not _masked.is_mask(key):
        _set_through_permute(trace, target, key, value)
        return
    if type(target) is _expr.Snapshot:
        raise TypeError(f"assigning into the result of {target.kind} (a view "
                        "of an array) is not supported inside @stride.jit; "
                        "assign into the array itself" + line)
    trace.as_memory(target)
    if not trace.is_memory(target) and type(target) is not _expr.Local:
        raise TypeError("assigning into an array the @stride.jit function "
                        "closed over (x[...] = value) is not supported (only "
                        "its array arguments, arrays it makes and views of "
                        "them can be written)" + line)
    if _expr.advanced_key(key):
        # NumPy's assignment through index arrays, run between kernels on
        # the current contents: its result replaces them.
        new = _host.call(_host.scatter, "assignment through an integer "
                         "index array", (target, key, value), {},
                         bool(trace.loops))
        if new is None:
            raise TypeError("assignment through an integer index array "
                            "(x[idx] = v) is not supported inside a "
                            "stride.fori_loop body" + line)
        key, value = Ellipsis, new
    trace.write(target, key, value, "item assignment", line)


def _written_through(trace, target):
    """(memory object, key) that `target <op>= v` writes when `target` is a
    view NumPy writes through, else None."""
    if type(target) is _expr.Snapshot:
        if id(target) in trace.index_keys:
            return trace.index_keys[id(target)]
        if target.kind == "permute" and id(target) in trace.snapshots:
            return target, Ellipsis  # setitem of the transpose writes x
        return None
    return trace.dynamic_rows.get(id(target))


def _set_through_permute(trace, target, key, value):
    """t[key] = value for t a transpose of memory (x.T[0] = v, x.T += 1):
    NumPy's view writes x, so this is x[key'] = value' with key' the key
    of each of t's dims put at the dim of x it shows and value' the value,
    broadcast to t[key]'s shape, with its dims in x's order."""
    source = trace.snapshots[id(target)][0]
    perm = target.attr
    nd = len(perm)
    key = _expr.basic_key(key, "a transpose")
    if any(k is None for k in key):
        raise TypeError("assigning into a transpose with np.newaxis in the "
                        "key is not supported inside @stride.jit; assign "
                        "into the array itself" + _user_line())
    shape = _expr.stand_in(target.shape)[key].shape  # NumPy's IndexError
    if Ellipsis in key:
        at = key.index(Ellipsis)
        key = key[:at] + (slice(None),) * (nd - len(key) + 1) + key[at + 1:]
    key = key + (slice(None),) * (nd - len(key))
    source_key = [None] * nd
    for i, k in enumerate(key):
        source_key[perm[i]] = k
    kept = [i for i, k in enumerate(key) if isinstance(k, slice)]
    v = _expr.operand(value)
    if isinstance(v, _expr.Expr):
        # Dim j of source[source_key] is the kept dim of t whose source dim
        # is the j-th smallest.
        order = tuple(int(j) for j in np.argsort([perm[i] for i in kept]))
        value = _expr.transpose(_expr.broadcast_to(v, shape), order)
    setitem(source, tuple(source_key), value)


def resolve(x):
    """The node of memory object `x`'s current contents."""
    return current().resolve(x)


def local_view(local, key):
    """local[key]: a view (memory) for basic indexing, a value for an
    element (NumPy's scalar copy)."""
    raw = key
    key = _expr.basic_key(key, "an array made inside @stride.jit")
    shape = _expr.stand_in(local.shape)[key].shape  # NumPy's IndexError
    if len(key) == len(local.shape) and all(
            isinstance(k, (int, np.integer)) for k in key):
        return _expr.index(local, raw)  # an element: a copy, read now
    return _expr.Local(local.mem, local.keys + (raw,), shape, local.dtype)


def zero_d_array(node, source):
    """`node` is a 0-d result NumPy gives as a 0-d array, not a scalar:
    np.where's, or (source given) x.astype of a 0-d array x."""
    trace = current()
    if source is None or id(source) in trace.zero_d_arrays or (
            type(source) is _expr.Local) or (
            type(source) is _expr.Leaf and trace.is_memory(source)):
        trace.zero_d_arrays.add(id(node))
        trace.keep.append(node)


def on_index(node, source, key):
    """`node` (a Snapshot) is source[key], basic indexing: an augmented
    assignment to it writes source[key] (see inplace)."""
    trace = current()
    if id(node) not in trace.snapshots:
        return
    if len(key) == len(source.shape) and all(
            isinstance(k, (int, np.integer)) for k in key):
        # NumPy's element is a scalar, a copy of what the memory holds now:
        # a value that later writes of the memory do not change and that
        # `e += 1` rebinds, not a view.
        node.__class__ = _expr.Op
        del trace.snapshots[id(node)]
        return
    trace.index_keys[id(node)] = (source, key)


def on_snapshot(node, source):
    """`node` is a view op of memory object `source` (see _expr.Snapshot);
    plain leaves the trace does not track (closed-over arrays) are
    constants."""
    trace = current()
    if type(source) is _expr.Leaf and not trace.is_memory(source):
        return
    node.__class__ = _expr.Snapshot
    trace.snapshots[id(node)] = (source, len(trace.writes))
    trace.keep.append(node)


def make_local(node, fresh=False):
    """A new array made in the function with `node`'s contents (np.zeros
    and friends, x.copy()). A Leaf node is a NumPy array made at trace time
    from trace-time constants only (shapes, dtypes, Python ints): a
    constant of the plan, never written (writes replace the node); `fresh`
    says the function made it, so no argument can share its memory."""
    trace = current()
    if fresh:
        trace.made.add(id(node.array))
    if isinstance(node, _expr.Op) and node.kind in _expr.VIEWS:
        # NumPy's copy of a view is a new dense array (x[:, 0].copy() is
        # contiguous): the kernel's memory too, not the view's strides with
        # its gaps.
        node = _expr.Op("copy", (node,), (node.dtype,), node.dtype, node.shape)
    mem = Memory(None, node, node.shape, node.dtype)
    if fresh and isinstance(node, _expr.Leaf):
        flags = node.array.flags
        mem.order = "C" if flags.c_contiguous else \
            "F" if flags.f_contiguous else None
    trace.keep.append(mem)
    if trace.loops:
        trace.loops[-1].add(id(mem))  # made in the body: its own
    return _expr.Local(mem, (), node.shape, node.dtype)


def on_view(parent, view, key, raw, scalar):
    """Records that `view` is parent[key], so each call indexes its own
    argument the same way. Returns what parent[key] stands for where that
    is not the view itself: an element of memory the trace wrote (a value
    read now)."""
    trace = current()
    if trace is None:
        return None
    trace.keep.append(view)
    spec = trace.spec_of(parent)
    if spec is None or type(parent) is not _expr.Leaf:
        return None  # a view of a closed-over array: a constant
    pos, keys = spec
    if (scalar or trace.is_value(parent)) and pos in trace.mems:
        # NumPy's x[i] is a copy of the element, made now, of what was
        # written.
        trace.record_read(parent)
        mem = trace.mems[pos]
        if mem.node is parent:
            return None
        return trace.read(mem, keys + (key,))
    i = id(view)
    trace.views[i] = (pos, keys + (key,))
    if scalar or trace.is_value(parent):
        # A copy of the element, made now, before any write of it: a value
        # (no memory to write), read at this point.
        trace.values.add(i)
        trace.record_read(view)
        return None
    trace.by_position[pos].append(view)
    if trace.writes:
        view.written = WATCH
    return None


def fori_loop(lower, upper, body, init):
    """carry = body(i, carry) for i in range(lower, upper), returning the
    last carry (JAX's fori_loop). `init` is an array or a tuple of arrays.
    Inside @stride.jit the body is traced once and becomes one scf.for in
    the kernel: the carried arrays are its iter_args (memory the body may
    update with item and augmented assignment, in place after One-Shot
    Bufferize), `i` a 0-d int64 value. Outside a trace it is a Python loop."""
    for bound, what in ((lower, "lower"), (upper, "upper")):
        if type(bound) is not int:
            raise TypeError(f"stride.fori_loop: {what} must be a Python int "
                            f"(a trace-time constant), got "
                            f"{type(bound).__name__}" + _user_line())
    single = not isinstance(init, tuple)
    inits = (init,) if single else tuple(init)
    trace = current()
    if trace is None:
        carry = init
        for i in range(lower, upper):
            carry = body(i, carry)
        return carry
    roots = [_expr.as_root(x) for x in inits]
    # attr: the index's range, which bounds x[i] (_dynamic_index).
    index = _expr.Op("loopindex", (), (), np.dtype(np.int64), (),
                     (lower, upper - 1))
    # Value-based promotion reads a Python int there: the largest index
    # stands for all of them (the bounds are in the signature).
    index._value = np.asarray(np.int64(max(abs(lower), abs(upper - 1))))
    args = [_expr.Op("looparg", (), (), r.dtype, r.shape, k)
            for k, r in enumerate(roots)]
    carry = [make_local(a) for a in args]
    mems = {id(c.mem) for c in carry}
    trace.loops.append(mems)
    try:
        out = body(index, carry[0] if single else tuple(carry))
    finally:
        trace.loops.pop()
    outs = (out,) if single else tuple(out) if isinstance(out, (tuple, list)) else None
    if outs is None or len(outs) != len(inits):
        raise TypeError(f"stride.fori_loop: the body must return "
                        f"{'an array' if single else f'{len(inits)} arrays'} "
                        "like the carry it was given" + _user_line())
    results = []
    for k, (o, r) in enumerate(zip(outs, roots)):
        node = _expr.as_root(o)
        if node.shape != r.shape:
            raise ValueError(f"stride.fori_loop: carry #{k} has shape "
                             f"{_fmt(r.shape)} but the body returned shape "
                             f"{_fmt(node.shape)}" + _user_line())
        if node.dtype != r.dtype:
            node = node.astype(r.dtype)
        results.append(node)
    vars_ = set(map(id, args)) | {id(index)}
    frontier = _loop_frontier(results, vars_)
    loop = _expr.Op("loop", tuple(roots) + tuple(frontier),
                    tuple(r.dtype for r in roots) + tuple(f.dtype for f in frontier),
                    None, (), (lower, upper, tuple(results), tuple(args), index))
    trace.keep.append(loop)
    made = [make_local(_expr.Op("loopresult", (loop,), (None,), r.dtype,
                                r.shape, k)) for k, r in enumerate(roots)]
    return made[0] if single else tuple(made)


def _loop_frontier(results, vars_):
    """The nodes the body reads that do not depend on the loop's variables
    (computed once, before the loop): every operand of a body node that is
    such an Op. Leaves and scalars are function arguments, visible in the
    loop's region anyway."""
    depends, order = {}, []
    for root in results:
        for node in _codegen.postorder(root):
            if id(node) in depends:
                continue
            d = id(node) in vars_ or any(
                depends.get(id(o), False) for o in node.operands
                if isinstance(o, _expr.Op))
            depends[id(node)] = d
            order.append(node)
    frontier, seen = [], set()
    for node in order:
        if not depends[id(node)]:
            continue
        for o in node.operands:
            if isinstance(o, _expr.Op) and not depends[id(o)] and id(o) not in seen:
                seen.add(id(o))
                frontier.append(o)
    for root in results:
        if not depends[id(root)] and id(root) not in seen:
            seen.add(id(root))
            frontier.append(root)
    return frontier


class Memory:
    """The contents of one array the trace may write: an argument
    (position `pos`) or an array made in the function (pos None). `node` is
    its current contents (the argument's Leaf until it is written); each
    write replaces it by an `insert` of the value into the old contents
    (tensor.insert_slice in the kernel), or by the value itself when it
    covers the whole array. `regions` are the (offsets, sizes, strides)
    written, with the index keys of the first write of each."""
    __slots__ = ("pos", "node", "shape", "dtype", "regions", "order")

    def __init__(self, pos, node, shape, dtype):
        self.pos, self.node, self.shape, self.dtype = pos, node, shape, dtype
        self.regions = []
        # 'C' or 'F': the memory order of an array the function made
        # (np.zeros(..., order=...), np.ascontiguousarray), which a
        # returned array keeps whatever its values' layout; None otherwise.
        self.order = None


def _region(shape, keys):
    """Where basic-indexing keys applied one after another select in an
    array of `shape`: per base dim its start, and per result dim (base dim
    or None for a new axis, step, size)."""
    starts = [0] * len(shape)
    dims = [(d, 1, n) for d, n in enumerate(shape)]
    for key in keys:
        key = key if isinstance(key, tuple) else (key,)
        real = sum(1 for k in key if k is not None and k is not Ellipsis)
        if Ellipsis not in key:
            key = key + (Ellipsis,)
        expanded = []
        for k in key:
            expanded.extend([slice(None)] * (len(dims) - real)
                            if k is Ellipsis else [k])
        new, i = [], 0
        for k in expanded:
            if k is None:
                new.append((None, 1, 1))
                continue
            d, step, size = dims[i]
            i += 1
            if isinstance(k, slice):
                a, b, c = k.indices(size)
                if d is not None:
                    starts[d] += a * step
                new.append((d, step * c, len(range(a, b, c))))
            elif d is not None:
                j = int(k)
                starts[d] += (j + size if j < 0 else j) * step
        dims = new
    return starts, dims


# NumPy's array creation functions, called with trace-time constants only
# (shapes, dtypes, Python ints), make arrays the traced function may write:
# while a trace runs on this thread they return a Local over the array they
# made (a constant of the plan; writes replace the Local's node, never the
# array). np.ndarray(shape, dtype) is one of them (npbench's vadv allocates
# with it): the class is replaced by a subclass whose constructor does the
# same and which isinstance/issubclass treat as np.ndarray itself.
_CREATION = ("zeros", "ones", "empty", "full", "arange", "linspace", "eye",
             "identity", "zeros_like", "ones_like", "empty_like", "full_like")
_NDARRAY = np.ndarray
_NP_ARRAY = np.array
_originals = {}
_installed = [0]
_install_lock = threading.Lock()


def _callee(frame):
    """The source text of the function the call `frame` is executing
    (`np.random.rand`), from the call's source span (Python 3.11 code
    positions); None where the source is not available."""
    code = frame.f_code
    try:
        lineno, end, col, end_col = list(code.co_positions())[frame.f_lasti // 2]
    except (AttributeError, IndexError, ValueError):
        return None
    lines = linecache.getlines(code.co_filename)
    if None in (lineno, end, col, end_col) or not lines or end > len(lines):
        return None
    text = "".join(lines[lineno - 1:end])
    stop = len(text) - len(lines[end - 1]) + end_col
    return text[col:stop].split("(", 1)[0].strip()


def _refuse_random(frame, callee):
    """A TypeError where `callee` is a method of NumPy's random module or
    of a Generator or RandomState: drawn while the function is traced, the
    numbers would be one constant of every later call."""
    if "." not in callee or not all(
            part.isidentifier() for part in callee.split(".")):
        return
    owner = callee.rsplit(".", 1)[0]
    try:  # a dotted name: evaluating it calls nothing
        obj = eval(owner, frame.f_globals, frame.f_locals)
    except Exception:
        return
    if obj is np.random or isinstance(obj, (np.random.Generator,
                                            np.random.RandomState)):
        raise TypeError(
            f"{callee}() draws random numbers while the @stride.jit function "
            "is traced: they would be one constant draw that every later "
            "call reuses. Draw them outside the function and pass them as "
            "an argument" + _user_line())


def _traced_local(a, depth, name=None):
    """A Local over `a`, made by the traced function's creation call
    `depth` frames up (of the function `name`); `a` itself where the
    package or NumPy made it (NumPy's compiled code included), or where
    Stride does not compute its dtype."""
    if current() is None or type(a) is not _NDARRAY:
        return a
    frame = sys._getframe(depth + 1)
    caller = frame.f_globals.get("__name__", "")
    if caller.startswith(("stride.", "numpy.")) or caller in ("stride", "numpy"):
        return a  # the package's own (or NumPy's) arrays
    if name is not None:
        # A creation function called from compiled code (NumPy's Cython:
        # np.random.rand calls np.empty) has no frame of its own: the
        # nearest Python frame is the user's, executing another call.
        callee = _callee(frame)
        if callee is not None and not callee.endswith(name):
            _refuse_random(frame, callee)
            return a  # made by compiled code the user's call ran
    try:
        _dtypes.check(a.dtype)
    except TypeError:
        return a  # a dtype Stride does not compute: NumPy's array
    return make_local(_expr.Leaf(a), fresh=True)


def _creation(name, original):
    @functools.wraps(original)
    def fn(*args, **kwargs):
        return _traced_local(original(*args, **kwargs), 1, name)
    fn.__stride_creation__ = True
    return fn


class _NdarrayClass(type):
    """np.ndarray while a trace runs: every check against it is a check
    against NumPy's class."""

    def __instancecheck__(cls, x):
        return isinstance(x, _NDARRAY)

    def __subclasscheck__(cls, c):
        return issubclass(c, _NDARRAY)


class _TracedNdarray(_NDARRAY, metaclass=_NdarrayClass):
    def __new__(cls, shape, dtype=float, buffer=None, offset=0, strides=None,
                order=None):
        a = _NDARRAY(shape, dtype, buffer, offset, strides, order)
        # An array over a given buffer shares the buffer's memory: NumPy's.
        return a if buffer is not None else _traced_local(a, 1, "ndarray")


def _laid_out(a, dtype, order):
    """A new array of the function with a's values (cast to `dtype`) in C
    or Fortran order: np.ascontiguousarray and friends of a lazy value."""
    (op,) = _expr.operands((a,), "ascontiguousarray")
    dtype = op.dtype if dtype is None else np.dtype(dtype)
    local = make_local(_expr.Leaf(_NDARRAY(op.shape, dtype, order=order)),
                       fresh=True)
    local[...] = a
    return local


def _as_array(a, dtype=None, order=None):
    """np.asarray of a lazy value: the value itself (memory stays memory,
    as NumPy returns an ndarray itself), cast where `dtype` differs; a new
    array in the given order for order 'C' or 'F'."""
    if order in ("C", "F"):
        return _laid_out(a, dtype, order)
    if dtype is not None and np.dtype(dtype) != a.dtype:
        return a.astype(dtype)
    return a


def _holds_lazy(a):
    """Whether `a` is a list or tuple holding a lazy value at any depth,
    inside a trace (np.array([x[0], x[1] * 2]))."""
    if current() is None or not isinstance(a, (list, tuple)):
        return False
    return any(isinstance(v, _expr.Expr) or _holds_lazy(v) for v in a)


def _from_sequence(a, dtype, numpy_array):
    """np.array of a (nested) list holding lazy values: the values stacked
    (lazily, so the kernel computes them together), in the shape and dtype
    NumPy's own conversion gives for values of their dtypes (a float32
    element beside a Python float makes a float64 array)."""
    def stand_in(x):
        if isinstance(x, (list, tuple)):
            return [stand_in(v) for v in x]
        if isinstance(x, _expr.Expr):
            # NumPy code holds a 0-d value as a NumPy scalar.
            return x.dtype.type(1) if x.shape == () else np.ones(x.shape, x.dtype)
        return x

    def build(x):
        if isinstance(x, (list, tuple)):
            if not x:
                raise ValueError("an empty list inside a list of lazy values")
            return np.stack([build(v) for v in x])
        if isinstance(x, _expr.Expr):
            return x
        return _expr.lazy(numpy_array(x))

    expected = numpy_array(stand_in(a), dtype)
    result = build(a)
    if result.shape != expected.shape:
        raise ValueError(f"setting an array element with a sequence: the "
                         f"lazy values make shape {_fmt(result.shape)}, "
                         f"NumPy's array of them {_fmt(expected.shape)}"
                         + _user_line())
    return result if result.dtype == expected.dtype else \
        result.astype(expected.dtype)


def _argument_layout(a):
    """A NumPy array with the layout `a` has in NumPy, when `a` is an
    argument (or a basic view of one) or a transpose of one; else None."""
    trace = current()
    if type(a) is _expr.Leaf and trace.is_memory(a):
        return a.array
    if (type(a) is _expr.Snapshot and a.kind == "permute"
            and id(a) in trace.snapshots):
        source = _argument_layout(trace.snapshots[id(a)][0])
        return None if source is None else np.transpose(source, a.attr)
    return None


def _conversions():
    """np.asarray, np.asanyarray, np.array, np.ascontiguousarray and
    np.asfortranarray while a trace runs: of a lazy value, what NumPy gives
    for an ndarray (the value, a copy, or a new array in C / Fortran
    order); of anything else, NumPy's own result. NumPy's own calls are not
    affected (they use the functions imported inside numpy)."""
    original = {name: getattr(np, name) for name in (
        "asarray", "asanyarray", "array", "ascontiguousarray",
        "asfortranarray")}

    def lazy(a):
        return isinstance(a, _expr.Expr) and current() is not None

    def asarray(a, dtype=None, order=None, **kwargs):
        if _holds_lazy(a) and kwargs.get("like") is None:
            return _from_sequence(a, dtype, original["array"])
        if not lazy(a) or kwargs.get("like") is not None:
            return original["asarray"](a, dtype, order, **kwargs)
        return _as_array(a, dtype, order)

    def asanyarray(a, dtype=None, order=None, **kwargs):
        if not lazy(a) or kwargs.get("like") is not None:
            return original["asanyarray"](a, dtype, order, **kwargs)
        return _as_array(a, dtype, order)

    def array(a, dtype=None, copy=True, order="K", subok=False, ndmin=0,
              **kwargs):
        if _holds_lazy(a) and kwargs.get("like") is None and ndmin == 0 \
                and order in ("K", "A", "C"):
            return _from_sequence(a, dtype, original["array"])
        if not lazy(a) or kwargs.get("like") is not None:
            return original["array"](a, dtype, copy=copy, order=order,
                                     subok=subok, ndmin=ndmin, **kwargs)
        if ndmin > len(a.shape):
            a = _expr.reshape(a, (1,) * (ndmin - len(a.shape)) + a.shape)
        if order in ("C", "F"):
            return _laid_out(a, dtype, order)
        a = _as_array(a, dtype)
        return a.copy() if copy else a

    def contiguous(order):
        name = "ascontiguousarray" if order == "C" else "asfortranarray"

        def fn(a, dtype=None, **kwargs):
            if not lazy(a) or kwargs.get("like") is not None:
                return original[name](a, dtype, **kwargs)
            if not a.shape:  # NumPy gives at least one dim
                a = _expr.reshape(a, (1,))
            # An argument (or a view of one) already in that order and
            # dtype is NumPy's result itself: writes through it reach it.
            flag = "C_CONTIGUOUS" if order == "C" else "F_CONTIGUOUS"
            layout = _argument_layout(a)
            if (layout is not None and layout.flags[flag]
                    and (dtype is None or np.dtype(dtype) == a.dtype)):
                return a
            return _laid_out(a, dtype, order)
        return fn

    wrapped = {"asarray": asarray, "asanyarray": asanyarray, "array": array,
               "ascontiguousarray": contiguous("C"),
               "asfortranarray": contiguous("F")}
    for name, fn in wrapped.items():
        functools.update_wrapper(fn, original[name])
        fn.__stride_creation__ = True
    return wrapped


def _install():
    """Wraps the creation and conversion functions while a trace runs
    (counted, so that concurrent traces on several threads share one
    installation)."""
    with _install_lock:
        if _installed[0] == 0:
            for name in _CREATION:
                f = getattr(np, name)
                if getattr(f, "__stride_creation__", False):
                    continue
                _originals[name] = f
                setattr(np, name, _creation(name, f))
            if not getattr(np.asarray, "__stride_creation__", False):
                for name, fn in _conversions().items():
                    _originals[name] = getattr(np, name)
                    setattr(np, name, fn)
            if np.ndarray is _NDARRAY:
                _originals["ndarray"] = _NDARRAY
                np.ndarray = _TracedNdarray
        _installed[0] += 1


def _uninstall():
    with _install_lock:
        _installed[0] -= 1
        if _installed[0] == 0:
            for name, f in _originals.items():
                setattr(np, name, f)
            _originals.clear()


class _Trace:
    def __init__(self, arrays):
        self.arrays = arrays  # this call's arguments (arrays and others)
        self.positions = {}   # id(Leaf) -> argument position
        self.roots = {}       # argument position -> its Leaf
        self.views = {}       # id(Leaf) -> (argument position, index keys)
        self.values = set()   # ids of scalar arguments and elements x[i]
        self.zero_d_arrays = set()  # ids of 0-d results NumPy has as arrays
        # id(x[i]) -> (x, key): rows at a computed index (_dynamic_index)
        self.dynamic_rows = {}
        self.by_position = {}  # position -> its Leaves that show its memory
        self.mems = {}        # argument position -> Memory, once written
        self.writes = []      # (spec or None, construct, line), program order
        # (id(read), written position, its writes before) -> (read spec, line)
        self.late_reads = {}
        self.written = {}     # argument position -> its writes, in order
        self.weak = {}        # id(0-d node) -> (node, NumPy value class)
        self.keep = []        # objects whose ids the dicts above hold
        self.returning = False  # reading what the function returned
        self.raw = False      # resolve() hands memory objects back as they are
        self.snapshots = {}   # id(Snapshot) -> (its source, writes seen then)
        self.index_keys = {}  # id(Snapshot of basic indexing) -> (source, key)
        self.loops = []       # per fori_loop body being traced: its carry memory
        self.written_ops = {}  # id(Written) -> its Memory
        self.made = set()     # ids of the arrays creation functions made
        self.cuts = []        # serials where the program splits into kernels
        self.host_cuts = set()  # the cuts around NumPy calls (_host)

    def in_place(self, x):
        """The Leaf NumPy, run between kernels (_host), may read for `x`
        where its array is, or None: an argument array, or a view of one,
        that no write of the trace has touched yet (earlier kernels hand
        their writes back only at the end of the plan), or an array the
        function made from constants (np.arange) and has not written."""
        if type(x) is _expr.Local:
            node = x.mem.node
            if x.keys or type(node) is not _expr.Leaf or x.mem.pos is not None:
                return None
            return node
        if type(x) is not _expr.Leaf or id(x) in self.values:
            return None
        spec = self.spec_of(x)
        if spec is None or self.written.get(spec[0]):
            return None
        self.record_read(x)
        return x

    def host_cut(self):
        """A cut before or after a NumPy call Stride hands to NumPy (see
        _host): kept even where no node follows it, so that the call runs
        between kernels and never in one."""
        cut = _expr.next_serial()
        self.cuts.append(cut)
        self.host_cuts.add(cut)

    def line(self):
        """Where a read happens, for messages."""
        if self.returning:
            return " (in what the function returns)"
        return _user_line()

    def spec_of(self, x):
        """(position, index keys) of the argument memory `x` shows, or
        None (a closed-over array, an intermediate result, a Local)."""
        i = id(x)
        pos = self.positions.get(i)
        if pos is not None:
            return (pos, ())
        return self.views.get(i)

    def is_value(self, x):
        """A scalar argument or an element x[i]: NumPy has a Python or NumPy
        scalar there, a value that nothing writes."""
        return id(x) in self.values

    def is_memory(self, x):
        """An argument array or a view of one (not an element), or an
        intermediate result that was written."""
        t = type(x)
        if t is _expr.Written:
            return True
        return t is _expr.Leaf and self.spec_of(x) is not None \
            and id(x) not in self.values

    def as_memory(self, x):
        """An intermediate result the function writes into becomes memory
        (NumPy's results are arrays): the object keeps standing for its old
        value where the trace already used it, and reads through it from
        now on see its Memory's contents."""
        if type(x) is _expr.Op and x.shape != ():
            x.__class__ = _expr.Written
            mem = Memory(None, x, x.shape, x.dtype)
            self.written_ops[id(x)] = mem
            self.keep.append(x)
            if self.loops:
                self.loops[-1].add(id(mem))

    def _memory(self, x):
        """(Memory, index keys) of memory object `x`; an argument's Memory
        is made at its first write."""
        if type(x) is _expr.Local:
            return x.mem, x.keys
        if type(x) is _expr.Written:
            return self.written_ops[id(x)], ()
        pos, keys = self.spec_of(x)
        mem = self.mems.get(pos)
        if mem is None:
            root = self.roots[pos]
            mem = self.mems[pos] = Memory(pos, root, root.shape, root.dtype)
        return mem, keys

    def resolve(self, x):
        """The node of `x`'s contents now: the array itself while its memory
        is unwritten, else views of the Memory's node."""
        if self.raw:
            return x
        if type(x) is _expr.Snapshot:
            source, seen = self.snapshots[id(x)]
            if seen == len(self.writes) or type(source) is _expr.Op:
                # Nothing was written since it was made, or not its source:
                # an intermediate nothing wrote into (it would be Written).
                return x
            root = source
            while type(root) is _expr.Snapshot:  # a view of a view
                root = self.snapshots[id(root)][0]
            spec = self.spec_of(root) if type(root) is _expr.Leaf else None
            if spec is not None and not any(
                    w is not None and w[0] == spec[0]
                    for w, _, _ in self.writes[seen:]):
                return x  # an argument nothing has written since

            if x.kind == "reshape":
                raise TypeError(
                    "reading the result of reshape of an array after a "
                    "write to that array is not supported inside @stride.jit "
                    "(NumPy's reshape is a view or a copy depending on the "
                    "strides); reshape after the write" + self.line())
            view = _expr.view(x.kind, source, x.attr,
                              _expr.numpy_view(x.kind, x.attr))
            return view if type(view) is not _expr.Snapshot else \
                _expr.Op(view.kind, view.operands, view.in_dtypes, view.dtype,
                         view.shape, view.attr)
        if type(x) is _expr.Local:
            mem, keys = x.mem, x.keys
        elif type(x) is _expr.Written:
            mem, keys = self.written_ops[id(x)], ()
        else:
            spec = self.spec_of(x)
            if spec is None:
                return x  # a closed-over array: a constant
            self.record_read(x)
            mem = self.mems.get(spec[0])
            if mem is None:
                return x
            keys = spec[1]
        return self.read(mem, keys)

    def read(self, mem, keys):
        """The node of mem[keys...] now."""
        node = mem.node
        if not keys:
            return node
        self.raw = True  # node may be an argument's own Leaf
        try:
            forwarded = _forward(mem, keys)
            if forwarded is not None:
                return forwarded
            for k in keys:
                node = _index_node(node, k)
        finally:
            self.raw = False
        return node

    def write(self, target, key, value, construct, line):
        """target[key] = value (key Ellipsis: the whole target) with NumPy's
        meaning: value broadcast to the selected shape and cast to target's
        dtype (casting='unsafe', as NumPy's item assignment), after every
        read of it (value is a node already). Later reads of any view of
        target's memory see the new contents."""
        mem, keys = self._memory(target)
        if self.loops and id(mem) not in self.loops[-1]:
            raise TypeError("a stride.fori_loop body can only write the "
                            "arrays it carries (and arrays it makes); pass "
                            "this array in the carry and return it" + line)
        mask = _mask(key)
        if mask is not None:
            value, key = self._masked_value(target, mem, mask, key, value, line), Ellipsis
        _expr.stand_in(target.shape)[key]  # NumPy's IndexError
        keys = keys + (key,)
        region, flips, shape = _box(mem.shape, keys)
        op = _expr.operand(value)
        if op is None:
            raise TypeError(f"cannot assign an object of type "
                            f"{type(value).__name__} into an array" + line)
        if isinstance(op, _expr.Scalar):  # read as the target's dtype
            op = _expr.Op("copy", (op,), (mem.dtype,), mem.dtype, ())
        while len(op.shape) > len(shape) and op.shape[0] == 1:
            op = _expr.squeeze(op, 0)  # NumPy strips leading unit dims
        try:
            if len(op.shape) > len(shape) or \
                    np.broadcast_shapes(op.shape, shape) != shape:
                raise ValueError
        except ValueError:
            raise ValueError(f"could not broadcast input array from shape "
                             f"{_fmt(op.shape)} into shape {_fmt(shape)}"
                             + line) from None
        if mem.pos is not None:
            _check_target(_target(self.arrays[mem.pos], keys), construct, line)
        if self._same_region(value, mem, keys):
            # x[k] = x[k] copies the region onto itself; Python ends every
            # x[k] op= v with that store, after the in-place write.
            return
        if region is None:
            self._written(mem, keys, construct, line)
            return  # nothing is written
        offsets, sizes, _ = region
        if op.shape != shape:
            op = _expr.broadcast_to(op, shape)
        if op.dtype != mem.dtype:
            op = op.astype(mem.dtype)
        if sizes != op.shape:
            op = _expr.reshape(op, sizes)  # unit dims only: a view
        if flips:
            op = _expr.flip(op, flips)
        if not isinstance(op, _expr.Op):
            op = _expr.Op("copy", (op,), (op.dtype,), op.dtype, op.shape)
        if sizes == mem.shape and not any(offsets):
            node = op  # the whole array
        else:
            node = _expr.Op("insert", (mem.node, op), (mem.dtype, mem.dtype),
                            mem.dtype, mem.shape, region)
        self._written(mem, keys, construct, line)
        mem.node = node
        if all(r != region for r, _ in mem.regions):
            mem.regions.append((region, keys))
        self.keep.append(node)

    def write_at(self, target, key, value, line):
        """target[key] = value, the key holding a computed integer (a
        stride.fori_loop body's x[i] = v): the memory's contents become a
        dynamic insert of the row (see _dynamic_index)."""
        mem, keys = self._memory(target)
        if self.loops and id(mem) not in self.loops[-1]:
            raise TypeError("a stride.fori_loop body can only write the "
                            "arrays it carries (and arrays it makes); pass "
                            "this array in the carry and return it" + line)
        if keys:
            raise TypeError("assigning at a computed index into a view of an "
                            "array is not supported; index the array itself "
                            "(x[i, 2:] = v becomes x[i] = ...)" + line)
        node = _dynamic_index.write_node(mem.node, key, value, line)
        self._written(mem, keys, "item assignment", line)
        mem.node = node
        self.keep.append(node)

    def _same_region(self, value, mem, keys):
        """Whether `value` is a view of `mem` selecting what `keys` select,
        the same elements in the same order."""
        if type(value) is not _expr.Local and not self.is_memory(value):
            return False
        if type(value) is _expr.Leaf and self.spec_of(value)[0] not in \
                self.mems:
            return False  # an argument not written yet: not mem (and
            # asking _memory would make its Memory, a write to later views)
        vmem, vkeys = self._memory(value)
        return vmem is mem and _region(mem.shape, vkeys) == \
            _region(mem.shape, keys)

    def _masked_value(self, target, mem, mask, key, value, line):
        """The new contents of `target` for target[mask] = value: NumPy
        stores value where mask is true, which is where(mask, v, target) for
        a scalar v or a selection by the same mask (its full values)."""
        if mask.shape != target.shape:
            raise IndexError(
                f"boolean index did not match indexed array along "
                f"dimension 0; dimension is {target.shape[0] if target.shape else 0} "
                f"but corresponding boolean dimension is "
                f"{mask.shape[0] if mask.shape else 0}" + line)
        if isinstance(value, _masked.Masked):
            if not (_masked.same_mask(value.mask, mask) or value.mask is key):
                raise TypeError("a[mask] = value: value is a selection by "
                                "another mask" + line)
            value = value.full
        v = _expr.operand(value)
        if isinstance(v, _expr.Scalar):
            v = value
        elif v is None or v.shape not in ((), (1,), mask.shape):
            raise TypeError("boolean-mask assignment a[mask] = v inside "
                            "@stride.jit takes a scalar v (an array v "
                            "needs the mask's count of true elements, "
                            "known only when it runs)" + line)
        elif v.shape == (1,):
            v = _expr.reshape(v, ())
        new = _expr.where(mask, v, self.resolve(target))
        return new if new.dtype == mem.dtype else new.astype(mem.dtype)

    def _written(self, mem, keys, construct, line):
        if len(self.writes) >= MAX_WRITES:
            raise TypeError(
                f"this @stride.jit trace has made {MAX_WRITES} writes into "
                "arrays (Python loops unroll when traced, and compile time "
                "grows with the writes: 10 to 30 ms each); write the loop "
                "with stride.fori_loop (one scf.for), or vectorize it "
                "(STRIDE_MAX_TRACE_WRITES raises the limit)"
                + line)
        if mem.pos is not None and not any(w for w, _, _ in self.writes):
            # From now on reads of arguments resolve (and are recorded).
            for leaves in self.by_position.values():
                for leaf in leaves:
                    leaf.written = WATCH
        write = ((mem.pos, keys) if mem.pos is not None else None,
                 construct, line)
        if mem.pos is not None:
            self.written.setdefault(mem.pos, []).append(write)
        self.writes.append(write)
        if not self.loops and len(self.writes) % KERNEL_WRITES == 0:
            self.cuts.append(_expr.next_serial())

    def record_read(self, x):
        """A read of argument memory after writes of other arguments: at
        each call that memory must not overlap what they wrote, as the
        kernel reads every argument before the writes."""
        if not self.writes:
            return
        spec = self.spec_of(x)
        if spec is None:
            return  # constants are checked against every write
        line = None
        # Per written argument, once: a read first made after its first n
        # writes must not overlap any of those n (linear in the writes, not
        # one record per write: unrolled loops make thousands of both).
        for pos, writes in self.written.items():
            key = (id(x), pos, len(writes))
            if pos == spec[0] or key in self.late_reads:
                continue
            if line is None:
                line = self.line()
            self.late_reads[key] = (spec, line)

    def write_backs(self):
        """(position, index keys, node) per written argument: what the plan
        copies into it after the kernel. One region written (u[1:-1] =
        ...) is copied back alone, else the whole array."""
        out = []
        for pos, mem in sorted(self.mems.items()):
            if mem.node is self.roots[pos]:
                continue  # only empty writes
            keys = mem.regions[0][1] if len(mem.regions) == 1 else ()
            # One region written: the last value written there (the inserts
            # need not be computed at all).
            node = self.read(mem, keys)
            if isinstance(node, _expr.Op) and node.kind in _expr.VIEWS:
                # The value written may be a broadcast or flipped view: the
                # kernel's result is a dense copy of it.
                node = _expr.Op("copy", (node,), (node.dtype,), node.dtype,
                                node.shape)
            out.append((pos, keys, node))
        return out

    def on_weak_value(self, node, value):
        """Value-based promotion read `value` of the 0-d `node`: unless the
        signature holds its value class (a 0-d argument), each call of the
        plan checks that class (a guard)."""
        i = id(node)
        if i not in self.weak and i not in self.positions:
            self.weak[i] = (node, _dtypes.value_class(value))
            self.keep.append(node)


def _check_target(target, construct, line):
    """A written argument whose elements overlap (a broadcast view): NumPy's
    result there is unspecified, so it is refused (as for materialize's
    out=)."""
    if any(s == 0 and n > 1 for n, s in zip(target.shape, target.strides)) \
            or _run.self_overlapping(target):
        raise ValueError(f"{construct} writes an argument whose elements "
                         "overlap (a broadcast or self-overlapping view; "
                         "NumPy's result is unspecified)" + line)


def _index(a, keys):
    for k in keys:
        a = a[k]
    return a


def _target(a, keys):
    """_index for memory to write: an element is a 0-d view, not a copy."""
    for k in keys:
        k = k if isinstance(k, tuple) else (k,)
        a = a[k if Ellipsis in k else k + (Ellipsis,)]
    return a


def _mask(key):
    """A boolean mask index (a bool array or lazy value), else None."""
    if not _masked.is_mask(key):
        return None
    return _expr.lazy(key) if isinstance(key, np.ndarray) else key


def _box(shape, keys):
    """The region basic-indexing `keys` select in an array of `shape`, as
    a tensor.insert_slice takes it: ((offsets, sizes, strides) per base dim
    with positive strides, the base dims walked backwards, the view's
    shape); the region is None when it is empty."""
    starts, dims = _region(shape, keys)
    view = tuple(n for _, _, n in dims)
    if 0 in view:
        return None, (), view
    nd = len(shape)
    sizes, steps = [1] * nd, [1] * nd
    for d, step, n in dims:
        if d is not None:
            sizes[d], steps[d] = n, step
    flips = tuple(d for d in range(nd) if steps[d] < 0 and sizes[d] > 1)
    offsets = tuple(starts[d] + (sizes[d] - 1) * steps[d] if steps[d] < 0
                    else starts[d] for d in range(nd))
    strides = tuple(abs(s) if n > 1 else 1 for s, n in zip(steps, sizes))
    return (offsets, tuple(sizes), strides), flips, view


def _disjoint(a, b):
    """Whether two regions share no element (conservatively: their
    bounding intervals are apart in some dim)."""
    for oa, na, sa, ob, nb, sb in zip(*a, *b):
        if oa + (na - 1) * sa < ob or ob + (nb - 1) * sb < oa:
            return True
    return False


def _forward(mem, keys):
    """A read of `keys` that an earlier write covers exactly gets the value
    written (store-to-load forwarding), looking past writes elsewhere; a
    read no write touched gets the array's first contents when those are
    an argument or a constant. Both keep reads off the chain of inserts,
    which One-Shot Bufferize analyses in quadratic time per op. None: read
    the current contents."""
    region, flips, view = _box(mem.shape, keys)
    if region is None:
        return None
    node = mem.node
    while type(node) is _expr.Op and node.kind == "insert":
        if node.attr == region:
            value = node.operands[1]
            if flips:
                value = _expr.flip(value, flips)
            return _expr.reshape(value, view) if value.shape != view else value
        if not _disjoint(node.attr, region):
            return None
        node = node.operands[0]
    if type(node) is not _expr.Leaf or node is mem.node:
        return None
    for k in keys:
        node = _index_node(node, k)
    return node


def _index_node(node, key):
    """node[key] for a trace's reads of memory: a negative step is a
    positive-step slice and a flip (the policy torch refuses negative
    slices of intermediates; a read of written memory is one)."""
    return _expr.index(node, key, positive_steps=True)


def _fmt(shape):
    """A shape as NumPy's messages print it: (4,6), (3,), ()."""
    return "(" + ",".join(str(n) for n in shape) + ("," if len(shape) == 1 else "") + ")"


def _signature(args):
    """The cache key of one call: per argument its kind, dtype, shape and
    element strides (arrays) or its NumPy 1.24 promotion class (scalars,
    which are passed to the kernel as 0-d arrays). A 0-d array or tensor is
    a weak operand whose value NumPy 1.24's promotion reads, so its value
    class (_dtypes.value_class) is part of the key too. Calls whose
    arguments are all arrays of one or more dims get their key from the
    extension (array_signature: the same fields packed in bytes), for a
    fraction of the cost."""
    key = _stride.array_signature(args if type(args) is tuple else tuple(args))
    return _python_signature(args) if key is None else key


def _python_signature(args):
    """_signature's key of a call with an argument that is not an array of
    one or more dims."""
    key = []
    for a in args:
        if isinstance(a, np.ndarray):
            if a.shape:
                key.append((a.dtype.char, a.shape, a.strides, a.flags.aligned))
            else:
                key.append((a.dtype.char, (), (), a.flags.aligned,
                            _dtypes.value_class(a)))
        elif _torch.is_tensor(a):
            k = ("torch", str(a.dtype), tuple(a.shape), a.stride())
            if a.dim() == 0:
                k += (_dtypes.value_class(a.item()),)
            key.append(k)
        elif type(a) in _CONSTANT_SCALARS:
            key.append((type(a), a))
        elif isinstance(a, (bool, int, float, np.generic)):
            key.append((type(a), _dtypes.value_class(a)))
        else:
            # Anything else is a trace-time constant, part of the key by
            # value: it must be hashable.
            try:
                hash(a)
            except TypeError:
                raise TypeError(
                    f"argument #{len(key)} is a {type(a).__name__}, which a "
                    "@stride.jit function cannot take: pass arrays as NumPy "
                    "arrays (np.asarray) and constants as hashable values "
                    "(a tuple instead of a list)") from None
            key.append((type(a), a))
    return tuple(key)


class _Plan:
    """A compiled trace: the kernel and how a call's arguments become its
    inputs and outputs."""
    __slots__ = ("kernel", "sources", "allocs", "outs", "single", "torch",
                 "bools", "prepare", "nres", "views", "checks", "guards",
                 "next", "consts", "text", "layouts", "earlier",
                 "stage_inputs", "name", "written", "fast", "direct",
                 "own", "orders")

    def fast_run(self):
        """A call of a plan with one kernel that reads arrays and constants
        as given and writes no argument (most small calls), or writes
        arguments it may write directly (fast_written_run): the steps of
        run() that apply, without its tests. run() otherwise."""
        if (self.prepare or self.earlier or self.torch or self.consts
                or self.views or self.bools or self.stage_inputs
                or self.orders):
            return self.run
        if self.outs:
            return self.fast_written_run()
        if self.own or not self.nres:
            return self.run
        kernel, sources, allocs = self.kernel, tuple(self.sources), tuple(self.allocs)
        single = self.single
        if single and len(allocs) == 1 and all(c is None for _, c in sources):
            # f(x, ...) -> one new array (a ufunc, an expression): about
            # 0.3 us less a call than the general loop below.
            alloc, positions = allocs[0], tuple(s for s, _ in sources)
            if positions == tuple(range(len(positions))):
                # The arguments in order (the kernel takes any sequence):
                # no list to build.
                n = len(positions)

                def run_args(args):
                    out = alloc()
                    kernel(args[:n], (out,))  # args itself when n is all
                    return out
                return run_args

            def run_one(args):
                out = alloc()
                kernel([args[s] for s in positions], (out,))
                return out
            return run_one

        def run(args):
            outputs = [alloc() for alloc in allocs]
            kernel([args[s] if c is None else c for s, c in sources], outputs)
            return outputs[0] if single else tuple(outputs)
        return run

    def fast_written_run(self):
        """run() for a plan whose kernel writes every written argument
        itself (ufunc(x, out=out), out[...] = ...): per call, only the
        writability and overlap tests that decide it; any failing test
        goes to run(), which raises or copies."""
        if self.checks or len(self.direct) != len(self.outs):
            return self.run
        kernel, sources, slow = self.kernel, tuple(self.sources), self.run
        whole = ((), (Ellipsis,))
        outs = tuple((pos, None if keys in whole else keys)
                     for pos, keys, _ in self.outs)
        allocs = tuple(self.allocs[:self.nres])
        nres, own, single = self.nres, tuple(self.own), self.single
        direct = self._direct
        if (len(outs) == 1 and outs[0][1] is None and not nres and single
                and own == ((0, outs[0][0]),)
                and all(c is None for _, c in sources)):
            # ufunc(x, ..., out=out) returning out: the one target is the
            # argument itself, and the kernel may write it when it is
            # writable and shares no memory with an input.
            pos, positions = outs[0][0], tuple(s for s, _ in sources)
            if positions == tuple(range(len(positions))):
                # The inputs lead the arguments (f(x, out)): a slice of
                # them, no list to build.
                n = len(positions)

                def run_out_leading(args):
                    target = args[pos]
                    if kernel.call_into(args[:n], target):
                        return target
                    return slow(args)
                return run_out_leading

            def run_out(args):
                # The extension tests writability and overlap (as
                # _shares_input does) before it calls the kernel.
                target = args[pos]
                if kernel.call_into([args[s] for s in positions], target):
                    return target
                return slow(args)
            return run_out

        def run(args):
            targets = [args[pos] if keys is None else _target(args[pos], keys)
                       for pos, keys in outs]
            inputs = [args[s] if c is None else c for s, c in sources]
            if (not all(t.flags.writeable for t in targets)
                    or len(direct(targets, inputs)) != len(targets)):
                return slow(args)
            outputs = [alloc() for alloc in allocs] + targets
            kernel(inputs, outputs)
            del outputs[nres:]
            if own:
                outputs = _with_returned(outputs, (), own, args)
            if single:
                return outputs[0]
            return tuple(outputs) if outputs else None
        return run

    def run(self, args):
        given = args
        if self.prepare:
            args = [_to_array(a, i) for i, a in enumerate(args)]
        if self.outs:
            targets = self._targets(args)
        made = []
        for stage in self.earlier:
            made.append(_run_stage(stage, args, made))
        inputs = _inputs(self, args, made)
        direct = self._direct(targets, inputs) if self.direct else ()
        if direct:
            outputs = [None] * len(self.allocs)
            for j in direct:
                outputs[self.outs[j][2]] = targets[j]
            outputs = [alloc() if o is None else o
                       for o, alloc in zip(outputs, self.allocs)]
        else:
            outputs = [alloc() for alloc in self.allocs]
        self.kernel(inputs, outputs)
        if self.outs:
            # Written arguments get their values after the kernel has read
            # every input, in program order.
            for j, (target, (_, _, k)) in enumerate(zip(targets, self.outs)):
                if j not in direct:
                    np.copyto(target, outputs[k], casting="no")
            outputs = outputs[:self.nres]
        for k, order in self.orders:
            o = outputs[k]
            if not (o.flags.c_contiguous if order == "C"
                    else o.flags.f_contiguous):
                outputs[k] = _NP_ARRAY(o, order=order)
        if self.torch:
            outputs = [_torch.from_numpy(o) for o in outputs]
        if self.consts or self.own:
            outputs = _with_returned(outputs, self.consts, self.own, given)
        if self.single:
            return outputs[0]
        return tuple(outputs) if self.nres or self.consts or self.own else None

    def _direct(self, targets, inputs):
        """The written arguments (indices into outs) that the kernel may
        write itself this call: laid out as its output (self.direct) and
        sharing no memory with any input of the kernel or another written
        argument, so that no element is written before every read of it."""
        direct = []
        for j in self.direct:
            t = targets[j]
            if _shares_input(t, inputs):
                continue
            if any(_run.may_share(t, other)
                   for i, other in enumerate(targets) if i != j):
                continue
            direct.append(j)
        return direct

    def _targets(self, args):
        """The arrays this call writes, checked before anything runs."""
        targets = [_target(args[pos], keys) for pos, keys, _ in self.outs]
        for target in targets:
            if not target.flags.writeable:
                raise ValueError("output array is read-only")
        for whole, pos, reads in self.checks:
            written = args[pos]
            if not _run.may_share(whole if isinstance(whole, np.ndarray)
                                  else args[whole], written):
                continue  # the read argument is apart from the written one
            for read, count, rline in reads:
                self._check_read(args, read, pos, count, rline)
        return targets

    def _check_read(self, args, read, pos, count, rline):
        """Refuses the call where memory read after `count` writes of
        argument `pos` overlaps one of those writes."""
        a = read if isinstance(read, np.ndarray) else _index(args[read[0]], read[1])
        if _run.may_share(a, args[pos]):
            for wspec, construct, wline in self.written[pos][:count]:
                # The written memory: an element is a 0-d view (_index
                # would give a copy of it, which shares nothing).
                b = _target(args[pos], wspec[1])
                if not _run.may_share(a, b):
                    continue
                try:
                    overlap = np.shares_memory(a, b, max_work=1 << 20)
                except np.TooHardError:
                    overlap = True  # too costly to decide: refuse
                if overlap:
                    raise TypeError(_overlap_message(
                        self.name, None if rline is None else read[0],
                        rline or "", pos, construct, wline))


class _Stage:
    """One kernel of a plan that a trace split (see _stages) and where its
    inputs come from; the last kernel's fields live in the _Plan itself."""
    __slots__ = ("kernel", "sources", "views", "bools", "stage_inputs",
                 "allocs", "constants", "text", "layouts")


def _inputs(stage, args, made):
    """A kernel's inputs for a call: arguments, views of them, constants and
    the results of the plan's earlier kernels (`made`)."""
    inputs = [args[s] if c is None else c for s, c in stage.sources]
    for i, pos, keys in stage.views:
        inputs[i] = _index(args[pos], keys)
    for i in stage.bools:
        inputs[i] = _run.prepare(inputs[i])
    for i, k, j in stage.stage_inputs:
        inputs[i] = made[k][j]
    return inputs


def _run_stage(stage, args, made):
    """Runs an earlier kernel of a plan; returns its results."""
    if type(stage) is _HostStage:
        return stage.run(args, made)
    outputs = [alloc() for alloc in stage.allocs]
    stage.kernel(_inputs(stage, args, made), outputs)
    return outputs


class _HostStage:
    """NumPy calls between two kernels of a plan (see _host): each reads
    results of earlier kernels and gives one array the later ones read."""
    __slots__ = ("calls", "constants")

    def __init__(self, calls):
        self.calls = calls  # (HostCall, shape, dtype, [(stage, result)])
        self.constants = []

    def run(self, args, made):
        return [_host.run(attr, shape, dtype, [
                    made[a][b] if tag == "made" else
                    _index(args[a], b) if tag == "arg" else a
                    for tag, a, b in inputs])
                for attr, shape, dtype, inputs in self.calls]


def _host_stage(nodes, rebuilt, produced, trace):
    """The _HostStage computing the "host" nodes `nodes` (`rebuilt`: with
    earlier kernels' results in place of their operands): each operand is
    such a result ("made", kernel, result), an argument or a view of one
    read in place ("arg", position, index keys), or a constant array
    ("const", array, None)."""
    calls = []
    for node, new in zip(nodes, rebuilt):
        inputs = []
        for o, n in zip(node.operands, new.operands):
            made = produced.get(id(n))
            if made is not None:
                inputs.append(("made",) + made)
            elif type(o) is _expr.Leaf:
                spec = trace.spec_of(o)
                inputs.append(("arg",) + spec if spec is not None
                              else ("const", o.array, None))
            else:
                raise RuntimeError("internal error: a NumPy call between "
                                   "kernels reads a value no earlier kernel "
                                   "computes")
        calls.append((node.attr, node.shape, node.dtype, inputs))
    return _HostStage(calls)


def _stages(roots, cuts, keep=()):
    """The traced program split at the trace's cuts (serials, see
    _Trace._written) into kernels run in order: per kernel before the last,
    the nodes it computes that later kernels read (the last computes the
    roots). A node belongs to the kernel its serial falls in; only values
    are handed over, never views of memory, so each kernel's inserts chain
    only its own writes. No earlier kernels without cuts, or where a cut
    would separate a fori_loop from its parts."""
    if not cuts:
        return []
    nodes = [n for n in _codegen.every_node_of(roots)
             if isinstance(n, _expr.Op)]
    newest = max((n.serial for n in nodes), default=-1)
    # No empty last kernel, except after a NumPy call (`keep`), which
    # never runs in a kernel.
    cuts = [c for c in cuts if c <= newest or c in keep]
    if not cuts:
        return []
    seg = lambda n: bisect.bisect_right(cuts, n.serial)
    last = len(cuts)
    reads = [dict() for _ in range(last + 1)]
    for node in nodes:
        s = seg(node)
        for o in node.operands:
            if isinstance(o, _expr.Op) and seg(o) < s:
                if o.kind in ("loop", "looparg", "loopindex"):
                    return []
                reads[seg(o)][id(o)] = o
    for r in roots:
        if isinstance(r, _expr.Op) and seg(r) < last:
            reads[seg(r)][id(r)] = r  # computed early, returned at the end
    return [list(r.values()) for r in reads[:last] if r]


def _views_as_ops(trace, keys):
    """Each view of an argument the trace made (trace.views) as view ops
    (stride.slice, squeeze, unsqueeze, flip) of the argument, by id of the
    view's Leaf: the kernel then takes the argument once and slices it
    itself, instead of one kernel argument per view, each made and checked
    per call (trisolv reads three views per row). The ops read a Leaf of
    their own per argument, keyed as the argument, so the kernel's
    argument is the same; it is not the trace's Leaf, which stands for the
    memory's current contents once the function writes it."""
    fresh, subst = {}, {}
    for i, (pos, vkeys) in trace.views.items():
        root = trace.roots.get(pos)
        if root is None or id(root) in trace.values:
            continue
        if pos not in fresh:
            leaf = _expr.Leaf(root.array, root.from_torch)
            trace.positions[id(leaf)] = pos
            keys[id(leaf)] = ("arg", pos)
            trace.keep.append(leaf)
            fresh[pos] = leaf
        node = fresh[pos]
        for k in vkeys:
            node = _index_node(node, k)
        subst[i] = node
    return subst


def _rebuild(roots, placeholders, leaves=None):
    """Copies of the nodes `roots` depend on in which every node an earlier
    kernel computes (a key of `placeholders`) is that kernel's result, a
    Leaf, and every Leaf that is a key of `leaves` is its value there.
    Iterative: chains of thousands of nodes are common."""
    memo = {}
    stack = list(roots)
    while stack:
        node = stack[-1]
        if id(node) in memo:
            stack.pop()
            continue
        if not isinstance(node, _expr.Op):
            memo[id(node)] = leaves.get(id(node), node) if leaves else node
            stack.pop()
            continue
        leaf = placeholders.get(id(node))
        if leaf is not None:
            memo[id(node)] = leaf
            stack.pop()
            continue
        deps = list(node.operands)
        if node.kind == "loop":
            lower, upper, results, loop_args, index = node.attr
            deps += list(results) + list(loop_args) + [index]
        pending = [d for d in deps if id(d) not in memo]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        new = copy.copy(node)
        new.operands = tuple(memo[id(o)] for o in node.operands)
        new.structure = new.tree = None
        if node.kind == "loop":
            new.attr = (lower, upper, tuple(memo[id(r)] for r in results),
                        tuple(memo[id(a)] for a in loop_args), memo[id(index)])
        memo[id(node)] = new
    return [memo[id(r)] for r in roots]


class _NothingPlan:
    """The plan of a trace that computes no array: its (constant) result,
    or the arguments it returns (`own`, with the constants `consts`)."""
    __slots__ = ("guards", "next", "result", "consts", "own", "single")

    def __init__(self, result, consts=(), own=(), single=True):
        self.guards = self.next = None
        self.result = result
        self.consts, self.own, self.single = consts, own, single

    def run(self, args):
        if not self.own:
            return self.result
        outputs = _with_returned([], self.consts, self.own, args)
        return outputs[0] if self.single else tuple(outputs)

    fast = run


def _shares_input(target, inputs):
    """Whether `target` may share memory with an array among a kernel's
    `inputs` (which also hold scalars)."""
    return any(_run.may_share(target, a) for a in inputs
               if isinstance(a, np.ndarray))


def _numpy_scalar(r, trace):
    """Whether NumPy gives the returned value `r` as a NumPy scalar, not a
    0-d array: a computed 0-d value (a reduction, an op of 0-d values, an
    element x[i]); arrays the function made or was given stay arrays."""
    t = type(r)
    if t not in (_expr.Op, _expr.Snapshot, _expr.Leaf) or r.shape != ():
        return False
    if t is _expr.Op:
        return id(r) not in trace.zero_d_arrays
    if t is _expr.Snapshot:
        # A view (x.sum().T, a reshape) of a computed 0-d value, which
        # NumPy has as a scalar, whose views are scalars too; a 0-d view of
        # an array stays an array.
        while type(r) is _expr.Snapshot:
            r = trace.snapshots[id(r)][0]
        return type(r) is _expr.Op and r.shape == ()
    return t is _expr.Leaf and trace.is_value(r)


def _as_numpy_scalars(run, positions, single):
    """`run`, whose 0-d results at `positions` come back as NumPy scalars
    (np.float64, np.int64, np.bool_: what x.sum() gives in NumPy), which
    format, hash and compare as Python numbers."""
    if single:
        return lambda args: run(args)[()]

    def run_scalars(args):
        return tuple(v[()] if i in positions else v
                     for i, v in enumerate(run(args)))
    return run_scalars


def _with_returned(outputs, consts, own, args):
    """The kernel's results with the values returned as they are put back
    in their places: trace-time constants (i, value) and arguments the
    function returns (i, position), the caller's own objects."""
    outputs = list(outputs)
    placed = [(i, value) for i, value in consts] + \
        [(i, args[pos]) for i, pos in own]
    for i, value in sorted(placed, key=lambda p: p[0]):
        outputs.insert(i, value)
    return outputs


def _argument_position(value, leaves, args):
    """The position of the array argument whose trace value `value` is
    (the object itself, not a view or a result), else None."""
    for pos, leaf in enumerate(leaves):
        if value is leaf and (isinstance(args[pos], np.ndarray)
                              or _torch.is_tensor(args[pos])):
            return pos
    return None


def _is_array(x):
    return isinstance(x, (_expr.Expr, np.ndarray, _masked.Masked)) or \
        _torch.is_tensor(x)


def _to_array(a, i):
    if isinstance(a, np.ndarray):
        return a
    if _torch.is_tensor(a):
        return _torch.to_numpy(a, f"argument #{i}")
    if type(a) in _CONSTANT_SCALARS:
        return a  # a trace-time constant, part of the signature by value
    if isinstance(a, (bool, int, float, np.generic)):
        return np.asarray(a)
    return a


# Python ints and bools steer control flow and shape arithmetic (range(n),
# n - 1, slice bounds, flags): each value is its own trace, and in the
# kernel they are constants. Floats (and NumPy scalars) are kernel
# arguments, one kernel for every value.
_CONSTANT_SCALARS = (int, bool)


def _allocator(param):
    """A fast allocation of the kernel's output layout."""
    dtype = _dtypes.NUMPY_TYPES[param["dtype"]]
    shape, strides = tuple(param["shape"]), tuple(param["strides"])
    if 0 not in shape and strides == _run.c_strides(shape):
        return functools.partial(np.empty, shape, dtype)
    return functools.partial(_run.allocate, param)


def _overlap_message(name, read, rline, write, wconstruct, wline):
    if read is None:
        return (f"an array that the @stride.jit function {name} closed over "
                f"shares memory with argument #{write} in this call, which "
                f"the function writes with {wconstruct}{wline}; a traced "
                "kernel reads every input once, before any write. Pass an "
                "array that does not overlap it")
    return (f"arguments #{read} and #{write} of the @stride.jit function "
            f"{name} share memory in this call: the function writes "
            f"#{write} with {wconstruct}{wline} and then reads #{read}{rline}, "
            "where NumPy would see the new values; a traced kernel reads "
            "every input once, before any write. Pass arrays that do not "
            "overlap")


class JitFunction:
    """The callable @stride.jit returns; see docs/python.md."""

    def __init__(self, fn, policy="torch", threads=None, cache=False):
        _table.check_policy(policy)
        if threads is not None and (not isinstance(threads, int)
                                    or isinstance(threads, bool) or threads < 1):
            raise ValueError(f"threads must be an int >= 1, got {threads!r}")
        if not isinstance(cache, bool):
            raise TypeError(f"cache must be True or False, got {cache!r}")
        self.fn, self.policy, self.threads = fn, policy, threads
        self.cache = cache
        self._plans = {}
        self._keyword_variants = {}  # (positions, names) -> JitFunction
        self._lock = threading.Lock()
        functools.update_wrapper(self, fn)

    def __call__(self, *args, **kwargs):
        if kwargs:
            return self._call_with_keywords(args, kwargs)
        # _signature inline: a frame less per small call.
        key = _stride.array_signature(args)
        if key is None and current() is not None:
            # Called by another @stride.jit function as it is traced (its
            # values are lazy): part of that trace, as a Python call.
            return self.fn(*args)
        plan = self._plans.get(_python_signature(args) if key is None else key)
        if plan is None or plan.guards is not None:
            plan = self._find(args, plan)
        return plan.fast(args)

    def _call_with_keywords(self, args, kwargs):
        """A call with keyword arguments: those the signature binds to
        positions are passed so; keyword-only ones (and **kwargs) make a
        function of their own taking them after the positional ones, one
        per set of names, so that every value is a traced argument."""
        if current() is not None:
            return self.fn(*args, **kwargs)
        try:
            bound = inspect.signature(self.fn).bind(*args, **kwargs)
        except ValueError:  # no signature (a builtin): keywords as given
            bound = None
        if bound is not None and not bound.kwargs:
            return self(*bound.args)
        pos, kw = (args, kwargs) if bound is None else \
            (bound.args, bound.kwargs)
        names = tuple(kw)
        variant = self._keyword_variants.get((len(pos), names))
        if variant is None:
            fn, n = self.fn, len(pos)

            def by_keywords(*flat):
                return fn(*flat[:n], **dict(zip(names, flat[n:])))
            by_keywords.__name__ = getattr(fn, "__name__", "function")
            by_keywords.__qualname__ = getattr(fn, "__qualname__",
                                               by_keywords.__name__)
            variant = JitFunction(by_keywords, self.policy, self.threads,
                                  self.cache)
            self._keyword_variants[(len(pos), names)] = variant
        return variant(*pos, *kw.values())

    def kernel_text(self, args):
        """The IR and argument layouts of the kernel a call with `args`
        runs, traced (not run) if need be; None when the function computes
        nothing (stride.explain)."""
        plan = self._find(args, self._plans.get(_signature(args)))
        if getattr(plan, "text", None) is None:
            return None
        return plan.text, plan.layouts

    def numpy_calls(self, args):
        """(name, user line) of each NumPy call the plan of a call with
        `args` runs between kernels (stride.explain)."""
        plan = self._find(args, self._plans.get(_signature(args)))
        return [(repr(attr), attr.line)
                for stage in getattr(plan, "earlier", ())
                if type(stage) is _HostStage
                for attr, _, _, _ in stage.calls]

    def _find(self, args, plan):
        """The plan of a signature whose trace read 0-d values (several
        plans, one per outcome of their value classes), or a new trace."""
        while plan is not None:
            if plan.guards is None or plan.guards.hold(args):
                return plan
            plan = plan.next
        key = _signature(args)
        plan = self._trace(args)
        with self._lock:
            first = self._plans.get(key)
            if first is None:
                self._plans[key] = plan
            else:
                while first.next is not None:
                    first = first.next
                first.next = plan
        return plan

    def _trace(self, args):
        arrays = [_to_array(a, i) for i, a in enumerate(args)]
        trace = _Trace(arrays)
        leaves, keys = [], {}
        for i, a in enumerate(arrays):
            if isinstance(a, np.ndarray):
                leaf = _expr.lazy(a)
                trace.positions[id(leaf)] = i
                trace.roots[i] = leaf
                keys[id(leaf)] = ("arg", i)  # never merged: calls may alias
                if isinstance(args[i], (bool, int, float, np.generic)):
                    trace.values.add(id(leaf))  # a scalar: nothing writes it
                    trace.by_position[i] = []
                else:
                    trace.by_position[i] = [leaf]
                leaves.append(leaf)
            else:
                leaves.append(a)
        _tracing.current = trace
        _install()
        try:
            result = self.fn(*leaves)
            single = not isinstance(result, tuple)
            results = [result] if single else list(result)
            if result is None:
                results, single = [], False
            # Reading what it returns comes after every write.
            trace.returning = True
            scalars = frozenset(i for i, r in enumerate(results)
                                if _numpy_scalar(r, trace))
            # Python values made from trace-time constants (shapes, ints,
            # strings) come back as they are; arrays are kernel results.
            consts = [(i, r) for i, r in enumerate(results) if not _is_array(r)]
            # An argument returned as it is (`return out`, the result of
            # `np.add(a, b, out=out)`) is the caller's own array, as in
            # NumPy: after the write-backs, not a copy.
            own = [(i, pos) for i, r in enumerate(results)
                   for pos in [_argument_position(r, leaves, args)]
                   if pos is not None]
            owned = {i for i, _ in own}
            scalars -= owned
            results = [r for i, r in enumerate(results)
                       if _is_array(r) and i not in owned]
            # Arrays the function made and returns whole keep their memory
            # order (NumPy's np.zeros is C-ordered whatever fills it).
            orders = [(k, r.mem.order) for k, r in enumerate(results)
                      if type(r) is _expr.Local and not r.keys
                      and r.mem.order is not None]
            for r in results:
                if isinstance(r, _masked.Masked):
                    raise TypeError(
                        "returning a boolean-mask selection (x[mask]) from "
                        f"the @stride.jit function {self.fn.__name__} is not "
                        "supported: its length depends on the mask's "
                        "values; return np.where(mask, x, fill), or reduce "
                        "the selection (x[mask].sum())")
            roots = [_expr.as_root(r) for r in results]
            backs = trace.write_backs()
            roots += [_expr.as_root(node) for _, _, node in backs]
        finally:
            _tracing.current = None
            _uninstall()
        if not roots:
            # Nothing computed (no array result, no argument written): the
            # call returns what the function returned.
            return _NothingPlan(result, consts, own, single)
        for root in roots:
            for node in _codegen.every_node(root):
                for o in node.operands:
                    if isinstance(o, _expr.Leaf) and id(o) not in keys:
                        # An array the function closed over: a constant
                        # argument of this plan, by reference.
                        keys[id(o)] = (("view", id(o)) if id(o) in trace.views
                                       else _codegen.leaf_key(o.array))
        in_kernel = _views_as_ops(trace, keys)
        earlier, placeholders, produced = [], {}, {}
        for k, stage_roots in enumerate(_stages(roots, trace.cuts,
                                                trace.host_cuts)):
            rebuilt = _rebuild(stage_roots, placeholders, in_kernel)
            if any(n.kind == "host" for n in rebuilt):
                stage = _host_stage(stage_roots, rebuilt, produced, trace)
                made = [np.empty(n.shape, n.dtype) for n in rebuilt]
            else:
                stage = self._kernel(rebuilt, keys, trace, produced)
                made = [_allocator(param)() for param in stage.kernel.outputs]
            earlier.append(stage)
            for j, (node, value) in enumerate(zip(stage_roots, made)):
                # Stands for the value in the kernels after this one: an
                # argument laid out as this kernel returns it.
                leaf = _expr.Leaf(value)
                placeholders[id(node)] = leaf
                keys[id(leaf)] = ("stage", k, j)
                produced[id(leaf)] = (k, j)
        built = roots
        if placeholders or in_kernel:
            # A root an earlier kernel computed comes back as a copy.
            built = [_expr.Op("copy", (b,), (b.dtype,), b.dtype, b.shape)
                     if isinstance(b, _expr.Leaf) else b
                     for b in _rebuild(roots, placeholders, in_kernel)]
        kernel = self._kernel(built, keys, trace, produced)
        plan = _Plan()
        plan.earlier = earlier
        plan.kernel = kernel.kernel
        plan.text, plan.layouts = kernel.text, kernel.layouts  # for stride.explain
        plan.sources = kernel.sources
        plan.allocs = kernel.allocs
        plan.nres = len(results)
        plan.outs = [(pos, keys, plan.nres + k)
                     for k, (pos, keys, _) in enumerate(backs)]
        constants = [c for e in earlier + [kernel] for c in e.constants]
        plan.checks = _overlap_checks(trace, constants)
        plan.direct = _direct_outputs(plan.outs, kernel.kernel.outputs, args)
        plan.written = trace.written
        plan.name = self.fn.__name__
        plan.guards = _Guards(trace) if trace.weak else None
        plan.next = None
        plan.single = single
        plan.consts = consts
        plan.own = own
        plan.orders = orders
        plan.torch = any(_torch.is_tensor(a) for a in args)
        plan.prepare = any(not isinstance(a, np.ndarray) for a in args)
        plan.bools = kernel.bools
        plan.views = kernel.views
        plan.stage_inputs = kernel.stage_inputs
        plan.fast = plan.fast_run()
        if scalars and not plan.torch:  # PyTorch gives 0-d tensors
            plan.fast = _as_numpy_scalars(plan.fast, scalars, single)
        return plan

    def _kernel(self, roots, keys, trace, produced):
        """The compiled kernel computing `roots`, and where a call finds
        each of its inputs: an argument (or a view of one), a constant, or
        a result of an earlier kernel of the plan (`produced`)."""
        for node in _codegen.every_node_of(roots):
            if isinstance(node, _expr.Op) and node.kind == "host":
                raise TypeError(
                    f"{node.attr!r} cannot run between kernels here: its "
                    "arguments or its result are part of a stride.fori_loop "
                    "the trace keeps in one kernel" + node.attr.line)
        text, gen_args, gen_leaves = _codegen.generate_many(
            roots, leaf_keys=keys, embed_floats=True)
        stage = _Stage()
        sources, layouts, per_call, views, constants = [], [], [], [], []
        stage_inputs = []
        for i, (g, leaf) in enumerate(zip(gen_args, gen_leaves)):
            if isinstance(g, np.ndarray):
                pos = trace.positions.get(id(leaf))
                if id(leaf) in produced:  # an earlier kernel's result
                    stage_inputs.append((i,) + produced[id(leaf)])
                    sources.append((None, 0))  # replaced at each call
                    layouts.append((g.shape, _run.element_strides(g)))
                    continue
                if id(leaf) in trace.views:  # a view of an argument
                    vpos, vkeys = trace.views[id(leaf)]
                    views.append((i, vpos, vkeys))
                    sources.append((vpos, None))
                    if g.dtype == _dtypes.BOOL or not _run.kernel_ready(g):
                        per_call.append(i)
                    pos = vpos
                elif pos is None:  # a closed-over array, fixed at trace time
                    sources.append((None, _run.prepare(g)))
                    if id(g) not in trace.made:  # np.zeros(...): only the plan has it
                        constants.append(g)
                else:
                    sources.append((pos, None))
                    if g.dtype == _dtypes.BOOL or not _run.kernel_ready(g):
                        per_call.append(i)  # bool bytes, alignment: per call
                g = sources[-1][1] if pos is None else _run.prepare(g)
                layouts.append((g.shape, _run.element_strides(g)))
            else:
                value, dtype = g
                sources.append((None, dtype.type(value).item()))
                layouts.append(None)
        threads = self.threads or _run.get_threads()
        ckey = ("jit", text, tuple(layouts), self.policy, threads)
        stage.kernel = CACHE.get(ckey, lambda: compile_kernel(
            _stride, text, _codegen.ENTRY, layouts, self.policy, True, False,
            threads, self.cache))
        stage.text, stage.layouts = text, list(layouts)
        stage.sources, stage.views, stage.bools = sources, views, per_call
        stage.stage_inputs, stage.constants = stage_inputs, constants
        stage.allocs = [_allocator(p) for p in stage.kernel.outputs]
        return stage

    def __repr__(self):
        return f"<stride.jit {self.fn.__qualname__} policy={self.policy}>"


def _direct_outputs(outs, params, args):
    """The written arguments (indices into outs) whose memory has the
    layout of the kernel output that holds their final contents (shape,
    and element strides in dims of more than one element; none negative):
    the kernel can write them itself, where no input overlaps them (checked
    per call, _Plan._direct), instead of a new array that is then copied
    in. The layout is the signature's, so it holds for every call of the
    plan."""
    direct = []
    for j, (pos, keys, k) in enumerate(outs):
        a = args[pos]
        if _torch.is_tensor(a):
            a = _torch.to_numpy(a, f"argument #{pos}")
        if not isinstance(a, np.ndarray):
            continue
        target, param = _target(a, keys), params[k]
        if (tuple(param["shape"]) != target.shape
                or any(s < 0 for s in target.strides)
                or not _run.kernel_ready(target)):
            continue
        strides = _run.element_strides(target)
        if all(n <= 1 or want == have for n, want, have
               in zip(target.shape, param["strides"], strides)):
            direct.append(j)
    return tuple(direct)


def _overlap_checks(trace, constants):
    """What each call checks before it runs a trace that writes arguments:
    memory read after writes of another argument (and any closed-over
    array) must not overlap what was written. Per read argument (its
    position, or the closed-over array) and written position, the reads:
    (read, count of the written argument's writes before it, read line); a
    call looks at the single reads only where the two arguments share
    memory at all, and at the single writes (_Plan.written) only where the
    read does."""
    groups, seen = {}, set()
    for (_, pos, count), (spec, rline) in trace.late_reads.items():
        key = (spec[0], repr(spec[1]), pos, count)
        if key not in seen:
            seen.add(key)
            groups.setdefault((spec[0], pos), []).append((spec, count, rline))
    # Grouped by read and written argument: a call tests each pair once
    # and the single reads only of arguments that share memory (trisolv
    # reads three views of other arguments per written element).
    checks = [(whole, pos, reads) for (whole, pos), reads in groups.items()]
    unique = {id(a): a for a in constants}
    for array in unique.values():
        for pos, writes in trace.written.items():
            checks.append((array, pos, [(array, len(writes), None)]))
    return checks


_ERR_IGNORE = [np.core.umath.UFUNC_BUFSIZE_DEFAULT, 0, None]  # errstate(all="ignore")
_geterrobj, _seterrobj = np.core.umath.geterrobj, np.core.umath.seterrobj
_value_class = _dtypes.value_class


class _Guards:
    """The value classes (_dtypes.value_class) that NumPy 1.24's value-based
    promotion read in a trace, of 0-d views, closed-over 0-d arrays and 0-d
    results, and how to recompute them from a call's arguments: the 0-d
    subexpressions as a flat program of NumPy calls (a few microseconds),
    with _expr.value_0d's semantics (which it falls back to on any error)."""
    __slots__ = ("steps", "checks", "nodes", "specs", "_dtypes")

    def __init__(self, trace):
        self.checks, self.nodes = [], []
        self.specs = {}  # id(Leaf) -> argument spec, for the fallback
        slots, self.steps, self._dtypes = {}, [], []
        for node, char in trace.weak.values():
            self._add(trace, node, slots)
            self.checks.append((slots[id(node)], char))
            self.nodes.append((node, char))
        if not self._evaluate_fast(trace.arrays, True):
            self.steps = None  # disagrees with value_0d: use the slow path
        for node, _ in self.nodes:
            _release(node, self.specs)

    def _add(self, trace, root, slots):
        """Appends the steps computing `root`: (0, position, index keys) for
        an argument, (1, value) for a constant, (2, ufunc, operands, dtype)
        for an op, whose operands are (slot, conversion or None), each
        operand converted to the op's input dtype as Stride converts it."""
        stack = [root]
        while stack:  # postorder; 0-d chains can be long
            node = stack[-1]
            if id(node) in slots:
                stack.pop()
                continue
            if isinstance(node, _expr.Op):
                pending = [o for o in node.operands if id(o) not in slots
                           and not isinstance(o, _expr.Scalar)]
                if pending:
                    stack.extend(pending)
                    continue
                operands = []
                for o, d in zip(node.operands, node.in_dtypes):
                    if isinstance(o, _expr.Scalar):  # converted once, here
                        operands.append((len(self.steps), None))
                        self.steps.append((1, np.asarray(d.type(o.value)), None, None))
                        self._dtypes.append(d)
                    else:
                        slot = slots[id(o)]
                        same = self._dtypes[slot] == d
                        operands.append((slot, None if same else d.type))
                step = (2, _expr.numpy_function(node), tuple(operands), node.dtype)
                dtype = node.dtype
            else:
                spec = trace.spec_of(node)
                if spec is None:  # a closed-over 0-d array, by reference
                    step = (1, node.array, None, None)
                else:
                    self.specs[id(node)] = spec
                    step = (0, spec[0], spec[1], None)
                dtype = node.dtype
            stack.pop()
            slots[id(node)] = len(self.steps)
            self.steps.append(step)
            self._dtypes.append(dtype)

    def _evaluate_fast(self, args, check=False):
        """Whether the flat program gives the trace's value classes; None
        where a step raised (then value_0d decides)."""
        old = _geterrobj()
        _seterrobj(_ERR_IGNORE)
        try:
            values = []
            for kind, a, b, dtype in self.steps:
                if kind == 2:
                    v = a(*[values[i] if c is None else c(values[i])
                            for i, c in b])
                    if v.dtype != dtype:
                        v = dtype.type(v)
                elif kind == 1:
                    v = a
                else:
                    v = args[a]
                    if type(v) is not _NDARRAY:
                        v = _to_array(v, a)
                    for k in b:
                        v = v[k]
                values.append(v)
            for slot, char in self.checks:
                if _value_class(values[slot]) != char:
                    return False
            return True
        except Exception:
            return False if check else None
        finally:
            _seterrobj(old)

    def hold(self, args):
        """Whether this call's 0-d values have the trace's value classes."""
        if self.steps is not None:
            result = self._evaluate_fast(args)
            if result is not None:
                return result
        specs = self.specs

        def leaf_array(leaf):
            spec = specs.get(id(leaf))
            return leaf.array if spec is None else _index(
                _to_array(args[spec[0]], spec[0]), spec[1])
        memo = {}
        for node, char in self.nodes:
            if isinstance(node, _expr.Leaf):
                value = leaf_array(node)
            else:
                value = _expr.value_0d(node, leaf_array, memo)
                if value is None:
                    value = np.zeros((), node.dtype)
            if _dtypes.value_class(value) != char:
                return False
        return True


def _release(root, specs):
    """Drops the traced call's arrays from the guard's leaves (they are read
    by position at each call): a plan must not keep them alive."""
    stack, seen = [root], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, _expr.Leaf):
            if id(node) in specs:
                node.array = None
        elif isinstance(node, _expr.Op):
            stack.extend(node.operands)


def jit(fn=None, *, policy="torch", threads=None, cache=False):
    """Decorator: @stride.jit or @stride.jit(policy=..., threads=...,
    cache=True); cache=True keeps the compiled kernels on disk for later
    processes (stride.cache_dir())."""
    if fn is None:
        return lambda f: JitFunction(f, policy, threads, cache)
    return JitFunction(fn, policy, threads, cache)


# The entry points the expression layer calls (see _expr.HOOKS).
_expr.HOOKS.current_trace = current
_expr.HOOKS.refuse_conversion = refuse_conversion
_expr.HOOKS.inplace = inplace
_expr.HOOKS.on_view = on_view
_expr.HOOKS.setitem = setitem
_expr.HOOKS.resolve = resolve
_expr.HOOKS.local_view = local_view
_expr.HOOKS.make_local = make_local
_expr.HOOKS.laid_out = _laid_out
_expr.HOOKS.on_snapshot = on_snapshot
_expr.HOOKS.on_index = on_index
_expr.HOOKS.zero_d_array = zero_d_array


def _dynamic_row(x, key):
    """x[key] at a computed index (None: not such a key)."""
    if _dynamic_index.dynamic_position(key) is None:
        return None
    trace = current()
    if not trace.loops and not _dynamic_index.bounded(key):
        return None  # x[x.argmax()]: NumPy's indexing between kernels
    row = _dynamic_index.read(x, key)
    if row.shape != ():
        trace.dynamic_rows[id(row)] = (x, key)
        trace.keep.append(row)
    return row


_expr.HOOKS.dynamic_index = _dynamic_row
_expr.HOOKS.is_numpy_scalar = lambda node: _numpy_scalar(node, current())
_expr.HOOKS.is_mask = staticmethod(_masked.is_mask)
_expr.HOOKS.select = staticmethod(_masked.select)
_expr.HOOKS.write_out = write_out
