#!/usr/bin/python3
"""Benchmark: a 4-op elementwise chain on 16M float32, fused vs unfused vs NumPy.

    out = (x * y + 1) * x - y        x, y: 4096 x 4096 float32 (16M elements)

Runs the same program through `stride-run --bench` twice (fused, the default,
and `--no-fuse`, one kernel and one 64 MiB temporary per op), times NumPy on
the same expression in this process, and times a plain copy
(`np.copyto`) as a memory-bandwidth yardstick. Prints medians and ratios.

Usage: bench/fusion.py [--stride-run build/bin/stride-run] [--runs 20]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import timeit

import numpy as np

from programs import chain

PROGRAM = chain(4096)


def stride_run(binary, path, runs, extra):
    out = subprocess.run([binary, path, "--random-inputs", "--seed", "1",
                          "--bench", str(runs)] + extra,
                         capture_output=True, text=True, check=True).stdout
    m = re.search(r"median ([0-9.]+) us, min ([0-9.]+) us", out)
    return float(m.group(1)) / 1e3, float(m.group(2)) / 1e3


def numpy_time(fn, runs):
    fn()
    times = sorted(timeit.repeat(fn, number=1, repeat=runs))
    return times[len(times) // 2] * 1e3, times[0] * 1e3


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stride-run", default="build/bin/stride-run")
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "chain.mlir")
        with open(path, "w") as f:
            f.write(PROGRAM)
        fused = stride_run(args.stride_run, path, args.runs, [])
        threads = os.cpu_count()
        fused_mt = stride_run(args.stride_run, path, args.runs,
                              ["--num-threads", str(threads)])
        unfused = stride_run(args.stride_run, path, args.runs, ["--no-fuse"])

    rng = np.random.default_rng(1)
    x = rng.random((4096, 4096), dtype=np.float32)
    y = rng.random((4096, 4096), dtype=np.float32)
    one = np.float32(1)
    numpy = numpy_time(lambda: (x * y + one) * x - y, args.runs)
    out = np.empty_like(x)
    copy = numpy_time(lambda: np.copyto(out, x), args.runs)

    print("4-op chain (x*y + 1)*x - y on 4096x4096 f32, median (min) ms")
    for name, (med, low) in [("stride fused", fused),
                             (f"stride fused, {threads} threads", fused_mt),
                             ("stride unfused", unfused),
                             ("numpy", numpy),
                             ("numpy copy (bandwidth)", copy)]:
        print(f"  {name:24s} {med:9.3f} ({low:.3f})")
    print(f"ratio unfused/fused:      {unfused[0] / fused[0]:.2f}")
    print(f"ratio numpy/fused:        {numpy[0] / fused[0]:.2f}")
    print(f"ratio fused/copy:         {fused[0] / copy[0]:.2f}  "
          "(a copy moves 2 of the fused kernel's 3 arrays)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
