// Reductions beside the elementwise op that decides the split: over the
// split dim (an all-reduce: sum, max, any; a mean over a split dim divides
// the sum of the ranks' means), over whole arguments, with keepdims.
func.func @main(%a: tensor<8x6xf32, #stride.layout<strides = [1, 8]>>, %b: tensor<8x6xi32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xi64>, tensor<*xf32>, tensor<*xi1>, tensor<*xf64>) {
  %e = stride.exp %a : tensor<8x6xf32, #stride.layout<strides = [1, 8]>> -> tensor<*xf32>
  %s = stride.sum %e axes [0] : tensor<*xf32> -> tensor<*xf32>
  %m = stride.amax %e axes [1] keepdims : tensor<*xf32> -> tensor<*xf32>
  %c = stride.sum %b : tensor<8x6xi32> -> tensor<*xi64>
  %mean = stride.mean %a : tensor<8x6xf32, #stride.layout<strides = [1, 8]>> -> tensor<*xf32>
  %z = arith.constant 0 : i32
  %g = stride.cmp gt, %b, %z : tensor<8x6xi32>, i32 -> tensor<*xi1>
  %any = stride.any %g axes [0] : tensor<*xi1> -> tensor<*xi1>
  %mi = stride.mean %b axes [1] : tensor<8x6xi32> -> tensor<*xf64>
  return %s, %m, %c, %mean, %any, %mi : tensor<*xf32>, tensor<*xf32>, tensor<*xi64>, tensor<*xf32>, tensor<*xi1>, tensor<*xf64>
}
