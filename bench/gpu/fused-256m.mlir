// Fused elementwise on 256M f32 (1 GiB per array): out = exp(a) * b + 1.
// gpu-check.sh compares its bandwidth (3 GiB moved per call) with a
// device-to-device copy of the same bytes.
func.func @main(%a: tensor<268435456xf32>, %b: tensor<268435456xf32>) -> tensor<*xf32> {
  %one = arith.constant 1.0 : f32
  %e = stride.exp %a : tensor<268435456xf32> -> tensor<*xf32>
  %m = stride.mul %e, %b : tensor<*xf32>, tensor<268435456xf32> -> tensor<*xf32>
  %r = stride.add %m, %one : tensor<*xf32>, f32 -> tensor<*xf32>
  return %r : tensor<*xf32>
}
