"""stride.compile accepts modules with calls, scf loops and linalg ops."""
import numpy as np

import stride

MODULE = """
func.func private @scale(%x: tensor<*xf32>) -> tensor<*xf32> {
  %0 = stride.exp %x : tensor<*xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
func.func @main(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>, %y: tensor<5xf32>,
                %n: i64) -> tensor<*xf32> {
  %a0 = tensor.cast %a : tensor<4x3xf32> to tensor<*xf32>
  %e = call @scale(%a0) : (tensor<*xf32>) -> tensor<*xf32>
  %e2 = tensor.cast %e : tensor<*xf32> to tensor<4x3xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<4x5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%init : tensor<4x5xf32>) -> tensor<4x5xf32>
  %p = linalg.matmul ins(%e2, %b : tensor<4x3xf32>, tensor<3x5xf32>)
                     outs(%z : tensor<4x5xf32>) -> tensor<4x5xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %steps = arith.index_cast %n : i64 to index
  %half = arith.constant 0.5 : f32
  %p0 = tensor.cast %p : tensor<4x5xf32> to tensor<*xf32>
  %r = scf.for %i = %c0 to %steps step %c1 iter_args(%x = %p0) -> (tensor<*xf32>) {
    %h = stride.mul %half, %x : f32, tensor<*xf32> -> tensor<*xf32>
    %ey = stride.exp %y : tensor<5xf32> -> tensor<*xf32>
    %s = stride.add %h, %ey : tensor<*xf32>, tensor<*xf32> -> tensor<*xf32>
    scf.yield %s : tensor<*xf32>
  }
  return %r : tensor<*xf32>
}
"""


def test_calls_loops_and_linalg():
    f = stride.compile(MODULE, "main")
    rng = np.random.default_rng(0)
    a = np.asfortranarray(rng.random((4, 3), dtype=np.float32))
    b = rng.random((3, 5), dtype=np.float32)
    y = rng.random(5, dtype=np.float32)
    for n in (0, 1, 4):
        want = np.exp(a) @ b
        for _ in range(n):
            want = np.float32(0.5) * want + np.exp(y)
        got = np.asarray(f(a, b, y, n))
        assert got.shape == (4, 5)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
