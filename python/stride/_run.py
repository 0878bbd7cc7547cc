"""Running expressions and hand-written IR: specialization, the kernel
cache, output allocation in the compiler's layout, and the rules for
writing into a caller's array."""
import os

import numpy as np

from . import _codegen, _dtypes, _expr, _stride, _table, _torch
from ._cache import CACHE, compile_kernel

# NumPy's class itself: a trace replaces np.ndarray by a subclass for its
# duration (_trace._TracedNdarray).
_NDARRAY = np.ndarray



def element_strides(a):
    return tuple(s // a.itemsize for s in a.strides)


def kernel_ready(a):
    """Whether the kernel can address `a` in place: element-aligned data and
    strides that are whole elements (views of structured arrays or odd
    as_strided calls may be neither, and a misaligned load could fault)."""
    return a.flags.aligned and all(s % a.itemsize == 0 for s in a.strides)


def prepare(a):
    """The array handed to a kernel: `a` itself (zero-copy) whenever possible,
    else an aligned copy in the same memory order, or, for a bool array with
    bytes other than 0 and 1, a copy with those bytes made 1."""
    if not kernel_ready(a):
        return np.array(a, order="K", copy=True)
    if a.dtype == _dtypes.BOOL and a.size and a.view(np.uint8).max() > 1:
        # NumPy reads any nonzero byte as True; the kernel's i1 loads would
        # keep only the low bit.
        return copy_same_strides(a, lambda span: span != 0)
    return a


def copy_same_strides(a, transform=None):
    """A copy of `a` with exactly its strides (so the kernel it runs with is
    the same), made by copying the whole byte range `a` spans. `transform`
    maps that range, as a uint8 array, to the copy's bytes."""
    lowest = tuple(slice(n - 1, n) if s < 0 else slice(0, 1)
                   for n, s in zip(a.shape, a.strides))
    extent = a.itemsize + sum((n - 1) * abs(s)
                              for n, s in zip(a.shape, a.strides))
    start = a[lowest].reshape(1).view(np.uint8)  # the lowest element's bytes
    span = np.lib.stride_tricks.as_strided(start, (extent,), (1,))
    copied = np.array(span) if transform is None else transform(span)
    offset = sum((n - 1) * -s for n, s in zip(a.shape, a.strides) if s < 0)
    return np.lib.stride_tricks.as_strided(
        copied[offset:].view(a.dtype), a.shape, a.strides, writeable=True)


def allocate(param):
    """A writable array with exactly the kernel's reported output layout."""
    if param["dtype"] not in _dtypes.NUMPY_TYPES:
        raise TypeError(f"the kernel returns element type "
                        f"{param.get('type', param['dtype'])}, "
                        f"which NumPy arrays from stride cannot hold "
                        f"({', '.join(_dtypes.NUMPY_NAMES)})")
    dtype = _dtypes.NUMPY_TYPES[param["dtype"]]
    shape, strides = tuple(param["shape"]), tuple(param["strides"])
    if None in shape or None in strides:  # a stride may be -1, never None
        raise RuntimeError(f"the kernel reports a dynamic output layout "
                           f"{shape}:{strides}; cannot allocate it")
    if 0 in shape:
        span, offset = 0, 0
    else:
        span = 1 + sum((n - 1) * abs(s) for n, s in zip(shape, strides))
        offset = sum((n - 1) * -s for n, s in zip(shape, strides) if s < 0)
    if span and strides == c_strides(shape):
        if span * dtype.itemsize >= _ALIGN_FROM:
            return _aligned_empty(span, dtype).reshape(shape)
        return np.empty(shape, dtype)  # (NumPy zeroes the strides of empty arrays)
    base = (_aligned_empty(span, dtype) if span * dtype.itemsize >= _ALIGN_FROM
            else np.empty(max(span, 1), dtype))[offset:]
    return np.lib.stride_tricks.as_strided(
        base, shape, tuple(s * dtype.itemsize for s in strides), writeable=True)


# Large outputs start on a cache line. NumPy's own large arrays start 16
# bytes into a page (malloc's header), so every 64-byte vector row of a
# kernel's tile straddles two lines: `a.T + b` on 4096x4096 float32 took 16.5
# ms with all three arrays at 16 mod 64 and 9.5 ms with them aligned (one
# thread; docs/performance.md).
_ALIGN_FROM = 1 << 20
_ALIGNMENT = 64


def _aligned_empty(count, dtype):
    """A 1-d array of `count` elements of `dtype` whose data starts on a
    64-byte boundary (its base is a slightly larger byte buffer)."""
    nbytes = count * dtype.itemsize
    raw = np.empty(nbytes + _ALIGNMENT, np.uint8)
    start = (-raw.ctypes.data) % _ALIGNMENT
    return raw[start:start + nbytes].view(dtype)


def c_strides(shape):
    strides, acc = [], 1
    for n in reversed(shape):
        strides.append(acc)
        acc *= max(n, 1)
    return tuple(reversed(strides))


def _call_args(args):
    """Kernel inputs and compile-time layouts for codegen's argument list."""
    inputs, layouts = [], []
    for arg in args:
        if isinstance(arg, np.ndarray):
            a = prepare(arg)
            inputs.append(a)
            layouts.append((a.shape, element_strides(a)))
        else:
            value, dtype = arg
            inputs.append(dtype.type(value).item())
            layouts.append(None)
    return inputs, tuple(layouts)


_threads = None  # None: $STRIDE_NUM_THREADS, else the machine's cores


def set_threads(n):
    """Run large kernels (2 MiB moved, or 2^24 operations, 2^21 for a matrix
    product) on `n` OpenMP threads (1 keeps every kernel single-threaded);
    None restores the default: $STRIDE_NUM_THREADS, else the machine's
    cores. Part of the cache key."""
    global _threads
    if n is not None and (not isinstance(n, int) or isinstance(n, bool) or n < 1):
        raise ValueError(f"set_threads expects an int >= 1 or None, got {n!r}")
    _threads = n


def get_threads():
    """The thread count kernels compile for: set_threads's, else the
    drivers' rule (resolveThreads: $STRIDE_NUM_THREADS, else the cores)."""
    if _threads is not None:
        return _threads
    return _stride.resolve_threads(0)


# The fast path of materialize: (structure, policy, threads, out's layout)
# -> what a call with inputs of the same layouts needs (see _fast_call).
_FAST = {}
_FAST_LIMIT = 4096
try:
    from numpy.core._multiarray_umath import may_share_memory as may_share
except ImportError:  # pragma: no cover - other NumPy layouts
    may_share = np.may_share_memory


def _out_signature(out):
    return None if out is None else (out.shape, out.strides, out.dtype)


def _fast_call(root, policy, out):
    """materialize for an already-seen structure whose arrays have the
    layouts seen then: no text, no specialization, one dict lookup and the
    checks a call needs. None where anything differs (then the full path
    runs): other layouts, a bool input (its bytes are checked there), an
    input overlapping out, a read-only or misaligned array."""
    key, args = root.structure_of()
    entry = _FAST.get((key, policy, _threads, _out_signature(out)))
    if entry is None:
        return None
    kernel, sigs, alloc, torch_result = entry
    inputs = []
    for a, sig in zip(args, sigs):
        if sig is None:
            # A scalar, as _call_args converts it: in its IR dtype, then a
            # Python number (the extension would take an np.bool_ for an
            # integer through __index__, which NumPy deprecates).
            value, dtype = a
            inputs.append(dtype.type(value).item())
            continue
        if (a.shape != sig[0] or a.strides != sig[1] or sig[2]
                or not a.flags.aligned
                or (out is not None and may_share(a, out))):
            return None
        inputs.append(a)
    if out is None:
        result = alloc()
    else:
        if not (out.flags.writeable and out.flags.aligned):
            return None
        result = out
    CACHE.count_hit()
    kernel(inputs, [result])
    return _torch.from_numpy(result) if torch_result else result


CACHE.on_drop.append(_FAST.clear)


def _register_fast(root, policy, out, kernel, args, inputs):
    if CACHE.info().limit == 0:
        return  # caching is off
    if any(i is not a for i, a in zip(inputs, args) if isinstance(a, np.ndarray)):
        return  # an input was copied: the layouts it ran with are not the arrays'
    sigs = [(a.shape, a.strides, a.dtype == _dtypes.BOOL)
            if isinstance(a, np.ndarray) else None for a in args]
    param = kernel.outputs[0]
    alloc = (lambda: allocate(param))
    if len(_FAST) >= _FAST_LIMIT:
        _FAST.clear()
    key = root.structure[0] if root.structure is not None else None
    if key is None:
        return
    _FAST[(key, policy, _threads, _out_signature(out))] = (
        kernel, sigs, alloc, out is None and _has_torch_leaf(root))


def _run(root, policy, out=None, generated=None, register=False,
         threads=None):
    """Compiles (or finds) and calls the kernel of `root`; writes into `out`
    (kept layout) or a new array in the policy's layout. `threads` overrides
    get_threads()."""
    if generated is None:
        generated = _generate(root, out)
    text, args = generated
    inputs, layouts = _call_args(args)
    keep = out is not None
    # The exact cache key; docs/python.md documents it.
    if threads is None:
        threads = get_threads()
    key = ("expr", text, layouts, policy, keep, threads)
    kernel = CACHE.get(key, lambda: _stride.compile(
        text, _codegen.ENTRY, list(layouts), policy=policy,
        keep_result_layouts=keep, threads=threads))
    result = allocate(kernel.outputs[0]) if out is None else out
    if result.shape != root.shape or result.dtype != root.dtype:
        raise RuntimeError(  # a disagreement between this package and the compiler
            f"internal error: the kernel produces {result.dtype} "
            f"{_table.fmt(result.shape)}, expected {root.dtype} "
            f"{_table.fmt(root.shape)}")
    kernel(inputs, [result])
    if register:
        _register_fast(root, policy, out, kernel, args, inputs)
    return result


def kernel_layouts(args):
    """The compile-time layouts of codegen's argument list (stride.explain)."""
    return _call_args(args)[1]


def _generate(root, out):
    if out is None:
        return _codegen.generate_cached(root)
    return _codegen.generate_cached(root, out.shape, element_strides(out))


def materialize(expr, policy="torch", out=None):
    """Compiles the whole expression into one kernel (cached), runs it, and
    returns the result: a new array with the policy's strides, or `out`
    written in place with its own strides."""
    if type(expr) is _expr.Op and (out is None or type(out) is _NDARRAY):
        result = _fast_call(expr, policy, out)
        if result is not None:
            return result
    _table.check_policy(policy)
    if out is None and ((type(expr) is _expr.Op and expr.kind in _expr.VIEWS)
                        or (type(expr) is _expr.Leaf and expr.origin)):
        result = view_of_input(expr, policy)
        if result is not None:
            return result
    root = _expr.as_root(expr)
    if _torch.is_tensor(out):
        materialize(root, policy, _torch.to_numpy(out, "out"))
        return out
    if out is None:
        result = _run(root, policy, register=True)
        return _torch.from_numpy(result) if _has_torch_leaf(root) else result
    _check_out(root, out)
    if out.size == 0:
        return out  # nothing to write (NumPy gives empty arrays zero strides)
    direct = not any(s < 0 for s in out.strides) and kernel_ready(out)
    generated = _generate(root, out if direct else None)
    if direct:
        # The argument list is cached on the expression: copies go into a
        # list of this call's own, so a later call never reads them.
        args = list(generated[1])
        copied, serial = _copy_overlapping_inputs(root, args, out)
        if copied:
            generated = (generated[0], args)
        # A kernel split into concurrent chunks could write an element
        # before another chunk reads it: read-ahead inputs need one thread.
        return _run(root, policy, out, generated,
                    register=not (copied or serial),
                    threads=1 if serial else None)
    # Negative or misaligned destinations go through a temporary in the
    # policy's layout: every input is read before out is written.
    tmp = _run(root, policy, None, generated)
    np.copyto(out, tmp, casting="no")
    return out


class _ViewOf:
    """The NumPy array interface of a view into `base`'s memory; NumPy
    keeps this object, and so `base`, alive as the view's base."""
    def __init__(self, base, address, shape, strides):
        self.base = base
        self.__array_interface__ = {
            "version": 3, "shape": shape, "typestr": base.dtype.str,
            "data": (address, not base.flags.writeable),
            "strides": tuple(s * base.itemsize for s in strides)}


def view_of_input(root, policy):
    """A chain of views of one input array, materialized as the library
    does: a view of the input (no kernel, no copy) with the shape, strides
    and offset of the policy's view rules (lib/Layout, through the
    extension). None where the chain is not only views of an input, or a
    view in it is a copy under the policy (the kernel then makes it)."""
    chain, node = [], root
    while True:
        while type(node) is _expr.Op and node.kind in _expr.VIEWS:
            chain.append(node)
            node = node.operands[0]
        if type(node) is not _expr.Leaf or node.origin is None:
            break
        parent, key = node.origin  # indexing: the same views of the parent
        node = _expr.index(parent, key)
    if type(node) is not _expr.Leaf or node.written or not chain:
        return None
    array = node.array
    shape, strides, offset = array.shape, element_strides(array), 0
    for op in reversed(chain):
        shape, strides, moved, is_view = _stride.view_layout(
            op.kind, policy, shape, strides, op.attr)
        if not is_view:
            return None
        offset += moved
    address = array.__array_interface__["data"][0] + offset * array.itemsize
    if 0 in shape:
        address = array.__array_interface__["data"][0]
    view = np.asarray(_ViewOf(array, address, tuple(shape), strides))
    if node.from_torch:
        try:
            return _torch.from_numpy(view)
        except (ValueError, RuntimeError):
            return None  # a view PyTorch cannot hold (negative strides)
    return view


def _check_out(root, out):
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a numpy.ndarray, got {type(out).__name__}")
    if out.dtype != root.dtype:
        raise TypeError(f"out has dtype {out.dtype} but the expression gives "
                        f"{root.dtype}")
    if out.shape != root.shape:
        raise ValueError(f"out has shape {_table.fmt(out.shape)} but the "
                         f"expression gives shape {_table.fmt(root.shape)}")
    if not out.flags.writeable:
        raise ValueError("out is read-only")
    if out.size == 0:
        return
    for d, (n, s) in enumerate(zip(out.shape, out.strides)):
        if s == 0 and n > 1:
            raise ValueError(f"out has stride 0 in dim {d} (size {n}): several "
                             "results would go to one element")
    if self_overlapping(out):
        raise ValueError(f"out (shape {_table.fmt(out.shape)}, dtype "
                         f"{out.dtype}, itemsize {out.itemsize}, byte strides "
                         f"{out.strides}) overlaps itself")


def self_overlapping(a):
    """Whether two elements of `a` share memory. Cheap sufficient test first
    (each dim's stride clears the extent of the smaller ones), then an exact
    count of distinct offsets for the rare interleaved layouts."""
    if a.size <= 1:
        return False
    dims = sorted((abs(s), n) for n, s in zip(a.shape, a.strides) if n > 1)
    extent = a.itemsize
    for s, n in dims:
        if s < extent:
            break
        extent += s * (n - 1)
    else:
        return False
    if a.size > 1 << 22:
        return True  # too large to check exactly; refuse rather than guess
    offsets = np.zeros(1, np.int64)
    for n, s in zip(a.shape, a.strides):
        offsets = (offsets[:, None] + np.arange(n, dtype=np.int64) * s).ravel()
    offsets = np.sort(offsets)
    return bool(np.any(np.diff(offsets) < a.itemsize))


def _same_elements(a, out):
    """`a` is `out` element for element (any dtype of the same size)."""
    if a.shape != out.shape or a.itemsize != out.itemsize:
        return False
    if (a.__array_interface__["data"][0]
            != out.__array_interface__["data"][0]):
        return False
    return all(sa == so for n, sa, so in zip(a.shape, a.strides, out.strides)
               if n > 1)


def _has_torch_leaf(root):
    """Whether some input was a torch tensor: the result is one too."""
    if not _torch.is_tensor_module_loaded():
        return False
    stack, seen = [root], set()
    while stack:
        node = stack.pop()
        if isinstance(node, _expr.Leaf):
            if node.from_torch:
                return True
        elif isinstance(node, _expr.Op) and id(node) not in seen:
            seen.add(id(node))
            stack.extend(node.operands)
    return False


def _has_matmul(root):
    stack, seen = [root], set()
    while stack:
        node = stack.pop()
        if not isinstance(node, _expr.Op) or id(node) in seen:
            continue
        if node.kind == "matmul":
            return True
        seen.add(id(node))
        stack.extend(node.operands)
    return False


# Above this many elements a multi-threaded kernel beats one thread even
# with the copy: a read-ahead input is copied there rather than read in
# place by a single-threaded kernel (see _copy_overlapping_inputs).
SERIAL_READ_AHEAD_LIMIT = 1 << 16


def _copy_overlapping_inputs(root, args, out):
    """NumPy's rule for out=: the result is as if every input were read
    before out is written. An elementwise kernel reads each input element in
    the iteration that writes the same element of out, so an input that *is*
    out element for element (any dtype of the same size) is safe as it is;
    so is one that shares no element with out, and one that reads ahead of
    the writes (see _reads_ahead) when the kernel runs on one thread. Every
    other input that overlaps out (shifted backwards, reversed, strided or
    broadcast views of it, or any overlap when a matmul reads whole rows and
    columns) is replaced in `args` by a copy. Returns how many inputs were
    copied and whether the kernel must run on one thread."""
    copied = 0
    serial = False
    matmul = None
    for i, a in enumerate(args):
        if not isinstance(a, np.ndarray) or not np.may_share_memory(a, out):
            continue
        if matmul is None:
            matmul = _has_matmul(root)
        if not matmul and _same_elements(a, out):
            continue
        if (not matmul and _reads_ahead(a, out)
                and (get_threads() == 1 or out.size < SERIAL_READ_AHEAD_LIMIT)):
            serial = True
            continue
        try:
            # Bounded: the exact problem is NP-hard for odd strides.
            overlap = np.shares_memory(a, out, max_work=1 << 20)
        except np.TooHardError:
            overlap = True  # undecided: copying is always right
        if overlap:
            args[i] = copy_same_strides(a)
            copied += 1
    return copied, serial


def _reads_ahead(a, out):
    """Whether a single-threaded elementwise kernel writing `out` reads every
    element of `a` before writing any memory that element occupies, whatever
    loop order, merged dims, cache tiles or vector blocks it uses.

    Every such kernel visits out's index space in an order in which index p
    comes before q whenever p <= q componentwise (each loop walks its dims
    upwards, since out's strides are positive here, and tiles and vector
    blocks keep that), and it reads all inputs of an iteration (or vector
    block) before writing it. So the reads of `a` are safe when, for every
    pair of elements with `a[p]` sharing a byte with `out[q]`, q - p has no
    negative component: q is written no earlier than p is read.

    Decided for memmove-style views: `a` has out's shape, itemsize and
    strides and starts delta bytes after it. The pairs are then the
    index differences m (|m_d| < n_d) with |sum(m_d * s_d) - delta| <
    itemsize, found by a search over out's dims from the largest stride,
    each level keeping only the m_d that the inner dims can still complete;
    a search that grows too large answers no (the input is copied)."""
    if a.shape != out.shape or a.itemsize != out.itemsize:
        return False
    dims = []
    for n, sa, so in zip(a.shape, a.strides, out.strides):
        if n == 1:
            continue
        if sa != so or so <= 0:
            return False
        dims.append((so, n))
    delta = (a.__array_interface__["data"][0]
             - out.__array_interface__["data"][0])
    dims.sort(reverse=True)
    # reach[l]: the most the dims after l can add to a byte difference.
    reach = [0] * (len(dims) + 1)
    for level in range(len(dims) - 1, -1, -1):
        s, n = dims[level]
        reach[level] = reach[level + 1] + (n - 1) * s
    budget = [10000]

    def forward_only(level, lo, hi, backwards):
        # Differences m[level:] completing a pair: sum(m_d * s_d) in (lo, hi).
        budget[0] -= 1
        if budget[0] < 0:
            return False
        if level == len(dims):
            return not (backwards and lo < 0 < hi)
        s, n = dims[level]
        r = reach[level + 1]
        first = max(1 - n, (lo - r) // s + 1)
        last = min(n - 1, -((-(hi + r)) // s) - 1)
        return all(forward_only(level + 1, lo - m * s, hi - m * s,
                                backwards or m < 0)
                   for m in range(first, last + 1))

    return forward_only(0, delta - a.itemsize, delta + a.itemsize, False)


class Function:
    """A function of hand-written Stride IR, callable on NumPy arrays and
    scalars. Each call specializes it to the arrays' exact shapes and strides
    (one cached kernel per distinct layout) and returns its results: one
    array, a tuple of arrays for several results, or None for none."""

    def __init__(self, mlir_text, entry, policy="torch", fuse=True,
                 keep_result_layouts=False, cache=False):
        _table.check_policy(policy)
        if not isinstance(cache, bool):
            raise TypeError(f"cache must be True or False, got {cache!r}")
        self.cache = cache
        if not isinstance(mlir_text, str) or not isinstance(entry, str):
            raise TypeError("stride.compile expects the IR text and the entry "
                            "function's name as strings")
        self.mlir_text, self.entry = mlir_text, entry.lstrip("@")
        self.policy, self.fuse = policy, bool(fuse)
        self.keep_result_layouts = bool(keep_result_layouts)

    def __call__(self, *args):
        inputs, layouts = [], []
        for i, a in enumerate(args):
            if isinstance(a, np.ndarray):
                _dtypes.check(a.dtype, f"argument #{i}")
                a = prepare(a)
                inputs.append(a)
                layouts.append((a.dtype.str, a.shape, element_strides(a)))
            elif _dtypes.is_scalar(a):
                # The IR declares the scalar's type; the extension converts.
                inputs.append(a.item() if isinstance(a, np.generic) else a)
                layouts.append(None)
            else:
                raise TypeError(f"argument #{i}: expected a numpy.ndarray or "
                                f"a scalar, got {type(a).__name__}")
        layouts = tuple(layouts)
        threads = get_threads()
        key = ("ir", self.mlir_text, self.entry, layouts, self.policy,
               self.fuse, self.keep_result_layouts, threads)
        specialization = [None if l is None else l[1:] for l in layouts]
        kernel = CACHE.get(key, lambda: compile_kernel(
            _stride, self.mlir_text, self.entry, specialization, self.policy,
            self.fuse, self.keep_result_layouts, threads, self.cache))
        outputs = [allocate(p) for p in kernel.outputs]
        kernel(inputs, outputs)
        if not outputs:
            return None
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def __repr__(self):
        return f"<stride.Function @{self.entry} policy={self.policy}>"


def compile(mlir_text, entry, policy="torch", fuse=True,
            keep_result_layouts=False, cache=False):
    """A callable for function `entry` of hand-written Stride IR; see
    Function. cache=True keeps its kernels on disk for later processes.
    (stride.compile is _distributed.compile, which adds distribute=.)"""
    return Function(mlir_text, entry, policy, fuse, keep_result_layouts, cache)


_expr.HOOKS.materialize = materialize
