// The examples in examples/ compile and run (under the sanitizer build this
// also checks them for leaks and memory errors).
// RUN: stride-run %stride_src_root/examples/demo.mlir --random-inputs --seed 1 | FileCheck %s --check-prefix=DEMO
// RUN: stride-run %stride_src_root/examples/fused-expression.mlir --random-inputs --seed 1 | FileCheck %s --check-prefix=FUSED
// RUN: stride-run %stride_src_root/examples/batched-matmul.mlir --random-inputs --seed 1 --bench 3 | FileCheck %s --check-prefix=MATMUL

// DEMO: output #0: f32 4x2x3 strides [1, 12, 4]
// FUSED: output #0: f32 6x4 strides [1, 6]
// MATMUL: bench: 3 calls
// MATMUL: output #0: f32 3x5x2x6 strides [60, 12, 6, 1]
