// Loops that MLIR vectorizes itself (here stride-block-transposes, as the
// broadcast column disagrees with the row on the contiguous dim) call
// vector intrinsics such as llvm.exp.v16f32; replace-with-veclib maps them
// to a vector variant (Stride's own float32 exp, inlined, whose cold
// scalar fallback remains; libmvec's for functions without one), where the
// backend would have split each into one scalar expf per lane (exp(x - m)
// ran 3.7x slower).
// RUN: stride-compile %s --emit=llvm | FileCheck %s

// CHECK: call {{.*}} @scalarExpf{{[48]}}(
// CHECK-NOT: call <{{[0-9]+}} x float> @llvm.exp.v
// CHECK-NOT: call float @expf(
func.func @exp_minus_column(%x: tensor<64x1024xf32>, %m: tensor<64x1xf32>)
    -> tensor<*xf32> {
  %d = stride.sub %x, %m : tensor<64x1024xf32>, tensor<64x1xf32> -> tensor<*xf32>
  %e = stride.exp %d : tensor<*xf32> -> tensor<*xf32>
  return %e : tensor<*xf32>
}
