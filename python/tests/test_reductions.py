"""Reductions from Python: np.sum, np.prod, np.amax/np.max, np.amin/np.min,
np.mean, np.argmax, np.argmin, np.any, np.all and the ndarray methods on
lazy expressions and under @stride.jit, with NumPy's values, dtypes and
errors, and the result layouts of ../shared/reduce-view-corpus.jsonl."""

import numpy as np
import pytest

import stride
from helpers import (CORPUS, check_corpus, corpus_cases, elem_strides,
                     make_view, strided)

DTYPES = {"f32": np.float32, "f64": np.float64, "i32": np.int32,
          "i64": np.int64, "i1": np.bool_}
NUMPY = {"sum": np.sum, "prod": np.prod, "amax": np.amax, "amin": np.amin,
         "mean": np.mean, "argmax": np.argmax, "argmin": np.argmin,
         "any": np.any, "all": np.all}


CASES = corpus_cases("reduce")


@pytest.mark.skipif(not CASES, reason=f"no reduction corpus at {CORPUS}")
@pytest.mark.parametrize("lib", ["numpy", "torch"])
def test_reduction_corpus_through_python(lib):
    """Every corpus case through np.<op> on stride.lazy under the case's
    policy: shape, strides and dtype exactly, or an error where the library
    refuses."""
    def prepare(case, rng):
        inp, dims = case["input"], case["args"]["dims"]
        x = strided(inp["shape"], inp["strides"], DTYPES[inp["dtype"]], rng)
        axis = None if dims is None else (
            dims[0] if case["op"] in ("argmax", "argmin") else tuple(dims))
        return x, axis

    def compute(case, inputs):
        x, axis = inputs
        expr = NUMPY[case["op"]](stride.lazy(x), axis=axis,
                                 keepdims=case["args"]["keepdim"])
        with np.errstate(all="ignore"):
            return stride.materialize(expr, policy=lib)

    def check(case, inputs, got):
        expect = case["expect"]
        want = (list(expect["shape"]), list(expect["strides"]),
                np.dtype(DTYPES[expect["dtype"]]))
        have = (list(got.shape), list(elem_strides(got)), got.dtype)
        return f"got {have}, want {want}" if have != want else None

    check_corpus(CASES, lib, prepare, compute, check, (ValueError, TypeError))


OPS = list(NUMPY)


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "bool"])
def test_values_and_dtypes_match_numpy(op, dtype):
    rng = np.random.default_rng(1)
    for layout in ("c", "perm", "negative", "mixed"):
        view = make_view(rng, (3, 4, 5), layout, np.float64).np
        x = strided(view.shape, elem_strides(view), dtype, rng)
        axes = [None, 0, -1, (0, 2)] if op not in ("argmax", "argmin") else [None, 0, 1, -1]
        for axis in axes:
            for keepdims in (False, True):
                with np.errstate(all="ignore"):
                    want = NUMPY[op](x, axis=axis, keepdims=keepdims)
                    got = stride.materialize(
                        NUMPY[op](stride.lazy(x), axis=axis, keepdims=keepdims),
                        policy="numpy")
                assert got.dtype == want.dtype, (op, axis)
                assert got.shape == want.shape, (op, axis)
                if got.dtype.kind == "f":
                    np.testing.assert_allclose(got, want, rtol=1e-5 if dtype == "float32" else 1e-12)
                else:
                    np.testing.assert_array_equal(got, want)


def test_methods_and_reductions_of_expressions():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((64, 33)).astype(np.float32).T
    y = rng.standard_normal((33, 64)).astype(np.float32)
    lx, ly = stride.lazy(x), stride.lazy(y)
    np.testing.assert_allclose(stride.materialize((lx * ly).sum()), (x * y).sum(), rtol=1e-5)
    np.testing.assert_allclose(stride.materialize(abs(lx - ly).max(axis=1)),
                               np.abs(x - y).max(axis=1), rtol=1e-6)
    m = lx.mean(axis=0, keepdims=True)
    np.testing.assert_allclose(stride.materialize(((lx - m) ** 2).mean(axis=0)),
                               ((x - x.mean(axis=0, keepdims=True)) ** 2).mean(axis=0), rtol=1e-5)
    assert stride.materialize(lx.argmin()).item() == x.argmin()
    assert stride.materialize((lx > 0).any(axis=0)).tolist() == (x > 0).any(axis=0).tolist()
    np.testing.assert_allclose(stride.materialize(np.sum(lx, dtype=np.float64)),
                               np.sum(x, dtype=np.float64), rtol=1e-12)
    assert stride.materialize(stride.sum(lx, axis=1)).shape == (33,)
    assert stride.materialize(stride.max(lx)) == x.max()


def test_softmax_and_layer_norm_under_jit():
    @stride.jit(policy="numpy")
    def softmax(x):
        e = np.exp(x - np.max(x, axis=-1, keepdims=True))
        return e / np.sum(e, axis=-1, keepdims=True)

    @stride.jit
    def layer_norm(x, eps):
        mu = x.mean(axis=-1, keepdims=True)
        var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
        return (x - mu) / np.sqrt(var + eps)

    rng = np.random.default_rng(3)
    for shape in [(7, 130), (1, 1), (33, 17)]:
        x = rng.standard_normal(shape)
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        np.testing.assert_allclose(softmax(x), e / e.sum(axis=-1, keepdims=True), rtol=1e-12)
        mu = x.mean(axis=-1, keepdims=True)
        want = (x - mu) / np.sqrt(((x - mu) ** 2).mean(axis=-1, keepdims=True) + 1e-5)
        np.testing.assert_allclose(layer_norm(x, 1e-5), want, rtol=1e-9, atol=1e-12)


def test_large_float32_sum_is_accurate():
    x = np.random.default_rng(4).random(10_000_000, dtype=np.float32)
    got = stride.materialize(stride.lazy(x).sum())
    exact = x.astype(np.float64).sum()
    assert abs(float(got) - exact) <= abs(float(np.sum(x)) - exact) + 1e-7 * exact


def test_reduction_errors_are_numpys():
    x = stride.lazy(np.ones((2, 3)))
    with pytest.raises(np.AxisError):
        np.sum(x, axis=2)
    with pytest.raises(ValueError, match="duplicate value in 'axis'"):
        np.sum(x, axis=(1, -1))
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
        np.max(stride.lazy(np.ones((0, 3))), axis=0)
    with pytest.raises(ValueError, match="attempt to get argmax of an empty sequence"):
        np.argmax(stride.lazy(np.ones((0, 3))))
    with pytest.raises(TypeError, match="axis must be an integer"):
        np.argmax(x, axis=(0, 1))
    with pytest.raises(ValueError, match="'maximum' does not have an "
                       "identity, so to use a where mask"):
        np.max(x, where=np.ones((2, 3), bool))
    with pytest.raises(TypeError, match="from dtype\\('float64'\\) to "
                       "dtype\\('bool'\\) according to the rule 'safe'"):
        np.sum(x, where=x)
    with pytest.raises(TypeError, match="dtype= is not supported"):
        stride.amax(x, dtype=np.float32)
    assert np.max(stride.lazy(np.ones((0, 3))), axis=1).shape == (0,)


def test_mean_of_integers_is_an_error_under_torch():
    x = stride.lazy(np.arange(6, dtype=np.int32).reshape(2, 3))
    assert stride.materialize(x.mean(), policy="numpy") == 2.5
    with pytest.raises(ValueError, match="mean"):
        stride.materialize(x.mean(), policy="torch")


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64,
                                   np.bool_])
@pytest.mark.parametrize("n", [33, 128, 129, 300, 1031])
def test_argmax_and_argmin_along_long_rows(dtype, n):
    """Rows long enough for the lane accumulators (i32 lane indices, index 0
    with the identity value, no sentinel): rows that are all the identity
    (-inf, +inf, the integer extremes, all False), ties across lanes and
    the tail, and NaN anywhere, against NumPy."""
    rng = np.random.default_rng(n)
    rows = []
    if np.dtype(dtype).kind == "f":
        info = np.finfo(dtype)
        rows += [np.full(n, -np.inf), np.full(n, np.inf), np.full(n, np.nan)]
        r = rng.standard_normal(n); r[[5, n - 1]] = np.nan; rows.append(r)
        r = rng.standard_normal(n); r[n - 1] = np.nan; rows.append(r)
        r = np.full(n, -np.inf); r[n - 1] = 1.0; rows.append(r)
        r = np.full(n, info.max); r[0] = -np.inf; rows.append(r)
    elif dtype is np.bool_:
        rows += [np.zeros(n), np.ones(n)]
        r = np.zeros(n); r[n - 1] = 1; rows.append(r)
        r = np.ones(n); r[n // 2] = 0; rows.append(r)
    else:
        info = np.iinfo(dtype)
        rows += [np.full(n, info.min), np.full(n, info.max)]
        r = np.full(n, info.min); r[n - 1] = info.max; rows.append(r)
    r = np.zeros(n); r[[3, min(64, n - 3), n - 2]] = 1; rows.append(r)  # ties
    r = np.zeros(n); r[[n - 1, n // 3]] = -1; rows.append(r)
    rows.append(rng.integers(-3, 4, n))
    with np.errstate(invalid="ignore"):
        x = np.array(rows).astype(dtype)
    for fn in (np.argmax, np.argmin):
        for a in (x, x[::-1], x[:, ::-1], np.ascontiguousarray(x.T).T):
            got = stride.materialize(fn(stride.lazy(a), axis=1), policy="numpy")
            np.testing.assert_array_equal(got, fn(a, axis=1), err_msg=fn.__name__)
        got = stride.materialize(fn(stride.lazy(x)), policy="numpy")
        assert got == fn(x), fn.__name__


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("threads", [1, 2])
def test_column_sums_by_row_blocks(dtype, threads):
    """Float sums over the outermost dim of rows that whole blocks of 16
    cover take their block sums over (block, row in block): on two threads
    each chunk sums whole memory rows. The values match NumPy's (float64
    reference) for plain, fused, transposed, stepped and broadcast inputs,
    on both thread counts, and for rows that blocks do not cover (1000)."""
    rng = np.random.default_rng(7)
    x = rng.uniform(-1, 1, (4096, 300)).astype(dtype)
    y = rng.uniform(-1, 1, (4096, 300)).astype(dtype)
    v = rng.uniform(-1, 1, 300).astype(dtype)
    c = rng.uniform(-1, 1, (4096, 1)).astype(dtype)
    t = rng.uniform(-1, 1, (300, 4096)).astype(dtype)
    w = rng.uniform(-1, 1, (8192, 300)).astype(dtype)
    cube = rng.uniform(-1, 1, (1024, 6, 50)).astype(dtype)
    odd = rng.uniform(-1, 1, (1000, 300)).astype(dtype)
    cases = [
        (lambda a: np.sum(a, axis=0), (x,)),
        (lambda a, b: np.sum(a * b, axis=0), (x, y)),
        (lambda a: np.sum(a.T, axis=0), (t,)),
        (lambda a: np.sum(a[::2], axis=0), (w,)),
        (lambda a, b: np.sum(a + b, axis=0), (x, v)),
        (lambda a, b: np.sum(a * b, axis=0), (x, c)),
        (lambda a: np.mean(a, axis=0), (x,)),
        (lambda a: np.sum(a, axis=0), (cube,)),
        (lambda a: np.sum(a, axis=0) * 2 + 1, (x,)),
        (lambda a: np.sum(a, axis=0), (odd,)),
    ]
    for fn, args in cases:
        got = stride.jit(fn, threads=threads)(*args)
        want = fn(*(a.astype(np.float64) for a in args))
        assert got.dtype == fn(*args).dtype and got.shape == want.shape
        scale = max(1.0, float(np.abs(want).max()))
        np.testing.assert_allclose(
            got, want, rtol=0,
            atol=(1e-5 if dtype == np.float32 else 1e-13) * scale)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [40, 127, 256, 300, 511, 513])
def test_row_sums_with_sixteen_lanes(dtype, n):
    """Rows shorter than 8 blocks of the wide lanes sum in 16 compensated
    lanes (a tail block when n is not a multiple of 16): on rows whose terms
    cancel, each row's error against the exact sum (fsum of the float64
    values) stays within compensated summation's bound, 3 eps sum|x| (a
    plain sum's is n eps sum|x|), and argmax/argmin of the same rows match
    NumPy's."""
    import math
    rng = np.random.default_rng(n)
    x = (rng.standard_normal((67, n)) * 10.0 ** rng.integers(-3, 4, (67, n))
         ).astype(dtype)
    x[:, 1::2] = -x[:, ::2][:, :n // 2] * (1 + np.finfo(dtype).eps)
    got = stride.jit(lambda a: np.sum(a, axis=1))(x)
    exact = np.array([math.fsum(r) for r in x.astype(np.float64)])
    bound = 3 * np.finfo(dtype).eps * np.abs(x.astype(np.float64)).sum(axis=1)
    assert np.all(np.abs(got.astype(np.float64) - exact) <= bound)
    for fn in (np.argmax, np.argmin):
        np.testing.assert_array_equal(stride.jit(lambda a: fn(a, axis=1))(x),
                                      fn(x, axis=1))


OUT_CASES = [
    # (function, input dtype, out dtype, out shape): NumPy accumulates sum
    # and prod in the promotion of out's dtype and the input's, and casts
    # into out.
    (lambda x, o: np.sum(x, axis=0, out=o), "f32", np.float64, (37,)),
    (lambda x, o: np.sum(x, axis=0, out=o), "f64", np.float32, (37,)),
    (lambda x, o: np.sum(x, axis=0, out=o), "f32", np.int64, (37,)),
    (lambda x, o: np.sum(x, axis=0, out=o), "i32", np.float32, (37,)),
    (lambda x, o: x.sum(1, out=o), "f64", np.float64, (5,)),
    (lambda x, o: np.prod(x[1:3], axis=0, out=o), "i32", np.int64, (37,)),
    (lambda x, o: np.mean(x, axis=1, out=o), "i32", np.float32, (5,)),
    (lambda x, o: np.mean(x, axis=1, out=o), "f32", np.float64, (5,)),
    (lambda x, o: x.mean(axis=1, out=o), "i64", np.int64, (5,)),
    (lambda x, o: np.max(x, axis=0, out=o), "f32", np.float64, (37,)),
    (lambda x, o: x.min(0, o), "i32", np.int32, (37,)),
    (lambda x, o: np.argmin(x, axis=1, out=o), "f64", np.intp, (5,)),
    (lambda x, o: x.argmax(1, o), "i32", np.intp, (5,)),
    (lambda x, o: np.std(x, 0, out=o), "f32", np.float32, (37,)),
    (lambda x, o: np.var(x, axis=1, out=o, ddof=1), "f64", np.float64, (5,)),
    (lambda x, o: np.sum(x, out=o), "f32", np.float64, ()),
    (lambda x, o: np.any(x > 1, axis=0, keepdims=True, out=o), "f64", np.bool_, (1, 37)),
    (lambda x, o: np.all(x > -3, axis=1, out=o), "f32", np.float32, (5,)),
]


@pytest.mark.parametrize("case", range(len(OUT_CASES)))
def test_reductions_write_out_arguments(case):
    """out= of a reduction under @stride.jit (and on lazy expressions)
    writes NumPy's values in out's dtype, and returns out: the cast NumPy
    does (float sums into integers truncate) and the accumulator dtype it
    picks from out and the input (a float32 sum into float64 adds in
    float64)."""
    fn, dtype, out_dtype, shape = OUT_CASES[case]
    rng = np.random.default_rng(case)
    x = (rng.standard_normal((5, 37)) * 40).astype(DTYPES[dtype])
    ref = np.empty(shape, out_dtype)
    fn(x, ref)
    got = np.full(shape, 7, out_dtype)

    @stride.jit
    def f(x, o):
        r = fn(x, o)
        return r * 1 if r is not None else o

    result = f(x, got)
    np.testing.assert_allclose(got, ref, rtol=2e-6, atol=1e-9)
    np.testing.assert_allclose(result, ref, rtol=2e-6, atol=1e-9)
    lazy = np.full(shape, 7, out_dtype)
    fn(stride.lazy(x), lazy)
    np.testing.assert_allclose(lazy, ref, rtol=2e-6, atol=1e-9)


def test_reduction_out_errors():
    """out= of the wrong shape, or not an array, is refused by name; a
    ufunc's out= takes NumPy's same_kind casts and refuses the others."""
    x = np.ones((3, 4), np.float32)
    with pytest.raises(ValueError, match=r"out= argument .* shape \(3,\), "
                       r"the result float64 \(4,\)"):
        stride.jit(lambda x, o: np.sum(x, axis=0, out=o))(x, np.empty(3))
    with pytest.raises(TypeError, match="out= must be an array"):
        stride.jit(lambda x: np.sum(x, axis=0, out=[0.0] * 4))(x)
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output from "
                       r"dtype\('float32'\) to dtype\('int32'\)"):
        stride.jit(lambda x, o: np.add(x, x, out=o))(x, np.empty((3, 4), np.int32))
    i = np.full(4, 2**31 - 1, np.int32)
    o = np.empty(4)
    stride.jit(lambda i, o: np.add(i, i, out=o))(i, o)
    np.testing.assert_array_equal(o, np.add(i, i).astype(np.float64))


@pytest.mark.parametrize("threads", [1, 2])
def test_float_max_min_in_lanes_propagate_nan(threads):
    """Float max and min accumulate in lanes with two compares and a select:
    NaN anywhere (first, last, a lane edge, every element) makes the result
    NaN, infinities and all-negative rows are exact, along a long row, a
    column and the whole array, f32 and f64, against NumPy."""
    rng = np.random.default_rng(11)
    fn = stride.jit(lambda a: (np.max(a), np.min(a), a.max(1), a.min(0),
                               np.amax(a, axis=0, keepdims=True)),
                    threads=threads)
    for dtype in (np.float32, np.float64):
        for shape in ((3, 1000), (130, 257), (1, 4097)):
            for where in (None, 0, -1, 63, 64, 200, "all", "inf", "neg"):
                a = rng.standard_normal(shape).astype(dtype)
                if where == "all":
                    a[...] = np.nan
                elif where == "inf":
                    a.flat[::7] = np.inf
                    a.flat[3::11] = -np.inf
                elif where == "neg":
                    a = -np.abs(a) - 1
                elif where is not None:
                    a[-1, where % shape[1]] = np.nan
                got = fn(a)
                want = (np.max(a), np.min(a), a.max(1), a.min(0),
                        np.amax(a, axis=0, keepdims=True))
                for g, w in zip(got, want):
                    np.testing.assert_array_equal(g, w, err_msg=f"{shape} {where}")


def test_vector_norm_of_an_array_is_a_dot_product():
    """np.linalg.norm of a 1-D array is NumPy's sqrt(x.dot(x)): a dot
    product (the kernel holds a contraction, not a compensated sum); of an
    expression it stays the fused sum, which stores nothing. Both match
    NumPy, f32 and f64, with ord None and 2."""
    rng = np.random.default_rng(12)
    for dtype in (np.float32, np.float64):
        v = rng.standard_normal(100_003).astype(dtype)
        w = rng.standard_normal(100_003).astype(dtype)
        for fn in (np.linalg.norm, lambda v: np.linalg.norm(v, 2),
                   lambda v: np.linalg.norm(v * 2 - 1)):
            np.testing.assert_allclose(stride.jit(fn)(v), fn(v),
                                       rtol=2e-6 if dtype == np.float32 else 1e-12)
        text = stride.jit(np.linalg.norm).kernel_text((v,))[0]
        assert "stride.matmul" in text and "stride.sum" not in text, text
        text = stride.jit(lambda v, w: np.linalg.norm(v - w)).kernel_text((v, w))[0]
        assert "stride.matmul" not in text, text


@pytest.mark.parametrize("threads", [1, 2])
def test_boolean_reductions_in_integer_lanes(threads):
    """any, all and the max and min of bools accumulate in integer lanes
    (as wide as the compared elements, bytes for stored bools): one
    true (or false) element anywhere (first, last, a lane edge, the partial
    last block) decides the result, along long rows, columns and the whole
    array, of a fused comparison, a stored bool array and NaN (truthy),
    against NumPy."""
    rng = np.random.default_rng(13)
    fused = stride.jit(lambda a: ((a > 0.5).any(), (a > 0.5).all(1),
                                  np.any(a != 0, axis=0), np.all(a, axis=1)),
                       threads=threads)
    stored = stride.jit(lambda m: (m.any(), m.all(), m.max(1), m.min(1),
                                   np.any(m, axis=1, keepdims=True)),
                        threads=threads)
    for shape in ((3, 1000), (130, 257), (1, 4097), (2, 513)):
        for where in (None, 0, -1, 255, 256, 511, "nan", "all"):
            a = rng.uniform(-1.0, 0.5, shape)
            if where == "all":
                a[...] = 1.0
            elif where == "nan":
                a[:, ::97] = np.nan
            elif where is not None:
                a[-1, where % shape[1]] = 1.0
            want = ((a > 0.5).any(), (a > 0.5).all(1), np.any(a != 0, axis=0),
                    np.all(a, axis=1))
            for g, w in zip(fused(a), want):
                np.testing.assert_array_equal(g, w, err_msg=f"{shape} {where}")
            m = a > 0.5
            for mask in (m, ~m):
                want = (mask.any(), mask.all(), mask.max(1), mask.min(1),
                        np.any(mask, axis=1, keepdims=True))
                for g, w in zip(stored(mask), want):
                    assert g.dtype == np.bool_
                    np.testing.assert_array_equal(g, w, err_msg=f"{shape} {where}")


def test_whole_array_reductions_split_across_threads():
    """A reduction to fewer points than threads over at least 2 MiB runs
    one part of the blocks per thread, each in its own lanes, combined at
    the end: sums, means, products, max/min, argmax/argmin (ties and NaN
    across the parts give the first index), any/all and fused expressions,
    with a block count that the parts do not divide and a partial last
    block, match NumPy on 2 threads (and the one-thread kernel)."""
    rng = np.random.default_rng(14)
    fns = (np.sum, np.mean, np.max, np.min, np.argmax, np.argmin,
           lambda a: (a > 3.5).any(), lambda a: (a > -3.5).all(),
           lambda a: np.sum(a * a - 1), lambda a: np.prod(1 + a * 1e-4),
           lambda a: a.astype(np.float32).sum(), lambda a: a.max(axis=1))
    for n in (1 << 20, 300_001 * 3 + 17):
        for case in ("plain", "tie", "nan", "late nan"):
            a = rng.standard_normal(n)
            if case == "tie":  # the largest value in both halves
                a[n // 4] = a[3 * n // 4] = 10.0
                a[n // 3] = a[n - 5] = -10.0
            elif case == "nan":
                a[n - 3] = np.nan
            elif case == "late nan":
                a[n // 2 + 1] = a[n - 1] = np.nan
            for fn in fns:
                x = a.reshape(1, -1) if fn is fns[-1] else a
                want = fn(x)
                for threads in (1, 2):
                    got = stride.jit(fn, threads=threads)(x)
                    single = np.asarray(want).dtype == np.float32
                    # Sums cancel: the error is relative to the sum of |a|.
                    np.testing.assert_allclose(
                        got, want, rtol=1e-9,
                        atol=(1e-6 if single else 1e-13) * np.nansum(np.abs(a)),
                        err_msg=f"{n} {case} threads={threads}")
    text = str(stride.explain(stride.jit(np.sum, threads=2), a))
    assert "2 parts of the reduced dim" in text, text
    text = str(stride.explain(stride.jit(np.sum, threads=2), a[:1000]))
    assert "parts" not in text, text


@pytest.mark.parametrize("threads", [1, 2])
def test_index_reductions_of_expressions_are_fused(threads):
    """argmax and argmin of an elementwise expression run as one kernel
    (stride.map_reduce) that stores nothing: the first index on ties and
    at the first NaN, along rows, columns and the whole array, with
    broadcast operands, f32, f64 and integers, against NumPy; a reversed
    input keeps its expression stored and still matches."""
    rng = np.random.default_rng(15)
    fns = (lambda a, b: np.argmax(np.abs(a)),
           lambda a, b: np.argmin((a - b) ** 2, axis=1),
           lambda a, b: np.argmax(a * 2 + b, axis=0),
           lambda a, b: (a - b).argmin(axis=-1, keepdims=True),
           lambda a, b: np.argmax(np.abs(a[:, ::-1])))
    for dtype in (np.float32, np.float64, np.int64):
        for shape in ((3, 1000), (257, 130), (1, 300_001)):
            for case in ("plain", "ties", "nan"):
                if dtype == np.int64:
                    if case == "nan":
                        continue
                    a = rng.integers(-50, 50, shape)
                else:
                    a = rng.standard_normal(shape).astype(dtype)
                    if case == "nan":
                        a[-1, shape[1] // 2] = np.nan
                        a[0, -1] = np.nan
                if case == "ties":
                    a[:, 1::7] = a.max() + 1
                b = a[:1].copy() if dtype == np.int64 else \
                    rng.standard_normal((1, shape[1])).astype(dtype)
                for fn in fns:
                    got = stride.jit(fn, threads=threads)(a, b)
                    np.testing.assert_array_equal(got, fn(a, b),
                                                  err_msg=f"{dtype} {shape} {case}")
    a = rng.standard_normal((64, 64))
    text = stride.jit(fns[0]).kernel_text((a, a[:1]))
    e = stride.explain(stride.jit(fns[0]), a, a[:1])
    assert any("reduces (argmax) without storing the elementwise result" in k
               for k in e.text.splitlines()), e.text


@pytest.mark.parametrize("threads", [1, 2])
def test_whole_array_argmax_ties_and_nan_in_row_tails(threads):
    """A whole-array argmax/argmin over several reduced dims whose rows end
    in a partial lane block: the tails are accumulated after every row's
    main blocks, so a tie or NaN in an earlier row's tail must still win
    over a later row's (the first index, NumPy's)."""
    rng = np.random.default_rng(16)
    for dtype in (np.float32, np.float64):
        for shape in ((257, 130), (4, 1_000_003), (3, 5, 77)):
            a = rng.standard_normal(shape).astype(dtype)
            first = np.unravel_index(shape[-1] - 1, shape)   # row 0's tail
            later = tuple(s - 1 for s in shape[:-1]) + (shape[-1] // 2,)
            for fill in (np.nan, 99.0, -99.0):
                b = a.copy()
                b[first] = b[later] = fill
                for fn in (np.argmax, np.argmin):
                    np.testing.assert_array_equal(
                        stride.jit(fn, threads=threads)(b), fn(b),
                        err_msg=f"{dtype} {shape} {fill}")


@pytest.mark.parametrize("threads", [1, 2])
def test_argmax_and_max_by_block_maxima(threads):
    """np.argmax/argmin (and max/min) of a contiguous float array or of its
    rows fold blocks of four vectors to their maxima, and an index is found
    by rescanning the block a lane names (BlockMaxima.cpp): the first index
    of the best value, NaN (the first for an index)
    wherever it lies (a block, a run of another thread, the elements after
    the last block), ties between lanes, blocks and runs, -0.0 against
    0.0, infinities, arrays of only -inf or +inf, and sizes across the
    block and run boundaries."""
    rng = np.random.default_rng(60)
    for dtype in (np.float32, np.float64):
        block = 4 * (64 // np.dtype(dtype).itemsize)
        for n in (16 * block, 16 * block + 1, 64 * block - 1, 1000003,
                  (1 << 20) + 37):
            base = rng.standard_normal(n).astype(dtype)
            variants = [("random", base)]
            for where in (0, 1, block - 1, block, n // 2 - 1, n // 2,
                          n // 2 + 1, (n // block) * block - 1,
                          (n // block) * block, n - 1):
                where = min(where, n - 1)
                for fill in (np.nan, 50.0, -50.0, np.inf, -np.inf):
                    b = base.copy()
                    b[where] = fill
                    variants.append((f"{fill}@{where}", b))
            # Two NaN, the later in an earlier lane; a tie across runs.
            b = base.copy()
            b[n - 2] = b[n // 2 + 3] = np.nan
            variants.append(("two NaN", b))
            b = base.copy()
            b[n // 2 + block + 1] = b[n // 2 - 5] = 60.0
            b[n - 1] = -60.0
            variants.append(("tie across halves", b))
            b = base.copy()
            b[block + 2] = b[n - 1] = 70.0
            b[block + 3] = b[n - 2] = -70.0
            variants.append(("tie of a block and the last elements", b))
            variants.append(("zeros", np.where(base > 0, -0.0, 0.0)
                             .astype(dtype)))
            variants.append(("-inf", np.full(n, -np.inf, dtype)))
            variants.append(("+inf", np.full(n, np.inf, dtype)))
            variants.append(("sorted", np.sort(base)))
            variants.append(("reversed", np.sort(base)[::-1].copy()))
            for name, b in variants:
                for fn in (np.argmax, np.argmin):
                    got = stride.jit(fn, threads=threads)(b)
                    assert got == fn(b), (dtype, n, name, fn.__name__)
                # max and min take the same blocks: NaN wherever it lies.
                # (Which zero a mix of 0.0 and -0.0 gives depends on the
                # order of NumPy's own SIMD tree; it is not compared.)
                for fn in (np.max, np.min):
                    got, want = stride.jit(fn, threads=threads)(b), fn(b)
                    assert got.dtype == want.dtype
                    np.testing.assert_array_equal(got, want,
                                                  err_msg=f"{dtype} {n} {name}")
    # Rows of a matrix (and of a row-major view with gaps between rows,
    # and of a 3-D array over its last two dims), each by its own blocks.
    for dtype in (np.float32, np.float64):
        m = rng.standard_normal((37, 2 * 1031)).astype(dtype)
        m[3, 7] = m[3, 900] = 80.0
        m[5, 1030] = m[5, 2] = np.nan
        m[6, 1029] = m[6, 1030] = 81.0
        m[8] = -np.inf
        for x in (m, m[:, :1031], m[::-2, 5:1900]):
            for fn in (np.argmax, np.argmin, np.max, np.min):
                for axis in (-1, None):
                    f = stride.jit(lambda a, fn=fn, axis=axis: fn(a, axis=axis),
                                   threads=threads)
                    np.testing.assert_array_equal(f(x), fn(x, axis=axis),
                                                  err_msg=f"{dtype} {x.shape}")
        # Over 2 MiB: threads take rows.
        big = rng.standard_normal((64, 9000)).astype(dtype)
        big[10, 8999] = np.nan
        big[20, 100] = big[20, 8000] = 70.0
        for fn in (np.argmax, np.argmin, np.max, np.min):
            np.testing.assert_array_equal(
                stride.jit(lambda a, fn=fn: fn(a, axis=1), threads=threads)(big),
                fn(big, axis=1))
        # One row of over 2 MiB: its kept dim of size 1 takes the runs.
        one = rng.standard_normal((1, 700_001)).astype(dtype)
        one[0, 500_000] = 90.0
        for fn in (np.argmax, np.argmin, np.max, np.min):
            for keep in (False, True):
                np.testing.assert_array_equal(
                    stride.jit(lambda a, fn=fn, keep=keep:
                               fn(a, axis=1, keepdims=keep),
                               threads=threads)(one),
                    fn(one, axis=1, keepdims=keep))
        t = rng.standard_normal((3, 40, 70)).astype(dtype)
        t[1, 39, 69] = np.nan
        t[2, 0, 5] = t[2, 30, 1] = 50.0
        for fn in (np.argmax, np.argmin):
            flat = t.reshape(3, -1)
            got = stride.jit(lambda a, fn=fn: fn(a.reshape(3, -1), axis=1),
                             threads=threads)(t)
            np.testing.assert_array_equal(got, fn(flat, axis=1))
    # A contiguous matrix counts in row-major order, as its offsets do;
    # keepdims keeps a 1 x 1 result.
    m = rng.standard_normal((300, 517))
    m[299, 3] = m[17, 400] = 9.0
    assert stride.jit(np.argmax, threads=threads)(m) == 17 * 517 + 400
    keep = stride.jit(lambda x: np.argmin(x, axis=None, keepdims=True),
                      threads=threads)(m)
    np.testing.assert_array_equal(keep, np.argmin(m, axis=None, keepdims=True))


NAN_REDUCTIONS = ["nansum", "nanprod", "nanmean", "nanvar", "nanstd"]


def _nan_data(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    x = (0.5 + rng.random(shape)).astype(dtype)
    if np.dtype(dtype).kind == "f":
        x[rng.random(shape) < 0.2] = np.nan
        if len(shape) > 1:
            x[0] = np.nan  # an all-NaN slice along every later axis
    return x


@pytest.mark.parametrize("name", NAN_REDUCTIONS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.bool_])
def test_nan_reductions_match_numpy(name, dtype):
    """np.nansum, nanprod, nanmean, nanvar and nanstd run as Stride kernels
    (the reduction of a with NaN replaced, fused), with NumPy's values,
    dtypes and shapes: over every axis form, with keepdims, dtype= and ddof,
    on views, with all-NaN slices (NaN for the mean and variance, 0 or 1
    for sum and product) and ddof past the count (NaN); integers and bools
    take the plain reductions."""
    import warnings
    fn = getattr(np, name)
    x = _nan_data(dtype, (5, 37, 9), 1)
    views = [x[:, ::-2, 1:], x[3].T]
    forms = [{}, {"axis": 0}, {"axis": -1}, {"axis": (0, 2)},
             {"axis": 1, "keepdims": True}]
    if name in ("nanvar", "nanstd"):
        forms += [{"axis": 0, "ddof": 1}, {"axis": 2, "ddof": 9}]
    if np.dtype(dtype) == np.float32:
        forms.append({"axis": 1, "dtype": np.float64})
    rtol = 1e-5 if np.dtype(dtype) == np.float32 else 1e-12
    for v in views:
        for kw in forms:
            if max(np.atleast_1d(kw.get("axis", 0))) >= v.ndim:
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                want = fn(v, **kw)
                got = stride.jit(lambda a: fn(a, **kw))(v)
                # (policy torch refuses a lazy mean of integers, as PyTorch)
                lazy = stride.materialize(fn(stride.lazy(v), **kw)) \
                    if kw == {} and (name != "nanmean" or v.dtype.kind == "f") \
                    else want
            for g in (got, lazy):
                assert np.asarray(g).dtype == np.asarray(want).dtype, (name, kw)
                assert np.shape(g) == np.shape(want), (name, kw)
                np.testing.assert_allclose(g, want, rtol=rtol, atol=0,
                                           equal_nan=True, err_msg=str(kw))


def test_nan_reductions_are_one_kernel_and_fall_back_for_out():
    """nansum of a float array is one fused reduction (no NumPy call between
    kernels, which the explanation would name); out= and where= are NumPy's
    own inside a trace."""
    x = _nan_data(np.float64, (300, 40), 2)
    text = stride.explain(stride.jit(np.nansum), x).text
    assert "NumPy's own function" not in text
    out = np.empty(40)
    got = stride.jit(lambda a, o: np.nansum(a, axis=0, out=o))(x, out)
    np.testing.assert_allclose(got, np.nansum(x, axis=0), rtol=1e-12)
    mask = x > 1
    np.testing.assert_allclose(
        stride.jit(lambda a, m: np.nanmean(a, where=m))(x, mask),
        np.nanmean(x, where=mask), rtol=1e-12)


def test_where_and_initial_of_reductions():
    """where= (elements left out: the reduction's identity, or initial=,
    which max and min need then) and initial= as NumPy 1.24 computes them,
    for the functions and the ndarray methods; they were refused."""
    a = np.arange(12.0).reshape(3, 4) - 4
    i = a.astype(np.int64)
    fns = [
        (lambda a: np.sum(a, where=a > 2), a),
        (lambda a: a.sum(where=a > 2, axis=1), a),
        (lambda a: np.sum(a, where=a > 2, initial=5, axis=0), a),
        (lambda a: np.sum(a, where=1), a),
        (lambda a: np.sum(a, where=np.array([True, False, True, True])), a),
        (lambda a: np.sum(a, where=a > 2, dtype=np.float32), i),
        (lambda a: np.sum(a > 0, where=a < 5, axis=1), a),
        (lambda a: np.prod(a, where=a > 2, axis=1), a),
        (lambda a: a.prod(where=a != 0, initial=2), i),
        (lambda a: np.mean(a, where=a > -2, axis=1), i),
        (lambda a: np.mean(a, where=a > -3), a.astype(np.float32)),
        (lambda a: a.mean(where=[[True], [False], [True]], axis=0,
                          keepdims=True), a),
        (lambda a: np.max(a, where=a < 3, initial=-100, axis=1), a),
        (lambda a: a.min(where=a > 0, initial=100), i),
        (lambda a: np.any(a, where=a > 7), a),
        (lambda a: np.all(a > -5, where=a < 0, axis=0), a),
        (lambda a: a.all(where=a < 0), a),
    ]
    for fn, x in fns:
        with np.errstate(all="ignore"):
            want, got = fn(x), stride.jit(fn)(x)
        assert type(got) is type(want) and np.shape(got) == np.shape(want)
        assert np.asarray(got).dtype == np.asarray(want).dtype
        np.testing.assert_allclose(got, want, rtol=1e-6, equal_nan=True)
