// RUN: stride-opt %s --stride-split-math-chains=block=0 -verify-diagnostics

#id = affine_map<(i) -> (i)>

// A block of 0 elements (or more than 65536, on the stack) is rejected, naming the option, on the first
// generic it would split.
func.func @zero_block(%x: memref<?xf64>, %y: memref<?xf64>) {
  // expected-error @+1 {{cannot be split: stride-split-math-chains option block is 0, it must be between 1 and 65536}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<?xf64>) outs(%y : memref<?xf64>) {
  ^bb0(%a: f64, %b: f64):
    %e = math.exp %a : f64
    %l = math.log1p %e : f64
    linalg.yield %l : f64
  }
  return
}
