"""Stride: lazy broadcast expressions over NumPy arrays, compiled by the
Stride MLIR pipeline into one fused kernel, cached, and run zero-copy.

    import numpy as np, stride
    x = stride.lazy(np.random.rand(1000, 3).astype(np.float32).T)  # any strides
    y = stride.materialize(2 * stride.exp(x) + 1)   # one kernel, PyTorch's strides

    @stride.jit                                      # or trace plain NumPy code
    def f(x):
        return 2 * np.exp(x) + 1

See docs/python.md.
"""
from ._cache import (CacheInfo, cache_dir, cache_info, clear_cache,
                     set_cache_limit)
from ._expr import (Expr, REDUCTION_FUNCTIONS, TABLE_FUNCTIONS, clip, lazy,
                    matmul, where)
from ._explain import Explanation, explain
from ._run import Function, get_threads, materialize, set_threads
from ._distributed import DistributedFunction, compile
from ._stride import CompileError
from ._trace import JitFunction, fori_loop, jit

# One function per elementwise op of the dialect (its TableGen op table),
# under NumPy's names for it: stride.exp, stride.abs and stride.absolute,
# stride.logical_and, ... (stride.abs shadows the builtin only here).
globals().update(TABLE_FUNCTIONS)
# The reductions: stride.sum, prod, amax, amin, mean, argmax, argmin, any,
# all (and max, min as NumPy's aliases).
globals().update(REDUCTION_FUNCTIONS)
max, min = amax, amin  # noqa: F821 (shadow the builtins only here)

__all__ = ["lazy", "materialize", "compile", "explain", "Explanation", "matmul", "where", "clip",
           "cache_info", "cache_dir", "set_cache_limit", "clear_cache", "set_threads",
           "get_threads", "CacheInfo", "CompileError", "Expr", "Function", "DistributedFunction",
           "jit", "JitFunction", "fori_loop", "max", "min", *sorted(TABLE_FUNCTIONS),
           *sorted(REDUCTION_FUNCTIONS)]
