// The seed example of pytorch#42922: a = randn(2,3,8)[:,:,::2].permute(2,0,1)
// has sizes (4,2,3) and strides (2,24,8). PyTorch gives exp(a) and a + a the
// strides (1,12,4); the broadcast add of a 1-D bias follows the same order.
func.func @demo(%a: tensor<4x2x3xf32, #stride.layout<strides = [2, 24, 8]>>,
                %bias: tensor<3xf32>) -> tensor<*xf32> {
  %e = stride.exp %a : tensor<4x2x3xf32, #stride.layout<strides = [2, 24, 8]>> -> tensor<*xf32>
  %s = stride.add %e, %bias : tensor<*xf32>, tensor<3xf32> -> tensor<*xf32>
  return %s : tensor<*xf32>
}
