// An entry that computes nothing (it returns an argument and a constant)
// runs: the module has no Stride op or layout, so the runner loads the
// Stride dialect itself before giving the arguments their layouts (it
// crashed in specializeEntry).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t a="rand(4, 3)"
// RUN: stride-run %s --input %t/a.npy --output-dir %t
// RUN: %npytool check %t "a" %t/out0.npy
// RUN: %npytool check %t "np.array([7, 8], dtype=np.int32)" %t/out1.npy
func.func @main(%a: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<2xi32>) {
  %c = arith.constant dense<[7, 8]> : tensor<2xi32>
  return %a, %c : tensor<4x3xf32>, tensor<2xi32>
}
