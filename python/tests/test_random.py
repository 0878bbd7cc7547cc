"""Random expressions (seeded) over random layouts: values against NumPy,
result strides against PyTorch (policy torch) and NumPy (policy numpy), the
way the eager libraries compute the same ops one by one."""
import numpy as np
import pytest

import stride
from helpers import elem_strides, make_view, random_shapes, torch

UNARY = ["neg", "abs", "exp", "tanh", "sigmoid"]
BINARY = ["add", "sub", "mul", "maximum", "minimum", "div"]
PREDICATES = ["lt", "le", "gt", "ge", "eq", "ne"]


def gen_tree(rng, nleaves, size):
    """A random expression tree (a DAG: a subtree may be reused) of about
    `size` ops, as nested tuples."""
    made = []

    def operand(budget):
        r = rng.random()
        if budget > 0 and r < 0.55:
            return node(budget)
        if r < 0.8 or not made:
            return ("leaf", int(rng.integers(0, nleaves)))
        if r < 0.9:
            return made[int(rng.integers(0, len(made)))]  # shared subtree
        return ("scalar", float(np.round(rng.uniform(-2, 2), 2)))

    def node(budget):
        budget -= 1
        r = rng.random()
        if r < 0.3:
            t = ("un", UNARY[int(rng.integers(0, len(UNARY)))], operand(budget))
        elif r < 0.85:
            name = BINARY[int(rng.integers(0, len(BINARY)))]
            a, b = operand(budget // 2), operand(budget - budget // 2)
            if name == "div":  # a denominator away from 0
                b = ("un", "exp", b)
            if rng.random() < 0.3:  # a scalar first, as in 2 * x
                a = ("scalar", float(np.round(rng.uniform(-2, 2), 2)))
            t = ("bin", name, a, b)
        else:
            pred = PREDICATES[int(rng.integers(0, len(PREDICATES)))]
            cond = ("cmp", pred, operand(0), operand(0))
            t = ("where", cond, operand(budget // 2), operand(budget - budget // 2))
        made.append(t)
        return t

    return node(size)


def evaluate(tree, lib, leaves, dtype):
    """Evaluates `tree` op by op with `lib` ('stride', 'numpy', 'torch'),
    memoizing shared subtrees so a DAG stays a DAG."""
    memo = {}
    np_dtype = np.dtype(dtype)

    def scalar(v):
        # Stride gets the scalar NumPy gets: with only 0-d operands, NumPy
        # 1.24 promotes np.float32(v) and v differently.
        if lib in ("numpy", "stride"):
            return np_dtype.type(v)
        if lib == "torch":  # to TensorIterator a Python scalar is a 0-d tensor
            return torch.tensor(v, dtype=getattr(torch, np_dtype.name))
        return v

    def ev(t):
        if id(t) in memo:
            return memo[id(t)]
        kind = t[0]
        if kind == "leaf":
            v = leaves[t[1]]
            r = stride.lazy(v.np) if lib == "stride" else v.np if lib == "numpy" else v.torch()
        elif kind == "scalar":
            r = scalar(t[1])
        elif kind == "un":
            x = ev(t[2])
            r = unary(lib, t[1], x)
        elif kind == "bin":
            r = binary(lib, t[1], ev(t[2]), ev(t[3]))
        elif kind == "cmp":
            r = binary(lib, t[1], ev(t[2]), ev(t[3]))
        else:
            c, a, b = ev(t[1]), ev(t[2]), ev(t[3])
            if lib == "stride":
                r = stride.where(c, a, b)
            elif lib == "numpy":
                r = np.where(c, a, b)
            else:
                r = torch.where(c, a, b)
        memo[id(t)] = r
        return r

    return ev(tree)


def unary(lib, name, x):
    if lib == "stride":
        return {"neg": lambda: -x, "abs": lambda: stride.abs(x),
                "exp": lambda: stride.exp(x), "tanh": lambda: stride.tanh(x),
                "sigmoid": lambda: stride.sigmoid(x)}[name]()
    if lib == "numpy":
        if name == "sigmoid":
            return _np_sigmoid(x)
        return {"neg": np.negative, "abs": np.abs, "exp": np.exp, "tanh": np.tanh}[name](x)
    return {"neg": torch.neg, "abs": torch.abs, "exp": torch.exp,
            "tanh": torch.tanh, "sigmoid": torch.sigmoid}[name](x)


def _np_sigmoid(x):
    # Values from the formula, layout from a single unary ufunc (np.exp):
    # several ufuncs in a row could lay out size-1 dims differently.
    one = x.dtype.type(1)  # a Python 1 would make 0-d results float64
    out = np.exp(x)
    if np.ndim(out) == 0:
        return one / (one + np.exp(-x))
    np.copyto(out, one / (one + np.exp(-x)), casting="unsafe")
    return out


def binary(lib, name, a, b):
    if lib == "stride":
        return {"add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b,
                "div": lambda: a / b, "maximum": lambda: stride.maximum(a, b),
                "minimum": lambda: stride.minimum(a, b), "lt": lambda: a < b,
                "le": lambda: a <= b, "gt": lambda: a > b, "ge": lambda: a >= b,
                "eq": lambda: a == b, "ne": lambda: a != b}[name]()
    mod = np if lib == "numpy" else torch
    fn = {"add": "add", "sub": "subtract", "mul": "multiply", "div": "divide",
          "maximum": "maximum", "minimum": "minimum", "lt": "less",
          "le": "less_equal", "gt": "greater", "ge": "greater_equal",
          "eq": "equal", "ne": "not_equal"}[name]
    if lib == "torch":
        fn = {"subtract": "sub", "multiply": "mul", "divide": "div",
              "less": "lt", "less_equal": "le", "greater": "gt",
              "greater_equal": "ge", "equal": "eq", "not_equal": "ne"}.get(fn, fn)
    return getattr(mod, fn)(a, b)


def make_case(seed, policy):
    rng = np.random.default_rng(seed)
    nleaves = int(rng.integers(1, 4))
    _, shapes = random_shapes(rng, nleaves)
    layouts = ["c", "perm", "sliced", "broadcast", "size1", "mixed"]
    if policy == "numpy":
        layouts.append("negative")
    dtype = np.float64 if rng.random() < 0.2 else np.float32
    leaves = [make_view(rng, s, layouts[int(rng.integers(0, len(layouts)))], dtype)
              for s in shapes]
    while True:
        tree = gen_tree(rng, nleaves, int(rng.integers(1, 7)))
        if not scalars_only(tree):
            return leaves, tree, dtype


def scalars_only(t):
    """Whether some op of `t` reads only Python scalars. Such an op gives a
    0-d float64 here (Python floats are float64) that then promotes the
    whole expression, while the float32 oracle would stay float32; the
    dtype tests cover scalar-only ops instead."""
    if t[0] == "leaf":
        return False
    if t[0] == "scalar":
        return True
    kids = t[2:] if t[0] in ("un", "bin", "cmp") else t[1:]
    values = kids if t[0] != "where" else kids[1:]   # where's dtype is its values'
    return all(k[0] == "scalar" for k in values) or any(
        k[0] != "scalar" and scalars_only(k) for k in kids)


@pytest.mark.parametrize("policy", ["torch", "numpy"])
@pytest.mark.parametrize("seed", range(120))
def test_random_expression(seed, policy):
    if policy == "torch" and torch is None:
        pytest.skip("needs torch")
    leaves, tree, dtype = make_case(seed * 2 + (policy == "numpy"), policy)
    with np.errstate(all="ignore"):
        want = evaluate(tree, "numpy", leaves, dtype)
        got = stride.materialize(evaluate(tree, "stride", leaves, dtype), policy=policy)
    want = np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-5)
    if policy == "torch":
        expected = [elem_strides(evaluate(tree, "torch", leaves, dtype))]
    else:
        with np.errstate(all="ignore"):
            expected = [elem_strides(np.asarray(evaluate(tree, "numpy", leaves, dtype)))]
    assert elem_strides(got) in expected, (tree, [(v.shape, v.strides) for v in leaves])


@pytest.mark.parametrize("seed", range(40))
def test_random_expression_into_out(seed):
    """materialize(..., out=) with a random destination layout: values, and
    the destination keeps its strides."""
    rng = np.random.default_rng(10_000 + seed)
    leaves, tree, dtype = make_case(10_000 + seed, "numpy")
    with np.errstate(all="ignore"):
        want = np.asarray(evaluate(tree, "numpy", leaves, dtype))
        layout = ["c", "perm", "sliced", "negative", "size1"][seed % 5]
        out = make_view(rng, want.shape, layout, want.dtype).np
        strides = out.strides
        stride.materialize(evaluate(tree, "stride", leaves, dtype), out=out)
    assert out.strides == strides
    np.testing.assert_allclose(out, want, rtol=2e-4, atol=2e-5)


@pytest.mark.parametrize("seed", range(40))
def test_random_expression_in_place_over_an_input(seed):
    """out= is the expression's first array, element for element (x = f(x, ...))."""
    rng = np.random.default_rng(seed)
    leaves, tree, dtype = make_case(50_000 + seed, "numpy")
    shape = np.broadcast_shapes(*(v.shape for v in leaves))
    v = make_view(rng, shape, ["c", "perm", "sliced", "negative"][seed % 4], dtype)
    leaves = [v] + leaves[1:]
    with np.errstate(all="ignore"):
        want = np.asarray(evaluate(tree, "numpy", leaves, dtype))
        if want.shape != v.shape or want.dtype != v.np.dtype:
            pytest.skip("the expression does not give the first array's shape")
        stride.materialize(evaluate(tree, "stride", leaves, dtype), out=v.np)
    np.testing.assert_allclose(v.np, want, rtol=2e-4, atol=2e-5)
