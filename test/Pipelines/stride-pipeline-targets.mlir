// stride-pipeline is the one entry point: target=cpu gives exactly what
// stride-cpu-pipeline gives, target=gpu-host exactly what
// stride-gpu-host-pipeline gives, and the two targets differ (gpu-host maps
// the kernel to GPU launches first).
// RUN: stride-opt %s --stride-pipeline=target=cpu > %t.cpu
// RUN: stride-opt %s --stride-cpu-pipeline > %t.cpu-alias
// RUN: diff %t.cpu %t.cpu-alias
// RUN: stride-opt %s --stride-pipeline=target=gpu-host > %t.host
// RUN: stride-opt %s --stride-gpu-host-pipeline > %t.host-alias
// RUN: diff %t.host %t.host-alias
// RUN: not diff -q %t.cpu %t.host
// RUN: FileCheck %s --input-file=%t.cpu

// CHECK-LABEL: llvm.func @add
func.func @add(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = stride.add %a, %b : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
