"""@stride.jit on plain NumPy functions: values and strides against NumPy and
PyTorch, one fused kernel per signature, the NumPy API on lazy expressions,
errors that name the function and the user's line, PyTorch tensors in and
out without copies."""
import numpy as np
import pytest

import stride
from helpers import elem_strides, make_view, random_shapes, torch


def gelu(x):
    return 0.5 * x * (1 + np.tanh(0.79788456 * (x + 0.044715 * x**3)))


def test_gelu_is_one_kernel_per_signature():
    f = stride.jit(gelu)
    x = np.linspace(-3, 3, 40, dtype=np.float32).reshape(4, 10)
    before = stride.cache_info()
    np.testing.assert_allclose(f(x), gelu(x), rtol=1e-6, atol=1e-6)
    after_first = stride.cache_info()
    assert after_first.misses == before.misses + 1  # one kernel for all ops
    for _ in range(3):
        got = f(x)
    assert stride.cache_info().misses == after_first.misses  # no recompiling
    assert len(f._plans) == 1 and got.dtype == np.float32
    f(x.T)  # another layout: another signature, another kernel
    assert len(f._plans) == 2 and stride.cache_info().misses == after_first.misses + 1


def test_decorator_with_options():
    @stride.jit(policy="numpy")
    def f(a, b):
        return np.maximum(a, b) - np.minimum(a, b)

    a = np.random.default_rng(0).random((3, 4)).T
    got = f(a, 0.5)
    np.testing.assert_allclose(got, np.maximum(a, 0.5) - np.minimum(a, 0.5))
    assert got.strides == np.maximum(a, 0.5).strides
    with pytest.raises(ValueError, match="unknown policy"):
        stride.jit(policy="fortran")(gelu)


NUMPY_FUNCS = [
    lambda x, y: np.exp(x) + np.log(np.abs(y) + 1),
    lambda x, y: np.sqrt(np.abs(x)) * np.tanh(y),
    lambda x, y: np.where(x > y, x, -y),
    lambda x, y: np.clip(x, -0.5, 0.5) + np.negative(y),
    lambda x, y: np.add(x, y) - np.subtract(x, y) * np.multiply(x, 2) / np.divide(y + 3, 2),
    lambda x, y: (np.less(x, y) | False) if False else np.less_equal(x, y),
    lambda x, y: np.power(np.abs(x), 2) + np.greater_equal(x, y).astype(np.float32),
    lambda x, y: np.maximum(x, y) * np.minimum(x, y) + (x != y),
    lambda x, y: np.absolute(x).astype(np.float64) + np.equal(x, y),
]


@pytest.mark.parametrize("policy", ["numpy", "torch"])
@pytest.mark.parametrize("k", range(len(NUMPY_FUNCS)))
def test_numpy_functions_values_and_strides(k, policy):
    """Every op through the NumPy API, on random layouts; strides compared
    with NumPy's (policy numpy) or PyTorch's (policy torch) for the same
    function run eagerly."""
    fn = NUMPY_FUNCS[k]
    f = stride.jit(fn, policy=policy)
    for seed in range(4):
        rng = np.random.default_rng(100 * k + seed)
        _, (s1, s2) = random_shapes(rng, 2, allow_zero=False)
        layouts = ["c", "perm", "sliced", "broadcast", "size1"]
        x = make_view(rng, s1, layouts[seed % 5])
        y = make_view(rng, s2, layouts[(seed + 2) % 5])
        with np.errstate(all="ignore"):
            want = np.asarray(fn(x.np, y.np))
            got = f(x.np, y.np)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        if policy == "numpy" and "where" not in str(fn.__code__.co_names):
            assert elem_strides(got) == elem_strides(want)
        if policy == "torch" and torch is not None:
            ref = torch_eager(k, x.torch(), y.torch())
            assert elem_strides(got) == tuple(ref.stride()) or got.size <= 1


def torch_eager(k, x, y):
    t = torch
    return [
        lambda: t.exp(x) + t.log(t.abs(y) + 1),
        lambda: t.sqrt(t.abs(x)) * t.tanh(y),
        lambda: t.where(x > y, x, -y),
        lambda: t.clamp(x, -0.5, 0.5) + t.neg(y),
        lambda: (x + y) - (x - y) * (x * 2) / ((y + 3) / 2),
        lambda: x <= y,
        lambda: t.abs(x) ** 2 + (x >= y).float(),
        lambda: t.maximum(x, y) * t.minimum(x, y) + (x != y),
        lambda: t.abs(x).double() + (x == y),
    ][k]()


def test_matmul_operator_and_function():
    @stride.jit
    def f(a, b):
        return np.matmul(a, b) + a @ b

    rng = np.random.default_rng(1)
    a, b = rng.random((3, 4)), rng.random((4, 2))
    np.testing.assert_allclose(f(a, b), 2 * (a @ b))


def test_multiple_results_and_out():
    @stride.jit
    def f(x, y, o):
        np.multiply(x, 2, out=o)
        return x + y, x - y

    x, y = np.arange(6.0).reshape(2, 3), np.ones(3)
    o = np.zeros((2, 3))
    s, d = f(x, y, o)
    np.testing.assert_array_equal(s, x + y)
    np.testing.assert_array_equal(d, x - y)
    np.testing.assert_array_equal(o, 2 * x)
    o[...] = 0
    f(x, y, o)  # the cached plan writes out= too
    np.testing.assert_array_equal(o, 2 * x)

    @stride.jit
    def inplace(x):
        np.add(x, x[::-1], out=x)  # out= overlapping an input: NumPy's answer

    v = np.arange(5.0)
    inplace(v)
    np.testing.assert_array_equal(v, np.arange(5.0) + np.arange(5.0)[::-1])

    @stride.jit
    def after(x):
        np.add(x, 1, out=x)
        return x * 2  # NumPy reads the new x, and so does the trace

    v = np.ones(3)
    np.testing.assert_array_equal(after(v), [4, 4, 4])
    np.testing.assert_array_equal(v, [2, 2, 2])


def test_control_flow_on_shapes_works_and_on_data_is_an_error():
    @stride.jit
    def f(x):
        if x.ndim == 2 and x.shape[0] > 2:
            return np.exp(x)
        return -x

    np.testing.assert_allclose(f(np.ones((3, 2))), np.exp(np.ones((3, 2))))
    np.testing.assert_array_equal(f(np.ones((2, 2))), -np.ones((2, 2)))

    @stride.jit
    def g(x):
        if (x > 0).any():
            return x
        return -x

    @stride.jit
    def h(x):
        if x[0] > 0:
            return x
        return -x

    with pytest.raises(TypeError, match=r"truth value of a lazy stride expression.*test_jit.py:\d+: if \(x > 0\).any"):
        g(np.ones(3))
    with pytest.raises(TypeError):
        h(np.ones(3))

    @stride.jit
    def k(x):
        y = np.exp(x)
        if y > 1:  # data-dependent: the line is named
            return y
        return x

    with pytest.raises(TypeError, match=r"data-dependent.*test_jit.py:\d+: if y > 1"):
        k(np.ones(3))


def test_unsupported_function_names_it_and_the_line():
    # (NumPy's cumsum, with or without out=, and np.add.at run between
    # kernels: test_host_calls; in a fori_loop body nothing can.)
    @stride.jit
    def f(x, o):
        return stride.fori_loop(0, 2, lambda i, v: np.add.at(v, [0], 1) + v, x)

    with pytest.raises(TypeError, match=r"numpy.add.at is not supported.*test_jit.py:\d+: return stride.fori_loop\(0, 2, lambda i, v: np.add.at"):
        f(np.ones(3), np.ones(3))


def test_scalar_arguments_are_not_baked_in():
    @stride.jit
    def f(x, s):
        return x * s

    x = np.arange(4, dtype=np.int32)
    misses = stride.cache_info().misses
    np.testing.assert_array_equal(f(x, 3), x * 3)
    np.testing.assert_array_equal(f(x, 5), x * 5)
    # A Python int is a trace-time constant (one plan per value), read by
    # the kernel as a scalar argument: one kernel for both.
    assert len(f._plans) == 2
    assert stride.cache_info().misses - misses <= 1
    assert f(x, 2**40).dtype == (x * 2**40).dtype  # value-based: int64
    assert f(x, 2.5).dtype == np.float64
    np.testing.assert_array_equal(f(x, 2.5), x * 2.5)
    np.testing.assert_array_equal(f(x, 0.5), x * 0.5)
    assert len(f._plans) == 4                     # floats: one plan


def test_element_values_guard_promotion_only_where_they_can_decide():
    """x * y[0]: NumPy 1.24 reads y[0]'s value to promote. With a float32 x
    a large float64 value gives float64, so each call checks the value's
    class; with a float64 x no value can change the result, so the plan
    has no guard (an unrolled loop of such reads paid one per element)."""
    @stride.jit
    def f(x, y):
        return x * y[0] + x * y[1]

    x32, x64 = np.ones(3, np.float32), np.ones(3)
    small, large = np.array([1.5, 2.0]), np.array([1e300, 2.0])
    for x, y in ((x32, small), (x32, large), (x64, small), (x64, large)):
        got, want = f(x, y), x * y[0] + x * y[1]
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    plans = {k: p for k, p in f._plans.items()}
    guards = [p.guards for p in plans.values()]
    assert any(g is not None for g in guards)  # the float32 plans
    assert any(g is None for g in guards)      # the float64 one


def test_bool_bytes_and_aliasing_per_call():
    @stride.jit
    def f(m, a, b):
        return np.where(m, a, b)

    a, b = np.arange(4.0), -np.ones(4)
    m = np.array([2, 1, 0, 208], np.uint8).view(np.bool_)
    np.testing.assert_array_equal(f(m, a, b), np.where(m, a, b))
    np.testing.assert_array_equal(f(m, a, a), a)  # the same array twice


needs_torch = pytest.mark.skipif(torch is None, reason="needs torch")


@needs_torch
def test_torch_tensors_in_and_out_without_copies():
    @stride.jit
    def f(x, y):
        return np.maximum(x, y) * 2

    x = torch.rand(2, 3, 4, 5).to(memory_format=torch.channels_last)
    y = torch.rand(1, 3, 1, 1).expand(2, 3, 4, 5)  # stride-0 view
    got = f(x, y)
    want = torch.maximum(x, y) * 2
    assert isinstance(got, torch.Tensor)
    assert got.stride() == want.stride()
    torch.testing.assert_close(got, want)
    # zero-copy in: the kernel reads the tensors' memory, so writing it shows
    x.fill_(5.0)
    torch.testing.assert_close(f(x, y), torch.full_like(want, 10.0))
    # zero-copy out: the tensor is a view of the kernel's output array
    r = stride.materialize(stride.lazy(x) + 1)
    assert isinstance(r, torch.Tensor) and r.stride() == (x + 1).stride()


@needs_torch
def test_torch_out_and_requires_grad():
    x = torch.rand(3, 4)
    o = torch.empty(4, 3).T
    assert stride.materialize(stride.lazy(x) * 2, out=o) is o
    torch.testing.assert_close(o, x * 2)
    np.add(stride.lazy(x), 1, out=o)
    torch.testing.assert_close(o, x + 1)
    w = torch.rand(3, requires_grad=True)
    with pytest.raises(TypeError, match="requires grad"):
        stride.lazy(w)
    with pytest.raises(TypeError, match="requires grad"):
        stride.jit(gelu)(w)


def test_random_traced_functions_against_numpy():
    """Random compositions of the NumPy API, traced and run twice (the second
    call through the cached plan), against NumPy's values and strides."""
    unary = [np.exp, np.tanh, np.negative, np.abs, lambda v: np.clip(v, -1, 1)]
    binary = [np.add, np.multiply, np.maximum, np.minimum, np.subtract]
    for seed in range(12):
        rng = np.random.default_rng(seed)
        steps = [(int(rng.integers(0, 2)), int(rng.integers(0, 5)), int(rng.integers(0, 9)))
                 for _ in range(int(rng.integers(1, 5)))]

        def fn(x, y, steps=steps):
            vals = [x, y]
            for kind, op, arg in steps:
                a = vals[arg % len(vals)]
                b = vals[(arg + 1) % len(vals)]
                vals.append(unary[op](a) if kind == 0 else binary[op](a, b))
            return vals[-1]

        _, (s1, s2) = random_shapes(rng, 2, allow_zero=False)
        x = make_view(rng, s1, "mixed").np
        y = make_view(rng, s2, "perm").np
        f = stride.jit(fn, policy="numpy")
        with np.errstate(all="ignore"):
            want = np.asarray(fn(x, y))
            for _ in range(2):
                got = f(x, y)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        assert got.dtype == want.dtype
        assert elem_strides(got) == elem_strides(want), steps


# NumPy's elementwise op set reaches @stride.jit through the ufunc table:
# every op the dialect has is callable under its NumPy name.
_FLOAT_ARGS = {"arccosh": 1.5, "arcsin": 0.5, "arccos": 0.5, "arctanh": 0.5}


@pytest.mark.parametrize("name", sorted(stride._table.UFUNC_OPS))
def test_jit_numpy_op_set(name):
    ufunc = getattr(np, name)
    if name.startswith(("bitwise", "left", "right")) or name in (
            "remainder", "floor_divide", "invert"):
        args = [np.arange(1, 7, dtype=np.int64).reshape(2, 3).T,
                np.int64(2)][:ufunc.nin]
    elif name.startswith("logical"):
        args = [np.array([[True, False], [True, True]]),
                np.array([False, True])][:ufunc.nin]
    else:
        scale = _FLOAT_ARGS.get(name, 1.0)
        x = np.linspace(0.1, 0.9, 6).reshape(3, 2).T * scale
        if name == "arccosh":
            x = x + 1.0
        args = [x, np.float64(0.7)][:ufunc.nin]
    traced = stride.jit(lambda *a: ufunc(*a))
    got = traced(*args)
    want = ufunc(*args)
    assert got.dtype == want.dtype, name
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=0)


def test_arrays_from_lists_of_lazy_values():
    """np.array / np.asarray of (nested) lists holding lazy values stack
    them lazily, in the shape and dtype NumPy's conversion gives (a float32
    element beside a Python float makes float64); a ragged list is NumPy's
    ValueError."""
    from helpers import jit_like_numpy
    x = np.arange(6.0).reshape(2, 3).astype(np.float32)

    def fn(x):
        v = np.array([x[0, 0], x[1, 2] * 2])
        w = np.array([x[0, 0], 1.0])
        m = np.array([[x[0, 0], 2], [3, x[1, 1]]]) @ x[:, :2]
        rows = np.asarray([x[0], x[1] + 1])
        stats = np.array((x.sum(), x.max()), dtype=np.float64)
        return v, w, m, rows, stats, np.array([x[0]]) * 2
    jit_like_numpy(fn, [(x,), (x[::-1] * 3,)], rtol=1e-6)
    with pytest.raises(ValueError, match="inhomogeneous"):
        stride.jit(lambda x: np.array([x[0], x[1, :2]]))(x)


def test_zero_d_results_are_numpy_scalars():
    """Found: x.sum() came back as a 0-d ndarray, which f"{r:.3f}", hash()
    and isinstance(r, float) refuse or deny; NumPy gives a NumPy scalar
    for computed 0-d values. Arrays the function was given or made stay
    arrays, and torch tensors give 0-d tensors as PyTorch does."""
    x = np.arange(6.0)
    fns = [lambda x: x.sum(), lambda x: x[2], lambda x: x.sum() * 2,
           lambda x: x.argmax(), lambda x: (x > 2).any(),
           lambda x: (x.sum(), x * 2, x.max())]
    for fn in fns:
        got, want = stride.jit(fn)(x), fn(x)
        for g, w in zip(got if isinstance(got, tuple) else (got,),
                        want if isinstance(want, tuple) else (want,)):
            assert type(g) is type(w) and g.dtype == w.dtype
            np.testing.assert_array_equal(g, w)
    # Views of a computed 0-d value are NumPy scalars too (np.inner and
    # np.einsum end in one, and the matrix 1-norm did); 0-d views of arrays
    # stay arrays.
    m = x.reshape(2, 3)
    fns = [lambda x: np.sum(x).T, lambda x: x.sum().reshape(()),
           lambda x: np.inner(x, x), lambda x: np.einsum("i,i", x, x),
           lambda m: np.linalg.norm(m, 1), lambda m: np.linalg.norm(m, np.inf),
           lambda m: np.corrcoef(m)[0, 1],
           lambda x: x.sum(keepdims=True).reshape(()),
           lambda x: (x * 2)[1:2].reshape(())]
    for fn in fns:
        arg = m if fn.__code__.co_varnames[0] == "m" else x
        got, want = stride.jit(fn)(arg), fn(arg)
        assert type(got) is type(want), fn
        np.testing.assert_allclose(got, want, rtol=1e-12)
    r = stride.jit(lambda x: x.mean())(x)
    assert f"{r:.3f}" == "2.500" and isinstance(r, float) and hash(r)
    zero_d = np.asarray(3.0)
    assert type(stride.jit(lambda z: z)(zero_d)) is np.ndarray
    made = stride.jit(lambda x: np.zeros(()) + 0)(x)
    assert type(made) is type(np.zeros(()) + 0)
    if torch is not None:
        t = stride.jit(lambda x: x.sum())(torch.arange(6.0))
        assert isinstance(t, torch.Tensor) and t.shape == () and t == 15



def test_jit_functions_call_each_other_and_take_keywords():
    """Found: a @stride.jit function called by another as it is traced was
    a TypeError (its arguments were lazy values), and keyword arguments
    were refused. The callee is now part of the caller's trace, and
    keywords bind as Python binds them (keyword-only ones too)."""
    def affine(x, scale=2.0, *, shift=1):
        return x * scale + shift

    def stats(x):
        return x.sum(axis=0), x.max()

    def make_caller(affine, stats):
        def caller(x):
            y = affine(x) + affine(x, scale=3.0, shift=-1)
            s, m = stats(y)
            acc = np.zeros_like(x)
            for k in range(3):
                acc += affine(x, float(k))
            return y - s / m, acc
        return caller

    jitted = stride.jit(affine)
    x = np.random.default_rng(0).random((4, 5))
    got = stride.jit(make_caller(jitted, stride.jit(stats)))(x)
    for g, w in zip(got, make_caller(affine, stats)(x)):
        np.testing.assert_allclose(g, w, rtol=1e-12)
    np.testing.assert_allclose(jitted(x, shift=5), x * 2 + 5, rtol=1e-12)
    np.testing.assert_allclose(jitted(x=x, scale=0.5), x * 0.5 + 1,
                               rtol=1e-12)
    with pytest.raises(TypeError, match="unexpected keyword argument 'bad'"):
        jitted(x, bad=1)
