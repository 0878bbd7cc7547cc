"""Property test (hypothesis): random expression trees over leaves of mixed
dtypes and layouts, sometimes written into an out= that may be one of the
leaves. Values and dtypes are compared with NumPy (1.24 promotion), result
strides with NumPy op by op (policy numpy) and with PyTorch op by op (policy
torch; PyTorch's own dtypes differ, its layout rules do not depend on them).

Leaves include 0-d arrays and NumPy scalars holding large and small values
of every dtype (855410396 as int32, 2**40 as int64, 1e30 and 1e-30, -0.0,
inf, nan, True, ...): NumPy 1.24's value-based promotion reads their values,
also through 0-d intermediate results.

The suite runs 200 examples. A longer run, outside the suite:
STRIDE_PROPERTY_EXAMPLES=2000 STRIDE_PROPERTY_POLICIES=numpy pytest
python/tests/test_properties.py (then policies=torch), with
STRIDE_PROPERTY_RANDOM=1 for examples other than the suite's; the cases such
runs found are kept as regular tests at the end of this file."""
import os

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")  # Debian: python3-hypothesis
from hypothesis import HealthCheck, given, settings, strategies as st

import stride
from helpers import elem_strides, make_view, random_shapes, torch

DTYPES = [np.float32, np.float64, np.int32, np.int64, np.bool_, np.int8, np.int16,
          np.uint8, np.uint16, np.uint32, np.uint64]
LAYOUTS = ["c", "perm", "sliced", "broadcast", "size1", "mixed"]
# PyTorch 1.13 has no uint16, uint32 or uint64 tensors. The torch policy's
# layout oracle runs those leaves as the signed type of the same size:
# TensorIterator's layout rules do not read dtypes, so the strides are the
# ones a torch of those dtypes would give (values come from NumPy anyway).
TORCH_STANDIN = {np.dtype(np.uint16): np.int16, np.dtype(np.uint32): np.int32,
                 np.dtype(np.uint64): np.int64}


def _torch_name(dtype):
    return np.dtype(TORCH_STANDIN.get(np.dtype(dtype), dtype)).name
EXAMPLES = int(os.environ.get("STRIDE_PROPERTY_EXAMPLES", "200"))
POLICIES = os.environ.get("STRIDE_PROPERTY_POLICIES", "numpy,torch").split(",")
# The suite draws the same examples every run; STRIDE_PROPERTY_RANDOM=1 draws
# new ones (pytest's --hypothesis-seed then picks them).
DERANDOMIZE = os.environ.get("STRIDE_PROPERTY_RANDOM") != "1"


class Tree:
    """Ops drawn by hypothesis, evaluated by each library in the same order."""

    def __init__(self, draw, nleaves):
        self.ops = []
        dtypes = {}
        for _ in range(draw(st.integers(1, 5))):
            kind = draw(st.sampled_from(["add", "mul", "maximum", "minimum",
                                         "lt", "where", "neg", "abs", "astype"]))
            args = [draw(st.integers(0, nleaves + len(self.ops) - 1))
                    for _ in range(3)]
            self.ops.append((kind, args, draw(st.sampled_from(DTYPES))))

    def __repr__(self):
        return repr(self.ops)

    def evaluate(self, lib, leaves):
        values = list(leaves)
        if lib == "numpy":
            self.undefined = False
        for kind, args, dtype in self.ops:
            a, b, c = (values[i] for i in args)
            if lib == "numpy" and kind == "astype" and _undefined_cast(a, dtype):
                self.undefined = True
            values.append(_apply(lib, kind, a, b, c, dtype))
        return values[-1]


def _undefined_cast(a, dtype):
    """A float NaN, infinity or out-of-range value cast to an integer: C
    leaves the result undefined (NumPy and a compiled kernel may differ)."""
    a = np.asarray(a)
    if a.dtype.kind != "f" or np.dtype(dtype).kind not in "iu":
        return False
    info = np.iinfo(dtype)
    with np.errstate(all="ignore"):
        t = np.trunc(a.astype(np.float64))
        return bool(np.any(~np.isfinite(t) | (t < info.min) | (t > info.max)))


# 0-d operands whose values NumPy 1.24's value-based promotion reads: values
# that fit a smaller type and ones that do not (855410396 does not fit
# float32 exactly, so int32 0-d - float32 array is float64), per dtype.
SPECIAL_VALUES = {
    np.int32: [855410396, -855410396, 2**31 - 1, -2**31, 70000, -40000, 200,
               3, 0, -1],
    np.int64: [2**40, -2**40, 2**62, 2**63 - 1, 2**31, 2**32 - 1, 855410396,
               70000, 3, -1],
    np.float32: [1e30, -1e30, 1e-30, -0.0, np.inf, -np.inf, np.nan, 3e38,
                 70000.5, 0.5],
    np.float64: [1e300, -1e300, 1e30, 1e-30, -0.0, np.inf, np.nan, 5e38,
                 855410396.0, 0.5],
    np.bool_: [True, False],
    np.int8: [127, -128, 100, -100, 3, 0, -1],
    np.int16: [32767, -32768, 300, -300, 200, 3, 0, -1],
    np.uint8: [255, 128, 127, 3, 0],
    np.uint16: [65535, 32768, 300, 3, 0],
    np.uint32: [2**32 - 1, 2**31, 855410396, 70000, 0],
    np.uint64: [2**64 - 1, 2**63, 2**40, 3, 0],
}


class Zero:
    """A 0-d leaf: a 0-d array or a NumPy scalar holding a special value."""

    def __init__(self, dtype, value, scalar):
        with np.errstate(all="ignore"):
            arr = np.array(value, dtype=dtype)
        self.np = arr[()] if scalar else arr
        self.shape, self.strides = (), ()

    def torch(self):
        a = np.array(self.np)
        return torch.from_numpy(a.view(TORCH_STANDIN.get(a.dtype, a.dtype)))


def _is_bool(x):
    return (x.dtype == torch.bool) if torch is not None and isinstance(
        x, torch.Tensor) else np.dtype(x.dtype) == np.bool_


def _apply(lib, kind, a, b, c, dtype):
    if lib == "torch":
        fn = {"add": torch.add, "mul": torch.mul, "maximum": torch.maximum,
              "minimum": torch.minimum, "lt": torch.lt}
        if kind in fn:
            if kind == "add" and _is_bool(a) and _is_bool(b):
                return torch.logical_or(a, b)
            return fn[kind](a, b)
        if kind == "where":
            return torch.where(a != 0, b, c)
        if kind in ("neg", "abs"):
            return a if _is_bool(a) else (torch.neg(a) if kind == "neg" else torch.abs(a))
        return a.to(getattr(torch, _torch_name(dtype)))
    if lib == "numpy":
        fn = {"add": np.add, "mul": np.multiply, "maximum": np.maximum,
              "minimum": np.minimum, "lt": np.less}
        if kind in fn:
            return fn[kind](a, b)
        if kind == "where":
            return np.where(a != 0, b, c)
        if kind in ("neg", "abs"):
            return a if _is_bool(a) else (np.negative if kind == "neg" else np.abs)(a)
        # Stride's astype to the own dtype is the expression itself (see
        # docs/python.md), NumPy's with copy=False: a copy of a copy can be
        # laid out differently from one copy.
        return np.asarray(a).astype(dtype, copy=False)
    x = stride.lazy(a) if isinstance(a, np.ndarray) else a
    if not isinstance(x, stride.Expr) and isinstance(b, np.ndarray):
        # A scalar first operand: the op must still be Stride's, not
        # NumPy's (whose result layout the torch policy would then read).
        b = stride.lazy(b)
    fn = {"add": lambda: x + b, "mul": lambda: x * b, "lt": lambda: x < b,
          "maximum": lambda: stride.maximum(x, b),
          "minimum": lambda: stride.minimum(x, b)}
    if kind in fn:
        return fn[kind]()
    if kind == "where":
        return stride.where(x != 0, b, c)
    if kind in ("neg", "abs"):
        return x if _is_bool(x) else (-x if kind == "neg" else stride.abs(x))
    return x.astype(dtype)


def _element_view(dtype, shape, strides):
    """A view of 1, 2, ... 199 as `dtype` with element `strides`."""
    base = np.arange(1, 200).astype(dtype)
    return np.lib.stride_tricks.as_strided(
        base, shape, tuple(s * base.itemsize for s in strides))


def _copied(value, leaves):
    """NumPy's eager result, or its copy (np.array(order="K"), the layout
    a ufunc gives) where the tree returned a leaf itself: -x and abs(x) of
    a bool leaf are that leaf here, and materialize copies it."""
    if any(value is v.np for v in leaves):
        return np.array(value, order="K")
    return value


def _torch_leaf(v):
    """The leaf as a tensor over its memory, unsigned types as stand-ins."""
    standin = TORCH_STANDIN.get(v.np.dtype)
    if standin is None or isinstance(v, Zero):
        return v.torch()
    return torch.as_strided(torch.from_numpy(v.base.view(standin)), v.shape,
                            v.strides, v.offset)


@st.composite
def cases(draw):
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    nleaves = draw(st.integers(1, 3))
    _, shapes = random_shapes(rng, nleaves, allow_zero=False)
    leaves = []
    for s in shapes:
        dtype = draw(st.sampled_from(DTYPES))
        if draw(st.integers(0, 2)) == 0:  # a 0-d array or NumPy scalar
            leaves.append(Zero(dtype, draw(st.sampled_from(SPECIAL_VALUES[dtype])),
                               draw(st.booleans())))
        else:
            leaves.append(make_view(rng, s, draw(st.sampled_from(LAYOUTS)), dtype))
    return leaves, Tree(draw, nleaves), draw(st.sampled_from(["none", "fresh", "leaf"]))


@settings(max_examples=EXAMPLES, deadline=None, derandomize=DERANDOMIZE,
          suppress_health_check=list(HealthCheck))
@given(cases(), st.sampled_from(POLICIES))
def test_random_mixed_dtype_trees(case, policy):
    leaves, tree, out_kind = case
    hypothesis.note(f"leaves {[(v.np.dtype.str, v.shape, v.strides) if v.shape else repr(v.np) for v in leaves]}")
    if policy == "torch" and torch is None:
        pytest.skip("needs torch")
    with np.errstate(all="ignore"):
        want = np.asarray(tree.evaluate("numpy", [v.np for v in leaves]))
        expr = tree.evaluate("stride", [v.np for v in leaves])
    if not isinstance(expr, stride.Expr):
        return  # a leaf itself (astype to its own dtype), or NumPy scalars only
    if tree.undefined:
        return  # a float cast to an integer it does not fit (undefined in C)
    if out_kind == "none":
        got = stride.materialize(expr, policy=policy)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        if policy == "numpy":
            assert elem_strides(got) == elem_strides(_copied(want, leaves))
        else:
            inputs = [_torch_leaf(v) for v in leaves]
            ref = tree.evaluate("torch", inputs)
            if any(ref is t for t in inputs):
                ref = ref.clone()  # what materializing a bare leaf means
            assert elem_strides(got) == elem_strides(ref) or got.size <= 1
        return
    # out=: a fresh array in a random layout, or a leaf of the right shape
    # and dtype (the tree then overwrites its own input, as x += ... does).
    targets = [v.np for v in leaves
               if v.np.shape == want.shape and v.np.dtype == want.dtype
               and v.np.flags.writeable and all(
                   s != 0 or n <= 1 for n, s in zip(v.np.shape, v.np.strides))]
    if out_kind == "leaf" and targets:
        out = targets[0]
    else:
        rng = np.random.default_rng(len(tree.ops))
        out = make_view(rng, want.shape, "perm", want.dtype).np
    strides = out.strides
    got = stride.materialize(expr, out=out)
    assert got is out and out.strides == strides
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-6)


# 0-d operands meeting arrays: NumPy 1.24 promotes by the 0-d operand's
# value (a 0-d array, NumPy scalar or Python scalar, or a 0-d result computed
# from them, which NumPy holds as a scalar), eagerly and under @stride.jit,
# where two calls with the same dtypes and layouts may pass 0-d values of
# different classes.
ZERO_D_PRE = [None, "neg", "abs", "astype", "add", "log"]
ZERO_D_OPS = ["add", "sub", "mul", "maximum", "minimum", "where", "lt"]


def _zero_d_pre(lib, s, pre, dtype, sdtype):
    """The 0-d operand: `s` (of dtype `sdtype`) itself or a 0-d result made
    from it alone."""
    if pre is None:
        return s
    x = stride.lazy(s) if lib == "stride" and isinstance(s, np.ndarray) else s
    m = stride if lib == "stride" else np
    if pre == "neg":
        return x if np.dtype(sdtype) == np.bool_ else -x
    if pre == "abs":
        return m.abs(x)
    if pre == "astype":
        if lib == "numpy":
            return np.asarray(s).astype(dtype)
        return stride.lazy(x if isinstance(x, stride.Expr) else np.asarray(s)).astype(dtype)
    if pre == "add":
        return x + s  # s + s, NumPy's scalar there
    return m.log(x)


def _zero_d_op(lib, op, s, x, left):
    a, b = (s, x) if left else (x, s)
    m = stride if lib == "stride" else np
    if lib == "stride" and isinstance(a, np.ndarray):
        a = stride.lazy(a)
    if op == "where":
        return m.where(x > 0.5, a, b)
    if op == "lt":
        return a < b
    if op in ("maximum", "minimum"):
        return getattr(m, op)(a, b)
    return {"add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b}[op]()


def _zero_d_input(dtype, value, form):
    with np.errstate(all="ignore"):
        arr = np.array(value, dtype=dtype)
    if form == "array":
        return arr
    if form == "numpy":
        return arr[()]
    return arr.item()  # a Python bool, int or float


def _numpy_zero_d(fn, *args):
    try:
        with np.errstate(all="ignore"):
            return np.asarray(fn("numpy", *args))
    except (TypeError, ValueError):
        return None


@st.composite
def zero_d_cases(draw):
    dtype = draw(st.sampled_from(DTYPES))
    values = draw(st.lists(st.sampled_from(SPECIAL_VALUES[dtype]), min_size=2,
                           max_size=2))
    form = draw(st.sampled_from(["array", "numpy", "python"]))
    pre = draw(st.sampled_from(ZERO_D_PRE))
    cast_to = draw(st.sampled_from(DTYPES))
    op = draw(st.sampled_from(ZERO_D_OPS))
    xdtype = draw(st.sampled_from(DTYPES))
    shape = draw(st.sampled_from([(3,), (2, 3)]))
    return dtype, values, form, pre, cast_to, op, xdtype, shape, draw(st.booleans())


@settings(max_examples=max(EXAMPLES // 2, 1), deadline=None,
          derandomize=DERANDOMIZE, suppress_health_check=list(HealthCheck))
@given(zero_d_cases())
def test_zero_d_operands_promote_like_numpy(case):
    """Found: np.array(855410396, np.int32) - x_f32 is float64 in NumPy
    1.24 (the value does not fit float32 exactly), and @stride.jit reused
    the float32 kernel of a smaller 0-d value; a 0-d result (abs(s) of a
    large s) counted as a small value."""
    dtype, values, form, pre, cast_to, op, xdtype, shape, left = case
    x = np.linspace(-1, 1, int(np.prod(shape))).reshape(shape).astype(xdtype)
    undefined = pre == "astype" and any(
        _undefined_cast(_zero_d_input(dtype, v, "array"), cast_to) for v in values)
    if undefined or (pre == "log" and dtype in (np.bool_, np.int8, np.uint8)):
        return  # undefined in C; float16 in NumPy (a TypeError here)

    def fn(lib, s, x):
        return _zero_d_op(lib, op, _zero_d_pre(lib, s, pre, cast_to, dtype),
                          x, left)

    traced = stride.jit(lambda s, x: fn("stride", s, x))
    # A Python scalar argument is traced as a 0-d array: Python's own
    # arithmetic on it (True + True is 2) is not followed (docs/python.md).
    check_jit = form != "python" or pre not in ("neg", "add")
    for value in values:
        s = _zero_d_input(dtype, value, form)
        want = _numpy_zero_d(fn, s, x)
        if want is None or want.dtype not in DTYPES:
            # NumPy refuses (bool subtract, ...) or gives a dtype Stride does
            # not support (log of a bool is float16): a TypeError here.
            with pytest.raises((TypeError, ValueError)):
                stride.materialize(fn("stride", s, x))
            continue
        with np.errstate(all="ignore"):
            results = [stride.materialize(fn("stride", s, x))]
            if check_jit:
                results.append(traced(s, x))
        for result in results:
            assert result.dtype == want.dtype, (result.dtype, want.dtype, s)
            # float64 values must not have been computed in float32
            rtol = 1e-12 if want.dtype == np.float64 else 1e-6
            np.testing.assert_allclose(result, want, rtol=rtol, atol=0)


def test_zero_d_results_promote_by_their_value():
    """Found (issue 25): a 0-d result counted as a small value of its dtype,
    so abs(np.array(2**40)) + x_int32 was int32 and -np.array(855410396,
    np.int32) + x_float32 float32; NumPy 1.24 holds the 0-d result as a
    scalar and promotes by its value (int64, float64)."""
    i32 = np.arange(3, dtype=np.int32)
    f32 = np.linspace(0, 1, 3, dtype=np.float32)
    big = np.array(2**40)
    cases = [(lambda m, s, x: m.abs(s) + x, big, i32),
             (lambda m, s, x: -s + x, np.array(855410396, np.int32), f32),
             (lambda m, s, x: m.maximum(s, s) * x, np.array(1e300), f32),
             (lambda m, s, x: m.where(x > 0.5, x, s + s), np.array(70000, np.int32), f32),
             (lambda m, s, x: x - s.astype(np.int32), np.array(855410396.0), f32)]
    for fn, s, x in cases:
        with np.errstate(all="ignore"):
            want = fn(np, s, x)
            got = stride.materialize(fn(stride, stride.lazy(s), x))
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_small_and_large_unsigned_value_classes_are_told_apart():
    """Found (issue 25): 855410396 and 2**31 are both uint32 to
    np.min_scalar_type, but only the first fits int32 (NumPy's
    is_small_unsigned), so x_int32 + 855410396 is int32 and x_int32 + 2**31
    int64; the promotion memo and the @stride.jit signature keyed both
    alike and reused the int32 answer."""
    x = np.array([0, -3, 7], np.int32)
    f = stride.jit(lambda s, x: x + s)
    for s in (855410396, 2**31, np.array(855410396), np.array(2**31),
              np.int64(2**31 - 1), np.int64(2**31)):
        want = x + s
        for got in (stride.materialize(stride.lazy(x) + s), f(s, x)):
            assert got.dtype == want.dtype, s
            np.testing.assert_array_equal(got, want)


def test_jit_zero_d_values_of_another_class_get_their_own_kernel():
    """Found (issue 25): the signature held a 0-d argument's dtype only, so
    f(np.array(3, np.int32), x_f32) made a float32 kernel that
    f(np.array(855410396, np.int32), x_f32) reused; NumPy gives float64.
    0-d views and results, and closed-over 0-d arrays, are checked the same
    way (their value class is a guard of the plan)."""
    x = np.linspace(0, 1, 3, dtype=np.float32)
    small, large = np.array(3, np.int32), np.array(855410396, np.int32)
    element = np.array([3], np.int32), np.array([855410396], np.int32)
    const = np.array(3, np.int32)
    funcs = [(lambda s, x: s - x, (small, large, small)),
             (lambda s, x: np.abs(s) - x, (small, large, small)),
             (lambda a, x: a[0] - x, element + element[:1]),
             (lambda s, x: np.where(x > 0.5, s * 2, x), (small, large)),
             (lambda s, x: (s + 1e300) * x, (np.array(1.0), np.array(-2e300)))]
    for fn, values in funcs:
        f = stride.jit(fn)
        for s in values:
            with np.errstate(all="ignore"):
                want, got = fn(s, x), f(s, x)
            assert got.dtype == want.dtype, (fn, s)
            np.testing.assert_array_equal(got, want)
    f = stride.jit(lambda x: const - x)
    assert f(x).dtype == np.float32
    const[()] = 855410396  # read by reference: its class is checked per call
    assert f(x).dtype == np.float64
    np.testing.assert_array_equal(f(x), const - x)
    if torch is not None:
        g = stride.jit(lambda s, x: s - x)
        assert g(torch.tensor(3, dtype=torch.int32), x).dtype == torch.float32
        big = g(torch.tensor(855410396, dtype=torch.int32), x)
        assert big.dtype == torch.float64
        np.testing.assert_array_equal(big.numpy(), large - x)


# Cases the 2,000-example runs found, kept as regular tests.


@pytest.mark.parametrize("policy,strides", [("numpy", (1, 4, 4, 4)),
                                            ("torch", (1, 4, 16, 4))])
def test_bare_bool_leaf_is_copied_like_the_eager_library(policy, strides):
    """-x of a bool leaf is the leaf: materialize copies it, with NumPy's
    copy strides (np.array(x, order='K'), size-1 dims packed) or PyTorch's
    clone strides (a dense layout kept as it is)."""
    a = np.lib.stride_tricks.as_strided(
        np.arange(64) % 3 == 0, (4, 1, 1, 4), (1, 4, 16, 4))
    got = stride.materialize(stride.lazy(a), policy=policy)
    np.testing.assert_array_equal(got, a)
    assert elem_strides(got) == strides
    if policy == "numpy":
        eager = np.array(a, order="K")
    elif torch is None:
        pytest.skip("needs torch for PyTorch's clone strides")
    else:
        storage = torch.from_numpy(np.array(a).ravel())
        eager = storage.as_strided(a.shape, (1, 4, 16, 4)).clone()
    assert elem_strides(eager) == strides


def _size1_leaf():
    """A float32 (4, 1, 1, 4) view with element strides (1, 4, 16, 4)."""
    base = np.linspace(-1, 1, 64, dtype=np.float32)
    return np.lib.stride_tricks.as_strided(base, (4, 1, 1, 4), (4, 16, 64, 16))


def test_where_of_size1_dims_is_np_where_not_a_ufunc():
    """Found cases (policy numpy): where(a != 0, t, t) with t = a < a, and
    where(a != 0, a, a). np.where has no trivial loop (it allocates through
    nditer) and gives (1, 16, 16, 4) for both, where a three-operand ufunc
    on the same operands takes the trivial loop: clip(a, a, a) gives
    (1, 4, 4, 4). Stride's where is np.where (found again by the grammar
    test, seed 7, and fixed: layout::NumpyLoop::Where)."""
    a = _size1_leaf()
    t = a < a
    got = stride.materialize(stride.where(stride.lazy(a) != 0, t, t), policy="numpy")
    np.testing.assert_array_equal(got, np.where(a != 0, t, t))
    assert elem_strides(got) == elem_strides(np.where(a != 0, t, t)) == (1, 16, 16, 4)
    got = stride.materialize(stride.where(stride.lazy(a) != 0, a, a), policy="numpy")
    np.testing.assert_array_equal(got, a)
    assert elem_strides(got) == elem_strides(np.where(a != 0, a, a)) == (1, 16, 16, 4)
    assert elem_strides(np.core.umath.clip(a, a, a)) == (1, 4, 4, 4)
    # A ufunc over the same operands still takes the trivial loop.
    got = stride.materialize(stride.clip(stride.lazy(a), a, a), policy="numpy")
    assert elem_strides(got) == (1, 4, 4, 4)


# found by the 2,000-example torch run, PyTorch's .to(dtype) and clone()
# allocate with empty_like(preserve_format), which keeps a dense input's
# strides exactly, size-1 dims included ((4, 1) with strides (1, 4) stays (1,
# 4)); Stride used to lay a cast or copy out as a TensorIterator op, as
# torch.neg does ((1, 1)). Only a size-1 dim's stride differs.. Fixed by
# copyLikeStrides (lib/Layout).
@pytest.mark.parametrize("op", ["astype", "copy"])
def test_torch_cast_keeps_size1_strides_of_dense_input(op):
    if torch is None:
        pytest.skip("needs torch for the reference strides")
    b = np.lib.stride_tricks.as_strided(
        np.arange(4, dtype=np.float32), (4, 1), (4, 16))
    t = torch.from_numpy(b)
    if op == "astype":
        got = stride.materialize(stride.lazy(b).astype(np.float64), policy="torch")
        ref = t.to(torch.float64)
    else:
        got = stride.materialize(stride.lazy(b), policy="torch")
        ref = t.clone()
    np.testing.assert_array_equal(got, b)
    assert ref.stride() == (1, 4)
    assert elem_strides(got) == ref.stride()


# found by the 2,000-example torch run, on the CPU, TensorIterator converts an
# input whose dtype is not the common one with .to(common dtype) before it
# computes the output strides, and .to lays the copy out by
# empty_like(preserve_format) (for this stride-0 input: dense strides in its
# own dim order). Stride's torch policy saw the promotion cast through and
# uses the input's own strides, which NumPy's policy wants. Same root cause as
# the cast/copy case above. Fixed by copyLikeStrides (lib/Layout).
def test_torch_promotion_lays_out_the_converted_input():
    if torch is None:
        pytest.skip("needs torch for the reference strides")

    view = _element_view
    x = view(np.float64, (1, 2, 1, 2), (4, 2, 2, 1))
    y = view(np.float32, (1, 2, 2, 2), (4, 0, 0, 48))
    ref = torch.add(torch.from_numpy(x), torch.from_numpy(y))
    same = torch.add(torch.from_numpy(x), torch.from_numpy(y.astype(np.float64)))
    got = stride.materialize(stride.lazy(x) + y, policy="torch")
    np.testing.assert_array_equal(got, x + y)
    assert ref.stride() == (8, 4, 1, 2)
    assert elem_strides(got) == ref.stride(), f"same dtypes give {same.stride()}"


# found by the 2,000-example numpy run, NumPy's astype and copy (order='K',
# PyArray_NewLikeArray) lay out a broadcast view (4, 1, 1, 4) with strides (0,
# 4, 4, 1) as (1, 16, 16, 4), while its ufuncs give (4, 4, 4, 1); Stride used
# to lay out a cast or copy like a ufunc. The eager libraries' casts and
# copies follow their allocate-like rule (NumPy NewLikeArray, PyTorch
# empty_like), not the elementwise one. Fixed by copyLikeStrides (lib/Layout).
@pytest.mark.parametrize("op", ["astype", "copy"])
def test_numpy_cast_of_broadcast_view_is_laid_out_like_new_like_array(op):
    a = np.lib.stride_tricks.as_strided(
        np.linspace(-1, 1, 4, dtype=np.float32), (4, 1, 1, 4), (0, 16, 16, 4))
    if op == "astype":
        got = stride.materialize(stride.lazy(a).astype(np.float64), policy="numpy")
        ref = a.astype(np.float64)
    else:
        got = stride.materialize(stride.lazy(a), policy="numpy")
        ref = np.array(a, order="K")
    np.testing.assert_array_equal(got, a)
    assert elem_strides(np.negative(a)) == (4, 4, 4, 1)  # the ufunc rule
    assert elem_strides(got) == elem_strides(ref) == (1, 16, 16, 4)


# found by the 2,000-example numpy run after the fixes above: a float32 0-d
# array plus a float64 (5, 1, 5) view with strides (1, 25, 5). The 0-d input
# needs a cast, which made Stride skip NumPy's trivial loop; NumPy 1.24 casts
# 0-d inputs before it (try_trivial_single_output_loop), so the F-contiguous
# view still gives plain F order, (1, 5, 5). A 1-element 1-d float32 input
# instead does take the nditer path: (1, 25, 5).
@pytest.mark.parametrize("other,strides", [(np.array(1.5, np.float32), (1, 5, 5)),
                                           (np.array(3, np.int32), (1, 5, 5)),
                                           (np.ones(1, np.float32), (1, 25, 5))])
def test_numpy_converted_0d_input_keeps_the_trivial_loop(other, strides):
    x = np.lib.stride_tricks.as_strided(
        np.linspace(-1, 1, 125), (5, 1, 5), (8, 200, 40))
    want = np.add(other, x)
    got = stride.materialize(stride.lazy(other) + x, policy="numpy")
    np.testing.assert_array_equal(got, want)
    assert elem_strides(want) == strides
    assert elem_strides(got) == strides


# found by a 2,000-example numpy run with fresh examples: astype to the own
# dtype, twice, of a broadcast float32 view (4, 1, 1, 1) with strides (0, 1,
# 1, 1). NumPy's eager astype copies twice: the first copy is (1, 4, 4, 4),
# which is C-contiguous, so the second is (1, 1, 1, 1). Stride's astype to
# the own dtype is the expression itself (NumPy's copy=False, PyTorch's
# .to), so it materializes one copy, laid out like NumPy's first.
def test_astype_to_own_dtype_is_the_expression_itself():
    a = np.lib.stride_tricks.as_strided(
        np.linspace(-1, 1, 4, dtype=np.float32), (4, 1, 1, 1), (0, 4, 4, 4))
    e = stride.lazy(a).astype(np.float32)
    assert e.astype(np.float32) is e
    got = stride.materialize(e.astype(np.float32), policy="numpy")
    np.testing.assert_array_equal(got, a)
    assert elem_strides(got) == elem_strides(a.astype(np.float32, copy=True)) == (1, 4, 4, 4)
    assert elem_strides(a.astype(np.float32).astype(np.float32)) == (1, 1, 1, 1)


# found by a 2,000-example torch run with fresh examples: PyTorch converts
# (with .to(), laid out like a copy) the inputs whose PyTorch dtype is not
# its common dtype, and its dtypes differ from Stride's (NumPy's) along a
# whole tree: s = int32 + float32 is float32 to PyTorch, float64 here, so f
# + s converts nothing in PyTorch, while Stride used to lay out f as
# converted (float32 -> float64): (1, 1, 1, 1) instead of (1, 1, 1, 4).
# Stride's torch policy now follows PyTorch's dtypes (TorchDtypes).
@pytest.mark.parametrize("tree", ["f + (i + f)", "(i / i) + d", "where(i < 2, i, f) * d"])
def test_torch_policy_converts_what_pytorch_converts(tree):
    if torch is None:
        pytest.skip("needs torch for the reference strides")

    view = _element_view
    leaves = {"i": view(np.int32, (4, 1, 1, 1), (1, 1, 1, 4)),
              "f": view(np.float32, (4, 1, 1, 1), (0, 1, 1, 1)),
              "d": view(np.float64, (4, 1, 1, 1), (0, 1, 1, 1))}

    def where(c, x, y):
        if isinstance(c, torch.Tensor):
            return torch.where(c, x, y)
        return stride.where(c, x, y)
    ref = eval(tree, {"where": where},
               {k: torch.from_numpy(v) for k, v in leaves.items()})
    got = stride.materialize(
        eval(tree, {"where": where}, {k: stride.lazy(v) for k, v in leaves.items()}),
        policy="torch")
    np.testing.assert_allclose(got, ref.double().numpy(), rtol=1e-6)
    assert elem_strides(got) == ref.stride()
