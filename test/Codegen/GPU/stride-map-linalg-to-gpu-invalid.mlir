// RUN: stride-opt %s --split-input-file --verify-diagnostics --stride-map-linalg-to-gpu

// A generic on tensors has no buffers for a kernel to write.
#id1 = affine_map<(d0) -> (d0)>
func.func @on_tensors(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{needs memref operands to map to the GPU; bufferize first}}
  %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Named ops must be generalized first.
func.func @named(%a: memref<4xf32>) {
  %c = arith.constant 0.0 : f32
  // expected-error @below {{is not a linalg.generic; run linalg-generalize-named-ops before stride-map-linalg-to-gpu}}
  linalg.fill ins(%c : f32) outs(%a : memref<4xf32>)
  return
}

// -----

// An output indexed by a reduction loop would be written by several threads.
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d1)>
func.func @reduction_indexes_output(%a: memref<4x5xf32>, %o: memref<5xf32>) {
  // expected-error @below {{output #0 is indexed by reduction loop d1; only parallel loops may index outputs}}
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<4x5xf32>) outs(%o : memref<5xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  return
}
