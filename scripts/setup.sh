#!/usr/bin/env bash
# Installs the Debian packages Stride needs (only the missing ones) and
# configures + builds it with Ninja into build/. Idempotent; quiet when
# everything is present.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(cmake ninja-build ccache g++ git llvm-22-dev libmlir-22-dev mlir-22-tools
          llvm-22-tools libgtest-dev pybind11-dev python3-dev python3-numpy
          python3-pytest python3-torch clang-22 libclang-rt-22-dev
          libopenblas0-pthread libomp-22-dev python3-hypothesis
          python3-pip python3-venv python3-setuptools python3-wheel
          python3-matplotlib
          openmpi-bin libopenmpi-dev mpich libmpich-dev python3-mpi4py)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

BUILD_DIR=${STRIDE_BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ >/dev/null
fi
ninja -C "$BUILD_DIR" -j"${STRIDE_JOBS:-2}" ${STRIDE_TARGETS:-all}

# Make `import stride` work with Debian's /usr/bin/python3: a .pth file in
# its site directory points at the built package (build/python).
SITE=$(/usr/bin/python3 -c 'import sysconfig; print(sysconfig.get_path("purelib", "posix_local"))' 2>/dev/null || true)
if [ -n "$SITE" ] && [ -d "$BUILD_DIR/python/stride" ]; then
  mkdir -p "$SITE" 2>/dev/null && \
    echo "$(cd "$BUILD_DIR/python" && pwd)" > "$SITE/stride-build.pth" 2>/dev/null || true
fi
