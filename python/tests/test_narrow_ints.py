"""int8, int16 and the unsigned integers (issue 27): every ufunc of the op table on their extreme
values and on transposed, reversed and broadcast layouts, NumPy 1.24's
promotion with wider types and Python scalars, reductions, matmul,
@stride.jit and torch tensors, all against NumPy (or PyTorch)."""
import numpy as np
import pytest
import torch

import stride
from stride import _table

NARROW = (np.int8, np.int16, np.uint8, np.uint16, np.uint32, np.uint64)


def extremes(dtype):
    info = np.iinfo(dtype)
    if info.min == 0:  # around 0, the signed type's edge, the top
        half = info.max // 2
        return np.array([0, 1, 3, 5, 7, half, half + 1, info.max - 1,
                         info.max, 2], dtype)
    return np.array([info.min, info.min + 1, -7, -1, 0, 1, 3, 5,
                     info.max - 1, info.max], dtype)


def layouts(dtype):
    """(a, b) pairs: every extreme against every other; a transposed and
    reversed view; a broadcast row."""
    v = extremes(dtype)
    n = len(v)
    a = np.repeat(v, n).reshape(n, n)
    b = np.tile(v, n).reshape(n, n)
    yield a, b
    yield a.T[::-1], b[:, ::-1]
    yield a, v[::-1]


def same(got, want):
    got = np.asarray(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=2e-6 if want.dtype ==
                                   np.float32 else 1e-14, atol=0)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", NARROW, ids=lambda d: d.__name__)
@pytest.mark.parametrize("name", sorted(_table.UFUNC_OPS))
def test_every_table_ufunc_on_extreme_values(name, dtype):
    ufunc = getattr(np, name)
    for a, b in layouts(dtype):
        args = (a, b)[:ufunc.nin]
        if ufunc in (np.power,):
            args = (a, np.abs(b) % 5)[:ufunc.nin]  # NumPy refuses x ** -1
        try:
            with np.errstate(all="ignore"):
                want = ufunc(*args)
        except TypeError:
            with pytest.raises(TypeError):
                ufunc(*[stride.lazy(x) for x in args])
            continue
        if want.dtype == np.float16:  # NumPy's loop for int8: refused
            with pytest.raises(TypeError, match="float16"):
                ufunc(*[stride.lazy(x) for x in args])
            continue
        with np.errstate(all="ignore"):
            got = stride.materialize(ufunc(*[stride.lazy(x) for x in args]),
                                     policy="numpy")
        same(got, want)


@pytest.mark.parametrize("dtype", NARROW, ids=lambda d: d.__name__)
def test_promotion_with_other_dtypes_and_scalars(dtype):
    a = extremes(dtype).reshape(2, 5)
    others = [np.ones(5, t) * 3 for t in (np.bool_, np.int8, np.int16,
                                           np.int32, np.int64, np.uint8,
                                           np.uint16, np.uint32, np.uint64,
                                           np.float32, np.float64)]
    scalars = [1, -1, 100, 200, 40000, 2 ** 40, 1.5, np.int8(3),
               np.int16(300), np.float32(0.5), True]
    with np.errstate(all="ignore"):
        for o in others:
            same(stride.lazy(a) * o, a * o)
            same(o - stride.lazy(a), o - a)
        for s in scalars:
            same(stride.lazy(a) + s, a + s)
            same(s * stride.lazy(a), s * a)


@pytest.mark.parametrize("dtype", NARROW, ids=lambda d: d.__name__)
def test_reductions_and_matmul(dtype):
    rng = np.random.default_rng(7)
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max, (37, 130), endpoint=True,
                     dtype=dtype)
    x = x[:, ::-1]
    lx = stride.lazy(x)
    for axis in (None, 0, 1, (0, 1)):
        same(np.sum(lx, axis=axis), np.sum(x, axis=axis))  # int64 or uint64
        same(np.max(lx, axis=axis), np.max(x, axis=axis))
        same(np.min(lx, axis=axis), np.min(x, axis=axis))
        same(np.any(lx, axis=axis), np.any(x, axis=axis))
        same(stride.materialize(np.mean(lx, axis=axis), policy="numpy"),
             np.mean(x, axis=axis))
    same(np.prod(lx[:4, :3], axis=1), np.prod(x[:4, :3], axis=1))
    same(np.argmax(lx, axis=1), np.argmax(x, axis=1))
    same(np.argmin(lx, axis=0), np.argmin(x, axis=0))
    small = (x[:9, :11] % 5).astype(dtype)
    same(stride.lazy(small) @ stride.lazy(small.T), small @ small.T)  # wraps


@pytest.mark.parametrize("dtype", NARROW, ids=lambda d: d.__name__)
def test_casts_to_and_from_narrow_ints(dtype):
    # A float outside the integer's range converts to what C leaves
    # undefined (NumPy warns): only values in range are compared.
    low = np.iinfo(dtype).min if np.iinfo(dtype).min else 0
    f = np.linspace(max(low, -100), 100.9, 41)
    same(stride.lazy(f).astype(dtype), f.astype(dtype))
    i = extremes(dtype)
    for t in (np.float32, np.float64, np.int32, np.int64, np.bool_, np.int8,
              np.int16, np.uint8, np.uint16, np.uint32, np.uint64):
        with np.errstate(all="ignore"):
            same(stride.lazy(i).astype(t), i.astype(t))


def test_jit_with_unsigned_images():
    """An image kernel as users write it: uint8 in, float math, uint8 out."""
    @stride.jit
    def blend(a, b, alpha):
        mixed = a.astype(np.float32) * alpha + b.astype(np.float32) * (1 - alpha)
        return np.clip(mixed, 0, 255).astype(np.uint8), np.max(a, axis=2)

    rng = np.random.default_rng(3)
    a = rng.integers(0, 256, (33, 70, 3), dtype=np.uint8)
    b = rng.integers(0, 256, (70, 33, 3), dtype=np.uint8).transpose(1, 0, 2)
    got = blend(a, b, 0.25)
    mixed = a.astype(np.float32) * 0.25 + b.astype(np.float32) * (1 - 0.25)
    same(got[0], np.clip(mixed, 0, 255).astype(np.uint8))
    same(got[1], np.max(a, axis=2))


def test_unsigned_semantics_differ_from_signed():
    """The ops whose answer depends on the sign, on the same bits."""
    a = np.array([[0, 1, 127, 128, 200, 255]], np.uint8).T
    b = np.array([0, 1, 2, 3, 7, 8, 9, 255], np.uint8)
    la, lb = stride.lazy(a), stride.lazy(b)
    with np.errstate(all="ignore"):
        for got, want in ((la // lb, a // b), (la % lb, a % b),
                          (la < lb, a < b), (la >= lb, a >= b),
                          (np.maximum(la, lb), np.maximum(a, b)),
                          (np.minimum(la, lb), np.minimum(a, b)),
                          (la >> lb, a >> b), (la << lb, a << b),
                          (-la, -a), (np.abs(la), np.abs(a)),
                          (np.sign(la), np.sign(a)),
                          (np.reciprocal(la), np.reciprocal(a)),
                          (la ** lb, a ** b),
                          (np.clip(la, lb[2], lb[-2]), np.clip(a, b[2], b[-2])),
                          (la.astype(np.float32), a.astype(np.float32)),
                          (la.astype(np.int64), a.astype(np.int64)),
                          (np.max(la, axis=0), np.max(a, axis=0)),
                          (np.argmax(la, axis=0), np.argmax(a, axis=0)),
                          (np.argmin(la + lb, axis=1), np.argmin(a + b, axis=1)),
                          (np.sum(la), np.sum(a)),
                          (stride.materialize(np.mean(la), policy="numpy"),
                           np.mean(a))):
            same(got, want)
    big = np.array([2 ** 63, 2 ** 64 - 1, 5], np.uint64)
    same(stride.lazy(big).astype(np.float64), big.astype(np.float64))
    same(stride.lazy(big) // np.uint64(3), big // np.uint64(3))
    same(np.max(stride.lazy(big)), np.max(big))


def test_jit_with_narrow_ints():
    @stride.jit
    def f(a, b, s):
        return (a * b + s) // 3, np.sum(a, axis=0), np.maximum(a, b).T

    a = np.arange(-60, 60, dtype=np.int8).reshape(10, 12)
    b = np.arange(120, dtype=np.int16).reshape(10, 12)[::-1]
    for _ in range(2):
        got = f(a, b, np.int8(5))
    want = ((a * b + np.int8(5)) // 3, np.sum(a, axis=0), np.maximum(a, b).T)
    for g, w in zip(got, want):
        same(g, w)


@pytest.mark.parametrize("dtype", (torch.int8, torch.int16, torch.uint8))
def test_torch_tensors_in_and_out(dtype):
    start = 0 if dtype == torch.uint8 else -64
    t = torch.arange(start, start + 120, dtype=dtype).reshape(10, 12).t()
    u = torch.arange(12, dtype=torch.int16)
    got = stride.materialize(stride.lazy(t) * 3 + stride.lazy(u)[:, None],
                             policy="torch")
    want = t * 3 + u[:, None]
    assert isinstance(got, torch.Tensor)
    assert got.dtype == want.dtype and got.stride() == want.stride()
    assert torch.equal(got, want)
