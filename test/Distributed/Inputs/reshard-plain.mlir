func.func @main(%a: tensor<4x6xi32>) -> tensor<4x6xi32> {
  %0 = stride.mul %a, %a : tensor<4x6xi32>, tensor<4x6xi32> -> tensor<4x6xi32>
  %3 = stride.neg %0 : tensor<4x6xi32> -> tensor<4x6xi32>
  return %3 : tensor<4x6xi32>
}
