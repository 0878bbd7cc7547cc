#!/usr/bin/python3
"""Benchmark: compile time of stride-fuse on long chains of elementwise ops.

    %k = stride.add %{k-1}, %x     for k = 1 .. N   (N up to 10,000)

Runs `stride-opt --stride-infer-shapes --stride-propagate-layout
--stride-generalize --stride-fuse --mlir-timing` on each chain and prints the
wall time of stride-fuse, its time per op (flat when fusion is linear), and
its ratio to stride-generalize, a single walk measured in the same run. The
chain fuses into one stride.broadcast (checked). Exits non-zero when the
10,000-op chain takes 0.2 s or more in stride-fuse.

Usage: bench/fuse_chain.py [--stride-opt build/bin/stride-opt] [--sizes 1000,2000,5000,10000]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def chain(n):
    t = "tensor<1024xf32>"
    lines = [f"func.func @chain(%x: {t}) -> {t} {{", f"  %v0 = stride.neg %x : {t} -> {t}"]
    for k in range(1, n):
        lines.append(f"  %v{k} = stride.add %v{k-1}, %x : {t}, {t} -> {t}")
    lines += [f"  return %v{n-1} : {t}", "}"]
    return "\n".join(lines) + "\n"


def pass_time(report, name):
    """Wall seconds of pass `name` in an --mlir-timing report."""
    for line in report.splitlines():
        if line.rstrip().endswith(name):
            return float(line.split()[0])
    raise RuntimeError(f"no timing line for {name} in:\n{report}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stride-opt", default=os.path.join(ROOT, "build", "bin", "stride-opt"))
    ap.add_argument("--sizes", default="1000,2000,5000,10000")
    args = ap.parse_args()
    print(f"{'ops':>6} {'stride-fuse s':>14} {'us/op':>8} {'generalize s':>13} {'fuse/generalize':>16}")
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            path = os.path.join(tmp, f"chain{n}.mlir")
            with open(path, "w") as f:
                f.write(chain(n))
            run = subprocess.run(
                [args.stride_opt, path, "--stride-infer-shapes",
                 "--stride-propagate-layout", "--stride-generalize",
                 "--stride-fuse", "--mlir-timing"],
                capture_output=True, text=True, check=True)
            fuse = pass_time(run.stderr, "StrideFuse")
            generalize = pass_time(run.stderr, "StrideGeneralize")
            kernels = run.stdout.count("stride.broadcast")
            if kernels != 1:
                sys.exit(f"the {n}-op chain fused into {kernels} ops, not 1")
            print(f"{n:>6} {fuse:>14.4f} {fuse / n * 1e6:>8.2f} {generalize:>13.4f} "
                  f"{fuse / generalize:>16.2f}")
            if n >= 10000:
                worst = max(worst, fuse)
    if worst >= 0.2:
        sys.exit(f"stride-fuse took {worst:.3f} s on 10,000 ops (limit 0.2 s)")


if __name__ == "__main__":
    main()
