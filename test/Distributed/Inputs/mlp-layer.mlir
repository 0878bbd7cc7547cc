// relu(x @ w + b) at sizes a cluster would run: 4096 x 1024 @ 1024 x 2048.
func.func @main(%x: tensor<4096x1024xf32>, %w: tensor<1024x2048xf32>,
                %b: tensor<2048xf32>) -> tensor<*xf32> {
  %p = stride.matmul %x, %w : tensor<4096x1024xf32>, tensor<1024x2048xf32> -> tensor<*xf32>
  %z = stride.add %p, %b : tensor<*xf32>, tensor<2048xf32> -> tensor<*xf32>
  %zero = arith.constant 0.0 : f32
  %r = stride.maximum %z, %zero : tensor<*xf32>, f32 -> tensor<*xf32>
  return %r : tensor<*xf32>
}
