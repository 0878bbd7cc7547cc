// Large kernels (2 MiB or 2^24 operations and more) split a loop into
// OpenMP chunks (--num-threads); values stay NumPy's, including odd sizes
// that do not divide evenly, an input laid out reversed (its values are x;
// its memory runs backwards) and a matmul with broadcast batches.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t x="rand(1021,517)" y="rand(517)" a="rand(3,1,97,128)" b="rand(1,2,128,150)"
// RUN: stride-opt %s --stride-cpu-pipeline=threads=2 | FileCheck %s --check-prefix=IR
// RUN: stride-run %s --entry expression --num-threads 2 --input %t/x.npy --input %t/y.npy --output-dir %t
// RUN: %npytool check %t "np.tanh(x) * y + np.float32(1)" %t/out0.npy
// RUN: stride-run %s --entry product --num-threads 2 --input %t/a.npy --input %t/b.npy --output-dir %t
// RUN: %npytool check %t "np.matmul(a, b)" %t/out0.npy 1e-4
// RUN: stride-run %s --entry expression --num-threads 3 --input %t/x.npy --input %t/y.npy --output-dir %t
// RUN: %npytool check %t "np.tanh(x) * y + np.float32(1)" %t/out0.npy
// Without --num-threads: $STRIDE_NUM_THREADS, else the machine's cores; a
// bad value is an error, not silently ignored.
// RUN: env STRIDE_NUM_THREADS=2 stride-run %s --entry product --input %t/a.npy --input %t/b.npy --output-dir %t
// RUN: %npytool check %t "np.matmul(a, b)" %t/out0.npy 1e-4
// stride-opt's pipeline never reads it (test/Pipelines/cpu-pipeline-environment.mlir).
// RUN: env STRIDE_NUM_THREADS=2 stride-opt %s --stride-cpu-pipeline | FileCheck %s --check-prefix=PURE
// PURE-NOT: omp.parallel
// RUN: not env STRIDE_NUM_THREADS=two stride-run %s --entry product --input %t/a.npy --input %t/b.npy 2>&1 | FileCheck %s --check-prefix=BADENV
// BADENV: STRIDE_NUM_THREADS must be a positive integer, got 'two'

// IR-LABEL: llvm.func @expression
// IR: omp.parallel
// IR: omp.wsloop
// IR-LABEL: llvm.func @product
// IR: omp.parallel
func.func @expression(%x: tensor<1021x517xf32, #stride.layout<strides = [-517, 1]>>, %y: tensor<517xf32>) -> tensor<*xf32> {
  %one = arith.constant 1.0 : f32
  %0 = stride.tanh %x : tensor<1021x517xf32, #stride.layout<strides = [-517, 1]>> -> tensor<*xf32>
  %1 = stride.mul %0, %y : tensor<*xf32>, tensor<517xf32> -> tensor<*xf32>
  %2 = stride.add %1, %one : tensor<*xf32>, f32 -> tensor<*xf32>
  return %2 : tensor<*xf32>
}

func.func @product(%a: tensor<3x1x97x128xf32>, %b: tensor<1x2x128x150xf32>) -> tensor<*xf32> {
  %0 = stride.matmul %a, %b : tensor<3x1x97x128xf32>, tensor<1x2x128x150xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
