"""Generator: random programs, and their composition into larger modules.

Part of the differential test; see differential.py."""
from common import *  # noqa: F401,F403
from program import *  # noqa: F401,F403
from layouts import *  # noqa: F401,F403


class Gen:
    def __init__(self, case, rng, nrng, dtype):
        self.case, self.rng, self.nrng, self.dtype = case, rng, nrng, dtype
        self.tensors = []   # tensor arguments of the expression's dtype
        self.unused = []
        self.pool = []      # op results that may be reused
        self.layout_fn = make_layout  # (rng, shape, policy) -> layout

    def add_arg(self, shape, dtype=None, scalar=False):
        dtype = dtype or self.dtype
        c = self.case
        if scalar:
            n = Node(c.fresh("s"), "arg", dtype, (), scalar=True)
            v = self.scalar_value(dtype, nonzero=False)
            n.value = np.asarray(v, dtype=NP_DTYPES[dtype])
            n.strides = []
        else:
            n = Node(c.fresh("a"), "arg", dtype, shape)
            n.strides, n.layout, bdims = self.layout_fn(self.rng, shape, c.policy)
            n.value = random_values(self.nrng, shape, dtype, bdims)
            n.fortran = len(shape) >= 2 and self.rng.random() < 0.2
        c.args.append(n)
        return n

    def scalar_value(self, dtype, nonzero):
        if dtype.startswith("i"):
            choices = [1, 2, 3, -1, -2, -3] + ([] if nonzero else [0])
            return self.rng.choice(choices)
        while True:
            v = self.rng.randrange(-8, 8) / 4.0
            if v != 0.0 or not nonzero:
                return v

    def const(self, dtype=None, nonzero=False):
        dtype = dtype or self.dtype
        n = Node(self.case.fresh("c"), "const", dtype, (), scalar=True,
                 value=self.scalar_value(dtype, nonzero))
        self.case.consts.append(n)
        return n

    def op(self, name, operands, dtype=None, pred=None):
        dtype = dtype or (operands[-1].dtype if name != "cmp" else "i1")
        if name == "cmp":
            dtype = "i1"
        exact = all(o.exact for o in operands) and name not in TRANSCENDENTAL \
            and name != "matmul"
        if name == "matmul":
            shape, k = matmul_shape(operands[0].shape, operands[1].shape)
        else:
            shape = broadcast_shapes(*(o.shape for o in operands))
        n = Node(self.case.fresh("v"), "op", dtype, shape, op=name,
                 operands=operands, pred=pred, exact=exact)
        if name == "matmul":
            n.k = k
        self.case.ops.append(n)
        if name != "cmp":
            self.pool.append(n)
        return n

    def reduction(self, name, x, axes, keepdims):
        """Reduction `name` of x over `axes` (as written: None for all, or
        a list that may hold negative axes)."""
        rank = len(x.shape)
        reduced = tuple(range(rank)) if axes is None else \
            tuple(sorted(a % rank for a in axes))
        if keepdims:
            shape = tuple(1 if d in reduced else s
                          for d, s in enumerate(x.shape))
        else:
            shape = tuple(s for d, s in enumerate(x.shape) if d not in reduced)
        dtype = reduce_dtype(name, x.dtype)
        # A float sum, mean or product is reassociated: not bit-exact.
        exact = x.exact and not (name in ("sum", "prod", "mean")
                                 and x.dtype in UNIT_ROUNDOFF)
        n = Node(self.case.fresh("v"), "op", dtype, shape, op=name,
                 operands=[x], exact=exact)
        n.axes, n.reduced, n.keepdims = axes, reduced, keepdims
        self.case.ops.append(n)
        if dtype == self.dtype:
            self.pool.append(n)
        return n

    def cast(self, x, dtype):
        n = Node(self.case.fresh("v"), "op", dtype, x.shape, op="cast",
                 operands=[x], exact=x.exact)
        self.case.ops.append(n)
        if dtype == self.dtype:
            self.pool.append(n)
        return n

    def leaf(self, exact):
        if self.unused and self.rng.random() < 0.75:
            return self.unused.pop(0)
        r = self.rng.random()
        if r < 0.12:
            return self.const()
        if r < 0.2:
            return self.add_arg((), scalar=True)
        reuse = [p for p in self.pool if p.exact or not exact]
        if reuse and r < 0.3:
            return self.rng.choice(reuse)
        if self.unused:
            return self.unused.pop(0)
        return self.rng.choice(self.tensors)

    def expr(self, budget, exact=False):
        """A value computed by exactly `budget` ops (more for int div guards)."""
        rng, isint = self.rng, self.dtype.startswith("i")
        if budget == 0:
            return self.leaf(exact)
        r = rng.random()
        if budget >= 2 and r < 0.2:
            # select(cond, t, f); cond a cmp (1 op) or an i1 argument.
            if rng.random() < 0.2:
                shape = compatible_shape(rng, self.target)
                cond = self.add_arg(shape, dtype="i1")
                rest = budget - 1
            else:
                rest = budget - 2
                a = rng.randint(0, rest)
                b = rng.randint(0, rest - a)
                lhs = self.expr(a, exact=True)
                rhs = self.expr(b, exact=True)
                cond = self.op("cmp", [lhs, rhs], pred=rng.choice(PREDICATES))
                rest -= a + b
            a = rng.randint(0, rest)
            t = self.expr(a, exact)
            f = self.expr(rest - a, exact)
            return self.op("select", [cond, t, f])
        unary = INT_UNARY if isint else FLOAT_UNARY
        if exact:
            unary = [u for u in unary if u not in TRANSCENDENTAL]
        if r < 0.45:
            x = self.expr(budget - 1, exact)
            return self.op(rng.choice(unary), [x])
        name = rng.choice(BINARY)
        a = rng.randint(0, budget - 1)
        lhs = self.expr(a, exact)
        if name == "div" and isint:
            # Truncating division by zero is undefined: divide by a non-zero
            # constant, or by abs(x) + 1.
            if budget - 1 - a >= 2 and rng.random() < 0.6:
                x = self.expr(budget - 1 - a - 2, exact)
                one = self.const(nonzero=True)
                one.value = abs(one.value)
                rhs = self.op("add", [self.op("abs", [x]), one])
            else:
                rhs = self.const(nonzero=True)
        else:
            rhs = self.expr(budget - 1 - a, exact)
        return self.op(name, [lhs, rhs])


def generate(seed, index):
    rng = random.Random(f"stride-differential-{seed}-{index}")
    nrng = np.random.default_rng(rng.getrandbits(64))
    case = Case(seed, index)
    case.policy = "torch" if rng.random() < 0.7 else "numpy"
    if rng.random() < 0.25:
        gen_matmul(case, rng, nrng)
    else:
        gen_elementwise(case, rng, nrng)
    compose(case, random.Random(f"stride-compose-{seed}-{index}"))
    return case


def compose(case, rng):
    """Puts the program in a larger module without changing what it means:
    in a private function called from @main, or recomputed in a one-trip
    scf.for that carries the results; row-major arguments sometimes arrive
    as a tensor.extract_slice of a larger one and/or through a
    linalg.generic copy."""
    case.wrap = rng.choices(["none", "call", "loop"], [60, 20, 20])[0]
    for a in case.args:
        if a.scalar or a.layout or a.fortran or not a.shape or 0 in a.shape:
            continue
        a.pad = rng.random() < 0.2
        a.copy = rng.random() < 0.15


def default_target(rng):
    return random_shape(rng, rng.choice([0, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4]))


def gen_elementwise(case, rng, nrng, target_fn=default_target,
                    layout_fn=make_layout, ntensors=(1, 3)):
    """An elementwise tree; `target_fn(rng)` draws the result shape,
    `layout_fn` the arguments' layouts (the large mode's are bounded) and
    `ntensors` the range of the number of tensor arguments."""
    dtype = rng.choices(["f32", "f64", "i32"], [70, 15, 15])[0]
    g = Gen(case, rng, nrng, dtype)
    g.layout_fn = layout_fn
    g.target = target_fn(rng)
    for i in range(rng.randint(*ntensors)):
        shape = compatible_shape(rng, g.target, full=(i == 0 and rng.random() < 0.6))
        g.tensors.append(g.add_arg(shape))
    g.unused = list(g.tensors)
    rng.shuffle(g.unused)
    root = g.expr(rng.randint(1, 6))
    if root.kind != "op":  # a leaf (can happen only through a reused value)
        root = g.op("neg", [root])
    finish(case, rng, root)


def default_matmul_sizes(rng):
    """(m, n, k, lhs is 1-D, rhs is 1-D, batch shape)."""
    size = lambda: rng.choice([0] + [1, 2, 3, 4, 5] * 6 + [rng.randint(6, 24)])
    m, n, k = size(), size(), size()
    lvec, rvec = rng.random() < 0.2, rng.random() < 0.2
    batch = random_shape(rng, rng.choice([0, 0, 1, 2, 2]))
    return m, n, k, lvec, rvec, batch


def gen_matmul(case, rng, nrng, sizes_fn=default_matmul_sizes,
               layout_fn=make_layout):
    case.kind = "matmul"
    g = Gen(case, rng, nrng, "f32")
    g.layout_fn = layout_fn
    m, n, k, lvec, rvec, batch = sizes_fn(rng)

    def side(vec, mat):
        if vec:
            return (k,)
        return (compatible_shape(rng, batch) if batch else ()) + mat

    def other(shape, tensor_ok=True):
        """A second operand for x of `shape`: scalar or a compatible tensor."""
        r = rng.random()
        if r < 0.3:
            return g.const()
        if r < 0.5 or not tensor_ok:
            return g.add_arg((), scalar=True)
        return g.add_arg(compatible_shape(rng, shape))

    def wrap(x):
        """One elementwise op on x that keeps x's shape (x in any position)."""
        if rng.random() < 0.4:
            return g.op(rng.choice(FLOAT_UNARY), [x])
        y = other(x.shape)
        pair = [x, y] if rng.random() < 0.6 else [y, x]
        return g.op(rng.choice(BINARY), pair)

    lshape, rshape = side(lvec, (m, k)), side(rvec, (k, n))
    lhs = g.add_arg(lshape)
    if rng.random() < 0.3:
        lhs = wrap(lhs)
    rhs = g.add_arg(rshape)
    if rng.random() < 0.2:
        rhs = wrap(rhs)
    prod = root = g.op("matmul", [lhs, rhs])
    if rng.random() < 0.6:
        for _ in range(rng.randint(1, 2)):
            root = wrap(root)
    finish(case, rng, root)


def finish(case, rng, root):
    used = {o.name for n in case.ops for o in n.operands}
    case.args = [a for a in case.args if a.name in used]
    case.consts = [c for c in case.consts if c.name in used]
    case.results = [root]
    others = [n for n in case.ops if n is not root]
    if others and rng.random() < 0.2:
        case.results.append(rng.choice(others))
