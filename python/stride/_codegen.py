"""MLIR for a lazy expression: one func.func, one Stride op per node, leaves
and scalars as arguments. The text depends only on the expression's
structure and dtypes (never on values, array identities or sizes), so it is
the structural part of the kernel cache key."""
import math

from . import _dtypes, _expr
from ._expr import Leaf, Op, Scalar

ENTRY = "expr"

# Inserts of at most this many elements copy from their own buffer (see
# _Builder._insert).
_SMALL_INSERT = 64


def tensor_type(dtype, rank):
    """A ranked tensor with dynamic sizes: the compiler specializes each
    argument to the array's exact shape and strides."""
    elem = _dtypes.mlir(dtype)
    return f"tensor<{'?x' * rank}{elem}>"


def result_type(dtype, shape=None, strides=None):
    """tensor<*xT> (the compiler infers shape and layout), or a static type
    with an explicit layout for a caller's destination."""
    elem = _dtypes.mlir(dtype)
    if shape is None:
        return f"tensor<*x{elem}>"
    if not shape:
        return f"tensor<{elem}>"
    dims = "x".join(str(n) for n in shape)
    layout = ", ".join(str(s) for s in strides)
    return f"tensor<{dims}x{elem}, #stride.layout<strides = [{layout}]>>"


def leaf_key(a):
    """Arrays with the same memory, dtype, shape and strides are the same
    argument (in particular the same array object used twice)."""
    return (a.__array_interface__["data"][0], a.dtype.str, a.shape, a.strides)


def postorder(root):
    """Op nodes in dependency order, each once (iterative: long chains such
    as a Python sum of many terms must not hit the recursion limit)."""
    order, seen, stack = [], set(), [(root, False)]
    while stack:
        node, done = stack.pop()
        if done:
            order.append(node)
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.append((node, True))
        for o in reversed(node.operands):
            if isinstance(o, Op) and id(o) not in seen:
                stack.append((o, False))
    return order


def every_node(root):
    """postorder, and the nodes of fori_loop bodies too."""
    return every_node_of([root])


def every_node_of(roots):
    """every_node of several roots, each node once."""
    out, stack, seen = [], list(roots), set()
    while stack:
        for node in postorder(stack.pop()):
            if id(node) not in seen:
                seen.add(id(node))
                out.append(node)
                if node.kind == "loop":
                    stack.extend(node.attr[2])
    return out


class _Builder:
    @staticmethod
    def leaf_key(leaf):
        return leaf_key(leaf.array)

    def __init__(self):
        self.args = []        # Leaf arrays and (value, dtype) scalars, in order
        self.arg_types = []
        self.lines = []
        self.values = {}      # id(Op) -> (name, type)
        self.leaves = {}      # leaf_key -> (name, type)
        self.casts = {}       # (name, dtype) -> (name, type)
        self.scalars = {}     # id(Scalar) -> (name, type)
        self.arg_leaves = {}  # argument index -> the Leaf it was made for

    def _arg(self, item, type_):
        name = f"%a{len(self.args)}"
        self.args.append(item)
        self.arg_types.append(f"{name}: {type_}")
        return name, type_

    def operand(self, o, dtype):
        """The SSA value of operand `o` converted to `dtype`."""
        if isinstance(o, Scalar):
            if id(o) not in self.scalars:
                self.scalars[id(o)] = self._arg((o.value, dtype),
                                                _dtypes.mlir(dtype))
            return self.scalars[id(o)]
        if isinstance(o, Leaf):
            k = self.leaf_key(o)
            if k not in self.leaves:
                self.leaves[k] = self._arg(o.array, tensor_type(o.dtype, o.ndim))
                self.arg_leaves[len(self.args) - 1] = o
            value = self.leaves[k]
        else:
            value = self.values[id(o)]
        if o.dtype == dtype:
            return value
        k = (value[0], dtype)
        if k not in self.casts:
            name = f"%c{len(self.casts)}"
            type_ = result_type(dtype)
            # A promotion is part of the consuming op, as in NumPy's ufunc
            # loops and TensorIterator: the attribute lets layout propagation
            # decide the op's layout from the uncast operand.
            self.lines.append(f"{name} = stride.cast {value[0]} "
                              f"{{stride.promotion}} : {value[1]} -> {type_}")
            self.casts[k] = (name, type_)
        return self.casts[k]

    def op(self, node, type_):
        if node.kind == "loopresult":
            name, types = self.values[id(node.operands[0])]
            k = node.attr
            self.values[id(node)] = (f"{name}#{k}", types[k])
            return
        ins = [self.operand(o, d) for o, d in zip(node.operands, node.in_dtypes)]
        if node.kind == "loop":
            self._loop(node, ins)
            return
        names = ", ".join(n for n, _ in ins)
        types = ", ".join(t for _, t in ins)
        res = f"%v{len(self.values)}"
        if node.kind == "copy":
            self._copy(res, node, ins, type_)
        elif node.kind == "insert":
            type_ = self._insert(res, node, ins)
        elif node.kind == "cmp":
            self.lines.append(f"{res} = stride.cmp {node.attr}, {names} : {types} -> {type_}")
        elif node.kind in _expr.VIEWS:
            self.lines.append(f"{res} = stride.{node.kind} {names}"
                              f"{_view_attr(node.kind, node.attr)} : "
                              f"{types} -> {type_}")
        elif node.kind in _expr.REDUCTIONS:
            axes, keepdims = node.attr
            attrs = ("" if axes is None else
                     f" axes [{', '.join(str(a) for a in axes)}]")
            attrs += " keepdims" if keepdims else ""
            self.lines.append(f"{res} = stride.{node.kind} {names}{attrs} : "
                              f"{types} -> {type_}")
        else:
            self.lines.append(f"{res} = stride.{node.kind} {names} : {types} -> {type_}")
        self.values[id(node)] = (res, type_)
        return res

    def _copy(self, res, node, ins, type_):
        (name, in_type), = ins
        self._copy_lines(res, name, in_type, type_, f"%b{len(self.values)}",
                         _dtypes.mlir(node.in_dtypes[0]))

    def _copy_lines(self, res, name, in_type, type_, block, elem, outs=""):
        """A stride.broadcast whose body yields its operand: a copy (into
        `outs`, a destination, when given)."""
        outs = f" outs({outs} : {type_})" if outs else ""
        self.lines.append(f"{res} = stride.broadcast ins({name} : {in_type})"
                          f"{outs} -> {type_} {{")
        self.lines.append(f"^bb0({block}: {elem}):")
        self.lines.append(f"  stride.yield {block} : {elem}")
        self.lines.append("}")

    def _loop(self, node, ins):
        """stride.fori_loop: one scf.for whose iter_args are the carried
        arrays (static types, so the Stride ops in the body infer their
        shapes), with the body's nodes emitted in its region."""
        lower, upper, results, args, index = node.attr
        k = len(self.values)
        res = f"%v{k}"
        inits, types = [], []
        for (name, type_), arg in zip(ins, args):
            static = _static(arg)
            if type_ != static:
                self.lines.append(f"%lc{k}_{len(inits)} = tensor.cast {name} : "
                                  f"{type_} to {static}")
                name = f"%lc{k}_{len(inits)}"
            inits.append(name)
            types.append(static)
        self.lines.append(f"%lb{k} = arith.constant {lower} : index")
        self.lines.append(f"%ub{k} = arith.constant {upper} : index")
        self.lines.append(f"%ls{k} = arith.constant 1 : index")
        iters = ", ".join(f"%la{k}_{j} = {n}" for j, n in enumerate(inits))
        self.lines.append(f"{res}:{len(inits)} = scf.for %li{k} = %lb{k} to "
                          f"%ub{k} step %ls{k} iter_args({iters}) -> "
                          f"({', '.join(types)}) {{")
        for j, arg in enumerate(args):
            self.values[id(arg)] = (f"%la{k}_{j}", types[j])
        self.lines.append(f"  %lx{k} = arith.index_cast %li{k} : index to i64")
        self.lines.append(f"  %lt{k} = tensor.from_elements %lx{k} : tensor<i64>")
        self.values[id(index)] = (f"%lt{k}", "tensor<i64>")
        saved, start = dict(self.casts), len(self.lines)
        for body in self._region_order(results):
            self.op(body, result_type(body.dtype))
        yields = []
        for j, r in enumerate(results):
            name, type_ = self.values[id(r)]
            if type_ != types[j]:
                self.lines.append(f"%ly{k}_{j} = tensor.cast {name} : {type_} "
                                  f"to {types[j]}")
                name = f"%ly{k}_{j}"
            yields.append(name)
        self.lines.append(f"scf.yield {', '.join(yields)} : {', '.join(types)}")
        self.lines[start:] = ["  " + line for line in self.lines[start:]]
        self.lines.append("}")
        self.casts = saved  # casts made in the region are not visible after it
        self.values[id(node)] = (res, types)

    def _region_order(self, results):
        """The body's nodes in dependency order, stopping at what is already
        defined (the loop's variables and the values computed before it)."""
        order, seen, stack = [], set(), [(r, False) for r in reversed(results)]
        while stack:
            node, done = stack.pop()
            if done:
                order.append(node)
                continue
            if id(node) in seen or id(node) in self.values:
                continue
            seen.add(id(node))
            stack.append((node, True))
            for o in reversed(node.operands):
                if isinstance(o, Op) and id(o) not in seen and id(o) not in self.values:
                    stack.append((o, False))
        return order

    def _insert(self, res, node, ins):
        """base[region] = value as destination-passing tensor ops: the
        value is copied into the extracted slice (stride.broadcast with the
        slice as its destination) and inserted back, which One-Shot
        Bufferize does in place in the base's buffer."""
        (base, btype), (value, vtype) = ins
        elem = _dtypes.mlir(node.dtype)
        offsets, sizes, strides = node.attr
        k = len(self.values)
        if "*" in btype or "?" in btype:
            static = _static(node)
            self.lines.append(f"%ib{k} = tensor.cast {base} : {btype} to {static}")
            base, btype = f"%ib{k}", static
        part = f"tensor<{'x'.join(str(n) for n in sizes)}x{elem}>"
        where = (f"[{', '.join(map(str, offsets))}] [{', '.join(map(str, sizes))}] "
                 f"[{', '.join(map(str, strides))}]")
        source = node.operands[1]
        reads_chain = _reads_chain(node)
        if reads_chain and source.kind in _expr.VIEWS:
            # A view of the array being written, inserted into it: copied
            # first, so the insert does not read what it overwrites.
            self._copy_lines(f"%ic{k}", value, vtype, f"tensor<*x{elem}>",
                             f"%icb{k}", elem)
            value, vtype = f"%ic{k}", f"tensor<*x{elem}>"
        if math.prod(sizes) <= _SMALL_INSERT or reads_chain:
            # Computed into its own buffer, then inserted (one copy of the
            # region). The destination-passing form below computes big
            # regions in place, but when the value reads the array it is
            # written into (a stencil, u[1:-1] = u[:-2] + u[2:]) One-Shot
            # resolves that by copying every overlapping read instead; and
            # for a few elements One-Shot's subset matching of its
            # extract_slice dominates compile time in long chains of
            # element writes (an unrolled Python loop).
            self.lines.append(f"%iw{k} = tensor.cast {value} : {vtype} to {part}")
            self.lines.append(f"{res} = tensor.insert_slice %iw{k} into {base}"
                              f"{where} : {part} into {btype}")
            return btype
        self.lines.append(f"%id{k} = tensor.extract_slice {base}{where} : "
                          f"{btype} to {part}")
        self._copy_lines(f"%iw{k}", value, vtype, part, f"%ix{k}", elem,
                         outs=f"%id{k}")
        self.lines.append(f"{res} = tensor.insert_slice %iw{k} into {base}"
                          f"{where} : {part} into {btype}")
        return btype  # static: Stride ops infer shapes from it


def _reads_chain(node):
    """Whether insert `node`'s value reads the array it is inserted into:
    its base or any earlier contents the base was built from in place."""
    chain, base = set(), node.operands[0]
    while isinstance(base, Op) and base.kind == "insert":
        chain.add(id(base))
        base = base.operands[0]
    chain.add(id(base))
    stack, seen = [node.operands[1]], set()
    while stack:
        n = stack.pop()
        if id(n) in chain:
            return True
        if id(n) in seen or not isinstance(n, Op):
            continue
        seen.add(id(n))
        stack.extend(n.operands)
    return False


def _static(node):
    """The ranked static tensor type of `node`'s shape (no layout)."""
    elem = _dtypes.mlir(node.dtype)
    if not node.shape:
        return f"tensor<{elem}>"
    return f"tensor<{'x'.join(str(n) for n in node.shape)}x{elem}>"


def _view_attr(kind, attr):
    """The attribute text of view op `kind` (StrideViewOps.td's formats)."""
    ints = lambda v: "[" + ", ".join(str(i) for i in v) + "]"
    if kind == "slice":
        part = lambda v: "" if v is None else str(v)
        return " [" + ", ".join(
            f"{part(a)}:{part(b)}" + ("" if c is None else f":{c}")
            for a, b, c in attr) + "]"
    if kind == "squeeze":
        return "" if attr is None else f" dims {ints(attr)}"
    if kind == "unsqueeze":
        return f" [{attr}]"
    return " " + ints(attr)


def _number_arguments(b, root):
    """Declares the arguments in the order the user wrote them (a preorder,
    left-to-right walk), so that `input #i` in messages counts the arrays and
    scalars as they appear in the source: in where(mask, -b, b) the mask is
    input #0 although -b is computed first."""
    seen, stack = set(), [(root, None)]
    while stack:
        node, dtype = stack.pop()
        if isinstance(node, Op):
            if id(node) not in seen:
                seen.add(id(node))
                stack.extend(reversed(list(zip(node.operands, node.in_dtypes))))
        elif isinstance(node, Scalar):
            b.operand(node, dtype)
        else:
            b.operand(node, node.dtype)


def generate(root, out_shape=None, out_strides=None):
    """Returns (mlir_text, args): args lists, per function argument, the leaf
    array or a (value, dtype) scalar. With out_shape/out_strides the result
    is declared with exactly that layout (for compile's keep_result_layouts)."""
    return generate_many([root], [(out_shape, out_strides)])[:2]


def generate_many(roots, out_layouts=None, leaf_keys=None):
    """generate for a function of several results (one per root, computed
    by one kernel). `leaf_keys` maps id(Leaf) to the key that decides which
    leaves are one argument (default: same memory and layout). Also returns
    the Leaf behind each array argument."""
    b = _Builder()
    if leaf_keys is not None:
        b.leaf_key = lambda leaf: leaf_keys[id(leaf)]
    order, seen = [], set()
    for root in roots:
        for node in postorder(root):
            if id(node) not in seen:
                seen.add(id(node))
                order.append(node)
    for root in roots:
        _number_arguments(b, root)
    out_layouts = out_layouts or [(None, None)] * len(roots)
    ret_types = {id(r): result_type(r.dtype, *layout)
                 for r, layout in zip(roots, out_layouts)}
    for node in order:
        b.op(node, ret_types.get(id(node), result_type(node.dtype)))
    results = []
    types = [ret_types[id(r)] for r in roots]
    for r, t in zip(roots, types):
        name, have = b.values[id(r)]
        if have != t:  # a tensor op's static result: forget its shape
            b.lines.append(f"%r{len(results)} = tensor.cast {name} : {have} to {t}")
            name = f"%r{len(results)}"
        results.append((name, t))
    body = "\n".join("  " + line for line in b.lines)
    text = (f"func.func @{ENTRY}({', '.join(b.arg_types)}) -> "
            f"({', '.join(types)}) {{\n{body}\n  return "
            f"{', '.join(n for n, _ in results)} : {', '.join(types)}\n}}\n")
    return text, b.args, [b.arg_leaves.get(i) for i in range(len(b.args))]


def structure(root):
    """The structural cache key of `root` and its kernel arguments, without
    generating text: a preorder serialization of the DAG (op kinds,
    attributes, dtypes, shared nodes as back references, leaves by array
    identity, scalars by the type they are read as), walked in the order
    _number_arguments declares arguments, so the arguments line up with the
    text generate_many makes for the same key."""
    key, args = [], []
    nodes, leaves = {}, {}
    stack = [(root, None)]
    while stack:
        node, dtype = stack.pop()
        if isinstance(node, Op):
            ref = nodes.get(id(node))
            if ref is not None:
                key.append(ref)
                continue
            nodes[id(node)] = len(nodes)
            key.append((node.kind, node.attr, node.dtype, node.in_dtypes,
                        node.shape))
            ops, dts = node.operands, node.in_dtypes
            for i in range(len(ops) - 1, -1, -1):
                stack.append((ops[i], dts[i]))
        elif isinstance(node, Scalar):
            key.append(dtype)
            args.append((node.value, dtype))
        else:
            ref = leaves.get(id(node.array))
            if ref is None:
                ref = leaves[id(node.array)] = -1 - len(leaves)
                args.append(node.array)
            key.append((ref, node.dtype, len(node.shape), node.from_torch))
    return tuple(key), args


_TEXTS = {}
_TEXTS_LIMIT = 4096


def generate_cached(root, out_shape=None, out_strides=None):
    """generate(), with the text looked up by structure: a hit builds no
    MLIR text at all."""
    key, args = root.structure_of()  # an expression is immutable: once
    full = (key, out_shape, out_strides)
    text = _TEXTS.get(full)
    if text is None:
        keys = {}
        stack = [root]
        while stack:
            node = stack.pop()
            if isinstance(node, Leaf):
                keys[id(node)] = id(node.array)
            elif isinstance(node, Op) and id(node) not in keys:
                keys[id(node)] = None
                stack.extend(node.operands)
        text, gen_args, _ = generate_many(
            [root], [(out_shape, out_strides)], leaf_keys=keys)
        if [a if isinstance(a, tuple) else id(a) for a in gen_args] != \
                [a if isinstance(a, tuple) else id(a) for a in args]:
            raise RuntimeError("internal error: the structural key and the "
                               "generated arguments disagree")
        if len(_TEXTS) >= _TEXTS_LIMIT:
            _TEXTS.clear()
        _TEXTS[full] = text
    return text, args


_expr.HOOKS.structure = structure
