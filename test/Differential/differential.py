#!/usr/bin/python3
"""Differential test of the Stride compiler against NumPy and PyTorch.

Generates random, seeded Stride programs (one `func.func @main` each), runs
every one through the `stride-run` JIT runner, and checks

* the values of every result against NumPy evaluating the same expression on
  the logical input arrays, and
* the strides the compiler chose for every result against the policy's eager
  library evaluating the program op by op on inputs that really have the
  declared strides: PyTorch (`torch.empty_strided`/`as_strided`, `.stride()`)
  for policy `torch`, NumPy (`np.lib.stride_tricks.as_strided`,
  `.strides // itemsize`) for policy `numpy`.

What the programs contain
-------------------------
* Elementwise expression trees (DAGs: an intermediate may be used twice) of
  1-6 ops over 1-3 tensor arguments, with scalar constants (`arith.constant`)
  and scalar arguments in any operand position, the first included:
  `stride.add sub mul div maximum minimum neg abs exp tanh sigmoid`, and
  `stride.select` whose condition is a `stride.cmp` (eq ne lt le gt ge) or,
  sometimes, an `i1` tensor argument. Element types f32 (mostly), f64, i32
  (no exp/tanh/sigmoid on integers; integer `div` only by a non-zero constant
  or by `abs(x) + 1`).
* Matmuls: `stride.matmul` with broadcast batch dims and 1-D operands on
  either side, operands sometimes computed by an elementwise op, the product
  sometimes followed by 1-2 elementwise ops; f32.
* Some programs return two results (the second an intermediate, possibly an
  `i1` comparison).
* Argument layouts: row-major (no encoding), permuted (as `strides = [...]` or
  `perm = [...]`), sliced (steps and row padding), broadcast (stride 0 on dims
  of size > 1, with the .npy values constant along them), size-1 dims with
  arbitrary strides, zero-size dims, and negative strides (policy numpy only:
  PyTorch has none). Ranks 0-4, sizes 0-5 (one dim of 6-40 in ~10% of the
  shapes, matmul m/n/k up to 24 now and then, for vector and tile
  remainders), operand shapes that broadcast. Inputs are written as C- or
  Fortran-ordered .npy files.
* About 70% policy torch, 30% policy numpy.
* Composition (issue 11), which changes the module but not what it means:
  ~20% of programs sit in a private `@body` that `@main` calls, ~20% are
  recomputed in a one-trip `scf.for` that carries the results (so the loop
  carries their layouts); a row-major argument sometimes arrives as a
  `tensor.extract_slice` of an argument one row larger (~20%) and/or through
  a `linalg.generic` copy on tensors (~15%). These draw from their own
  random stream, so the programs themselves are those of earlier versions.

Modes
-----
The default programs are small (the list above). Three options change the
generator; each draws program I of seed S from a random stream of its own,
so each mode's cases are reproducible alone like the default's:

* `--large` (large.py): the same elementwise trees (2-3 tensor arguments)
  and matmuls with shapes across the CPU codegen's tile, vector and
  threading boundaries: elementwise result shapes of 1-4 dims of 1-130
  (biased towards 7-9, 15-17, 31-33, 63-65, 127-130), shapes with a row of
  512-2,100 elements, and shapes of 0.6-1.6 M elements, so that kernels move
  more than the 2 MiB at which they run in parallel
  (lib/Dialect/Stride/Transforms/Bufferization/Parallel.cpp); matmul m/n/k of 1-130 and,
  for ~30% of the dims, 64-300 (cache-blocked by stride-tile-matmul), and
  ~15% of the matmuls over the 2^24 operations that make them parallel
  (m, n of 160-300, k to match). Argument layouts as in
  the default mode, transposed (the innermost two dims swapped) in about
  half of the otherwise row-major ones and, under numpy, reversed along a
  dim in about half, so that stride-block-transposes sees operands
  contiguous along different loops, with and without negative strides.
  Buffers are bounded: a program holds at most ~4.2 M elements (redrawn from
  a further stream otherwise). Both policies equally; each program runs with
  `--num-threads` 1 or 2 (drawn per program).
* `--feed` (feed.py): programs whose `scf.for` and `func.call` results feed
  later Stride ops. @main computes sometimes a few elementwise ops, then one
  or two stages, each
  - an `scf.for` of 2-4 trips (lower bound, step and upper bound vary)
    carrying one or two tensors: the initial value is an argument (row-major,
    permuted, sliced or, under numpy, reversed: never stride 0, which a
    loop-carried value cannot keep) or an op result, and each iter_arg is
    declared `tensor<*xT>`, the static unencoded `tensor<SxT>` or the
    argument's own (encoded) type, with the `tensor.cast`s that needs; the
    body yields `c * x + g(...)` (c in +-0.25..0.75), a squashed
    `tanh/sigmoid/clamp(g(x, ...))` or `squash(x @ W + ...)` (f32), where g
    is an elementwise tree of the carried values, arguments, earlier values
    and constants, sometimes through a call of a private function;
  - a `func.call` of a private function whose parameters are declared as
    the operand's type, `tensor<*xT>` or static unencoded, computing an
    elementwise tree (1-2 results) or a matmul of its parameters; sometimes
    the function holds a loop of its own;
  then elementwise ops, and for f32 sometimes a matmul (lhs or rhs) and an
  op after it, that use every loop and call result; the last is returned,
  sometimes with a loop or call result itself. f32, f64 and i32 (integers
  are clamped instead of squashed); ~60% policy torch; 1 or 2 threads.
* `--large --feed`: the feed programs with the large mode's shapes and
  bounded layouts.
* `--reduce` (reductions.py; with or without `--large`): the elementwise
  trees with reductions inside. A subtree is reduced (`stride.sum prod amax
  amin mean argmax argmin`) over one, several or all axes (some negative):
  with `keepdims`, so that the result broadcasts back into the tree (`x -
  amax(x, keepdims)`); over leading axes without it; or to a 0-d tensor.
  A result of another element type (an integer sum or an arg-reduction is
  i64, an integer mean f64) goes through `stride.cast` back to the tree's.
  A `select`'s comparison is sometimes reduced by `stride.any`/`all`; the
  whole tree is sometimes reduced at the end and the reduced value put
  through one more elementwise op; ~25% of the float programs are softmax
  or a normalization (mean, centred square mean) over random axes, the
  groups stride-fuse-rows makes row loops of. Values: NumPy's reduction;
  a float sum's bound is that of any summation order (the operands'
  errors plus (m - 1) u sum|x| over m elements), max/min keep the largest
  operand error; arg-reductions, any/all and products of floats only read
  exactly computed values. Strides: torch.sum/amax/amin/mean/argmax
  (prod, any, all one dim at a time) and `Tensor.to`, or NumPy's
  functions and `astype`. With `--large`: the large mode's shapes,
  layouts and threads (row loops, parallel reductions). It combines with
  `--python`, `--no-fuse`, `--layout-only`, `--target gpu-host` and
  `--distribute N`, not with `--feed`.
* `--python` (with any of the above): each program runs through the Python
  package instead of stride-run: pyrun.py calls `stride.compile(text,
  "main", policy=P, fuse=...)` on NumPy arrays that really have the declared
  strides, after `stride.set_threads(N)`, checks that no input was written,
  and prints and saves the results as stride-run does (`--python-path DIR`:
  the stride package, default the python/ folder next to stride-run's
  bin/).

* `--distribute N` or `--distribute NxM` (with or without `--large`): each
  program runs on N ranks (or a grid of N*M), `mpirun -np N stride-run
  --distribute N` (running.py), under
  OpenMPI and MPICH in turn (`--mpi` picks one). The programs are the
  mode's, uncomposed: calls, loops, slices and linalg copies have no
  sharding rules yet. A program that stride-distribute refuses on purpose
  (docs/distributed.md: no dim that N ranks divide evenly, a 0-d result)
  counts as refused, not failed, and the run prints the refusals by reason;
  at least a third of the programs must run distributed. What runs must
  give the single-process values and the policy's strides, checked by the
  same oracles.

The oracles are the same in every mode. A loop is evaluated its trip count
times; after each iteration the carried value is copied into the layout of
its initial value (a fresh `torch.empty_strided` / NumPy buffer with those
strides), which is what the compiler does with a body result of another
layout (docs/composition.md, "Control flow"), so the loop result and what
later ops compute from it have those strides. A call is its function's ops
applied to the operands.

Oracles
-------
* Values: NumPy on the logical arrays, in the program's element type. Integer
  `div` truncates toward zero (C), sigmoid is `1 / (1 + exp(-x))`. Integers
  must match exactly, i1 too. Floats pass where
  `|got - want| <= 1e-6 + 1e-5 * |want| + 4 * bound`, NaN matching NaN and
  infinities matching exactly, where `bound` is a bound on the rounding
  error of the expression (unit roundoff per exactly rounded op, 8 ulps per
  exp/tanh/sigmoid, k*u*sum|a||b| per matmul, propagated through the ops:
  products add e_x*e_y, exp multiplies by exp(e)-1, tanh and sigmoid move
  at most 2 and 1, a division by y with error e_y >= |y| is unbounded; an
  exact zero times an unbounded error adds nothing, x / inf of a finite x
  is exact, and an exactly rounded op on exact operands is exact even when
  it overflows). Without it, cancellation after exp or a matmul (for
  example exp(exp(x)) - y) makes plain `allclose(rtol=1e-5, atol=1e-6)`
  fail on correct results; where the bound is 0 the test is exactly that
  allclose, and a finite expected value with an unbounded error (1 / (x -
  y) after cancellation in a loop) is not compared.
  `stride.cmp` operands never contain exp/tanh/sigmoid or a matmul, so both
  sides compute bit-identical conditions.
* Strides, policy torch: torch ops one by one (torch.add, torch.div with
  rounding_mode='trunc' for integers, torch.where, torch.eq..., torch.matmul).
  Scalars are 0-d tensors of the program's dtype: to TensorIterator a Python
  scalar is a 0-d tensor too (a "wrapped number", which only matters for type
  promotion), and torch.maximum/minimum accept no Python scalars.
* Strides, policy numpy: NumPy ufuncs one by one (np.where for select,
  np.matmul); scalars are NumPy scalars of the program's dtype. NumPy has no
  sigmoid and no truncating integer division ufunc; any unary (binary) ufunc
  gives the same output layout, so np.exp (np.floor_divide) stands in for the
  strides, while the values come from the value oracle above.

Known, documented divergences
-----------------------------
* Policy torch, a program with a matmul: torch.matmul's output layout is
  row-major except for the strides of size-1 dims, which depend on which of
  its internal paths (fold into mm, transpose, bmm) it takes: e.g. a (3,4) @
  (2,4,1) product has strides (3,1,3) in torch 1.13, (3,1,1) row-major. Those
  strides leak into elementwise results that copy them. Stride gives matmul
  results the row-major layout, so a matmul program also passes when its
  strides differ from torch's only on size-1 dims (which address no memory
  differently), or when the result is empty (its strides address nothing:
  torch 1.13 gives e.g. (0, 0, 1, 0) for an empty batched product); the run
  prints a `note:` for each such case.

Usage
-----
    test/Differential/differential.py [--stride-run PATH] [--count N]
        [--seed S] [--keep DIR] [--verbose] [--jobs J] [--case I ...]
        [--self-check] [--layout-only [--stride-opt PATH]] [--no-fuse]
        [--large] [--feed | --reduce] [--python [--python-path DIR]]
        [--distribute N [--mpi openmpi|mpich|both]]

Case I of seed S is the same program whatever --count is, so a failure is
reproduced alone with `--seed S --case I --keep DIR --verbose` (and the
mode's options: the FAIL block's `reproduce:` line has them).
`--self-check` runs no compiler: it checks the generator and the oracles
against each other (strided inputs read back their logical values; the torch
and numpy op-by-op evaluations give the value oracle's values).
`--layout-only` checks only result shapes and strides, through
`stride-opt --stride-infer-shapes --stride-propagate-layout=policy=P`.

The last line of output is `differential: N passed, M failed`; the exit
status is non-zero on any failure.
"""
from common import *  # noqa: F401,F403
from program import *  # noqa: F401,F403
from layouts import *  # noqa: F401,F403
from generator import *  # noqa: F401,F403
from oracles import *  # noqa: F401,F403
from comparison import *  # noqa: F401,F403
from running import *  # noqa: F401,F403
from large import generate_large
from feed import generate_feed
from reductions import generate_reduce


def main():
    ap = argparse.ArgumentParser(
        description="Differential test of stride-run against NumPy and PyTorch.")
    ap.add_argument("--stride-run", default="build/bin/stride-run")
    ap.add_argument("--stride-opt", default="build/bin/stride-opt")
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--case", type=int, action="append",
                    help="run only this case index (repeatable)")
    ap.add_argument("--keep", metavar="DIR",
                    help="keep every generated case under DIR")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--no-fuse", action="store_true",
                    help="compile with one kernel per op: fusion must not "
                         "change any value or stride")
    ap.add_argument("--target", default="cpu", choices=["cpu", "gpu-host"],
                    help="stride-run --target: gpu-host runs the GPU "
                    "kernels on the host, grid and block enumerated")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--self-check", action="store_true",
                    help="check the generator and oracles only; no compiler")
    ap.add_argument("--layout-only", action="store_true",
                    help="check shapes and strides only, through stride-opt")
    ap.add_argument("--large", action="store_true",
                    help="large shapes: across the CPU codegen's tile, vector "
                    "and threading boundaries, on 1 and 2 threads")
    ap.add_argument("--feed", action="store_true",
                    help="programs whose scf.for and func.call results feed "
                    "later Stride ops (with --large: large shapes)")
    ap.add_argument("--reduce", action="store_true",
                    help="reductions inside the expression trees (with "
                    "--large: large shapes, 1 or 2 threads)")
    ap.add_argument("--python", action="store_true",
                    help="run the programs through the Python package "
                    "(stride.compile on strided NumPy arrays) instead of "
                    "stride-run")
    ap.add_argument("--distribute", default="", metavar="N|NxM",
                    help="run each program on N ranks, or a grid NxM of "
                    "ranks, under mpirun (stride-run --distribute N), the "
                    "programs without composition (no calls, loops or "
                    "slices)")
    ap.add_argument("--mpi", default="both", choices=["openmpi", "mpich", "both"],
                    help="with --distribute: the MPI launcher (both: in turn)")
    ap.add_argument("--python-path", metavar="DIR",
                    help="where the stride package is (default: the python/ "
                    "folder of stride-run's build)")
    opts = ap.parse_args()

    indices = opts.case if opts.case else list(range(opts.count))
    # Relative default paths also work from outside the repository root.
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for attr in ("stride_run", "stride_opt"):
        path = getattr(opts, attr)
        if not os.path.isabs(path) and not os.path.exists(path) \
                and os.path.exists(os.path.join(root, path)):
            setattr(opts, attr, os.path.join(root, path))
    tool = opts.stride_opt if opts.layout_only else opts.stride_run
    if not opts.python_path:
        opts.python_path = os.path.join(
            os.path.dirname(os.path.dirname(os.path.abspath(opts.stride_run))),
            "python")
    if opts.python and not opts.self_check:
        tool = os.path.join(opts.python_path, "stride", "__init__.py")
        if not os.path.isfile(tool):
            print(f"differential: no stride package in {opts.python_path}",
                  file=sys.stderr)
            print(f"differential: 0 passed, {len(indices)} failed")
            return 1
    elif not opts.self_check and not (os.path.isfile(tool) and os.access(tool, os.X_OK)):
        print(f"differential: {tool} not found or not executable", file=sys.stderr)
        print(f"differential: 0 passed, {len(indices)} failed")
        return 1

    if opts.reduce and opts.feed:
        print("differential: --reduce and --feed are separate generators",
              file=sys.stderr)
        return 2
    if opts.distribute:
        if opts.feed or opts.python or opts.layout_only or opts.target != "cpu":
            print("differential: --distribute runs stride-run on the CPU; it "
                  "does not combine with --feed, --python, --layout-only or "
                  "--target", file=sys.stderr)
            return 2
        if not all(p.isdigit() and int(p) >= 1
                   for p in opts.distribute.split("x")):
            print("differential: --distribute needs a positive rank count "
                  "or a grid NxM", file=sys.stderr)
            return 2
        if not opts.self_check and not available_launchers(opts):
            print(f"differential: no MPI launcher found for --mpi {opts.mpi} "
                  f"({', '.join(MPI_LAUNCHERS[n][0] for n in MPI_LAUNCHERS)}); "
                  "run scripts/setup.sh", file=sys.stderr)
            print(f"differential: 0 passed, {len(indices)} failed")
            return 1

    def make(seed, index):
        if opts.feed:
            return generate_feed(seed, index, large=opts.large)
        if opts.reduce:
            case = generate_reduce(seed, index, large=opts.large)
        else:
            case = generate_large(seed, index) if opts.large else \
                generate(seed, index)
        if opts.distribute:
            # Calls, loops, slices and linalg copies have no sharding rules
            # (docs/distributed.md): the programs run uncomposed.
            case.wrap = "none"
            for a in case.args:
                a.pad = a.copy = False
        return case

    if opts.keep:
        os.makedirs(opts.keep, exist_ok=True)
        workdir = opts.keep
    else:
        workdir = tempfile.mkdtemp(prefix="stride-differential-")
    lock = threading.Lock()
    passed = failed = excepted = 0
    failures = []
    refusals = {}

    def one(index):
        try:
            case = make(opts.seed, index)
        except Exception:  # noqa: BLE001
            o = Outcome(Case(opts.seed, index))
            o.fail("generator error:\n" + traceback.format_exc())
            return o
        try:
            if opts.self_check:
                o = Outcome(case)
                for p in self_check(case):
                    o.fail(p)
                return o
            return check_case(case, opts, workdir)
        except Exception:  # noqa: BLE001
            o = Outcome(case)
            o.fail("harness error:\n" + traceback.format_exc())
            return o

    with ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        for o in pool.map(one, indices):
            c = o.case
            nops = len([n for n in c.structured() if n.op != "proj"])
            desc = (f"case {c.index} (seed {c.seed}, {c.kind}, policy {c.policy}, "
                    f"{nops} ops" + (f", {c.threads} thread(s)" if c.threads
                                     else "") + ")")
            with lock:
                if o.ok and o.refused:
                    key = next(r for r in DOCUMENTED_REFUSALS if r in o.refused)
                    refusals[key] = refusals.get(key, 0) + 1
                    if opts.verbose:
                        print(f"REFUSED {desc}: {o.refused}")
                elif o.ok:
                    passed += 1
                    excepted += bool(o.notes)
                    if opts.verbose or o.notes:
                        print(f"PASS {desc}")
                        for w in o.notes:
                            print(f"  note: {w}")
                else:
                    failed += 1
                    failures.append(o)
                    print(f"FAIL {desc}")
                    for w in o.why:
                        print(f"  {w}")
                    if opts.verbose and c.ops:
                        print("  " + c.mlir().replace("\n", "\n  ").rstrip())
                        if o.log:
                            print("  tool output:\n    "
                                  + o.log.strip().replace("\n", "\n    "))
                    flags = "".join(f" --{f.replace('_', '-')}" for f in
                                    ("large", "feed", "reduce", "python",
                                     "no_fuse")
                                    if getattr(opts, f))
                    if opts.distribute:
                        flags += f" --distribute {opts.distribute} --mpi {opts.mpi}"
                    print(f"  reproduce: {sys.argv[0]}{flags} --seed {c.seed} "
                          f"--case {c.index} --keep DIR --verbose")
                sys.stdout.flush()
    if not opts.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    if excepted:
        print(f"({excepted} of the passes rely on a documented exception)")
    floor_failed = False
    if opts.distribute:
        refused = sum(refusals.values())
        print(f"distributed: {passed} ran on {opts.distribute} ranks "
              f"({', '.join(available_launchers(opts)) or 'no launcher'}), "
              f"{refused} refused by stride-distribute on purpose"
              + "".join(f"\n  {n}: {r}" for r, n in sorted(refusals.items())))
        # The mode must exercise distribution, not only its refusals.
        if not opts.case and not opts.self_check and passed < len(indices) / 3:
            print(f"differential: only {passed} of {len(indices)} programs ran "
                  "distributed (at least a third must)")
            floor_failed = True
    print(f"differential: {passed} passed, {failed} failed")
    return 1 if failed or floor_failed else 0


if __name__ == "__main__":
    sys.exit(main())
