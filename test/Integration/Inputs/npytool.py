#!/usr/bin/env python3
"""Makes .npy inputs and checks stride-run's outputs against NumPy.

  npytool.py make DIR NAME=EXPR ...   evaluate each EXPR (NumPy, with rand(*shape)
                                      giving seeded float32 values in [-2, 2))
                                      and save it as DIR/NAME.npy
  npytool.py check DIR EXPR OUT.npy [ATOL]
                                      load every DIR/*.npy as a variable, evaluate
                                      EXPR and compare with OUT.npy (shape, dtype,
                                      values: allclose with rtol 1e-5 and ATOL,
                                      default 1e-6, for floats; exact otherwise)
"""
import glob
import os
import sys

import numpy as np

rng = np.random.default_rng(1234)


def rand(*shape, dtype=np.float32):
    return (rng.random(shape) * 4 - 2).astype(dtype)


def main():
    cmd, directory = sys.argv[1], sys.argv[2]
    if cmd == "make":
        for item in sys.argv[3:]:
            name, expr = item.split("=", 1)
            value = np.asarray(eval(expr, {"np": np, "rand": rand}))
            np.save(os.path.join(directory, name + ".npy"), value)
        return 0
    expr, out = sys.argv[3], sys.argv[4]
    # Long sums (matmul) cancel near zero: their callers pass a larger atol.
    atol = float(sys.argv[5]) if len(sys.argv) > 5 else 1e-6
    env = {"np": np}
    for path in glob.glob(os.path.join(directory, "*.npy")):
        env[os.path.basename(path)[:-4]] = np.load(path)
    with np.errstate(all="ignore"):
        expected = np.asarray(eval(expr, env))
    actual = np.load(out)
    if actual.shape != expected.shape or actual.dtype != expected.dtype:
        print(f"MISMATCH: got {actual.dtype} {actual.shape}, "
              f"expected {expected.dtype} {expected.shape}")
        return 1
    if actual.dtype.kind == "f":
        ok = np.allclose(actual, expected, rtol=1e-5, atol=atol, equal_nan=True)
    else:
        ok = np.array_equal(actual, expected)
    if not ok:
        print(f"MISMATCH: got\n{actual}\nexpected\n{expected}")
        return 1
    print(f"values match NumPy: {expr}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
