// The CUDA toolkit's link-time stub libcuda.so loads but cuInit fails with
// CUDA_ERROR_STUB_LIBRARY (34): the runtime says so and exits with 69.
// REQUIRES: cuda-stub
// RUN: env STRIDE_CUDA_LIBRARY=%cuda_stub %PYTHON %S/Inputs/exit-status.py stride-gpu-info --stream | FileCheck %s

// CHECK: stride-gpu-runtime: error: cuInit failed: {{.*}}34{{.*}}; this is the toolkit's link-time stub, not a driver
// CHECK-NEXT: exit status 69
