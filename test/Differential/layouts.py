"""Shapes and layouts: broadcasting, matmul shapes, random shapes and argument layouts.

Part of the differential test; see differential.py."""
from common import *  # noqa: F401,F403
from program import *  # noqa: F401,F403


def broadcast_shapes(*shapes):
    rank = max((len(s) for s in shapes), default=0)
    out = []
    for d in range(rank):
        sizes = [s[len(s) - rank + d] for s in shapes if len(s) - rank + d >= 0]
        non1 = {x for x in sizes if x != 1}
        assert len(non1) <= 1, f"generator bug: shapes {shapes} do not broadcast"
        out.append(non1.pop() if non1 else 1)
    return tuple(out)


def matmul_shape(a, b):
    assert len(a) >= 1 and len(b) >= 1
    a2 = (1,) + tuple(a) if len(a) == 1 else tuple(a)
    b2 = tuple(b) + (1,) if len(b) == 1 else tuple(b)
    assert a2[-1] == b2[-2]
    batch = broadcast_shapes(a2[:-2], b2[:-2])
    out = batch + ((a2[-2],) if len(a) > 1 else ()) + \
        ((b2[-1],) if len(b) > 1 else ())
    return out, a2[-1]


def contiguous_strides(shape):
    strides, running = [0] * len(shape), 1
    for d in reversed(range(len(shape))):
        strides[d] = running
        running *= max(shape[d], 1)
    return strides


def strides_from_perm(shape, perm):
    """Dense strides, dims of `perm` listed outermost to innermost."""
    strides, running = [0] * len(shape), 1
    for d in reversed(perm):
        strides[d] = running
        running *= max(shape[d], 1)
    return strides


def compatible_shape(rng, target, full=False):
    """A shape that broadcasts to `target`: a suffix, some dims set to 1."""
    rank = len(target) if full else rng.choice(
        [len(target)] * 3 + list(range(len(target) + 1)))
    shape = list(target[len(target) - rank:])
    for d in range(rank):
        if not full and rng.random() < 0.25:
            shape[d] = 1
    return tuple(shape)


def random_shape(rng, rank):
    sizes = [0] + [1] * 3 + [2, 3, 4, 5] * 3
    if rng.random() < 0.9:  # zero-size results in ~10% of the shapes
        sizes = sizes[1:]
    shape = [rng.choice(sizes) for _ in range(rank)]
    if rank and rng.random() < 0.1:
        # One longer dim now and then, for vector and tile remainders.
        shape[rng.randrange(rank)] = rng.randint(6, 40)
    return tuple(shape)


def make_layout(rng, shape, policy):
    """Random strides for `shape`; returns (strides, encoding text or None,
    broadcast dims whose values must be constant)."""
    rank = len(shape)
    if rank == 0:
        return [], None, []
    kind = rng.choices(["contiguous", "permuted", "sliced", "broadcast"],
                       [3, 3, 3, 2])[0]
    perm = list(range(rank))
    if kind != "contiguous" and rng.random() < 0.7:
        rng.shuffle(perm)
    if kind == "permuted" and rng.random() < 0.4:
        strides = strides_from_perm(shape, perm)
        if perm == list(range(rank)) and rng.random() < 0.5:
            return strides, None, []
        return strides, f"#stride.layout<perm = [{', '.join(map(str, perm))}]>", []
    # Dense packing in `perm` order, with steps and padding for slices.
    strides, running = [0] * rank, 1
    for d in reversed(perm):
        step = rng.choice([1, 2, 3]) if kind == "sliced" else 1
        pad = rng.choice([0, 0, 1, 2]) if kind == "sliced" else 0
        strides[d] = running * step
        running = running * (max(shape[d], 1) * step) + pad * running
    bdims = []
    if kind == "broadcast":
        cands = [d for d in range(rank) if shape[d] > 1] or list(range(rank))
        bdims = rng.sample(cands, rng.randint(1, len(cands)))
        for d in bdims:
            strides[d] = 0
    # Size-1 dims may carry any stride (PyTorch looks at them).
    for d in range(rank):
        if shape[d] == 1 and rng.random() < 0.4:
            strides[d] = rng.choice([0, 1, 2, 3, 5, 7, 12, 60])
    if policy == "numpy" and rng.random() < 0.35:
        for d in range(rank):
            if strides[d] != 0 and rng.random() < 0.5:
                strides[d] = -strides[d]
    if kind == "contiguous" and strides == contiguous_strides(shape) \
            and rng.random() < 0.6:
        return strides, None, []
    return (strides, f"#stride.layout<strides = [{', '.join(map(str, strides))}]>",
            [d for d in bdims if shape[d] > 1])


def random_values(nrng, shape, dtype, bdims=()):
    """Logical values; constant along `bdims` (broadcast dims)."""
    gshape = tuple(1 if d in bdims else s for d, s in enumerate(shape))
    if dtype in ("f32", "f64"):
        v = nrng.uniform(-2.0, 2.0, size=gshape)
    elif dtype == "i1":
        v = nrng.random(size=gshape) < 0.5
    else:
        v = nrng.integers(-3, 4, size=gshape)
    v = np.asarray(v).astype(NP_DTYPES[dtype])
    return np.array(np.broadcast_to(v, shape), order="C")
