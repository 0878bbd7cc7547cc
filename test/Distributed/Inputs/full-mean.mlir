// A 0-d result cannot be split: auto splits the reduction's input (its
// outermost dim in memory) and combines the ranks' partial means.
func.func @main(%a: tensor<6x8xf64, #stride.layout<strides = [1, 6]>>) -> tensor<*xf64> {
  %t = stride.tanh %a : tensor<6x8xf64, #stride.layout<strides = [1, 6]>> -> tensor<*xf64>
  %m = stride.mean %t : tensor<*xf64> -> tensor<*xf64>
  return %m : tensor<*xf64>
}
