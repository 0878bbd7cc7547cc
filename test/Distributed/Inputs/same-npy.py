"""Exit 0 when every outN.npy in two directories has the same dtype, shape
and values (floats to a relative 1e-5: a split contraction sums in another
order); else print what differs and exit 1."""
import pathlib
import sys

import numpy as np

one, two = (pathlib.Path(p) for p in sys.argv[1:3])
names = sorted(p.name for p in one.glob("out*.npy"))
if not names or names != sorted(p.name for p in two.glob("out*.npy")):
    sys.exit(f"different outputs: {names} vs {sorted(p.name for p in two.glob('out*.npy'))}")
for name in names:
    a, b = np.load(one / name), np.load(two / name)
    if a.dtype != b.dtype or a.shape != b.shape:
        sys.exit(f"{name}: {a.dtype}{a.shape} vs {b.dtype}{b.shape}")
    same = (np.allclose(a, b, rtol=1e-5, atol=1e-6, equal_nan=True)
            if a.dtype.kind == "f" else np.array_equal(a, b))
    if not same:
        sys.exit(f"{name}: values differ, max |a-b| = {np.max(np.abs(a - b))}")
    print(f"same {name} {a.dtype} {a.shape}")
