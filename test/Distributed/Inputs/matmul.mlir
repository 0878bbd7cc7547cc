// relu(x @ w + bias) and x @ w, f64: rows (M) or the contraction (K) split.
func.func @main(%x: tensor<8x12xf64>, %w: tensor<12x4xf64>, %bias: tensor<4xf64>)
    -> (tensor<*xf64>, tensor<*xf64>) {
  %p = stride.matmul %x, %w : tensor<8x12xf64>, tensor<12x4xf64> -> tensor<*xf64>
  %z = stride.add %p, %bias : tensor<*xf64>, tensor<4xf64> -> tensor<*xf64>
  %zero = arith.constant 0.0 : f64
  %r = stride.maximum %z, %zero : tensor<*xf64>, f64 -> tensor<*xf64>
  return %r, %p : tensor<*xf64>, tensor<*xf64>
}
