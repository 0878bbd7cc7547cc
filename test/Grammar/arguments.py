"""Entry arguments: their #stride.layout encodings and tame input values.

Float inputs are multiples of 1/8 in [-3, 3] (or (0, 3] when an op needs
positive values), so that sums, differences and small products are exact
and comparisons between inputs can be checked exactly. Integers are small.
A layout with stride 0 in a dimension repeats one value along it (the
runner refuses anything else), and negative strides are drawn only for
policy numpy (PyTorch tensors cannot have them).
"""

import numpy as np

from element_types import is_float, is_int, NUMPY


def strides_from_perm(shape, perm):
    """Dense strides with dims `perm` outermost to innermost (size counted
    as at least 1), as Stride's stridesFromPerm."""
    strides = [0] * len(shape)
    s = 1
    for d in reversed(perm):
        strides[d] = s
        s *= max(shape[d], 1)
    return strides


def row_major(shape):
    return strides_from_perm(shape, list(range(len(shape))))


def random_layout(rng, shape, allow_negative, allow_zero=True):
    """(encoding text or None, element strides, dims with stride 0)."""
    rank = len(shape)
    kind = rng.choices(["none", "perm", "strides"], [3, 3, 4])[0]
    if rank == 0 or kind == "none":
        return None, row_major(shape), set()
    perm = list(range(rank))
    rng.shuffle(perm)
    if kind == "perm":
        if perm == list(range(rank)) and rank > 1:
            perm = perm[1:] + perm[:1]
        return ("#stride.layout<perm = [%s]>" % ", ".join(map(str, perm)),
                strides_from_perm(shape, perm), set())
    if rng.random() < 0.2:
        perm = list(range(rank))
    strides = [0] * rank
    s = rng.choice([1, 1, 1, 2, 3])
    for d in reversed(perm):
        strides[d] = s
        s *= max(shape[d], 1) * rng.choice([1, 1, 1, 2])
    zeros = set()
    if allow_zero:
        for d in range(rank):
            if rng.random() < 0.2:
                strides[d] = 0
                zeros.add(d)
    if allow_negative:
        for d in range(rank):
            if strides[d] and rng.random() < 0.35:
                strides[d] = -strides[d]
    return ("#stride.layout<strides = [%s]>" % ", ".join(map(str, strides)),
            strides, zeros)


def draw_values(rng, dt, shape, kind=None, zeros=()):
    """Tame values of `shape`; kind 'positive' (floats > 0), 'nonzero'
    (integers without 0) or None. Constant along the dims in `zeros`."""
    base_shape = tuple(1 if d in zeros else n for d, n in enumerate(shape))
    n = int(np.prod(base_shape)) if base_shape else 1
    if is_float(dt):
        if kind == "positive":
            k = [rng.randint(2, 24) for _ in range(n)]
        else:
            k = [rng.randint(-24, 24) for _ in range(n)]
        flat = np.array(k, dtype=np.float64) / 8
    elif is_int(dt):
        if kind == "nonzero":
            flat = np.array([rng.choice([-1, 1]) * rng.randint(1, 9) for _ in range(n)])
        else:
            flat = np.array([rng.randint(-9, 9) for _ in range(n)])
    else:
        flat = np.array([rng.random() < 0.5 for _ in range(n)])
    a = flat.astype(NUMPY[dt]).reshape(base_shape)
    return np.array(np.broadcast_to(a, tuple(shape)), copy=True)


def draw_scalar(rng, dt, kind=None):
    return draw_values(rng, dt, (), kind)[()]
