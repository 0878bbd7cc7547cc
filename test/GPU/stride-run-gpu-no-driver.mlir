// stride-run --target=gpu checks for a usable GPU before compiling: without a
// driver it says why in one line and exits with the runtime's status 69.
// RUN: env STRIDE_CUDA_LIBRARY=/nonexistent/libcuda.so.1 %PYTHON %S/Inputs/exit-status.py stride-run %s --target=gpu --random-inputs | FileCheck %s

// CHECK: stride-run: error: --target=gpu: no usable GPU: cannot load the CUDA driver library /nonexistent/libcuda.so.1 (is an NVIDIA driver installed?)
// CHECK-NEXT: exit status 69
func.func @main(%a: tensor<4x3xf32>) -> tensor<*xf32> {
  %0 = stride.exp %a : tensor<4x3xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
