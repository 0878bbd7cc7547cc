// Julia's dot-fusion example: 2 .* (x .+ 1) .* y .- exp.(x) is one kernel
// (stride-fuse), x a transposed view and y a row broadcast along it.
//   stride-run examples/fused-expression.mlir --random-inputs --print
func.func @main(%x: tensor<6x4xf32, #stride.layout<strides = [1, 6]>>, %y: tensor<4xf32>) -> tensor<*xf32> {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %0 = stride.add %x, %one : tensor<6x4xf32, #stride.layout<strides = [1, 6]>>, f32 -> tensor<*xf32>
  %1 = stride.mul %two, %0 : f32, tensor<*xf32> -> tensor<*xf32>
  %2 = stride.mul %1, %y : tensor<*xf32>, tensor<4xf32> -> tensor<*xf32>
  %3 = stride.exp %x : tensor<6x4xf32, #stride.layout<strides = [1, 6]>> -> tensor<*xf32>
  %4 = stride.sub %2, %3 : tensor<*xf32>, tensor<*xf32> -> tensor<*xf32>
  return %4 : tensor<*xf32>
}
