"""The extension re-checks every call against the kernel's specialization, so
that misuse of stride._stride raises instead of handing a kernel bad memory."""
import numpy as np
import pytest

import stride
from stride import _stride

IR = """func.func @f(%a: tensor<4x3xf32>, %s: f32) -> tensor<*xf32> {
  %0 = stride.mul %a, %s : tensor<4x3xf32>, f32 -> tensor<*xf32>
  return %0 : tensor<*xf32>
}"""


@pytest.fixture(scope="module")
def kernel():
    return _stride.compile(IR, "f", [((4, 3), (3, 1)), None])


def test_a_matching_call_runs(kernel):
    a = np.arange(12, dtype=np.float32).reshape(4, 3)
    out = np.empty((4, 3), np.float32)
    kernel([a, 2.0], [out])
    np.testing.assert_array_equal(out, 2 * a)


@pytest.mark.parametrize("inputs, outputs, error, message", [
    (lambda a, o: [a], lambda a, o: [o], ValueError, "the kernel takes 2 inputs, got 1"),
    (lambda a, o: [a, 1.0], lambda a, o: [], ValueError, "the kernel has 1 outputs, got 0 arrays for them"),
    (lambda a, o: [a.tolist(), 1.0], lambda a, o: [o], TypeError, "input #0 must be a numpy.ndarray"),
    (lambda a, o: [a.ravel(), 1.0], lambda a, o: [o], ValueError, "input #0 has 1 dims but the kernel expects 2"),
    (lambda a, o: [a.astype(np.float64), 1.0], lambda a, o: [o], TypeError, "input #0 has dtype float64 but the kernel expects float32 \\(f32\\)"),
    (lambda a, o: [a.T.copy().T, 1.0], lambda a, o: [o], ValueError, "input #0 has stride 1 in dim 0, the kernel expects 3"),
    (lambda a, o: [a, "x"], lambda a, o: [o], TypeError, "input #1 must be a scalar convertible to f32"),
    (lambda a, o: [a, 1.0], lambda a, o: [o[::1].view()], None, None),
])
def test_calls_that_do_not_match_raise(kernel, inputs, outputs, error, message):
    a = np.ones((4, 3), np.float32)
    o = np.empty((4, 3), np.float32)
    if error is None:
        kernel(inputs(a, o), outputs(a, o))
        return
    with pytest.raises(error, match=message):
        kernel(inputs(a, o), outputs(a, o))


def test_read_only_output(kernel):
    o = np.empty((4, 3), np.float32)
    o.flags.writeable = False
    with pytest.raises(ValueError, match="output #0 is read-only"):
        kernel([np.ones((4, 3), np.float32), 1.0], [o])


def test_unaligned_strides(kernel):
    raw = np.zeros(4 * 3 * 4 + 2, np.uint8)[2:].view(np.float32).reshape(4, 3)
    odd = np.lib.stride_tricks.as_strided(raw, (4, 3), (13, 4))
    with pytest.raises(ValueError, match="not a multiple of its item size"):
        kernel([odd, 1.0], [np.empty((4, 3), np.float32)])


def test_dynamic_kernels_refuse_negative_strides():
    ir = """func.func @g(%a: tensor<?xf32, #stride.layout<strides = [?]>>) -> tensor<?xf32> {
      %0 = stride.neg %a : tensor<?xf32, #stride.layout<strides = [?]>> -> tensor<?xf32>
      return %0 : tensor<?xf32>
    }"""
    k = _stride.compile(ir, "g", None)  # compiled as written: dynamic strides
    a = np.arange(5, dtype=np.float32)
    out = np.empty(5, np.float32)
    k([a], [out])
    np.testing.assert_array_equal(out, -a)
    with pytest.raises(ValueError, match="negative stride in dim 0, which this kernel was not compiled for"):
        k([a[::-1]], [out])


def test_a_scalar_parameter_numpy_cannot_pass():
    ir = """func.func @h(%s: f16, %a: tensor<3xf16>) -> tensor<*xf16> {
      %0 = stride.add %s, %a : f16, tensor<3xf16> -> tensor<*xf16>
      return %0 : tensor<*xf16>
    }"""
    k = _stride.compile(ir, "h", [None, ((3,), (1,))])
    with pytest.raises(TypeError, match="input #0 has an unsupported type f16"):
        k([1.0, np.ones(3, np.float32)], [np.empty(3, np.float32)])


def test_a_result_whose_size_the_arguments_do_not_fix():
    ir = """func.func @e(%n: i64, %x: tensor<1xf32>) -> tensor<?xf32> {
      %i = arith.index_cast %n : i64 to index
      %t = tensor.empty(%i) : tensor<?xf32>
      %0 = stride.broadcast ins(%x : tensor<1xf32>) outs(%t : tensor<?xf32>) -> tensor<?xf32> {
      ^bb0(%v: f32):
        stride.yield %v : f32
      }
      return %0 : tensor<?xf32>
    }"""
    with pytest.raises(RuntimeError, match="the kernel reports a dynamic output layout"):
        stride.compile(ir, "e")(4, np.ones(1, np.float32))


# The one acceptance rule shared with the C API (describeBuffer; the same
# buffers are tried from C in test/CAPI/capi.c, "-- one rule"): a kernel
# specialized to a (1, 3) row-major input and a dynamic-stride one.
def test_the_buffer_rule_the_c_api_shares():
    ir = """func.func @r(%a: tensor<1x3xf32>, %b: tensor<?xf32, #stride.layout<strides = [?]>>) -> (tensor<*xf32>, tensor<*xf32>) {
      %0 = stride.neg %a : tensor<1x3xf32> -> tensor<*xf32>
      %1 = stride.neg %b : tensor<?xf32, #stride.layout<strides = [?]>> -> tensor<*xf32>
      return %0, %1 : tensor<*xf32>, tensor<*xf32>
    }"""
    k = _stride.compile(ir, "r", None)
    base = np.arange(12, dtype=np.float32)
    out0, out1 = np.empty((1, 3), np.float32), np.empty(4, np.float32)
    # Accepted: any stride on the size-1 dim (here 7 elements).
    row = np.lib.stride_tricks.as_strided(base, (1, 3), (28, 4))
    k([row, base[:4]], [out0, out1])
    np.testing.assert_array_equal(out0, -base[:3].reshape(1, 3))
    # Refused: a stride the kernel was not compiled for, a static size that
    # differs, a negative stride where the kernel's stride is dynamic.
    for inputs, message in [
            ([base[:6:2].reshape(1, 3), base[:4]],
             "input #0 has stride 2 in dim 1, the kernel expects 1"),
            ([base[:4].reshape(1, 4), base[:4]],
             "input #0 has size 4 in dim 1, the kernel expects 3"),
            ([base[:3].reshape(1, 3), base[3::-1]],
             "input #1 has a negative stride in dim 0, which this kernel was "
             "not compiled for")]:
        with pytest.raises(ValueError, match=message):
            k(inputs, [out0, out1])


def test_call_into_writes_only_a_writable_target_that_overlaps_no_input(kernel):
    """Kernel.call_into, the small-call path of stride.jit's out= plans:
    True after writing the target; False, writing nothing, when the target
    is read-only or its memory's bounds overlap an input's (the test
    np.may_share_memory makes)."""
    a = np.arange(12, dtype=np.float32).reshape(4, 3)
    out = np.full((4, 3), -1, np.float32)
    assert kernel.call_into([a, 2.0], out) is True
    np.testing.assert_array_equal(out, 2 * a)
    frozen = np.full((4, 3), -1, np.float32)
    frozen.flags.writeable = False
    assert kernel.call_into([a, 2.0], frozen) is False
    assert (frozen == -1).all()
    big = np.arange(24, dtype=np.float32)
    # Interleaved columns: disjoint elements, overlapping bounds.
    lhs, rhs = big.reshape(4, 6)[:, ::2], big.reshape(4, 6)[:, 1::2]
    assert np.may_share_memory(lhs, rhs)
    before = rhs.copy()
    assert kernel.call_into([lhs, 2.0], rhs) is False
    np.testing.assert_array_equal(rhs, before)
    # Mirrored strides: the bounds run downward from the data pointer. A
    # disjoint target gets past the overlap test to the kernel's own check
    # of the input's strides.
    base = np.arange(24, dtype=np.float32)
    mirrored = base[:12][::-1].reshape(4, 3)
    with pytest.raises(ValueError, match="stride -3"):
        kernel.call_into([mirrored, 2.0], base[12:].reshape(4, 3))
    assert kernel.call_into([mirrored, 2.0], base[:12].reshape(4, 3)) is False
    np.testing.assert_array_equal(base, np.arange(24))


@pytest.mark.parametrize("args", [
    (np.zeros((3, 4), np.float32), np.zeros(5, np.int64)),
    (np.zeros((3, 4))[:, ::2], np.zeros((2, 0), np.uint8)),
    (np.zeros(7, np.int64).view(np.uint8)[1:-7].view(np.int16),),
    (np.ones(3, np.dtype("l")), np.ones(3, np.dtype("q")), np.ones(3, np.bool_)),
])
def test_array_signature_tells_apart_what_a_plan_depends_on(args):
    """The extension's key of an all-array call (packed bytes) is the key
    _signature gives for those arguments in a tuple or a list, equal for
    arguments with the same layouts, and different when an argument's
    dtype, shape, strides or alignment differ."""
    from stride import _trace
    fast = _stride.array_signature(args)
    assert isinstance(fast, bytes)
    assert fast == _trace._signature(list(args)) == _trace._signature(args)
    same = tuple(np.lib.stride_tricks.as_strided(
        np.empty_like(a, shape=(a.size + 16,))[8:], a.shape, a.strides)
        if a.flags.aligned else a for a in args)
    assert _stride.array_signature(same) == fast
    first, rest = args[0], args[1:]
    misaligned = np.zeros(first.size * first.itemsize + 1,
                          np.uint8)[1:].view(first.dtype).reshape(first.shape)
    for other in (first.astype(np.int8 if first.dtype != np.int8 else np.float64),
                  first.reshape(first.shape + (1,)),
                  np.zeros(first.shape, first.dtype, order="F")
                  if first.ndim > 1 else np.zeros(2 * first.size + 1,
                                                  first.dtype)[::2],
                  (first.copy() if not first.flags.aligned else misaligned)
                  if first.itemsize > 1 else first[None]):
        assert _stride.array_signature((other,) + rest) != fast


def test_array_signature_leaves_other_arguments_to_python():
    assert _stride.array_signature((np.zeros(3), 1.0)) is None
    assert _stride.array_signature((np.zeros(3), np.float32(2))) is None
    assert _stride.array_signature((np.zeros(()),)) is None
    assert _stride.array_signature(()) == b""
