"""Repeated compile-and-run does not grow memory: the cache is bounded and an
evicted kernel frees its JIT engine (issue: reliability, memory)."""
import gc

import numpy as np

import stride


def resident_mib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20


def test_compiling_many_kernels_does_not_grow_memory():
    old = stride.cache_info().limit
    stride.set_cache_limit(4)
    try:
        def run(n):
            a = np.ones((n % 37 + 1, 3), np.float32)
            out = stride.materialize(stride.exp(stride.lazy(a)) * 2 + 1)
            assert out.shape == a.shape

        for n in range(40):  # warm up allocators and the LLVM/MLIR singletons
            run(n)
        gc.collect()
        before = resident_mib()
        misses = stride.cache_info().misses
        for n in range(40, 200):
            run(n)
        gc.collect()
        grown = resident_mib() - before
        info = stride.cache_info()
        assert info.size <= 4
        assert info.misses - misses >= 150  # really compiled anew each time
        # 160 compiles of engines that are kept would take far more than this.
        assert grown < 16, f"resident memory grew by {grown:.1f} MiB"
    finally:
        stride.set_cache_limit(old)
