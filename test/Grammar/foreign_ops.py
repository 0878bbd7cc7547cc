"""Productions for the ops of other dialects that Stride programs mix in:
linalg on tensors (generic, fill, matmul, transpose, broadcast), tensor
(empty, extract_slice, insert_slice, cast) and dense arith.constant
tensors. Their results carry no encoding; the compiler treats them as
row-major (docs/composition.md, "Foreign producers and consumers"), which
is what the strides oracle predicts for them."""

import numpy as np

from element_types import (FLOATS, INTS, NUMPY, TensorType, dense_literal,
                           is_float)
from op_table import OPS, Untame, apply, check_result
from scope import Val, indent, inherit
from stride_ops import body_ops, matmul_step, matmul_values


def ident_map(rank, dims=None):
    ds = ["d%d" % i for i in range(rank)]
    res = ds if dims is None else ["d%d" % i for i in dims]
    return "affine_map<(%s) -> (%s)>" % (", ".join(ds), ", ".join(res))


def foreign_val(g, ty, shape, exact=True, how="", inputs=()):
    return inherit(Val(g.fresh(), ty, shape, exact=exact, sim=g.sim.contiguous(shape, ty.dt),
                       how=how, depth=1 + max([v.depth for v in inputs] + [0])), *inputs)


def empty(g, scope, dt, shape):
    ty = TensorType(dt, shape)
    e = g.fresh("e")
    scope.emit("%s = tensor.empty() : %s" % (e, ty.spell()), None, [])
    return e, ty


def p_fill(g, scope):
    dt = g.pick_dtype(scope)
    return fill_value(g, scope, dt, g.random_shape(min_rank=1, nonzero=True))


def fill_value(g, scope, dt, shape):
    c = g.scalar_operand(scope, dt)
    e, ty = empty(g, scope, dt, shape)
    v = inherit(foreign_val(g, ty, shape, exact=c.exact, how="linalg.fill"), c)
    cname = c.name

    def step(env):
        env[v.name] = np.full(shape, env[cname], dtype=NUMPY[dt])
    scope.emit("%s = linalg.fill ins(%s : %s) outs(%s : %s) -> %s" % (
        v.name, cname, dt, e, ty.spell(), ty.spell()), step, [v])
    g.features["linalg.fill"] += 1
    return v


def zero_fill(g, scope, dt, shape):
    zero = g.const_scalar(scope, dt, 0)
    e, ty = empty(g, scope, dt, shape)
    name = g.fresh("z")
    scope.emit("%s = linalg.fill ins(%s : %s) outs(%s : %s) -> %s" % (
        name, zero.name, dt, e, ty.spell(), ty.spell()), None, [])
    return name, ty


def p_generic(g, scope):
    rng = g.rng
    dt = g.pick_dtype(scope)
    ops = [o for o in body_ops(dt)]
    if not ops:
        return None
    x = g.as_static(scope, g.operand(scope, dt, min_rank=1, nonzero=True))
    shape = x.shape
    opname, arity = rng.choice(ops)
    ins = [x]
    maps = [ident_map(len(shape))]
    if arity == 2:
        # The second input: the same shape, or a suffix of it broadcast by
        # its indexing map.
        k = rng.randint(0, len(shape) - 1) if rng.random() < 0.4 else 0
        y = g.as_static(scope, g.need_value(scope, dt, shape[k:]))
        ins.append(y)
        maps.append(ident_map(len(shape), list(range(k, len(shape)))))
    opdef = OPS[opname]
    exact_in = [v.exact for v in ins]
    names = [v.name for v in ins]

    def compute(vals):
        r, ex, tame = apply(opdef, dt, vals, exact_in)
        if not tame:
            raise Untame("untame")
        return np.broadcast_to(r, shape).astype(NUMPY[dt]), ex
    _, exact = compute([scope.value(v) for v in ins])
    e, ty = empty(g, scope, dt, shape)
    v = foreign_val(g, ty, shape, exact=exact, how="linalg.generic", inputs=ins)

    def step(env):
        r, ex = compute([env[n] for n in names])
        if exact and not ex:
            raise Untame("changed")
        env[v.name] = np.ascontiguousarray(r)
    args = [g.fresh("b") for _ in ins] + [g.fresh("b")]
    res = g.fresh("s")
    body = ["^bb0(%s):" % ", ".join("%s: %s" % (a, dt) for a in args),
            "  %s = %s %s : %s" % (res, opdef.scalar(dt), ", ".join(args[:arity]), dt),
            "  linalg.yield %s : %s" % (res, dt)]
    maps.append(ident_map(len(shape)))
    head = ("%s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]} "
            "ins(%s : %s) outs(%s : %s) {" % (
                v.name, ", ".join(maps), ", ".join(['"parallel"'] * len(shape)),
                ", ".join(names), ", ".join(i.ty.spell() for i in ins), e, ty.spell()))
    return emit_foreign(g, scope, "linalg.generic",
                        [head] + indent(body) + ["} -> %s" % ty.spell()], step, v)


def p_linalg_matmul(g, scope):
    rng = g.rng
    dt = g.pick_dtype(scope, FLOATS + INTS)
    m, k, n = rng.randint(1, 4), rng.randint(1, 4), rng.randint(1, 4)
    a = g.as_static(scope, g.need_value(scope, dt, (m, k)))
    b = g.as_static(scope, g.need_value(scope, dt, (k, n)))
    r, exact, tame = matmul_values(dt, scope.value(a), scope.value(b), a.exact and b.exact)
    z, ty = zero_fill(g, scope, dt, (m, n))
    v = foreign_val(g, ty, (m, n), exact=exact, how="linalg.matmul", inputs=(a, b))
    v.terminal = not tame

    step = matmul_step(dt, a, b, v, exact, tame)
    return emit_foreign(g, scope, "linalg.matmul", "%s = linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s" % (
        v.name, a.name, b.name, a.ty.spell(), b.ty.spell(), z, ty.spell(), ty.spell()),
        step, v, usable=tame)


def p_transpose(g, scope):
    rng = g.rng
    dt = g.pick_dtype(scope)
    x = g.as_static(scope, g.operand(scope, dt, min_rank=2, nonzero=True))
    rank = len(x.shape)
    perm = list(range(rank))
    while perm == list(range(rank)):
        rng.shuffle(perm)
    shape = tuple(x.shape[p] for p in perm)
    e, ty = empty(g, scope, dt, shape)
    v = foreign_val(g, ty, shape, exact=x.exact, how="linalg.transpose", inputs=(x,))

    def step(env):
        env[v.name] = np.ascontiguousarray(np.transpose(env[x.name], perm))
    return emit_foreign(g, scope, "linalg.transpose", "%s = linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [%s]" % (
        v.name, x.name, x.ty.spell(), e, ty.spell(), ", ".join(map(str, perm))), step, v)


def p_linalg_broadcast(g, scope):
    rng = g.rng
    dt = g.pick_dtype(scope)
    x = g.as_static(scope, g.operand(scope, dt, min_rank=1, max_rank=2, nonzero=True))
    out_rank = len(x.shape) + rng.randint(1, 2)
    added = sorted(rng.sample(range(out_rank), out_rank - len(x.shape)))
    shape, it = [], iter(x.shape)
    for d in range(out_rank):
        shape.append(rng.randint(1, 3) if d in added else next(it))
    shape = tuple(shape)
    if int(np.prod(shape)) > g.max_size:
        return None
    e, ty = empty(g, scope, dt, shape)
    v = foreign_val(g, ty, shape, exact=x.exact, how="linalg.broadcast", inputs=(x,))

    def step(env):
        a = np.asarray(env[x.name])
        env[v.name] = np.ascontiguousarray(np.broadcast_to(np.expand_dims(a, tuple(added)), shape))
    return emit_foreign(g, scope, "linalg.broadcast", "%s = linalg.broadcast ins(%s : %s) outs(%s : %s) dimensions = [%s]" % (
        v.name, x.name, x.ty.spell(), e, ty.spell(), ", ".join(map(str, added))), step, v)


def random_slice(rng, shape):
    offsets, sizes, strides = [], [], []
    for n in shape:
        size = rng.randint(1, n)
        stride = rng.randint(1, max(1, (n - 1) // (size - 1))) if size > 1 else rng.randint(1, 2)
        span = (size - 1) * stride
        off = rng.randint(0, n - 1 - span)
        offsets.append(off)
        sizes.append(size)
        strides.append(stride)
    return offsets, sizes, strides


def slice_text(offsets, sizes, strides):
    """`o, ...] [s, ...] [st, ...`: the bracketed lists of a slice op."""
    return "] [".join(", ".join(map(str, xs)) for xs in (offsets, sizes, strides))


def emit_foreign(g, scope, feature, text, step, v, usable=True):
    """Emits the op that defines `v` (its text, and `step` computing its
    value), counts `feature`, and returns `v`."""
    scope.emit(text, step, [v], usable=usable)
    g.features[feature] += 1
    return v


def slice_index(offsets, sizes, strides):
    return tuple(slice(o, o + (s - 1) * st + 1, st) for o, s, st in zip(offsets, sizes, strides))


def p_extract_slice(g, scope):
    rng = g.rng
    dt = g.pick_dtype(scope)
    x = g.as_static(scope, g.operand(scope, dt, min_rank=1, nonzero=True))
    offsets, sizes, strides = random_slice(rng, x.shape)
    ty = TensorType(dt, sizes)
    # The slice is a view of x, but the layout policies see it as row-major
    # (docs/composition.md, "Not covered").
    v = foreign_val(g, ty, tuple(sizes), exact=x.exact, how="tensor.extract_slice", inputs=(x,))
    v.origin = x.origin
    v.strided_view = True   # a view: as a call operand it needs a copy (call_operand_copies)
    idx = slice_index(offsets, sizes, strides)

    def step(env):
        env[v.name] = np.ascontiguousarray(np.asarray(env[x.name])[idx])
    return emit_foreign(g, scope, "tensor.extract_slice", "%s = tensor.extract_slice %s[%s] : %s to %s" % (
        v.name, x.name, slice_text(offsets, sizes, strides), x.ty.spell(), ty.spell()), step, v)


def p_insert_slice(g, scope):
    rng = g.rng
    dt = g.pick_dtype(scope)
    d = g.as_static(scope, g.operand(scope, dt, min_rank=1, nonzero=True))
    from stride_ops import has_zero_stride
    if d.ty.enc and has_zero_stride(g, d):
        # The result has the destination's type: a layout that repeats
        # elements cannot hold the inserted values.
        raise Untame("insert_slice into a broadcast layout")
    offsets, sizes, strides = random_slice(rng, d.shape)
    src = g.as_static(scope, g.need_value(scope, dt, tuple(sizes)))
    if d.ty.enc:
        sim = None if d.sim is None else g.sim.own(d.sim, dt)
    else:
        sim = g.sim.contiguous(d.shape, dt)
    v = Val(g.fresh(), d.ty, d.shape, exact=d.exact and src.exact, sim=sim,
            how="tensor.insert_slice", depth=1 + max(d.depth, src.depth))
    inherit(v, d, src)
    # A copy of a #stride.layout argument: a strided buffer of its own.
    v.strided_view = bool(d.ty.enc) or d.strided_view
    idx = slice_index(offsets, sizes, strides)

    def step(env):
        a = np.array(env[d.name], copy=True)
        a[idx] = env[src.name]
        env[v.name] = a
    return emit_foreign(g, scope, "tensor.insert_slice", "%s = tensor.insert_slice %s into %s[%s] : %s into %s" % (
        v.name, src.name, d.name, slice_text(offsets, sizes, strides), src.ty.spell(), d.ty.spell()),
        step, v)


def p_tensor_cast(g, scope):
    """tensor.cast to dynamic dims or unranked (consumed by later ops), or
    back to a static type."""
    rng = g.rng
    x = g.operand(scope, g.pick_dtype(scope), scalar_ok=0)
    if x.ty.static and rng.random() < 0.8:
        if g.negative(x):
            return None
        if rng.random() < 0.5 or not x.shape:
            ty = TensorType(x.dt, None)
        else:
            ty = TensorType(x.dt, [None if rng.random() < 0.6 else n for n in x.shape])
    else:
        ty = TensorType(x.dt, x.shape)
    if ty == x.ty:
        return None
    v = g.cast_to(scope, x, ty, pool=True)
    g.features["tensor.cast." + ("unranked" if not ty.ranked else "static" if ty.static else "dynamic")] += 1
    return v


def p_dense(g, scope):
    rng = g.rng
    dt = g.pick_dtype(scope)
    shape = g.random_shape(max_rank=2, nonzero=True, max_size=12)
    return g.dense_const(scope, dt, shape)
