// RUN: stride-opt %s --stride-block-transposes=register-bytes=-1 -verify-diagnostics

#id = affine_map<(i, j) -> (i, j)>

// A negative register tile is rejected, naming the option (0 is allowed:
// scalar tiles).
func.func @negative_register_tile(%a: memref<4096x4096xf32, strided<[1, 4096]>>, %c: memref<4096x4096xf32>) {
  // expected-error @+1 {{cannot be blocked: stride-block-transposes option register-bytes is -1, it must be zero or positive}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4096x4096xf32, strided<[1, 4096]>>) outs(%c : memref<4096x4096xf32>) {
  ^bb0(%x: f32, %z: f32):
    linalg.yield %x : f32
  }
  return
}
