"""Productions for Stride's ops: every named elementwise op of StrideOps.td
(cmp with each predicate, select, cast between element types),
stride.broadcast with a body (and its copy form, and destinations), and
stride.matmul in its 1-D, 2-D and broadcast-batch forms."""

import numpy as np

from element_types import (ALL, FLOATS, INTS, NUMPY, ScalarType, TensorType,
                           is_float, is_int)
from op_table import (BOOL_ARITH, CMP_PREDICATES, OPS, Untame, apply,
                      check_result)
from scope import Val, indent, inherit, name_results


def out_dtype(opdef, dt, to):
    return {"cmp": "i1", "predicate": "i1", "cast": to}.get(opdef.kind, dt)


def named_sim(g, opdef, operands, out_dt, to):
    sims = [v.sim for v in operands]
    if any(s is None for s in sims):
        return None
    sim, kind = g.sim, opdef.kind
    if kind == "cast":
        return sim.cast(sims[0], to)
    if kind in ("unary", "predicate"):
        return sim.elementwise("unary", sims, "i1" if kind == "predicate" else None)
    if kind in ("binary", "cmp"):
        return sim.elementwise("binary", sims, "i1" if kind == "cmp" else None)
    return sim.elementwise(kind, sims)


def infer_rdims(operands, ty, shape):
    """The dims stride-infer-shapes gives an elementwise result: static
    where some operand has a static size other than 1, or all are static;
    the declared type's static dims stay."""
    n = len(shape)
    out = []
    for d in range(n):
        sizes = []
        for o in operands:
            rd = () if o.scalar else o.rdims
            if rd is None:
                return ty.dims if ty.ranked else None
            k = d - (n - len(rd))
            if k >= 0:
                sizes.append(rd[k])
        static = [s for s in sizes if s is not None and s != 1]
        if static:
            out.append(static[0])
        elif any(s is None for s in sizes):
            out.append(None)
        else:
            out.append(1)
    if ty.ranked:
        out = [t if t is not None else o for t, o in zip(ty.dims, out)]
    return tuple(out)


def emit_named(g, scope, name, operands, dt, pred=None, to=None, res_ty=None):
    """Writes `stride.<name>` of `operands` (element type dt); returns the
    result Val or raises Untame."""
    opdef = OPS[name]
    shape = np.broadcast_shapes(*[v.shape for v in operands])
    if int(np.prod(shape)) > g.max_size:
        raise Untame("too large")
    o_dt = out_dtype(opdef, dt, to)
    exact_in = [v.exact for v in operands]
    r, ex, tame = apply(opdef, dt, [scope.value(v) for v in operands], exact_in, pred, to)
    ty = res_ty or g.result_ty(o_dt, shape)
    v = Val(g.fresh(), ty, shape, exact=ex, terminal=not tame,
            sim=named_sim(g, opdef, operands, o_dt, to), how=name,
            depth=1 + max(o.depth for o in operands))
    v.rdims = infer_rdims(operands, ty, shape)
    inherit(v, *operands)
    names = [o.name for o in operands]

    def step(env):
        r2, ex2, tame2 = apply(opdef, dt, [env[n] for n in names], exact_in, pred, to)
        if (ex and not ex2) or (tame and not tame2):
            raise Untame("changed exactness")
        env[v.name] = r2
    head = "stride.%s %s" % (name, pred + ", " if pred else "")
    text = "%s = %s%s : %s -> %s" % (
        v.name, head, ", ".join(names),
        ", ".join(o.ty.spell() for o in operands), ty.spell())
    scope.emit(text, step, [v], usable=not v.terminal)
    g.features["stride." + name + ("." + pred if pred else "")] += 1
    g.features["dtype." + o_dt] += 1
    return v


def choose_named(g):
    names = [n for n in OPS]
    return g.rng.choice(names)


def allowed_dtypes(g, opdef):
    dts = list(opdef.dtypes)
    return dts


def p_named(g, scope, name=None):
    name = name or choose_named(g)
    opdef = OPS[name]
    dts = allowed_dtypes(g, opdef)
    if not dts:
        return None
    dt = g.pick_dtype(scope, dts)
    rng = g.rng
    if opdef.kind in ("unary", "predicate", "cast"):
        kind = "positive" if name in POSITIVE else None
        x = g.operand(scope, dt, kind=kind, scalar_ok=0.1)
        to = rng.choice([d for d in ALL if d != dt] + [dt]) if opdef.kind == "cast" else None
        return emit_named(g, scope, name, [x], dt, to=to)
    if opdef.kind in ("binary", "cmp"):
        pred = rng.choice(list(CMP_PREDICATES)) if opdef.kind == "cmp" else None
        first = g.operand(scope, dt, scalar_ok=0.1)
        kind = "nonzero" if name in ("div",) else None
        second = g.partner(scope, dt, first, kind=kind)
        ops = [first, second]
        if rng.random() < 0.3:
            ops.reverse()
        return emit_named(g, scope, name, ops, dt, pred=pred)
    if opdef.kind == "select":
        first = g.operand(scope, dt, scalar_ok=0.05)
        cond = g.partner(scope, "i1", first)
        other = g.partner(scope, dt, first, others=[cond])
        return emit_named(g, scope, name, [cond, first, other], dt)
    if opdef.kind == "clip":
        x = g.operand(scope, dt, scalar_ok=0.05)
        lo = g.partner(scope, dt, x)
        hi = g.partner(scope, dt, x, others=[lo])
        return emit_named(g, scope, name, [x, lo, hi], dt)
    raise AssertionError(name)


POSITIVE = ("log", "sqrt", "log2", "log10", "arccosh", "log1p")

# Ops that read any value of an element type (read_value).
UNARY_FOR = {
    "f32": ["neg", "abs", "tanh", "sin", "add", "mul", "maximum", "isfinite"],
    "f64": ["neg", "abs", "arctan", "cos", "sub", "mul", "minimum", "isnan"],
    "i32": ["neg", "abs", "add", "maximum", "bitwise_xor", "sign"],
    "i64": ["neg", "abs", "sub", "minimum", "bitwise_and", "square"],
    "i8": ["neg", "abs", "sub", "maximum", "bitwise_or", "sign"],
    "i16": ["neg", "abs", "add", "minimum", "bitwise_xor", "square"],
    "i1": ["logical_not", "bitwise_or", "logical_xor", "abs"],
}


# ---------------------------------------------------------------- broadcast

def body_ops(dt):
    """(named op, arity) usable as one scalar op of a body on dt."""
    out = []
    for n, d in OPS.items():
        if d.scalar and dt in d.dtypes and d.scalar(dt):
            if n in BOOL_ARITH and dt == "i1":
                continue
            out.append((n, d.arity))
    return out


def p_broadcast(g, scope):
    rng = g.rng
    n_in = rng.choice([1, 1, 2, 2, 3])
    dt0 = g.pick_dtype(scope)
    first = g.operand(scope, dt0, scalar_ok=0.05)
    ins = [first]
    for _ in range(n_in - 1):
        ins.append(g.partner(scope, g.pick_dtype(scope), first, others=ins[1:]))
    if rng.random() < 0.3:
        rng.shuffle(ins)
    shape = np.broadcast_shapes(*[v.shape for v in ins])
    if int(np.prod(shape)) > g.max_size:
        return None
    copy = n_in == 1 and rng.random() < 0.3
    args = [g.fresh("b") for _ in ins]
    # avail: (ssa name, dt, value, exact); body[i] computes one scalar.
    avail = [(a, v.dt, None, v.exact) for a, v in zip(args, ins)]
    body = []   # (text, fn(values)->value, out index)
    values0 = [np.broadcast_to(scope.value(v), shape) for v in ins]

    def evaluate(vals):
        vals = list(vals)
        for text, fn in body:
            vals.append(fn(vals))
        return vals

    cur = list(values0)
    if not copy:
        for _ in range(rng.randint(1, 4)):
            made = body_step(g, avail, cur, body)
            if made is None:
                continue
            cur.append(made)
    if not copy and len(avail) == len(ins):
        return None
    n_res = 1 if copy else rng.choice([1, 1, 2])
    if copy:
        picks = [0]
    else:
        picks = sorted(set([len(avail) - 1] + [rng.choice(range(len(ins), len(avail)))
                                               for _ in range(n_res - 1)]))
    res_dts = [avail[i][1] for i in picks]
    exact = all(avail[i][3] for i in picks)
    dest = rng.random() < 0.25 and len(shape) > 0 and all(d > 0 for d in shape)
    out_tys = [TensorType(d, shape) if dest else g.result_ty(d, shape) for d in res_dts]
    tame = all(check_result(d, cur[i]) for d, i in zip(res_dts, picks))
    if dest:
        sims = [g.sim.contiguous(shape, d) for d in res_dts]
    elif any(v.sim is None for v in ins):
        sims = [None] * len(picks)
    elif copy:
        sims = [g.sim.copy(ins[0].sim)]
    else:
        sims = [g.sim.elementwise("nary", [v.sim for v in ins], d) for d in res_dts]
    results = [Val(g.fresh(), t, shape, exact=exact, terminal=not tame, sim=s,
                   how="broadcast", depth=1 + max(v.depth for v in ins))
               for t, s in zip(out_tys, sims)]
    body_f32 = any(": f32" in text or "to f32" in text for text, _ in body)
    for r in results:
        r.rdims = r.ty.dims if dest else infer_rdims(ins, r.ty, shape)
        inherit(r, *ins)
        r.lowp = r.lowp or body_f32
    names = [v.name for v in ins]

    def step(env):
        vals = evaluate([np.broadcast_to(np.asarray(env[n]), shape) for n in names])
        for r, i, d in zip(results, picks, res_dts):
            if not r.terminal and not check_result(d, vals[i]):
                raise Untame("untame body")
            env[r.name] = np.array(vals[i], dtype=NUMPY[d])
    lines = []
    dests = []
    if dest:
        for t in out_tys:
            e = g.fresh("e")
            lines.append("%s = tensor.empty() : %s" % (e, t.spell()))
            dests.append(e)
    lhs = name_results(results)
    head = "%s = stride.broadcast ins(%s : %s)" % (
        lhs, ", ".join(names), ", ".join(v.ty.spell() for v in ins))
    if dest:
        head += " outs(%s : %s)" % (", ".join(dests), ", ".join(t.spell() for t in out_tys))
    head += " -> %s {" % ", ".join(t.spell() for t in out_tys)
    inner = ["^bb0(%s):" % ", ".join("%s: %s" % (a, v.dt) for a, v in zip(args, ins))]
    inner += ["  " + text for text, _ in body]
    inner.append("  stride.yield %s : %s" % (", ".join(avail[i][0] for i in picks),
                                             ", ".join(res_dts)))
    lines += [head] + indent(inner) + ["}"]
    scope.emit(lines, step, results, usable=tame)
    g.features["stride.broadcast" + (".copy" if copy else "") + (".outs" if dest else "")] += 1
    return results[0]


def body_step(g, avail, cur, body):
    """Appends one scalar op over the available block values."""
    rng = g.rng
    choice = rng.random()
    by_dt = {}
    for i, (_, dt, _, _) in enumerate(avail):
        by_dt.setdefault(dt, []).append(i)
    dt = rng.choice(list(by_dt))
    idx = by_dt[dt]
    name = g.fresh("s")
    if choice < 0.12 and is_int(dt):
        to = rng.choice(FLOATS)
        i = rng.choice(idx)
        text = "%s = arith.sitofp %s : %s to %s" % (name, avail[i][0], dt, to)
        fn = lambda vals, i=i, to=to: np.asarray(vals[i]).astype(NUMPY[to])
        exact = True
        out_dt = to
    elif choice < 0.2 and is_float(dt):
        to = "f64" if dt == "f32" else "f32"
        i = rng.choice(idx)
        op = "extf" if to == "f64" else "truncf"
        text = "%s = arith.%s %s : %s to %s" % (name, op, avail[i][0], dt, to)
        fn = lambda vals, i=i, to=to: np.asarray(vals[i]).astype(NUMPY[to])
        exact = avail[i][3] and to == "f64"
        out_dt = to
    elif choice < 0.32 and dt != "i1":
        i, j = rng.choice(idx), rng.choice(idx)
        pred = rng.choice(list(CMP_PREDICATES))
        if is_float(dt):
            fp = {"eq": "oeq", "ne": "une", "lt": "olt", "le": "ole", "gt": "ogt", "ge": "oge"}[pred]
            text = "%s = arith.cmpf %s, %s, %s : %s" % (name, fp, avail[i][0], avail[j][0], dt)
        else:
            ip = {"eq": "eq", "ne": "ne", "lt": "slt", "le": "sle", "gt": "sgt", "ge": "sge"}[pred]
            text = "%s = arith.cmpi %s, %s, %s : %s" % (name, ip, avail[i][0], avail[j][0], dt)
        ex = [avail[i][3], avail[j][3]]
        fn = lambda vals, i=i, j=j, pred=pred, dt=dt, ex=ex: apply(
            OPS["cmp"], dt, [vals[i], vals[j]], ex, pred=pred)[0]
        exact, out_dt = True, "i1"
    elif choice < 0.42 and "i1" in by_dt and len(idx) >= 1:
        c = rng.choice(by_dt["i1"])
        i, j = rng.choice(idx), rng.choice(idx)
        text = "%s = arith.select %s, %s, %s : %s" % (name, avail[c][0], avail[i][0], avail[j][0], dt)
        fn = lambda vals, c=c, i=i, j=j: np.where(vals[c], vals[i], vals[j])
        exact, out_dt = avail[i][3] and avail[j][3], dt
    else:
        ops = body_ops(dt)
        if not ops:
            return None
        opname, arity = rng.choice(ops)
        opdef = OPS[opname]
        operands = [rng.choice(idx) for _ in range(arity)]
        text = "%s = %s %s : %s" % (name, opdef.scalar(dt), ", ".join(avail[k][0] for k in operands), dt)
        ex = [avail[k][3] for k in operands]

        def fn(vals, opdef=opdef, operands=operands, dt=dt, ex=ex):
            r, e2, tame = apply(opdef, dt, [vals[k] for k in operands], ex)
            if not tame:
                raise Untame("untame body value")
            return r
        exact = None
        out_dt = dt
    try:
        value = fn(cur)
        if exact is None:
            _, exact, _ = apply(OPS[opname], dt, [cur[k] for k in operands], ex)
        check_result(out_dt, value)
    except Untame:
        return None
    if out_dt == "i1" or not is_float(out_dt):
        exact = True
    body.append((text, fn))
    avail.append((name, out_dt, None, bool(exact)))
    g.features["body." + text.split(" = ")[1].split(" ")[0]] += 1
    return value


# ------------------------------------------------------------------ matmul

MATMUL_FORMS = [
    ("k", "k"), ("nk", "k"), ("k", "kp"), ("nk", "kp"), ("bnk", "kp"),
    ("nk", "bkp"), ("bnk", "bkp"), ("b1nk", "1bkp"), ("k", "bkp"), ("bnk", "k"),
]


def p_matmul(g, scope):
    rng = g.rng
    dt = g.pick_dtype(scope, FLOATS + INTS + ("i1",))
    lf, rf = rng.choice(MATMUL_FORMS)
    batched = "b" in lf + rf
    lo = 1
    sizes = {"k": rng.randint(lo, 5), "n": rng.randint(lo, 4), "p": rng.randint(lo, 4),
             "b": rng.randint(1, 3), "1": 1}
    if rf == "1bkp":
        sizes["c"] = rng.randint(2, 3)
        rf = "1ckp"
        lf = "b1nk"
    lshape = tuple(sizes[c] for c in lf)
    rshape = tuple(sizes[c] for c in rf)
    a = g.need_value(scope, dt, lshape)
    b = g.need_value(scope, dt, rshape)
    return emit_matmul(g, scope, a, b)


def has_zero_stride(g, v):
    sim = v.root.sim
    return sim is not None and not v.scalar and 0 in g.sim.strides(sim)


def emit_matmul(g, scope, a, b):
    dt = a.dt
    va, vb = scope.value(a), scope.value(b)
    r, exact, tame = matmul_values(dt, va, vb, a.exact and b.exact)
    shape = r.shape
    ty = g.result_ty(dt, shape)
    sim = None if a.sim is None or b.sim is None else g.sim.matmul(a.sim, b.sim, dt)
    v = Val(g.fresh(), ty, shape, exact=exact, terminal=not tame, sim=sim, how="matmul",
            depth=1 + max(a.depth, b.depth))
    inherit(v, a, b)
    if a.rdims is None or b.rdims is None:
        v.rdims = ty.dims if ty.ranked else None
    elif None in a.rdims or None in b.rdims:
        v.rdims = tuple(t if ty.ranked and t is not None else None for t in
                        (ty.dims if ty.ranked else shape))

    step = matmul_step(dt, a, b, v, exact, tame)
    scope.emit("%s = stride.matmul %s, %s : %s, %s -> %s" % (
        v.name, a.name, b.name, a.ty.spell(), b.ty.spell(), ty.spell()), step, [v],
        usable=tame)
    g.features["stride.matmul.%dd@%dd" % (len(a.shape), len(b.shape))] += 1
    return v


def matmul_step(dt, a, b, v, exact, tame):
    """The step that computes matmul result `v` of `a` and `b` at run time;
    it refuses inputs that lose the exactness or tameness the generator
    predicted (`exact`, `tame`)."""
    def step(env):
        r2, ex2, tame2 = matmul_values(dt, env[a.name], env[b.name], a.exact and b.exact)
        if (exact and not ex2) or (tame and not tame2):
            raise Untame("changed")
        env[v.name] = r2
    return step


def matmul_values(dt, a, b, exact_in):
    a, b = np.asarray(a), np.asarray(b)
    if dt == "i1":
        return np.matmul(a, b).astype(np.bool_), True, True
    if is_int(dt):
        r = np.matmul(a.astype(np.int64), b.astype(np.int64))
        big = np.max(np.abs(r)) if r.size else 0
        if big >= (1 << 31 if dt == "i32" else 1 << 62):
            raise Untame("matmul overflow")
        return r.astype(NUMPY[dt]), True, check_result(dt, r)
    r = np.matmul(a, b).astype(NUMPY[dt])
    tame = check_result(dt, r)
    exact = False
    if exact_in:
        hi = np.float64 if dt == "f32" else np.longdouble
        h = np.matmul(a.astype(hi), b.astype(hi))
        exact = bool(np.all(h == r.astype(hi))) and (not r.size or np.max(np.abs(h)) < 4096)
    return r, exact, tame
