// Loops over libm's math functions vectorize. Those without a vector
// variant of Stride's own call glibc's libmvec variants (the ISA letter and
// lanes depend on the host: b SSE, d AVX2, e AVX-512), both for functions
// lowered to LLVM intrinsics and for those lowered to libm calls (tanhf,
// atan2), binary ones included. Float64 sin has Stride's own variant
// (lib/Pipelines/VectorMath), linked from bitcode and inlined into the loop
// on FMA hosts: no vector call is left, only the cold scalar fallback for
// huge arguments.
// RUN: stride-compile %s --emit=llvm | FileCheck %s

// CHECK-DAG: call <{{[0-9]+}} x float> @_ZGV{{[bde]}}N{{[0-9]+}}v_tanhf(
// CHECK-DAG: call <{{[0-9]+}} x double> @_ZGV{{[bde]}}N{{[0-9]+}}vv_atan2(
// CHECK-DAG: call {{.*}} @scalarSin{{[48]}}(
// CHECK-NOT: call {{.*}} @_ZGV{{[bde]}}N{{[0-9]+}}v_sin(
// CHECK-NOT: call {{.*}} @stride_vm_sin_
func.func @math(%x: tensor<1024xf32>, %y: tensor<1024xf64>)
    -> (tensor<*xf32>, tensor<*xf64>, tensor<*xf64>) {
  %a = stride.tanh %x : tensor<1024xf32> -> tensor<*xf32>
  %b = stride.sin %y : tensor<1024xf64> -> tensor<*xf64>
  %c = stride.arctan2 %y, %y : tensor<1024xf64>, tensor<1024xf64> -> tensor<*xf64>
  return %a, %b, %c : tensor<*xf32>, tensor<*xf64>, tensor<*xf64>
}
