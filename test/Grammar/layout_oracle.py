"""The strides oracle: each policy's eager library run op by op on stand-in
arrays that have the strides the compiler should see.

A stand-in is what the library would hold for a value: a PyTorch tensor
made with torch.empty_strided (policy torch), a NumPy view made with
as_strided (policy numpy), or just a shape (policy contiguous); a scalar
operand is a Python number (PyTorch's wrapped number, NumPy's Python
scalar). Only the strides and dtypes of stand-ins matter, never their
contents. Each method returns a new stand-in, or None when the library has
no op with the same layout rule (the strides are then not checked).
"""

import numpy as np

from element_types import NUMPY, contiguous_strides, torch_dtype


class Scalar:
    """A scalar operand: its element type only."""

    def __init__(self, dt):
        self.dt = dt

    def py(self):
        return {"i1": True}.get(self.dt, 1.0 if self.dt.startswith("f") else 1)


class TorchSim:
    def __init__(self):
        import torch
        self.torch = torch
        self.size1_matmuls = 0

    def arg(self, shape, strides, dt):
        return self.torch.empty_strided(tuple(shape), tuple(strides), dtype=torch_dtype(dt))

    def contiguous(self, shape, dt):
        return self.torch.empty(tuple(shape), dtype=torch_dtype(dt))

    def own(self, x, dt):
        """The same strides with Stride's own dtype (what PyTorch's dtype is
        reset to at a call, loop, branch or foreign op)."""
        if isinstance(x, Scalar):
            return Scalar(dt)
        return self.torch.empty_strided(tuple(x.shape), tuple(x.stride()), dtype=torch_dtype(dt))

    def strides(self, x):
        return () if isinstance(x, Scalar) else tuple(x.stride())

    def _operands(self, xs, force_tensor=False):
        torch = self.torch
        out = []
        for x in xs:
            if isinstance(x, Scalar):
                out.append(torch.tensor(x.py()) if force_tensor else x.py())
            else:
                out.append(x)
        return out

    def _first_tensor(self, xs):
        """Binary ops need a tensor first; the default dtype of a wrapped
        number when both are scalars, as torch.tensor() gives."""
        if all(isinstance(x, Scalar) for x in xs):
            return [self.torch.tensor(xs[0].py())] + [x.py() for x in xs[1:]]
        return self._operands(xs)

    def elementwise(self, kind, xs, out_dt=None):
        """kind: unary, binary, select, clip, nary. out_dt: Stride's dtype
        of the result when PyTorch's would differ only in name (bool
        results); None keeps PyTorch's."""
        torch = self.torch
        try:
            if kind == "unary":
                a = self._first_tensor(xs)[0]
                r = torch.ne(a, a) if out_dt == "i1" else torch.sign(a)
            elif kind == "binary":
                x0, x1 = xs
                if isinstance(x0, Scalar) and isinstance(x1, Scalar):
                    a, b = torch.tensor(x0.py()), x1.py()
                elif isinstance(x0, Scalar):   # a 0-d operand has no say
                    a, b = x1, x0.py()
                else:
                    a, b = x0, x1.py() if isinstance(x1, Scalar) else x1
                r = torch.add(a, b)
            elif kind == "select":
                c = xs[0]
                c = torch.tensor(True) if isinstance(c, Scalar) else c
                a, b = self._operands(xs[1:])
                if not torch.is_tensor(a) and not torch.is_tensor(b) and c.dim() == 0:
                    a = torch.tensor(a)
                r = torch.where(c, a, b)
            elif kind in ("clip", "nary"):
                ops = self._operands(xs, force_tensor=True)
                if len(ops) == 1:
                    r = torch.sign(ops[0])
                elif len(ops) == 2:
                    r = torch.add(ops[0], ops[1])
                elif len(ops) == 3:
                    r = self._ternary(ops)
                else:
                    return None
            else:
                raise ValueError(kind)
        except RuntimeError:
            return None
        if out_dt == "i1" or kind == "nary":
            r = self.own(r, out_dt)
        return r

    def _ternary(self, ops):
        torch = self.torch
        try:
            return torch.clamp(ops[0], ops[1], ops[2])
        except RuntimeError:
            # No clamp for bool: the same iterator on float64 operands with
            # the same strides (not .to(), whose copy of a non-dense operand
            # is laid out anew: the op reads the i1 operands themselves).
            f = [o if o.dtype == torch.float64 else
                 torch.empty_strided(o.shape, o.stride(), dtype=torch.float64)
                 for o in ops]
            r = torch.clamp(f[0], f[1], f[2])
            return torch.empty_strided(r.shape, r.stride(), dtype=ops[0].dtype)

    def copy(self, x):
        if isinstance(x, Scalar):
            return self.torch.tensor(x.py())
        return x.clone()

    def cast(self, x, to):
        if isinstance(x, Scalar):
            x = self.torch.tensor(x.py())
        if x.dtype == torch_dtype(to):
            return x.clone()
        return x.to(torch_dtype(to))

    def matmul(self, a, b, dt):
        torch = self.torch
        try:
            r = torch.matmul(a, b)
        except RuntimeError:
            r = torch.matmul(a.to(torch.float64), b.to(torch.float64))
        # torch.matmul returns views whose size-1 dims can have any stride
        # ((2,4) @ (3,4,1) gives strides (2,1,2)); Stride documents its
        # torch-policy matmul results as contiguous (docs/Layout.md), and
        # both describe the same memory order.
        want = contiguous_strides(tuple(r.shape))
        if tuple(r.stride()) != want and all(
                s == w for s, w, n in zip(r.stride(), want, r.shape) if n != 1):
            self.size1_matmuls += 1
            r = torch.empty_strided(tuple(r.shape), want, dtype=r.dtype)
        return self.own(r, dt)


class NumpySim:
    def arg(self, shape, strides, dt):
        item = np.dtype(NUMPY[dt]).itemsize
        shape = tuple(shape)
        lo = sum(min(0, (n - 1) * s) for n, s in zip(shape, strides) if n > 0)
        hi = sum(max(0, (n - 1) * s) for n, s in zip(shape, strides) if n > 0)
        buf = np.zeros(hi - lo + 1, dtype=NUMPY[dt])
        base = buf[-lo:]
        return np.lib.stride_tricks.as_strided(
            base, shape, tuple(s * item for s in strides))

    def contiguous(self, shape, dt):
        return self.arg(shape, contiguous_strides(shape), dt)

    def own(self, x, dt):
        if isinstance(x, Scalar):
            return Scalar(dt)
        return self.arg(x.shape, self.strides(x), dt)

    def strides(self, x):
        if isinstance(x, Scalar):
            return ()
        x = np.asarray(x)
        return tuple(s // x.itemsize for s in x.strides)

    def _operands(self, xs):
        return [x.py() if isinstance(x, Scalar) else x for x in xs]

    def _f64(self, xs):
        return [float(x.py()) if isinstance(x, Scalar) else
                (x if x.dtype == np.float64 else self.own(x, "f64")) for x in xs]

    def elementwise(self, kind, xs, out_dt=None):
        if kind == "unary":
            r = np.absolute(self._operands(xs)[0])
        elif kind == "binary":
            r = np.add(*self._f64(xs))
        elif kind == "select":
            c = xs[0]
            c = True if isinstance(c, Scalar) else (c if c.dtype == np.bool_ else c.astype(bool))
            r = np.where(c, *self._f64(xs[1:]))
        elif kind in ("clip", "nary"):
            ops = self._f64(xs)
            if len(ops) == 1:
                r = np.absolute(ops[0])
            elif len(ops) == 2:
                r = np.add(*ops)
            elif len(ops) == 3:
                r = np.core.umath.clip(*ops)
            else:
                return None
        else:
            raise ValueError(kind)
        r = np.asarray(r)
        return self.own(r, out_dt) if out_dt else r

    def copy(self, x):
        if isinstance(x, Scalar):
            return np.asarray(x.py())
        return np.copy(x, order="K")

    def cast(self, x, to):
        if isinstance(x, Scalar):
            x = np.asarray(x.py())
        return x.astype(NUMPY[to], order="K", copy=True)

    def matmul(self, a, b, dt):
        return self.own(np.asarray(np.matmul(a, b)), dt)


class ContiguousSim:
    """Policy contiguous: every Stride result is row-major."""

    class T:
        def __init__(self, shape, strides):
            self.shape, self.st = tuple(shape), tuple(strides)

    def arg(self, shape, strides, dt):
        return self.T(shape, strides)

    def contiguous(self, shape, dt):
        return self.T(shape, contiguous_strides(shape))

    def own(self, x, dt):
        return Scalar(dt) if isinstance(x, Scalar) else x

    def strides(self, x):
        return () if isinstance(x, Scalar) else x.st

    def _shape(self, xs):
        shapes = [() if isinstance(x, Scalar) else x.shape for x in xs]
        return np.broadcast_shapes(*shapes)

    def elementwise(self, kind, xs, out_dt=None):
        return self.contiguous(self._shape(xs), None)

    def copy(self, x):
        return self.contiguous(() if isinstance(x, Scalar) else x.shape, None)

    def cast(self, x, to):
        return self.copy(x)

    def matmul(self, a, b, dt):
        shape = np.matmul(np.zeros(a.shape), np.zeros(b.shape)).shape
        return self.contiguous(shape, dt)


def make_sim(policy):
    return {"torch": TorchSim, "numpy": NumpySim, "contiguous": ContiguousSim}[policy]()
