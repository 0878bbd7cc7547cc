// A module as a larger compiler might hand it over: Stride kernels next to
// functions written in upstream tensor and linalg ops.

// y = tanh(x * alpha + bias): three Stride ops that fuse into one kernel.
// x is a transposed view, as a framework would pass it.
func.func @scale_bias(%x: tensor<4x3xf32, #stride.layout<strides = [1, 4]>>,
                      %alpha: f32, %bias: tensor<3xf32>) -> tensor<*xf32> {
  %0 = stride.mul %x, %alpha : tensor<4x3xf32, #stride.layout<strides = [1, 4]>>, f32 -> tensor<*xf32>
  %1 = stride.add %0, %bias : tensor<*xf32>, tensor<3xf32> -> tensor<*xf32>
  %2 = stride.tanh %1 : tensor<*xf32> -> tensor<*xf32>
  return %2 : tensor<*xf32>
}

// Upstream ops only: fills a bias and pads it. The cast round trip is for
// canonicalize.
func.func @make_bias(%v: f32) -> tensor<3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %filled = linalg.fill ins(%v : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %padded = tensor.pad %filled low[0] high[1] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<2xf32> to tensor<3xf32>
  %dyn = tensor.cast %padded : tensor<3xf32> to tensor<?xf32>
  %back = tensor.cast %dyn : tensor<?xf32> to tensor<3xf32>
  %sum = linalg.add ins(%back, %back : tensor<3xf32>, tensor<3xf32>) outs(%back : tensor<3xf32>) -> tensor<3xf32>
  %out = linalg.fill ins(%v : f32) outs(%sum : tensor<3xf32>) -> tensor<3xf32>
  return %out : tensor<3xf32>
}
