// Every example and a few differential programs compile to PTX for sm_90
// whose kernels ptxas assembles (scripts/test.sh checks all the differential
// programs of its run the same way). Without a CUDA toolkit: UNSUPPORTED.
// REQUIRES: ptxas
// RUN: %PYTHON %stride_src_root/utils/check-gpu-binaries --stride-opt stride-opt --ptxas %ptxas %stride_src_root/examples %s | FileCheck %s
// RUN: stride-opt %stride_src_root/examples/demo.mlir --stride-gpu-pipeline | FileCheck %s --check-prefix=FATBIN

// CHECK: ptxas ({{.*}}, -arch=sm_90): {{[1-9][0-9]*}} kernels of 4 programs checked, 0 failures
// The default format is a fatbin (the sm_90 cubin from ptxas plus the PTX;
// it starts with the fatbin magic 0xBA55ED50), with the host lowered to LLVM.
// FATBIN: llvm.func @demo(
// FATBIN: gpu.launch_func @demo_kernel::@demo_kernel
// FATBIN: gpu.binary @demo_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80"{{.*}}>, properties = {{.*}}"P\EDU\BA
func.func @mixed(%x: tensor<5x1x7xf64, #stride.layout<strides = [7, 0, -1]>>, %y: tensor<3x1xf64>, %z: tensor<2x7x3xf64>) -> tensor<*xf64> {
  %0 = stride.sqrt %x : tensor<5x1x7xf64, #stride.layout<strides = [7, 0, -1]>> -> tensor<*xf64>
  %1 = stride.pow %0, %y : tensor<*xf64>, tensor<3x1xf64> -> tensor<*xf64>
  %2 = stride.log %1 : tensor<*xf64> -> tensor<*xf64>
  return %2 : tensor<*xf64>
}
