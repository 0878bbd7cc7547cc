"""stride.explain names the rule that decided each result's strides (the
compiler's stride-explain remarks), the loops and the fusion, for lazy
expressions, @stride.jit functions and stride.compile Functions, and draws
the memory traversal of every array."""
import struct

import numpy as np
import pytest

import stride


def test_seed_permuted_view_plus_vector():
    # pytorch#42922: torch.randn(2,1,3).permute(1,0,2) + torch.randn(3)
    # keeps strides (3, 3, 1): the stride sort, led by the view.
    x = np.random.rand(2, 1, 3).transpose(1, 0, 2)
    v = np.random.rand(3)
    e = stride.explain(stride.lazy(x) + v)
    assert "result 1x2x3 strides [3, 3, 1] (torch): TensorIterator's stride sort" in e.text
    assert "follows operand #0's memory order" in e.text
    assert e.arrays[-1] == ("result #0", (1, 2, 3), (3, 3, 1))
    # The kernel really has those strides.
    assert stride.materialize(stride.lazy(x) + v).strides == (24, 24, 8)
    # NumPy ignores the size-1 dim: C order, by nditer's order K.
    n = stride.explain(stride.lazy(x) + v, policy="numpy")
    assert "strides [6, 3, 1] (numpy): nditer's order K" in n.text


def test_nc11_channels_last_takes_the_fast_path():
    # (2,3,1,1) in channels-last strides (3,1,3,3) is contiguous to
    # TensorIterator (size-1 dims ignored): the fast set-up, C order.
    base = np.random.rand(6)
    x = np.lib.stride_tricks.as_strided(base, (2, 3, 1, 1),
                                        (24, 8, 24, 24))
    e = stride.explain(stride.lazy(x) * x)
    assert ("strides [3, 1, 1, 1] (torch): TensorIterator's fast set-up: "
            "every input has the result's shape and is contiguous") in e.text


def test_jit_function_is_traced_not_run():
    calls = []

    @stride.jit(policy="numpy")
    def f(a, b):
        calls.append(1)
        return np.exp(a.T) + b

    a, b = np.random.rand(4, 3), np.random.rand(4)
    e = stride.explain(f, a, b)
    assert e.policy == "numpy"
    assert "is a view" in e.text                      # a.T
    assert "one kernel fuses math.exp, arith.addf" in e.text
    assert "loops, outermost first" in e.text
    assert e.arrays[-1][0] == "result #0"
    np.testing.assert_allclose(f(a, b), np.exp(a.T) + b)
    with pytest.raises(ValueError, match="under policy 'numpy'"):
        stride.explain(f, a, b, policy="torch")


def test_compile_function_with_arguments():
    ir = """
    func.func @f(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<*xf32> {
      %0 = stride.add %a, %b : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<*xf32>
      return %0 : tensor<*xf32>
    }"""
    f = stride.compile(ir, "f")
    a = np.ones((4, 3), np.float32).T.copy().T      # F order
    b = np.ones((4, 3), np.float32).T.copy().T
    e = stride.explain(f, a, b)
    assert ("result 4x3 strides [1, 4] (torch): TensorIterator's fast "
            "set-up: every input is non-overlapping and dense with the same "
            "strides") in e.text
    assert f(a, b).strides == (4, 16)


def test_refusals():
    with pytest.raises(TypeError, match="stride.explain takes"):
        stride.explain(42)
    with pytest.raises(TypeError, match="takes no arguments"):
        stride.explain(stride.lazy(np.ones(3)) + 1, np.ones(3))


def png_size(path):
    data = open(path, "rb").read(24)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_picture(tmp_path):
    pytest.importorskip("matplotlib", reason="python3-matplotlib is not installed")
    x = np.random.rand(3, 4).T
    path = tmp_path / "traversal.png"
    e = stride.explain(stride.lazy(x) + 1.0, picture=str(path))
    assert e.picture == str(path)
    # One 300x300 panel per array: the input and the result.
    assert [a[0] for a in e.arrays] == ["input #0", "result #0"]
    assert png_size(path) == (600, 300)
    # Jupyter's rich display is the same picture.
    assert e._repr_png_()[:8] == b"\x89PNG\r\n\x1a\n"


def test_decisions_row_loop_threads_and_tiling():
    """The passes that choose how kernels run say what they chose: the row
    loop of a softmax and its threads, a matmul's blocks and threads, a
    matrix-vector product's loop order, a transposed operand's blocking,
    and why a small kernel stays on one thread."""
    @stride.jit
    def softmax(x):
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    x = np.random.rand(4096, 1024).astype(np.float32)
    e = stride.explain(softmax, x, threads=2)
    assert e.threads == 2 and e.text.startswith("policy torch, 2 thread(s):")
    assert any("row loop: 4 ops" in d and "blocks of 8 of the 4096 rows" in d
               for d in e.decisions)
    assert any("threads: 2 share the blocks" in d for d in e.decisions)
    one = stride.explain(softmax, x[:100], threads=1)
    assert any("on the stack, allocated once at the function's entry; threads: one "
               "thread (threads=1)" in d for d in one.decisions)
    small = stride.explain(softmax, x[:4, :8], threads=2)
    assert not any("row loop: 4 ops" in d for d in small.decisions)

    a, b = np.random.rand(500, 300), np.random.rand(300, 200)
    mm = stride.explain(stride.jit(lambda a, b: a @ b), a, b, threads=2)
    assert any(d.endswith("threads: 2 chunks of loop #0 (the kernel moves at "
                          "least 2 MiB and does at least 2^21 operations)")
               for d in mm.decisions), mm.text
    assert any("tiling: cache blocks of m 64 x k 256 x n 200" in d and
               "register blocks of m 8 x k 4 x n 16" in d for d in mm.decisions)
    mv = stride.explain(stride.jit(lambda a, v: a @ v), a, b[:, 0], threads=2)
    assert any("threads: one thread of 2: the kernel moves 1206400 bytes" in d
               for d in mv.decisions), mv.text
    assert any("matrix-vector product" in d and "blocks of 8 rows" in d
               for d in mv.decisions), mv.text
    t = np.random.rand(1024, 1024).astype(np.float32)
    tr = stride.explain(stride.lazy(t).T + t, threads=1)
    assert any("tiling: an operand's contiguous loop" in d and
               "cache blocks of 128 x 128" in d for d in tr.decisions)
    assert "decision: " in tr.text
