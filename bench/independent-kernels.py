#!/usr/bin/python3
"""Hand-written NumPy kernels of the kinds issue 28's independent suite runs
(a great-circle distance, matrix-vector products in both layouts, matmul
chains, an integer chain, single transcendental functions, a few conjugate
gradient steps), and programs with NumPy calls Stride has no op for (run
between kernels: cumsum, sort, solve, integer-array indexing), and
products of a matrix with its own transpose (NumPy's dsyrk), matrix
chains, max and norm reductions, whole-array reductions and dot products
(threads), integer division by a scalar, each under
@stride.jit against the plain function, timed interleaved in one process
(best of 5 turns of best of 3 calls). Prints Stride's ratio to NumPy (> 1:
Stride faster). Threads: STRIDE_NUM_THREADS and OPENBLAS_NUM_THREADS.

    STRIDE_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 bench/independent-kernels.py [NAME ...]
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "build", "python"))

import numpy as np  # noqa: E402

import stride  # noqa: E402

rng = np.random.default_rng(0)


def great_circle(lat1, lon1, lat2, lon2):
    dlat, dlon = lat2 - lat1, lon2 - lon1
    a = np.sin(dlat / 2) ** 2 + np.cos(lat1) * np.cos(lat2) * np.sin(dlon / 2) ** 2
    return 2 * 6371.0 * np.arctan2(np.sqrt(a), np.sqrt(1 - a))


def cg(A, b, x):
    r = b - A @ x
    p = r.copy()
    rs = r @ r
    for _ in range(5):
        Ap = A @ p
        alpha = rs / (p @ Ap)
        x = x + alpha * p
        r = r - alpha * Ap
        rn = r @ r
        p = r + (rn / rs) * p
        rs = rn
    return x


N = 1 << 20
lat = rng.uniform(-1.5, 1.5, (4, N))
A2, x2 = rng.standard_normal((2000, 2000)), rng.standard_normal(2000)
A4, x5, y4 = (rng.standard_normal((4000, 5000)), rng.standard_normal(5000),
              rng.standard_normal(4000))
M5 = [rng.standard_normal((500, 500)) for _ in range(3)]
ia, ib = rng.integers(0, 1 << 20, (2, N))
S = rng.standard_normal((2, 1024, 1024)).astype(np.float32)
SPD = A2 @ A2.T / 2000 + np.eye(2000)
G = rng.random((1000, 1000))
XL = rng.standard_normal((2000, 300))
V = rng.standard_normal((500, 4000))
NG = np.where(rng.random((1000, 1000)) < 0.01, np.nan, G)
STACK = rng.standard_normal((64, 256, 256))
SMALL_STACK = rng.standard_normal((1000, 32, 32))
I64 = rng.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, N)
U8 = rng.integers(0, 256, N, dtype=np.uint8)
I16 = rng.integers(-32768, 32768, N, dtype=np.int16)

CASES = [
    ("great circle 1M f64", great_circle, tuple(lat)),
    ("A.T@(A@x) 2000^2", lambda A, x: A.T @ (A @ x), (A2, x2)),
    ("A.T@r, A@p 2000^2", lambda A, r, p: (A.T @ r, A @ p), (A2, x2, x2)),
    ("1.5A@x+0.5B@x 2000^2", lambda A, B, x: 1.5 * A @ x + 0.5 * B @ x,
     (A2, A2.T.copy(), x2)),
    ("A@B@C 500 f64", lambda A, B, C: A @ B @ C, tuple(M5)),
    ("int chain 1M i64", lambda a, b: ((a * 3 + b) ^ (a >> 2)) - (b & 255) * 7,
     (ia, ib)),
    ("tanh 1M f32", np.tanh, (lat[0].astype(np.float32),)),
    ("sin 1M f64", np.sin, (lat[0],)),
    ("exp 1M f64", np.exp, (lat[0],)),
    ("A@x 4000x5000", lambda A, x: A @ x, (A4, x5)),
    ("y@A 4000x5000", lambda y, A: y @ A, (y4, A4)),
    ("sgemm 1024", lambda a, b: a @ b, (S[0], S[1])),
    ("cg 5 steps 2000^2", cg, (SPD, x2, np.zeros(2000))),
    ("cumsum(exp(x)*2+1)*3-1 1M", lambda x: np.cumsum(np.exp(x) * 2 + 1) * 3 - 1,
     (lat[1],)),
    ("sort(sin(x))[::-1]+1 1M", lambda x: np.sort(np.sin(x))[::-1] + 1, (lat[1],)),
    ("solve(G@G.T/n+I, b)*2 1000^2",
     lambda G, b: np.linalg.solve(G @ G.T / 1000 + np.eye(1000), b) * 2,
     (G, x2[:1000])),
    ("x[arange(0,n,3)]*2+1 1M", lambda x: x[np.arange(0, x.size, 3)] * 2 + 1,
     (lat[1],)),
    ("X@X.T 1000x500", lambda X: X @ X.T, (G[:, :500].copy(),)),
    ("X.T@X 2000x300", lambda X: X.T @ X, (XL,)),
    ("solve(X.T@X, X.T@y) 2000x300",
     lambda X, y: np.linalg.solve(X.T @ X, X.T @ y), (XL, x2)),
    ("cov 500 vars x 4000", np.cov, (V,)),
    ("A@B@x chain 2000^2", lambda A, B, x: A @ B @ x, (A2, SPD, x2)),
    ("A.T@A@x chain 2000^2", lambda A, x: A.T @ A @ x, (A2, x2)),
    ("max 1M f64", np.max, (lat[2],)),
    ("max of rows 1000^2", lambda G: G.max(axis=1), (G,)),
    ("norm 1M f64", np.linalg.norm, (lat[3],)),
    ("any(x>5)|all(x<-5) 1M f64", lambda x: (x > 5).any() | (x < -5).all(),
     (lat[2] * 3,)),
    ("sum 1M f64", np.sum, (lat[2],)),
    ("dot 1M f64", np.dot, (lat[2], lat[3])),
    ("argmax 1M f64", np.argmax, (lat[2],)),
    ("argmax of rows 1000^2", lambda G: G.argmax(axis=1), (G,)),
    ("argmin of rows 4096x1024 f32", lambda X: X.argmin(axis=1),
     (np.resize(lat[0], (4096, 1024)).astype(np.float32),)),
    ("a//7 + a%10 1M i64", lambda a: a // 7 + a % 10, (ia - (1 << 19),)),
    ("(a*31+b)%1000003 1M i64", lambda a, b: (a * 31 + b) % 1000003, (ia, ib)),
    ("dgemm 200", lambda a, b: a @ b, (M5[0][:200, :200].copy(),
                                       M5[1][:200, :200].copy())),
    ("tanh 1M f64", np.tanh, (lat[0] * 3,)),
    ("sinh 1M f64", np.sinh, (lat[0] * 3,)),
    ("arctan 1M f64", np.arctan, (lat[0] * 30,)),
    ("x**3 1M f64", lambda x: x ** 3, (lat[1] + 2,)),
    # NumPy's power takes about 45 ns an element for negative bases.
    ("x**3 1M f64, negative bases", lambda x: x ** 3, (lat[1] - 2,)),
    ("gelu 1M f64", lambda x: 0.5 * x * (1 + np.tanh(0.7978845608 * (
        x + 0.044715 * x ** 3))), (lat[1] * 2,)),
    ("nanmean of rows 1000^2", lambda G: np.nanmean(G, axis=1), (NG,)),
    ("nansum 1M f64", np.nansum, (NG.ravel(),)),
    ("a//7 1M i32", lambda a: a // 7, ((ia - (1 << 19)).astype(np.int32),)),
    # One vector shared by a stack of matrices (NumPy: a gemv per matrix).
    ("stack@v 64x256x256", lambda s, v: s @ v, (STACK, x2[:256])),
    ("v@stack 64x256x256", lambda s, v: v @ s, (STACK, x2[:256])),
    ("stack@v 1000x32x32", lambda s, v: s @ v, (SMALL_STACK, x2[:32])),
    ("x[:,None]@W 4x128x256", lambda s, w: s[:4, None, :128] @ w,
     (STACK, A2[:256, :128])),
    # Integer division by kind of integer (NumPy: libdivide for a scalar
    # divisor, one division an element for an array).
    ("a//7 1M i64 full range", lambda a: a // 7, (I64,)),
    ("a%b 1M i64 full range", lambda a, b: a % b, (I64, ib + 1)),
    ("a//7 1M u8", lambda a: a // 7, (U8,)),
    ("a//b 1M u8", lambda a, b: a // b, (U8, (U8 | 1)[::-1].copy())),
    ("a//7 1M i16", lambda a: a // 7, (I16,)),
    ("fmod 1M i16", np.fmod, (I16, (I16 | 1)[::-1].copy())),
]


def best(fn, args, calls=3):
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - start)
    return min(times)


def main(names):
    print(f"threads: STRIDE_NUM_THREADS={os.environ.get('STRIDE_NUM_THREADS', '(cores)')}"
          f" OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', '(cores)')}")
    for name, fn, args in CASES:
        if names and not any(n in name for n in names):
            continue
        traced = stride.jit(fn)
        got, want = traced(*args), fn(*args)
        for g, w in zip(got if isinstance(got, tuple) else (got,),
                        want if isinstance(want, tuple) else (want,)):
            np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-3)
        ours, numpy = [], []
        for _ in range(5):
            ours.append(best(traced, args))
            numpy.append(best(fn, args))
        print(f"{name:30s} x NumPy {min(numpy) / min(ours):5.2f}  "
              f"(stride {min(ours) * 1e3:8.3f} ms, numpy {min(numpy) * 1e3:8.3f} ms)",
              flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
