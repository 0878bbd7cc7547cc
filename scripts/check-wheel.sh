#!/usr/bin/env bash
# Builds the stride wheel with Debian's pip/setuptools/wheel (reusing the
# CMake build in $STRIDE_BUILD_DIR, default build/), installs it into a fresh
# virtual environment that sees Debian's NumPy (--system-site-packages), and
# runs a small program from another directory with that environment's
# Python; then the same program against `cmake --install`'s package
# (PYTHONPATH=<prefix>/python_packages). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=$(cd "${STRIDE_BUILD_DIR:-build}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

STRIDE_BUILD_DIR="$BUILD_DIR" /usr/bin/python3 -m pip wheel -q --no-build-isolation \
  --no-deps --no-index -w "$tmp/dist" . 2>&1 | grep -v "^\s*$" || true
wheel=$(ls "$tmp"/dist/stride-*.whl)
echo "built $(basename "$wheel")"
/usr/bin/python3 -m venv --system-site-packages "$tmp/venv"
"$tmp/venv/bin/python" -m pip install -q --no-index --no-deps "$wheel"

cat > "$tmp/program.py" <<'PY'
import sys
import numpy as np
import stride

where = sys.argv[1]
assert stride.__file__.startswith(where), (stride.__file__, where)
x = np.arange(12, dtype=np.float32).reshape(3, 4).T
got = stride.materialize(np.sum(np.exp(stride.lazy(x) / 12) * 2, axis=0))
np.testing.assert_allclose(got, np.sum(np.exp(x / 12) * 2, axis=0), rtol=1e-6)
f = stride.jit(lambda a, b: np.cbrt(a) @ b)
b = np.ones((3, 2))
xd = x.astype(np.float64)
np.testing.assert_allclose(f(xd, b), np.cbrt(xd) @ b, rtol=1e-12)
print("ok:", stride.__file__)
PY
mkdir -p "$tmp/elsewhere"
(cd "$tmp/elsewhere" && "$tmp/venv/bin/python" "$tmp/program.py" "$tmp/venv")

cmake --install "$BUILD_DIR" --prefix "$tmp/prefix" > /dev/null
(cd "$tmp/elsewhere" && PYTHONPATH="$tmp/prefix/python_packages" \
  /usr/bin/python3 "$tmp/program.py" "$tmp/prefix/python_packages")
