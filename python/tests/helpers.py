"""Shared test helpers: strided views that exist both as NumPy arrays and as
PyTorch tensors over the same memory, and oracle strides."""
import json
import os

import numpy as np

try:
    import torch
except ImportError:  # the torch-stride tests skip without it
    torch = None


class View:
    """One logical array with a chosen memory layout: `np` is a NumPy view
    (zero-copy into `base`), `torch()` the PyTorch tensor with the same
    strides (only for non-negative strides)."""

    def __init__(self, base, shape, strides, offset):
        self.base, self.shape, self.strides, self.offset = base, shape, strides, offset
        item = base.itemsize
        self.np = np.lib.stride_tricks.as_strided(
            base[offset:], shape, tuple(s * item for s in strides))

    def torch(self):
        return torch.as_strided(torch.from_numpy(self.base), self.shape,
                                self.strides, self.offset)


def make_view(rng, shape, layout, dtype=np.float32):
    """A view of `shape` with layout 'c', 'perm', 'sliced', 'broadcast',
    'size1' (odd strides on size-1 dims), 'negative' or 'mixed'."""
    shape = tuple(shape)
    rank = len(shape)
    order = list(range(rank))[::-1]          # innermost first
    steps = [1] * rank
    if layout in ("perm", "mixed", "negative"):
        rng.shuffle(order)
    if layout in ("sliced", "mixed"):
        steps = [int(rng.integers(1, 4)) for _ in range(rank)]
    strides = [0] * rank
    acc = 1
    for d in order:
        strides[d] = acc * steps[d]
        acc = acc * steps[d] * max(shape[d], 1) + (int(rng.integers(0, 3)) if layout in ("sliced", "mixed") else 0)
    if layout in ("broadcast", "mixed"):
        for d in range(rank):
            if shape[d] > 1 and rng.random() < 0.5:
                strides[d] = 0
    if layout in ("size1", "mixed"):
        for d in range(rank):
            if shape[d] == 1:
                strides[d] = int(rng.integers(0, 9))
    if layout == "negative":
        flipped = [d for d in range(rank) if shape[d] > 1 and rng.random() < 0.6]
        if not flipped and any(n > 1 for n in shape):
            flipped = [max(range(rank), key=lambda d: shape[d])]
        for d in flipped:
            strides[d] = -strides[d]
    if 0 in shape:
        span, offset = 1, 0
    else:
        span = 1 + sum((n - 1) * abs(s) for n, s in zip(shape, strides))
        offset = sum((n - 1) * -s for n, s in zip(shape, strides) if s < 0)
    base = random_values(rng, span + 2, dtype)
    return View(base, shape, tuple(strides), offset)


def random_values(rng, n, dtype):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(n) < 0.5
    if dtype.kind == "i":
        return rng.integers(-5, 6, n).astype(dtype)
    return rng.uniform(-1, 1, n).astype(dtype)


def elem_strides(a):
    if isinstance(a, np.generic):  # NumPy returns 0-d results as scalars
        return ()
    if isinstance(a, np.ndarray):
        return tuple(s // a.itemsize for s in a.strides)
    return tuple(a.stride())


def random_shapes(rng, count, max_rank=4, allow_zero=True):
    """An output shape and `count` operand shapes that broadcast to it."""
    rank = int(rng.integers(0, max_rank + 1))
    out = []
    for _ in range(rank):
        r = rng.random()
        out.append(0 if (allow_zero and r < 0.05) else 1 if r < 0.25 else int(rng.integers(2, 6)))
    shapes = []
    for _ in range(count):
        k = int(rng.integers(0, rank + 1)) if rng.random() < 0.4 else rank
        s = [1 if rng.random() < 0.25 else n for n in out[rank - k:]]
        shapes.append(tuple(s))
    return tuple(out), shapes


def strided(shape, strides, dtype, rng):
    """An array of `shape` with element `strides` (negative and 0 too) over
    a fresh buffer of random values of `dtype`."""
    dtype = np.dtype(dtype)
    empty = 0 in shape
    span = 1 if empty else sum((n - 1) * abs(s) for n, s in zip(shape, strides)) + 1
    base = rng.standard_normal(span) * 3
    base = (base > 0) if dtype == np.bool_ else base.astype(dtype)
    offset = 0 if empty else sum((n - 1) * -s for n, s in zip(shape, strides) if s < 0)
    return np.lib.stride_tricks.as_strided(
        base[offset:], shape, [s * dtype.itemsize for s in strides])


def jit_like_numpy(fn, calls, rtol=0, **jit):
    """Runs fn under @stride.jit (with `jit` options) and fn itself on
    copies of each call's arguments (later calls through the cached plan):
    the same results (dtypes, shapes, values: exact for rtol=0, else
    allclose) and the same argument contents afterwards."""
    import stride
    traced = stride.jit(fn, **jit)
    same = np.testing.assert_array_equal if rtol == 0 else \
        (lambda a, b: np.testing.assert_allclose(a, b, rtol=rtol))
    for args in calls:
        mine = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        ref = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        got, want = traced(*mine), fn(*ref)
        if want is None:
            assert got is None
            got, want = (), ()
        elif not isinstance(want, tuple):
            got, want = (got,), (want,)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            w = np.asarray(w)
            assert g.dtype == w.dtype and g.shape == w.shape
            same(g, w)
        for m, r in zip(mine, ref):
            if isinstance(r, np.ndarray):
                assert m.dtype == r.dtype
                same(m, r)
    return traced


# The reduction and view cases both libraries were asked about.
CORPUS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared",
                      "reduce-view-corpus.jsonl")


def corpus_cases(kind):
    """The corpus cases of `kind` ("reduce" or "view"); none without the
    corpus."""
    if not os.path.exists(CORPUS):
        return []
    with open(CORPUS) as f:
        return [c for c in map(json.loads, f) if c["kind"] == kind]


def check_corpus(cases, lib, prepare, compute, check, errors,
                 unexpected=lambda e: f"unexpected error {e}"):
    """Runs the cases of `lib`: `prepare(case, rng)` makes the inputs,
    `compute(case, inputs)` the result (raising one of `errors` where the
    library refuses), `check(case, inputs, got)` says what is wrong with a
    result (None: nothing); `unexpected(e)` describes an error the library
    does not give. Asserts that every case behaved like the library."""
    rng = np.random.default_rng(0)
    failures, count = [], 0
    for case in (c for c in cases if c["lib"] == lib):
        count += 1
        expect = case["expect"]
        inputs = prepare(case, rng)
        try:
            got = compute(case, inputs)
        except errors as e:
            if "error" not in expect:
                failures.append(f"{case['id']}: {unexpected(e)}")
            continue
        if "error" in expect:
            failures.append(f"{case['id']}: expected {expect['error']}")
            continue
        failure = check(case, inputs, got)
        if failure:
            failures.append(f"{case['id']}: {failure}")
    assert not failures, f"{len(failures)} of {count}:\n" + "\n".join(failures[:20])
