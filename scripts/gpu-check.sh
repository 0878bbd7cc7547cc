#!/usr/bin/env bash
# Runs on the GPU machine from the folder scripts/gpu-prepare.sh made, with
# only that folder, the driver and standard tools (python3 with NumPy; PyTorch
# for the peer figures). Not yet run on a GPU: on a machine without one it
# stops at step 0 with the runtime's one line and exit status 69.
#   0. stride-gpu-info: the device, or why there is none (exit 69);
#   1. every case's library on the GPU (stride-exec, same --random-inputs
#      --seed as the CPU run that made expected/) compared with the expected
#      outputs (NumPy allclose);
#   2. the fused elementwise kernel on 256M f32: bandwidth against a
#      device-to-device copy of the same bytes (PyTorch, CUDA events);
#   3. f32 matmul 4096 and [64,1,8,8]@[1,64,8,8]: TFLOP/s against cuBLAS
#      through PyTorch with TF32 off (skipped with a line if torch is absent).
#   gpu-check.sh [FOLDER]   (default: the folder this script is in)
set -uo pipefail
DIR=${1:-$(cd "$(dirname "$0")" && pwd)}
export LD_LIBRARY_PATH=$DIR/bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
EXEC=$DIR/bin/stride-exec
"$DIR/bin/stride-gpu-info" || exit $?
python3 -c 'import numpy' 2> /dev/null || { echo "gpu-check: python3 cannot import numpy (needed to compare outputs)"; exit 1; }

pass=0; fail=0
for c in "$DIR"/cases/*/; do
  name=$(basename "$c"); got=$(mktemp -d)
  if timeout 60 "$EXEC" "$c/lib.so" --entry "$(cat "$c/entry")" --random-inputs --seed 1 \
       --output-dir "$got" > "$got/log" 2>&1 &&
     python3 - "$c/expected" "$got" <<'PY'
import glob, os, sys
import numpy as np
exp_dir, got_dir = sys.argv[1:]
for e in sorted(glob.glob(os.path.join(exp_dir, "out*.npy"))):
    x, y = np.load(e), np.load(os.path.join(got_dir, os.path.basename(e)))
    assert x.shape == y.shape and x.dtype == y.dtype, (e, x.shape, y.shape)
    if x.dtype.kind == "f":
        assert np.allclose(x, y, rtol=1e-5, atol=1e-5, equal_nan=True), e
    else:
        assert (x == y).all(), e
PY
  then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $name"; cat "$got/log"; fi
  rm -rf "$got"
done
echo "cases: $pass passed, $fail failed"

median_us() { # median_us LIB RUNS: stride-exec --bench prints "median X us"
  timeout 120 "$EXEC" "$1" --random-inputs --seed 1 --bench "$2" | sed -n 's/.*median \([0-9.]*\) us.*/\1/p'
}
fused_us=$(median_us "$DIR/bench/fused-256m.so" 20)
mm_us=$(median_us "$DIR/bench/matmul-4096.so" 5)
small_us=$(median_us "$DIR/bench/matmul-small-batches.so" 50)
if [ -z "$fused_us" ] || [ -z "$mm_us" ] || [ -z "$small_us" ]; then
  echo "gpu-check: a benchmark did not run (see the errors above)"; exit 1
fi
python3 - "$fused_us" "$mm_us" "$small_us" <<'PY'
import sys
fused_us, mm_us, small_us = map(float, sys.argv[1:])
n = 268435456
bw = 3 * n * 4 / (fused_us * 1e-6) / 1e9
print(f"fused elementwise 256M f32: {fused_us:.0f} us, {bw:.0f} GB/s")
flops_big = 2 * 4096 ** 3 / (mm_us * 1e-6) / 1e12
flops_small = 2 * 64 * 64 * 8 * 8 * 8 / (small_us * 1e-6) / 1e12
print(f"matmul 4096 f32: {mm_us:.0f} us, {flops_big:.2f} TFLOP/s")
print(f"matmul [64,1,8,8]@[1,64,8,8] f32: {small_us:.1f} us, {flops_small:.4f} TFLOP/s")
try:
    import torch
except ImportError:
    print("peer comparisons skipped: python3 cannot import torch")
    sys.exit(0)
torch.backends.cuda.matmul.allow_tf32 = False
def time_us(f, runs):
    for _ in range(3):
        f()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(runs):
        s.record(); f(); e.record(); e.synchronize()
        times.append(s.elapsed_time(e) * 1000)
    return sorted(times)[len(times) // 2]
src = torch.empty(3 * n // 2, dtype=torch.float32, device="cuda")
dst = torch.empty_like(src)  # a copy reads and writes 3 GiB in all, as the kernel does
copy_us = time_us(lambda: dst.copy_(src), 20)
copy_bw = 2 * src.numel() * 4 / (copy_us * 1e-6) / 1e9
print(f"device-to-device copy of the same bytes: {copy_bw:.0f} GB/s; ratio {bw / copy_bw:.2f} (target >= 0.85)")
a = torch.randn(4096, 4096, device="cuda"); b = torch.randn(4096, 4096, device="cuda")
cublas_us = time_us(lambda: a @ b, 5)
print(f"cuBLAS 4096 f32 (TF32 off): {2 * 4096 ** 3 / (cublas_us * 1e-6) / 1e12:.2f} TFLOP/s; ratio {cublas_us / mm_us:.2f} (target >= 0.5)")
x = torch.randn(64, 1, 8, 8, device="cuda"); y = torch.randn(1, 64, 8, 8, device="cuda")
torch_us = time_us(lambda: torch.matmul(x, y), 50)
print(f"PyTorch [64,1,8,8]@[1,64,8,8]: {torch_us:.1f} us; ratio {torch_us / small_us:.2f} (target >= 1)")
PY
[ "$fail" = 0 ]
