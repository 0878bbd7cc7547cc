// @scale_bias of model.mlir alone, for the full Stride-to-linalg pipeline.
func.func @scale_bias(%x: tensor<4x3xf32, #stride.layout<strides = [1, 4]>>,
                      %alpha: f32, %bias: tensor<3xf32>) -> tensor<*xf32> {
  %0 = stride.mul %x, %alpha : tensor<4x3xf32, #stride.layout<strides = [1, 4]>>, f32 -> tensor<*xf32>
  %1 = stride.add %0, %bias : tensor<*xf32>, tensor<3xf32> -> tensor<*xf32>
  %2 = stride.tanh %1 : tensor<*xf32> -> tensor<*xf32>
  return %2 : tensor<*xf32>
}
