#!/usr/bin/python3
"""Benchmark: stride.matmul against OpenBLAS sgemm and NumPy's matmul.

For each case the same product runs through `stride-run --bench` on one
thread and on all cores (`--num-threads`), OpenBLAS's cblas_sgemm
called through ctypes with one thread and with all cores, and np.matmul (whose
BLAS is whatever Debian's libblas.so.3 alternative points to). Prints medians
in ms, GFLOP/s and ratios.

Usage: bench/matmul.py [--stride-run build/bin/stride-run] [--runs 10]
OpenBLAS: apt-get install libopenblas0-pthread (else its columns say n/a).
"""
import argparse
import ctypes
import os
import re
import subprocess
import sys
import tempfile
import timeit

import numpy as np

CASES = [  # (lhs shape, rhs shape)
    ((256, 256), (256, 256)),
    ((512, 512), (512, 512)),
    ((1024, 1024), (1024, 1024)),
    ((8, 1, 128, 128), (1, 8, 128, 128)),  # broadcast batches (burn#1679)
]
OPENBLAS = "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0"


def type_of(shape):
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def stride_ms(binary, lhs, rhs, runs, threads=1):
    program = (f"func.func @mm(%a: {type_of(lhs)}, %b: {type_of(rhs)}) -> tensor<*xf32> {{\n"
               f"  %0 = stride.matmul %a, %b : {type_of(lhs)}, {type_of(rhs)} -> tensor<*xf32>\n"
               f"  return %0 : tensor<*xf32>\n}}\n")
    with tempfile.NamedTemporaryFile("w", suffix=".mlir") as f:
        f.write(program)
        f.flush()
        out = subprocess.run([binary, f.name, "--random-inputs", "--bench", str(runs),
                              "--num-threads", str(threads)],
                             capture_output=True, text=True, check=True).stdout
    return float(re.search(r"median ([0-9.]+) us", out).group(1)) / 1e3


def median_ms(fn, runs):
    fn()
    t = sorted(timeit.repeat(fn, number=1, repeat=runs))
    return t[len(t) // 2] * 1e3


def openblas_ms(lib, threads, a, b, runs):
    """Batched products as a loop of sgemm calls on the broadcast views."""
    if lib is None:
        return None
    lib.openblas_set_num_threads(threads)
    out = np.empty(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) +
                   (a.shape[-2], b.shape[-1]), np.float32)
    aa = np.broadcast_to(a, out.shape[:-2] + a.shape[-2:]).reshape(-1, *a.shape[-2:])
    bb = np.broadcast_to(b, out.shape[:-2] + b.shape[-2:]).reshape(-1, *b.shape[-2:])
    oo = out.reshape(-1, *out.shape[-2:])
    m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]
    ptr = ctypes.POINTER(ctypes.c_float)

    def run():
        for i in range(oo.shape[0]):
            # CblasRowMajor=101, CblasNoTrans=111
            lib.cblas_sgemm(101, 111, 111, m, n, k, ctypes.c_float(1.0),
                            aa[i].ctypes.data_as(ptr), k, bb[i].ctypes.data_as(ptr), n,
                            ctypes.c_float(0.0), oo[i].ctypes.data_as(ptr), n)
    return median_ms(run, runs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stride-run", default="build/bin/stride-run")
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    lib = ctypes.CDLL(OPENBLAS) if os.path.exists(OPENBLAS) else None
    cores = os.cpu_count()
    fmt = lambda v: "n/a" if v is None else f"{v:8.3f}"
    print(f"{'case':34s} {'stride':>8s} {'str ' + str(cores) + 't':>8s} {'blas 1t':>8s} "
          f"{'blas ' + str(cores) + 't':>8s} {'numpy':>8s}  stride GFLOP/s  "
          f"stride/blas-1t  stride-{cores}t/blas-{cores}t")
    rng = np.random.default_rng(1)
    for lhs, rhs in CASES:
        a = rng.random(lhs, dtype=np.float32)
        b = rng.random(rhs, dtype=np.float32)
        out_shape = np.matmul(a, b).shape
        flops = 2 * np.prod(out_shape) * lhs[-1]
        ours = stride_ms(args.stride_run, lhs, rhs, args.runs)
        ours_mt = stride_ms(args.stride_run, lhs, rhs, args.runs, cores)
        one = openblas_ms(lib, 1, a, b, args.runs)
        many = openblas_ms(lib, cores, a, b, args.runs)
        numpy = median_ms(lambda: np.matmul(a, b), args.runs)
        ratio = "n/a" if one is None else f"{ours / one:.2f}"
        ratio_mt = "n/a" if many is None else f"{ours_mt / many:.2f}"
        name = f"{lhs} @ {rhs}"
        print(f"{name:34s} {fmt(ours)} {fmt(ours_mt)} {fmt(one)} {fmt(many)} {fmt(numpy)}  "
              f"{flops / ours / 1e6:14.1f}  {ratio:>14s}  {ratio_mt:>16s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
