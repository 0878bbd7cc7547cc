func.func @main(%a: tensor<7x3xf32>) -> tensor<*xf32> {
  %0 = stride.neg %a : tensor<7x3xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
