#!/usr/bin/python3
"""Generates random *valid* Stride modules from a grammar (README.md).

Program I of seed S is a pure function of (S, I, flags): the generator
draws from random.Random("S:I"). Each program comes with its inputs, the
NumPy values of its results and, where the strides oracle predicts them,
the strides the policy's eager library gives them.

    generate.py --seed 1 --index 7            # print program 7 of seed 1
    generate.py --seed 1 --index 7 --policy numpy --json
"""

import argparse
import collections
import json
import os
import random
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from arguments import draw_scalar, draw_values, random_layout  # noqa: E402
from element_types import (ALL, NUMPY, ScalarType, TensorType,  # noqa: E402
                           contiguous_strides, dense_literal, scalar_literal)
from layout_oracle import Scalar, make_sim  # noqa: E402
from op_table import Untame  # noqa: E402
from scope import Func, Scope, Val, indent, inherit  # noqa: E402
import foreign_ops  # noqa: E402
import stride_ops  # noqa: E402
import structure  # noqa: E402

# Flags that enable known-bug classes (off in scripts/test.sh); see README.
FLAGS = {}

PRODUCTIONS = [
    ("named", stride_ops.p_named, 40),
    ("broadcast", stride_ops.p_broadcast, 7),
    ("matmul", stride_ops.p_matmul, 5),
    ("fill", foreign_ops.p_fill, 2),
    ("generic", foreign_ops.p_generic, 3),
    ("linalg.matmul", foreign_ops.p_linalg_matmul, 2),
    ("transpose", foreign_ops.p_transpose, 2),
    ("linalg.broadcast", foreign_ops.p_linalg_broadcast, 2),
    ("extract_slice", foreign_ops.p_extract_slice, 3),
    ("insert_slice", foreign_ops.p_insert_slice, 2),
    ("tensor.cast", foreign_ops.p_tensor_cast, 4),
    ("dense", foreign_ops.p_dense, 1),
    ("call", structure.p_call, 8),
    ("for", structure.p_for, 6),
    ("if", structure.p_if, 5),
]


class Program:
    """One generated case: text, inputs, expected results, run options."""

    def __init__(self):
        self.text = ""
        self.policy = "torch"
        self.options = []
        self.inputs = []      # np arrays (logical values), one per entry argument
        self.results = []     # dict(dtype, shape, values, strides|None, exact, how)
        self.features = collections.Counter()

    def expected_json(self):
        return {
            "policy": self.policy, "options": self.options,
            "results": [{k: (list(v) if k in ("shape", "strides") and v is not None else v)
                         for k, v in r.items() if k != "values"} for r in self.results],
            "features": dict(self.features),
        }


class Generator:
    def __init__(self, seed, index, policy=None, flags=(), no_fuse=None, threads=None):
        self.rng = random.Random("%d:%d" % (seed, index))
        rng = self.rng
        self.policy = policy or rng.choices(["torch", "numpy", "contiguous"], [45, 45, 10])[0]
        self.flags = {f: True for f in flags}
        self.sim = make_sim(self.policy)
        self.counter = 0
        self.helpers = []
        self.features = collections.Counter()
        self.max_size = 96
        self.max_args = rng.choice([4, 6, 8])
        self.no_fuse = rng.random() < 0.25 if no_fuse is None else no_fuse
        self.threads = rng.choice([1, 1, 2]) if threads is None else threads
        self.entry = None

    # -------------------------------------------------------------- names
    def fresh(self, prefix="v"):
        self.counter += 1
        return "%%%s%d" % (prefix, self.counter)

    def sim_scalar(self, dt):
        return Scalar(dt)

    # -------------------------------------------------------------- types
    def result_ty(self, dt, shape):
        r = self.rng.random()
        if r < 0.55:
            return TensorType(dt, shape)
        if r < 0.75 or not shape:
            return TensorType(dt, None)
        return TensorType(dt, [None if self.rng.random() < 0.5 else n for n in shape])

    def negative(self, v):
        """Whether v (through casts) has a negative stride: it must keep static
        dims, since a negative stride along a dynamic dim is a documented
        limit (docs/errors.md 2.2)."""
        sim = v.root.sim
        return sim is not None and not v.scalar and any(s < 0 for s in self.sim.strides(sim))

    def layout_interest(self, v):
        """Operands whose layout is not row-major make the policy work."""
        if v.sim is None or v.scalar:
            return 1.0
        st = tuple(self.sim.strides(v.sim))
        return 6.0 if st != contiguous_strides(v.shape) else 1.0

    def return_weight(self, v):
        """Stride results (whose layouts the policy decides) first, then
        values that went through calls, loops and branches."""
        how = v.how.split(" of ")[-1]
        w = 3.0 if how in stride_ops.OPS or how in ("broadcast", "matmul") else \
            2.0 if how in ("call", "scf.for", "scf.if") else 0.4
        return w * (1 if v.ty.ranked else 0.3) * (1.5 if len(v.shape) >= 2 else 1)

    def random_shape(self, min_rank=0, max_rank=3, nonzero=False, max_size=None):
        rng = self.rng
        max_size = max_size or 48
        while True:
            ranks = list(range(min_rank, max_rank + 1))
            rank = rng.choices(ranks, [(1, 2, 4, 3)[min(r, 3)] for r in ranks])[0]
            shape = tuple(rng.choice([1, 2, 2, 3, 3, 4, 5]) for _ in range(rank))
            if not nonzero and shape and rng.random() < 0.03:
                shape = shape[:-1] + (0,)
            if int(np.prod(shape)) <= max_size:
                return shape

    # ---------------------------------------------------------- operands
    def pick_dtype(self, scope, dts=ALL):
        """An element type among dts, favouring those of visible tensors so
        that ops chain."""
        counts = collections.Counter(v.dt for v in self.usable(scope) if not v.scalar)
        dts = list(dts)
        weights = [1 + 3 * counts[d] for d in dts]
        return self.rng.choices(dts, weights)[0]

    def usable(self, scope):
        return [v for v in scope.pool if not v.terminal]

    def operand(self, scope, dt, kind=None, scalar_ok=0.1, min_rank=0, max_rank=4,
                nonzero=False):
        """A tensor of element type dt (sometimes a scalar): a visible value,
        else a new one."""
        rng = self.rng
        if scalar_ok and rng.random() < scalar_ok:
            return self.scalar_operand(scope, dt)
        cands = [v for v in self.usable(scope) if not v.scalar and v.dt == dt and
                 min_rank <= len(v.shape) <= max_rank and (not nonzero or v.size > 0)]
        if cands and rng.random() < 0.8:
            weights = [(1 + i) * self.layout_interest(v) for i, v in enumerate(cands)]
            return rng.choices(cands, weights)[0]
        shape = self.random_shape(min_rank=min_rank, max_rank=min(max_rank, 3), nonzero=nonzero)
        return self.need_value(scope, dt, shape, kind=kind, reuse=False)

    def partner(self, scope, dt, first, kind=None, others=()):
        """An operand of dt that broadcasts with `first` (and `others`)."""
        rng = self.rng
        r = rng.random()
        if r < 0.15:
            return self.scalar_operand(scope, dt, kind=kind)
        shape = np.broadcast_shapes(first.shape, *[o.shape for o in others])
        cands = []
        for v in self.usable(scope):
            if v.scalar or v.dt != dt:
                continue
            try:
                out = np.broadcast_shapes(shape, v.shape)
            except ValueError:
                continue
            if int(np.prod(out)) <= self.max_size and len(out) <= 4:
                cands.append(v)
        if cands and r < 0.6:
            return rng.choices(cands, [self.layout_interest(v) for v in cands])[0]
        # A new shape derived from first's: leading dims dropped, some 1s,
        # sometimes a new leading dim.
        s = list(shape)
        if s and rng.random() < 0.3:
            s = s[rng.randint(1, len(s)):]
        s = [1 if rng.random() < 0.25 else n for n in s]
        if len(s) == len(shape) < 4 and rng.random() < 0.15 and int(np.prod(shape)) * 3 <= self.max_size:
            s = [rng.choice([2, 3])] + s
        return self.need_value(scope, dt, tuple(s), kind=kind, reuse=False)

    def need_value(self, scope, dt, shape, kind=None, reuse=True):
        shape = tuple(shape)
        if reuse:
            cands = [v for v in self.usable(scope) if not v.scalar and v.dt == dt and v.shape == shape]
            if cands and self.rng.random() < 0.5:
                return self.rng.choice(cands)
        if scope.func.entry and len(self.entry.params) < self.max_args:
            return self.new_arg(scope, dt, shape, kind)
        if self.rng.random() < 0.5 and shape and all(shape):
            return foreign_ops.fill_value(self, scope, dt, shape)
        return self.dense_const(scope, dt, shape, kind)

    def new_arg(self, scope, dt, shape, kind=None):
        rng = self.rng
        enc, strides, zeros = random_layout(rng, shape, allow_negative=self.policy == "numpy")
        values = draw_values(rng, dt, shape, kind or self.value_kind(dt), zeros)
        dims = list(shape)
        if enc is None or "perm" in enc:
            if shape and rng.random() < 0.15:
                dims = [None if rng.random() < 0.5 else n for n in shape]
        ty = TensorType(dt, dims, enc)
        v = Val("%%a%d" % len(self.entry.params), ty, shape, exact=True,
                sim=self.sim.arg(shape, strides, dt), how="arg")
        v.origin = "arg"
        self.entry.params.append(v)
        self.entry.arg_data.append((values, strides))
        scope.add_global(v, values)
        self.features["arg." + ("plain" if enc is None else "perm" if "perm" in enc else "strides")] += 1
        if enc and "strides" in enc:
            if any(s == 0 for s in strides):
                self.features["arg.stride0"] += 1
            if any(s < 0 for s in strides):
                self.features["arg.negative"] += 1
        if None in dims:
            self.features["arg.dynamic"] += 1
        if not shape:
            self.features["arg.0d"] += 1
        if 0 in shape:
            self.features["arg.zero_size"] += 1
        return v

    def value_kind(self, dt):
        r = self.rng.random()
        if dt.startswith("f"):
            return "positive" if r < 0.3 else None
        if dt.startswith("i") and dt != "i1":
            return "nonzero" if r < 0.4 else None
        return None

    def new_scalar_arg(self, scope, dt, value=None, kind=None):
        if value is None:
            value = draw_scalar(self.rng, dt, kind or self.value_kind(dt))
        value = np.asarray(value, dtype=NUMPY[dt])
        v = Val("%%a%d" % len(self.entry.params), ScalarType(dt), (), exact=True,
                sim=Scalar(dt), how="scalar arg")
        self.entry.params.append(v)
        self.entry.arg_data.append((value, None))
        scope.add_global(v, value)
        self.features["arg.scalar"] += 1
        return v

    def scalar_operand(self, scope, dt, kind=None, prefer_arg=False):
        rng = self.rng
        cands = [v for v in self.usable(scope) if v.scalar and v.dt == dt]
        r = rng.random()
        if cands and r < 0.4:
            return rng.choice(cands)
        if scope.func.entry and (prefer_arg or r < 0.7) and len(self.entry.params) < self.max_args + 2:
            return self.new_scalar_arg(scope, dt, kind=kind)
        return self.const_scalar(scope, dt, None, kind)

    def const_scalar(self, scope, dt, value=None, kind=None):
        if value is None:
            value = draw_scalar(self.rng, dt, kind or self.value_kind(dt))
        value = np.asarray(value, dtype=NUMPY[dt])
        name = self.fresh("c")
        v = Val(name, ScalarType(dt), (), exact=True, sim=Scalar(dt), how="constant")
        text = "%s = arith.constant %s" % (name, scalar_literal(dt, value[()]))
        if dt != "i1":
            text += " : " + dt
        scope.emit(text,
                   lambda env: env.__setitem__(name, value), [v])
        return v

    def dense_const(self, scope, dt, shape, kind=None):
        values = draw_values(self.rng, dt, shape, kind or self.value_kind(dt))
        ty = TensorType(dt, shape)
        name = self.fresh("d")
        v = Val(name, ty, shape, exact=True, sim=self.sim.contiguous(shape, dt), how="dense")
        v.origin = "const"
        scope.emit("%s = arith.constant %s : %s" % (name, dense_literal(dt, values), ty.spell()),
                   lambda env: env.__setitem__(name, values), [v])
        self.features["arith.constant.dense"] += 1
        return v

    def cast_to(self, scope, v, ty, pool=False):
        """tensor.cast v to ty. A Stride op reading the cast sees its type:
        row-major for a ranked type without encoding (docs/composition.md,
        "Not covered"); loops, calls and branches look through casts."""
        name = self.fresh("t")
        sim = self.sim.contiguous(v.shape, v.dt) if ty.ranked and not v.scalar else None
        nv = Val(name, ty, v.shape, exact=v.exact, terminal=v.terminal, sim=sim,
                 how="cast of " + v.how, depth=v.depth)
        nv.src = v
        inherit(nv, v)
        nv.origin, nv.strided_view = v.origin, v.strided_view
        nv.rdims = ty.dims if ty.ranked else None
        src = v.name
        scope.emit("%s = tensor.cast %s : %s to %s" % (name, src, v.ty.spell(), ty.spell()),
                   lambda env: env.__setitem__(name, env[src]), [nv],
                   usable=pool and not v.terminal)
        return nv

    def returned_root(self, v):
        """What stride-infer-shapes returns for v: the deepest value of
        its chain of casts whose ranked type knows every static size of v's
        type."""
        best = cur = v
        while cur.src is not None:
            cur = cur.src
            if cur.rdims is None:
                continue
            if not v.ty.ranked or not any(a is None and b is not None for a, b in zip(cur.rdims, v.ty.dims)):
                best = cur
        return best

    def returned_rdims(self, v):
        return self.returned_root(v).rdims

    def returned_sim(self, v):
        """The layout a function hands back for v (stride-infer-shapes looks
        through casts that only forget shape, from a ranked type)."""
        cur = self.returned_root(v)
        if cur.src is not None:
            return self.sim.contiguous(cur.shape, cur.dt) if cur.ty.ranked else None
        return cur.sim

    def as_static(self, scope, v):
        if v.scalar:
            raise Untame("scalar where a tensor is needed")
        if v.ty.static:
            return v
        return self.cast_to(scope, v, TensorType(v.dt, v.shape))

    def read_value(self, scope, x):
        """A named Stride op reading x (a unary op, or a binary one with a
        scalar); Untame if none is tame on its values."""
        for _ in range(8):
            name = self.rng.choice(stride_ops.UNARY_FOR[x.dt])
            try:
                opdef = stride_ops.OPS[name]
                if opdef.kind in ("unary", "predicate"):
                    return stride_ops.emit_named(self, scope, name, [x], x.dt)
                return stride_ops.emit_named(self, scope, name, [x, self.scalar_operand(scope, x.dt)], x.dt)
            except Untame:
                continue
        raise Untame("nothing reads the value")

    def force_update(self, scope, x):
        """A value of x's type computed from x (a loop body's next value)."""
        dt = x.dt
        for _ in range(8):
            if dt == "i1":
                name = self.rng.choice(["logical_not", "logical_xor", "bitwise_or", "select"])
            elif dt.startswith("f"):
                name = self.rng.choice(["add", "mul", "sub", "neg", "tanh", "maximum", "sin", "abs"])
            else:
                name = self.rng.choice(["add", "sub", "neg", "maximum", "minimum", "bitwise_xor"])
            try:
                opdef = stride_ops.OPS[name]
                if opdef.kind in ("unary", "predicate"):
                    ops = [x]
                elif opdef.kind == "select":
                    c = self.partner(scope, "i1", x)
                    ops = [c, x, self.partner(scope, dt, x, others=[c])]
                    if np.broadcast_shapes(*[o.shape for o in ops]) != x.shape:
                        continue
                else:
                    y = self.partner(scope, dt, x)
                    try:
                        if np.broadcast_shapes(x.shape, y.shape) != x.shape:
                            continue
                    except ValueError:
                        continue
                    ops = [x, y]
                return stride_ops.emit_named(self, scope, name, ops, dt)
            except Untame:
                continue
        raise Untame("no update")

    # -------------------------------------------------------------- blocks
    def block(self, scope, n):
        prods = [p for p in PRODUCTIONS]
        weights = [w for _, _, w in prods]
        for _ in range(n):
            for attempt in range(6):
                name, fn, _ = self.rng.choices(prods, weights)[0]
                try:
                    if fn(self, scope) is not None:
                        break
                except Untame:
                    continue

    # ------------------------------------------------------------- program
    def generate(self):
        rng = self.rng
        entry = Func("main", entry=True)
        self.entry = entry
        top = Scope(entry)
        entry.top = top
        for _ in range(rng.randint(1, 2)):
            dt = rng.choice(ALL)
            self.new_arg(top, dt, self.random_shape())
        self.block(top, rng.randint(4, 10))
        # Results: the values most ops went into, and those made by calls,
        # loops and branches.
        cands = [v for v in top.pool + top.local if not v.scalar and v.depth > 0]
        cands = list(dict.fromkeys(cands))
        if not cands:
            cands = [v for v in top.pool if not v.scalar]
        if not cands:
            cands = [stride_ops.emit_named(self, top, "neg", [self.new_scalar_arg(top, "f32")], "f32")]
        picks = []
        for _ in range(rng.choice([1, 1, 2, 3])):
            weights = [(1 + v.depth) * self.return_weight(v) for v in cands]
            v = rng.choices(cands, weights)[0]
            if v not in picks or rng.random() < 0.1:
                picks.append(v)
        prog = Program()
        prog.policy = self.policy
        for v in picks:
            ty = v.ty
            r = rng.random()
            if r < 0.2:
                ty = TensorType(v.dt, None)
            elif r < 0.5 and v.ty.ranked and v.shape:
                ty = TensorType(v.dt, [None if rng.random() < 0.5 else n for n in v.shape])
            rv = v if ty == v.ty else self.cast_to(top, v, ty)
            rd = self.returned_rdims(rv)
            if rd is not None and None in rd:
                self.features["return.dynamic_refined"] += 1
            entry.results.append((rv, ty))
            rsim = self.returned_sim(rv)
            if structure.repeats_elements(self, rsim, v.shape):
                # An entry's output is a new buffer: the policy's copy.
                rsim = self.sim.copy(rsim)
            strides = None if rsim is None else list(self.sim.strides(rsim))
            self.features["result.strides_%s" % ("predicted" if strides is not None else "unpredicted")] += 1
            self.features["result.values_%s" % ("exact" if v.exact or v.dt not in ("f32", "f64") else "tolerance")] += 1
            prog.results.append({
                "dtype": v.dt, "shape": list(v.shape), "values": top.env[v.name],
                "strides": strides, "exact": bool(v.exact), "how": v.how, "lowp": bool(v.lowp),
                "returned_as": ty.spell()})
            if not ty.ranked:
                self.features["return.unranked"] += 1
            elif not ty.static:
                self.features["return.dynamic"] += 1
        lines = []
        for h in self.helpers:
            lines += render(h)
        lines += render(entry)
        prog.text = "\n".join(lines) + "\n"
        prog.inputs = [values for values, _ in entry.arg_data]
        if self.no_fuse:
            prog.options.append("--no-fuse")
        prog.options += ["--num-threads", str(self.threads)]
        self.features["policy." + self.policy] += 1
        if getattr(self.sim, "size1_matmuls", 0):
            self.features["torch.matmul_size1_strides"] += self.sim.size1_matmuls
        prog.features = self.features
        return prog


def render(func):
    rets = func.results
    ret = "return %s : %s" % (", ".join(v.name for v, _ in rets),
                              ", ".join(t.spell() for _, t in rets))
    return [func.header()] + indent(func.top.lines) + indent([ret]) + ["}", ""]


def generate(seed, index, policy=None, flags=(), no_fuse=None, threads=None):
    """Program `index` of `seed`; retried with derived seeds if the grammar
    produced nothing to return."""
    for attempt in range(20):
        g = Generator(seed, index if attempt == 0 else index * 1000003 + attempt,
                      policy=policy, flags=flags, no_fuse=no_fuse, threads=threads)
        try:
            return g.generate()
        except Untame:
            continue
    raise RuntimeError("no program for seed %d index %d" % (seed, index))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--index", type=int, default=0)
    ap.add_argument("--policy", choices=["torch", "numpy", "contiguous"])
    ap.add_argument("--flag", action="append", default=[], choices=sorted(FLAGS) + ["all"])
    ap.add_argument("--json", action="store_true", help="also print the expected results")
    args = ap.parse_args()
    if "all" in args.flag:
        args.flag = sorted(FLAGS)
    prog = generate(args.seed, args.index, args.policy, args.flag)
    sys.stdout.write(prog.text)
    if args.json:
        print("// " + json.dumps(prog.expected_json()))


if __name__ == "__main__":
    main()
