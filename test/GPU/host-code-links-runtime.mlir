// The host code of stride-gpu-pipeline (translated to LLVM IR, compiled by
// llc) links against libstride_gpu_runtime alone: every mgpu* function it
// calls is there. Run without a driver, the module constructor's first
// runtime call (loading the kernel binary, or JIT-loading the PTX with
// format=isa) stops the program with the runtime's one-line error and
// exit status 69, before `main` is entered.
// RUN: stride-opt %s "--stride-gpu-pipeline=format=isa" | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: llc -O2 -relocation-model=pic -filetype=obj %t.ll -o %t.o
// RUN: cc %t.o -L%stride_lib_dir -lstride_gpu_runtime -Wl,-rpath,%stride_lib_dir -o %t.exe
// RUN: env STRIDE_CUDA_LIBRARY=/nonexistent/libcuda.so.1 %PYTHON %S/Inputs/exit-status.py %t.exe | FileCheck %s --check-prefix=EXEC

// IR-DAG: declare ptr @mgpuModuleLoadJIT(ptr, i32)
// IR-DAG: declare ptr @mgpuMemAlloc(i64, ptr, i8)
// IR-DAG: declare void @mgpuLaunchKernel(ptr, i64, i64, i64, i64, i64, i64, i32, ptr, ptr, ptr, i64)
// IR-DAG: declare void @mgpuMemFree(ptr, ptr)
// IR-DAG: @llvm.global_ctors
// EXEC: stride-gpu-runtime: error: cannot load the CUDA driver library /nonexistent/libcuda.so.1
// EXEC-NEXT: exit status 69
func.func @main(%a: tensor<3x1x2x4xf32>, %b: tensor<1x5x4x6xf32>) -> tensor<*xf32> {
  %0 = stride.matmul %a, %b : tensor<3x1x2x4xf32>, tensor<1x5x4x6xf32> -> tensor<*xf32>
  %1 = stride.exp %0 : tensor<*xf32> -> tensor<*xf32>
  return %1 : tensor<*xf32>
}
