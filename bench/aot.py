#!/usr/bin/python3
"""Benchmark: ahead-of-time kernels (stride-compile + stride-exec) against the JIT.

The same programs, compiled the same way, should run equally fast through
both routes; what can differ is the cost of a call. For each kernel this
compiles a library, times `stride-exec --bench` and `stride-run --bench` on
the same seeded random inputs, and prints both medians and the ratio
AOT / JIT.

    tiny      examples/demo.mlir: exp(a) + bias on 24 elements (call overhead)
    chain     (x*y + 1)*x - y on two 1024x1024 float32 arrays
    matmul    [8,128,128] @ [128,128] float32, broadcast batch

Usage: bench/aot.py [--bin build/bin] [--runs 200]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

from programs import chain

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CHAIN = chain(1024)

MATMUL = """
func.func @matmul(%a: tensor<8x128x128xf32>, %b: tensor<128x128xf32>) -> tensor<*xf32> {
  %0 = stride.matmul %a, %b : tensor<8x128x128xf32>, tensor<128x128xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
"""


def median_us(command):
    out = subprocess.run(command, stdout=subprocess.PIPE, universal_newlines=True,
                         check=True).stdout
    return float(re.search(r"median ([0-9.]+) us", out).group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="stride-aot-bench-")
    programs = [("tiny", os.path.join(ROOT, "examples", "demo.mlir"))]
    for name, text in [("chain", CHAIN), ("matmul", MATMUL)]:
        path = os.path.join(work, name + ".mlir")
        with open(path, "w") as f:
            f.write(text)
        programs.append((name, path))
    print("%-8s %12s %12s %10s" % ("kernel", "JIT us", "AOT us", "AOT/JIT"))
    for name, path in programs:
        library = os.path.join(work, "lib%s.so" % name)
        subprocess.run([os.path.join(args.bin, "stride-compile"), path, "-o", library],
                       check=True)
        common = ["--random-inputs", "--seed", "1", "--bench", str(args.runs)]
        jit = median_us([os.path.join(args.bin, "stride-run"), path] + common)
        aot = median_us([os.path.join(args.bin, "stride-exec"), library] + common)
        print("%-8s %12.3f %12.3f %10.2f" % (name, jit, aot, aot / jit))
    return 0


if __name__ == "__main__":
    sys.exit(main())
