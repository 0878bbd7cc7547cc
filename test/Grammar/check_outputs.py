"""Comparing what stride-run reported and wrote with the oracles."""

import os
import re

import numpy as np

from element_types import NPY_NAME, is_float

REPORT = re.compile(r"^output #(\d+): (\w+) (\S+) strides \[([^\]]*)\]$")


def parse_report(stdout):
    """[(dtype, shape, strides)] from stride-run's `output #k: f32 4x3
    strides [3, 1]` lines."""
    out = []
    for line in stdout.splitlines():
        m = REPORT.match(line.strip())
        if not m:
            continue
        shape = () if m.group(3) == "0-d" else tuple(int(x) for x in m.group(3).split("x"))
        strides = tuple(int(x) for x in m.group(4).split(",")) if m.group(4).strip() else ()
        out.append((m.group(2), shape, strides))
    return out


def tolerance(dt):
    return (2e-3, 2e-3) if dt == "f32" else (1e-8, 1e-8)


def non_overlapping(shape, strides):
    """Every element at its own address (stride 0 only on size-1 dims)."""
    n = int(np.prod(shape)) if shape else 1
    if n == 0 or n > 1 << 16:
        return True
    idx = np.indices(shape).reshape(len(shape), -1) if shape else np.zeros((0, 1), int)
    addr = (np.asarray(strides).reshape(-1, 1) * idx).sum(axis=0) if shape else np.zeros(1)
    return len(set(addr.tolist())) == n


def compare_outputs(prog, report, outdir):
    """[(kind, detail)] for every disagreement."""
    problems = []
    if len(report) != len(prog.results):
        return [("wrong number of outputs", "stride-run reported %d outputs, expected %d" % (
            len(report), len(prog.results)))]
    for k, (exp, (dt, shape, strides)) in enumerate(zip(prog.results, report)):
        where = "result #%d (%s, returned as %s)" % (k, exp["how"], exp["returned_as"])
        if dt != exp["dtype"]:
            problems.append(("wrong dtype", "%s: dtype %s, expected %s" % (where, dt, exp["dtype"])))
            continue
        if tuple(shape) != tuple(exp["shape"]):
            problems.append(("wrong shape", "%s: shape %s, expected %s" % (where, shape, tuple(exp["shape"]))))
            continue
        if exp["strides"] is not None and tuple(strides) != tuple(exp["strides"]):
            problems.append(("wrong strides", "%s: strides %s, the %s library gives %s" % (
                where, list(strides), prog.policy, exp["strides"])))
        elif not non_overlapping(shape, strides):
            problems.append(("overlapping output layout", "%s: strides %s overlap" % (where, list(strides))))
        path = os.path.join(outdir, "out%d.npy" % k)
        if not os.path.exists(path):
            problems.append(("missing output file", "%s: no %s" % (where, path)))
            continue
        got = np.load(path)
        want = np.asarray(exp["values"])
        if got.dtype != want.dtype or got.shape != want.shape:
            problems.append(("wrong output file", "%s: %s holds %s %s, expected %s %s" % (
                where, path, got.dtype, got.shape, want.dtype, want.shape)))
            continue
        if is_float(dt) and not exp["exact"]:
            rtol, atol = tolerance("f32" if exp.get("lowp") else dt)
            ok = np.allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
        elif is_float(dt):
            ok = bool(np.all((got == want) | (np.isnan(got) & np.isnan(want))))
        else:
            ok = bool(np.array_equal(got, want))
        if not ok:
            bad = np.argwhere(~np.isclose(got, want, rtol=0, atol=0, equal_nan=True)) \
                if got.ndim else [()]
            first = tuple(bad[0]) if len(bad) else ()
            problems.append(("wrong values", "%s: %s values differ from NumPy%s at %d of %d elements; "
                             "first at %s: got %r, expected %r" % (
                                 where, NPY_NAME[dt], "" if exp["exact"] else " (beyond tolerance)",
                                 len(bad), got.size, list(first), got[first], want[first])))
    return problems
