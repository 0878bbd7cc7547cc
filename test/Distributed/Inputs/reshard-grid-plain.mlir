// On a 2x2 grid: mul split rows over axis 0 and columns over axis 1, then
// neg with the axes swapped, then a column sum with the rows whole.
func.func @main(%a: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<6xf32>) {
  %0 = stride.mul %a, %a : tensor<4x6xf32>, tensor<4x6xf32> -> tensor<4x6xf32>
  %3 = stride.neg %0 : tensor<4x6xf32> -> tensor<4x6xf32>
  %4 = stride.sum %0 axes [0] : tensor<4x6xf32> -> tensor<6xf32>
  return %3, %4 : tensor<4x6xf32>, tensor<6xf32>
}
