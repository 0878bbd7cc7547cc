// Small broadcast batches: [64,1,8,8] @ [1,64,8,8] -> [64,64,8,8], the
// broadcast batch dims read at stride 0 (gpu-check.sh: against PyTorch).
func.func @main(%a: tensor<64x1x8x8xf32>, %b: tensor<1x64x8x8xf32>) -> tensor<*xf32> {
  %c = stride.matmul %a, %b : tensor<64x1x8x8xf32>, tensor<1x64x8x8xf32> -> tensor<*xf32>
  return %c : tensor<*xf32>
}
