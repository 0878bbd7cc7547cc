"""@stride.jit: trace a plain NumPy function with lazy expressions, compile
everything it returns into one fused kernel per signature, and run later
calls through a plan that does only what a call must: check the signature,
allocate the results, call the kernel (which releases the GIL)."""
import functools
import threading

import numpy as np

from . import _codegen, _dtypes, _expr, _run, _stride, _torch
from ._cache import CACHE

_tracing = threading.local()


def write_out(result, target):
    """ufunc(..., out=target) on a lazy expression. Outside a trace it runs
    now (materialize into target); inside one, target must be an argument of
    the traced function and is written when the kernel has run."""
    trace = getattr(_tracing, "current", None)
    if trace is None:
        if _torch.is_tensor(target):
            _run.materialize(result, out=_torch.to_numpy(target, "out"))
            return target
        return _run.materialize(result, out=target)
    if not isinstance(target, _expr.Leaf) or (
            id(target) not in trace.positions and id(target) not in trace.views):
        from ._numpy_api import user_line
        raise TypeError("out= inside a @stride.jit function must be one of "
                        "its array arguments or a view of one" + user_line())
    root = _expr.as_root(result)
    if root.shape != target.shape or root.dtype != target.dtype:
        raise ValueError(f"out= argument has dtype {target.dtype} and shape "
                         f"{target.shape}, the result {root.dtype} "
                         f"{root.shape}")
    target.written = True
    trace.outs.append((trace.positions.get(id(target))
                       if id(target) in trace.positions
                       else trace.views[id(target)], root))
    return result


class _Trace:
    def __init__(self):
        self.positions = {}  # id(Leaf) -> argument position
        self.views = {}      # id(Leaf) -> (argument position, index keys)
        self.outs = []       # (argument position, root)
        self.keep = []       # the view Leaves (their ids must stay unique)


def on_view(parent, view, key):
    """Records that `view` is parent[key], so each call indexes its own
    argument the same way."""
    trace = getattr(_tracing, "current", None)
    if trace is None:
        return
    if id(parent) in trace.positions:
        trace.views[id(view)] = (trace.positions[id(parent)], (key,))
    elif id(parent) in trace.views:
        pos, keys = trace.views[id(parent)]
        trace.views[id(view)] = (pos, keys + (key,))
    trace.keep.append(view)


def _index(a, keys):
    for k in keys:
        a = a[k]
    return a


def _signature(args):
    """The cache key of one call: per argument its kind, dtype, shape and
    element strides (arrays) or its NumPy 1.24 promotion class (scalars,
    which are passed to the kernel as 0-d arrays)."""
    key = []
    for a in args:
        if isinstance(a, np.ndarray):
            key.append((a.dtype.char, a.shape, a.strides, a.flags.aligned))
        elif _torch.is_tensor(a):
            key.append(("torch", str(a.dtype), tuple(a.shape), a.stride()))
        elif isinstance(a, (bool, int, float, np.generic)):
            key.append((type(a), np.min_scalar_type(a).char))
        else:
            key.append((type(a), a))  # anything else is a trace-time constant
    return tuple(key)


class _Plan:
    """A compiled trace: the kernel and how a call's arguments become its
    inputs and outputs."""
    __slots__ = ("kernel", "sources", "allocs", "outs", "single", "torch",
                 "bools", "prepare", "nres", "views")

    def run(self, args):
        if self.prepare:
            args = [_to_array(a, i) for i, a in enumerate(args)]
        inputs = [args[s] if c is None else c for s, c in self.sources]
        for i, pos, keys in self.views:
            inputs[i] = _index(args[pos], keys)
        for i in self.bools:
            inputs[i] = _run._prepare(inputs[i])
        outputs = [alloc() for alloc in self.allocs]
        self.kernel(inputs, outputs)
        # out= arguments are written after the kernel has read every input.
        for pos, k in self.outs:
            target = args[pos] if isinstance(pos, int) else _index(args[pos[0]], pos[1])
            np.copyto(target, outputs[k], casting="no")
        if self.outs:
            outputs = outputs[:self.nres]
        if self.torch:
            outputs = [_torch.from_numpy(o) for o in outputs]
        if self.single:
            return outputs[0]
        return tuple(outputs) if self.nres else None


def _to_array(a, i):
    if isinstance(a, np.ndarray):
        return a
    if _torch.is_tensor(a):
        return _torch.to_numpy(a, f"argument #{i}")
    if isinstance(a, (bool, int, float, np.generic)):
        return np.asarray(a)
    return a


def _allocator(param):
    """A fast allocation of the kernel's output layout."""
    dtype = _dtypes.NUMPY_TYPES[param["dtype"]]
    shape, strides = tuple(param["shape"]), tuple(param["strides"])
    if 0 not in shape and strides == _run._c_strides(shape):
        return functools.partial(np.empty, shape, dtype)
    return functools.partial(_run.allocate, param)


class JitFunction:
    """The callable @stride.jit returns; see docs/python.md."""

    def __init__(self, fn, policy="torch", threads=None):
        _run._check_policy(policy)
        if threads is not None and (not isinstance(threads, int)
                                    or isinstance(threads, bool) or threads < 1):
            raise ValueError(f"threads must be an int >= 1, got {threads!r}")
        self.fn, self.policy, self.threads = fn, policy, threads
        self._plans = {}
        self._lock = threading.Lock()
        functools.update_wrapper(self, fn)

    def __call__(self, *args):
        plan = self._plans.get(_signature(args))
        if plan is None:
            plan = self._trace(args)
        return plan.run(args)

    def _trace(self, args):
        key = _signature(args)
        arrays = [_to_array(a, i) for i, a in enumerate(args)]
        trace = _Trace()
        leaves, keys = [], {}
        for i, a in enumerate(arrays):
            if isinstance(a, np.ndarray):
                leaf = _expr.lazy(a)
                trace.positions[id(leaf)] = i
                keys[id(leaf)] = ("arg", i)  # never merged: calls may alias
                leaves.append(leaf)
            else:
                leaves.append(a)
        _tracing.current = trace
        try:
            result = self.fn(*leaves)
        finally:
            _tracing.current = None
        single = not isinstance(result, tuple)
        results = [result] if single else list(result)
        if result is None:
            results, single = [], False
        roots = [_expr.as_root(r) for r in results]
        roots += [root for _, root in trace.outs]
        if not roots:
            raise TypeError(f"@stride.jit function {self.fn.__name__} "
                            "returned nothing to compute")
        for root in roots:
            for node in _codegen._postorder(root):
                for o in node.operands:
                    if isinstance(o, _expr.Leaf) and id(o) not in keys:
                        # An array the function closed over: a constant
                        # argument of this plan, by reference.
                        keys[id(o)] = (("view", id(o)) if id(o) in trace.views
                                       else _codegen.leaf_key(o.array))
        text, gen_args, gen_leaves = _codegen.generate_many(
            roots, leaf_keys=keys)
        sources, layouts, per_call, views = [], [], [], []
        for i, (g, leaf) in enumerate(zip(gen_args, gen_leaves)):
            if isinstance(g, np.ndarray):
                pos = trace.positions.get(id(leaf))
                if id(leaf) in trace.views:  # a view of an argument
                    vpos, vkeys = trace.views[id(leaf)]
                    views.append((i, vpos, vkeys))
                    sources.append((vpos, None))
                    if g.dtype == _dtypes.BOOL or not _run.kernel_ready(g):
                        per_call.append(i)
                    pos = vpos
                elif pos is None:  # a closed-over array, fixed at trace time
                    sources.append((None, _run._prepare(g)))
                else:
                    sources.append((pos, None))
                    if g.dtype == _dtypes.BOOL or not _run.kernel_ready(g):
                        per_call.append(i)  # bool bytes, alignment: per call
                g = sources[-1][1] if pos is None else _run._prepare(g)
                layouts.append((g.shape, _run.element_strides(g)))
            else:
                value, dtype = g
                sources.append((None, dtype.type(value).item()))
                layouts.append(None)
        threads = self.threads or _run.get_threads()
        ckey = ("jit", text, tuple(layouts), self.policy, threads)
        kernel = CACHE.get(ckey, lambda: _stride.compile(
            text, _codegen.ENTRY, list(layouts), policy=self.policy,
            keep_result_layouts=False, threads=threads))
        plan = _Plan()
        plan.kernel = kernel
        plan.sources = sources
        plan.allocs = [_allocator(p) for p in kernel.outputs]
        plan.nres = len(results)
        plan.outs = [(pos, plan.nres + k) for k, (pos, _) in enumerate(trace.outs)]
        plan.single = single
        plan.torch = any(_torch.is_tensor(a) for a in args)
        plan.prepare = any(not isinstance(a, np.ndarray) for a in args)
        plan.bools = per_call
        plan.views = views
        with self._lock:
            self._plans[key] = plan
        return plan

    def __repr__(self):
        return f"<stride.jit {self.fn.__qualname__} policy={self.policy}>"


def jit(fn=None, *, policy="torch", threads=None):
    """Decorator: @stride.jit or @stride.jit(policy=..., threads=...)."""
    if fn is None:
        return lambda f: JitFunction(f, policy, threads)
    return JitFunction(fn, policy, threads)
