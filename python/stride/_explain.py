"""stride.explain: why a kernel's result has its strides, how it loops and
what it fuses, in words (the compiler's stride-explain remarks) and, with
picture=, as an image of each array's memory traversal."""
import numpy as np

from . import _codegen, _expr, _run, _stride, _table
from ._trace import JitFunction


class Explanation:
    """What stride.explain returns: `text` (also its str), the per-op
    `remarks` after layout propagation, the per-kernel `kernels` after
    fusion and coalescing, the `decisions` of the passes that choose how the
    kernels run (row loops, threads, tiling) for `threads` threads, the
    arrays drawn (`arrays`: name, shape, element strides) and the `picture`
    path if one was drawn."""

    def __init__(self, policy, ops, kernels, decisions, threads, arrays,
                 picture):
        self.policy = policy
        self.remarks = [m for _, m in ops]
        self.kernels = [m for _, m in kernels]
        self.decisions = _first_per_kernel(decisions)
        self.threads = threads
        self.arrays = arrays
        self.picture = picture
        lines = [f"policy {policy}, {threads} thread(s):"]
        lines += ["  op: " + _strip(m) for m in self.remarks]
        lines += ["  kernel: " + _strip(m) for m in self.kernels]
        lines += ["  decision: " + _strip(m) for m in self.decisions]
        lines += [f"  {name}: shape {_table.fmt(shape)}, element strides "
                  f"{list(strides)}" for name, shape, strides in arrays]
        self.text = "\n".join(lines)

    def __str__(self):
        return self.text

    def __repr__(self):
        return self.text

    def _repr_png_(self):
        """Jupyter shows the traversal picture."""
        import io
        buffer = io.BytesIO()
        _draw(self.arrays, buffer)
        return buffer.getvalue()


def _strip(message):
    return message.split("stride-explain: ", 1)[-1]


def _first_per_kernel(decisions):
    """A reduction's kernel is several loop nests (lanes, then their fold),
    each of which decides its threads: the first, the one over the input,
    speaks for the kernel. A decision said twice for one op is listed
    once."""
    seen, kept = set(), []
    for where, message in decisions:
        kind = _strip(message).split(":", 1)[0]
        # The blocks of a symmetric product each repeat their tiling.
        if ((kind == "threads" and (where, kind) in seen)
                or (where, message) in seen):
            continue
        seen.add((where, kind))
        seen.add((where, message))
        kept.append(message)
    return kept


def explain(obj, *args, policy=None, picture=None, threads=None):
    """Explain the kernel that computes `obj`: a lazy expression
    (stride.explain(expr)), a @stride.jit function called with `args`
    (traced, not run), or a stride.compile Function with `args`. With
    picture="file.png", also draws each input's and the result's memory
    traversal (matplotlib). `threads` is the thread count the decisions are
    made for: by default the function's own (@stride.jit(threads=)), else
    stride.set_threads's, else $STRIDE_NUM_THREADS or the machine's cores."""
    if isinstance(obj, _expr.Expr):
        if args:
            raise TypeError("stride.explain(expr) takes no arguments")
        policy = policy or "torch"
        _table.check_policy(policy)
        root = _expr.as_root(obj)
        text, call_args = _codegen.generate_cached(root)
        layouts = _run.kernel_layouts(call_args)
        entry = _codegen.ENTRY
        names = [f"input #{i}" for i in range(len(layouts))]
    elif isinstance(obj, JitFunction):
        if policy is not None and policy != obj.policy:
            raise ValueError(f"this function compiles under policy "
                             f"{obj.policy!r}; explain it under that policy")
        policy = obj.policy
        if threads is None:
            threads = obj.threads
        traced = obj.kernel_text(args)
        plan_notes = [(None, f"plan: {name} runs as NumPy's own function "
                             f"between kernels (Stride has no op for it); "
                             f"the kernel explained is the plan's last"
                             + line)
                      for name, line in obj.numpy_calls(args)]
        if traced is None:
            raise TypeError(f"{obj.fn.__name__} computes nothing with "
                            f"these arguments: there is no kernel to explain")
        (text, layouts), entry = traced, _codegen.ENTRY
        names = [f"kernel input #{i}" for i in range(len(layouts))]
    elif isinstance(obj, _run.Function):
        policy = policy or obj.policy
        _table.check_policy(policy)
        layouts = []
        for a in args:
            if isinstance(a, np.ndarray):
                a = _run.prepare(a)
                layouts.append((a.shape, _run.element_strides(a)))
            else:
                layouts.append(None)
        text, entry = obj.mlir_text, obj.entry
        names = [f"argument #{i}" for i in range(len(layouts))]
    else:
        raise TypeError("stride.explain takes a lazy expression, a "
                        "@stride.jit function or a stride.compile Function, "
                        f"got {type(obj).__name__}")
    spec = [None if l is None else (tuple(l[0]), tuple(l[1]))
            for l in layouts]
    if threads is None:
        threads = _run.get_threads()
    report = _stride.explain(text, entry, spec, policy, threads=int(threads))
    if isinstance(obj, JitFunction):
        report["decisions"] = plan_notes + list(report["decisions"])
    arrays = [(n, l[0], l[1]) for n, l in zip(names, spec) if l is not None]
    arrays += [(f"result #{j}", tuple(shape), tuple(strides))
               for j, (shape, strides) in enumerate(report["results"])]
    if picture is not None:
        _draw(arrays, picture)
    return Explanation(policy, report["ops"], report["kernels"],
                       report["decisions"], report["threads"], arrays, picture)


def _traversal(shape, strides):
    """Each element's place in memory order (0 = lowest address) as a 2-D
    grid: leading dims flattened into rows, the last dim across."""
    shape = tuple(shape) or (1,)
    strides = tuple(strides) or (0,)
    index = np.indices(shape).reshape(len(shape), -1)
    address = (np.array(strides, dtype=np.int64)[:, None] * index).sum(0)
    order = np.unique(address, return_inverse=True)[1]
    rows = int(np.prod(shape[:-1])) if len(shape) > 1 else 1
    return order.reshape(rows, shape[-1])


def _draw(arrays, target):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    n = max(1, len(arrays))
    fig, axes = plt.subplots(1, n, figsize=(3 * n, 3), dpi=100, squeeze=False)
    for ax, (name, shape, strides) in zip(axes[0], arrays):
        grid = _traversal(shape, strides)
        ax.imshow(grid, cmap="viridis", aspect="auto")
        if grid.size <= 64:
            for (r, c), v in np.ndenumerate(grid):
                ax.text(c, r, str(v), ha="center", va="center", fontsize=7,
                        color="white")
        ax.set_title(f"{name}\n{_table.fmt(shape)} strides {list(strides)}",
                     fontsize=8)
        ax.set_xticks([])
        ax.set_yticks([])
    for ax in axes[0][len(arrays):]:
        ax.axis("off")
    fig.savefig(target, format="png", dpi=100)
    plt.close(fig)
