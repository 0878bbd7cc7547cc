"""stride.compile(..., distribute=comm): a Stride function partitioned over
the ranks of an mpi4py communicator, each rank calling it on its own blocks
(docs/python.md, docs/distributed.md).

The kernel is the one `mpirun -np N stride-run --distribute GRID` runs: the
entry, specialized to its declared static shapes, partitioned by
stride-distribute and upstream's shard-partition, its collectives calling
Stride's MPI runtime. That runtime talks over a duplicate of
MPI_COMM_WORLD, so the communicator must hold every rank of the job, in
the same order."""
import numpy as np

from . import _dtypes, _run, _table

try:
    from . import _stride
except ImportError:  # pragma: no cover - the extension is built with the package
    _stride = None


def _grid_coords(rank, grid):
    coords = []
    for size in reversed(grid):
        coords.append(rank % size)
        rank //= size
    return tuple(reversed(coords))


def _box(param, grid, coords):
    """The (start, size) per dim of the block that grid coordinates
    `coords` hold of a parameter split as param["split"] says."""
    box = []
    for d, size in enumerate(param["shape"]):
        blocks, index = 1, 0
        for axis, dim in enumerate(param["split"]):
            if dim == d:
                blocks *= grid[axis]
                index = index * grid[axis] + coords[axis]
        box.append((index * (size // blocks), size // blocks))
    return box


class DistributedFunction:
    """`entry` of `mlir_text` compiled for one rank of `grid` over the
    ranks of `comm`. Calling it runs the rank's kernel on the rank's blocks
    (dense arrays of the shapes `local_shapes` gives) and returns the
    rank's blocks of the results; `block` cuts a rank's block out of a whole
    argument and `gather` assembles whole results on one rank."""

    def __init__(self, mlir_text, entry, comm, grid=None, strategy="auto",
                 policy="torch", fuse=True):
        _table.check_policy(policy)
        if not isinstance(mlir_text, str) or not isinstance(entry, str):
            raise TypeError("stride.compile expects the IR text and the entry "
                            "function's name as strings")
        for method in ("Get_size", "Get_rank", "allgather", "gather"):
            if not hasattr(comm, method):
                raise TypeError("distribute= expects an mpi4py communicator "
                                f"(it has no {method}), got "
                                f"{type(comm).__name__}")
        from mpi4py import MPI  # the communicator's own package
        world = MPI.COMM_WORLD
        if (comm.Get_size() != world.Get_size()
                or comm.Get_rank() != world.Get_rank()):
            raise ValueError(
                "distribute= needs a communicator over every rank of the job "
                "in MPI_COMM_WORLD's order (COMM_WORLD or a duplicate): "
                "Stride's MPI runtime talks over MPI_COMM_WORLD; this one has "
                f"{comm.Get_size()} of {world.Get_size()} ranks")
        grid = str(comm.Get_size()) if grid is None else str(grid)
        self.comm, self.entry = comm, entry.lstrip("@")
        self.rank, size, self.library = _stride.mpi_init()
        if size != comm.Get_size():
            raise ValueError(f"distribute=: the MPI runtime sees {size} ranks, "
                             f"the communicator {comm.Get_size()}")
        self.kernel, plan = _stride.compile_distributed(
            mlir_text, self.entry, grid, strategy, policy, bool(fuse),
            _run.get_threads())
        self.grid = tuple(plan["grid"])
        if int(np.prod(self.grid)) != size:
            raise ValueError(f"distribute=: grid {grid} has "
                             f"{int(np.prod(self.grid))} ranks, the "
                             f"communicator {size}")
        self.inputs, self.outputs = plan["inputs"], plan["outputs"]
        self.coords = _grid_coords(self.rank, self.grid)

        def shapes(params):
            return [tuple(n for _, n in _box(p, self.grid, self.coords))
                    if p["tensor"] else None for p in params]
        # The shapes of this rank's blocks: (inputs, outputs); None for a
        # scalar input.
        self.local_shapes = shapes(self.inputs), shapes(self.outputs)

    def block(self, i, array):
        """This rank's block of whole argument #i (a dense copy)."""
        param = self.inputs[i]
        array = np.asarray(array)
        if tuple(array.shape) != tuple(param["shape"]):
            raise ValueError(f"argument #{i} has shape {array.shape}, the "
                             f"entry declares {tuple(param['shape'])}")
        index = tuple(slice(s, s + n)
                      for s, n in _box(param, self.grid, self.coords))
        return np.ascontiguousarray(array[index])

    def __call__(self, *blocks):
        inputs_shapes = self.local_shapes[0]
        if len(blocks) != len(self.inputs):
            raise TypeError(f"@{self.entry} takes {len(self.inputs)} "
                            f"arguments, got {len(blocks)}")
        inputs = []
        for i, (a, param, shape) in enumerate(zip(blocks, self.inputs,
                                                   inputs_shapes)):
            if not param["tensor"]:
                inputs.append(a.item() if isinstance(a, np.generic) else a)
                continue
            if not isinstance(a, np.ndarray):
                raise TypeError(f"argument #{i}: expected this rank's block as "
                                f"a numpy.ndarray, got {type(a).__name__}")
            _dtypes.check(a.dtype, f"argument #{i}")
            if tuple(a.shape) != shape:
                raise ValueError(
                    f"argument #{i}: rank {self.rank} holds a block of shape "
                    f"{shape} of the whole {tuple(param['shape'])} (split "
                    f"{param['split']} over grid {self.grid}), got "
                    f"{a.shape}; stride.Function.block cuts it")
            inputs.append(np.ascontiguousarray(a))
        outputs = [_run.allocate(p) for p in self.kernel.outputs]
        self.kernel(inputs, outputs)
        if not outputs:
            return None
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def gather(self, j, block, root=0):
        """Result #j whole on rank `root` (None on the others), from every
        rank's block, laid out in the single-process strides."""
        param = self.outputs[j]
        pieces = self.comm.gather((self.coords, np.asarray(block)), root=root)
        if self.comm.Get_rank() != root:
            return None
        dtype = np.asarray(block).dtype
        if any(st < 0 for st in param["strides"]):
            whole = np.empty(tuple(param["shape"]), dtype)
        else:
            whole = np.lib.stride_tricks.as_strided(
                np.empty(_run_span(param), dtype),
                shape=tuple(param["shape"]),
                strides=tuple(st * dtype.itemsize for st in param["strides"]))
        for coords, piece in pieces:
            index = tuple(slice(s, s + n)
                          for s, n in _box(param, self.grid, coords))
            whole[index] = piece
        return whole

    def __repr__(self):
        return (f"<stride.DistributedFunction @{self.entry} grid "
                f"{'x'.join(map(str, self.grid))}, rank {self.rank}>")


def _run_span(param):
    """Elements a buffer of param's shape and (non-negative) strides
    spans."""
    if any(n == 0 for n in param["shape"]):
        return 0
    return 1 + sum((n - 1) * abs(s) for n, s in zip(param["shape"],
                                                    param["strides"]))


def compile(mlir_text, entry, policy="torch", fuse=True,
            keep_result_layouts=False, cache=False, distribute=None,
            grid=None, strategy="auto"):
    """A callable for function `entry` of hand-written Stride IR (see
    _run.Function); cache=True keeps its kernels on disk for later
    processes.

    distribute=comm (an mpi4py communicator over every rank of an mpirun
    job) compiles the entry, at its declared static shapes, for one rank of
    `grid` (default: all ranks in a line; "2x2" for a grid) split by
    `strategy` (auto, rows, cols, k): see DistributedFunction."""
    if distribute is not None:
        if cache or keep_result_layouts:
            raise ValueError("distribute= does not combine with cache= or "
                             "keep_result_layouts=")
        return DistributedFunction(mlir_text, entry, distribute, grid,
                                   strategy, policy, fuse)
    if grid is not None or strategy != "auto":
        raise ValueError("grid= and strategy= need distribute=")
    return _run.compile(mlir_text, entry, policy, fuse, keep_result_layouts,
                        cache)
