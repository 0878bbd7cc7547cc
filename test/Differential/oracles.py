"""Oracles: NumPy values with error bounds, and PyTorch / NumPy strides op by op.

Part of the differential test; see differential.py."""
from common import *  # noqa: F401,F403
from program import *  # noqa: F401,F403
from layouts import *  # noqa: F401,F403
from generator import *  # noqa: F401,F403


def evaluate(case, leaf, apply, carry=None):
    """Evaluates the program with `leaf` (arguments, constants) and `apply`
    (one op); `carry(value, init)` gives a loop-carried value as the loop
    holds it after an iteration (the layout of its initial value)."""
    env = {}
    for n in case.args + case.consts:
        env[n.name] = leaf(n)
    run_ops(case.ops, env, leaf, apply, carry)
    return [env[r.name] for r in case.results]


def run_ops(ops, env, leaf, apply, carry):
    for n in ops:
        if n.op == "proj":
            continue
        if n.op == "for":
            inits = [env[o.name] for o in n.operands]
            state = list(inits)
            for _ in range(n.trips):
                body = dict(env)  # the body sees every value defined before
                for p, v in zip(n.iters, state):
                    body[p.name] = v
                run_ops(n.body, body, leaf, apply, carry)
                state = [body[y.name] for y in n.yields]
                if carry is not None:
                    state = [carry(v, i) for v, i in zip(state, inits)]
            for o, v in zip(n.outs, state):
                env[o.name] = v
        elif n.op == "call":
            callee = {c.name: leaf(c) for c in n.local}
            for p, o in zip(n.params, n.operands):
                callee[p.name] = env[o.name]
            run_ops(n.body, callee, leaf, apply, carry)
            for o, y in zip(n.outs, n.yields):
                env[o.name] = callee[y.name]
        else:
            env[n.name] = apply(n, [env[o.name] for o in n.operands])


def has_matmul(case):
    return any(n.op == "matmul" for n in case.structured())


def np_trunc_div(a, b):
    q = np.abs(a) // np.abs(b)
    return np.where((a < 0) != (b < 0), -q, q).astype(a.dtype)


def value_apply(n, xs):
    """NumPy on logical arrays, in the program's dtype."""
    dt = NP_DTYPES[n.dtype]
    xs = [np.asarray(x) for x in xs]
    op = n.op
    if op == "add": r = xs[0] + xs[1]
    elif op == "sub": r = xs[0] - xs[1]
    elif op == "mul": r = xs[0] * xs[1]
    elif op == "div":
        r = np_trunc_div(*xs) if n.dtype.startswith("i") else xs[0] / xs[1]
    elif op == "maximum": r = np.maximum(xs[0], xs[1])
    elif op == "minimum": r = np.minimum(xs[0], xs[1])
    elif op == "neg": r = -xs[0]
    elif op == "abs": r = np.abs(xs[0])
    elif op == "exp": r = np.exp(xs[0])
    elif op == "tanh": r = np.tanh(xs[0])
    elif op == "sigmoid": r = dt(1) / (dt(1) + np.exp(-xs[0]))
    elif op == "cmp":
        r = {"eq": np.equal, "ne": np.not_equal, "lt": np.less,
             "le": np.less_equal, "gt": np.greater,
             "ge": np.greater_equal}[n.pred](xs[0], xs[1])
    elif op == "select": r = np.where(xs[0], xs[1], xs[2])
    elif op == "matmul": r = np.matmul(xs[0], xs[1])
    elif op in REDUCTIONS: r = numpy_reduce(n, xs[0])
    elif op == "cast": r = xs[0].astype(dt)
    else: raise AssertionError(op)
    r = np.asarray(r)
    assert r.dtype == dt, f"value oracle: {op} gave {r.dtype}, not {dt}"
    assert r.shape == n.shape, f"value oracle: {op} shape {r.shape} != {n.shape}"
    return r


def numpy_reduce(n, x):
    """NumPy's reduction of x (an array or a NumPy scalar) as n says."""
    axis = None if n.axes is None else tuple(n.axes)
    if n.op in SINGLE_AXIS:
        f = np.argmax if n.op == "argmax" else np.argmin
        return f(x, axis=None if axis is None else axis[0],
                 keepdims=n.keepdims)
    f = {"sum": np.sum, "prod": np.prod, "amax": np.amax, "amin": np.amin,
         "mean": np.mean, "any": np.any, "all": np.all}[n.op]
    return f(x, axis=axis, keepdims=n.keepdims)


def reduced_size(n):
    """The number of elements each result of reduction n combines."""
    size = 1
    for d in n.reduced:
        size *= n.operands[0].shape[d]
    return size


def reduce_bound(n, r, v, e, u):
    """The rounding error bound of reduction n with result r of operands
    whose float64 values are v and error bounds e."""
    axis, keep = n.reduced, True
    fold = lambda a: np.sum(a, axis=axis, keepdims=keep)
    m = reduced_size(n)
    rf = np.abs(np.asarray(r, np.float64))
    if n.op in ("sum", "mean"):
        # Any summation order: at most (m - 1) u sum |x| beyond the
        # operands' own errors (first order), whatever the blocking.
        with np.errstate(invalid="ignore"):
            err = fold(e) + max(m - 1, 0) * u * fold(np.abs(v))
        if n.op == "mean":
            err = err / m + u * rf.reshape(err.shape) if m else \
                np.zeros_like(err)
    elif n.op == "prod":
        # Only exact operands are multiplied (the generator's rule).
        err = m * u * rf.reshape(fold(e).shape)
    elif n.op in ("amax", "amin"):
        err = np.max(e, axis=axis, keepdims=keep) if m else fold(e)
    else:
        err = np.zeros(fold(e).shape)
    if not n.keepdims:
        err = err.reshape(n.shape)
    return err


def value_leaf(n):
    return np.asarray(n.value, dtype=NP_DTYPES[n.dtype])


def expected_values(case):
    with np.errstate(all="ignore"):
        return evaluate(case, value_leaf, value_apply)


def bound_leaf(n):
    raw = value_leaf(n)
    return raw, raw.astype(np.float64), np.zeros(n.shape)


def bound_apply(n, xs):
    """One op on (value, value as float64, error bound) triples."""
    u = UNIT_ROUNDOFF.get(n.dtype, 0.0)
    v = [x[1] for x in xs]
    e = [x[2] for x in xs]
    r = value_apply(n, [x[0] for x in xs])
    rf = np.abs(r.astype(np.float64))
    op = n.op
    # An exact zero times an unbounded error contributes nothing (0 * inf
    # would make the bound NaN, and a NaN bound no tolerance at all).
    times = lambda a, b: np.where((a == 0) | (b == 0), 0.0, a * b)
    if op in ("add", "sub"): err = e[0] + e[1] + u * rf
    elif op == "mul":
        err = (times(np.abs(v[0]), e[1]) + times(np.abs(v[1]), e[0])
               + times(e[0], e[1]) + u * rf)
    elif op == "div":
        # |x/y - (x+d)/(y+f)| <= (|d| + |x/y| |f|) / (|y| - |f|): unbounded
        # once the divisor's error can reach zero (cancellation before a
        # division, as in 1 / (0.5 x - y / z) iterated in a loop).
        room = np.abs(v[1]) - e[1]
        err = np.where(room > 0, (e[0] + times(rf, e[1])) / room, np.inf) \
            + u * rf
        # x / inf is exactly 0 for a finite x.
        err = np.where(np.isinf(v[1]) & np.isfinite(v[0]) & np.isfinite(e[0]),
                       0.0, err)
    elif op in ("maximum", "minimum"): err = np.maximum(e[0], e[1])
    elif op in ("neg", "abs"): err = e[0]
    # exp(x + d) - exp(x) = exp(x) (exp(d) - 1): not first order, so a large
    # input error (after cancellation) is not understated.
    elif op == "exp": err = times(rf, np.expm1(e[0])) + 8 * u * rf
    # tanh and sigmoid move by at most 2 and 1 whatever their input's error.
    elif op == "tanh":
        err = np.minimum(2.0, times(1 - rf * rf, e[0])) + 8 * u * rf
    elif op == "sigmoid":
        err = np.minimum(1.0, times(rf * (1 - rf), e[0])) + 8 * u * rf
    elif op == "cmp": err = np.zeros(n.shape)
    elif op == "cast": err = e[0] if n.dtype in UNIT_ROUNDOFF else 0.0
    elif op in REDUCTIONS:
        err = reduce_bound(n, r, np.broadcast_to(v[0], n.operands[0].shape),
                           np.broadcast_to(e[0], n.operands[0].shape), u)
    elif op == "select": err = np.where(v[0] != 0, e[1], e[2])
    elif op == "matmul":
        a, b = np.abs(v[0]), np.abs(v[1])
        # Unbounded errors as huge finite ones, so that exact zeros in the
        # other operand cancel them instead of making the sums NaN.
        fin = lambda x: np.where(np.isfinite(x), x, 1e300)
        err = (np.matmul(a, fin(e[1])) + np.matmul(fin(e[0]), b)
               + n.k * u * np.matmul(a, b) + u * rf)
        err = np.where(err >= 1e290, np.inf, err)
    else: raise AssertionError(op)
    if op in ("add", "sub", "mul", "div"):
        # An exactly rounded op on exact operands gives the same bits in
        # every correct implementation, an overflow or x / 0 included: the
        # infinite result is exact, not unbounded.
        exact = np.asarray(e[0]) == 0
        for x in e[1:]:
            exact = exact & (np.asarray(x) == 0)
        err = np.where(exact & ~np.isfinite(rf), 0.0, err)
    return r, r.astype(np.float64), np.broadcast_to(
        np.asarray(err, np.float64), n.shape)


def error_bounds(case):
    """First-order bounds on each result's rounding error (float64 arrays;
    None for integer and i1 results)."""
    with np.errstate(all="ignore"):
        outs = evaluate(case, bound_leaf, bound_apply)
    return [o[2] if r.dtype in UNIT_ROUNDOFF else None
            for o, r in zip(outs, case.results)]


def strided_buffer(n, lib):
    """A buffer whose strided view holds n's logical values; returns
    (buffer, offset) with offset the view's first element."""
    shape, strides = n.shape, n.strides
    lo = hi = 0
    if all(s > 0 for s in shape):
        for size, st in zip(shape, strides):
            if st > 0: hi += (size - 1) * st
            else: lo += (size - 1) * st
    buf = np.zeros(hi - lo + 1, dtype=NP_DTYPES[n.dtype])
    view = np.lib.stride_tricks.as_strided(
        buf[-lo:], shape, [s * buf.itemsize for s in strides], writeable=True)
    view[...] = n.value
    return buf, -lo


def numpy_strided_leaf(n):
    dt = NP_DTYPES[n.dtype]
    if n.kind == "const" or n.scalar:
        return dt(np.asarray(n.value).item())
    buf, off = strided_buffer(n, np)
    return np.lib.stride_tricks.as_strided(
        buf[off:], n.shape, [s * buf.itemsize for s in n.strides])


NUMPY_UFUNC = {"add": np.add, "sub": np.subtract, "mul": np.multiply,
               "maximum": np.maximum, "minimum": np.minimum,
               "neg": np.negative, "abs": np.abs, "exp": np.exp,
               "tanh": np.tanh, "sigmoid": np.exp,  # any unary ufunc
               "eq": np.equal, "ne": np.not_equal, "lt": np.less,
               "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal}


def numpy_apply(n, xs):
    op = n.op
    if op == "div":
        # No truncating integer division ufunc: floor_divide has the layout.
        r = (np.floor_divide if n.dtype.startswith("i") else np.divide)(*xs)
    elif op == "cmp": r = NUMPY_UFUNC[n.pred](*xs)
    elif op == "select": r = np.where(*xs)
    elif op == "matmul": r = np.matmul(*xs)
    elif op in REDUCTIONS: r = numpy_reduce(n, xs[0])
    elif op == "cast": r = np.asarray(xs[0]).astype(NP_DTYPES[n.dtype])
    else: r = NUMPY_UFUNC[op](*xs)
    assert np.asarray(r).dtype == NP_DTYPES[n.dtype], (op, np.asarray(r).dtype)
    return r


def torch_leaf(n):
    dt = TORCH_DTYPES[n.dtype]
    if n.kind == "const" or n.scalar:
        return torch.tensor(np.asarray(n.value, NP_DTYPES[n.dtype])[()], dtype=dt)
    assert all(s >= 0 for s in n.strides), "negative strides under torch"
    buf, off = strided_buffer(n, np)
    return torch.as_strided(torch.from_numpy(buf), n.shape, n.strides, off)


TORCH_BINARY = {"add": "add", "sub": "sub", "mul": "mul", "maximum": "maximum",
                "minimum": "minimum", "eq": "eq", "ne": "ne", "lt": "lt",
                "le": "le", "gt": "gt", "ge": "ge"}


def torch_apply(n, xs):
    op = n.op
    if op == "div":
        r = (torch.div(*xs, rounding_mode="trunc") if n.dtype.startswith("i")
             else torch.div(*xs))
    elif op == "cmp": r = getattr(torch, n.pred)(*xs)
    elif op == "select": r = torch.where(*xs)
    elif op == "matmul": r = torch.matmul(*xs)
    elif op in REDUCTIONS: r = torch_reduce(n, xs[0])
    elif op == "cast": r = xs[0].to(TORCH_DTYPES[n.dtype])
    elif op in ("neg", "abs", "exp", "tanh", "sigmoid"): r = getattr(torch, op)(*xs)
    else: r = getattr(torch, TORCH_BINARY[op])(*xs)
    assert r.dtype == TORCH_DTYPES[n.dtype], (op, r.dtype)
    return r


def torch_reduce(n, x):
    """PyTorch's reduction of x as n says. torch.prod, any and all take one
    dim: several are reduced one after the other (the result is contiguous
    whichever way it is computed)."""
    if n.op in SINGLE_AXIS:
        f = torch.argmax if n.op == "argmax" else torch.argmin
        if n.axes is None:
            return f(x)
        return f(x, dim=n.axes[0], keepdim=n.keepdims)
    dims = list(n.reduced)
    if n.op in ("sum", "mean", "amax", "amin"):
        f = {"sum": torch.sum, "mean": torch.mean, "amax": torch.amax,
             "amin": torch.amin}[n.op]
        if not dims:
            return f(x)  # a 0-d input
        return f(x, dim=dims, keepdim=n.keepdims)
    f = {"prod": torch.prod, "any": torch.any, "all": torch.all}[n.op]
    if not dims or (n.axes is None and not n.keepdims):
        return f(x)
    for d in sorted(dims, reverse=True):
        x = f(x, dim=d, keepdim=n.keepdims)
    return x


def restrided(x, dtype=np.float32):
    """An array of `dtype` with x's shape and element strides."""
    x = np.asarray(x)
    if x.ndim == 0:
        return dtype(0)
    elem = [s // x.itemsize for s in x.strides]
    lo = hi = 0
    if x.size:
        lo = sum((n - 1) * s for n, s in zip(x.shape, elem) if s < 0)
        hi = sum((n - 1) * s for n, s in zip(x.shape, elem) if s > 0)
    buf = np.zeros(hi - lo + 1, dtype)
    return np.lib.stride_tricks.as_strided(
        buf[-lo:], x.shape, [s * buf.itemsize for s in elem])


def torch_carry(value, init):
    """A loop-carried value keeps its initial value's layout: each
    iteration's result is copied into it (docs/composition.md)."""
    out = torch.empty_strided(tuple(init.shape), init.stride(),
                              dtype=init.dtype)
    out.copy_(value)
    return out


def numpy_carry(value, init):
    init = np.asarray(init)
    out = restrided(init, init.dtype)
    out[...] = value
    return out


def expected_layouts(case):
    """Per result (shape, strides), and the library's values."""
    if case.policy == "torch":
        if torch is None:
            raise RuntimeError("policy torch needs PyTorch (use /usr/bin/python3)")
        with torch.no_grad():
            outs = evaluate(case, torch_leaf, torch_apply, torch_carry)
        return [(tuple(o.shape), list(o.stride())) for o in outs], \
            [o.numpy() for o in outs]
    with np.errstate(all="ignore"):
        outs = evaluate(case, numpy_strided_leaf, numpy_apply, numpy_carry)
    outs = [np.asarray(o) for o in outs]
    return [(o.shape, [s // o.itemsize for s in o.strides]) for o in outs], outs
