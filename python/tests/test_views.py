"""Views from Python: np.transpose, np.swapaxes, .T, basic indexing,
np.broadcast_to, np.reshape, np.squeeze, np.expand_dims and np.flip on lazy
inputs and intermediates. A chain of views of one input materializes as a
view of it (no kernel, no copy) with the policy's shape, strides and offset
(../shared/reduce-view-corpus.jsonl); views of intermediates fuse."""
import numpy as np
import pytest

import stride
from helpers import CORPUS, check_corpus, corpus_cases, elem_strides, strided


def apply(case, x):
    """The case's call with NumPy's API on x (a lazy input or an array)."""
    op, args = case["op"], case["args"]
    if op == "T":
        return x.T
    if op in ("transpose", "swapaxes"):
        return np.swapaxes(x, *args["dims"])
    if op == "permute":
        return np.transpose(x, args["perm"])
    if op == "slice":
        return x[tuple(slice(*s) for s in args["slices"])]
    if op in ("expand", "broadcast_to"):
        target = list(args["shape"])
        lead = len(target) - len(x.shape)
        target = [x.shape[d - lead] if n == -1 and d >= lead else n
                  for d, n in enumerate(target)]
        return np.broadcast_to(x, target)
    if op == "squeeze":
        return np.squeeze(x, args.get("dim"))
    if op == "unsqueeze":
        return np.expand_dims(x, args["dim"])
    if op == "flip":
        return np.flip(x, args.get("dim"))
    if op == "reshape":
        return np.reshape(x, args["shape"])
    raise AssertionError(op)


CASES = corpus_cases("view")


@pytest.mark.skipif(not CASES, reason=f"no view corpus at {CORPUS}")
@pytest.mark.parametrize("lib", ["numpy", "torch"])
def test_view_corpus_through_python(lib):
    def prepare(case, rng):
        inp = case["input"]
        return strided(inp["shape"], inp["strides"], np.float32, rng)

    def compute(case, x):
        return stride.materialize(apply(case, stride.lazy(x)), policy=lib)

    def check(case, x, got):
        expect = case["expect"]
        view = got.size > 0 and np.shares_memory(got, x) or (
            got.size == 0 and got.base is not None and expect["view"])
        have = {"shape": list(got.shape), "strides": list(elem_strides(got)),
                "view": bool(view)}
        want = {"shape": expect["shape"], "strides": expect["strides"],
                "view": expect["view"]}
        if expect["view"] and "offset" in expect and got.size:
            have["offset"] = (got.__array_interface__["data"][0]
                              - x.__array_interface__["data"][0]) // 4
            want["offset"] = expect["offset"]
        if have != want:
            return f"got {have}, want {want}"
        np.testing.assert_array_equal(got, apply(case, x))
        return None

    check_corpus(CASES, lib, prepare, compute, check,
                 (ValueError, TypeError, IndexError),
                 unexpected=lambda e: f"unexpected {type(e).__name__}: {e}")


def test_views_of_intermediates_fuse_and_match_numpy():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((6, 5)).astype(np.float32)
    b = rng.standard_normal((6, 5)).astype(np.float32)
    c = rng.standard_normal((5, 6)).astype(np.float32)
    la, lb, lc = map(stride.lazy, (a, b, c))
    for got, want in [
        ((la + lb).T * lc, (a + b).T * c),
        ((la * 2)[1:, ::-2], (a * 2)[1:, ::-2]),
        ((la - lb)[:, None, 2], (a - b)[:, None, 2]),
        (np.reshape(la + lb, (-1,)), np.reshape(a + b, (-1,))),
        (np.flip(la + 1, 0), np.flip(a + 1, 0)),
        (np.swapaxes(np.expand_dims(la, 0), 0, 2), np.swapaxes(np.expand_dims(a, 0), 0, 2)),
        (np.broadcast_to((la + lb)[0], (3, 5)) + 1, np.broadcast_to((a + b)[0], (3, 5)) + 1),
        (np.squeeze((la + lb)[:1]), np.squeeze((a + b)[:1])),
        ((la + lb).reshape(3, 10).sum(axis=1) if hasattr(stride, "sum") else la.T,
         (a + b).reshape(3, 10).sum(axis=1) if hasattr(stride, "sum") else a.T),
    ]:
        result = stride.materialize(got, policy="numpy")
        np.testing.assert_allclose(result, want, rtol=1e-6)
        assert result.shape == want.shape


def test_a_chain_of_views_of_an_input_is_a_view():
    x = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    got = stride.materialize(np.transpose(stride.lazy(x), (2, 0, 1))[1:, :, ::2],
                             policy="numpy")
    want = np.transpose(x, (2, 0, 1))[1:, :, ::2]
    assert np.shares_memory(got, x)
    assert got.strides == want.strides and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    # A reshape NumPy cannot do without a copy is a new array.
    copy = stride.materialize(np.reshape(stride.lazy(x).T, (-1,)), policy="numpy")
    assert not np.shares_memory(copy, x)
    np.testing.assert_array_equal(copy, np.reshape(x.T, (-1,)))


def test_view_errors_are_numpys():
    x = stride.lazy(np.ones((2, 3)))
    with pytest.raises(ValueError, match="cannot reshape array of size 6 into shape"):
        np.reshape(x + 1, (4,))
    with pytest.raises(IndexError, match="out of bounds"):
        (x + 1)[2]
    with pytest.raises(ValueError, match="axes don't match array"):
        np.transpose(x + 1, (0,))
    with pytest.raises(ValueError, match="cannot select an axis to squeeze"):
        np.squeeze(x + 1, 0)
    with pytest.raises(ValueError, match="broadcast"):
        np.broadcast_to(x + 1, (3, 3))


def test_negative_steps_are_refused_under_torch():
    x = stride.lazy(np.arange(6.0))
    assert stride.materialize((x + 1)[::-1], policy="numpy").tolist() == [6, 5, 4, 3, 2, 1]
    with pytest.raises(ValueError):
        stride.materialize((x + 1)[::-1], policy="torch")
