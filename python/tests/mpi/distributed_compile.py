"""Run under mpirun by test_distributed_mpi4py.py: stride.compile(...,
distribute=MPI.COMM_WORLD) on each rank's blocks, the results gathered on
rank 0 and compared with NumPy and with the single-process stride.compile.
Prints one `ok NAME` line per check from rank 0, or raises."""
import sys

import numpy as np
from mpi4py import MPI

import stride

comm = MPI.COMM_WORLD
grid = sys.argv[1] if len(sys.argv) > 1 else None

MATMUL = """
func.func @main(%x: tensor<8x12xf64>, %w: tensor<12x4xf64>, %b: tensor<4xf64>)
    -> (tensor<*xf64>, tensor<*xf64>) {
  %p = stride.matmul %x, %w : tensor<8x12xf64>, tensor<12x4xf64> -> tensor<*xf64>
  %z = stride.add %p, %b : tensor<*xf64>, tensor<4xf64> -> tensor<*xf64>
  %zero = arith.constant 0.0 : f64
  %r = stride.maximum %z, %zero : tensor<*xf64>, f64 -> tensor<*xf64>
  return %r, %p : tensor<*xf64>, tensor<*xf64>
}
"""

ELEMENTWISE = """
func.func @main(%a: tensor<8x6xf32, #stride.layout<strides = [1, 8]>>,
                %c: f32) -> tensor<*xf32> {
  %t = stride.tanh %a : tensor<8x6xf32, #stride.layout<strides = [1, 8]>> -> tensor<*xf32>
  %s = stride.mul %c, %t : f32, tensor<*xf32> -> tensor<*xf32>
  %m = stride.sum %s axes [1] : tensor<*xf32> -> tensor<*xf32>
  return %m : tensor<*xf32>
}
"""

rng = np.random.default_rng(7)  # the same whole arrays on every rank
x = rng.standard_normal((8, 12))
w = rng.standard_normal((12, 4))
b = rng.standard_normal(4)
a = np.asfortranarray(rng.standard_normal((8, 6)).astype(np.float32))


def check(name, got, want, rtol):
    if comm.Get_rank() != 0:
        return
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)
    print(f"ok {name} {got.shape} {tuple(s // got.itemsize for s in got.strides)}",
          flush=True)


for strategy in ["auto", "k"]:
    f = stride.compile(MATMUL, "main", distribute=comm, grid=grid,
                       strategy=strategy)
    relu, product = f(f.block(0, x), f.block(1, w), f.block(2, b))
    one = stride.compile(MATMUL, "main")(x, w, b)
    check(f"matmul-{strategy}-relu", f.gather(0, relu), np.maximum(x @ w + b, 0), 1e-12)
    check(f"matmul-{strategy}-product", f.gather(1, product), one[1], 1e-12)

g = stride.compile(ELEMENTWISE, "main", distribute=comm, grid=grid)
local = g(g.block(0, a), np.float32(0.5))
whole = g.gather(0, local)
check("elementwise-sum", whole, (0.5 * np.tanh(a)).sum(axis=1), 1e-5)

# A block of the wrong shape names the rank, the shapes and the split.
try:
    g(a, 0.5)
except ValueError as e:
    if comm.Get_rank() == 0:
        print("ok wrong-block", str(e).split(";")[0], flush=True)
else:
    raise AssertionError("a whole array was accepted as a block")
