// RUN: stride-opt %s --stride-tile-matmul=register-m=0 -verify-diagnostics

#mk = affine_map<(m, k, n) -> (m, k)>
#kn = affine_map<(m, k, n) -> (k, n)>
#mn = affine_map<(m, k, n) -> (m, n)>

// A tile size of 0 is rejected, naming the option, before anything changes.
func.func @zero_tile(%a: memref<100x300xf32>, %b: memref<300x70xf32>, %c: memref<100x70xf32>) {
  // expected-error @+1 {{cannot be tiled: stride-tile-matmul option register-m is 0, it must be positive}}
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<100x300xf32>, memref<300x70xf32>) outs(%c : memref<100x70xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}
