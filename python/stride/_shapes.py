"""NumPy's broadcasting and matmul shape rules, checked when an expression
is built so that errors point at the Python line that made them."""


def fmt(shape):
    """NumPy's spelling of a shape in error messages: (3,4), (5,), ()."""
    if len(shape) == 1:
        return f"({shape[0]},)"
    return "(" + ",".join(str(n) for n in shape) + ")"


def broadcast(*shapes):
    """The broadcast shape, or ValueError with NumPy's ufunc message."""
    if len(shapes) == 2:  # the common cases, without the loop
        a, b = shapes
        if a == b or not b:
            return tuple(a)
        if not a:
            return tuple(b)
    rank = max((len(s) for s in shapes), default=0)
    result = []
    for d in range(rank):
        size = 1
        for s in shapes:
            k = len(s) - rank + d
            if k < 0 or s[k] == 1:
                continue
            if size != 1 and s[k] != size:
                raise ValueError(
                    "operands could not be broadcast together with shapes "
                    + " ".join(fmt(s) for s in shapes))
            size = s[k]
        result.append(size)
    return tuple(result)


def matmul(lhs, rhs):
    """numpy.matmul's result shape: 1-D operands are promoted and the
    promoted dim dropped again; batch dims broadcast; contracted dims must be
    equal (a 1 does not stretch)."""
    for name, s in (("lhs", lhs), ("rhs", rhs)):
        if len(s) == 0:
            raise ValueError(f"matmul: {name} is 0-d (shape ()); matmul needs "
                             "at least one dimension per operand")
    a = (1,) + tuple(lhs) if len(lhs) == 1 else tuple(lhs)
    b = tuple(rhs) + (1,) if len(rhs) == 1 else tuple(rhs)
    if a[-1] != b[-2]:
        ldim = len(lhs) - 1
        rdim = 0 if len(rhs) == 1 else len(rhs) - 2
        raise ValueError(
            f"matmul: contracted dimensions differ: lhs dim {ldim} has size "
            f"{a[-1]}, rhs dim {rdim} has size {b[-2]} (shapes {fmt(lhs)} "
            f"{fmt(rhs)})")
    try:
        batch = broadcast(a[:-2], b[:-2])
    except ValueError:
        raise ValueError(
            f"matmul: batch dimensions {fmt(a[:-2])} and {fmt(b[:-2])} could "
            f"not be broadcast together (shapes {fmt(lhs)} {fmt(rhs)})") from None
    core = ((a[-2],) if len(lhs) > 1 else ()) + ((b[-1],) if len(rhs) > 1 else ())
    return batch + core
