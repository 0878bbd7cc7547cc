// RUN: stride-opt %s --split-input-file --stride-drop-gep-nuw | FileCheck %s
// RUN: stride-opt %s --split-input-file --stride-cpu-pipeline | FileCheck %s --check-prefix=PIPELINE
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t b="np.array([[True, False, True], [False, False, True], [True, True, False]])[::-1, ::2]" x="rand(3, 2)[::-1]"
// RUN: stride-run %s --entry reversed_bool --input %t/b.npy --output-dir %t/bool
// RUN: %npytool check %t "b.T" %t/bool/out0.npy
// RUN: stride-run %s --entry reversed_float --input %t/x.npy --output-dir %t/float
// RUN: %npytool check %t "x.T" %t/float/out0.npy

// nuw is cleared on every getelementptr and on the sums and products of
// its indices; inbounds and nsw stay, and arithmetic that feeds no address
// keeps its flags.
// CHECK-LABEL: llvm.func @flags
// CHECK: %[[M:.*]] = llvm.mul %{{.*}}, %{{.*}} overflow<nsw> : i64
// CHECK: %[[A:.*]] = llvm.add %[[M]], %{{.*}} overflow<nsw> : i64
// CHECK: %[[U:.*]] = llvm.add %{{.*}}, %{{.*}} overflow<nsw, nuw> : i64
// CHECK: llvm.getelementptr inbounds %{{.*}}[%[[A]]] : (!llvm.ptr, i64) -> !llvm.ptr, i1
// CHECK: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
llvm.func @flags(%p: !llvm.ptr, %i: i64, %s: i64) -> !llvm.ptr {
  %m = llvm.mul %i, %s overflow<nsw, nuw> : i64
  %a = llvm.add %m, %i overflow<nsw, nuw> : i64
  %u = llvm.add %i, %i overflow<nsw, nuw> : i64
  %0 = llvm.getelementptr inbounds|nuw %p[%a] : (!llvm.ptr, i64) -> !llvm.ptr, i1
  %1 = llvm.getelementptr nuw %0[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  llvm.store %u, %p : i64, !llvm.ptr
  llvm.return %1 : !llvm.ptr
}

// -----

// A transpose of reversed arrays (strides [-1, 2] and [-2, 1]) reads at
// negative linearized indices: the CPU pipeline's addresses carry no nuw,
// and the kernels give NumPy's values (the i1 one crashed with nuw).
// PIPELINE-LABEL: llvm.func @reversed_bool
// PIPELINE-NOT: nuw
// PIPELINE: llvm.return
// PIPELINE-LABEL: llvm.func @reversed_float
// PIPELINE-NOT: nuw
// PIPELINE: llvm.return
func.func @reversed_bool(%b: tensor<3x2xi1, #stride.layout<strides = [-3, 2]>>) -> tensor<2x3xi1> {
  %e = tensor.empty() : tensor<2x3xi1>
  %t = linalg.transpose ins(%b : tensor<3x2xi1, #stride.layout<strides = [-3, 2]>>) outs(%e : tensor<2x3xi1>) permutation = [1, 0]
  return %t : tensor<2x3xi1>
}
func.func @reversed_float(%x: tensor<3x2xf32, #stride.layout<strides = [-2, 1]>>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %t = linalg.transpose ins(%x : tensor<3x2xf32, #stride.layout<strides = [-2, 1]>>) outs(%e : tensor<2x3xf32>) permutation = [1, 0]
  return %t : tensor<2x3xf32>
}
