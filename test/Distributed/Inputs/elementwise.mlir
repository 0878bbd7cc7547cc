// tanh(a) * b - c * a with a transposed, b a broadcast row, c a scalar.
func.func @main(%a: tensor<8x6xf32, #stride.layout<strides = [1, 8]>>,
                %b: tensor<6xf32>, %c: f32) -> tensor<*xf32> {
  %t = stride.tanh %a : tensor<8x6xf32, #stride.layout<strides = [1, 8]>> -> tensor<*xf32>
  %m = stride.mul %t, %b : tensor<*xf32>, tensor<6xf32> -> tensor<*xf32>
  %s = stride.mul %c, %a : f32, tensor<8x6xf32, #stride.layout<strides = [1, 8]>> -> tensor<*xf32>
  %r = stride.sub %m, %s : tensor<*xf32>, tensor<*xf32> -> tensor<*xf32>
  return %r : tensor<*xf32>
}
