"""Array updates inside @stride.jit (issue 25): NumPy's in-place forms either
give NumPy's values (checked across two calls with different inputs, the
second one through the cached plan) or are a TypeError naming the construct
and the user's line, never a value computed at trace time."""
import operator
import re

import numpy as np
import pytest

import stride
from helpers import jit_like_numpy, torch


def _line(fn, text):
    """`test_trace_updates.py:N: text` for the line of `fn` holding `text`,
    as the messages name it."""
    import inspect
    lines, start = inspect.getsourcelines(fn)
    for k, line in enumerate(lines):
        if text in line:
            return re.escape(f"test_trace_updates.py:{start + k}: {line.strip()}")
    raise AssertionError(f"{text!r} not in {fn.__name__}")


def _same_as_numpy(fn, *calls):
    return jit_like_numpy(fn, calls)


# -- arrays made inside the function: memory the trace updates ---------------

def test_local_arrays_filled_from_traced_values():
    """Found: out[:] = x * 2 materialized x * 2 at trace time into `out`,
    which became a constant of the plan: f(np.ones(3)) gave [3, 3, 3] and
    f(np.zeros(3)) then [3, 3, 3] too. Now the array is memory of the trace
    and every call computes it."""
    def empty(x):
        out = np.empty(3)
        out[:] = x * 2
        return out + 1

    def zeros(x):
        out = np.zeros(3)
        out[...] = x * 2
        return out + 1

    def partial(x):
        out = np.zeros((3, 4), np.float32)
        out[1] = x * 2          # a row, cast to float32
        out[:, ::-2] += 1       # negative steps
        out[0, 0] = 7           # an element from a Python int
        out[2, 1:3] = x[:2]     # a value that is an argument view
        return out

    for fn in (empty, zeros):
        f = _same_as_numpy(fn, (np.ones(3),), (np.zeros(3),))
        assert len(f._plans) == 1
    _same_as_numpy(partial, (np.arange(4.0),), (np.ones(4),))


def test_ndarray_constructor_makes_memory_of_the_trace():
    """np.ndarray(shape) made inside the function is memory of the trace as
    np.empty is (it was refused before; npbench's vadv allocates with it),
    both for slice and element stores; over a given buffer it is NumPy's."""
    def ndarray(x):
        out = np.ndarray((3,))
        out[:1] = x[:1]
        out[1:] = x[1:] * 2
        return out + 1

    _same_as_numpy(ndarray, (np.ones(3),), (np.arange(3.0),))

    def element(x):
        out = np.ndarray(3, dtype=np.float32)
        out[0] = x[1] * 2
        out[1:] = 0
        return out + x

    _same_as_numpy(element, (np.arange(3.0),), (np.ones(3),))

    def over_buffer(x):
        return np.ndarray((2,), np.int64, bytes(16)) + x

    _same_as_numpy(over_buffer, (np.arange(2),))


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.float32, np.int32,
                                   np.bool_])
def test_element_of_local_array_from_traced_value(dtype):
    def fn(x):
        out = np.zeros(3, dtype)
        out[0] = x[1] * 2
        out[-1] = x[0]
        return out + x

    _same_as_numpy(fn, (np.arange(3).astype(dtype),),
                   (np.array([1, 0, 1]).astype(dtype),))


def test_conversions_of_lazy_values_are_numpys_for_an_ndarray():
    """np.asarray / asanyarray give the value itself (an argument stays the
    argument's memory), np.array a copy, np.ascontiguousarray and
    np.asfortranarray a new array in that order, which a returned array
    keeps; ndarray.copy is C-ordered unless order says otherwise, np.copy
    keeps the layout ('K')."""
    a = np.arange(12.0).reshape(3, 4)
    cases = [lambda x: np.asarray(x + 1) * 2,
             lambda x: np.asanyarray(x.T, dtype=np.float32),
             lambda x: np.array(x) + 1,
             lambda x: np.array(x.T, order="C"),
             lambda x: np.array(x[0], ndmin=3),
             lambda x: np.ascontiguousarray(x.T),
             lambda x: np.asfortranarray(x * 2),
             lambda x: np.ascontiguousarray(x[0, 0]),
             lambda x: np.ascontiguousarray(x.T, dtype=np.int32),
             lambda x: x.T.copy(),            # ndarray.copy: C order
             lambda x: x.T.copy(order="K"),   # the values' layout
             lambda x: np.copy(x.T),          # np.copy: order 'K'
             lambda x: (x * 2).T.copy("F")]
    for fn in cases:
        got, want = stride.jit(fn)(a), fn(a)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert got.strides == want.strides, (got.strides, want.strides)
        np.testing.assert_array_equal(got, want)

    def through(x):
        y = np.asarray(x)
        y[0] = -1.0
        z = np.array(x)
        z[1] = -2.0

    b = a.copy()
    stride.jit(through)(b)
    want = a.copy()
    want[0] = -1.0
    np.testing.assert_array_equal(b, want)


def test_implicit_materializations_are_refused():
    def to_float(x):
        return x * float(x[0])

    def to_int(x):
        return x * int(x[0])

    def to_index(x):
        return x * [1, 2, 3][operator.index(x[0])]

    cases = [(to_float, "float(x[0])", r"float\(expr\)", np.ones(3)),
             (to_int, "int(x[0])", r"int\(expr\)", np.ones(3, np.int64)),
             (to_index, "operator.index", r"as an index \(operator.index"
              r"\(expr\), a slice bound\)", np.ones(3, np.int64))]
    for fn, text, what, arg in cases:
        with pytest.raises(TypeError, match=what + r".*not supported inside "
                           r"a @stride.jit function.*" + _line(fn, text)):
            stride.jit(fn)(arg)


def test_copyto_and_out_into_a_local_array():
    def copyto(x):
        out = np.zeros(3)
        np.copyto(out, x * 2)
        return out

    def ufunc_out(x):
        out = np.zeros(3)
        np.multiply(x, 2, out=out)
        return out

    def local_iadd(x):
        out = np.zeros(3)
        out += x
        out[1:] *= x[:2]
        return out

    for fn in (copyto, ufunc_out, local_iadd):
        _same_as_numpy(fn, (np.arange(3.0),), (np.ones(3),))

    def narrowing(x):
        out = np.zeros(3, np.int32)
        np.copyto(out, x)

    with pytest.raises(TypeError, match=r"Cannot cast array data from "
                       r"dtype\('float64'\) to dtype\('int32'\) according "
                       "to the rule 'same_kind'"):
        stride.jit(narrowing)(np.ones(3))


def test_out_into_transposes_of_memory():
    """out= a transpose (o.T, a permuted or sliced-then-transposed view of
    an argument or of a local array) writes the result, permuted back, into
    the memory the view shows; reads through the view see it."""
    def ufunc_into_t(x, o):
        np.add(x, 1, out=o.T)
        return o.T * 2

    def sliced_then_t(x, o):
        np.multiply(x, 3, out=o[:, ::2].T)

    def matmul_into_t(s, v, o):
        np.matmul(s, v, out=o[:, 1:].T)

    def permuted_3d(x, o):
        np.negative(x, out=o.transpose(2, 0, 1))

    def local_t(x):
        out = np.zeros((x.shape[1], x.shape[0]))
        np.sqrt(x, out=out.T)
        return out

    def divmod_into_t(x, q, r):
        np.divmod(x, 3, out=(q.T, r.T))

    x = np.arange(12.0).reshape(3, 4)
    _same_as_numpy(ufunc_into_t, (x, np.zeros((4, 3))))
    _same_as_numpy(sliced_then_t, (x, np.zeros((4, 6))))
    s = np.arange(60.0).reshape(3, 4, 5)
    _same_as_numpy(matmul_into_t, (s, np.ones(5), np.zeros((4, 4))))
    _same_as_numpy(permuted_3d, (np.arange(24.0).reshape(2, 3, 4),
                                 np.zeros((3, 4, 2))))
    _same_as_numpy(local_t, (x,), (x[::-1],))
    i = np.arange(-6, 6).reshape(3, 4)
    _same_as_numpy(divmod_into_t, (i, np.zeros((4, 3), int),
                                   np.zeros((4, 3), int)))

    def into_closed_over_t(x):
        np.add(x, 1, out=closed.T)

    closed = np.zeros((4, 3))
    with pytest.raises(TypeError, match="basic-indexing views and transposes"):
        stride.jit(into_closed_over_t)(x)


def test_astype_to_the_same_dtype_copies():
    """Found: x.astype(x.dtype) returned x itself, so y = x.astype(...);
    y += 1 wrote the argument (a silent wrong answer). NumPy copies unless
    copy=False; casting= is checked as NumPy checks it."""
    def write_copy(x):
        y = x.astype(np.float64)
        y += 1
        y[0] = 100
        return x * 1, y

    def no_copy(x):
        y = x.astype(np.float64, copy=False)
        return y * 2

    x = np.arange(4.0)
    _same_as_numpy(write_copy, (x,), (x[::-1],))
    _same_as_numpy(no_copy, (x,))
    with pytest.raises(TypeError, match="Cannot cast array data from "
                       r"dtype\('float64'\) to dtype\('int32'\) according to "
                       "the rule 'safe'"):
        stride.jit(lambda x: x.astype(np.int32, casting="safe"))(x)


def test_copies_and_views_as_numpy_makes_them():
    """Found: +x was x itself (y = +x; y += 1 wrote x), np.atleast_2d and
    np.ascontiguousarray of an argument already so were copies (writes
    through them missed x). NumPy's +x is a new array; the other two give
    the array itself (or a view), so writes reach it."""
    def f(x):
        y = +x
        y += 1
        z = np.atleast_2d(x[0])
        z[0, 0] = 50
        w = np.ascontiguousarray(x)
        w[1, 1] = 70
        v = np.ascontiguousarray(x.T)   # a copy: x.T is not C-ordered
        v[0, 0] = -1
        u = np.asfortranarray(x)        # a copy
        u[2, 2] = 90
        return x * 1, y, v, u

    x = np.arange(12.0).reshape(3, 4)
    _same_as_numpy(f, (x,), (x[::-1],))

    # For a Fortran-ordered x, x.T is C-ordered: NumPy's result is that
    # view, and writing it writes x (it was refused, not a copy that would
    # miss x).
    def write_view(x):
        v = np.ascontiguousarray(x.T)
        v[0, 0] = -1

    _same_as_numpy(write_view, (np.asfortranarray(x),))


def test_in_place_methods_and_out_of_numpys_functions():
    """ndarray.sort, itemset, clip(out=), round(out=) and NumPy's functions
    run between kernels with out= (np.cumsum(x, out=y)) write as NumPy
    does (they were refused)."""
    def sort_rows(x):
        x.sort()
        return x[:, 0] * 1

    def sort_local(x):
        y = x.copy()
        y.sort(axis=0)
        return y

    def methods(x):
        x.clip(-1, 1, out=x)
        x.itemset((0, 1), 9.0)
        y = np.empty_like(x)
        x.round(1, out=y)
        return y

    def cumsum_into(x):
        y = np.zeros_like(x)
        np.cumsum(x, axis=1, out=y)
        return y

    x = np.array([[3.5, -1.25, 2.0, -0.5], [0.75, 1.55, -2.25, 4.0],
                  [-3.0, 0.5, 1.0, -1.5]])
    for fn in (sort_rows, sort_local, methods, cumsum_into):
        _same_as_numpy(fn, (x,), (x[::-1],))


def test_masked_writes_copyto_putmask_fill_diagonal():
    """np.copyto(where=), np.putmask and np.fill_diagonal write memory as
    NumPy does (they were refused): the array keeps its elements where the
    mask is false; fill_diagonal's positions are NumPy's flat ones (wrap
    included), a constant array of values laid along them."""
    def copyto(a):
        np.copyto(a, 0.0, where=a < 0)
        z = np.zeros_like(a)
        np.copyto(z, a[::-1] * 2, where=a > 0.5)
        np.copyto(a[1:], a[0], where=np.array([True, False] * 3))
        return z

    def putmask(a):
        np.putmask(a, a > 0.8, a ** 2)
        z = a.copy()
        np.putmask(z, z > 0.5, -1)
        return z

    def fill_diagonal(a):
        np.fill_diagonal(a, 0)
        tall, wide = np.zeros((7, 3)), np.ones((3, 7), np.int32)
        np.fill_diagonal(tall, a[0, 1], wrap=True)
        np.fill_diagonal(wide, 2.7)
        cube = np.zeros((3, 3, 3))
        np.fill_diagonal(cube, a[1, 0])
        np.fill_diagonal(a[1:, 1:], [1.0, 2.0])
        return tall, wide, cube

    for fn in (copyto, putmask, fill_diagonal):
        _same_as_numpy(fn, (np.random.rand(5, 6) - 0.2,),
                       (np.random.rand(5, 6),))
    with pytest.raises(ValueError, match="All dimensions of input must be "
                       "of equal length"):
        stride.jit(lambda a: np.fill_diagonal(a.reshape(2, 3, 1), 0))(
            np.ones((2, 3)))
    with pytest.raises(TypeError, match="fill_diagonal is not supported .*"
                       "computed array of values"):
        stride.jit(lambda a: np.fill_diagonal(a, a[0]))(np.ones((3, 3)))


def test_numpys_functions_that_write_their_first_argument():
    """np.add.at (unbuffered: repeated indices add twice), other ufuncs'
    .at, np.put, np.place and np.put_along_axis write their first
    argument as NumPy does (they were refused): NumPy runs between
    kernels on a copy of its current contents, which then replaces them."""
    def fn(x, idx):
        np.add.at(x, idx, 1.0)
        z = np.zeros(4)
        np.add.at(z, (x[:3] > 0.5).astype(np.int64), x[:3])
        np.maximum.at(x, [1, 1, 3], x[:3] * 2)
        np.put(x, [0, 2], [9.0, -9.0])
        np.place(x, x > 2, [7.0, 8.0])
        m = x.reshape(2, 3) * 1
        np.put_along_axis(m, np.argmax(m, 1)[:, None], 0.0, 1)
        return z, m

    _same_as_numpy(fn, (np.random.rand(6), np.array([0, 0, 4])),
                   (np.random.rand(6), np.array([5, 1, 5])))


def test_ufunc_where_keeps_out_elsewhere():
    """ufunc(..., out=o, where=m), NumPy's guarded division idiom, was
    refused: o keeps its elements where m is false; the result's cast into
    o is NumPy's same_kind check."""
    def fn(a, b):
        q = np.divide(a, b, out=np.zeros_like(a), where=b != 0)
        np.add(a, b, out=a, where=a > 2)
        r = np.sqrt(a - 2.5, out=np.full(a.shape, -1.0), where=a > 2.5)
        return q, r

    _same_as_numpy(fn, (np.array([1.0, 2, 3, 4]), np.array([0.0, 2, 0, 4])),
                   (np.random.rand(5) * 4, np.random.rand(5).round()))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'divide' output "
                       "from dtype\\('float64'\\) to dtype\\('int64'\\)"):
        stride.jit(lambda a: np.divide(a, 2, out=np.zeros(3, np.int64),
                                       where=a > 0))(np.ones(3))


def test_clip_out_clamps_in_place():
    def clamp(x):
        np.clip(x, -1.0, 1.0, out=x)

    def clamp_into(x, o):
        return np.clip(x, 0, None, out=o[::2])

    x = np.linspace(-3, 3, 8)
    _same_as_numpy(clamp, (x,))
    _same_as_numpy(clamp_into, (x, np.zeros(16)))


def test_outside_a_trace_expressions_still_materialize():
    a = np.arange(3.0)
    np.testing.assert_array_equal(np.asarray(stride.lazy(a) + 1), a + 1)
    out = np.zeros(3)
    out[:] = stride.lazy(a) * 2
    np.testing.assert_array_equal(out, 2 * a)
    out[0] = stride.lazy(a)[2] + 1
    assert out[0] == 3.0
    assert float(stride.lazy(a)[1] * 4) == 4.0
    assert int(stride.lazy(np.arange(3))[2] + 1) == 3
    assert [10, 20, 30][stride.lazy(np.arange(3))[1]] == 20
    with pytest.raises(TypeError, match="only size-1 arrays"):
        float(stride.lazy(a) + 1)
    e = stride.lazy(a)
    e += 1  # an expression is a value: the name gets a new expression
    np.testing.assert_array_equal(stride.materialize(e), a + 1)
    np.testing.assert_array_equal(a, np.arange(3.0))
    with pytest.raises(TypeError, match="not supported"):
        stride.lazy(a)[0] = 1.0


# -- augmented assignment on arguments: NumPy's values ------------------------

def test_iadd_writes_the_argument():
    """Found: x += y rebound the name x to a lazy x + y; the caller's array
    was never written."""
    def fn(x, y):
        x += y
        return x * 2

    f = _same_as_numpy(fn, (np.ones(3), np.arange(3.0)),
                       (np.zeros(3), np.full(3, 5.0)))
    assert len(f._plans) == 1

    def no_return(x, y):
        x -= y

    _same_as_numpy(no_return, (np.ones(3), np.arange(3.0)),
                   (np.zeros(3), np.ones(3)))


@pytest.mark.parametrize("op,dtype,other", [
    ("+=", np.float64, 2.5), ("-=", np.float32, 1), ("*=", np.int32, 3),
    ("/=", np.float64, 4.0), ("//=", np.int64, 3), ("%=", np.float64, 0.75),
    ("&=", np.int32, 6), ("|=", np.bool_, True), ("^=", np.int64, 5),
    ("<<=", np.int32, 2), (">>=", np.int64, 1)])
def test_every_augmented_assignment_writes_the_argument(op, dtype, other):
    ns = {}
    exec(f"def fn(x, y):\n    x {op} y\n    x {op} {other!r}\n    return x",
         {}, ns)
    fn = ns["fn"]
    first = ((np.arange(6).reshape(2, 3) % 3).astype(dtype),
             (np.arange(6)[::-1].reshape(2, 3) % 4 + 1).astype(dtype))
    second = (np.full((2, 3), 5).astype(dtype), np.ones((2, 3), dtype))
    _same_as_numpy(fn, first, second)


def test_views_of_arguments_and_chains():
    def sliced(x, y):
        x[1:] += y[1:]

    def view(x):
        v = x[::2]
        v *= 2
        v += 1
        return v

    def whole(x):
        x += 1
        x *= 3
        return x - 1, x

    def ellipsis(x):
        x[...] += 1

    def zero_d(s, x):
        s += 1  # a 0-d array argument is memory, as in NumPy
        return x * s

    _same_as_numpy(sliced, (np.ones(5), np.arange(5.0)),
                   (np.zeros(5), np.full(5, 2.0)))
    _same_as_numpy(view, (np.ones(5),), (np.arange(5.0),))
    _same_as_numpy(whole, (np.ones((2, 2)),), (np.arange(4.0).reshape(2, 2),))
    _same_as_numpy(ellipsis, (np.ones((2, 2)),), (np.arange(4.0).reshape(2, 2),))
    _same_as_numpy(zero_d, (np.array(2.0), np.ones(3)),
                   (np.array(-1.0), np.arange(3.0)))


def test_in_place_casting_and_shapes_follow_numpy():
    def add(x, y):
        x += y
        return x

    # float32 += float64 computes in float64 and rounds once, as NumPy does
    _same_as_numpy(add, (np.ones(3, np.float32), np.full(3, 2**-24 + 2**-50)),
                   (np.zeros(3, np.float32), np.full(3, 1e-8)))
    _same_as_numpy(add, (np.ones(3, np.int32), np.array(2**40)))  # wraps
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output from "
                       r"dtype\('float64'\) to dtype\('int32'\) with casting "
                       "rule 'same_kind'"):
        stride.jit(add)(np.ones(3, np.int32), np.ones(3))
    with pytest.raises(ValueError, match=r"non-broadcastable output operand "
                       r"with shape \(3,\) doesn't match the broadcast shape "
                       r"\(2,3\)"):
        stride.jit(add)(np.ones(3), np.ones((2, 3)))
    with pytest.raises(TypeError, match="boolean subtract"):
        stride.jit(lambda x, y: operator.isub(x, y))(np.ones(3, bool),
                                                      np.ones(3, bool))


def test_in_place_on_an_intermediate_keeps_numpys_dtype():
    """t += y on an intermediate array keeps t's dtype and shape, as NumPy's
    in-place ufunc does (rebinding used to give t + y's dtype)."""
    def fn(x, y):
        t = x * 2
        t += y
        return t

    _same_as_numpy(fn, (np.ones(3, np.float32), np.full(3, 2**-24 + 2**-50)),
                   (np.arange(3, dtype=np.float32), np.ones(3)))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add'"):
        stride.jit(fn)(np.ones(3, np.int32), np.full(3, 0.5))

    def scalar(x, s):
        t = s * 2  # a 0-d result is a scalar in NumPy: += rebinds it
        t += 0.5
        return x * t

    _same_as_numpy(scalar, (np.ones(3, np.float32), np.array(3)),
                   (np.arange(3, dtype=np.float32), np.array(-2)))


def test_scalar_arguments_and_elements_are_rebound():
    def fn(x, s):
        s += 1
        e = x[0]  # NumPy's x[0] of a 1-d array is a scalar copy
        e *= 3
        return x + s + e

    _same_as_numpy(fn, (np.arange(3.0), 2), (np.ones(3), 5))


def test_elements_of_memory_are_copies_made_when_read():
    """Found: an element of an array the function made or wrote (c[1],
    z[1, 1], z[()] of a 0-d array) was a view, so a later write of the
    array changed it, and `e += 1` wrote the array. NumPy's element is a
    scalar copy of what the memory holds when it is read."""
    def written(a):
        c = a * 2
        e = c[1]
        c[1] = 7
        return e, c[1], a[1]

    def made(a):
        z = np.zeros((3, 3))
        z[1, 1] = a[0]
        e = z[1, 1]
        z += 1
        f = z[0][2]
        z[0, 2] = 9
        return e + 1, f, z

    def rebound(a):
        c = a * 2
        e = c[1]
        e += 1
        c[2] += 1
        return c, e

    def zero_d(a):
        z = np.zeros(())
        z[()] = a[0]
        e, v = z[()], z[...]
        z[...] = 5
        return e, v + 0, z

    for fn in (written, made, rebound, zero_d):
        _same_as_numpy(fn, (np.arange(1.0, 6.0),), (np.ones(5),))
        got = stride.jit(fn)(np.arange(1.0, 6.0))
        for g, w in zip(got, fn(np.arange(1.0, 6.0))):
            assert type(g) is type(w)


def test_torch_argument_is_written():
    if torch is None:
        pytest.skip("needs torch")

    @stride.jit
    def fn(x, y):
        x += y

    t = torch.ones(2, 3)
    fn(t, np.arange(3.0).astype(np.float32))
    fn(t, np.ones(3, np.float32))
    torch.testing.assert_close(t, torch.tensor([[2.0, 3, 4]] * 2))


# -- aliases see writes, as in NumPy -----------------------------------------

def test_aliases_and_views_see_later_writes():
    def alias(x):
        y = x
        x += 1
        return y

    def old_view(x):
        v = x[1:]
        x += 1
        return v * 2

    def after_view_write(x):
        x[1:] += 1
        return x

    def twice(x):
        y = x
        y += 1
        x += 1

    def transposed(x):
        t = x.T
        b = np.broadcast_to(x[0], (2, 2))
        x[0] = 5
        return t + 0, b + 0

    def local_views(x):
        a = np.zeros((2, 3))
        row = a[1]
        t = a.T
        a[1] = x
        row[0] += 10
        return a, row + 0, t + 0

    for fn in (alias, old_view, after_view_write, twice):
        _same_as_numpy(fn, (np.ones(3),), (np.arange(3.0),))
    _same_as_numpy(transposed, (np.ones((2, 2)),), (np.arange(4.0).reshape(2, 2),))
    _same_as_numpy(local_views, (np.arange(3.0),), (np.ones(3),))


def test_written_intermediates_are_memory():
    """NumPy's results are arrays: writing into one is seen through every
    name for it, and what was computed from it before keeps the old value."""
    def intermediate(x):
        t = x * 2
        u = t
        before = t + 0
        t += 1
        t[0] = -5
        return u, before

    _same_as_numpy(intermediate, (np.ones(3),), (np.arange(3.0),))


def test_reading_a_reshape_after_a_write_is_refused():
    def reshaped(x):
        r = x.reshape(3, 2)
        x[0] = 1
        return r + 0

    with pytest.raises(TypeError, match=r"result of reshape of an array after "
                       r"a write.*" + _line(reshaped, "return r + 0")):
        stride.jit(reshaped)(np.ones((2, 3)))

    # Found: a write into other memory (the new array of x.copy()) refused
    # reading a reshape of a view of x, which that write cannot change.
    def other_memory(x):
        r = x.T.reshape(-1)
        c = x.ravel().copy()
        c[0] = 5
        return r + c, x.reshape(-1).T + x.T.copy().ravel()

    _same_as_numpy(other_memory, (np.arange(6.0).reshape(2, 3),))


def test_overlapping_arguments_are_checked_per_call():
    def fn(x, y):
        z = y * 2  # read before the write: the kernel's value is NumPy's
        x += 1
        return z, y[:]  # read after it (returned): refused when y overlaps x

    f = stride.jit(fn)
    a, b = np.ones(4), np.ones(4)
    f(a, b)
    np.testing.assert_array_equal(a, 2.0)
    with pytest.raises(TypeError, match=r"arguments #1 and #0 .* share memory "
                       r"in this call: the function writes #0 with \+= .*"
                       + _line(fn, "x += 1") + r".* then reads #1 \(in what "
                       r"the function returns\)"):
        f(a, a)
    np.testing.assert_array_equal(a, 2.0)  # refused before anything ran
    f(a[:2], a[2:])  # disjoint views of one array: NumPy's values
    np.testing.assert_array_equal(a, [3, 3, 2, 2])

    def returns_y(x, y):
        z = y * 2
        x += 1
        return z, y  # y itself: the caller's array, whatever x wrote

    c = np.ones(3)
    z, y = stride.jit(returns_y)(c, c)
    assert y is c
    np.testing.assert_array_equal(z, 2.0)
    np.testing.assert_array_equal(c, 2.0)

    def before(x, y):
        z = y * 2
        x += 1
        return z

    _same_as_numpy(before, (np.ones(3), np.ones(3)))
    c = np.ones(3)
    np.testing.assert_array_equal(stride.jit(before)(c, c), [2, 2, 2])
    np.testing.assert_array_equal(c, 2.0)


def test_overlap_checks_look_at_the_writes_before_each_read():
    """A read after some writes of another argument is checked against
    those writes only, and the message names the write it overlaps; an
    unrolled loop of thousands of writes and reads costs one check per read
    and written argument (it was one per pair, built into every call)."""
    def fn(x, y):
        x[0] = 1.0
        early = y * 1  # after the write of row 0 only
        x[2] = 2.0
        return early, y * 3  # the second read is after both writes

    f = stride.jit(fn)
    a = np.zeros((4, 3))
    f(a, np.ones(3))
    with pytest.raises(TypeError, match=r"arguments #1 and #0 .* share memory "
                       r"in this call: the function writes #0 with .*"
                       + _line(fn, "x[2] = 2.0")):
        f(a, a[2])
    with pytest.raises(TypeError, match=r"writes #0 with .*"
                       + _line(fn, "x[0] = 1.0")):
        f(a, a[0])
    b = np.zeros((4, 3))
    got = f(b, b[1])  # row 1 is never written: NumPy's values
    np.testing.assert_array_equal(got[1], np.zeros(3))

    def loop(x, y):
        for i in range(200):
            x[i % 4] = y[i % 3] + i
        return x

    _same_as_numpy(loop, (np.zeros((4, 5)), np.ones((3, 5))))


def test_item_assignment_into_an_argument():
    def setitem(x, y):
        x[1:] = y[1:] * 2

    def element(x):
        x[0] += 1  # x[0] is a scalar: this is x[0] = x[0] + 1

    def overlapping(x):
        x[1:] = x[:-1]  # NumPy reads the right-hand side first
        x[::2] = x[::-2] * 1.5

    _same_as_numpy(setitem, (np.ones(3), np.arange(3.0)), (np.zeros(3), np.ones(3)))
    _same_as_numpy(element, (np.ones(3),), (np.arange(3.0),))
    _same_as_numpy(overlapping, (np.arange(7.0),), (np.ones(7),))


def test_matmul_power_and_closed_over_updates_are_refused():
    g = np.ones(3)
    lg = stride.lazy(np.ones(3))

    def imatmul(x):
        x @= x

    def ipow(x):
        x **= 2

    def global_array(x):
        g[...] += x  # noqa: F821 (the closed-over NumPy array)

    def global_lazy(x):
        v = lg[1:]
        v += 1
        return v + x[1:]

    cases = [(imatmul, "x @= x", r"In-place matrix multiplication is not"),
             (ipow, "x **= 2", r"augmented assignment \*\*= of an array is "
                               "not supported"),
             (global_array, "g[...] += x", r"only supported for the "
                                           "function's array arguments"),
             (global_lazy, "v += 1", r"augmented assignment \(\+=\) on an "
                                     "array the @stride.jit function closed "
                                     "over")]
    arg = {imatmul: np.ones((2, 2))}
    for fn, text, what in cases:
        with pytest.raises(TypeError, match=what + ".*" + _line(fn, text)):
            stride.jit(fn)(arg.get(fn, np.ones(3)))
    np.testing.assert_array_equal(g, 1.0)


def test_unwritable_and_self_overlapping_arguments():
    def fn(x):
        x += 1

    ro = np.ones(3)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        stride.jit(fn)(ro)
    b = np.lib.stride_tricks.as_strided(np.ones(1), (3,), (0,), writeable=True)
    with pytest.raises(ValueError, match="overlap"):
        stride.jit(fn)(b)


def _plan_text(f):
    (plan,) = f._plans.values()
    return plan.text


def test_augmented_assignment_into_a_view_stores_once():
    # Python ends x[k] op= v with x[k] = (the updated view): a store of the
    # region onto itself, which must not chain a second insert (One-Shot
    # Bufferize's analysis time grows steeply with the chain).
    def fn(c, a):
        for i in range(4):
            c[i, :i + 1] += 0.5 * a[:i + 1, i]
        return c

    c, a = np.random.rand(4, 4), np.random.rand(4, 4)
    f = stride.jit(fn)
    got = f(c.copy(), a)
    np.testing.assert_allclose(got, fn(c.copy(), a))
    assert _plan_text(f).count("tensor.insert_slice") == 4


@pytest.mark.parametrize("assign", [
    lambda x: x.__setitem__((slice(None), slice(None)), x.T),
    lambda x: x.__setitem__(slice(1, 3), x[2:0:-1]),
    lambda x: x.__setitem__((Ellipsis, slice(None, None, -1)), x),
])
def test_stores_of_the_same_memory_in_another_order_are_writes(assign):
    # Only the same elements in the same order are a no-op store.
    def fn(x):
        assign(x)
        return x * 1

    x = np.arange(16.0).reshape(4, 4)
    want = x.copy()
    assign(want)
    got_x = x.copy()
    np.testing.assert_array_equal(stride.jit(fn)(got_x), want)
    np.testing.assert_array_equal(got_x, want)


def test_a_store_of_a_region_onto_itself_writes_nothing():
    def fn(x):
        x[1:3] = x[1:3]
        x[::2] = x[::2]
        return x + 1

    x = np.arange(6.0)
    f = stride.jit(fn)
    np.testing.assert_array_equal(f(x.copy()), x + 1)
    assert "tensor.insert_slice" not in _plan_text(f)


def test_views_of_intermediates_taken_before_a_write():
    """NumPy's result of x * 2 is an array: a view of it taken before the
    function writes into it (t.T, t[0], t[:, 1:], a broadcast of a row)
    shows the write. These views kept the old values (a silent wrong
    answer) before a view of any intermediate was tracked as a snapshot."""
    def transposed(x):
        t = x * 2
        tt = t.T
        t[0] = 5.0
        return tt.copy(), tt + 0, tt

    def row(x):
        t = x * 2
        r = t[0]
        t[0] = 5.0
        return r + 0

    def columns(x):
        t = x * 2
        r = t[:, 1:]
        t += 1
        return r * 1

    def broadcast_row(x):
        t = x * 2
        r = np.broadcast_to(t[0], (2, 3))
        t[0, 0] = 7.0
        return r + 0

    def untouched(x):
        t = x * 2
        tt = t.T
        x[0] = 1.0  # another array written: t's view keeps its values
        return tt + 0

    for fn in (transposed, row, columns, broadcast_row, untouched):
        jit_like_numpy(fn, [(np.random.rand(3, 3),), (np.random.rand(3, 3),)])


def test_loop_over_a_copied_column_of_a_written_argument():
    """A fori_loop over `x[:, 0].copy()` after rows of `x` were written.
    The loop carried the column's strides (a view with gaps), One-Shot
    copied it into a dense buffer and the loop's views read that with the
    column's strides: "result layout gives dim 0 stride 30", then, once it
    compiled, a copy allocated dense and written past its end. The copy of
    a view is now a dense array, as NumPy's is (and the gapped copies are
    checked by test/Integration/one-shot-copies.mlir)."""
    def fn(x):
        for i in range(3):
            x[i] = x[i] * 2

        def body(k, u):
            u[1:-1] = 0.5 * (u[:-2] + u[2:])
            return u
        y = stride.fori_loop(0, 7, body, x[:, 0].copy())
        return y, np.argmax(x, axis=0), x[:, 1].copy() + 1

    jit_like_numpy(fn, [(np.random.rand(50, 30),), (np.random.rand(50, 30),)])
    jit_like_numpy(fn, [(np.random.rand(40, 7).astype(np.float32)[:, ::-2],)])


def test_writes_through_transposes_write_the_array():
    """NumPy writes through a transpose into the array it views (x.T[0] = v
    sets x's column 0); these were refused. Now the key and the value are
    put in the array's dim order, for arguments, arrays the function made,
    intermediates, n-d permutations, augmented assignments and views of
    the transpose."""
    def item(x):
        t = x * 2
        t.T[0] = 1.0
        return t

    def augmented(x):
        t = x * 2
        tt = t.T
        tt += 1.0
        return t

    def argument(x):
        x.T[1:3, ::2] = x[::2, 1:3].T * 2
        x.T[:, 2] *= 3
        x.T[..., 0] = 7
        x.T.T[1] = -1

    def made(x):
        z = np.zeros((2, 3, 4))
        t = z.transpose(2, 0, 1)
        t[1] = x[:2, :3]
        t[:, 1, ::2] += 5
        m = np.moveaxis(z, 0, -1)
        m[0, 1] = x[0, :2]
        return z, t.max()

    for fn in (item, augmented, argument, made):
        _same_as_numpy(fn, (np.random.rand(5, 6),), (np.random.rand(5, 6),))


def test_writes_through_other_views_of_intermediates_are_refused():
    """NumPy writes through a flip into the array it views; the trace
    cannot, so it refuses (it wrote a copy, silently, once)."""
    def flipped(x):
        t = x * 2
        np.flip(t)[0] = 1.0
        return t

    with pytest.raises(TypeError, match="assigning into the result of "
                       "flip .*np.flip\\(t\\)\\[0\\] = 1.0"):
        stride.jit(flipped)(np.random.rand(3, 3))
    with pytest.raises(TypeError, match="with np.newaxis in the key"):
        stride.jit(lambda x: x.T.__setitem__((None, 0), 1.0))(np.ones((2, 2)))


# -- written arguments: returned as themselves, written by the kernel --------

def test_a_returned_argument_is_the_callers_array():
    """As in NumPy, `np.tanh(x, out=out)` and `return out` give back the
    caller's array itself (after the writes), not a copy; so does an
    argument returned unwritten, next to computed results and constants."""
    x = np.linspace(0.0, 1.0, 7, dtype=np.float32)
    out = np.empty_like(x)
    r = stride.jit(lambda x, out: np.tanh(x, out=out))(x, out)
    assert r is out
    np.testing.assert_allclose(out, np.tanh(x), rtol=1e-6)

    def update(x, out):
        out += x
        return out, out.sum(), 3, x

    before = out.copy()
    r = stride.jit(update)(x, out)
    assert r[0] is out and r[3] is x and r[2] == 3
    np.testing.assert_allclose(out, before + x, rtol=1e-6)
    np.testing.assert_allclose(r[1], out.sum(), rtol=1e-6)
    assert stride.jit(lambda a: a)(x) is x
    a, b = np.ones(3), np.zeros(2)
    assert stride.jit(lambda a, b: (b, 1, a))(a, b) == (b, 1, a)


def test_torch_argument_returned_is_the_callers_tensor():
    if torch is None:
        pytest.skip("needs torch")

    def fn(t, out):
        np.exp(t, out=out)
        return out

    t, out = torch.rand(5), torch.empty(5)
    assert stride.jit(fn)(t, out) is out
    torch.testing.assert_close(out, torch.exp(t))


@pytest.mark.parametrize("layout", ["same", "reversed", "transposed", "alias"])
def test_kernel_writes_the_argument_only_when_nothing_overlaps(layout):
    """The kernel writes a written argument itself when it has the
    kernel's output layout and shares no memory with what the kernel
    reads; otherwise it writes a new array that is copied in. Either way
    the values are NumPy's, call after call (the decision is per call)."""
    def fn(x, out):
        out[...] = x[::-1] * 2 + 1

    f = stride.jit(fn)
    for _ in range(2):
        base = np.arange(12.0).reshape(3, 4)
        x = base.copy()
        out = {"same": np.empty((3, 4)), "reversed": np.empty((3, 4))[::-1],
               "transposed": np.empty((4, 3)).T, "alias": x}[layout]
        want = x[::-1] * 2 + 1
        assert f(x, out) is None
        np.testing.assert_array_equal(out, want)


def test_a_list_argument_is_a_clear_error():
    with pytest.raises(TypeError, match="argument #0 is a list"):
        stride.jit(lambda a: a * 2)([1.0, 2.0])


def test_reshape_of_an_unwritten_argument_read_after_other_writes():
    """A reshape of an argument nothing writes stays readable after writes
    into other arrays; one of a written argument read after the write is
    refused (NumPy's reshape is a view or a copy)."""
    def other(x, y):
        r = y.reshape(2, 3)
        z = np.zeros(3)
        z[0] = 1.0
        return r * z

    def same(x, y):
        r = y.reshape(2, 3)
        y[0] = 5.0
        return r + 1

    x, y = np.ones(3), np.arange(6.0)
    np.testing.assert_array_equal(stride.jit(other)(x, y.copy()),
                                  other(x, y.copy()))
    with pytest.raises(TypeError, match="reading the result of reshape"):
        stride.jit(same)(x, y.copy())


def test_random_draws_inside_a_trace_are_refused_not_frozen():
    """NumPy's random functions make their arrays in compiled code (which
    called the traced np.empty and crashed the process): inside a trace
    they are a TypeError naming the call, since the draw would be one
    constant of every later call."""
    x = np.zeros(3)
    rng = np.random.default_rng(0)
    cases = [(lambda v: v + np.random.rand(*v.shape), "np.random.rand"),
             (lambda v: v + rng.normal(size=v.shape), "rng.normal"),
             (lambda v: v * np.random.default_rng(1).random(3), None)]
    for fn, name in cases:
        with pytest.raises(TypeError, match=r"draws random numbers while "
                           r"the @stride.jit function is traced"):
            stride.jit(fn)(x)


def test_repeated_small_calls_take_the_fast_paths_with_numpys_results():
    """The per-call fast paths of a one-kernel plan (a new result; a ufunc
    writing its out= argument) give new arrays each call, write and return
    `out` itself, and leave aliased or read-only calls to the general path
    (NumPy's values, NumPy's error)."""
    add = stride.jit(lambda a, b: a + b)
    x, y = np.arange(6.0), np.ones(6)
    first, second = add(x, y), add(x, y)
    assert first is not second and not np.shares_memory(first, second)
    np.testing.assert_array_equal(first, x + y)

    into = stride.jit(lambda a, out: np.exp(a, out=out))
    out = np.empty(6)
    for _ in range(2):
        assert into(x, out) is out
        np.testing.assert_array_equal(out, np.exp(x))
    a = np.linspace(0, 1, 7)
    want = a.copy()
    np.exp(want[1:], out=want[:-1])
    result = into(a[1:], a[:-1])
    np.testing.assert_array_equal(a, want)
    assert np.shares_memory(result, a)
    b = np.linspace(0, 1, 6)
    assert into(b, b) is b
    np.testing.assert_array_equal(b, np.exp(np.linspace(0, 1, 6)))
    frozen = np.empty(6)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        into(x, frozen)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_float_literals_are_constants_of_the_kernel(dtype):
    """A trace's float literals are constants of its kernel text, not
    arguments (LLVM folds x / 2 into x * 0.5), rounded as NumPy rounds the
    weak scalar: to the array's float dtype. Int arrays keep theirs as
    arguments (the promotion decides the type)."""
    def f(x):
        return (x / 2 + x * 0.1 - np.float64(1e-3)) * -0.0 + np.where(
            x > 3, x ** 2.0, np.inf) - 1e30

    x = np.arange(-5, 6).astype(dtype)
    jitted = stride.jit(f)
    with np.errstate(all="ignore"):
        want = f(x)
        got = jitted(x)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    text, _ = jitted.kernel_text((x,))
    assert "arith.constant" in text
    arguments = text[:text.index(")")].count("%arg")
    # For int32, the literal 3 of x > 3 stays an (int) argument.
    assert arguments == (2 if dtype == np.int32 else 1), text


def _negative_steps(a):
    b = a * 2
    return (b[::-1], b[5:1:-2], b[-2::-3, ::-1], b[1:5:-1], b[::-7],
            b[:, 4::-2], np.flip(b, 0)[:, ::-1], b[3, ::-2], b[None, ::-1, 2],
            b[::2, 1::3][:, ::-1] + 1)


def _aug_of_intermediate_slices(a):
    b = a + 1
    for i in range(3):
        b[i::3] *= 2
        b[:, -1] -= b[:, 0]
    b[::-2, 1:] /= 4
    c = b[2:5]
    c += 10          # writes b
    d = b * 1        # sees the write
    b[3] = 0         # c sees this
    return b, c + 0, d


def _views_of_written_transposes(a):
    b = a.T * 2
    b[0] = 4
    t = b[1::2] + 0
    b[1::2, 1:] /= 4
    return t, b.sum(0), b[::-1, 2]


@pytest.mark.parametrize("fn", [_negative_steps, _aug_of_intermediate_slices,
                                _views_of_written_transposes])
def test_slices_of_intermediates(fn):
    """Basic indexing of intermediate results as NumPy does it: negative
    steps (a slice and a flip), augmented assignment to a slice (NumPy's
    view writes the intermediate, and the view shows later writes), and
    views of an intermediate written in place whose layout is transposed
    (a.T * 2 is column-major)."""
    a = np.arange(8 * 6, dtype=np.float64).reshape(8, 6)
    jit_like_numpy(fn, [(a,), (a[::-1] * 3,)])


def test_augmented_assignment_to_a_view_of_a_view():
    """A slice of a slice of an intermediate is still refused by name."""
    def fn(a):
        b = a * 1
        v = b[1:]
        v[::2] += 1
        return b
    with pytest.raises(TypeError, match="assigning into the result of slice "
                       r"\(a view of an array\) is not supported"):
        stride.jit(fn)(np.ones((4, 3)))
