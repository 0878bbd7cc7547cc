func.func @scale(%a: tensor<4x3xf32, #stride.layout<strides = [1, 4]>>,
                 %b: tensor<3xf32>) -> tensor<*xf32> {
  %s = stride.mul %a, %b : tensor<4x3xf32, #stride.layout<strides = [1, 4]>>, tensor<3xf32> -> tensor<*xf32>
  return %s : tensor<*xf32>
}

// -----

func.func @bad(%a: tensor<4x3xf32, #stride.layout<strides = [1]>>) -> tensor<4x3xf32, #stride.layout<strides = [1]>> {
  return %a : tensor<4x3xf32, #stride.layout<strides = [1]>>
}

// -----

func.func @mismatch(%a: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<*xf32> {
  %s = stride.add %a, %b : tensor<2x3xf32>, tensor<4xf32> -> tensor<*xf32>
  return %s : tensor<*xf32>
}
