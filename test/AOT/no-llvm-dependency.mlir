// stride-exec, the runtime library and a compiled kernel library load no
// LLVM or MLIR library: kernels run where only the runtime is installed.
// RUN: rm -rf %t && mkdir -p %t
// RUN: stride-compile %stride_src_root/examples/demo.mlir -o %t/libdemo.so
// RUN: ldd %stride_bin_dir/stride-exec | FileCheck %s --check-prefix=EXEC --implicit-check-not=libLLVM --implicit-check-not=libMLIR
// RUN: ldd %stride_lib_dir/libstride_runtime.so | FileCheck %s --check-prefix=RUNTIME --implicit-check-not=libLLVM --implicit-check-not=libMLIR --implicit-check-not=libstride
// RUN: ldd %t/libdemo.so | FileCheck %s --check-prefix=KERNEL --implicit-check-not=libLLVM --implicit-check-not=libMLIR --implicit-check-not=libstd
// A threaded kernel needs exactly one more library, LLVM's OpenMP runtime.
// RUN: stride-compile %stride_src_root/test/Integration/threads.mlir --num-threads 2 -o %t/libthreads.so
// RUN: ldd %t/libthreads.so | FileCheck %s --check-prefix=THREADS --implicit-check-not=libLLVM --implicit-check-not=libMLIR

// EXEC: libstride_runtime.so => {{.*}}libstride_runtime.so
// EXEC: libc.so
// RUNTIME: libc.so
// KERNEL: libc.so
// THREADS: libomp.so.5 => {{.*}}libomp.so.5
// THREADS: libc.so
