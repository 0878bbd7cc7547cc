#!/usr/bin/env bash
# Prepares, on a build machine, everything gpu-check.sh needs on the GPU
# machine (which has the driver, nvcc and Python, but no LLVM/MLIR): one
# git-ignored folder with GPU libraries (stride-compile --target=gpu) of the
# examples, of a differential subset and of the benchmarks, their expected
# outputs (computed by the CPU path, stride-run, with the same
# --random-inputs --seed that gpu-check.sh gives stride-exec), and the runner:
# stride-exec, stride-gpu-info, libstride_runtime.so, libstride_gpu_runtime.so.
#
#   scripts/gpu-prepare.sh [OUT]      (default build/gpu-check; /build* is ignored)
#
# Then carry OUT to the GPU machine and run OUT/gpu-check.sh there.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${STRIDE_BUILD_DIR:-build}
OUT=${1:-$BUILD_DIR/gpu-check}
B=$BUILD_DIR/bin
L=$BUILD_DIR/lib
for f in "$B/stride-compile" "$B/stride-opt" "$B/stride-exec" "$B/stride-run" "$B/stride-gpu-info" \
         "$L/libstride_runtime.so" "$L/libstride_gpu_runtime.so"; do
  [ -e "$f" ] || { echo "gpu-prepare: $f is missing (build it first: ninja -C $BUILD_DIR)" >&2; exit 1; }
done
rm -rf "$OUT"
mkdir -p "$OUT/bin" "$OUT/cases" "$OUT/bench"
cp "$B/stride-exec" "$B/stride-gpu-info" "$L/libstride_runtime.so" \
   "$L/libstride_gpu_runtime.so" "$OUT/bin/"
cp scripts/gpu-check.sh "$OUT/"

# add_case NAME PROG ENTRY POLICY: the GPU library and the CPU path's
# outputs for --random-inputs --seed 1; a program that cannot be compiled
# ahead of time or run with random inputs is skipped with a line.
n=0; skipped=0
add_case() {
  local name=$1 prog=$2 entry=$3 policy=$4 dir=$OUT/cases/$1 log
  mkdir -p "$dir"
  log=$(mktemp)
  if ! "$B/stride-compile" "$prog" -o "$dir/lib.so" --entry "$entry" \
         --policy "$policy" --target=gpu 2> "$log" ||
     ! "$B/stride-run" "$prog" --entry "$entry" --policy "$policy" \
         --random-inputs --seed 1 --output-dir "$dir/expected" > /dev/null 2>> "$log"; then
    echo "gpu-prepare: skipped $name: $(head -1 "$log")"
    rm -rf "$dir"; rm -f "$log"; skipped=$((skipped + 1)); return 0
  fi
  rm -f "$log"
  echo "$entry" > "$dir/entry"
  n=$((n + 1))
}

for prog in examples/*.mlir; do
  entry=$(grep -o 'func.func @[A-Za-z0-9_]*' "$prog" | head -1 | cut -c12-)
  add_case "$(basename "$prog" .mlir)" "$prog" "$entry" torch
done

diff_dir=$(mktemp -d)
trap 'rm -rf "$diff_dir"' EXIT
/usr/bin/python3 test/Differential/differential.py --stride-run "$B/stride-run" \
  --count "${STRIDE_GPU_DIFFERENTIAL_COUNT:-40}" --seed 11 --jobs 1 --keep "$diff_dir" > /dev/null
for case in "$diff_dir"/case*; do
  policy=$(head -1 "$case/main.mlir" | grep -o 'policy [a-z]*' | cut -d' ' -f2 || true)
  add_case "diff-$(basename "$case")" "$case/main.mlir" main "${policy:-torch}"
done

for prog in bench/gpu/*.mlir; do
  "$B/stride-compile" "$prog" -o "$OUT/bench/$(basename "$prog" .mlir).so" \
    --entry main --target=gpu
done

# The matmul benchmarks must measure the tiled shared-memory kernel: its PTX
# declares a .shared tile and synchronizes with bar.sync.
for prog in bench/gpu/matmul-*.mlir; do
  ptx=$("$B/stride-opt" "$prog" --stride-gpu-pipeline="format=isa")
  if ! grep -q '\.shared' <<< "$ptx" || ! grep -Eq 'bar(rier)?\.sync' <<< "$ptx"; then
    echo "gpu-prepare: $prog does not use the tiled shared-memory matmul kernel" >&2
    exit 1
  fi
done

size_kb=$(du -sk "$OUT" | cut -f1)
echo "gpu-prepare: $n cases ($skipped skipped) and $(find "$OUT/bench" -name "*.so" | wc -l) benchmarks in $OUT, $((size_kb / 1024)) MB"
if [ "$size_kb" -ge $((50 * 1024)) ]; then
  echo "gpu-prepare: $OUT is over 50 MB" >&2
  exit 1
fi
