"""MLIR for a lazy expression: one func.func, one Stride op per node, leaves
and scalars as arguments. The text depends only on the expression's
structure and dtypes (never on values, array identities or sizes), so it is
the structural part of the kernel cache key."""
from . import _dtypes
from ._expr import Leaf, Op, Scalar

ENTRY = "expr"


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


def _postorder(root):
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


class _Builder:
    def __init__(self):
        self.args = []        # Leaf arrays and (value, dtype) scalars, in order
        self.arg_types = []
        self.lines = []
        self.values = {}      # id(Op) -> (name, type)
        self.leaves = {}      # leaf_key -> (name, type)
        self.casts = {}       # (name, dtype) -> (name, type)
        self.scalars = {}     # id(Scalar) -> (name, type)

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
            k = leaf_key(o.array)
            if k not in self.leaves:
                self.leaves[k] = self._arg(o.array, tensor_type(o.dtype, o.ndim))
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
        ins = [self.operand(o, d) for o, d in zip(node.operands, node.in_dtypes)]
        names = ", ".join(n for n, _ in ins)
        types = ", ".join(t for _, t in ins)
        res = f"%v{len(self.values)}"
        if node.kind in ("bool", "copy"):
            self._broadcast(res, node, ins, type_)
        elif node.kind == "cmp":
            self.lines.append(f"{res} = stride.cmp {node.attr}, {names} : {types} -> {type_}")
        else:
            self.lines.append(f"{res} = stride.{node.kind} {names} : {types} -> {type_}")
        self.values[id(node)] = (res, type_)
        return res

    def _broadcast(self, res, node, ins, type_):
        """A stride.broadcast whose body is one arith op (bool logic) or
        nothing (a copy)."""
        elem = _dtypes.mlir(node.in_dtypes[0])
        n = len(self.values)
        block = [f"%b{n}_{i}" for i in range(len(ins))]
        self.lines.append(
            f"{res} = stride.broadcast ins({', '.join(n for n, _ in ins)} : "
            f"{', '.join(t for _, t in ins)}) -> {type_} {{")
        self.lines.append(f"^bb0({', '.join(f'{b}: {elem}' for b in block)}):")
        if node.kind == "copy":
            out = block[0]
        else:
            out = f"%b{n}_r"
            self.lines.append(f"  {out} = arith.{node.attr} {block[0]}, {block[1]} : {elem}")
        self.lines.append(f"  stride.yield {out} : {elem}")
        self.lines.append("}")


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
    b = _Builder()
    nodes = _postorder(root)
    _number_arguments(b, root)
    for node in nodes[:-1]:
        b.op(node, result_type(node.dtype))
    ret_type = result_type(root.dtype, out_shape, out_strides)
    res = b.op(root, ret_type)
    body = "\n".join("  " + line for line in b.lines)
    text = (f"func.func @{ENTRY}({', '.join(b.arg_types)}) -> {ret_type} {{\n"
            f"{body}\n  return {res} : {ret_type}\n}}\n")
    return text, b.args
