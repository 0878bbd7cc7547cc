#!/usr/bin/env bash
# UNVERIFIED DRAFT. Prepares, on a build machine, everything gpu-check.sh needs
# on the GPU machine (which has the driver, nvcc and Python with NumPy and
# PyTorch, but no LLVM/MLIR): one folder with GPU libraries of the examples,
# of a differential subset and of the benchmarks, the expected outputs (the
# CPU path's), stride-exec and the runtime library.
#
# It needs `stride-compile --target=gpu`, which does not exist yet: the AOT
# tools take --target=cpu only. Adding it means lowering with the CPU
# pipeline's `gpu` option (see lib/Pipelines/GpuPipeline.cpp) and linking
# the library with -lstride_gpu_runtime; stride-exec must then copy buffers
# to the device as stride-run --target=gpu does (lib/Runner/GpuBuffers.cpp).
#
#   scripts/gpu-prepare.sh [OUT]      (default build/gpu-check; under /build*, ignored)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${STRIDE_BUILD_DIR:-build}
OUT=${1:-$BUILD_DIR/gpu-check}
B=$BUILD_DIR/bin
for tool in stride-compile stride-exec stride-run stride-gpu-info; do
  [ -x "$B/$tool" ] || { echo "gpu-prepare: $B/$tool is missing (build it first)"; exit 1; }
done
rm -rf "$OUT"; mkdir -p "$OUT/bin" "$OUT/cases" "$OUT/bench"
cp "$B/stride-exec" "$B/stride-gpu-info" "$BUILD_DIR/lib/libstride_gpu_runtime.so" "$OUT/bin/"

compile() { # compile PROG.mlir DIR [stride-compile options...]
  local prog=$1 dir=$2; shift 2
  mkdir -p "$dir"
  "$B/stride-compile" "$prog" -o "$dir/lib.so" --entry main --target=gpu "$@"
}

# Correctness cases: the same --random-inputs --seed in stride-run (CPU,
# expected) and stride-exec (GPU) draw the same values.
n=0
for prog in examples/*.mlir; do
  name=$(basename "$prog" .mlir); dir=$OUT/cases/$name
  entry=$(grep -o 'func.func @[A-Za-z0-9_]*' "$prog" | head -1 | cut -c12-)
  mkdir -p "$dir"
  "$B/stride-compile" "$prog" -o "$dir/lib.so" --entry "$entry" --target=gpu
  "$B/stride-run" "$prog" --entry "$entry" --random-inputs --seed 1 --output-dir "$dir/expected" > /dev/null
  echo "$entry" > "$dir/entry"
  n=$((n + 1))
done
diff_dir=$(mktemp -d)
/usr/bin/python3 test/Differential/differential.py --stride-run "$B/stride-run" \
  --count 40 --seed 11 --keep "$diff_dir" > /dev/null
for case in "$diff_dir"/case*; do
  policy=$(head -1 "$case/main.mlir" | grep -o 'policy [a-z]*' | cut -d' ' -f2)
  dir=$OUT/cases/diff-$(basename "$case")
  # Programs whose result shapes depend on input sizes do not compile ahead
  # of time; they are skipped with a line.
  if ! compile "$case/main.mlir" "$dir" --policy "${policy:-torch}" 2> "$dir.err"; then
    echo "skipped $(basename "$case"): $(head -1 "$dir.err")"; rm -rf "$dir" "$dir.err"; continue
  fi
  rm -f "$dir.err"
  "$B/stride-run" "$case/main.mlir" --entry main --policy "${policy:-torch}" \
    --random-inputs --seed 1 --output-dir "$dir/expected" > /dev/null
  echo main > "$dir/entry"
  n=$((n + 1))
done
rm -rf "$diff_dir"

for prog in bench/gpu/*.mlir; do
  compile "$prog" "$OUT/bench/$(basename "$prog" .mlir)"
done
cp scripts/gpu-check.sh "$OUT/"
echo "gpu-prepare: $n cases and $(ls "$OUT/bench" | wc -l) benchmarks in $OUT ($(du -sh "$OUT" | cut -f1))"
