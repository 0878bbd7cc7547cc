// RUN: stride-opt %s --stride-block-transposes=tile-bytes=0 -verify-diagnostics

#id = affine_map<(i, j) -> (i, j)>

// A tile of 0 bytes is rejected, naming the option, before anything changes.
func.func @zero_tile(%a: memref<4096x4096xf32, strided<[1, 4096]>>, %c: memref<4096x4096xf32>) {
  // expected-error @+1 {{cannot be blocked: stride-block-transposes option tile-bytes is 0, it must be positive}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4096x4096xf32, strided<[1, 4096]>>) outs(%c : memref<4096x4096xf32>) {
  ^bb0(%x: f32, %z: f32):
    linalg.yield %x : f32
  }
  return
}
