// f32 matmul 4096 x 4096 x 4096 (gpu-check.sh: TFLOP/s against cuBLAS).
func.func @main(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<*xf32> {
  %c = stride.matmul %a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<*xf32>
  return %c : tensor<*xf32>
}
