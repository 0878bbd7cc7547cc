"""@stride.jit: trace a plain NumPy function with lazy expressions, compile
everything it returns into one fused kernel per signature, and run later
calls through a plan that does only what a call must: check the signature,
allocate the results, call the kernel (which releases the GIL)."""
import functools
import threading

import numpy as np

from . import _codegen, _dtypes, _expr, _numpy_api, _run, _stride, _table, _torch
from ._cache import CACHE
from ._errors import user_line

_tracing = threading.local()

# Leaf.written states in a trace that writes arguments.
WATCH, STALE = 1, 2


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
    runs now (materialize into target); inside one, target must be an
    argument of the traced function (or a view of one, or what an earlier
    in-place operation returned for one) and is written when the kernel has
    run; the ufunc returns the node for target's new contents."""
    trace = current()
    if trace is None:
        if _torch.is_tensor(target):
            _run.materialize(result, out=_torch.to_numpy(target, "out"))
            return target
        return _run.materialize(result, out=target)
    spec = trace.spec_of(target)
    if spec is None or trace.is_value(target):
        raise TypeError("writing into an array inside a @stride.jit function "
                        "(out=, or an augmented assignment such as a += ... "
                        "on a NumPy array) is only supported for the "
                        "function's array arguments and views of them"
                        + _user_line())
    root = _expr.as_root(result)
    if root.shape != target.shape or root.dtype != target.dtype:
        raise ValueError(f"out= argument has dtype {target.dtype} and shape "
                         f"{target.shape}, the result {root.dtype} "
                         f"{root.shape}")
    # A result the ufunc made now is the new contents itself; one it passed
    # through (np.positive(t, out=x) returns t) is used elsewhere.
    fresh = all(root is not i for i in inputs)
    return trace.write(spec, root, "out=", _user_line(), fresh)


def inplace(symbol, target, other):
    """`target <op>= other` inside a trace, with NumPy's meaning: an array
    argument (or a view of one) is written, like ufunc(target, other,
    out=target), and the name is bound to its new contents; an intermediate
    result is replaced (its old object goes stale). Scalars (scalar
    arguments, elements x[i], 0-d results, which NumPy gives as scalars)
    rebind the name to a new value."""
    trace = current()
    t = type(target)
    spec = trace.spec_of(target)
    if trace.is_value(target) or (spec is None and t is not _expr.Leaf
                                  and target.shape == ()):
        return NotImplemented  # a Python or NumPy scalar: `a = a + b`
    line = _user_line()
    if spec is None and t is _expr.Leaf:
        raise TypeError(f"augmented assignment ({symbol}) on an array the "
                        "@stride.jit function closed over is not supported "
                        "(only its array arguments and views of them can be "
                        "written)" + line)
    if symbol == "@=":
        raise TypeError("In-place matrix multiplication is not (yet) "
                        "supported. Use 'a = a @ b' instead of 'a @= b' "
                        "(as in NumPy 1.24)" + line)
    if symbol == "**=":
        raise TypeError("augmented assignment **= of an array is not "
                        "supported inside @stride.jit: NumPy's in-place "
                        "power takes value-dependent shortcuts (a **= 2 is "
                        "np.square, a **= 0.5 np.sqrt, ...); write a = a ** "
                        "b, or np.power(a, b, out=a) for an argument" + line)
    value = _expr.inplace_value(symbol, target, other)
    if value is NotImplemented:
        return value
    if spec is None:  # an intermediate result: NumPy overwrites its array
        trace.make_stale(target, symbol, line)
        return value
    return trace.write(spec, value, symbol, line, fresh=True,
                       target=target)


def completes_inplace(leaf, key, value):
    """Whether leaf[key] = value is the store Python makes after
    `leaf[key] <op>= y`: value is what the in-place operation returned for
    the view leaf[key] that this very key object made."""
    trace = current()
    if trace is None or type(value) is not _expr.Update:
        return False
    target = trace.update_targets.get(id(value))
    info = trace.view_info.get(id(target))
    return info is not None and info[0] is leaf and info[1] is key


def on_read(x):
    """A read of a watched or stale leaf, or of an Update or Stale node."""
    trace = current()
    if type(x) is _expr.Stale or (type(x) is _expr.Leaf and x.written == STALE):
        why = trace.stale_why.get(id(x)) if trace is not None else None
        where = f" (at {why[1]})" if why and why[1] else ""
        by = why[0] if why else "an in-place operation"
        raise TypeError(
            f"this array was written by {by} earlier in the @stride.jit "
            f"function{where}; NumPy would read its new contents here, and a "
            "traced kernel reads every input once, before any write. Use "
            "the value the in-place operation or the ufunc returned instead"
            + (trace.line() if trace is not None else _user_line()))
    if trace is not None:
        trace.record_read(x)


def on_view(parent, view, key, raw, scalar):
    """Records that `view` is parent[key], so each call indexes its own
    argument the same way."""
    trace = current()
    if trace is None:
        return
    trace.keep.append(view)
    spec = trace.spec_of(parent)
    if spec is None or type(parent) is not _expr.Leaf:
        return  # a view of a closed-over array: a constant
    pos, keys = spec
    i = id(view)
    trace.views[i] = (pos, keys + (key,))
    trace.view_info[i] = (parent, raw)
    if scalar or trace.is_value(parent):
        # NumPy's x[i] is a copy of the element, made now: a value (no
        # memory to write or to go stale), read at this point.
        trace.values.add(i)
        if parent.written == STALE:
            on_read(parent)  # refused: NumPy would copy the new value
        trace.record_read(view)
        return
    trace.by_position[pos].append(view)
    if parent.written == STALE:
        view.written = STALE
        trace.stale_why[i] = trace.stale_why.get(id(parent))
    elif trace.writes:
        view.written = WATCH


class _Trace:
    def __init__(self, arrays):
        self.arrays = arrays  # this call's arguments (arrays and others)
        self.positions = {}   # id(Leaf) -> argument position
        self.views = {}       # id(Leaf) -> (argument position, index keys)
        self.view_info = {}   # id(view Leaf) -> (parent Leaf, key as given)
        self.values = set()   # ids of scalar arguments and elements x[i]
        self.by_position = {}  # position -> its Leaves that show its memory
        self.writes = []      # (spec, root, construct, line), program order
        self.update_specs = {}    # id(Update or Stale) -> spec written
        self.update_targets = {}  # id(Update) -> the object written
        self.update_seq = {}      # id(Update) -> index of its write
        self.updates = {}     # position -> its Update nodes
        self.stale_why = {}   # id(stale object) -> (construct, line)
        self.late_reads = {}  # (id(read), write index) -> (read spec, line)
        self.weak = {}        # id(0-d node) -> (node, NumPy value class)
        self.keep = []        # objects whose ids the dicts above hold
        self.returning = False  # reading what the function returned

    def line(self):
        """Where a read happens, for messages."""
        if self.returning:
            return " (in what the function returns)"
        return _user_line()

    def spec_of(self, x):
        """(position, index keys) of the argument memory `x` shows, or
        None (a closed-over array, an intermediate result)."""
        i = id(x)
        pos = self.positions.get(i)
        if pos is not None:
            return (pos, ())
        spec = self.views.get(i)
        return spec if spec is not None else self.update_specs.get(i)

    def is_value(self, x):
        """A scalar argument or an element x[i]: NumPy has a Python or NumPy
        scalar there, a value that nothing writes."""
        return id(x) in self.values

    def write(self, spec, root, construct, line, fresh, target=None):
        """Records that the memory `spec` gets `root` after the kernel;
        everything that showed its old contents goes stale. Returns the node
        for its new contents."""
        pos, keys = spec
        _check_target(_index(self.arrays[pos], keys), construct, line)
        if not self.writes:  # from now on reads of arguments are recorded
            for leaves in self.by_position.values():
                for leaf in leaves:
                    if not leaf.written:
                        leaf.written = WATCH
        self.writes.append((spec, root, construct, line))
        why = (construct, line.strip()[4:-1] if line else "")
        for leaf in self.by_position[pos]:
            leaf.written = STALE
            self.stale_why[id(leaf)] = why
        for node in self.updates.get(pos, ()):
            if type(node) is _expr.Update:
                node.__class__ = _expr.Stale
                self.stale_why[id(node)] = why
        if fresh and type(root) is _expr.Op:
            root.__class__ = _expr.Update  # the same layout: no new node
            node = root
        else:  # the root is used elsewhere too: a copy stands for it
            node = _expr.Update("copy", (root,), (root.dtype,), root.dtype,
                                root.shape)
        self.update_specs[id(node)] = spec
        self.update_targets[id(node)] = target
        self.update_seq[id(node)] = len(self.writes) - 1
        self.updates.setdefault(pos, []).append(node)
        self.keep.append(node)
        return node

    def make_stale(self, node, construct, line):
        node.__class__ = _expr.Stale
        self.stale_why[id(node)] = (construct, line.strip()[4:-1] if line else "")
        self.keep.append(node)

    def record_read(self, x):
        """A read of argument memory after writes of other arguments: at
        each call that memory must not overlap what they wrote, as the
        kernel reads the values from before the writes."""
        if not self.writes:
            return
        spec = self.spec_of(x)
        if spec is None:
            return  # constants are checked against every write
        first = self.update_seq.get(id(x), -1) + 1
        line = None
        for k in range(first, len(self.writes)):
            if self.writes[k][0][0] == spec[0] or (id(x), k) in self.late_reads:
                continue
            if line is None:
                line = self.line()
            self.late_reads[(id(x), k)] = (spec, line)

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


def _signature(args):
    """The cache key of one call: per argument its kind, dtype, shape and
    element strides (arrays) or its NumPy 1.24 promotion class (scalars,
    which are passed to the kernel as 0-d arrays). A 0-d array or tensor is
    a weak operand whose value NumPy 1.24's promotion reads, so its value
    class (_dtypes.value_class) is part of the key too."""
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
        elif isinstance(a, (bool, int, float, np.generic)):
            key.append((type(a), _dtypes.value_class(a)))
        else:
            key.append((type(a), a))  # anything else is a trace-time constant
    return tuple(key)


class _Plan:
    """A compiled trace: the kernel and how a call's arguments become its
    inputs and outputs."""
    __slots__ = ("kernel", "sources", "allocs", "outs", "single", "torch",
                 "bools", "prepare", "nres", "views", "checks", "guards",
                 "next")

    def run(self, args):
        if self.prepare:
            args = [_to_array(a, i) for i, a in enumerate(args)]
        if self.outs:
            targets = self._targets(args)
        inputs = [args[s] if c is None else c for s, c in self.sources]
        for i, pos, keys in self.views:
            inputs[i] = _index(args[pos], keys)
        for i in self.bools:
            inputs[i] = _run.prepare(inputs[i])
        outputs = [alloc() for alloc in self.allocs]
        self.kernel(inputs, outputs)
        if self.outs:
            # Written arguments get their values after the kernel has read
            # every input, in program order.
            for target, (_, _, k) in zip(targets, self.outs):
                np.copyto(target, outputs[k], casting="no")
            outputs = outputs[:self.nres]
        if self.torch:
            outputs = [_torch.from_numpy(o) for o in outputs]
        if self.single:
            return outputs[0]
        return tuple(outputs) if self.nres else None

    def _targets(self, args):
        """The arrays this call writes, checked before anything runs."""
        targets = [_index(args[pos], keys) for pos, keys, _ in self.outs]
        for target in targets:
            if not target.flags.writeable:
                raise ValueError("output array is read-only")
        for read, write, message in self.checks:
            a = read if isinstance(read, np.ndarray) else _index(args[read[0]], read[1])
            b = _index(args[write[0]], write[1])
            if _run.may_share(a, b):
                try:
                    overlap = np.shares_memory(a, b, max_work=1 << 20)
                except np.TooHardError:
                    overlap = True  # too costly to decide: refuse
                if overlap:
                    raise TypeError(message)
        return targets


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

    def __init__(self, fn, policy="torch", threads=None):
        _table.check_policy(policy)
        if threads is not None and (not isinstance(threads, int)
                                    or isinstance(threads, bool) or threads < 1):
            raise ValueError(f"threads must be an int >= 1, got {threads!r}")
        self.fn, self.policy, self.threads = fn, policy, threads
        self._plans = {}
        self._lock = threading.Lock()
        functools.update_wrapper(self, fn)

    def __call__(self, *args):
        plan = self._plans.get(_signature(args))
        if plan is None or plan.guards is not None:
            plan = self._find(args, plan)
        return plan.run(args)

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
        try:
            result = self.fn(*leaves)
            single = not isinstance(result, tuple)
            results = [result] if single else list(result)
            if result is None:
                results, single = [], False
            # Reading what it returns comes after every write.
            trace.returning = True
            roots = [_expr.as_root(r) for r in results]
        finally:
            _tracing.current = None
        roots += [root for _, root, _, _ in trace.writes]
        if not roots:
            raise TypeError(f"@stride.jit function {self.fn.__name__} "
                            "returned nothing to compute")
        for root in roots:
            for node in _codegen.postorder(root):
                for o in node.operands:
                    if isinstance(o, _expr.Leaf) and id(o) not in keys:
                        # An array the function closed over: a constant
                        # argument of this plan, by reference.
                        keys[id(o)] = (("view", id(o)) if id(o) in trace.views
                                       else _codegen.leaf_key(o.array))
        text, gen_args, gen_leaves = _codegen.generate_many(
            roots, leaf_keys=keys)
        sources, layouts, per_call, views, constants = [], [], [], [], []
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
                    sources.append((None, _run.prepare(g)))
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
        kernel = CACHE.get(ckey, lambda: _stride.compile(
            text, _codegen.ENTRY, list(layouts), policy=self.policy,
            keep_result_layouts=False, threads=threads))
        plan = _Plan()
        plan.kernel = kernel
        plan.sources = sources
        plan.allocs = [_allocator(p) for p in kernel.outputs]
        plan.nres = len(results)
        plan.outs = [(pos, keys, plan.nres + k)
                     for k, ((pos, keys), _, _, _) in enumerate(trace.writes)]
        plan.checks = _overlap_checks(trace, constants, self.fn.__name__)
        plan.guards = _Guards(trace) if trace.weak else None
        plan.next = None
        plan.single = single
        plan.torch = any(_torch.is_tensor(a) for a in args)
        plan.prepare = any(not isinstance(a, np.ndarray) for a in args)
        plan.bools = per_call
        plan.views = views
        return plan

    def __repr__(self):
        return f"<stride.jit {self.fn.__qualname__} policy={self.policy}>"


def _overlap_checks(trace, constants, name):
    """What each call checks before it runs a trace that writes arguments:
    memory read after a write of another argument (and any closed-over
    array) must not overlap what was written."""
    checks, seen = [], set()
    for (_, k), (spec, rline) in trace.late_reads.items():
        wspec, _, construct, wline = trace.writes[k]
        key = (spec[0], repr(spec[1]), k)
        if key not in seen:
            seen.add(key)
            checks.append((spec, wspec, _overlap_message(
                name, spec[0], rline, wspec[0], construct, wline)))
    for array in constants:
        for wspec, _, construct, wline in trace.writes:
            checks.append((array, wspec, _overlap_message(
                name, None, "", wspec[0], construct, wline)))
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
                    if type(v) is not np.ndarray:
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


def jit(fn=None, *, policy="torch", threads=None):
    """Decorator: @stride.jit or @stride.jit(policy=..., threads=...)."""
    if fn is None:
        return lambda f: JitFunction(f, policy, threads)
    return JitFunction(fn, policy, threads)


# The entry points the expression layer calls (see _expr.HOOKS).
_expr.HOOKS.current_trace = current
_expr.HOOKS.refuse_conversion = refuse_conversion
_expr.HOOKS.inplace = inplace
_expr.HOOKS.on_view = on_view
_expr.HOOKS.completes_inplace = completes_inplace
_expr.HOOKS.on_read = on_read
_expr.HOOKS.write_out = write_out
