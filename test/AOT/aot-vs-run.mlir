// Every example, the static programs of the integration tests and 30
// generated programs (elementwise trees and matmuls over permuted, sliced,
// broadcast, reversed, size-1 and zero-size layouts in f32, f64 and i32),
// compiled ahead of time and run by stride-exec, give identical results (floats within 2 ulp: libmvec's variants)
// with identical shapes and strides to stride-run on the same inputs, under
// each policy, without fusion and with threads.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %PYTHON %S/Inputs/aot_vs_run.py generate %t/generated.mlir --seed 1 --count 30
// RUN: %PYTHON %S/Inputs/aot_vs_run.py compare --bin %stride_bin_dir --work %t/torch --seed 1 %stride_src_root/examples %t/generated.mlir %stride_src_root/test/Integration/fusion.mlir %stride_src_root/test/Integration/matmul.mlir %stride_src_root/test/Integration/elementwise-layouts.mlir %stride_src_root/test/Integration/dtypes-and-edges.mlir | FileCheck %s --check-prefix=TORCH
// RUN: %PYTHON %S/Inputs/aot_vs_run.py compare --bin %stride_bin_dir --work %t/numpy --seed 2 --policy numpy %stride_src_root/examples %t/generated.mlir | FileCheck %s --check-prefix=OTHER
// RUN: %PYTHON %S/Inputs/aot_vs_run.py compare --bin %stride_bin_dir --work %t/contiguous --seed 3 --policy contiguous %stride_src_root/examples %t/generated.mlir | FileCheck %s --check-prefix=OTHER
// RUN: %PYTHON %S/Inputs/aot_vs_run.py compare --bin %stride_bin_dir --work %t/nofuse --seed 4 --no-fuse %stride_src_root/examples %t/generated.mlir | FileCheck %s --check-prefix=OTHER
// RUN: %PYTHON %S/Inputs/aot_vs_run.py compare --bin %stride_bin_dir --work %t/threads --seed 5 --num-threads 2 %stride_src_root/examples %stride_src_root/test/Integration/threads.mlir | FileCheck %s --check-prefix=THREADS

// TORCH-NOT: FAIL
// TORCH: aot-vs-run: 59 entries identical, 0 differ
// OTHER-NOT: FAIL
// OTHER: aot-vs-run: 33 entries identical, 0 differ
// THREADS-NOT: FAIL
// THREADS: aot-vs-run: 5 entries identical, 0 differ
