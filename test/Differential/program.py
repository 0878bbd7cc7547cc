"""Program representation: SSA values (Node) and programs (Case) and their MLIR text.

Part of the differential test; see differential.py."""
from common import *  # noqa: F401,F403


class Node:
    """An SSA value: a function argument, a constant or an op result.

    `shape` is the logical shape (() for scalars and 0-d tensors); `scalar`
    says the MLIR type is a plain scalar (f32) rather than a tensor; `exact`
    says the value is computed without transcendental functions or matmuls
    (so that a comparison of it is bit-reproducible).
    """

    def __init__(self, name, kind, dtype, shape, scalar=False, op=None,
                 operands=(), pred=None, value=None, exact=True):
        self.name, self.kind, self.dtype = name, kind, dtype
        self.shape, self.scalar = tuple(shape), scalar
        self.op, self.operands, self.pred = op, list(operands), pred
        self.value = value          # constants; logical array for arguments
        self.exact = exact
        self.strides = None         # arguments: element strides
        self.layout = None          # arguments: encoding text or None
        self.fortran = False        # arguments: write the .npy F-ordered
        self.k = 0                  # matmul: contracted size
        self.pad = False            # arguments: a slice of one more row
        self.copy = False           # arguments: through a linalg.generic
        self.decl = None            # an explicit MLIR type (loop-carried
                                    # values, callee parameters, results)
        # Structured ops (feed programs): op "for" (an scf.for) and "call"
        # (a func.call of a private function) own a region: `body` (ops),
        # `yields` (the body values it yields or returns), `outs` (one "proj"
        # Node per result, which later ops use). A loop has `iters` (its
        # iter_args, each a Node of kind "param" taking operand i as initial
        # value), `trips` and `bounds` (lo, hi, step); its body may use any
        # value defined before it. A call has `params` (kind "param", one per
        # operand), `callee` (the function's name) and `local` (its
        # constants) and sees nothing else.
        self.body, self.yields, self.outs = [], [], []
        self.iters, self.params, self.local = [], [], []
        self.trips, self.bounds, self.callee = 0, (0, 0, 1), None
        # Reductions: `axes` as written (None: all axes; negative ones count
        # from the end), `reduced` the same axes normalized, `keepdims`.
        self.axes, self.reduced, self.keepdims = None, (), False

    def sig_name(self):
        """The argument's name in @main's signature."""
        return self.name + ("_full" if self.pad else
                            "_in" if self.copy else "")

    def full_type(self):
        """The argument's type in @main's signature."""
        if not self.pad:
            return self.mlir_type()
        shape = (self.shape[0] + 1,) + self.shape[1:]
        return f"tensor<{'x'.join(map(str, shape))}x{self.dtype}>"

    def entry_lines(self):
        """@main's ops that make the argument's logical value: a
        tensor.extract_slice of the padded argument, then a linalg.generic
        copy (both of row-major tensors, so strides stay row-major)."""
        lines = []
        name = self.name
        sizes = ", ".join(map(str, self.shape))
        zeros = ", ".join("0" for _ in self.shape)
        ones = ", ".join("1" for _ in self.shape)
        if self.pad:
            target = name if not self.copy else name + "_sl"
            lines.append(f"  {target} = tensor.extract_slice {name}_full"
                         f"[{zeros}] [{sizes}] [{ones}] : {self.full_type()} "
                         f"to {self.mlir_type()}")
            source = target
        else:
            source = name + "_in"
        if self.copy:
            dims = ", ".join(f"d{i}" for i in range(len(self.shape)))
            amap = f"affine_map<({dims}) -> ({dims})>"
            iters = ", ".join('"parallel"' for _ in self.shape)
            t = self.mlir_type()
            lines.append(f"  {name}_e = tensor.empty() : {t}")
            lines.append(
                f"  {name} = linalg.generic {{indexing_maps = [{amap}, {amap}], "
                f"iterator_types = [{iters}]}} ins({source} : {t}) "
                f"outs({name}_e : {t}) {{\n  ^bb0(%v: {self.dtype}, "
                f"%o: {self.dtype}):\n    linalg.yield %v : {self.dtype}\n"
                f"  }} -> {t}")
        return lines

    def mlir_type(self):
        if self.decl:
            return self.decl
        if self.scalar:
            return self.dtype
        if self.kind == "op":
            return f"tensor<*x{self.dtype}>"
        body = "x".join(str(s) for s in self.shape)
        body = f"{body}x{self.dtype}" if self.shape else self.dtype
        if self.layout:
            return f"tensor<{body}, {self.layout}>"
        return f"tensor<{body}>"


class Case:
    def __init__(self, seed, index):
        self.seed, self.index = seed, index
        self.policy = "torch"
        self.kind = "elementwise"
        self.args = []      # Nodes of kind "arg", in signature order
        self.consts = []    # Nodes of kind "const"
        self.ops = []       # Nodes of kind "op", in SSA order
        self.results = []   # Nodes returned
        self.nnames = 0
        self.wrap = "none"  # composition: none, call (in @body) or loop
        self.threads = None  # stride-run --num-threads (None: not given)
        self.mode = "default"  # generator: default, large or feed

    def fresh(self, prefix):
        self.nnames += 1
        return f"%{prefix}{self.nnames}"

    def op_lines(self, suffix=""):
        """The ops' lines; results inside a loop body get `suffix`."""
        own = {n.name for n in self.ops}
        name = lambda o: o.name + suffix if o.name in own else o.name
        return [stride_op_line(n, "  ", name) for n in self.ops]

    def structured(self):
        """Every op of the module, nested regions included, in order."""
        out = []

        def walk(ops):
            for n in ops:
                out.append(n)
                walk(n.body)
        walk(self.ops)
        return out

    def emit(self, ops, indent="  "):
        """Lines of `ops`, structured ops (loops, calls) included."""
        lines = []
        for n in ops:
            if n.op == "proj":
                continue
            outs = ", ".join(o.mlir_type() for o in n.outs)
            many = f":{len(n.outs)}" if len(n.outs) > 1 else ""
            if n.op == "for":
                inits = [f"{p.name} = "
                         + cast_to(lines, indent, o, p, f"{n.name}_i{i}")
                         for i, (o, p) in enumerate(zip(n.operands, n.iters))]
                lo, hi, step = n.bounds
                for what, v in (("lo", lo), ("hi", hi), ("st", step)):
                    lines.append(f"{indent}{n.name}_{what} = arith.constant "
                                 f"{v} : index")
                lines.append(f"{indent}{n.name}{many} = scf.for {n.name}_iv = "
                             f"{n.name}_lo to {n.name}_hi step {n.name}_st "
                             f"iter_args({', '.join(inits)}) -> ({outs}) {{")
                lines += self.emit(n.body, indent + "  ")
                ys = [cast_to(lines, indent + "  ", y, p, f"{n.name}_y{i}")
                      for i, (y, p) in enumerate(zip(n.yields, n.iters))]
                lines.append(f"{indent}  scf.yield {', '.join(ys)} : "
                             f"{', '.join(p.mlir_type() for p in n.iters)}")
                lines.append(f"{indent}}}")
            elif n.op == "call":
                vals = [cast_to(lines, indent, o, p, f"{n.name}_a{i}")
                        for i, (o, p) in enumerate(zip(n.operands, n.params))]
                ptys = ", ".join(p.mlir_type() for p in n.params)
                lines.append(f"{indent}{n.name}{many} = func.call {n.callee}"
                             f"({', '.join(vals)}) : ({ptys}) -> ({outs})")
            else:
                lines.append(stride_op_line(n, indent))
        return lines

    def callee_lines(self):
        """The private functions of the module's calls."""
        lines = []
        for n in self.structured():
            if n.op != "call":
                continue
            sig = ", ".join(f"{p.name}: {p.mlir_type()}" for p in n.params)
            rtys = ", ".join(y.mlir_type() for y in n.yields)
            lines.append(f"func.func private {n.callee}({sig}) -> ({rtys}) {{")
            lines += [const_line(c) for c in n.local]
            lines += self.emit(n.body)
            lines.append(f"  return {', '.join(y.name for y in n.yields)} : "
                         f"{rtys}")
            lines.append("}")
        return lines

    def const_lines(self):
        return [const_line(c) for c in self.consts]

    def mlir(self):
        rtypes = [r.mlir_type() for r in self.results]
        rsig = rtypes[0] if len(rtypes) == 1 else f"({', '.join(rtypes)})"
        lines = [f"// differential case {self.index} of seed {self.seed}, "
                 f"policy {self.policy}, composition {self.wrap}"
                 + (f", mode {self.mode}" if self.mode != "default" else "")
                 + (f", {self.threads} thread(s)" if self.threads else "")]
        lines += self.callee_lines()
        if self.wrap == "call":
            sig = ", ".join(f"{a.name}: {a.mlir_type()}" for a in self.args)
            lines.append(f"func.func private @body({sig}) -> {rsig} {{")
            lines += self.const_lines() + self.op_lines()
            lines.append(f"  return {', '.join(r.name for r in self.results)}"
                         f" : {', '.join(rtypes)}")
            lines.append("}")
        sig = ", ".join(f"{a.sig_name()}: {a.full_type()}"
                        for a in self.args)
        lines.append(f"func.func @main({sig}) -> {rsig} {{")
        for a in self.args:
            lines += a.entry_lines()
        k = len(self.results)
        many = f":{k}" if k > 1 else ""
        got = [f"%res#{i}" if k > 1 else "%res" for i in range(k)]
        if self.wrap == "call":
            args = ", ".join(a.name for a in self.args)
            atys = ", ".join(a.mlir_type() for a in self.args)
            lines.append(f"  %res{many} = call @body({args}) : ({atys}) -> "
                         f"{rsig}")
        elif self.wrap == "loop":
            # One iteration that recomputes the results from the same inputs:
            # the values stay, and the loop carries the results' layouts.
            lines += self.const_lines() + self.op_lines()
            lines += ["  %lo = arith.constant 0 : index",
                      "  %hi = arith.constant 1 : index"]
            inits = ", ".join(f"%acc{i} = {r.name}"
                              for i, r in enumerate(self.results))
            lines.append(f"  %res{many} = scf.for %iv = %lo to %hi step %hi "
                         f"iter_args({inits}) -> ({', '.join(rtypes)}) {{")
            lines += ["  " + l for l in self.op_lines("_l")]
            lines.append(f"    scf.yield "
                         f"{', '.join(r.name + '_l' for r in self.results)} : "
                         f"{', '.join(rtypes)}")
            lines.append("  }")
        else:
            lines += self.const_lines() + self.emit(self.ops)
            got = [r.name for r in self.results]
        lines.append(f"  return {', '.join(got)} : {', '.join(rtypes)}")
        lines.append("}")
        return "\n".join(lines) + "\n"


def stride_op_line(n, indent, name=lambda o: o.name):
    """The line of a Stride op node; `name` gives each value's SSA name."""
    vals = ", ".join(name(o) for o in n.operands)
    tys = ", ".join(o.mlir_type() for o in n.operands)
    pred = f"{n.pred}, " if n.op == "cmp" else ""
    if n.op in REDUCTIONS:
        attrs = (f" axes [{', '.join(map(str, n.axes))}]"
                 if n.axes is not None else "")
        attrs += " keepdims" if n.keepdims else ""
        return (f"{indent}{name(n)} = stride.{n.op} {vals}{attrs} : {tys} "
                f"-> {n.mlir_type()}")
    return (f"{indent}{name(n)} = stride.{n.op} {pred}{vals} : {tys} "
            f"-> {n.mlir_type()}")


def cast_to(lines, indent, value, target, name):
    """The name by which `value` is passed where `target`'s type is expected:
    its own, or that of a tensor.cast called `name` appended to `lines`."""
    if value.mlir_type() == target.mlir_type():
        return value.name
    lines.append(f"{indent}{name} = tensor.cast {value.name} : "
                 f"{value.mlir_type()} to {target.mlir_type()}")
    return name


def const_line(c):
    return (f"  {c.name} = arith.constant {format_const(c.value, c.dtype)} : "
            f"{c.dtype}")


def format_const(value, dtype):
    if dtype.startswith("i"):
        return str(int(value))
    return repr(float(value))  # constants are multiples of 1/4: exact
