"""The benchmark cases as Pythran writes them, for bench/run's Pythran column.

bench/run compiles this file once per run, in a temporary folder, with
Debian's `pythran` (python3-pythran): `-O3 -march=native -DUSE_XSIMD`, so
that NumPy expressions are vectorized with xsimd. Pythran kernels run on one
thread (no OpenMP annotations), and matrix products go to the BLAS Pythran
links (OpenBLAS on Debian). Each kernel writes into `out` where NumPy's peer
does, so that no peer pays for an allocation another one avoids.
"""
import numpy as np

# pythran export chain32(float32[:], float32[:], float32[:])
# pythran export chain64(float64[:], float64[:], float64[:])
def chain32(x, y, out):
    out[:] = np.float32(2) * (x + np.float32(1)) * y - x


def chain64(x, y, out):
    out[:] = 2.0 * (x + 1.0) * y - x


# pythran export tanh32(float32[:], float32[:])
# pythran export exp32(float32[:], float32[:])
# pythran export sin64(float64[:], float64[:])
# pythran export exp64(float64[:], float64[:])
# pythran export log64(float64[:], float64[:])
# pythran export arctan2_64(float64[:], float64[:], float64[:])
def tanh32(x, out):
    out[:] = np.tanh(x)


def exp32(x, out):
    out[:] = np.exp(x)


def sin64(x, out):
    out[:] = np.sin(x)


def exp64(x, out):
    out[:] = np.exp(x)


def log64(x, out):
    out[:] = np.log(x)


def arctan2_64(y, x, out):
    out[:] = np.arctan2(y, x)


# pythran export softplus_sin(float64[:], float64[:])
def softplus_sin(x, out):
    out[:] = np.sin(np.log1p(np.exp(x)))


# pythran export haversine(float64[:], float64[:], float64[:], float64[:], float64[:])
def haversine(lat1, lon1, lat2, lon2, out):
    a = (np.sin((lat2 - lat1) / 2) ** 2
         + np.cos(lat1) * np.cos(lat2) * np.sin((lon2 - lon1) / 2) ** 2)
    out[:] = 2 * np.arcsin(np.sqrt(a))


# pythran export matvec(float64[:,:], float64[:])
# pythran export matvec_t(float64[:,:], float64[:])
# pythran export vecmat(float64[:], float64[:,:])
def matvec(a, x):
    return np.dot(a, x)


def matvec_t(at, x):
    return np.dot(at.T, x)


def vecmat(y, a):
    return np.dot(y, a)


# pythran export chain3(float64[:,:], float64[:,:], float64[:,:])
# pythran export axpby(float64, float64[:,:], float64[:,:], float64, float64[:,:])
def chain3(a, b, c):
    return np.dot(np.dot(a, b), c)


def axpby(alpha, a, b, beta, c):
    return alpha * np.dot(a, b) + beta * c


# pythran export matvec_axpby(float64, float64[:,:], float64[:], float64, float64[:,:])
def matvec_axpby(alpha, a, x, beta, b):
    return alpha * np.dot(a, x) + beta * np.dot(b, x)


# pythran export broadcast_producer(float64[:,:], float64[:], float64[:,:])
def broadcast_producer(a, v, out):
    out[:] = a + np.exp(np.sin(v) * np.cos(v))


# pythran export softmax(float32[:,:])
def softmax(x):
    m = np.max(x, axis=1)
    e = np.exp(x - m.reshape(-1, 1))
    s = np.sum(e, axis=1).astype(np.float32)
    return e / s.reshape(-1, 1)


# pythran export jacobi(float64[:,:], int)
def jacobi(u, steps):
    for _ in range(steps):
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] +
                                u[1:-1, 2:])


# pythran export floyd_warshall(float64[:,:])
def floyd_warshall(path):
    for k in range(path.shape[0]):
        path[:] = np.minimum(path, path[:, k][:, None] + path[k, :][None, :])


# pythran export azimint(float64[:], float64[:], int)
def azimint(data, radius, npt):
    rmax = radius.max()
    res = np.zeros(npt, dtype=np.float64)
    for i in range(npt):
        r1 = rmax * i / npt
        r2 = rmax * (i + 1) / npt
        mask_r12 = np.logical_and((r1 <= radius), (radius < r2))
        values_r12 = data[mask_r12]
        res[i] = values_r12.mean()
    return res


# pythran export trisolv(float64[:,:], float64[:], float64[:])
def trisolv(L, x, b):
    for i in range(x.shape[0]):
        x[i] = (b[i] - np.dot(L[i, :i], x[:i])) / L[i, i]


# pythran export gram(float64[:,:], float64[:,:])
def gram(a, b):
    return np.dot(a.T, b)
