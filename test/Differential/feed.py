"""Feed mode: loop and call results that later Stride ops consume.

Part of the differential test; see differential.py. A feed program computes,
in @main:

1. sometimes a few elementwise ops (values later stages may use);
2. one or two stages, each an `scf.for` or a `func.call`:
   * an `scf.for` of 2-4 trips (bounds and step vary) carrying one or two
     tensors: the initial value is an argument (row-major, permuted, sliced,
     negative strides under numpy) or an op result, and each iter_arg is
     declared `tensor<*xT>`, as the static unencoded `tensor<SxT>` or as
     the argument's own (encoded) type, with the `tensor.cast`s that makes
     necessary. The body yields `c * x + g(...)` (|c| < 1) or a squashed
     `tanh/sigmoid/clamp(g(x, ...))`, where g is an elementwise tree of the
     carried values, arguments, earlier values and constants, or
     `tanh(x @ W + ...)` for f32; sometimes it calls a private function;
   * a call of a private function (parameters declared as the operand's
     type, `tensor<*xT>` or static unencoded) computing an elementwise tree
     or a matmul of its parameters (1-2 results); sometimes the function
     holds a loop itself;
3. elementwise ops, and for f32 sometimes a matmul, that consume every
   loop and call result, and return the last (sometimes a loop or call
   result too).

The oracles evaluate the same structure: the loop trips times, each
iteration's values copied into the layout of the loop's initial value
(what the compiler does: docs/composition.md, "Control flow"), the call as
its function's ops on the operands.
"""
from contextlib import contextmanager

from common import *  # noqa: F401,F403
from program import *  # noqa: F401,F403
from layouts import *  # noqa: F401,F403
from generator import *  # noqa: F401,F403
from large import large_target, large_layout, edge_size, prod, \
    program_elements, MAX_PROGRAM_ELEMENTS


def broadcasts_to(shape, target):
    return len(shape) <= len(target) and all(
        a == 1 or a == b for a, b in zip(shape[::-1], target[::-1]))


def dense_layout(rng, shape, policy):
    """An initial value's layout for a loop: row-major, permuted, sliced or
    (numpy) reversed; never stride 0, which a carried value cannot keep."""
    rank = len(shape)
    perm = list(range(rank))
    kind = rng.choice(["contiguous", "permuted", "permuted", "sliced"])
    if kind != "contiguous":
        rng.shuffle(perm)
    strides, running = [0] * rank, 1
    for d in reversed(perm):
        step = rng.choice([1, 2]) if kind == "sliced" else 1
        pad = rng.choice([0, 1, 3]) if kind == "sliced" else 0
        strides[d] = running * step
        running = running * (max(shape[d], 1) * step) + pad * running
    if policy == "numpy" and rng.random() < 0.4:
        strides = [-s if rng.random() < 0.6 else s for s in strides]
    if strides == contiguous_strides(shape) and rng.random() < 0.7:
        return strides, None, []
    if kind == "permuted" and all(s > 0 for s in strides) and rng.random() < 0.4:
        return strides, f"#stride.layout<perm = [{', '.join(map(str, perm))}]>", []
    return strides, f"#stride.layout<strides = [{', '.join(map(str, strides))}]>", []


def uses(node, target, seen=None):
    """Whether `node` is computed from `target` (within one region)."""
    if node is target:
        return True
    seen = set() if seen is None else seen
    if id(node) in seen:
        return False
    seen.add(id(node))
    return any(uses(o, target, seen) for o in node.operands
               if node.op not in ("proj", "for", "call"))


class FeedGen(Gen):
    """A Gen for one region: its leaves broadcast to `target`, have the
    expression's dtype, and are visible in the region (`tensors`, `pool`);
    in a callee (`call` set) a new argument becomes a parameter whose
    operand is a new argument of the caller (`parent`)."""

    def __init__(self, case, rng, nrng, dtype, target, parent=None, call=None):
        super().__init__(case, rng, nrng, dtype)
        self.target, self.parent, self.call = tuple(target), parent, call
        self.depth = parent.depth + 1 if parent else 0
        if parent is not None:
            self.layout_fn = parent.layout_fn
            self.large = parent.large
        else:
            self.large = False

    def ok(self, n, exact):
        return (n.dtype == self.dtype and broadcasts_to(n.shape, self.target)
                and (n.exact or not exact))

    def add_arg(self, shape, dtype=None, scalar=False, layout_fn=None):
        """A new argument of @main, visible here: in a callee a parameter
        (its operand made by the caller), in a loop body @main's."""
        if self.call is not None:
            actual = self.parent.add_arg(shape, dtype, scalar, layout_fn)
            return self.param(actual, actual.mlir_type())
        if self.parent is not None:
            return self.parent.add_arg(shape, dtype, scalar, layout_fn)
        saved = self.layout_fn
        self.layout_fn = layout_fn or saved
        try:
            return super().add_arg(shape, dtype, scalar)
        finally:
            self.layout_fn = saved

    def param(self, actual, decl):
        """A parameter of the callee for operand `actual`."""
        p = Node(self.case.fresh("p"), "param", actual.dtype, actual.shape,
                 scalar=actual.scalar, exact=actual.exact)
        p.decl = decl
        self.call.operands.append(actual)
        self.call.params.append(p)
        return p

    def leaf(self, exact):
        rng = self.rng
        unused = [u for u in self.unused if self.ok(u, exact)]
        if unused and rng.random() < 0.75:
            self.unused.remove(unused[0])
            return unused[0]
        r = rng.random()
        if r < 0.12:
            return self.const()
        if r < 0.2:
            return self.add_arg((), scalar=True)
        reuse = [p for p in self.pool if self.ok(p, exact)]
        if reuse and r < 0.3:
            return rng.choice(reuse)
        if unused:
            self.unused.remove(unused[0])
            return unused[0]
        tensors = [t for t in self.tensors if self.ok(t, exact)]
        if tensors:
            return rng.choice(tensors)
        if rng.random() < 0.5:
            return self.const()
        return self.add_arg(compatible_shape(rng, self.target))

    def combine(self, root, x):
        """root op x for a value x that root does not use yet."""
        name = self.rng.choice(["add", "sub", "mul", "maximum"])
        pair = [root, x] if self.rng.random() < 0.5 else [x, root]
        return self.op(name, pair)

    def tree(self, budget, must=()):
        """An op computing from every value of `must` (forced leaves)."""
        self.unused = list(must) + [u for u in self.unused if u not in must]
        root = self.expr(budget)
        for x in must:
            if not uses(root, x):
                root = self.combine(root, x)
        if root.kind != "op":
            root = self.op("neg" if self.dtype != "i1" else "abs", [root])
        return root


@contextmanager
def region(case, ops, consts=None):
    """New ops (and, in a callee, constants) of `case` go to these lists."""
    saved = case.ops, case.consts
    case.ops = ops
    if consts is not None:
        case.consts = consts
    try:
        yield
    finally:
        case.ops, case.consts = saved


def proj_nodes(case, owner, specs):
    """The results of a loop or call: (dtype, shape, decl, exact) each."""
    outs = []
    for i, (dtype, shape, decl, exact) in enumerate(specs):
        name = owner.name + (f"#{i}" if len(specs) > 1 else "")
        o = Node(name, "op", dtype, shape, op="proj", operands=[owner],
                 exact=exact)
        o.decl = decl
        outs.append(o)
    return outs


def tensor_text(shape, dtype, layout=None):
    body = "x".join(map(str, shape))
    body = f"{body}x{dtype}" if shape else dtype
    return f"tensor<{body}, {layout}>" if layout else f"tensor<{body}>"


def squash(g, r):
    """A bounded function of r: tanh or sigmoid for floats, else a clamp."""
    rng = g.rng
    if g.dtype in ("f32", "f64") and rng.random() < 0.7:
        return g.op(rng.choice(["tanh", "tanh", "sigmoid"]), [r])
    lo, hi = g.const(), g.const()
    lo.value = -4 if g.dtype == "i32" else -1.5
    hi.value = 4 if g.dtype == "i32" else 1.5
    first = g.op("maximum", [r, lo])
    return g.op("minimum", [first, hi])


def initial_value(g, shape):
    """The value a loop-carried tensor of `shape` starts from: a new
    argument in a dense layout, an existing value of that shape or an op."""
    rng = g.rng
    def dense(p):  # no stride 0 (a broadcast argument)
        return p.kind == "op" or (p.kind == "arg" and not any(
            st == 0 and n > 1 for st, n in zip(p.strides, p.shape)))
    have = [p for p in g.pool + g.tensors if p.dtype == g.dtype
            and p.shape == shape and not p.scalar and dense(p)]
    r = rng.random()
    if have and r < 0.3:
        return rng.choice(have)
    if r < 0.75:
        a = g.add_arg(shape, layout_fn=dense_layout)
        if r < 0.6:
            return a
        return g.op(rng.choice(["neg", "abs"] if g.dtype == "i32"
                               else ["neg", "exp", "tanh", "abs"]), [a])
    full = g.add_arg(shape)
    saved = g.target
    g.target = tuple(shape)
    try:
        return g.tree(rng.randint(1, 2), must=[full])
    finally:
        g.target = saved


def make_loop(g, shapes):
    """An scf.for in g's region carrying tensors of `shapes`; returns its
    result Nodes."""
    case, rng = g.case, g.rng
    loop = Node(case.fresh("l"), "op", g.dtype, (), op="for")
    inits = [initial_value(g, s) for s in shapes]
    for x0, shape in zip(inits, shapes):
        kind = rng.choice(["unranked", "static", "same"])
        if kind == "unranked":
            decl = f"tensor<*x{g.dtype}>"
        elif kind == "static":
            decl = tensor_text(shape, g.dtype)
        else:
            decl = x0.mlir_type()
        p = Node(case.fresh("x"), "param", g.dtype, shape,
                 exact=not g.dtype.startswith("f"))
        p.decl = decl
        loop.iters.append(p)
    loop.operands = inits
    loop.trips = rng.randint(2, 4)
    lo, step = rng.choice([(0, 1), (0, 1), (1, 2), (3, 3), (-2, 1)])
    hi = lo + step * (loop.trips - 1) + 1 + rng.randrange(step)
    loop.bounds = (lo, hi, step)
    with region(case, loop.body):
        for i, p in enumerate(loop.iters):
            # New arguments of the body: @main's, or in a callee its own.
            b = FeedGen(case, rng, g.nrng, g.dtype, p.shape, parent=g)
            b.tensors = [t for t in g.tensors + loop.iters if t is not p]
            b.pool = list(g.pool)
            others = [q for q in loop.iters if q is not p
                      and broadcasts_to(q.shape, p.shape)]
            style = rng.random()
            if (g.dtype == "f32" and len(p.shape) >= 2 and style < 0.25
                    and p.shape[-1] <= 300
                    and prod(p.shape) * p.shape[-1] <= 8_000_000):
                # x = tanh(x @ W + ...): W square, so the shape is kept.
                n = p.shape[-1]
                w = b.add_arg((n, n))
                root = b.op("matmul", [p, w])
                if rng.random() < 0.7:
                    root = b.combine(root, b.tree(rng.randint(0, 2), others)
                                     if others else b.leaf(False))
                root = squash(b, root)
            elif style < 0.6 and g.dtype != "i32":
                c = b.const()
                c.value = rng.choice([0.5, -0.5, 0.25, 0.75, -0.75])
                scaled = b.op("mul", [c, p] if rng.random() < 0.5 else [p, c])
                if depth_ok(b) and rng.random() < 0.2:
                    rest = make_call(b, [p] + others, result_shape=p.shape)[0]
                else:
                    rest = b.tree(rng.randint(1, 4), others)
                root = b.op(rng.choice(["add", "sub"]), [scaled, rest])
            else:
                if depth_ok(b) and rng.random() < 0.2:
                    inner = make_call(b, [p] + others, result_shape=p.shape)[0]
                    root = squash(b, b.combine(inner, p) if not
                                  rng.random() < 0.5 else inner)
                else:
                    root = squash(b, b.tree(rng.randint(1, 5), [p] + others))
            if root.shape != p.shape:
                root = b.combine(root, p)
            loop.yields.append(root)
    loop.outs = proj_nodes(case, loop, [
        (p.dtype, p.shape, p.decl, p.exact) for p in loop.iters])
    g.case.ops.append(loop)
    g.case.ops.extend(loop.outs)
    g.pool.extend(loop.outs)
    return loop.outs


def depth_ok(g):
    return g.depth < 2


def make_call(g, operands, result_shape=None, matmul=None):
    """A call of a new private function of `operands` (and of new arguments
    it asks for); returns its result Nodes. With `matmul` = (lhs, rhs) the
    function computes their product (and maybe an op around it)."""
    case, rng = g.case, g.rng
    call = Node(case.fresh("f"), "op", g.dtype, (), op="call")
    call.callee = "@fn" + call.name[2:]
    target = result_shape or broadcast_shapes(*(o.shape for o in operands))
    c = FeedGen(case, rng, g.nrng, g.dtype, target, parent=g, call=call)
    params = []
    for o in (matmul or operands):
        kind = rng.choice(["same", "same", "unranked", "static"])
        if o.scalar or kind == "same":
            decl = o.mlir_type()
        elif kind == "unranked":
            decl = f"tensor<*x{o.dtype}>"
        else:
            decl = tensor_text(o.shape, o.dtype)
        params.append(c.param(o, decl))
    with region(case, call.body, call.local):
        if matmul:
            root = c.op("matmul", params)
            c.target = root.shape
            if rng.random() < 0.5:
                root = c.combine(root, c.leaf(False))
            yields = [root]
        else:
            c.tensors = list(params)
            if depth_ok(c) and rng.random() < 0.25 and target:
                # A loop inside the callee, its result returned.
                shape = tuple(target)
                x = make_loop(c, [shape])[0]
                root = c.tree(rng.randint(0, 2), [x])
            else:
                root = c.tree(rng.randint(1, 5), params[:3])
            if root.shape != tuple(target):
                full = [p for p in params if p.shape == tuple(target)]
                if full:
                    root = c.combine(root, full[0])
            yields = [root]
            others = [n for n in call.body if n is not root and n.op not in
                      ("cmp", "proj", "for", "call")]
            if others and rng.random() < 0.3:
                yields.append(rng.choice(others))
    call.yields = yields
    call.outs = proj_nodes(case, call, [
        (y.dtype, y.shape, y.mlir_type(), y.exact) for y in yields])
    g.case.ops.append(call)
    g.case.ops.extend(call.outs)
    g.pool.extend(call.outs)
    return call.outs


def small_target(rng):
    return random_shape(rng, rng.choice([1, 1, 2, 2, 2, 3, 3, 4]))


def gen_feed(case, rng, nrng, large):
    dtype = rng.choices(["f32", "f64", "i32"], [70, 15, 15])[0]
    target = large_target(rng) if large else small_target(rng)
    if not target:
        target = (rng.randint(1, 5),)
    g = FeedGen(case, rng, nrng, dtype, target)
    g.large = large
    if large:
        g.layout_fn = large_layout
    for i in range(rng.randint(1, 3)):
        shape = compatible_shape(rng, target, full=(i == 0))
        g.tensors.append(g.add_arg(shape))
    if rng.random() < 0.4:
        g.tree(rng.randint(1, 2), [g.tensors[0]])
    feeds = []
    matmul_ok = dtype == "f32" and len(target) >= 2
    for _ in range(rng.choice([1, 1, 2])):
        r = rng.random()
        if r < 0.5:
            k = 1 if rng.random() < 0.7 else 2
            shapes = [target] + [compatible_shape(rng, target, full=True)
                                 if rng.random() < 0.7 else
                                 tuple(target[1:]) or target
                                 for _ in range(k - 1)]
            feeds += make_loop(g, shapes)
        elif matmul_ok and r < 0.7:
            # A callee's product of (..., m, k) and (k, n) of the target's m, n.
            m, n = target[-2], target[-1]
            kk = edge_size(rng, 130 if large else 9)
            kk = max(1, min(kk, 60_000_000 // max(1, prod(target))))
            lhs = g.add_arg(tuple(target[:-2]) + (m, kk))
            rhs = g.add_arg((kk, n))
            feeds += make_call(g, [], matmul=(lhs, rhs))
        else:
            ops = [feeds[-1]] if feeds else []
            pick = [t for t in g.tensors + g.pool if t not in ops
                    and t.dtype == dtype]
            ops += rng.sample(pick, min(len(pick), rng.randint(1, 2)))
            feeds += make_call(g, ops)
    usable = [f for f in feeds if broadcasts_to(f.shape, target)]
    root = g.tree(rng.randint(1, 3), usable)
    if matmul_ok and root.shape and rng.random() < 0.35:
        # A product of a loop or call result: target @ V, then maybe an op.
        p = edge_size(rng, 130 if large else 9)
        p = max(1, min(p, 60_000_000 // max(1, prod(root.shape))))
        if len(root.shape) >= 2 and rng.random() < 0.3:
            u = g.add_arg((p, root.shape[-2]))
            root = g.op("matmul", [u, root])
        else:
            v = g.add_arg((root.shape[-1], p))
            root = g.op("matmul", [root, v])
        if rng.random() < 0.6:
            g.target = root.shape
            root = g.combine(root, g.leaf(False))
    case.results = [root]
    if feeds and rng.random() < 0.25:
        case.results.append(rng.choice(feeds))
    prune(case)


def prune(case):
    """Drops arguments and constants nothing uses."""
    used = {o.name for n in case.structured() for o in n.operands}
    used |= {y.name for n in case.structured() for y in n.yields}
    used |= {r.name for r in case.results}
    case.args = [a for a in case.args if a.name in used]
    case.consts = [c for c in case.consts if c.name in used]
    for n in case.structured():
        if n.op == "call":
            n.local = [c for c in n.local if c.name in used]


def generate_feed(seed, index, large=False):
    """Program `index` of `seed` in the feed mode (large shapes with
    `large`), redrawn while it holds more than ~4 M elements."""
    mode = "feed-large" if large else "feed"
    for attempt in range(10):
        tag = f"{seed}-{index}" + (f"-{attempt}" if attempt else "")
        rng = random.Random(f"stride-{mode}-{tag}")
        nrng = np.random.default_rng(rng.getrandbits(64))
        case = Case(seed, index)
        case.mode, case.kind = mode, "feed"
        case.policy = "torch" if rng.random() < 0.6 else "numpy"
        case.threads = rng.choice([1, 2])
        gen_feed(case, rng, nrng, large)
        crng = random.Random(f"stride-compose-{mode}-{tag}")
        for a in case.args:
            if a.scalar or a.layout or a.fortran or not a.shape or 0 in a.shape:
                continue
            a.pad = crng.random() < 0.15
            a.copy = crng.random() < 0.1
        if program_elements(case) <= MAX_PROGRAM_ELEMENTS:
            break
    return case
