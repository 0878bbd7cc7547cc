#!/usr/bin/python3
"""Fused chains of transcendental functions (stride-split-math-chains):
each kernel under @stride.jit against the plain NumPy function on 2^20
elements, best of 3 turns of best of 5 calls, in one process. Prints
Stride's ratio to NumPy (> 1: Stride faster). Threads: STRIDE_NUM_THREADS.

    STRIDE_NUM_THREADS=1 bench/math_chains.py
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "build", "python"))

import numpy as np  # noqa: E402

import stride  # noqa: E402

rng = np.random.default_rng(0)
x = rng.random(1 << 20)
x4 = x * 4 - 2
lat = [rng.random(1 << 20) for _ in range(4)]


def great_circle(lat1, lon1, lat2, lon2):
    dlat, dlon = lat2 - lat1, lon2 - lon1
    a = np.sin(dlat / 2) ** 2 + np.cos(lat1) * np.cos(lat2) * np.sin(dlon / 2) ** 2
    return 2 * 6371.0 * np.arctan2(np.sqrt(a), np.sqrt(1 - a))


CASES = [
    ("log1p(exp(x)) f64", lambda x: np.log1p(np.exp(x)), (x,)),
    ("sin(exp(x)) f64", lambda x: np.sin(np.exp(x)), (x,)),
    ("log1p(exp(x)) f32", lambda x: np.log1p(np.exp(x)), (x.astype(np.float32),)),
    ("tanh(sin(x))*cos(x) f32", lambda x: np.tanh(np.sin(x)) * np.cos(x),
     (x.astype(np.float32),)),
    ("exp(sin(cos(x))) f64", lambda x: np.exp(np.sin(np.cos(x))), (x,)),
    ("great circle f64", great_circle, tuple(lat)),
    ("x + log(1 + exp(-|x|)) f64", lambda x: x + np.log(1 + np.exp(-np.abs(x))), (x,)),
    ("1 / (1 + exp(-log(x + 1))) f64", lambda x: 1 / (1 + np.exp(-np.log(x + 1))), (x,)),
    ("sin(log1p(exp(x))) f64", lambda x: np.sin(np.log1p(np.exp(x))), (x4,)),
]


def best(fn, args, calls=5):
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    print(f"threads: STRIDE_NUM_THREADS={os.environ.get('STRIDE_NUM_THREADS', '(cores)')}")
    for name, fn, args in CASES:
        traced = stride.jit(fn)
        rtol = 2e-6 if args[0].dtype == np.float32 else 1e-13
        np.testing.assert_allclose(traced(*args), fn(*args), rtol=rtol)
        mine = min(best(traced, args) for _ in range(3))
        theirs = min(best(fn, args) for _ in range(3))
        print(f"{name:32s} x NumPy {theirs / mine:5.2f}  "
              f"(stride {mine * 1e3:7.3f} ms, numpy {theirs * 1e3:7.3f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
