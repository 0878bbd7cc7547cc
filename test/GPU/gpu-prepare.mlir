// scripts/gpu-prepare.sh builds the folder for the GPU machine (here with 3
// differential programs instead of 40): GPU libraries of every example and
// case with the CPU path's expected outputs, the benchmarks, the runner and
// both runtime libraries, well under 50 MB. gpu-check.sh from that folder,
// on a machine without a driver, stops at once with the runtime's one line
// and exit status 69.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env STRIDE_BUILD_DIR=%stride_lib_dir/.. STRIDE_GPU_DIFFERENTIAL_COUNT=3 %stride_src_root/scripts/gpu-prepare.sh %t/gpu-check | FileCheck %s
// RUN: ls %t/gpu-check/bin %t/gpu-check/bench %t/gpu-check/cases/demo %t/gpu-check/cases/demo/expected | FileCheck %s --check-prefix=FILES
// RUN: env STRIDE_CUDA_LIBRARY=%t/absent/libcuda.so.1 %PYTHON %S/Inputs/exit-status.py %t/gpu-check/gpu-check.sh | FileCheck %s --check-prefix=NO-DRIVER

// CHECK: gpu-prepare: 6 cases (0 skipped) and 3 benchmarks in {{.*}}gpu-check, {{[0-9]}} MB

// FILES-DAG: libstride_gpu_runtime.so
// FILES-DAG: libstride_runtime.so
// FILES-DAG: stride-exec
// FILES-DAG: stride-gpu-info
// FILES-DAG: fused-256m.so
// FILES-DAG: matmul-4096.so
// FILES-DAG: matmul-small-batches.so
// FILES-DAG: entry
// FILES-DAG: expected
// FILES-DAG: lib.so
// FILES-DAG: out0.npy

// NO-DRIVER: stride-gpu-info: cannot load the CUDA driver library {{.*}}absent/libcuda.so.1 (is an NVIDIA driver installed?)
// NO-DRIVER-NEXT: exit status 69
