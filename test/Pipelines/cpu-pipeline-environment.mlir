// stride-cpu-pipeline is a function of its options: $STRIDE_NUM_THREADS and
// the core count never change the IR stride-opt prints (issue 24). threads=0
// (the default) is one thread in the pipeline; drivers resolve the
// environment (stride-run below still runs on $STRIDE_NUM_THREADS threads).
// RUN: env STRIDE_NUM_THREADS=1 stride-opt %s --stride-cpu-pipeline > %t.1
// RUN: env STRIDE_NUM_THREADS=2 stride-opt %s --stride-cpu-pipeline > %t.2
// RUN: env -u STRIDE_NUM_THREADS stride-opt %s --stride-cpu-pipeline > %t.unset
// RUN: cmp %t.1 %t.2
// RUN: cmp %t.1 %t.unset
// RUN: FileCheck %s --check-prefix=ONE < %t.1
// RUN: env STRIDE_NUM_THREADS=1 stride-opt %s --stride-cpu-pipeline=threads=2 | FileCheck %s --check-prefix=TWO
// RUN: env STRIDE_NUM_THREADS=2 stride-run %s --random-inputs --bench 1 | FileCheck %s --check-prefix=RUNNER

// ONE-LABEL: llvm.func @main
// ONE-NOT: omp.
// TWO: omp.parallel
// RUNNER: output #0: f32 2048x2048 strides [2048, 1]

func.func @main(%a: tensor<2048x2048xf32>, %b: tensor<2048xf32>) -> tensor<*xf32> {
  %0 = stride.add %a, %b : tensor<2048x2048xf32>, tensor<2048xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
