// Programs whose results' shapes and strides depend on the input sizes, for
// aot_vs_run.py compare --dynamic: each SHAPES line lists the argument shapes
// (sets separated by '|') that stride-exec and stride-run --dynamic must run
// with identical results, shapes and strides; SHAPES-FAIL sets must fail in
// both.

// A column-major and a row-major operand: torch keeps the first's order for
// general sizes, size-1 and size-0 dims change the decision.
// SHAPES @permuted: 3x4 3x4 | 1x4 1x4 | 3x1 3x1 | 0x4 0x4 | 1x1 1x1 | 3x0 3x0 | 4x3 1x3 | 1x3 4x3
// SHAPES-FAIL @permuted: 3x4 4x3
func.func @permuted(%a: tensor<?x?xf32, #stride.layout<perm = [1, 0]>>, %b: tensor<?x?xf32>) -> tensor<*xf32> {
  %0 = stride.add %a, %b : tensor<?x?xf32, #stride.layout<perm = [1, 0]>>, tensor<?x?xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// Broadcasting grows the rank; an outer product of a column and a row.
// SHAPES @outer: 3x1 4 | 3x1 1 | 1x1 4 | 0x1 4 | 3x1 0 | 2x5 5
func.func @outer(%a: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<*xf32> {
  %0 = stride.mul %a, %b : tensor<?x?xf32>, tensor<?xf32> -> tensor<*xf32>
  %1 = stride.exp %0 : tensor<*xf32> -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

// A 3-D channels-last-like operand, a scalar, and two results.
// SHAPES @two_results: 2x3x4 4 scalar | 1x3x4 1 scalar | 2x1x1 4 scalar | 2x0x4 4 scalar | 2x3x1 1 scalar
func.func @two_results(%a: tensor<?x?x?xf64, #stride.layout<perm = [0, 2, 1]>>, %b: tensor<?xf64>, %s: f64) -> (tensor<*xf64>, tensor<*xf64>) {
  %0 = stride.sub %a, %b : tensor<?x?x?xf64, #stride.layout<perm = [0, 2, 1]>>, tensor<?xf64> -> tensor<*xf64>
  %1 = stride.mul %s, %0 : f64, tensor<*xf64> -> tensor<*xf64>
  %2 = stride.maximum %b, %s : tensor<?xf64>, f64 -> tensor<*xf64>
  return %1, %2 : tensor<*xf64>, tensor<*xf64>
}

// select(c, a, b) over i32 with a 4-D permuted condition.
// SHAPES @where: 2x3x4x5 2x3x4x5 5 | 1x3x1x5 2x3x4x5 1 | 2x2x2x2 1x1x1x1 2 | 0x1x2x2 1x3x2x2 2
func.func @where(%c: tensor<?x?x?x?xi1, #stride.layout<perm = [0, 2, 3, 1]>>, %a: tensor<?x?x?x?xi32>, %b: tensor<?xi32>) -> tensor<*xi32> {
  %0 = stride.select %c, %a, %b : tensor<?x?x?x?xi1, #stride.layout<perm = [0, 2, 3, 1]>>, tensor<?x?x?x?xi32>, tensor<?xi32> -> tensor<*xi32>
  return %0 : tensor<*xi32>
}

// Batched matmul with broadcast batch dims and a transposed rhs, then an
// elementwise op over the product.
// SHAPES @batched: 2x3x4 4x5 | 1x3x4 4x5 | 2x0x4 4x5 | 2x3x0 0x5 | 2x1x1 1x1 | 0x3x4 4x2
// SHAPES-FAIL @batched: 2x3x4 3x5
func.func @batched(%a: tensor<?x?x?xf32>, %b: tensor<?x?xf32, #stride.layout<perm = [1, 0]>>) -> tensor<*xf32> {
  %0 = stride.matmul %a, %b : tensor<?x?x?xf32>, tensor<?x?xf32, #stride.layout<perm = [1, 0]>> -> tensor<*xf32>
  %1 = stride.tanh %0 : tensor<*xf32> -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

// Matmul of two batched operands whose batch dims broadcast both ways, and
// a vector on the right.
// SHAPES @batch_both: 3x1x2x4 1x5x4x2 | 1x1x2x4 1x1x4x2 | 3x2x2x4 1x2x4x2 | 3x1x0x4 1x5x4x2
// SHAPES @matvec: 2x3x4 4 | 1x0x4 4 | 2x3x1 1
func.func @batch_both(%a: tensor<?x?x?x?xf32, #stride.layout<perm = [1, 0, 2, 3]>>, %b: tensor<?x?x?x?xf32>) -> tensor<*xf32> {
  %0 = stride.matmul %a, %b : tensor<?x?x?x?xf32, #stride.layout<perm = [1, 0, 2, 3]>>, tensor<?x?x?x?xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
func.func @matvec(%a: tensor<?x?x?xf32>, %v: tensor<?xf32>) -> tensor<*xf32> {
  %0 = stride.matmul %a, %v : tensor<?x?x?xf32>, tensor<?xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// A fused stride.broadcast with a mixed static/dynamic operand.
// SHAPES @fused: 4x3 3 | 1x3 1 | 0x3 3
func.func @fused(%a: tensor<?x3xf32, #stride.layout<perm = [1, 0]>>, %b: tensor<?xf32>) -> tensor<*xf32> {
  %0 = stride.broadcast ins(%a, %b : tensor<?x3xf32, #stride.layout<perm = [1, 0]>>, tensor<?xf32>) -> tensor<*xf32> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    %p = arith.mulf %s, %x : f32
    stride.yield %p : f32
  }
  return %0 : tensor<*xf32>
}

// A cast is laid out like its input (the eager libraries' astype / .to()
// rule, copyLikeStrides), which differs from an elementwise op's layout on
// size-1 dims; promotion casts (float32 + int32 is float64 under NumPy's
// rules) are seen through under numpy and kept under torch only for the
// input PyTorch would convert (the int32 one: its common dtype is float32).
// SHAPES @casts: 4x1 4x1 | 1x4 1x4 | 3x4 3x4 | 3x1 1x4 | 1x1 1x1 | 0x4 0x4 | 4x1 1x1
func.func @casts(%a: tensor<?x?xf32, #stride.layout<perm = [1, 0]>>, %b: tensor<?x?xi32>) -> (tensor<*xf64>, tensor<*xf64>) {
  %0 = stride.cast %a : tensor<?x?xf32, #stride.layout<perm = [1, 0]>> -> tensor<*xf64>
  %1 = stride.cast %a {stride.promotion} : tensor<?x?xf32, #stride.layout<perm = [1, 0]>> -> tensor<*xf64>
  %2 = stride.cast %b {stride.promotion} : tensor<?x?xi32> -> tensor<*xf64>
  %3 = stride.add %2, %1 : tensor<*xf64>, tensor<*xf64> -> tensor<*xf64>
  return %0, %3 : tensor<*xf64>, tensor<*xf64>
}

// Reductions: sums of rows kept for a broadcast back (a column-major
// operand, whose NumPy result keeps its order), and a max over two axes, an
// argmax with keepdims and a mean of everything of a permuted 3-d operand.
// Size-1 dims change NumPy's order-K layout.
// SHAPES @reduce_rows: 3x4 | 1x4 | 3x1 | 0x4 | 1x1 | 4x0
// SHAPES @reduce_many: 2x3x4 | 1x3x4 | 2x1x4 | 2x3x1 | 1x1x1 | 5x2x3
func.func @reduce_rows(%a: tensor<?x?xf32, #stride.layout<perm = [1, 0]>>) -> (tensor<*xf32>, tensor<*xf32>) {
  %0 = stride.sum %a axes [1] keepdims : tensor<?x?xf32, #stride.layout<perm = [1, 0]>> -> tensor<*xf32>
  %1 = stride.div %a, %0 : tensor<?x?xf32, #stride.layout<perm = [1, 0]>>, tensor<*xf32> -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}
func.func @reduce_many(%a: tensor<?x?x?xf64, #stride.layout<perm = [2, 0, 1]>>) -> (tensor<*xf64>, tensor<*xi64>, tensor<*xf64>) {
  %0 = stride.amax %a axes [0, -1] : tensor<?x?x?xf64, #stride.layout<perm = [2, 0, 1]>> -> tensor<*xf64>
  %1 = stride.argmax %a axes [1] keepdims : tensor<?x?x?xf64, #stride.layout<perm = [2, 0, 1]>> -> tensor<*xi64>
  %2 = stride.mean %a : tensor<?x?x?xf64, #stride.layout<perm = [2, 0, 1]>> -> tensor<*xf64>
  return %0, %1, %2 : tensor<*xf64>, tensor<*xi64>, tensor<*xf64>
}
