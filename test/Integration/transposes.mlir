// Operands whose contiguous dimensions disagree (a transposed input, NHWC
// with NCHW) go through stride-block-transposes' vectorized 16 x 16 / 8 x 8
// register tiles; sizes that the tiles do not divide leave scalar edges.
// Values are checked against NumPy on one thread and on two (601 x 517 is
// above the 2 MiB threading threshold).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t a="rand(601,517)" b="rand(601,517)" x="rand(601,517,dtype=np.float64)" y="rand(601,517,dtype=np.float64)" n="rand(2,37,45,50)" m="rand(2,37,45,50)"
// RUN: stride-opt %s --stride-cpu-pipeline=threads=1 | FileCheck %s --check-prefix=IR
// RUN: stride-run %s --entry transposed_add --num-threads 1 --input %t/a.npy --input %t/b.npy --output-dir %t
// RUN: %npytool check %t "a + b" %t/out0.npy
// Integer abs in a blocked kernel, named and in a body of one's own (issue
// 25: math.absi on 2-D register tiles failed to legalize).
// RUN: %npytool make %t i="(rand(64,80) * 1000).astype(np.int32)" j="(rand(80,64) * 1000).astype(np.int32).T"
// RUN: stride-run %s --entry int_abs --num-threads 1 --input %t/i.npy --input %t/j.npy --output-dir %t
// RUN: %npytool check %t "np.abs(i) + j" %t/out0.npy
// RUN: %npytool check %t "np.abs(j) - i" %t/out1.npy
// RUN: stride-run %s --entry transposed_add --num-threads 2 --input %t/a.npy --input %t/b.npy --output-dir %t
// RUN: %npytool check %t "a + b" %t/out0.npy
// RUN: stride-run %s --entry transposed_exp --num-threads 1 --input %t/x.npy --input %t/y.npy --output-dir %t
// RUN: %npytool check %t "np.exp(x - y)" %t/out0.npy 1e-12
// RUN: stride-run %s --entry transposed_exp --num-threads 2 --input %t/x.npy --input %t/y.npy --output-dir %t
// RUN: %npytool check %t "np.exp(x - y)" %t/out0.npy 1e-12
// RUN: stride-run %s --entry nhwc_times_nchw --num-threads 1 --input %t/n.npy --input %t/m.npy --output-dir %t
// RUN: %npytool check %t "n * m" %t/out0.npy

// The transposed operand is loaded in contiguous rows and transposed by
// shuffles.
// IR-LABEL: llvm.func @transposed_add
// IR: llvm.shufflevector
// IR-LABEL: llvm.func @transposed_exp
// IR: llvm.shufflevector
func.func @transposed_add(%a: tensor<601x517xf32, #stride.layout<strides = [1, 601]>>, %b: tensor<601x517xf32>) -> tensor<*xf32> {
  %0 = stride.add %a, %b : tensor<601x517xf32, #stride.layout<strides = [1, 601]>>, tensor<601x517xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

func.func @transposed_exp(%x: tensor<601x517xf64, #stride.layout<strides = [1, 601]>>, %y: tensor<601x517xf64>) -> tensor<*xf64> {
  %0 = stride.sub %x, %y : tensor<601x517xf64, #stride.layout<strides = [1, 601]>>, tensor<601x517xf64> -> tensor<*xf64>
  %1 = stride.exp %0 : tensor<*xf64> -> tensor<*xf64>
  return %1 : tensor<*xf64>
}

func.func @nhwc_times_nchw(%n: tensor<2x37x45x50xf32, #stride.layout<perm = [0, 2, 3, 1]>>, %m: tensor<2x37x45x50xf32>) -> tensor<*xf32> {
  %0 = stride.mul %n, %m : tensor<2x37x45x50xf32, #stride.layout<perm = [0, 2, 3, 1]>>, tensor<2x37x45x50xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

func.func @int_abs(%i: tensor<64x80xi32>, %j: tensor<64x80xi32, #stride.layout<strides = [1, 64]>>) -> (tensor<*xi32>, tensor<*xi32>) {
  %a = stride.abs %i : tensor<64x80xi32> -> tensor<*xi32>
  %0 = stride.add %a, %j : tensor<*xi32>, tensor<64x80xi32, #stride.layout<strides = [1, 64]>> -> tensor<*xi32>
  %1 = stride.broadcast ins(%j, %i : tensor<64x80xi32, #stride.layout<strides = [1, 64]>>, tensor<64x80xi32>) -> tensor<64x80xi32> {
  ^bb0(%x: i32, %y: i32):
    %m = math.absi %x : i32
    %d = arith.subi %m, %y : i32
    stride.yield %d : i32
  }
  %2 = tensor.cast %1 : tensor<64x80xi32> to tensor<*xi32>
  return %0, %2 : tensor<*xi32>, tensor<*xi32>
}
