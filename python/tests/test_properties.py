"""Property test (hypothesis): random expression trees over leaves of mixed
dtypes and layouts, sometimes written into an out= that may be one of the
leaves. Values and dtypes are compared with NumPy (1.24 promotion), result
strides with NumPy op by op (policy numpy) and with PyTorch op by op (policy
torch; PyTorch's own dtypes differ, its layout rules do not depend on them).

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

DTYPES = [np.float32, np.float64, np.int32, np.int64, np.bool_]
LAYOUTS = ["c", "perm", "sliced", "broadcast", "size1", "mixed"]
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

    def evaluate(self, lib, leaves, where_as_ufunc=None):
        values = list(leaves)
        for kind, args, dtype in self.ops:
            a, b, c = (values[i] for i in args)
            if where_as_ufunc and kind == "where":
                # np.where is not a ufunc and lays out size-1 dims its own
                # way; Stride's where follows a 3-operand ufunc (clip here,
                # for the layout only). NumPy's ufunc layout of size-1 dims
                # depends on whether its loop casts an operand, so both
                # forms of the condition are tried: the operand itself
                # ("operand") and the bool a != 0 ("nonzero").
                cond = a if where_as_ufunc == "operand" else a != 0
                values.append(np.core.umath.clip(cond, b, c))
                continue
            values.append(_apply(lib, kind, a, b, c, dtype))
        return values[-1]


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
        return a.to(getattr(torch, np.dtype(dtype).name))
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


@st.composite
def cases(draw):
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    nleaves = draw(st.integers(1, 3))
    _, shapes = random_shapes(rng, nleaves, allow_zero=False)
    leaves = [make_view(rng, s, draw(st.sampled_from(LAYOUTS)),
                        draw(st.sampled_from(DTYPES))) for s in shapes]
    return leaves, Tree(draw, nleaves), draw(st.sampled_from(["none", "fresh", "leaf"]))


@settings(max_examples=EXAMPLES, deadline=None, derandomize=DERANDOMIZE,
          suppress_health_check=list(HealthCheck))
@given(cases(), st.sampled_from(POLICIES))
def test_random_mixed_dtype_trees(case, policy):
    leaves, tree, out_kind = case
    hypothesis.note(f"leaves {[(v.np.dtype.str, v.shape, v.strides) for v in leaves]}")
    if policy == "torch" and torch is None:
        pytest.skip("needs torch")
    with np.errstate(all="ignore"):
        want = np.asarray(tree.evaluate("numpy", [v.np for v in leaves]))
        expr = tree.evaluate("stride", [v.np for v in leaves])
    if not isinstance(expr, stride.Expr):
        return  # the tree is a leaf itself (astype to its own dtype)
    if out_kind == "none":
        got = stride.materialize(expr, policy=policy)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        if policy == "numpy":
            with np.errstate(all="ignore"):
                ufuncs = [tree.evaluate("numpy", [v.np for v in leaves], how)
                          for how in ("operand", "nonzero")]
            assert elem_strides(got) in [elem_strides(_copied(r, leaves))
                                         for r in (want, *ufuncs)]
        else:
            inputs = [v.torch() for v in leaves]
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


def test_where_of_size1_dims_is_a_three_operand_ufunc():
    """Found cases (policy numpy): where(a != 0, t, t) with t = a < a, and
    where(a != 0, a, a). np.where gives (1, 16, 16, 4) for both; Stride's
    where is a 3-operand ufunc, whose size-1 strides NumPy makes (1, 4, 4, 4)
    when no operand needs a cast: clip(a != 0, t, t) (all bool) and
    clip(a, a, a) (all float32)."""
    a = _size1_leaf()
    t = a < a
    got = stride.materialize(stride.where(stride.lazy(a) != 0, t, t), policy="numpy")
    np.testing.assert_array_equal(got, np.where(a != 0, t, t))
    assert elem_strides(got) == elem_strides(np.core.umath.clip(a != 0, t, t)) == (1, 4, 4, 4)
    got = stride.materialize(stride.where(stride.lazy(a) != 0, a, a), policy="numpy")
    np.testing.assert_array_equal(got, a)
    assert elem_strides(got) == elem_strides(np.core.umath.clip(a, a, a)) == (1, 4, 4, 4)
    assert elem_strides(np.where(a != 0, a, a)) == (1, 16, 16, 4)


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
