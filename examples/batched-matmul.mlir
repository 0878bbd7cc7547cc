// burn#1679's broadcast batch: [3,1,2,4] @ [1,5,4,6] -> [3,5,2,6], the
// broadcast batches read with stride 0, then a fused sigmoid.
//   stride-run examples/batched-matmul.mlir --random-inputs --bench 100
func.func @main(%a: tensor<3x1x2x4xf32>, %b: tensor<1x5x4x6xf32>) -> tensor<*xf32> {
  %0 = stride.matmul %a, %b : tensor<3x1x2x4xf32>, tensor<1x5x4x6xf32> -> tensor<*xf32>
  %1 = stride.sigmoid %0 : tensor<*xf32> -> tensor<*xf32>
  return %1 : tensor<*xf32>
}
