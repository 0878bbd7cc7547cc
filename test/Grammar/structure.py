"""Productions for the structure around Stride ops: private helper
functions and their calls, scf.for loops carrying tensors, scf.if on a
scalar argument, a comparison or a constant.

The strides oracle follows docs/composition.md: a loop result has the
layout of the value the loop starts from; an scf.if result has the layout
both branches yield when they agree and otherwise its declared type's
(row-major for a static type without encoding); a helper's parameters take
the types every call site agrees on, else keep the declared ones."""


import numpy as np

from element_types import INTS, ScalarType, TensorType, contiguous_strides
from op_table import Untame
from scope import Func, Scope, Val, indent, inherit, name_results


def same_type(g, a, b):
    """Whether the compiler sees a and b (through casts) with one type."""
    ka, kb = a.root.key(g.sim), b.root.key(g.sim)
    return ka is not None and ka == kb


def own(g, sim, dt):
    return None if sim is None else g.sim.own(sim, dt)


def declared(g, v, unranked_ok=True):
    """A type for v at a boundary: its own, unranked or with dynamic dims."""
    if v.scalar:
        return v.ty
    r = g.rng.random()
    if v.ty.enc and "strides" in v.ty.enc and " 0" in v.ty.enc.replace("[0", "[ 0"):
        # A computed value cannot live in a layout that repeats elements.
        r = max(r, 0.5)
    if r < 0.5 or (not unranked_ok and not v.ty.ranked):
        return v.ty if (v.ty.ranked or unranked_ok) else TensorType(v.dt, v.shape)
    if r < 0.8 and unranked_ok:
        return TensorType(v.dt, None)
    if v.shape and not g.negative(v):
        return TensorType(v.dt, [None if g.rng.random() < 0.6 else n for n in v.shape])
    return TensorType(v.dt, v.shape)


def repeats_elements(g, sim, shape):
    """Stride 0 on a dim whose size is not 1 (an expanded argument)."""
    return sim is not None and 0 not in shape and any(
        s == 0 and n != 1 for n, s in zip(shape, g.sim.strides(sim)))


def carried_sim(g, v):
    """The layout a loop carries for init v: v's own, or the policy's copy
    of it when it repeats elements (docs/composition.md)."""
    sim = v.root.sim
    if not v.scalar and repeats_elements(g, sim, v.shape):
        return g.sim.copy(sim)
    return sim


# ------------------------------------------------------------------ calls

def p_call(g, scope):
    if len(g.helpers) >= 3 or scope.func is not g.entry:
        return None
    rng = g.rng
    k = rng.randint(1, 3)
    operands = []
    for _ in range(k):
        if rng.random() < 0.15:
            operands.append(g.scalar_operand(scope, rng.choice(("f32", "f64", "i32", "i64"))))
        else:
            v = g.operand(scope, g.pick_dtype(scope), scalar_ok=0)
            operands.append(v)
    # A second call site: the same values, values of the same refined type,
    # or (mode 'disagree') other layouts of the same shapes, which leave a
    # static declared parameter type as it is.
    twice = rng.random() < 0.35
    second = list(operands)
    differs = [False] * k
    if twice and rng.random() < 0.5:
        for i, v in enumerate(operands):
            if v.scalar or v.root.sim is None:
                continue
            cands = [w for w in g.usable(scope) if w.dt == v.dt and w.shape == v.shape and
                     not w.scalar and w.root.sim is not None and not same_type(g, w, v)]
            if cands:
                second[i] = rng.choice(cands)
                differs[i] = True
    mode = "disagree" if any(differs) else "agree"
    func = Func("h%d" % len(g.helpers), entry=False)
    top = Scope(func)
    func.top = top
    params = []
    for i, v in enumerate(operands):
        if differs[i]:
            # Call sites disagree: the function is copied per signature
            # (docs/composition.md, "Calls"); the first call's copy is
            # refined for its operands, the second call's strides are not
            # predicted.
            pty = TensorType(v.dt, v.shape)
            psim = own(g, v.root.sim, v.dt)
        elif mode == "disagree" and not v.scalar:
            pty = TensorType(v.dt, v.shape)
            psim = own(g, v.root.sim, v.dt)
        else:
            pty = declared(g, v)
            psim = own(g, v.root.sim, v.dt)
        p = Val("%%p%d_%d" % (len(g.helpers), i), pty, v.shape, exact=v.exact, sim=psim,
                how="param")
        p.rdims = () if v.scalar else v.root.rdims
        p.origin = "param"
        inherit(p, v, second[i])
        params.append(p)
        top.env[p.name] = scope.value(v)
        top.pool.append(p)
    func.params = params
    g.helpers.append(func)
    try:
        # Each tensor parameter is read by a Stride op first, then a random
        # block.
        for p in params:
            if not p.scalar:
                g.read_value(top, p)
        g.block(top, rng.randint(1, 5))
        rets = [v for v in reversed(top.local) if not v.scalar][:rng.choice([1, 1, 2])]
        if not rets:
            raise Untame("helper computes nothing")
        for v in rets:
            dty = declared(g, v)
            rv = v if dty == v.ty else g.cast_to(top, v, dty)
            func.results.append((rv, dty))
        results = emit_call(g, scope, func, operands)
        func.calls = [operands]
    except Untame:
        g.helpers.pop()
        return None
    if twice:
        # The first call is written: the helper stays even if the second
        # call turns out not to be tame on its values.
        try:
            emit_call(g, scope, func, second, predict=(mode == "agree"))
            func.calls.append(second)
        except Untame:
            twice = False
    g.features["call" + (".twice" if twice else "") + ("." + mode if twice else "")] += 1
    return results[0]


def emit_call(g, scope, func, operands, predict=True):
    args = []
    for p, v in zip(func.params, operands):
        args.append(v if v.ty == p.ty else g.cast_to(scope, v, p.ty))
    outs = []
    for rv, dty in func.results:
        # The helper's exactness was decided for its first call's operands;
        # another call's inexact operand (the second call of a helper) makes
        # its results inexact too.
        exact = rv.exact and all(v.exact for v in operands)
        outs.append(Val(g.fresh(), dty, rv.shape, exact=exact, terminal=rv.terminal,
                        sim=own(g, g.returned_sim(rv), rv.dt) if predict else None, how="call",
                        depth=rv.depth + 1 + max([v.depth for v in operands] + [0])))
        outs[-1].rdims = g.returned_rdims(rv)
        outs[-1].origin = rv.origin
        inherit(outs[-1], rv, *operands)
    pnames = [p.name for p in func.params]
    anames = [a.name for a in args]
    rnames = [rv.name for rv, _ in func.results]
    top = func.top

    def step(env):
        local = {p: env[a] for p, a in zip(pnames, anames)}
        top.run(local)
        for o, r in zip(outs, rnames):
            env[o.name] = local[r]
    lhs = name_results(outs)
    res = ", ".join(t.spell() for _, t in func.results)
    text = "%s = func.call @%s(%s) : (%s) -> %s" % (
        lhs, func.name, ", ".join(anames), ", ".join(p.ty.spell() for p in func.params),
        res if len(outs) == 1 else "(%s)" % res)
    scope.emit(text, step, [o for o in outs], usable=True)
    for o in outs:
        if o.terminal and o in scope.pool:
            scope.pool.remove(o)
    return outs


# ------------------------------------------------------------------ loops

def index_const(g, scope, n):
    name = g.fresh("c")
    scope.emit("%s = arith.constant %d : index" % (name, n), None, [])
    return name


def p_for(g, scope):
    if scope.depth >= 2:
        return None
    rng = g.rng
    trips = rng.randint(2, 4)
    step_v = rng.choice([1, 1, 2])
    lb = rng.choice([0, 0, 1])
    ub = lb + trips * step_v - rng.randint(0, step_v - 1)
    lb_n = index_const(g, scope, lb)
    st_n = index_const(g, scope, step_v)
    if scope.func.entry and rng.random() < 0.4:
        dt = rng.choice(INTS)
        n = g.new_scalar_arg(scope, dt, ub)
        ub_n = g.fresh("c")
        scope.emit("%s = arith.index_cast %s : %s to index" % (ub_n, n.name, dt), None, [])
        g.features["scf.for.dynamic_bound"] += 1
    else:
        ub_n = index_const(g, scope, ub)
    inits = [g.operand(scope, g.pick_dtype(scope), scalar_ok=0)
             for _ in range(rng.choice([1, 1, 2]))]
    iter_tys = [declared(g, v) for v in inits]
    init_args = [v if v.ty == t else g.cast_to(scope, v, t) for v, t in zip(inits, iter_tys)]
    body = scope.child(in_loop=True)
    iv = g.fresh("i")
    body.env[iv] = lb
    body.ivs.append(iv)
    xs = []
    for v, t in zip(inits, iter_tys):
        x = Val(g.fresh("x"), t, v.shape, exact=(v.exact and v.dt not in ("f32", "f64")),
                sim=own(g, carried_sim(g, v), v.dt), how="iter_arg")
        x.rdims = v.root.rdims
        x.origin = v.origin
        inherit(x, v)
        x.lowp = x.lowp or v.dt in ("f32", "f64")   # the yields may be rounded in f32
        xs.append(x)
        body.env[x.name] = scope.value(v)
        body.pool.append(x)
    if rng.random() < 0.4:
        iv_scalar(g, body, iv)
    try:
        g.block(body, rng.randint(1, 4))
        yields = []
        for x in xs:
            cands = [v for v in body.local if v.dt == x.dt and v.shape == x.shape and
                     not v.scalar and not v.terminal]
            y = cands[-1] if cands and rng.random() < 0.8 else None
            if y is None:
                y = g.force_update(body, x)
            yields.append(y if y.ty == x.ty else g.cast_to(body, y, x.ty))
    except Untame:
        return None
    results = [Val(g.fresh(), t, v.shape, exact=x.exact and y.exact, sim=own(g, carried_sim(g, v), v.dt),
                   how="scf.for", depth=v.depth + y.depth + 1)
               for v, t, x, y in zip(inits, iter_tys, xs, yields)]
    for r, v, y in zip(results, inits, yields):
        r.rdims = v.root.rdims
        r.origin = y.origin
        inherit(r, v, y)
    xnames = [x.name for x in xs]
    ynames = [y.name for y in yields]
    inames = [v.name for v in init_args]
    steps = body.steps

    def loop_step(env):
        carried = [env[n] for n in inames]
        for i in range(lb, ub, step_v):
            local = dict(env)
            local[iv] = i
            local.update(zip(xnames, carried))
            for s in steps:
                s(local)
            carried = [local[n] for n in ynames]
        for r, c in zip(results, carried):
            env[r.name] = c
    lhs = name_results(results)
    tys = ", ".join(t.spell() for t in iter_tys)
    head = "%s = scf.for %s = %s to %s step %s iter_args(%s) -> (%s) {" % (
        lhs, iv, lb_n, ub_n, st_n,
        ", ".join("%s = %s" % (x, a) for x, a in zip(xnames, inames)), tys)
    lines = [head] + indent(body.lines) + indent(["scf.yield %s : %s" % (", ".join(ynames), tys)]) + ["}"]
    try:
        scope.emit(lines, loop_step, results)
    except Untame:
        return None
    g.features["scf.for"] += 1
    g.features["scf.for.carried%d" % len(results)] += 1
    return results[0]


def iv_scalar(g, body, iv):
    """A scalar operand computed from the induction variable."""
    dt = g.rng.choice(("i64", "i32", "f32", "f64"))
    k = g.fresh("k")
    lines = ["%s = arith.index_cast %s : index to %s" % (k, iv, "i64" if dt.startswith("f") else dt)]
    name = k
    if dt.startswith("f"):
        name = g.fresh("k")
        lines.append("%s = arith.sitofp %s : i64 to %s" % (name, k, dt))
    v = Val(name, ScalarType(dt), (), exact=True, sim=g.sim_scalar(dt), how="iv")
    from element_types import NUMPY

    def step(env):
        env[name] = np.asarray(env[iv]).astype(NUMPY[dt])
    body.emit(lines, step, [v])
    g.features["scf.for.iv_operand"] += 1
    return v


# --------------------------------------------------------------- branches

def condition(g, scope):
    rng = g.rng
    r = rng.random()
    if scope.ivs and r < 0.25:
        iv = rng.choice(scope.ivs)
        k = rng.randint(1, 3)
        c = index_const(g, scope, k)
        name = g.fresh("q")

        def step(env):
            env[name] = np.bool_(env[iv] < k)
        scope.emit("%s = arith.cmpi slt, %s, %s : index" % (name, iv, c), step, [])
        g.features["scf.if.on_iv"] += 1
        return name
    if r < 0.5 and scope.func.entry:
        b = g.new_scalar_arg(scope, "i1", rng.random() < 0.5)
        g.features["scf.if.on_i1_arg"] += 1
        return b.name
    if r < 0.75:
        s = g.scalar_operand(scope, rng.choice(("f32", "i32", "i64", "f64")), prefer_arg=True)
        c = g.const_scalar(scope, s.dt, 0)
        name = g.fresh("q")
        if s.dt.startswith("f"):
            text = "%s = arith.cmpf ogt, %s, %s : %s" % (name, s.name, c.name, s.dt)
        else:
            text = "%s = arith.cmpi sgt, %s, %s : %s" % (name, s.name, c.name, s.dt)
        sn = s.name

        def step(env):
            env[name] = np.bool_(env[sn] > 0)
        scope.emit(text, step, [])
        g.features["scf.if.on_compare"] += 1
        return name
    name = g.fresh("q")
    val = rng.random() < 0.5
    scope.emit("%s = arith.constant %s" % (name, "true" if val else "false"),
               lambda env: env.__setitem__(name, np.bool_(val)), [])
    g.features["scf.if.on_constant"] += 1
    return name


def p_if(g, scope):
    if scope.depth >= 2:
        return None
    rng = g.rng
    cond = condition(g, scope)
    targets = [g.operand(scope, g.pick_dtype(scope), scalar_ok=0)
               for _ in range(rng.choice([1, 1, 2]))]
    branches = []
    try:
        for _ in range(2):
            b = scope.child()
            g.block(b, rng.randint(0, 3))
            ys = []
            for t in targets:
                cands = [v for v in b.pool if v.dt == t.dt and v.shape == t.shape and
                         not v.scalar and not v.terminal]
                if not cands:
                    raise Untame("nothing to yield")
                local = [v for v in cands if v in b.local]
                y = local[-1] if local and rng.random() < 0.7 else rng.choice(cands)
                ys.append(y)
            branches.append((b, ys))
    except Untame:
        return None
    res_tys = []
    sims = []
    for k, t in enumerate(targets):
        y0, y1 = branches[0][1][k], branches[1][1][k]
        agree = same_type(g, y0, y1)
        r = rng.random()
        if r < 0.2 and agree:
            ty = TensorType(t.dt, None)
        elif r < 0.3 and y0.ty == y1.ty and y0.ty.ranked:
            ty = y0.ty
        else:
            ty = TensorType(t.dt, t.shape)
        res_tys.append(ty)
        modelled = (y0.root.key(g.sim) is not None
                    and y1.root.key(g.sim) is not None)
        if agree:
            sims.append(own(g, y0.root.sim, t.dt))
        elif not modelled:
            # Whether the compiler sees the branches agree is not known, so
            # neither is the layout (agreed, or the declared type's).
            sims.append(None)
        elif ty.ranked and not ty.enc and ty.static:
            sims.append(g.sim.contiguous(t.shape, t.dt))
        else:
            sims.append(None)
    yl = []
    for b, ys in branches:
        names = []
        for y, ty in zip(ys, res_tys):
            names.append(y.name if y.ty == ty else g.cast_to(b, y, ty).name)
        yl.append(names)
    results = [Val(g.fresh(), ty, t.shape,
                   exact=branches[0][1][k].exact and branches[1][1][k].exact,
                   terminal=False, sim=s, how="scf.if",
                   depth=1 + max(branches[0][1][k].depth, branches[1][1][k].depth))
               for k, (t, ty, s) in enumerate(zip(targets, res_tys, sims))]
    for k, r in enumerate(results):
        y0, y1 = branches[0][1][k], branches[1][1][k]
        r.rdims = y0.root.rdims if same_type(g, y0, y1) else (r.ty.dims if r.ty.ranked else None)
        r.origin = y0.origin if y0.origin != "op" else y1.origin
        inherit(r, y0, y1)
    bsteps = [b.steps for b, _ in branches]

    def step(env):
        which = 0 if bool(env[cond]) else 1
        local = dict(env)
        for s in bsteps[which]:
            s(local)
        for r, n in zip(results, yl[which]):
            env[r.name] = local[n]
    lhs = name_results(results)
    tys = ", ".join(t.spell() for t in res_tys)
    lines = ["%s = scf.if %s -> (%s) {" % (lhs, cond, tys)]
    lines += indent(branches[0][0].lines) + indent(["scf.yield %s : %s" % (", ".join(yl[0]), tys)])
    lines += ["} else {"]
    lines += indent(branches[1][0].lines) + indent(["scf.yield %s : %s" % (", ".join(yl[1]), tys)])
    lines += ["}"]
    try:
        scope.emit(lines, step, results)
    except Untame:
        return None
    g.features["scf.if"] += 1
    return results[0]
