// stride-compile --target=gpu: every example compiles to a shared library
// holding the host code and the kernels' GPU binary (loaded by the library's
// constructor), linked against libstride_gpu_runtime and nothing of
// LLVM/MLIR; stride-exec itself links neither the runtime nor LLVM/MLIR.
// Without a driver, stride-exec still lists the library's entries, and
// running one stops with one line and exit status 69 (the runtime defers the
// module load's error while stride-exec loads the library:
// STRIDE_GPU_DEFER_NO_DEVICE). Against the stand-in driver (Inputs/fake-cuda.c:
// device memory is host memory, launches are logged, not run), stride-exec
// copies each argument's whole span to the device (the demo's input a,
// sizes 4x2x3 with strides [2, 24, 8], spans 47 floats = 188 bytes; the
// bias 12 bytes; the output 96), launches, copies the output back and
// times --bench with events. Values are checked by
// test/Integration/gpu-host.mlir (the same kernels on the host).
// RUN: rm -rf %t && mkdir -p %t
// RUN: stride-compile %stride_src_root/examples/demo.mlir --target=gpu -o %t/demo.so
// RUN: stride-compile %stride_src_root/examples/batched-matmul.mlir --target=gpu -o %t/batched-matmul.so
// RUN: stride-compile %stride_src_root/examples/fused-expression.mlir --target=gpu -o %t/fused-expression.so
// RUN: ldd %t/demo.so %t/batched-matmul.so %t/fused-expression.so | FileCheck %s --check-prefix=LDD --implicit-check-not=libMLIR --implicit-check-not=libLLVM --implicit-check-not="not found"
// RUN: ldd %stride_bin_dir/stride-exec | FileCheck %s --check-prefix=LDD-EXEC --implicit-check-not=libMLIR --implicit-check-not=libLLVM --implicit-check-not=libstride_gpu_runtime
// RUN: stride-compile %stride_src_root/examples/demo.mlir --target=gpu --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: env STRIDE_CUDA_LIBRARY=%t/absent/libcuda.so.1 stride-exec %t/demo.so --list | FileCheck %s --check-prefix=LIST
// RUN: env STRIDE_CUDA_LIBRARY=%t/absent/libcuda.so.1 %PYTHON %S/Inputs/exit-status.py stride-exec %t/demo.so --random-inputs | FileCheck %s --check-prefix=NO-DRIVER
// RUN: cc -shared -fPIC -o %t/fake-cuda.so %S/Inputs/fake-cuda.c
// RUN: env STRIDE_CUDA_LIBRARY=%t/fake-cuda.so stride-exec %t/demo.so --random-inputs --bench 2 2>&1 | FileCheck %s --check-prefix=FAKE

// LDD: demo.so:
// LDD: libstride_gpu_runtime.so => {{.*}}libstride_gpu_runtime.so
// LDD: batched-matmul.so:
// LDD: libstride_gpu_runtime.so => {{.*}}libstride_gpu_runtime.so
// LDD: fused-expression.so:
// LDD: libstride_gpu_runtime.so => {{.*}}libstride_gpu_runtime.so
// LDD-EXEC: libstride_runtime.so

// The kernels' binary is a global the constructor loads; the library says
// it runs on the GPU.
// LLVM-DAG: @llvm.global_ctors = appending global
// LLVM-DAG: @stride_aot_target = {{.*}}constant [4 x i8] c"gpu\00"
// LLVM-DAG: call ptr @mgpuModuleLoad(ptr {{.*}}@demo_kernel_binary
// LLVM-DAG: call void @mgpuLaunchKernel(ptr {{.*}}, i64 1, i64 1, i64 1, i64 256, i64 1, i64 1,

// LIST: @demo (stride_demo)
// LIST-NEXT: argument #0: tensor f32 4x2x3 strides [2, 24, 8]

// NO-DRIVER: stride-exec: error: '{{.*}}demo.so' runs on the GPU: no usable GPU: cannot load the CUDA driver library {{.*}}absent/libcuda.so.1 (is an NVIDIA driver installed?)
// NO-DRIVER-NEXT: exit status 69

// FAKE: fake-cuda: module load (fatbin)
// FAKE: fake-cuda: alloc 188 bytes
// FAKE: fake-cuda: copy 188 bytes
// FAKE: fake-cuda: alloc 12 bytes
// FAKE: fake-cuda: copy 12 bytes
// FAKE: fake-cuda: alloc 96 bytes
// FAKE: fake-cuda: copy 96 bytes
// FAKE: fake-cuda: launch demo_kernel grid (1, 1, 1) block (256, 1, 1)
// FAKE: fake-cuda: copy 96 bytes
// FAKE: bench: 2 calls, median 500.000 us
// FAKE: output #0: f32 4x2x3 strides [1, 12, 4]
