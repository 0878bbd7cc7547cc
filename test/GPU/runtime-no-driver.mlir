// The GPU runtime (runtime/gpu) without a usable CUDA driver: one clear line
// and exit status 69, never a crash; both for a host that asks first
// (strideGpuInit, stride-gpu-info) and for generated code that calls an
// mgpu* function straight away (--stream). STRIDE_CUDA_LIBRARY points the
// runtime at a library that does not exist, or at the toolkit's link-time
// stub, so this runs the same on machines with a GPU.
// RUN: env STRIDE_CUDA_LIBRARY=/nonexistent/libcuda.so.1 %PYTHON %S/Inputs/exit-status.py stride-gpu-info | FileCheck %s --check-prefix=ASK
// RUN: env STRIDE_CUDA_LIBRARY=/nonexistent/libcuda.so.1 %PYTHON %S/Inputs/exit-status.py stride-gpu-info --stream | FileCheck %s --check-prefix=CALL

// ASK: stride-gpu-info: cannot load the CUDA driver library /nonexistent/libcuda.so.1 (is an NVIDIA driver installed?): {{.*}}No such file or directory
// ASK-NEXT: exit status 69
// CALL: stride-gpu-runtime: error: cannot load the CUDA driver library /nonexistent/libcuda.so.1 (is an NVIDIA driver installed?)
// CALL-NOT: stream ok
// CALL: exit status 69
