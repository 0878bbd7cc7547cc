"""SSA values, functions and scopes of a generated module.

Every op the generator writes is also a *step*: a Python function that
computes the op's NumPy value from an environment (SSA name -> array). A
step runs as soon as the op is proposed, on the values the enclosing scope
has at that point, so the generator always knows the concrete values it is
choosing operands from; a step raises Untame when the op is not well
defined there, and the op is then not written. Loops, branches and calls
run the steps of their regions again (each iteration, the taken branch,
each call), which re-checks every guard on the values they really see.
"""

from element_types import ScalarType, TensorType
from op_table import Untame


class Val:
    """One SSA value.

    ty: its MLIR type as written; dt, shape: element type and concrete
    shape (() for scalars); exact: computed without rounding (so exact
    comparisons are allowed); terminal: outside the tame range, returned but
    never used as an operand; sim: the policy library's stand-in for it
    (layout_oracle), or None when its strides are not predicted.
    """

    def __init__(self, name, ty, shape, exact=True, sim=None, terminal=False, how="",
                 depth=0):
        self.name, self.ty, self.shape = name, ty, tuple(shape)
        self.exact, self.sim, self.terminal, self.how = exact, sim, terminal, how
        self.depth = depth   # ops on the longest path from the arguments
        self.src = None      # the operand, for a tensor.cast
        # The dims the compiler knows after refinement (None: dynamic), or
        # None for an unranked type.
        self.rdims = tuple(shape)
        # Whose buffer it is: 'op' (made by an op of the module), 'arg' (an
        # entry argument, or a view of one) or 'const' (arith.constant).
        self.origin = "op"
        self.strided_view = False   # an extract_slice with a step > 1, or a cast of one
        # Rounded in f32 somewhere on its way (f64 results of f32 work get
        # f32's tolerance).
        self.lowp = ty.dt == "f32"

    @property
    def root(self):
        """The value under a chain of tensor.casts (what the compiler's
        throughCasts sees at loops, calls and branches)."""
        v = self
        while v.src is not None:
            v = v.src
        return v

    def key(self, sim):
        """The compiler's refined type of this (root) value, as far as
        equality goes: arguments keep their spelled type; other values are
        row-major without an encoding, or carry their strides."""
        from element_types import contiguous_strides
        if self.how == "arg":
            if not self.ty.enc:
                return (self.dt, self.shape, "plain")
            st = tuple(sim.strides(self.sim))
            if st == contiguous_strides(self.shape):
                return None   # an explicit row-major layout: not modelled
            # perm and strides spell one layout attribute for static shapes.
            return (self.dt, self.shape, st)
        if self.sim is None:
            return None
        st = tuple(sim.strides(self.sim))
        if self.rdims is None or None in self.rdims:
            return None     # spelled with perm = [...]; not modelled
        return (self.dt, self.shape, "plain" if st == contiguous_strides(self.shape) else st)

    @property
    def dt(self):
        return self.ty.dt

    @property
    def scalar(self):
        return isinstance(self.ty, ScalarType)

    @property
    def size(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    def __repr__(self):
        return "Val(%s: %s %s)" % (self.name, self.ty.spell(), self.shape)


class Func:
    """A function being generated. The entry may grow new arguments while
    its body is written (an operand of a wanted shape becomes a new
    argument); helpers take only what their callers pass."""

    def __init__(self, name, entry):
        self.name, self.entry = name, entry
        self.params = []        # Val
        self.arg_data = []      # entry only: (values, layout strides) per param
        self.results = []       # (Val returned, declared type)
        self.top = None         # Scope of the body
        self.calls = []         # helpers: operand Vals of each call site

    def header(self):
        params = ", ".join("%s: %s" % (p.name, p.ty.spell()) for p in self.params)
        res = ", ".join(t.spell() for _, t in self.results)
        vis = "" if self.entry else "private "
        if len(self.results) == 1:
            res_text = res
        else:
            res_text = "(%s)" % res
        return "func.func %s@%s(%s) -> %s {" % (vis, self.name, params, res_text)


class Scope:
    """A block being written: its lines, steps, visible values and the
    concrete values of this evaluation."""

    def __init__(self, func, parent=None, depth=0, in_loop=False):
        self.func, self.parent, self.depth = func, parent, depth
        self.in_loop = in_loop or (parent.in_loop if parent else False)
        self.lines, self.steps = [], []
        self.pool = list(parent.pool) if parent else []
        self.env = dict(parent.env) if parent else {}
        self.local = []          # values defined in this block
        self.ivs = []            # induction variables visible here (Val of index)

    def child(self, in_loop=False):
        c = Scope(self.func, self, self.depth + 1, in_loop)
        c.ivs = list(self.ivs)
        return c

    def value(self, v):
        return self.env[v.name]

    def emit(self, lines, step, new_vals, usable=True):
        """Runs `step` (Untame propagates and nothing is written), then
        writes the op."""
        if step is not None:
            step(self.env)
        for v in new_vals:
            got = getattr(self.env.get(v.name), "shape", None)
            if got is not None and tuple(got) != v.shape:
                raise AssertionError("generator bug: %s has shape %s but its value %s (%s)" % (
                    v.name, v.shape, tuple(got), lines))
        if isinstance(lines, str):
            lines = [lines]
        self.lines.extend(lines)
        if step is not None:
            self.steps.append(step)
        for v in new_vals:
            self.local.append(v)
            if usable:
                self.pool.append(v)
        return new_vals

    def add_global(self, v, value):
        """A new entry argument: visible in every enclosing scope."""
        s = self
        while s is not None:
            s.env[v.name] = value
            s.pool.append(v)
            s = s.parent

    def run(self, env):
        for step in self.steps:
            step(env)


def inherit(v, *sources):
    """v was computed from sources: it carries their f32 rounding."""
    v.lowp = v.lowp or any(s.lowp for s in sources)
    return v


def name_results(results):
    """The left-hand side of an op defining `results`, whose names are
    fresh: `%r` for one; `%r:2` for two, renaming them `%r#0` and `%r#1`."""
    base = results[0].name
    if len(results) == 1:
        return base
    for k, r in enumerate(results):
        r.name = "%s#%d" % (base, k)
    return "%s:%d" % (base, len(results))


def indent(lines, n=1):
    pad = "  " * n
    return [pad + l for l in lines]


def tensor_ty(dt, shape, enc=None):
    return TensorType(dt, tuple(shape), enc)


__all__ = ["Val", "Func", "Scope", "Untame", "indent", "inherit", "tensor_ty"]
