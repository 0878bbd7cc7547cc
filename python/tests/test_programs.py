"""Whole NumPy programs under @stride.jit, written the way NumPy code is
written (stencils updating arrays in place in loops, kernels that create
their outputs, products, joins), each checked against NumPy itself on two
calls with different inputs (the second through the cached plan), on
sizes across the compiler's tile and thread boundaries."""
import numpy as np
import pytest

import stride
from helpers import jit_like_numpy

RNG = np.random.default_rng(7)


def _check(fn, *calls, rtol=1e-12, **jit):
    return jit_like_numpy(fn, calls, rtol, **jit)


def rand(*shape, dtype=np.float64):
    return RNG.random(shape).astype(dtype)


# -- stencils: slice assignment, read-after-write, Python int loop counts ----

def jacobi_1d(TSTEPS, A, B):
    for t in range(1, TSTEPS):
        B[1:-1] = 0.33333 * (A[:-2] + A[1:-1] + A[2:])
        A[1:-1] = 0.33333 * (B[:-2] + B[1:-1] + B[2:])


def jacobi_2d(TSTEPS, A, B):
    for t in range(1, TSTEPS):
        B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] +
                               A[2:, 1:-1] + A[:-2, 1:-1])
        A[1:-1, 1:-1] = 0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:] +
                               B[2:, 1:-1] + B[:-2, 1:-1])


def heat_3d(TSTEPS, A, B):
    for t in range(1, TSTEPS):
        B[1:-1, 1:-1, 1:-1] = (
            0.125 * (A[2:, 1:-1, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[:-2, 1:-1, 1:-1]) +
            0.125 * (A[1:-1, 2:, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, :-2, 1:-1]) +
            0.125 * (A[1:-1, 1:-1, 2:] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, 1:-1, 0:-2]) +
            A[1:-1, 1:-1, 1:-1])
        A[1:-1, 1:-1, 1:-1] = (
            0.125 * (B[2:, 1:-1, 1:-1] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[:-2, 1:-1, 1:-1]) +
            0.125 * (B[1:-1, 2:, 1:-1] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[1:-1, :-2, 1:-1]) +
            0.125 * (B[1:-1, 1:-1, 2:] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[1:-1, 1:-1, 0:-2]) +
            B[1:-1, 1:-1, 1:-1])


def fdtd_2d(TMAX, ex, ey, hz, _fict_):
    for t in range(TMAX):
        ey[0, :] = _fict_[t]
        ey[1:, :] -= 0.5 * (hz[1:, :] - hz[:-1, :])
        ex[:, 1:] -= 0.5 * (hz[:, 1:] - hz[:, :-1])
        hz[:-1, :-1] -= 0.7 * (ex[:-1, 1:] - ex[:-1, :-1] + ey[1:, :-1] - ey[:-1, :-1])


def seidel_rows(TSTEPS, N, A):
    # Row by row (Gauss-Seidel in one direction): each row reads the row
    # just written.
    for t in range(TSTEPS):
        for i in range(1, N - 1):
            A[i, 1:-1] = (A[i - 1, 1:-1] + A[i, 1:-1] + A[i + 1, 1:-1]) / 3.0


@pytest.mark.parametrize("n", [10, 130, 2100])
def test_jacobi_1d(n):
    _check(jacobi_1d, (4, rand(n), rand(n)), (4, rand(n), rand(n)))


@pytest.mark.parametrize("n", [7, 33, 130])
def test_jacobi_2d(n):
    _check(jacobi_2d, (3, rand(n, n), rand(n, n)), (3, rand(n, n), rand(n, n)))


def test_jacobi_2d_on_transposed_and_float32_arrays():
    a, b = rand(40, 33).T, rand(33, 40)
    _check(jacobi_2d, (3, a, b), rtol=1e-12)
    _check(jacobi_2d, (3, rand(20, 20, dtype=np.float32),
                       rand(20, 20, dtype=np.float32)), rtol=1e-5)


def test_heat_3d():
    _check(heat_3d, (3, rand(12, 12, 12), rand(12, 12, 12)),
           (3, rand(12, 12, 12), rand(12, 12, 12)))


def test_fdtd_2d():
    args = lambda: (3, rand(20, 30), rand(20, 30), rand(20, 30), rand(3))
    _check(fdtd_2d, args(), args())


def test_seidel_rows_reads_what_it_wrote():
    _check(seidel_rows, (2, 9, rand(9, 11)), (2, 9, rand(9, 11)))


def self_updating(steps, u):
    # Each sweep reads the array it writes (the Python loop unrolls).
    for t in range(steps):
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] +
                                u[1:-1, 2:])
    return u.sum()


@pytest.mark.parametrize("shape", [(3, 3), (9, 17), (130, 67)])
def test_self_updating_stencil_writes_each_sweep_into_a_new_array(shape):
    """A sweep that reads the array it writes computes its region straight
    into a new array (the elements around the region copied from the old
    one) rather than into a buffer of its own that is then copied into the
    region: one tensor.empty per inserted sweep in the traced program, and
    the values of NumPy's loop, on C- and F-ordered arrays."""
    _check(self_updating, (4, rand(*shape)), (4, np.asfortranarray(rand(*shape))))
    text, _ = stride.jit(self_updating).kernel_text((4, rand(*shape)))
    # One per sweep (u.sum() reads the last one whole); a 1x1 region is too
    # small to be worth a new array.
    assert text.count("tensor.empty") == (0 if shape == (3, 3) else 4)


def test_strided_and_small_self_updates_keep_the_copy():
    """Regions that are strided, or smaller than what surrounds them, are
    still computed into a buffer of their own and copied in place."""
    def update(u):
        for _ in range(2):
            u[::2] = u[1::2] * 0.5 + u[::2]
            u[2:5] = u[:3] + u[4:7]
        return u * 1.0
    _check(update, (rand(40),), (rand(40),))
    text, _ = stride.jit(update).kernel_text((rand(40),))
    assert "tensor.empty" not in text


def floyd_warshall(path):
    # A column of the array broadcast across its rows in every step.
    for k in range(path.shape[0]):
        path[:] = np.minimum(path[:], np.add.outer(path[:, k], path[k, :]))


@pytest.mark.parametrize("n", [5, 37, 70])
def test_floyd_warshall(n):
    _check(floyd_warshall, (rand(n, n),), (np.asfortranarray(rand(n, n)),))


def trisolv(L, x, b):
    for i in range(x.shape[0]):
        x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]


@pytest.mark.parametrize("n", [3, 30, 60])
def test_trisolv(n):
    """Three views of other arguments per written element: view ops of the
    arguments in the kernel, and the overlap checks test each pair of
    arguments once. Values against NumPy, the
    second call with a Fortran-ordered L; a call whose x is a row of L
    (the reads overlap the writes) is refused."""
    low = lambda: np.tril(rand(n, n)) + n * np.eye(n)
    f = _check(trisolv, (low(), np.zeros(n), rand(n)),
               (np.asfortranarray(low()), np.zeros(n), rand(n)), rtol=1e-10)
    m = low()
    with pytest.raises(TypeError, match="overlap|share"):
        f(m, m[n - 1], rand(n))


def test_views_of_arguments_are_sliced_in_the_kernel():
    """The rows and elements trisolv reads are view ops of its three
    arguments inside the kernel, not one kernel argument each."""
    n = 10
    text, _ = stride.jit(trisolv).kernel_text(
        (np.tril(rand(n, n)) + n * np.eye(n), np.zeros(n), rand(n)))
    signature = text.splitlines()[0]
    assert signature.count("tensor<") == 4, signature  # 3 arguments, 1 result
    assert text.count("stride.slice") >= 2 * n


def test_python_ints_are_constants_by_value():
    f = _check(jacobi_1d, (2, rand(10), rand(10)), (5, rand(10), rand(10)))
    assert len(f._plans) == 2  # one trace per loop count

    def scaled(x, n):
        return x * n + (n - 1)  # Python arithmetic on n, then a constant

    _check(scaled, (rand(5), 3), (rand(5), 4))


# -- kernels that create and fill their outputs ---------------------------

def softmax(x):
    tmp_max = np.max(x, axis=-1, keepdims=True)
    tmp_out = np.exp(x - tmp_max)
    tmp_sum = np.sum(tmp_out, axis=-1, keepdims=True)
    return tmp_out / tmp_sum


def gemm(alpha, beta, C, A, B):
    C[:] = alpha * A @ B + beta * C


def gemver(alpha, beta, A, u1, v1, u2, v2, w, x, y, z):
    A += np.outer(u1, v1) + np.outer(u2, v2)
    x += beta * y @ A + z
    w += alpha * A @ x


def mvt(x1, x2, y_1, y_2, A):
    x1 += A @ y_1
    x2 += y_2 @ A


def atax(A, x):
    return (A @ x) @ A


def build_grid(n, x):
    out = np.zeros((n, x.shape[0] + 1), dtype=x.dtype)
    out[0] = 1.0
    out[1:, 0] = x[: n - 1]
    out[1:, 1:] = np.outer(x[: n - 1], x)
    return out


def arange_linspace_eye(x):
    n = x.shape[0]
    return (x * np.arange(n) + np.linspace(0.0, 1.0, n),
            np.eye(n)[:, :1] * x + np.ones(n), np.full(n, 2.5) - x)


def conv_rows(x, w):
    out = np.empty_like(x)
    out[0] = x[0]
    out[-1] = x[-1]
    out[1:-1] = w[0] * x[:-2] + w[1] * x[1:-1] + w[2] * x[2:]
    return out


def concat(x, y):
    return np.concatenate((x, 2 * y), axis=1), np.stack([x, y]), \
        np.concatenate([x[0], y[1]])


def stacks(v, w, a):
    return (np.hstack((v, 2 * w)), np.hstack([a, a[:, :2] + 1]),
            np.vstack((v, w, v * w)), np.dstack((a, -a)), np.dstack((v, w)),
            np.column_stack((v, w)), np.column_stack((a, v[:3])),
            np.atleast_2d(v * 2) + 1, np.atleast_3d(a + 1), np.atleast_1d(a[0, 0] + 1))


def nbody_acc(pos, mass, G, softening):
    # npbench's nbody getAcc, as written there: hstack of three products,
    # and a boolean-mask update.
    x = pos[:, 0:1]
    y = pos[:, 1:2]
    z = pos[:, 2:3]
    dx = x.T - x
    dy = y.T - y
    dz = z.T - z
    inv_r3 = (dx**2 + dy**2 + dz**2 + softening**2)
    inv_r3[inv_r3 > 0] = inv_r3[inv_r3 > 0]**(-1.5)
    ax = G * (dx * inv_r3) @ mass
    ay = G * (dy * inv_r3) @ mass
    az = G * (dz * inv_r3) @ mass
    return np.hstack((ax, ay, az))


def vadv_step(utens_stage, u_stage, wcon, dtr_stage):
    # npbench's vadv allocates its columns with the np.ndarray constructor.
    I, J, K = utens_stage.shape
    ccol = np.ndarray((I, J, K), dtype=utens_stage.dtype)
    dcol = np.ndarray((I, J, K), dtype=utens_stage.dtype)
    for k in range(K - 1):
        gcv = 0.25 * (wcon[1:, :, k + 1] + wcon[:-1, :, k + 1])
        ccol[:, :, k] = gcv * 0.5
        bcol = dtr_stage - ccol[:, :, k]
        dcol[:, :, k] = (dtr_stage * u_stage[:, :, k] + utens_stage[:, :, k]
                         - gcv * (u_stage[:, :, k + 1] - u_stage[:, :, k])) / bcol
    return ccol[:, :, :K - 1], dcol[:, :, :K - 1]


def test_stacks():
    _check(stacks, (rand(5), rand(5), rand(3, 4)), (rand(5), rand(5), rand(3, 4)))


def test_stacks_of_mixed_dtypes_and_errors():
    _check(lambda v, w: np.hstack((v, w)), (rand(4, dtype=np.float32),
                                            np.arange(3, dtype=np.int32)))
    with pytest.raises(ValueError, match="dimension"):
        stride.jit(lambda a, b: np.vstack((a, b)))(rand(2, 3), rand(2, 4))
    with pytest.raises(TypeError, match="sequence"):
        stride.jit(lambda a: np.hstack(a + 1))(rand(2, 3))


def test_nbody_acceleration():
    _check(nbody_acc, (rand(20, 3), rand(20, 1), 1.0, 0.1),
           (rand(33, 3), rand(33, 1), 2.0, 0.05), rtol=1e-10)


def test_arrays_made_with_the_ndarray_constructor():
    # Each call's values, not the first trace's (a stale constant would
    # repeat the first call's result).
    shape = (6, 5, 4)
    _check(vadv_step, (rand(*shape), rand(*shape), rand(7, 5, 4), 2.0),
           (rand(*shape), rand(*shape), rand(7, 5, 4), 3.0), rtol=1e-10)
    # Outside the traced function np.ndarray is NumPy's class again, and
    # isinstance checks inside it hold for NumPy's arrays.
    seen, real = [], np.ones(2)

    def f(x):
        seen.append((isinstance(real, np.ndarray), issubclass(type(real), np.ndarray)))
        buf = np.ndarray((3,), np.float64, bytes(24))
        return x * 2 + buf
    _check(f, (rand(3),))
    assert np.ndarray is type(np.zeros(1))
    assert all(all(s) for s in seen)


def test_softmax():
    _check(softmax, (rand(7, 130),), (rand(64, 513, dtype=np.float32),),
           rtol=1e-5)


def test_gemm_writes_its_output_argument():
    _check(gemm, (1.5, 1.2, rand(20, 30), rand(20, 40), rand(40, 30)),
           (0.5, -2.0, rand(20, 30), rand(20, 40), rand(40, 30)))


def test_gemver_and_mvt():
    n = 33
    vec = lambda: rand(n)
    _check(gemver, (1.5, 1.2, rand(n, n), *[vec() for _ in range(8)]),
           (0.5, 0.1, rand(n, n), *[vec() for _ in range(8)]), rtol=1e-10)
    _check(mvt, (vec(), vec(), vec(), vec(), rand(n, n)), rtol=1e-10)


def test_atax_and_dot_outer():
    _check(atax, (rand(30, 20), rand(20)), rtol=1e-10)
    _check(lambda a, b: (np.dot(a, b), np.dot(a[0], b[:, 0]), np.dot(a, 2.0),
                         np.outer(a[0], b[1]), np.add.outer(a[0], b[:, 1])),
           (rand(4, 5), rand(5, 3)), rtol=1e-10)


def test_created_arrays():
    _check(build_grid, (5, rand(6)), (5, rand(6)))
    _check(arange_linspace_eye, (rand(9),), (rand(9),))
    _check(conv_rows, (rand(50, 3), rand(3)), (rand(50, 3), rand(3)))
    _check(concat, (rand(2, 3), rand(2, 3)), (rand(2, 3), rand(2, 3)))


def test_copies_are_memory():
    def fn(x):
        y = x.copy()
        y[0] = -1
        z = np.copy(x)
        z *= 2
        return y, z, x + 0

    _check(fn, (rand(4, 3),), (rand(4, 3),))


def test_a_function_that_only_updates_its_argument():
    def fn(u):
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] +
                                u[1:-1, 2:])

    f = _check(fn, (rand(9, 9),), (rand(130, 65),))
    u = rand(9, 9)
    ref = u.copy()
    fn(ref)
    assert f(u) is None
    np.testing.assert_allclose(u, ref)


# -- stride.fori_loop: one scf.for in the kernel ------------------------------

def _stencil_step(i, u):
    u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] +
                            u[1:-1, 2:])
    return u


def _numpy_loop(lower, upper, body, carry):
    carry = tuple(c.copy() for c in carry) if isinstance(carry, tuple) \
        else carry.copy()
    for i in range(lower, upper):
        carry = body(i, carry)
    return carry


@pytest.mark.parametrize("shape", [(9, 7), (130, 65)])
def test_fori_loop_stencil(shape):
    def heat(u, n):
        return stride.fori_loop(0, n, _stencil_step, u) * 2  # consumed after

    f = stride.jit(heat)
    for n in (0, 1, 5):
        u = rand(*shape)
        np.testing.assert_allclose(f(u, n), _numpy_loop(0, n, _stencil_step, u) * 2,
                                   rtol=1e-12)


def test_fori_loop_writes_an_argument_and_carries_several_arrays():
    def update(u, n):
        u[...] = stride.fori_loop(2, n, _stencil_step, u)

    def two(a, b, n):
        def body(i, c):
            x, y = c
            x = x + y * i           # the index is a 0-d int64 value
            y = np.tanh(y) * 0.5
            return x, y
        x, y = stride.fori_loop(0, n, body, (a, b))
        return x + 1, y.sum()

    def nested(a, n):
        def outer(i, x):
            def inner(j, y):
                return y * 0.5 + j
            return stride.fori_loop(0, 3, inner, x) + i
        return stride.fori_loop(0, n, outer, a)

    def body_makes_arrays(a):
        def body(i, x):
            t = np.zeros_like(x)
            t[1:] = x[:-1]
            t[0] = x[-1]
            return t
        return stride.fori_loop(0, 4, body, a)

    u = rand(12, 10)
    ref = _numpy_loop(2, 6, _stencil_step, u)
    stride.jit(update)(u, 6)
    np.testing.assert_allclose(u, ref, rtol=1e-12)
    a, b = rand(5), rand(5)
    x, y = _numpy_loop(0, 4, lambda i, c: (c[0] + c[1] * i, np.tanh(c[1]) * 0.5), (a, b))
    got = stride.jit(two)(a, b, 4)
    np.testing.assert_allclose(got[0], x + 1, rtol=1e-12)
    np.testing.assert_allclose(got[1], y.sum(), rtol=1e-12)
    want = a.copy()
    for i in range(3):
        for j in range(3):
            want = want * 0.5 + j
        want = want + i
    np.testing.assert_allclose(stride.jit(nested)(a, 3), want, rtol=1e-12)
    np.testing.assert_array_equal(stride.jit(body_makes_arrays)(np.arange(5.0)),
                                  np.roll(np.arange(5.0), 4))


def test_fori_loop_body_reads_values_computed_before_it():
    """Values the body reads that do not depend on the loop (`1.0 * A`, a
    column sum of A) are computed once before the loop, not carried: a
    conjugate-gradient solve whose matrix-vector product takes a scaled
    matrix (fused into the product), with 0-d step sizes."""
    def cg(a, b):
        def body(i, c):
            x, r, p = c
            ap = (1.0 * a) @ p
            alpha = (r @ r) / (p @ ap)
            r2 = r - alpha * ap
            beta = (r2 @ r2) / (r @ r)
            return x + alpha * p + a.sum(axis=0) * 0.0, r2, r2 + beta * p
        x, r, p = stride.fori_loop(0, 15, body, (b * 0.0, b + 0.0, b + 0.0))
        return x, np.sqrt(r @ r)

    m = rand(60, 60)
    a = m @ m.T + 60 * np.eye(60)
    b = rand(60)
    got, want = stride.jit(cg)(a, b), cg(a, b)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-6, atol=1e-12)


def test_fori_loop_outside_a_trace_is_a_python_loop():
    u = rand(6, 6)
    got = stride.fori_loop(0, 3, lambda i, x: x * 2 + i, u)
    np.testing.assert_allclose(got, ((u * 2) * 2 + 1) * 2 + 2)


def test_fori_loop_errors():
    def writes_outer(a, b):
        def body(i, x):
            b[0] = 1.0  # not carried
            return x
        return stride.fori_loop(0, 2, body, a)

    def wrong_shape(a):
        return stride.fori_loop(0, 2, lambda i, x: x.sum(), a)

    def traced_bound(a, n):
        return stride.fori_loop(0, a[0], lambda i, x: x, a)

    with pytest.raises(TypeError, match="fori_loop body can only write the "
                       "arrays it carries.*b\\[0\\] = 1.0"):
        stride.jit(writes_outer)(rand(3), rand(3))
    with pytest.raises(ValueError, match=r"carry #0 has shape \(3,\) but the "
                       r"body returned shape \(\)"):
        stride.jit(wrong_shape)(rand(3))
    with pytest.raises(TypeError, match="upper must be a Python int"):
        stride.jit(traced_bound)(rand(3), 2)


def _loops_indexing_by_i(loop):
    """Bodies that index by the loop index (x[i], x[i - 1], x[n - 1 - i],
    x[:, j], x[i, (i + 1) % n], x[-i]) with `loop` as the loop."""
    def prefix(x):
        out = np.zeros_like(x)
        out[0] = x[0]

        def body(i, o):
            o[i] = o[i - 1] + x[i]
            return o
        return loop(1, x.shape[0], body, out)

    def columns(a):
        def body(j, m):
            m[:, j] += m[:, j - 1] * 0.5
            return m
        return loop(1, a.shape[1], body, a.copy())

    def reverse_and_wrap(a):
        n = a.shape[0]

        def body(i, c):
            m, s = c
            m[i] = a[n - 1 - i] * 2
            m[i, (i + 1) % n] = a[i, i] + m[i - 1, i]
            return m, s + a[-i - 1].sum()
        return loop(0, n, body, (np.zeros_like(a), np.zeros(())))

    def trisolv(L, b):
        def body(i, x):
            x[i] = (b[i] - L[i] @ x) / L[i, i]
            return x
        return loop(0, b.shape[0], body, np.zeros_like(b))

    def row_view(a):
        def body(i, m):
            r = m[i]
            r += 1  # NumPy's row is a view: m is written
            return m
        return loop(0, a.shape[0], body, a.copy())
    return prefix, columns, reverse_and_wrap, trisolv, row_view


def test_fori_loop_bodies_index_by_the_loop_index():
    """Found: x[i] in a stride.fori_loop body was a TypeError (only basic
    indexing), so a loop could not read or write the row it is at. The
    index is bounded when traced (from the loop's range) and the row is a
    slice at a dynamic offset in the kernel."""
    def python_loop(lower, upper, body, carry):
        for i in range(lower, upper):
            carry = body(i, carry)
        return carry

    square = rand(7, 7) + 7 * np.eye(7)
    args = {"prefix": (rand(9),), "columns": (square,),
            "reverse_and_wrap": (square,), "row_view": (square,),
            "trisolv": (np.tril(square), rand(7))}
    for fn, plain in zip(_loops_indexing_by_i(stride.fori_loop),
                         _loops_indexing_by_i(python_loop)):
        want = plain(*args[fn.__name__])
        got = stride.jit(fn)(*args[fn.__name__])
        for g, w in zip(got if isinstance(got, tuple) else (got,),
                        want if isinstance(want, tuple) else (want,)):
            np.testing.assert_allclose(g, w, rtol=1e-12)


def test_fori_loop_computed_indices_are_bounded_when_traced():
    """An index whose range leaves the array is NumPy's IndexError when
    the body is traced (never a read outside the buffer); one Stride
    cannot bound (read from an array) and writes through a row are clear
    errors."""
    def past_the_end(x):
        return stride.fori_loop(0, x.shape[0],
                                lambda i, s: s + x[i + 1], np.zeros(()))

    def read_index(x):
        return stride.fori_loop(0, 3, lambda i, s: s + x[x.argmax()],
                                np.zeros(()))

    def through_row(a):
        def body(i, m):
            m[i][0] = 1.0
            return m
        return stride.fori_loop(0, 2, body, a.copy())

    with pytest.raises(IndexError, match="index 5 is out of bounds for axis "
                       "0 with size 5"):
        stride.jit(past_the_end)(rand(5))
    with pytest.raises(TypeError, match="indices Stride can bound"):
        stride.jit(read_index)(rand(5))
    with pytest.raises(TypeError, match=r"assigning into x\[i\] \(a row at a "
                       "computed index"):
        stride.jit(through_row)(rand(3, 3))


# -- statistics and masks -------------------------------------------------------

def correlation(M, float_n, data):
    mean = np.mean(data, axis=0)
    stddev = np.std(data, axis=0)
    stddev[stddev <= 0.1] = 1.0
    data -= mean
    data /= np.sqrt(float_n) * stddev
    corr = np.eye(M, dtype=data.dtype)
    for i in range(M - 1):
        corr[i + 1:M, i] = corr[i, i + 1:M] = data[:, i] @ data[:, i + 1:M]
    return corr


def covariance(M, float_n, data):
    mean = np.mean(data, axis=0)
    data -= mean
    cov = np.zeros((M, M), dtype=data.dtype)
    for i in range(M):
        cov[i:M, i] = cov[i, i:M] = data[:, i] @ data[:, i:M] / (float_n - 1.0)
    return cov


def test_correlation_and_covariance():
    data = rand(12, 6)
    data[:, 2] = 0.5  # a constant column: its stddev is masked to 1
    _check(correlation, (6, 12.0, data), (6, 12.0, rand(12, 6)), rtol=1e-10)
    _check(covariance, (6, 12.0, rand(12, 6)), (6, 12.0, rand(12, 6)), rtol=1e-10)


def test_cov():
    """np.cov: float64 for every input dtype, variables in rows or (rowvar
    False) columns, a 1-D input as one variable (a 0-d result), bias and
    ddof; npbench's covariance2 is np.cov(np.transpose(data))."""
    def fn(x, v, i):
        return (np.cov(np.transpose(x)), np.cov(x, rowvar=False, bias=True),
                np.cov(v), np.cov(i, ddof=2), np.cov(x.astype(np.float32)))

    ints = np.arange(24).reshape(4, 6) % 7
    _check(fn, (rand(9, 5), rand(11), ints),
           (rand(9, 5), rand(11), ints[::-1]), rtol=1e-6)
    # Weights: NumPy's own cov, run between kernels (test_host_calls.py).
    x = rand(3, 5)
    np.testing.assert_allclose(
        stride.jit(lambda x: np.cov(x * 2, fweights=np.arange(1, 6)))(x),
        np.cov(x * 2, fweights=np.arange(1, 6)), rtol=1e-12)


def test_var_std_norm():
    def fn(x, i):
        return (np.var(x), np.var(x, axis=0, ddof=1), np.std(x, axis=1, keepdims=True),
                x.std(), np.var(i), np.linalg.norm(x), np.linalg.norm(x, axis=1),
                np.linalg.norm(i))

    _check(fn, (rand(7, 5), np.arange(12).reshape(3, 4)),
           (rand(7, 5, dtype=np.float32), np.arange(12).reshape(3, 4) % 5), rtol=1e-5)


def test_mask_assignment():
    def fn(x, y):
        x[x > 0.5] = 0.0
        y[y < x] = 2   # an int into floats, a mask of a lazy comparison
        return x + y

    _check(fn, (rand(4, 5), rand(4, 5)), (rand(4, 5), rand(4, 5)))

    def array_value(x):
        x[x > 0] = x[:2]

    with pytest.raises(TypeError, match="boolean-mask assignment"):
        stride.jit(array_value)(rand(4))


def test_long_unrolled_loops_are_a_clear_error(monkeypatch):
    from stride import _trace
    monkeypatch.setattr(_trace, "MAX_WRITES", 20)

    def rec(x):
        for i in range(1, x.shape[0]):
            x[i] = x[i - 1] * 0.5 + x[i]

    _check(rec, (rand(20),))  # 19 writes: unrolled
    with pytest.raises(TypeError, match="has made 20 writes into arrays.*"
                       "stride.fori_loop.*x\\[i\\] = x\\[i - 1\\]"):
        stride.jit(rec)(rand(22))


def test_broadcast_views_of_intermediates_are_results():
    """A kernel result cannot repeat elements: returning a broadcast view
    of a computed value (or of memory) gives a dense array of its values
    (failed to compile: 'destination #0 has stride 0')."""
    def fn(x):
        a = np.zeros(4)
        a[1] = 3
        return np.broadcast_to(x * 2, (3, 4)), np.broadcast_to(a, (2, 4)), a[::-1]

    _check(fn, (rand(4),), (rand(4),))
    a = rand(4)
    np.testing.assert_array_equal(
        stride.materialize(np.broadcast_to(stride.lazy(a) * 2, (3, 4))),
        np.broadcast_to(a * 2, (3, 4)))


def test_a_function_with_no_observable_effect_returns_none():
    """It only writes arrays it made (npbench's adi without its final
    update): NumPy returns None, and so does the trace, compiling nothing."""
    def fn(u):
        v = np.empty(u.shape)
        v[0] = u[0] * 2

    f = stride.jit(fn)
    assert f(rand(3, 3)) is None and f(rand(3, 3)) is None


def test_triangles_diagonals_traces():
    def fn(m, v):
        return (np.triu(m), np.tril(m, -1), np.triu(m, 2), np.diag(v), np.diag(v, 2),
                np.diag(v, -1), np.diag(m), np.diag(m, 1), np.diag(m, -2),
                np.trace(m), np.trace(m * 2, 1))

    _check(fn, (rand(4, 5), rand(3)), (rand(4, 5), rand(3)))

    def nbody_energy(mass, pos, vel, G):
        KE = 0.5 * np.sum(np.sum(mass * vel**2))
        dx = pos[:, 0:1].T - pos[:, 0:1]
        dy = pos[:, 1:2].T - pos[:, 1:2]
        dz = pos[:, 2:3].T - pos[:, 2:3]
        inv_r = np.sqrt(dx**2 + dy**2 + dz**2)
        inv_r = np.where(inv_r > 0, 1.0 / np.where(inv_r > 0, inv_r, 1.0), 0.0)
        PE = G * np.sum(np.sum(np.triu(-(mass * mass.T) * inv_r, 1)))
        return KE, PE

    _check(nbody_energy, (rand(10, 1), rand(10, 3), rand(10, 3), 1.0), rtol=1e-10)


def test_boundary_copies_read_the_array_they_write():
    """cavity_flow's pressure boundary: p[:, -1] = p[:, -2] inserts a view
    of the array into itself (failed to bufferize: the view's operand was
    copied out of place with other strides)."""
    def boundary(p, b):
        p[1:-1, 1:-1] = p[1:-1, 1:-1] * 0.5 + b[1:-1, 1:-1]
        p[:, -1] = p[:, -2]
        p[0, :] = p[1, :]
        p[:, 0] = p[:, 1]
        p[-1, :] = 0
        p[::2, 1] = p[::-2, 2]

    _check(boundary, (rand(8, 7), rand(8, 7)), (rand(8, 7), rand(8, 7)))


def test_boolean_selections_computed_on_the_full_shape():
    """a[mask] has a data-dependent shape; arithmetic on it, storing it back
    under the same mask and reducing it are computed on the full shape."""
    def nbody_part(r):
        r[r > 0.5] = 1.0 / r[r > 0.5] ** 1.5  # the mask written twice
        return r

    def stats(data, lo, hi):
        m = (data > lo) & (data < hi)
        return (np.mean(data[m]), data[m].sum(), np.max(data[data < hi]),
                np.min(data[m] * 2), np.count_nonzero(data[m] > 0.5))

    _check(nbody_part, (rand(5, 4),), (rand(5, 4),))
    _check(stats, (rand(40), 0.2, 0.8), (rand(40), 0.1, 0.9))

    def shape_of_selection(x):
        return x[x > 0].shape

    def mixed_masks(x):
        return x[x > 0.5] + x[x < 0.2]

    with pytest.raises(TypeError, match="the shape of a boolean selection"):
        stride.jit(shape_of_selection)(rand(4))
    with pytest.raises(TypeError, match="different masks"):
        stride.jit(mixed_masks)(rand(4))

    def returned(x):
        return x[x > 0.5]

    with pytest.raises(TypeError, match="returning a boolean-mask selection "
                       r"\(x\[mask\]\) from the @stride.jit function "
                       "returned is not supported"):
        stride.jit(returned)(rand(4))


def test_python_values_returned_as_they_are():
    def fn(x):
        return x * 2, x.shape, np.ndim(x), "done"

    got = stride.jit(fn)(rand(3, 2))
    assert got[1:] == ((3, 2), 2, "done")
    assert stride.jit(lambda x: x.shape)(rand(4)) == (4,)


def test_shape_facts_are_python_ints():
    # x.size, x.itemsize and x.nbytes of arguments and intermediates steer
    # Python code (array sizes, range()) as in NumPy.
    def fn(x):
        y = x[1:] * 2
        out = np.zeros(y.size - 1 + x.itemsize // 4, x.dtype)
        for i in range(y.size // 2):
            out[i] = y[2 * i]
        return out, y.nbytes + np.zeros(2, np.int64)
    _check(fn, (rand(7),), (rand(9, dtype=np.float32),))
