"""The kernel cache: hits for the same structure, dtypes, shapes, strides and
policy; misses otherwise; a bounded LRU."""
import threading

import numpy as np
import pytest

import stride


@pytest.fixture
def fresh_cache():
    old = stride.set_cache_limit(256)
    stride.clear_cache()
    yield
    stride.set_cache_limit(old)


def delta(before):
    after = stride.cache_info()
    return after.hits - before.hits, after.misses - before.misses


def test_repeated_call_hits(fresh_cache):
    x = np.random.default_rng(0).random((8, 5)).astype(np.float32)
    stride.materialize(2 * stride.exp(stride.lazy(x)) + 1)
    info = stride.cache_info()
    assert (info.hits, info.misses, info.size) == (0, 1, 1)
    assert info.compile_seconds > 0 and info.limit == 256
    before = stride.cache_info()
    y = x.copy()                                   # another array, same layout
    r = stride.materialize(3 * stride.exp(stride.lazy(y)) + 0.5)  # other scalars
    assert delta(before) == (1, 0)
    np.testing.assert_allclose(r, 3 * np.exp(y) + 0.5, rtol=1e-6)
    assert stride.cache_info().compile_seconds == before.compile_seconds


def test_what_misses(fresh_cache):
    x = np.ones((4, 6), np.float32)
    stride.materialize(stride.lazy(x) + 1)
    for expr, policy in [
        (stride.lazy(np.ones((4, 7), np.float32)) + 1, "torch"),   # shape
        (stride.lazy(x[:, ::2]) + 1, "torch"),                      # strides
        (stride.lazy(x.T) + 1, "torch"),                            # strides
        (stride.lazy(x) + 1, "numpy"),                              # policy
        (stride.lazy(x.astype(np.float64)) + 1, "torch"),           # dtype
        (stride.lazy(x) - 1, "torch"),                              # structure
        (1 + stride.lazy(x), "torch"),                              # operand order
        (stride.lazy(x) + x[::-1], "torch"),                        # two arguments
    ]:
        before = stride.cache_info()
        stride.materialize(expr, policy=policy)
        assert delta(before) == (0, 1), expr
    before = stride.cache_info()
    stride.materialize(stride.lazy(x) + x, policy="torch")          # x twice: one argument
    stride.materialize(stride.lazy(x) + x, policy="torch")
    assert delta(before) == (1, 1)


def test_out_has_its_own_kernels(fresh_cache):
    x = np.ones((3, 4), np.float32)
    out = np.empty((4, 3), np.float32).T
    stride.materialize(stride.lazy(x) * 2, out=out)
    before = stride.cache_info()
    stride.materialize(stride.lazy(x) * 5, out=np.empty((4, 3), np.float32).T)
    assert delta(before) == (1, 0)
    stride.materialize(stride.lazy(x) * 5, out=np.empty((3, 4), np.float32))
    assert delta(before) == (1, 1)


def test_bounded_lru(fresh_cache):
    stride.set_cache_limit(3)
    xs = [np.ones(n, np.float32) for n in range(1, 7)]
    for x in xs:
        stride.materialize(stride.lazy(x) + 1)
    info = stride.cache_info()
    assert info.size == 3 and info.limit == 3 and info.misses == 6
    before = stride.cache_info()
    stride.materialize(stride.lazy(xs[-1]) + 1)     # recent: kept
    assert delta(before) == (1, 0)
    stride.materialize(stride.lazy(xs[0]) + 1)      # oldest: evicted, recompiled
    assert delta(before) == (1, 1)
    assert stride.cache_info().size == 3
    assert stride.set_cache_limit(1) == 3
    assert stride.cache_info().size == 1
    stride.set_cache_limit(0)                       # caching off: still runs
    np.testing.assert_array_equal(stride.materialize(stride.lazy(xs[2]) + 1), xs[2] + 1)
    assert stride.cache_info().size == 0


def test_limit_validation_and_clear(fresh_cache):
    for bad in (-1, 2.5, "10", True):
        with pytest.raises(ValueError):
            stride.set_cache_limit(bad)
    stride.materialize(stride.lazy(np.ones(2)) + 1)
    stride.clear_cache()
    assert stride.cache_info() == stride.CacheInfo(0, 0, 0.0, 0, 256)


def test_threads_share_the_cache(fresh_cache):
    x = np.arange(1000, dtype=np.float64)
    results, errors = [None] * 8, []

    def work(i):
        try:
            results[i] = stride.materialize(stride.lazy(x) * i + 1)
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for i, r in enumerate(results):
        np.testing.assert_array_equal(r, x * i + 1)
    assert stride.cache_info().size == 1
