// Arg-reductions over the dim that stride-distribute splits (the first
// result's): each rank gathers the reduced dim whole.
func.func @main(%a: tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<6xi64>, tensor<i64>) {
  %e = stride.exp %a : tensor<8x6xf32> -> tensor<8x6xf32>
  %i = stride.argmax %a axes [0] : tensor<8x6xf32> -> tensor<6xi64>
  %j = stride.argmin %a : tensor<8x6xf32> -> tensor<i64>
  return %e, %i, %j : tensor<8x6xf32>, tensor<6xi64>, tensor<i64>
}
