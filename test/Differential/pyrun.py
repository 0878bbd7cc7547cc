#!/usr/bin/python3
"""Runs one differential case through the Python package, like stride-run.

Part of the differential test (differential.py --python): the program's
@main goes through `stride.compile(text, "main", policy=..., fuse=...)` and
is called on NumPy arrays that really have the declared strides (permuted,
sliced, broadcast, negative), after `stride.set_threads(N)`. Prints one
`output #i: DTYPE SHAPE strides [...]` line per result, as stride-run does,
and saves each result as OUTDIR/out<i>.npy. Exit status 1 on a compile
error, 3 when the call wrote to an input.

    pyrun.py --mlir main.mlir --args args.json --policy P --threads N
        --output-dir OUTDIR [--no-fuse]

args.json lists, per argument of @main in order, {"path": .npy file,
"scalar": bool, "strides": element strides or null for row-major}.
"""
import argparse
import json
import os
import sys

import numpy as np


def strided_array(values, strides):
    """A view with `strides` (elements, any sign) holding `values`."""
    shape, item = values.shape, values.itemsize
    lo = hi = 0
    if values.size:
        for n, s in zip(shape, strides):
            if s > 0:
                hi += (n - 1) * s
            else:
                lo += (n - 1) * s
    buf = np.zeros(hi - lo + 1, values.dtype)
    view = np.lib.stride_tricks.as_strided(
        buf[-lo:], shape, [s * item for s in strides], writeable=True)
    view[...] = values
    return view


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mlir", required=True)
    ap.add_argument("--entry", default="main")
    ap.add_argument("--args", required=True)
    ap.add_argument("--policy", default="torch")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--output-dir", required=True)
    ap.add_argument("--no-fuse", action="store_true")
    opts = ap.parse_args()
    import stride
    with open(opts.mlir) as f:
        text = f.read()
    with open(opts.args) as f:
        specs = json.load(f)
    inputs, originals = [], []
    for spec in specs:
        v = np.load(spec["path"])
        if spec["scalar"]:
            inputs.append(v.dtype.type(v[()]))
            originals.append(None)
            continue
        if spec["strides"] is None:
            a = np.array(v, order="C")  # (ascontiguousarray makes 0-d 1-d)
        else:
            a = strided_array(v, spec["strides"])
        inputs.append(a)
        originals.append(np.array(a, copy=True))
    stride.set_threads(opts.threads)
    f = stride.compile(text, opts.entry, policy=opts.policy,
                       fuse=not opts.no_fuse)
    try:
        res = f(*inputs)
    except stride.CompileError as e:
        print(f"stride.CompileError: {e}", file=sys.stderr)
        return 1
    for i, (a, o) in enumerate(zip(inputs, originals)):
        if o is not None and not np.array_equal(a, o):
            print(f"pyrun: the call wrote to input #{i}", file=sys.stderr)
            return 3
    res = res if isinstance(res, tuple) else (res,)
    os.makedirs(opts.output_dir, exist_ok=True)
    for i, r in enumerate(res):
        r = np.asarray(r)
        strides = [s // r.itemsize for s in r.strides]
        shape = "x".join(map(str, r.shape))
        print(f"output #{i}: {r.dtype} {shape} strides "
              f"[{', '.join(map(str, strides))}]")
        np.save(os.path.join(opts.output_dir, f"out{i}.npy"), r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
