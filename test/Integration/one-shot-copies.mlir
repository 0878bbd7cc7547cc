// Values that One-Shot Bufferize cannot share (a view read after its base
// is written in place) are copied into identity-layout buffers; Stride then
// copies them into the tensor's own layout, which for a column or a
// reversed column has gaps (an allocation spanning the strides). The
// results are NumPy's, and the span copies stay inside their allocations
// (the sanitizer build runs this too).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t x="rand(6, 5, dtype=np.float64)"
// RUN: stride-run %s --entry column --input %t/x.npy --output-dir %t/column
// RUN: %npytool check %t "np.where(np.arange(5) == 1, np.exp(np.exp(x)), np.exp(x))" %t/column/out0.npy 1e-6
// RUN: %npytool check %t "np.exp(x)[:, 1]" %t/column/out1.npy 1e-6
// RUN: stride-run %s --entry reversed --policy numpy --input %t/x.npy --output-dir %t/reversed
// RUN: %npytool check %t "np.where(np.arange(5) == 3, 2 * np.exp(x), np.exp(x))" %t/reversed/out0.npy 1e-6
// RUN: %npytool check %t "np.exp(x)[::-2, 3] + 1" %t/reversed/out1.npy 1e-6

func.func @column(%arg0: tensor<6x5xf64>) -> (tensor<*xf64>, tensor<*xf64>) {
  %0 = stride.exp %arg0 : tensor<6x5xf64> -> tensor<6x5xf64>
  %1 = stride.slice %0 [:, 1:2] : tensor<6x5xf64> -> tensor<*xf64>
  %2 = stride.squeeze %1 dims [1] : tensor<*xf64> -> tensor<*xf64>
  %3 = stride.exp %1 : tensor<*xf64> -> tensor<*xf64>
  %4 = tensor.cast %3 : tensor<*xf64> to tensor<6x1xf64>
  %5 = tensor.insert_slice %4 into %0[0, 1] [6, 1] [1, 1] : tensor<6x1xf64> into tensor<6x5xf64>
  %6 = tensor.cast %5 : tensor<6x5xf64> to tensor<*xf64>
  return %6, %2 : tensor<*xf64>, tensor<*xf64>
}

func.func @reversed(%arg0: tensor<6x5xf64>) -> (tensor<*xf64>, tensor<*xf64>) {
  %0 = stride.exp %arg0 : tensor<6x5xf64> -> tensor<6x5xf64>
  %1 = stride.slice %0 [::-2, 3:4] : tensor<6x5xf64> -> tensor<*xf64>
  %2 = stride.squeeze %1 dims [1] : tensor<*xf64> -> tensor<*xf64>
  %3 = stride.slice %0 [:, 3:4] : tensor<6x5xf64> -> tensor<*xf64>
  %4 = stride.mul %3, %3 : tensor<*xf64>, tensor<*xf64> -> tensor<*xf64>
  %5 = stride.div %4, %3 : tensor<*xf64>, tensor<*xf64> -> tensor<*xf64>
  %6 = stride.add %5, %3 : tensor<*xf64>, tensor<*xf64> -> tensor<*xf64>
  %7 = tensor.cast %6 : tensor<*xf64> to tensor<6x1xf64>
  %8 = tensor.insert_slice %7 into %0[0, 3] [6, 1] [1, 1] : tensor<6x1xf64> into tensor<6x5xf64>
  %9 = tensor.cast %8 : tensor<6x5xf64> to tensor<*xf64>
  %10 = stride.add %2, %2 : tensor<*xf64>, tensor<*xf64> -> tensor<*xf64>
  %11 = stride.div %10, %10 : tensor<*xf64>, tensor<*xf64> -> tensor<*xf64>
  %12 = stride.add %2, %11 : tensor<*xf64>, tensor<*xf64> -> tensor<*xf64>
  return %9, %12 : tensor<*xf64>, tensor<*xf64>
}
