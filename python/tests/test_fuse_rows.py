"""Row loops (stride-fuse-rows): a reduction over the last axes, its producers
and the ops that broadcast it back run as one loop over blocks of rows. These
shapes are large enough for several blocks (32 KiB each by default): rows
that divide evenly, a prime number of short rows (left as separate kernels:
a block of one row would be too little work), 3-d inputs reduced over one
or two trailing axes, arrays that cross the 2 MiB threshold of the threaded
loop, and leaves of every broadcast kind (weights without the leading axis,
a column with it, 0-d values), checked against NumPy under both policies
and against the same program compiled unfused (fuse=False)."""
import numpy as np
import pytest

import stride


def softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def layer_norm(x, w, eps):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w


def centre_two_axes(x, w, eps):
    return (x - x.mean(axis=(-2, -1), keepdims=True)) * w + eps


def scale_by_column(x, c):
    return x / (np.abs(x).max(axis=-1, keepdims=True) + c)


SHAPES = [(300, 200), (257, 129), (4096, 8), (1024, 600), (64, 3, 100)]


def _rand(shape, dtype, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("policy", ["torch", "numpy"])
def test_softmax_and_layer_norm(shape, dtype, policy):
    x = _rand(shape, dtype, 1)
    w = _rand(shape[-1:], dtype, 2)
    eps = dtype(1e-5)
    tol = dict(rtol=2e-5, atol=1e-6) if dtype == np.float32 else dict(rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(stride.jit(softmax, policy=policy)(x), softmax(x), **tol)
    np.testing.assert_allclose(stride.jit(layer_norm, policy=policy)(x, w, eps),
                               layer_norm(x, w, eps), **tol)


@pytest.mark.parametrize("shape", [(64, 3, 100), (97, 5, 40)])
def test_two_trailing_axes(shape):
    x = _rand(shape, np.float32, 3)
    w = _rand(shape[-2:], np.float32, 4)
    got = stride.jit(centre_two_axes)(x, w, np.float32(0.5))
    np.testing.assert_allclose(got, centre_two_axes(x, w, np.float32(0.5)), rtol=2e-5, atol=1e-5)


def test_column_leaf_and_integers():
    x = _rand((500, 300), np.float64, 5)
    c = np.abs(_rand((500, 1), np.float64, 6)) + 1
    np.testing.assert_allclose(stride.jit(scale_by_column)(x, c), scale_by_column(x, c), rtol=1e-13)
    i = (_rand((600, 70), np.float64, 7) * 1000).astype(np.int32)

    def centred(i):
        return i - i.sum(axis=1, keepdims=True)

    got = stride.jit(centred)(i)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, centred(i))
    np.testing.assert_allclose(stride.jit(lambda i: i - i.mean(axis=1, keepdims=True),
                                          policy="numpy")(i),
                               i - i.mean(axis=1, keepdims=True), rtol=1e-12)


def test_result_read_by_later_ops():
    x = _rand((800, 256), np.float32, 8)

    def f(x):
        s = softmax(x)
        return s.sum(axis=0), s.T @ x[:, :4]

    col, prod = stride.jit(f)(x)
    np.testing.assert_allclose(col, softmax(x).sum(axis=0), rtol=1e-4)
    np.testing.assert_allclose(prod, softmax(x).T @ x[:, :4], rtol=1e-4, atol=1e-5)


LAYER_NORM = """
func.func @layer_norm(%x: tensor<1024x600xf32>, %w: tensor<600xf32>) -> tensor<*xf32> {
  %m = stride.mean %x axes [1] keepdims : tensor<1024x600xf32> -> tensor<*xf32>
  %c = stride.sub %x, %m : tensor<1024x600xf32>, tensor<*xf32> -> tensor<*xf32>
  %q = stride.square %c : tensor<*xf32> -> tensor<*xf32>
  %v = stride.mean %q axes [1] keepdims : tensor<*xf32> -> tensor<*xf32>
  %eps = arith.constant 1.0e-5 : f32
  %ve = stride.add %v, %eps : tensor<*xf32>, f32 -> tensor<*xf32>
  %sd = stride.sqrt %ve : tensor<*xf32> -> tensor<*xf32>
  %n = stride.div %c, %sd : tensor<*xf32>, tensor<*xf32> -> tensor<*xf32>
  %r = stride.mul %n, %w : tensor<*xf32>, tensor<600xf32> -> tensor<*xf32>
  return %r : tensor<*xf32>
}
"""


def test_same_values_as_separate_kernels():
    """Each op computes each element as the separate kernels do: the row
    loop and the unfused program (one kernel per op) agree bit for bit."""
    x = _rand((1024, 600), np.float32, 9)
    w = _rand((600,), np.float32, 10)
    fused = stride.compile(LAYER_NORM, "layer_norm")
    plain = stride.compile(LAYER_NORM, "layer_norm", fuse=False)
    np.testing.assert_array_equal(fused(x, w), plain(x, w))


REDUCTIONS = [np.max, np.min, np.sum, np.mean]
ELEMENTWISE = [lambda x, r: x - r, lambda x, r: x / (np.abs(r) + 1),
               lambda x, r: np.exp(x - r), lambda x, r: (x - r) * (x - r),
               lambda x, r: np.maximum(x, r) * 2]


@pytest.mark.parametrize("seed", range(4))
def test_random_reductions_broadcast_back(seed):
    """Random chains of one or two keepdims reductions over the trailing
    axes, each broadcast back through an elementwise op, times a weight row:
    shapes from 2 to 4096 rows (prime counts included), 2-d and 3-d, one or
    two reduced axes, both dtypes and policies. Each result is within four
    times NumPy's own error against a float64 run of the same program, or
    close to NumPy's."""
    import random
    rng, data = random.Random(seed), np.random.default_rng(seed)
    cases = 0
    while cases < 12:
        nd = rng.choice([2, 2, 3])
        shape = (rng.choice([2, 3, 64, 97, 128, 500, 1024, 4096, 257]),
                 *[rng.choice([1, 3, 8, 33, 100, 256, 1000]) for _ in range(nd - 1)])
        if np.prod(shape) > 3e6:
            continue
        cases += 1
        axes = tuple(range(nd - (rng.choice([1, 2]) if nd == 3 else 1), nd))
        dtype = rng.choice([np.float32, np.float64])
        x = data.standard_normal(shape).astype(dtype)
        w = data.standard_normal(shape[-1:]).astype(dtype)
        r1, r2 = rng.choice(REDUCTIONS), rng.choice(REDUCTIONS)
        e1, e2 = rng.choice(ELEMENTWISE), rng.choice(ELEMENTWISE)
        depth, policy = rng.choice([1, 2]), rng.choice(["torch", "numpy"])

        def f(x, w):
            y = e1(x, r1(x, axis=axes, keepdims=True))
            if depth == 2:
                y = e2(y, r2(y, axis=axes, keepdims=True))
            return y * w

        with np.errstate(all="ignore"):
            got = stride.jit(f, policy=policy)(x, w)
            want = f(x, w)
            exact = f(x.astype(np.float64), w.astype(np.float64))
        tol = 2e-4 if dtype == np.float32 else 1e-10
        assert got.shape == want.shape and got.dtype == want.dtype
        near = np.isclose(got, want, rtol=tol, atol=tol, equal_nan=True)
        with np.errstate(all="ignore"):
            ours = np.abs(got.astype(np.float64) - exact)
            theirs = np.abs(want.astype(np.float64) - exact)
        assert (near | (ours <= 4 * theirs)).all(), (shape, axes, dtype, policy)
