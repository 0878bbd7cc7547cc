// Reductions mapped to block trees compile to PTX whose kernels ptxas
// assembles for sm_90, the gpu.all_reduce lowered by convert-gpu-to-nvvm to
// butterfly warp shuffles (64-bit values as two 32-bit ones), a workgroup
// (shared) buffer of per-warp partials and barriers. Without a CUDA
// toolkit: UNSUPPORTED.
// REQUIRES: ptxas
// RUN: %PYTHON %stride_src_root/utils/check-gpu-binaries --stride-opt stride-opt --ptxas %ptxas %s | FileCheck %s
// RUN: stride-opt %s --stride-gpu-pipeline="format=isa" | FileCheck %s --check-prefix=PTX

// CHECK: ptxas ({{.*}}, -arch=sm_90): {{[1-9][0-9]*}} kernels of 1 programs checked, 0 failures
// PTX: gpu.binary
// PTX-DAG: .shared .align {{[0-9]+}} .b8
// PTX-DAG: shfl.sync.bfly.b32
// PTX-DAG: bar.sync {{(\\09)?}}0

func.func @sums(%x: tensor<64x3000xf32>, %v: tensor<?xf64>) -> (tensor<*xf32>, tensor<*xf64>) {
  %0 = stride.sum %x axes [1] : tensor<64x3000xf32> -> tensor<*xf32>
  %1 = stride.sum %v : tensor<?xf64> -> tensor<*xf64>
  return %0, %1 : tensor<*xf32>, tensor<*xf64>
}

func.func @extrema(%x: tensor<64x3000xf32>, %i: tensor<16x999xi8>, %b: tensor<4x5000xi1>) -> (tensor<*xf32>, tensor<*xi8>, tensor<*xi1>, tensor<*xi64>) {
  %0 = stride.amax %x axes [1] : tensor<64x3000xf32> -> tensor<*xf32>
  %1 = stride.amin %i axes [1] : tensor<16x999xi8> -> tensor<*xi8>
  %2 = stride.any %b axes [1] : tensor<4x5000xi1> -> tensor<*xi1>
  %3 = stride.sum %b : tensor<4x5000xi1> -> tensor<*xi64>
  return %0, %1, %2, %3 : tensor<*xf32>, tensor<*xi8>, tensor<*xi1>, tensor<*xi64>
}

func.func @arg(%x: tensor<64x3000xf32>, %v: tensor<?xf64>, %i: tensor<16x999xi8>) -> (tensor<*xi64>, tensor<*xi64>, tensor<*xi64>) {
  %0 = stride.argmax %x axes [1] : tensor<64x3000xf32> -> tensor<*xi64>
  %1 = stride.argmin %v : tensor<?xf64> -> tensor<*xi64>
  %2 = stride.argmax %i axes [-1] : tensor<16x999xi8> -> tensor<*xi64>
  return %0, %1, %2 : tensor<*xi64>, tensor<*xi64>, tensor<*xi64>
}

func.func @fused(%x: tensor<256x1024xf32>) -> tensor<*xf32> {
  %sq = stride.mul %x, %x : tensor<256x1024xf32>, tensor<256x1024xf32> -> tensor<*xf32>
  %0 = stride.mean %sq axes [-1] keepdims : tensor<*xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
