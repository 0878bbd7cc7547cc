// Loops over libm's math functions vectorize into calls of glibc's libmvec
// variants (the ISA letter and lanes depend on the host: b SSE, d AVX2,
// e AVX-512), both for functions lowered to LLVM intrinsics (sin) and for
// those lowered to libm calls (tanhf, atan2), binary ones included.
// RUN: stride-compile %s --emit=llvm | FileCheck %s

// CHECK-DAG: call <{{[0-9]+}} x float> @_ZGV{{[bde]}}N{{[0-9]+}}v_tanhf(
// CHECK-DAG: call <{{[0-9]+}} x double> @_ZGV{{[bde]}}N{{[0-9]+}}v_sin(
// CHECK-DAG: call <{{[0-9]+}} x double> @_ZGV{{[bde]}}N{{[0-9]+}}vv_atan2(
func.func @math(%x: tensor<1024xf32>, %y: tensor<1024xf64>)
    -> (tensor<*xf32>, tensor<*xf64>, tensor<*xf64>) {
  %a = stride.tanh %x : tensor<1024xf32> -> tensor<*xf32>
  %b = stride.sin %y : tensor<1024xf64> -> tensor<*xf64>
  %c = stride.arctan2 %y, %y : tensor<1024xf64>, tensor<1024xf64> -> tensor<*xf64>
  return %a, %b, %c : tensor<*xf32>, tensor<*xf64>, tensor<*xf64>
}
