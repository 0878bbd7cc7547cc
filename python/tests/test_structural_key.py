"""The structural key the operators compute while building an expression
(hash-consing): it must tell structures apart exactly as the full walk
(_codegen.structure) does, list the same kernel arguments, and let a
rebuilt expression run without generating MLIR text."""
import itertools
import random

import numpy as np
import pytest

import stride
from stride import _codegen, _expr


def _random_exprs(seed, count):
    """Expressions over two arrays (each wrapped by several Leafs), Python
    scalars and shared subexpressions, built with the operators only."""
    rng = random.Random(seed)
    x = np.linspace(0.5, 1.5, 6, dtype=np.float32)
    y = np.linspace(1, 2, 6, dtype=np.float32)
    for _ in range(count):
        pool = [stride.lazy(x), stride.lazy(y), stride.lazy(x)]
        for _ in range(rng.randint(1, 5)):
            a = rng.choice(pool + [2, 0.5, 3])
            b = rng.choice(pool)
            op = rng.choice(["+", "*", "-"])
            e = eval(f"a {op} b") if rng.random() < 0.5 else eval(f"b {op} a")
            pool.append(e)
        root = pool[-1]
        if isinstance(root, _expr.Op):
            yield root, x, y


def test_keys_agree_with_the_walk():
    exprs = list(_random_exprs(0, 300))
    keyed = [e for e, _, _ in exprs if e.tree is not None]
    assert len(keyed) > 50  # the operators key most of them
    for e, x, y in exprs:
        key, args = e.structure_of()
        walk_key, walk_args = _codegen.structure(e)
        assert [a if isinstance(a, tuple) else id(a) for a in args] == \
            [a if isinstance(a, tuple) else id(a) for a in walk_args]
    # Same fast key <=> same walked key, over every pair.
    for (e1, _, _), (e2, _, _) in itertools.combinations(exprs, 2):
        if e1.tree is None or e2.tree is None:
            continue
        assert (e1.tree[0] == e2.tree[0]) == \
            (_codegen.structure(e1)[0] == _codegen.structure(e2)[0])


def test_shared_nodes_are_walked():
    x = np.arange(1, 7, dtype=np.float64)
    S = stride.lazy(x)
    t = S + 1
    assert t.tree is not None
    square = t * t                      # one node used twice
    assert square.tree is None
    u = S + 1
    two = u * (S + 1)                   # the same values, two nodes
    np.testing.assert_array_equal(stride.materialize(square), (x + 1) ** 2)
    np.testing.assert_array_equal(stride.materialize(two), (x + 1) ** 2)
    assert square.structure_of()[0] != two.structure_of()[0]
    assert len(square.structure_of()[1]) == 2   # x and one scalar
    assert len(two.structure_of()[1]) == 3      # x and two scalars


def test_leaf_identity_is_part_of_the_key():
    x, y = np.ones(4), np.full(4, 2.0)
    same = stride.lazy(x) * stride.lazy(x) + 1
    other = stride.lazy(x) * stride.lazy(y) + 1
    assert same.tree[0] != other.tree[0]
    assert len(same.tree[2]) == 2 and len(other.tree[2]) == 3
    np.testing.assert_array_equal(stride.materialize(other), x * y + 1)


def test_rebuilt_expression_generates_no_text(monkeypatch):
    x = np.linspace(0, 1, 16, dtype=np.float32)
    o = np.empty_like(x)
    S = stride.lazy(x)
    stride.materialize(2 * (S + 1) * S - S, out=o)

    def fail(*args, **kwargs):
        raise AssertionError("MLIR text generated on a cache hit")

    monkeypatch.setattr(_codegen, "generate_many", fail)
    monkeypatch.setattr(_codegen, "structure", fail)
    z = np.linspace(1, 2, 16, dtype=np.float32)   # another array, same layout
    Z = stride.lazy(z)
    before = stride.cache_info().hits
    r = stride.materialize(2 * (Z + 1) * Z - Z, out=o)
    assert r is o and stride.cache_info().hits == before + 1
    np.testing.assert_allclose(o, 2 * (z + 1) * z - z, rtol=1e-6)


@pytest.mark.parametrize("a, b", [(np.arange(4, dtype=np.int32), 2),
                                  (np.arange(4, dtype=np.int32), 2 ** 40),
                                  (np.arange(4, dtype=np.int32), 2.5),
                                  (np.arange(4, dtype=np.int64), True)])
def test_memoized_promotion_follows_the_value(a, b):
    # The second build of each takes the memo; value-based casting still
    # decides the dtype per value.
    for _ in range(2):
        e = stride.lazy(a) + b
        assert e.dtype == (a + b).dtype
        np.testing.assert_array_equal(stride.materialize(e), a + b)


def test_memo_keeps_errors():
    x = stride.lazy(np.arange(4, dtype=np.int64))
    for _ in range(2):
        with pytest.raises(ValueError, match="negative integer powers"):
            x ** -1
    b = stride.lazy(np.ones(3, bool))
    for _ in range(2):
        with pytest.raises(TypeError, match="boolean subtract"):
            b - b
