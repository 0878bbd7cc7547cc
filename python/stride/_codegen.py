"""MLIR for a lazy expression: one func.func, one Stride op per node, leaves
and scalars as arguments, built through the extension's IRBuilder (MLIR's
builders, the ops' registered names and attributes) and returned as text.
The text depends only on the expression's structure and dtypes (never on
values, array identities or sizes), so it is the structural part of the
kernel cache key; a @stride.jit trace's float literals, which its plan
fixes, are the exception (generate_many(embed_floats=True))."""
import math

import numpy as np

from . import _dtypes, _expr, _stride
from ._expr import Leaf, Op, Scalar

ENTRY = "expr"

# Inserts of at most this many elements copy from their own buffer (see
# _Builder._insert).
_SMALL_INSERT = 64

# The scalar dtypes generate_many(embed_floats=True) writes as constants.
_EMBEDDED_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def tensor_type(dtype, rank):
    """A ranked tensor with dynamic sizes: the compiler specializes each
    argument to the array's exact shape and strides. Types are what
    _stride.IRBuilder takes: (element, shape, strides)."""
    return (_dtypes.mlir(dtype), (None,) * rank, None)


def result_type(dtype, shape=None, strides=None):
    """tensor<*xT> (the compiler infers shape and layout), or a static type
    with an explicit layout for a caller's destination."""
    elem = _dtypes.mlir(dtype)
    if shape is None:
        return (elem, None, None)
    if not shape:
        return (elem, (), None)
    return (elem, tuple(shape), tuple(strides))


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
    """Builds the function through _stride.IRBuilder, which makes each op
    with MLIR's builders from its registered name and attributes; values
    are (handle, type) pairs."""
    @staticmethod
    def leaf_key(leaf):
        return leaf_key(leaf.array)

    def __init__(self, embed_floats=False):
        self.ir = _stride.IRBuilder(ENTRY)
        # Float scalars as constants in the text (a @stride.jit trace's
        # literals, fixed for its plan), not arguments: LLVM then folds
        # x / 2 into x * 0.5 and x ** 2 into x * x.
        self.embed_floats = embed_floats
        self.args = []        # Leaf arrays and (value, dtype) scalars, in order
        self.values = {}      # id(Op) -> (handle, type)
        self.leaves = {}      # leaf_key -> (handle, type)
        self.casts = {}       # (handle, dtype) -> (handle, type)
        self.scalars = {}     # id(Scalar) -> (handle, type)
        self.arg_leaves = {}  # argument index -> the Leaf it was made for

    def _arg(self, item, type_):
        self.args.append(item)
        return self.ir.argument(type_), type_

    def operand(self, o, dtype):
        """The value of operand `o` converted to `dtype`."""
        if isinstance(o, Scalar):
            if id(o) not in self.scalars:
                type_ = _dtypes.mlir(dtype)
                if self.embed_floats and dtype in _EMBEDDED_FLOATS:
                    handle = self.ir.constant(float(o.value), type_)
                    self.scalars[id(o)] = (handle, type_)
                else:
                    self.scalars[id(o)] = self._arg((o.value, dtype), type_)
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
            type_ = result_type(dtype)
            # A promotion is part of the consuming op, as in NumPy's ufunc
            # loops and TensorIterator: the attribute lets layout propagation
            # decide the op's layout from the uncast operand.
            cast, = self.ir.op("stride.cast", [value[0]], [type_],
                               {"stride.promotion": True})
            self.casts[k] = (cast, type_)
        return self.casts[k]

    def op(self, node, type_):
        if node.kind == "loopresult":
            handles, types = self.values[id(node.operands[0])]
            k = node.attr
            self.values[id(node)] = (handles[k], types[k])
            return
        ins = [self.operand(o, d) for o, d in zip(node.operands, node.in_dtypes)]
        if node.kind == "loop":
            self._loop(node, ins)
            return
        handles = [h for h, _ in ins]
        if node.kind in ("dynindex", "dyninsert"):
            # A row at a computed index (_dynamic_index): the base as its
            # static type, the row sliced out or inserted at the index.
            handles[0] = self.ir.cast(handles[0], _static(node.operands[0]))
            handles[-1] = self.ir.cast(handles[-1], ("i64", (), None))
            if node.kind == "dynindex":
                res = self.ir.extract_at(handles[0], node.attr, handles[1])
            else:
                res = self.ir.insert_at(handles[1], handles[0], node.attr,
                                        handles[2])
            self.values[id(node)] = (res, _static(node))
            return res
        if node.kind == "copy":
            res = self.ir.copy(handles[0], type_)
        elif node.kind == "insert":
            res, type_ = self._insert(node, ins)
        elif node.kind == "cmp":
            res, = self.ir.op("stride.cmp", handles, [type_],
                              {"predicate": node.attr})
        elif node.kind in _expr.VIEWS:
            res, = self.ir.op(f"stride.{node.kind}", handles, [type_],
                              _view_attrs(node.kind, node.attr))
        elif node.kind in _expr.REDUCTIONS:
            axes, keepdims = node.attr
            attrs = {} if axes is None else {"axes": list(axes)}
            if keepdims:
                attrs["keepdims"] = True
            res, = self.ir.op(f"stride.{node.kind}", handles, [type_], attrs)
        else:
            res, = self.ir.op(f"stride.{node.kind}", handles, [type_])
        self.values[id(node)] = (res, type_)
        return res

    def _loop(self, node, ins):
        """stride.fori_loop: one scf.for whose iter_args are the carried
        arrays (static types, so the Stride ops in the body infer their
        shapes), with the body's nodes built in its region."""
        lower, upper, results, args, index = node.attr
        types = [_static(arg) for arg in args]
        # ins: the carried arrays' initial values, then the loop-invariant
        # values the body reads (_loop_frontier), which are already built
        # in front of the loop and are not carried.
        index_value, *carried = self.ir.begin_loop(
            lower, upper, [h for h, _ in ins[:len(args)]], types)
        for j, arg in enumerate(args):
            self.values[id(arg)] = (carried[j], types[j])
        self.values[id(index)] = (index_value, ("i64", (), None))
        saved = dict(self.casts)
        for body in self._region_order(results):
            self.op(body, result_type(body.dtype))
        handles = self.ir.end_loop([self.values[id(r)][0] for r in results])
        self.casts = saved  # casts made in the region are not visible after it
        self.values[id(node)] = (handles, types)

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

    def _insert(self, node, ins):
        """base[region] = value as destination-passing tensor ops: the
        value is copied into the extracted slice (stride.broadcast with the
        slice as its destination) and inserted back, which One-Shot
        Bufferize does in place in the base's buffer. Returns the result
        and its (static) type."""
        (base, btype), (value, vtype) = ins
        offsets, sizes, strides = node.attr
        if btype[1] is None or None in btype[1]:
            static = _static(node)
            base, btype = self.ir.cast(base, static), static
        source = node.operands[1]
        reads_chain = _reads_chain(node)
        count = math.prod(sizes)
        # An argument is the caller's array: writing into it in place would
        # first copy all of it into a buffer of the kernel's own.
        into_argument = type(node.operands[0]) is _expr.Leaf
        if ((reads_chain or into_argument) and count > _SMALL_INSERT
                and btype[2] is None):
            rest = _complement(btype[1], offsets, sizes, strides)
            if rest is not None and sum(math.prod(s) for _, s in rest) <= count:
                return self._insert_into_fresh(base, btype, value, rest,
                                               offsets, sizes, strides)
        if reads_chain and source.kind in _expr.VIEWS:
            # A view of the array being written, inserted into it: copied
            # first, so the insert does not read what it overwrites.
            value = self.ir.copy(value, result_type(node.dtype))
        if math.prod(sizes) <= _SMALL_INSERT or reads_chain:
            # Computed into its own buffer, then inserted (one copy of the
            # region). The destination-passing form below computes big
            # regions in place, but when the value reads the array it is
            # written into (a stencil, u[1:-1] = u[:-2] + u[2:]) One-Shot
            # resolves that by copying every overlapping read instead; and
            # for a few elements One-Shot's subset matching of its
            # extract_slice dominates compile time in long chains of
            # element writes (an unrolled Python loop).
            return self.ir.insert_slice(value, base, offsets, sizes,
                                        strides), btype
        part = self.ir.extract_slice(base, offsets, sizes, strides)
        written = self.ir.copy(value, (btype[0], tuple(sizes), None), part)
        return self.ir.insert_slice(written, base, offsets, sizes,
                                    strides), btype

    def _insert_into_fresh(self, base, btype, value, rest, offsets, sizes,
                           strides):
        """base[region] = value where value reads base (a stencil step,
        u[1:-1] = u[:-2] + u[2:]), as a new array: the elements outside
        the region (`rest`, boxes) are copied from base, and value is
        computed straight into the region. Writing base in place would need
        value in a buffer of its own first and then a copy of the whole
        region; this moves the region once, plus the (smaller) rest."""
        fresh = self.ir.op("tensor.empty", [], [btype], {})[0]
        ones = [1] * len(sizes)
        for box_offsets, box_sizes in rest:
            part = self.ir.extract_slice(base, box_offsets, box_sizes, ones)
            fresh = self.ir.insert_slice(part, fresh, box_offsets, box_sizes,
                                         ones)
        part = self.ir.extract_slice(fresh, offsets, sizes, strides)
        written = self.ir.copy(value, (btype[0], tuple(sizes), None), part)
        return self.ir.insert_slice(written, fresh, offsets, sizes,
                                    strides), btype


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


def _complement(shape, offsets, sizes, strides):
    """The elements of an array of `shape` outside the box at `offsets` of
    `sizes` (unit `strides`), as disjoint boxes [(offsets, sizes)]: per dim
    d, the part before and after the box in d, within the box in the dims
    before d and whole in the dims after it. None for a strided region."""
    if any(s != 1 for s in strides):
        return None
    boxes = []
    for d, (n, o, s) in enumerate(zip(shape, offsets, sizes)):
        for start, stop in ((0, o), (o + s, n)):
            if stop > start:
                box_offsets = list(offsets[:d]) + [start] + [0] * (len(shape) - d - 1)
                box_sizes = list(sizes[:d]) + [stop - start] + list(shape[d + 1:])
                if math.prod(box_sizes):
                    boxes.append((box_offsets, box_sizes))
    return boxes


def _static(node):
    """The ranked static tensor type of `node`'s shape (no layout)."""
    return (_dtypes.mlir(node.dtype), tuple(node.shape), None)


# The attribute each view op (StrideViewOps.td) takes its parameter as.
_VIEW_ATTRS = {"permute": "perm", "expand": "shape", "squeeze": "dims",
               "unsqueeze": "dim", "flip": "dims", "reshape": "shape"}
# An omitted start, stop or step of stride.slice (SliceOp::kNone).
_SLICE_NONE = -2 ** 63


def _view_attrs(kind, attr):
    """The attributes of view op `kind` for the node's parameter."""
    if kind == "slice":
        part = lambda v: _SLICE_NONE if v is None else v
        return {"starts": [part(a) for a, _, _ in attr],
                "stops": [part(b) for _, b, _ in attr],
                "steps": [part(c) for _, _, c in attr]}
    if attr is None:  # squeeze of every size-1 dim
        return {}
    return {_VIEW_ATTRS[kind]: attr if kind == "unsqueeze" else list(attr)}


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


def generate_many(roots, out_layouts=None, leaf_keys=None, embed_floats=False):
    """generate for a function of several results (one per root, computed
    by one kernel). `leaf_keys` maps id(Leaf) to the key that decides which
    leaves are one argument (default: same memory and layout). Also returns
    the Leaf behind each array argument. With `embed_floats`, float32 and
    float64 scalars are constants of the text instead of arguments (a
    trace's literals, which its plan fixes)."""
    b = _Builder(embed_floats)
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
    # A tensor op's static result is cast to the declared type (its shape
    # forgotten) by finish.
    text = b.ir.finish([b.values[id(r)][0] for r in roots],
                       [ret_types[id(r)] for r in roots])
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
