"""Comparison: values against the oracle, and parsing of stride-run / stride-opt output.

Part of the differential test; see differential.py."""
from common import *  # noqa: F401,F403
from program import *  # noqa: F401,F403
from layouts import *  # noqa: F401,F403
from generator import *  # noqa: F401,F403
from oracles import *  # noqa: F401,F403


def compare_values(got, want, bound, dtype):
    """None if `got` matches `want`, else a short description."""
    if got.shape != want.shape:
        return f"shape {got.shape} != expected {want.shape}"
    if got.dtype != want.dtype:
        return f"dtype {got.dtype} != expected {want.dtype}"
    if dtype not in UNIT_ROUNDOFF:
        bad = got != want
    else:
        g, w = got.astype(np.float64), want.astype(np.float64)
        tol = 1e-6 + 1e-5 * np.abs(w)
        if bound is not None:
            b = np.where(np.isfinite(bound), bound, 0.0)
            tol = tol + 4 * b
        with np.errstate(all="ignore"):
            close = np.abs(g - w) <= tol
        nan = np.isnan(w)
        inf = np.isinf(w)
        ok = np.where(nan, np.isnan(g), np.where(inf, g == w, close))
        if bound is not None:
            # A finite value whose rounding error has no bound (a division
            # by a difference that rounding can make zero) can come out as
            # anything, NaN included, from a correct compiler: it is not
            # compared.
            ok |= np.isposinf(bound) & np.isfinite(w)
        bad = ~ok
    if not np.any(bad):
        return None
    idx = tuple(int(i) for i in np.argwhere(bad)[0])
    return (f"{int(np.count_nonzero(bad))} of {got.size} values differ; first "
            f"at {list(idx)}: got {got[idx]!r}, expected {want[idx]!r}")


OUTPUT_RE = re.compile(r"output #(\d+):\s*(\w+)\s*(.*?)\s*strides\s*\[([^\]]*)\]")


def parse_outputs(stdout):
    outs = {}
    for m in OUTPUT_RE.finditer(stdout):
        shape_text = m.group(3).strip()
        shape = tuple(int(s) for s in shape_text.split("x")) \
            if re.fullmatch(r"\d+(x\d+)*", shape_text) else ()
        strides = [int(s) for s in m.group(4).replace(",", " ").split()]
        outs[int(m.group(1))] = (DTYPE_ALIASES.get(m.group(2), m.group(2)),
                                 shape, strides)
    return outs


def tensor_types(text):
    """Every tensor<...> type in `text`, brackets matched."""
    out, i = [], 0
    while True:
        i = text.find("tensor<", i)
        if i < 0:
            return out
        depth, j = 0, i + len("tensor")
        while True:
            if text[j] == "<": depth += 1
            elif text[j] == ">":
                depth -= 1
                if depth == 0: break
            j += 1
        out.append(text[i:j + 1])
        i = j + 1


def parse_tensor_type(t):
    m = re.fullmatch(r"tensor<([^,]*?)(?:, (#stride\.layout<.*>))?>", t)
    parts = m.group(1).split("x")
    shape, dtype = tuple(int(p) for p in parts[:-1]), parts[-1]
    if m.group(2) is None:
        return dtype, shape, contiguous_strides(shape)
    lm = re.search(r"(strides|perm) = \[([^\]]*)\]", m.group(2))
    nums = [int(s) for s in lm.group(2).replace(",", " ").split()]
    if lm.group(1) == "perm":
        return dtype, shape, strides_from_perm(shape, nums)
    return dtype, shape, nums
