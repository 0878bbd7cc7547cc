// Views between elementwise ops: a transposed input, a squeezed one, and
// the sum unsqueezed and transposed on the way out.
func.func @main(%a: tensor<8x6xf32>, %b: tensor<6x1x8xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %t = stride.permute %a [1, 0] : tensor<8x6xf32> -> tensor<*xf32>
  %s = stride.squeeze %b : tensor<6x1x8xf32> -> tensor<*xf32>
  %e = stride.exp %t : tensor<*xf32> -> tensor<*xf32>
  %r = stride.add %e, %s : tensor<*xf32>, tensor<*xf32> -> tensor<*xf32>
  %u = stride.unsqueeze %r [1] : tensor<*xf32> -> tensor<*xf32>
  %w = stride.transpose %u [0, 2] : tensor<*xf32> -> tensor<*xf32>
  return %r, %w : tensor<*xf32>, tensor<*xf32>
}
