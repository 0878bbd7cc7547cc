"""NumPy functions composed of other lazy ops (python/stride/_numpy_derived):
values, shapes and dtypes against NumPy 1.24, under @stride.jit."""
import numpy as np
import pytest

import stride


def rand(shape, dtype=np.float64, seed=0):
    return np.random.default_rng(seed).uniform(-2, 2, shape).astype(dtype)


A = rand((6, 5))
B = rand((5, 7), seed=1)
C = rand((3, 4, 5), seed=2)
S = rand((6, 6), seed=3)
V = rand(5, seed=4)
I = np.arange(30, dtype=np.int32).reshape(6, 5) - 11
F32 = rand((4, 9), np.float32, seed=5)

def _filled(x):
    z = np.empty_like(x)
    z.fill(3.0)
    return z + x


CASES = {
    "diff": (lambda x: np.diff(x), A),
    "diff axis 0 n 2": (lambda x: np.diff(x, n=2, axis=0), A),
    "diff 3-d": (lambda x: np.diff(x, axis=1), C),
    "diff prepend": (lambda x: np.diff(x, axis=0, prepend=0.0), A),
    "diff int": (lambda x: np.diff(x, axis=1), I),
    "diff bool": (lambda x: np.diff(x > 0), A),
    "roll flat": (lambda x: np.roll(x, 7), A),
    "roll axis": (lambda x: np.roll(x, -2, axis=1), A),
    "roll two axes": (lambda x: np.roll(x, (1, 3), axis=(0, 2)), C),
    "moveaxis": (lambda x: np.moveaxis(x, 0, -1) + 0, C),
    "moveaxis pairs": (lambda x: np.moveaxis(x, [0, 1], [2, 0]) * 2, C),
    "ptp": (lambda x: np.ptp(x, axis=0), A),
    "ptp method": (lambda x: x.ptp(), I),
    "average": (lambda x: np.average(x, axis=1), A),
    "average weights": (lambda x: np.average(x, axis=0, weights=np.arange(6.0)), A),
    "average weights full": (lambda x: np.average(x, weights=x * x), A),
    "nan_to_num": (lambda x: np.nan_to_num(np.log(x)), A),
    "nan_to_num args": (lambda x: np.nan_to_num(x / (x > 0), nan=-1.0, posinf=9.0), A),
    "round": (lambda x: np.round(x, 2), A),
    "round 0 f32": (lambda x: np.round(x), F32),
    "round negative": (lambda x: np.around(x * 100, -1), A),
    "round method": (lambda x: x.round(1), A),
    "round int": (lambda x: np.round(x, -1), I),
    "repeat flat": (lambda x: np.repeat(x, 2), A),
    "repeat axis": (lambda x: np.repeat(x, 3, axis=1), A),
    "repeat method": (lambda x: x.repeat(2, axis=0), I),
    "tile": (lambda x: np.tile(x, (2, 3)), A),
    "tile grows": (lambda x: np.tile(x, (2, 1, 2)), V),
    "einsum matmul": (lambda x, y: np.einsum("ij,jk->ik", x, y), A, B),
    "einsum implicit": (lambda x, y: np.einsum("ij,jk", x, y), A, B),
    "einsum transposed out": (lambda x, y: np.einsum("ij,jk->ki", x, y), A, B),
    "einsum trace": (lambda x: np.einsum("ii", x), S),
    "einsum diagonal": (lambda x: np.einsum("ii->i", x), S),
    "einsum sum": (lambda x: np.einsum("ijk->j", x), C),
    "einsum transpose": (lambda x: np.einsum("ijk->kij", x), C),
    "einsum outer": (lambda x, y: np.einsum("i,j->ij", x, y), V, V),
    "einsum dot": (lambda x, y: np.einsum("i,i", x, y), V, V),
    "einsum batched": (lambda x, y: np.einsum("bij,bjk->bik", x, y), C, np.swapaxes(C, 1, 2)),
    "einsum three": (lambda x, y, z: np.einsum("ij,jk,k->i", x, y, z), A, B, rand(7, seed=9)),
    "einsum elementwise": (lambda x, y: np.einsum("ij,ij->ij", x, y), A, A),
    "einsum row dots": (lambda x, y: np.einsum("ij,ij->i", x, y), A, A),
    "tensordot": (lambda x, y: np.tensordot(x, y, axes=1), A, B),
    "tensordot axes": (lambda x, y: np.tensordot(x, y, axes=([1, 2], [0, 1])), C, rand((4, 5, 2), seed=6)),
    "tensordot 0": (lambda x, y: np.tensordot(x, y, axes=0), V, V),
    "inner": (lambda x, y: np.inner(x, y), A, rand((3, 5), seed=7)),
    "inner vectors": (lambda x, y: np.inner(x, y), V, V),
    "vdot": (lambda x, y: np.vdot(x, y), A, A.T.copy()),
    "diagonal": (lambda x: np.diagonal(x, 1), S),
    "diagonal method": (lambda x: x.diagonal(-2), S),
    "trace method": (lambda x: x.trace(), S),
    "dot method": (lambda x, y: x.dot(y), A, B),
    "flatten": (lambda x: x.T.flatten(), A),
    "squeeze": (lambda x: np.squeeze(x[:, None, :1]) + 1, A),
    "add.reduce": (lambda x: np.add.reduce(x), A),
    "maximum.reduce axis": (lambda x: np.maximum.reduce(x, axis=1), A),
    "multiply.reduce keepdims": (lambda x: np.multiply.reduce(x, axis=0, keepdims=True), A),
    "logical_or.reduce": (lambda x: np.logical_or.reduce(x > 1.5, axis=None), A),
    "logaddexp": (lambda x, y: np.logaddexp(x, y), A, A[::-1]),
    "logaddexp scalar": (lambda x: np.logaddexp(x * 300, 0.5), F32),
    "logaddexp equal infs": (lambda x: np.logaddexp(x / 0.0, x / 0.0), A),
    "logaddexp2": (lambda x, y: np.logaddexp2(x, y), A, A.T[:6, :5] if False else A * 2),
    "heaviside": (lambda x: np.heaviside(np.round(x), 0.5), A),
    "heaviside f32 nan": (lambda x: np.heaviside(np.sqrt(x), x), F32),
    # Integer products keep their dtype (np.sum would widen int32).
    "einsum int32 row dots": (lambda x: np.einsum("ij,ij->i", x, x), I),
    "einsum int32 sum": (lambda x: np.einsum("ij->j", x), I),
    "einsum int32 matmul": (lambda x: np.einsum("ij,kj->ik", x, x), I),
    "vdot int32": (lambda x: np.vdot(x, x), I),
    "inner int32 vectors": (lambda x: np.inner(x[0], x[1]), I),
    "einsum bool": (lambda x: np.einsum("ij,ij->i", x > 0, x < 1), A),
    "average int": (lambda x: np.average(x, axis=1), I),
    "mean int": (lambda x: np.mean(x) + x.mean(axis=0).sum(), I),
    "sum dtype int16 wraps": (lambda x: np.sum(x * 5000, axis=0, dtype=np.int16), I),
    "prod dtype int8": (lambda x: x.prod(axis=1, dtype=np.int8), I),
    "sum dtype bool": (lambda x: np.sum(x > 5, dtype=bool), I),
    "var dtype float32": (lambda x: np.var(x, axis=0, dtype=np.float32), A),
    "max initial": (lambda x: np.max(x, axis=1, initial=0.5), A),
    "min initial empty": (lambda x: np.min(x[:, :0], axis=1, initial=3.0), A),
    "len": (lambda x: x * len(x), A),
    "radians": (lambda x: np.radians(x * 90), A),
    "deg2rad int": (lambda x: np.deg2rad(x), I),
    "degrees f32": (lambda x: np.degrees(x), F32),
    "rad2deg": (lambda x: np.rad2deg(x), A),
    "fmax nan": (lambda x: np.fmax(np.sqrt(x), 0.5), A),
    "fmin nan both": (lambda x, y: np.fmin(np.sqrt(x), np.sqrt(y)), A, A[::-1]),
    "fmax int": (lambda x: np.fmax(x, 3), I),
    "signbit": (lambda x: np.signbit(x * 0.0 - (x > 0)), A),
    "signbit int": (lambda x: np.signbit(x), I),
    "conjugate": (lambda x: np.conj(x) * 2, A),
    "real": (lambda x: np.real(x) + 1, A),
    "float_power": (lambda x: np.float_power(x, 2), I),
    "modf": (lambda x: np.modf(x * 3)[0] + np.modf(x * 3)[1], A),
    "modf inf": (lambda x: np.modf(x / 0.0)[0], A),
    "divmod": (lambda x: np.divmod(x, 0.7)[0] * 10 + np.divmod(x, 0.7)[1], A),
    "sinc": (lambda x: np.sinc(np.round(x)), A),
    "isclose": (lambda x, y: np.isclose(x, y, atol=0.5), A, A[::-1]),
    "isclose inf nan": (lambda x: np.isclose(x / (x > 0), np.sqrt(x) / (x > 0), equal_nan=True), A),
    "isclose int": (lambda x: np.isclose(x, 3), I),
    "norm ord 1": (lambda x: np.linalg.norm(x[0], 1), A),
    "norm ord inf": (lambda x: np.linalg.norm(x, np.inf, axis=1), A),
    "norm ord 0": (lambda x: np.linalg.norm(x * (x > 0), 0, axis=0), A),
    "norm ord 3": (lambda x: np.linalg.norm(x[:, 0], 3), A),
    "norm matrix 1": (lambda x: np.linalg.norm(x, 1), A),
    "norm matrix -inf keepdims": (lambda x: np.linalg.norm(x, -np.inf, axis=(2, 1), keepdims=True), C),
    "norm fro int": (lambda x: np.linalg.norm(x, "fro"), I),
    "clip method": (lambda x: x.clip(0.2, 0.8) + x.clip(min=0.5), A),
    "conj real imag": (lambda x: x.conj() + x.real + x.imag, A),
    "fill": (lambda x: _filled(x), A),
    "divmod operator": (lambda x: divmod(x, 0.3)[0] + divmod(2.0, x + 1)[1], A),
    "round builtin": (lambda x: x * round(x[0, 0] * 7, 1), A),
    "unary plus": (lambda x: +x, I),
    "kron": (lambda x, y: np.kron(x, y), A[:2, :3], S[:2]),
    "kron ranks": (lambda x, y: np.kron(x, y), V, C),
    "kron int": (lambda x: np.kron(x[:2], x[:2, :2]), I),
    "fmod": (lambda x: np.fmod(x * 3 - 1, 0.7), A),
    "fmod int": (lambda x: np.fmod(x, 4) + np.fmod(x, 0), I),
    "meshgrid xy": (lambda x, y: np.meshgrid(x, y)[0] * np.meshgrid(x, y)[1], V, rand(3, seed=11)),
    "meshgrid ij sparse": (lambda x, y: np.meshgrid(x, y, indexing="ij", sparse=True)[1] + 0, V, rand(3, seed=11)),
    "select": (lambda x: np.select([x < -1, x > 1], [x * 2, x * 3], default=0.5), A),
    "select int8 scalar choice": (lambda x: np.select([x < -1, x > 1], [x, 3]), I.astype(np.int8)),
    "select promotes by the default": (lambda x: np.select([x < 0], [x], default=2.5), I),
    "select broadcast": (lambda x: np.select([x[:, :1] < 0, x > 1], [x[0], -x]), A),
    "reshape order F": (lambda x: x.reshape((5, 6), order="F") + 1, A),
    "reshape order F -1": (lambda x: np.reshape(x * 2, (-1, 2, 3), order="F"), A),
    "ravel and flatten order F": (lambda x: x.ravel("F") + x.T.flatten(order="F"), S),
    "ravel order A of Fortran": (lambda x: np.ravel(x, order="A"), np.asfortranarray(A)),
    "reshape order A of C": (lambda x: x.reshape(3, 10, order="A"), A),
    "concatenate with lists": (lambda x: np.concatenate(([0.0], np.cumsum(x), [x[0], 1]))
                               + np.hstack(([1.0] * 4, x[1:])), V),
    "stack with lists": (lambda x: np.stack(([0.0] * 5, x)) + np.vstack(([1] * 5, x))
                         + np.column_stack(([2] * 5, x)).T, V),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_numpy(name):
    fn, *args = CASES[name]
    with np.errstate(all="ignore"):
        want = fn(*args)
        got = stride.jit(fn)(*args)
    assert np.shape(got) == np.shape(want)
    assert np.asarray(got).dtype == np.asarray(want).dtype, name
    np.testing.assert_allclose(got, want, rtol=1e-6 if np.asarray(want).dtype == np.float32 else 1e-12,
                               atol=1e-12, equal_nan=True)


@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.int32, np.int64,
                                   np.float32, np.float64])
def test_zero_dim_operands_of_every_dtype(dtype):
    """0-d operands (NumPy 1.24 promotes them by value) give NumPy's dtype
    and value, or NumPy's refusal of a float16 result by name."""
    x = np.asarray(3, dtype)
    fns = [lambda v: np.roll(v, 1), lambda v: np.tile(v, 2),
           lambda v: np.repeat(v, 3), lambda v: np.ptp(v),
           lambda v: np.average(v), lambda v: np.einsum(",->", v, v),
           lambda v: np.tensordot(v, v, axes=0), lambda v: np.vdot(v, v),
           lambda v: np.fmax(v, v), lambda v: np.isclose(v, v),
           lambda v: np.signbit(v), lambda v: np.fmod(v, v),
           lambda v: np.heaviside(v, v), lambda v: np.sinc(v),
           lambda v: np.linalg.norm(v), lambda v: np.ascontiguousarray(v),
           lambda v: np.mean(v), lambda v: v.clip(0, 1)]
    for fn in fns:
        try:
            with np.errstate(all="ignore"):
                want = np.asarray(fn(x))
        except TypeError:  # NumPy's own refusal (bool subtract in ptp)
            with pytest.raises(TypeError):
                stride.jit(fn)(x)
            continue
        if want.dtype == np.float16:
            with pytest.raises(TypeError, match="float16"):
                stride.jit(fn)(x)
            continue
        with np.errstate(all="ignore"):
            got = np.asarray(stride.jit(fn)(x))
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_allclose(got.astype(float), want.astype(float))


def test_outside_a_trace_they_are_lazy_too():
    r = np.einsum("ij,jk->ik", stride.lazy(A), B)
    np.testing.assert_allclose(stride.materialize(r), A @ B, rtol=1e-12)
    np.testing.assert_allclose(stride.materialize(np.diff(stride.lazy(A))),
                               np.diff(A), rtol=1e-12)


def test_refusals_name_what_is_missing():
    # In a fori_loop body (one kernel); elsewhere NumPy runs these forms
    # between kernels (test_host_calls.py).
    def loop(f):
        return lambda x: stride.fori_loop(0, 2, lambda i, v: f(v), x)
    with pytest.raises(TypeError, match="einsum with '...'"):
        stride.jit(loop(lambda x: np.einsum("...i->...i", x)))(A)
    with pytest.raises(TypeError, match="repeat with one count per element"):
        stride.jit(loop(lambda x: np.repeat(x, [1, 2, 1, 1, 1, 1], axis=0)[:6]))(A)
    with pytest.raises(ValueError, match="does not match operand"):
        stride.jit(lambda x: np.einsum("ijk->i", x))(A)
    with pytest.raises(TypeError, match="numpy.where with one argument"):
        stride.jit(lambda x: np.where(x > 0))(A)
    with pytest.raises(TypeError, match="numpy.add.at"):
        stride.jit(loop(lambda x: np.add.at(x, [0], 1.0) + x))(A)
    with pytest.raises(TypeError, match="invalid entry 1 in condlist"):
        stride.jit(lambda x: np.select([x > 0, x], [x, x]))(A)
    with pytest.raises(ValueError, match="same length"):
        stride.jit(lambda x: np.select([x > 0], [x, x]))(A)
    with pytest.raises(TypeError, match="order='A' of a computed value"):
        stride.jit(lambda x: (x + 1).ravel("A"))(A)
