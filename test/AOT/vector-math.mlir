// Loops over libm's math functions vectorize. Those without a vector
// variant of Stride's own call glibc's libmvec variants (the ISA letter and
// lanes depend on the host: b SSE, d AVX2, e AVX-512): here the binary pow
// on hosts without AVX-512. Float64 sin, log, arctan2 and cbrt, float32 tanh
// and exp, and pow on AVX-512 hosts have Stride's own variants
// (lib/Pipelines/VectorMath),
// linked from bitcode and inlined into the loop on FMA hosts: no vector
// call is left, only the cold scalar fallbacks for the arguments their
// reductions do not cover (float64 log on AVX-512 hosts has none: it reduces
// by vgetmantpd, which gives libm's results for the special arguments).
// RUN: stride-compile %s --emit=llvm | FileCheck %s

// CHECK-DAG: call {{.*}} @cbrtSpecial{{[48]}}(
// CHECK-DAG: call {{.*}} @scalarExpf{{[48]}}(
// CHECK-DAG: call {{.*}} @{{scalarPow8|_ZGV[bd]N[0-9]+vv_pow}}(
// CHECK-DAG: call {{.*}} @scalarAtan2{{[48]}}(
// CHECK-DAG: call {{.*}} @scalarSin{{[48]}}(
// CHECK-DAG: call {{.*}} @{{scalarLog4|llvm.x86.avx512.mask.getmant.pd.512}}(
// CHECK-NOT: call {{.*}} @_ZGV{{[bde]}}N{{[0-9]+}}v{{v?}}_{{sin|log|tanhf|expf|atan2}}(
// CHECK-NOT: call {{.*}} @stride_vm_
func.func @math(%x: tensor<1024xf32>, %y: tensor<1024xf64>)
    -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf64>, tensor<*xf64>,
        tensor<*xf64>, tensor<*xf64>, tensor<*xf64>) {
  %a = stride.tanh %x : tensor<1024xf32> -> tensor<*xf32>
  %e = stride.exp %x : tensor<1024xf32> -> tensor<*xf32>
  %b = stride.sin %y : tensor<1024xf64> -> tensor<*xf64>
  %l = stride.log %y : tensor<1024xf64> -> tensor<*xf64>
  %c = stride.arctan2 %y, %y : tensor<1024xf64>, tensor<1024xf64> -> tensor<*xf64>
  %p = stride.pow %y, %y : tensor<1024xf64>, tensor<1024xf64> -> tensor<*xf64>
  %r = stride.cbrt %y : tensor<1024xf64> -> tensor<*xf64>
  return %a, %e, %b, %l, %c, %p, %r
      : tensor<*xf32>, tensor<*xf32>, tensor<*xf64>, tensor<*xf64>,
        tensor<*xf64>, tensor<*xf64>, tensor<*xf64>
}
