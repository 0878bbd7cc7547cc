// RUN: stride-opt %s --split-input-file --stride-bools-as-bytes | FileCheck %s
// RUN: stride-opt %s --split-input-file --stride-cpu-pipeline | FileCheck %s --check-prefix=PIPELINE
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t m="rand(1001) < 0.3" a="rand(1001).astype(np.float64)"
// RUN: stride-run %s --entry masked_sum --input %t/m.npy --input %t/a.npy --output-dir %t/sum
// RUN: %npytool check %t "np.where(m, a, 0.0).sum()" %t/sum/out0.npy
// RUN: stride-run %s --entry count --input %t/m.npy --output-dir %t/count
// RUN: %npytool check %t "m.sum()" %t/count/out0.npy
// RUN: stride-run %s --entry both --input %t/m.npy --input %t/a.npy --output-dir %t/both
// RUN: %npytool check %t "m & (a > 0.5)" %t/both/out0.npy

// An i1 element is loaded as its byte and truncated, and stored
// zero-extended to a byte; other loads and stores, and vectors of i1, are
// left alone.
// CHECK-LABEL: llvm.func @access
// CHECK: %[[BYTE:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i8
// CHECK: %[[BIT:.*]] = llvm.trunc %[[BYTE]] : i8 to i1
// CHECK: %[[WIDE:.*]] = llvm.zext %[[BIT]] : i1 to i8
// CHECK: llvm.store %[[WIDE]], %{{.*}} : i8, !llvm.ptr
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> vector<4xi1>
llvm.func @access(%p: !llvm.ptr, %q: !llvm.ptr) -> vector<4xi1> {
  %b = llvm.load %p : !llvm.ptr -> i1
  llvm.store %b, %q : i1, !llvm.ptr
  %f = llvm.load %p : !llvm.ptr -> f32
  llvm.store %f, %q : f32, !llvm.ptr
  %v = llvm.load %p : !llvm.ptr -> vector<4xi1>
  llvm.return %v : vector<4xi1>
}

// -----

// Through the CPU pipeline, kernels reading a mask (a masked sum, a count)
// and writing one load and store bytes: no i1 memory access is left.
// PIPELINE-LABEL: llvm.func @masked_sum
// PIPELINE-NOT: -> i1
// PIPELINE-LABEL: llvm.func @count
// PIPELINE-NOT: -> i1
// PIPELINE-LABEL: llvm.func @both
// PIPELINE-NOT: -> i1
// PIPELINE-NOT: i1, !llvm.ptr
func.func @masked_sum(%m: tensor<1001xi1>, %a: tensor<1001xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %0 = stride.select %m, %a, %zero : tensor<1001xi1>, tensor<1001xf64>, f64 -> tensor<1001xf64>
  %1 = stride.sum %0 : tensor<1001xf64> -> tensor<f64>
  return %1 : tensor<f64>
}
func.func @count(%m: tensor<1001xi1>) -> tensor<i64> {
  %0 = stride.sum %m : tensor<1001xi1> -> tensor<i64>
  return %0 : tensor<i64>
}
func.func @both(%m: tensor<1001xi1>, %a: tensor<1001xf64>) -> tensor<1001xi1> {
  %half = arith.constant 0.5 : f64
  %0 = stride.cmp gt, %a, %half : tensor<1001xf64>, f64 -> tensor<1001xi1>
  %1 = stride.logical_and %m, %0 : tensor<1001xi1>, tensor<1001xi1> -> tensor<1001xi1>
  return %1 : tensor<1001xi1>
}
