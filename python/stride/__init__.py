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
from ._cache import CacheInfo, cache_info, clear_cache, set_cache_limit
from ._expr import (Expr, absolute, exp, lazy, log, matmul, maximum, minimum,
                    negative, sigmoid, sqrt, tanh, where)
from ._expr import _BINARY_RULES, _UNARY_RULES
from ._expr import clip, invert, mod
from . import _expr

# NumPy's elementwise op set: one function per ufunc, named as in NumPy.
for _name in (*_UNARY_RULES, *_BINARY_RULES):
    globals()[_name] = getattr(_expr, _name)
del _name
from ._run import Function, compile, get_threads, materialize, set_threads
from ._stride import CompileError
from ._trace import JitFunction, jit

abs = absolute  # stride.abs, like numpy.abs (shadows the builtin only here)

__all__ = ["lazy", "materialize", "compile", "matmul", "where", "exp", "log",
           "sqrt", "tanh", "abs", "absolute", "negative", "sigmoid", "maximum",
           "minimum", "cache_info", "set_cache_limit", "clear_cache",
           "set_threads", "get_threads",
           "CacheInfo", "CompileError", "Expr", "Function", "jit",
           "JitFunction", "clip", "invert", "mod", *_UNARY_RULES, *_BINARY_RULES]
