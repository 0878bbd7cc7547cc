#!/usr/bin/python3
"""Benchmark: per-call overhead of small (16-element float32) calls, Stride
side by side with NumPy, numexpr, Numba and PyTorch, all measured in this
run (peers that are not installed are skipped with a printed line).

    S = 2*(S+1)*S - S          on x: 16 float32, written into o

Rows: a NumPy ufunc (np.add(x, x, out=o), the yardstick), the expression in
NumPy, Numba, PyTorch and numexpr, a cached `@stride.jit` call, the cached
`stride.compile`d IR, `stride.materialize` of an already-seen structure
(with and without building the lazy expression), and the bare kernel call. Also a
two-thread run of a larger `@stride.jit` kernel, to show that the GIL is
released while kernels run. Prints median microseconds per call and the
ratio to the NumPy ufunc; the targets of issue 16 are checked at the end.

Usage: PYTHONPATH=build/python bench/call_overhead.py [--repeat 7] [--number 20000]
"""
import argparse
import statistics
import sys
import threading
import time
import timeit

import numpy as np

import stride


def median_us(fn, repeat, number):
    fn()
    fn()
    times = timeit.repeat(fn, repeat=repeat, number=number)
    return statistics.median(times) / number * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--number", type=int, default=20000)
    args = parser.parse_args()
    r, n = args.repeat, args.number

    x = np.linspace(0, 1, 16, dtype=np.float32)
    o = np.empty_like(x)
    rows = []

    def add(name, fn):
        rows.append((name, median_us(fn, r, n)))

    add("numpy ufunc np.add(x, x, out=o)", lambda: np.add(x, x, out=o))
    add("numpy 2*(x+1)*x - x", lambda: 2 * (x + 1) * x - x)
    try:
        import numba

        @numba.njit(cache=False)
        def nb(v):
            return 2 * (v + 1) * v - v

        add("numba @njit", lambda: nb(x))
    except ImportError:
        print("numba: not installed (apt-get install python3-numba); skipped")
    try:
        import torch
        t = torch.from_numpy(x)
        add("torch 2*(t+1)*t - t", lambda: 2 * (t + 1) * t - t)
        add("torch torch.add(t, t, out=)", lambda: torch.add(t, t, out=torch.from_numpy(o)))
    except ImportError:
        print("torch: not installed (apt-get install python3-torch); skipped")
    try:
        import numexpr
        numexpr.set_num_threads(1)
        add("numexpr.evaluate", lambda: numexpr.evaluate("2*(x+1)*x - x", local_dict={"x": x}, out=o))
    except ImportError:
        print("numexpr: not installed (apt-get install python3-numexpr); skipped")

    @stride.jit
    def f(v):
        return 2 * (v + 1) * v - v

    add("stride @jit call (cached)", lambda: f(x))
    plan = next(iter(f._plans.values()))
    inputs = [x if s is not None else c for s, c in plan.sources]
    outs = [np.empty_like(x)]
    add("stride kernel alone (the plan's kernel)", lambda: plan.kernel(inputs, outs))

    fn = stride.compile("""
func.func @g(%x: tensor<?xf32>) -> tensor<*xf32> {
  %c1 = arith.constant 1.0 : f32
  %c2 = arith.constant 2.0 : f32
  %0 = stride.add %x, %c1 : tensor<?xf32>, f32 -> tensor<*xf32>
  %1 = stride.mul %0, %c2 : tensor<*xf32>, f32 -> tensor<*xf32>
  %2 = stride.mul %1, %x : tensor<*xf32>, tensor<?xf32> -> tensor<*xf32>
  %3 = stride.sub %2, %x : tensor<*xf32>, tensor<?xf32> -> tensor<*xf32>
  return %3 : tensor<*xf32>
}""", "g")
    add("stride.compile'd function", lambda: fn(x))
    S = stride.lazy(x)
    add("stride.materialize(2*(S+1)*S - S, out=o)",
        lambda: stride.materialize(2 * (S + 1) * S - S, out=o))
    add("  of which building 2*(S+1)*S - S", lambda: 2 * (S + 1) * S - S)
    expr = 2 * (S + 1) * S - S
    add("stride.materialize(prebuilt expr, out=o)",
        lambda: stride.materialize(expr, out=o))

    base = rows[0][1]
    width = max(len(name) for name, _ in rows)
    print(f"{'call':<{width}}  {'us/call':>8}  {'x ufunc':>8}")
    for name, us in rows:
        print(f"{name:<{width}}  {us:8.2f}  {us / base:8.2f}")
    values = dict(rows)
    jit_over = values["stride @jit call (cached)"] - values["stride kernel alone (the plan's kernel)"]
    print(f"@jit overhead above its kernel: {jit_over:.2f} us "
          f"(target <= 3 us; the NumPy ufunc call itself is {base:.2f} us)")
    full = values["stride.materialize(2*(S+1)*S - S, out=o)"]
    build = values["  of which building 2*(S+1)*S - S"]
    print(f"materialize of a seen structure: {full - build:.2f} us after "
          f"building the expression ({build:.2f} us), "
          f"{values['stride.materialize(prebuilt expr, out=o)']:.2f} us for a "
          f"prebuilt one (target <= 10 us)")

    # The GIL is released while a kernel runs: two threads calling a kernel
    # of ~ms each take about as long as one thread doing half the calls.
    big = np.linspace(0, 1, 1 << 21, dtype=np.float32)

    # One kernel thread each, so that the overlap measured is the two
    # Python threads' (a default kernel already uses every core).
    @stride.jit(threads=1)
    def heavy(v):
        return np.tanh(np.exp(v) * v + 1)

    heavy(big)
    calls = 16
    start = time.perf_counter()
    for _ in range(calls):
        heavy(big)
    serial = time.perf_counter() - start

    def work():
        for _ in range(calls // 2):
            heavy(big)

    threads = [threading.Thread(target=work) for _ in range(2)]
    start = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    parallel = time.perf_counter() - start
    print(f"GIL: {calls} calls on 2M floats: serial {serial * 1e3:.1f} ms, "
          f"2 threads {parallel * 1e3:.1f} ms (speed-up {serial / parallel:.2f}x; "
          "about 2x where two cores are free)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
