"""Reduce mode: reductions inside elementwise expression trees.

Part of the differential test; see differential.py. The programs are the
default mode's elementwise trees (or, with --large, the large mode's shapes,
layouts and threads) in which

* a subtree is reduced (`stride.sum prod amax amin mean argmax argmin`)
  over one, several or all axes, with `keepdims` (the result broadcasts back
  into the tree, as in `x - max(x, keepdims)`), over leading axes without
  it (the rest broadcasts as a suffix) or over all axes to a 0-d tensor; a
  result of another element type (an integer sum is i64, an arg-reduction
  i64, an integer mean f64) goes through `stride.cast` back to the tree's;
* a `select`'s comparison is sometimes reduced by `stride.any` / `all`;
* the whole tree is sometimes reduced at the end (any axes, no keepdims)
  and the reduced result sometimes goes through one more elementwise op;
* ~25% of the float programs are the softmax pattern `exp(t - amax(t)) /
  sum(exp(t - amax(t)))` or the normalization `(t - mean(t)) / (mean((t -
  mean(t))^2) + 1)` over random trailing or other axes, which
  stride-fuse-rows turns into row loops.

What the generator keeps away from: an empty max, min or arg-reduction
(both libraries refuse it), a float product of inexact values (no simple
error bound), an arg-reduction or any/all of a float that is not computed
exactly (a tie or a zero could flip), a mean under policy torch of an
integer (PyTorch refuses it) or of an empty integer extent (NaN cast back
to an integer).

Oracles: NumPy's reduction for the values (np.sum's pairwise order); the
error bound of a float sum is that of any summation order, the operands'
errors plus (m - 1) u sum|x| for m elements per result (a mean divides it
by m); max and min keep the largest operand error. Strides: torch.sum,
amax, amin, mean, argmax (torch.prod, any and all one dim at a time) and
Tensor.to for policy torch, NumPy's functions and astype for numpy.
"""
from common import *  # noqa: F401,F403
from program import *  # noqa: F401,F403
from layouts import *  # noqa: F401,F403
from generator import *  # noqa: F401,F403
from large import large_target, large_layout, program_elements, \
    MAX_PROGRAM_ELEMENTS


def draw_axes(rng, shape, single=False):
    """Axes to reduce as written (None for all), with some negative."""
    rank = len(shape)
    if rank == 0 or rng.random() < 0.2:
        return None
    if single or rank == 1 or rng.random() < 0.6:
        picked = [rng.randrange(rank)]
    else:
        picked = rng.sample(range(rank), rng.randint(2, rank))
    return [a - rank if rng.random() < 0.3 else a for a in picked]


def has_elements(shape, axes):
    rank = len(shape)
    dims = range(rank) if axes is None else [a % rank for a in axes]
    return all(shape[d] > 0 for d in dims)


class ReduceGen(Gen):
    """Gen whose trees hold reductions (see the module docstring)."""

    reduce_p = 0.3

    def expr(self, budget, exact=False):
        if budget >= 1 and self.rng.random() < self.reduce_p:
            return self.reduced(budget, exact)
        return super().expr(budget, exact)

    def pick(self, x, exact, allowed=None):
        """A reduction for x: its name, axes and keepdims, or None."""
        rng, isint = self.rng, self.dtype.startswith("i")
        names = ["sum", "mean", "prod", "amax", "amin", "argmax", "argmin"]
        if not isint:
            if exact:  # the value must be bit-reproducible
                names = [n for n in names if n not in ("sum", "mean", "prod")]
            if not x.exact:
                names = [n for n in names
                         if n not in ("prod", "argmax", "argmin")]
        elif self.case.policy == "torch" or 0 in x.shape:
            names.remove("mean")
        if allowed is not None:
            names = [n for n in names if n in allowed]
        for _ in range(4):
            name = rng.choice(names)
            r = rng.random()
            if r < 0.6:
                keepdims = True
                axes = draw_axes(rng, x.shape, name in SINGLE_AXIS)
                if axes is None and name in SINGLE_AXIS:
                    keepdims = False
            elif r < 0.8 and len(x.shape) >= 2:
                # Leading axes dropped: the rest broadcasts as a suffix.
                keepdims = False
                lead = 1 if name in SINGLE_AXIS else rng.randint(
                    1, len(x.shape) - 1)
                axes = list(range(lead))
            else:
                keepdims, axes = False, None
            if name in NEEDS_ELEMENTS and not has_elements(x.shape, axes):
                continue
            return name, axes, keepdims
        return None

    def reduced(self, budget, exact):
        x = self.expr(budget - 1, exact)
        if x.scalar:
            return self.op("neg", [x])
        choice = self.pick(x, exact)
        if choice is None:
            return self.op("abs", [x])
        r = self.reduction(choice[0], x, choice[1], choice[2])
        return r if r.dtype == self.dtype else self.cast(r, self.dtype)

    def op(self, name, operands, dtype=None, pred=None):
        if name == "select" and operands[0].op == "cmp" \
                and self.rng.random() < 0.3:
            cond = operands[0]
            axes = draw_axes(self.rng, cond.shape)
            keepdims = axes is not None or self.rng.random() < 0.3
            operands = [self.reduction(self.rng.choice(["any", "all"]),
                                       cond, axes, keepdims)] + operands[1:]
        return super().op(name, operands, dtype, pred)


def softmax_like(g, rng):
    """exp(t - amax(t)) / sum(...) or the normalization, over `axes`."""
    t = g.expr(rng.randint(0, 2))
    if t.scalar or 0 in t.shape or not t.shape:
        return None
    rank = len(t.shape)
    if rng.random() < 0.6:
        axes = [rank - 1 if rng.random() < 0.5 else -1]
    else:
        axes = draw_axes(rng, t.shape)
        if axes is None:
            axes = list(range(rank))
    if rng.random() < 0.5:
        m = g.reduction("amax", t, axes, True)
        e = g.op("exp", [g.op("sub", [t, m])])
        s = g.reduction("sum", e, axes, True)
        return g.op("div", [e, s])
    m = g.reduction("mean", t, axes, True)
    d = g.op("sub", [t, m])
    v = g.reduction("mean", g.op("mul", [d, d]), axes, True)
    one = g.const()
    one.value = 1.0
    return g.op("div", [d, g.op("add", [v, one])])


def gen_reduce(case, rng, nrng, target_fn, layout_fn):
    dtype = rng.choices(["f32", "f64", "i32"], [65, 15, 20])[0]
    g = ReduceGen(case, rng, nrng, dtype)
    g.layout_fn = layout_fn
    g.target = target_fn(rng)
    for i in range(rng.randint(1, 3)):
        shape = compatible_shape(rng, g.target,
                                 full=(i == 0 and rng.random() < 0.7))
        g.tensors.append(g.add_arg(shape))
    g.unused = list(g.tensors)
    rng.shuffle(g.unused)
    root = None
    if dtype != "i32" and rng.random() < 0.25:
        root = softmax_like(g, rng)
        case.kind = "normalization"
    if root is None:
        case.kind = "reduce"
        root = g.expr(rng.randint(1, 5))
        if root.kind != "op":
            root = g.op("neg", [root])
    choice = None
    if not root.scalar and root.shape and rng.random() < 0.4:
        # The whole tree reduced at the end, over any axes.
        choice = g.pick(root, False)
    if choice is not None:
        name, axes, _ = choice
        if rng.random() < 0.5 and name not in SINGLE_AXIS:
            axes = draw_axes(rng, root.shape)
        if has_elements(root.shape, axes) or name not in NEEDS_ELEMENTS:
            root = g.reduction(name, root, axes, False)
            if rng.random() < 0.3:
                # An elementwise op on the reduced result.
                if root.dtype != dtype:
                    root = g.cast(root, dtype)
                other = g.const() if rng.random() < 0.5 else \
                    g.add_arg((), scalar=True)
                root = g.op(rng.choice(["add", "mul", "maximum"]),
                            [root, other])
    if not any(n.op in REDUCTIONS for n in case.ops):
        # Every program of the mode reduces something.
        choice = g.pick(root, False) if not root.scalar else None
        if choice is not None:
            root = g.reduction(choice[0], root, choice[1], choice[2])
        else:
            root = g.reduction("sum", g.op("neg", [root]), None, False)
    finish(case, rng, root)


def generate_reduce(seed, index, large=False):
    """Program `index` of `seed` in the reduce mode (with `large`: the large
    mode's shapes, layouts and 1 or 2 threads, redrawn while the program
    holds more than ~4 M elements)."""
    for attempt in range(10):
        tag = f"{seed}-{index}" + (f"-{attempt}" if attempt else "")
        rng = random.Random(f"stride-reduce{'-large' * large}-{tag}")
        nrng = np.random.default_rng(rng.getrandbits(64))
        case = Case(seed, index)
        case.mode = "reduce" + (" large" if large else "")
        if large:
            case.policy = "torch" if rng.random() < 0.5 else "numpy"
            case.threads = rng.choice([1, 2])
            gen_reduce(case, rng, nrng, large_target, large_layout)
        else:
            case.policy = "torch" if rng.random() < 0.6 else "numpy"
            gen_reduce(case, rng, nrng, default_target, make_layout)
        compose(case, random.Random(f"stride-compose-reduce-{tag}"))
        if not large or program_elements(case) <= MAX_PROGRAM_ELEMENTS:
            break
    return case
