"""Running one case through stride-run (or stride-opt) and checking it; the self-check.

Part of the differential test; see differential.py."""
from common import *  # noqa: F401,F403
from program import *  # noqa: F401,F403
from layouts import *  # noqa: F401,F403
from generator import *  # noqa: F401,F403
from oracles import *  # noqa: F401,F403
from comparison import *  # noqa: F401,F403


PYRUN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pyrun.py")

# --distribute: the MPI launchers, as test/lit.cfg.py runs them (OpenMPI as
# root needs --allow-run-as-root, and --oversubscribe for more ranks than
# cores).
MPI_LAUNCHERS = {
    "openmpi": ["mpirun.openmpi", "--allow-run-as-root", "--oversubscribe"],
    "mpich": ["mpirun.mpich"],
}

# What stride-distribute refuses on purpose (docs/distributed.md, "What does
# not distribute yet"): a program refused with one of these is not run on
# several ranks and counts as refused, not failed. Any other failure fails.
DOCUMENTED_REFUSALS = [
    "uneven shards are not supported",
    "has no sharding rule yet",
    "returns no tensor to split",
    "distribution needs static shapes",
]


def available_launchers(opts):
    names = ["openmpi", "mpich"] if opts.mpi == "both" else [opts.mpi]
    return [n for n in names if shutil.which(MPI_LAUNCHERS[n][0])]


def mpi_launcher(opts, case):
    """The launcher of case I: the available MPIs in turn."""
    names = available_launchers(opts)
    return list(MPI_LAUNCHERS[names[case.index % len(names)]])


def documented_refusal(log):
    for line in log.splitlines():
        if "stride-distribute:" in line and any(r in line for r in DOCUMENTED_REFUSALS):
            return line[line.index("stride-distribute:"):].strip()
    return None


def write_inputs(case, d):
    paths = []
    for i, a in enumerate(case.args):
        p = os.path.join(d, f"in{i}.npy")
        v = np.asarray(a.value, dtype=NP_DTYPES[a.dtype])
        if a.pad:  # the slice takes all but the last row
            v = np.concatenate([v, np.ones((1,) + v.shape[1:], v.dtype)])
        np.save(p, np.asfortranarray(v) if a.fortran else v)
        paths.append(p)
    return paths


class Outcome:
    def __init__(self, case):
        self.case, self.ok, self.why, self.log = case, True, [], ""
        self.notes = []
        # --distribute: the documented refusal of stride-distribute that
        # kept the program from running on several ranks, if any.
        self.refused = None

    def fail(self, why):
        self.ok = False
        self.why.append(why)


def check_case(case, opts, workdir):
    out = Outcome(case)
    d = os.path.join(workdir, f"case{case.index:05d}")
    os.makedirs(d, exist_ok=True)
    mlir_path = os.path.join(d, "main.mlir")
    with open(mlir_path, "w") as f:
        f.write(case.mlir())
    layouts, _ = expected_layouts(case)
    values = expected_values(case)
    bounds = error_bounds(case)
    expect = {"seed": case.seed, "case": case.index, "policy": case.policy,
              "results": [{"dtype": r.dtype, "shape": list(layouts[i][0]),
                           "strides": layouts[i][1]}
                          for i, r in enumerate(case.results)]}
    with open(os.path.join(d, "expected.json"), "w") as f:
        json.dump(expect, f, indent=1)
    for i, v in enumerate(values):
        np.save(os.path.join(d, f"expected{i}.npy"), v)
    for i, r in enumerate(case.results):
        if tuple(layouts[i][0]) != r.shape or tuple(values[i].shape) != r.shape:
            out.fail(f"oracle disagreement on result #{i} shape: generator "
                     f"{r.shape}, library {layouts[i][0]}, values {values[i].shape}")
            return out

    if opts.layout_only:
        cmd = [opts.stride_opt, "--stride-infer-shapes",
               f"--stride-propagate-layout=policy={case.policy}", mlir_path]
    else:
        inputs = write_inputs(case, d)
        outdir = os.path.join(d, "out")
        os.makedirs(outdir, exist_ok=True)
        env = None
        if getattr(opts, "python", False):
            # The same program through stride.compile on strided arrays.
            specs = [{"path": p, "scalar": a.scalar,
                      "strides": (list(a.strides) if a.layout else None)}
                     for p, a in zip(inputs, case.args)]
            with open(os.path.join(d, "args.json"), "w") as f:
                json.dump(specs, f, indent=1)
            cmd = [sys.executable, PYRUN, "--mlir", mlir_path, "--args",
                   os.path.join(d, "args.json"), "--policy", case.policy,
                   "--threads", str(case.threads or 1), "--output-dir", outdir]
            env = dict(os.environ, PYTHONPATH=opts.python_path)
            prefix = f"PYTHONPATH={opts.python_path} "
        else:
            cmd = [opts.stride_run, mlir_path, "--entry", "main",
                   "--policy", case.policy, "--output-dir", outdir]
            prefix = ""
            if getattr(opts, "distribute", 0):
                # N, or a grid NxM: -np is the product.
                ranks = 1
                for size in str(opts.distribute).split("x"):
                    ranks *= int(size)
                cmd = (mpi_launcher(opts, case) + ["-np", str(ranks)] + cmd
                       + ["--distribute", str(opts.distribute)])
            if case.threads:
                cmd += ["--num-threads", str(case.threads)]
            if getattr(opts, "target", "cpu") != "cpu":
                cmd += ["--target", opts.target]
            for p in inputs:
                cmd += ["--input", p]
        if opts.no_fuse:
            cmd.append("--no-fuse")
    with open(os.path.join(d, "cmd.sh"), "w") as f:
        f.write("#!/bin/sh\n" + (prefix if not opts.layout_only else "")
                + " ".join(cmd) + "\n")
    for attempt in range(30):
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True,
                                  timeout=opts.timeout,
                                  env=None if opts.layout_only else env)
            break
        except subprocess.TimeoutExpired:
            out.fail(f"timed out after {opts.timeout} s: {' '.join(cmd)}")
            return out
        except OSError as e:
            # The tool is being relinked (a build running beside a long
            # campaign): wait for it instead of failing every case meanwhile.
            if attempt == 29:
                out.fail(f"cannot run {cmd[0]}: {e}")
                return out
            time.sleep(2)
    out.log = proc.stdout + proc.stderr
    with open(os.path.join(d, "stdout.txt"), "w") as f:
        f.write(proc.stdout)
    with open(os.path.join(d, "stderr.txt"), "w") as f:
        f.write(proc.stderr)
    if proc.returncode != 0 and getattr(opts, "distribute", 0):
        reason = documented_refusal(proc.stdout + proc.stderr)
        if reason:
            out.refused = reason
            return out
    if proc.returncode != 0:
        lines = proc.stderr.strip().splitlines()
        # The first diagnostic (the cause) and the last lines (the summary).
        first = [l for l in lines if "error:" in l][:1]
        tail = lines[-3:]
        shown = first + [l for l in tail if l not in first]
        out.fail(f"exit status {proc.returncode}: {' | '.join(shown)}")
        return out

    if opts.layout_only:
        ret = [l for l in proc.stdout.splitlines() if l.strip().startswith("return")]
        types = tensor_types(ret[-1]) if ret else []
        got = [parse_tensor_type(t) for t in types]
    else:
        printed = parse_outputs(proc.stdout)
        got = [printed.get(i) for i in range(len(case.results))]
        if len(printed) != len(case.results):
            out.fail(f"printed {len(printed)} output lines for "
                     f"{len(case.results)} results")
    for i, r in enumerate(case.results):
        if i >= len(got) or got[i] is None:
            out.fail(f"result #{i}: no output reported")
            continue
        gdtype, gshape, gstrides = got[i]
        wshape, wstrides = layouts[i]
        if gdtype != r.dtype:
            out.fail(f"result #{i}: dtype {gdtype} != expected {r.dtype}")
        if tuple(gshape) != tuple(wshape):
            out.fail(f"result #{i}: shape {list(gshape)} != expected {list(wshape)}")
        elif list(gstrides) != list(wstrides):
            size1_only = all(gshape[d] == 1
                             for d in range(len(gshape))
                             if gstrides[d] != wstrides[d])
            if (case.policy == "torch" and has_matmul(case)
                  and (size1_only or 0 in gshape)):
                what = "an empty result" if 0 in gshape else "only on size-1 dims"
                out.notes.append(f"result #{i}: strides {list(gstrides)} differ "
                                 f"from torch's {list(wstrides)}: {what} after a "
                                 f"matmul (documented exception)")
            else:
                out.fail(f"result #{i}: strides {list(gstrides)} != "
                         f"{case.policy}'s {list(wstrides)}")
        if opts.layout_only:
            continue
        p = os.path.join(outdir, f"out{i}.npy")
        if not os.path.exists(p):
            out.fail(f"result #{i}: {p} not written")
            continue
        try:
            gv = np.load(p)
        except Exception as e:  # noqa: BLE001 - report any malformed file
            out.fail(f"result #{i}: cannot load {p}: {e}")
            continue
        why = compare_values(gv, values[i], bounds[i], r.dtype)
        if why:
            out.fail(f"result #{i} values: {why}")
    return out


def self_check(case):
    """The oracles agree with each other; returns a list of problems."""
    problems = []
    for a in case.args:
        if a.scalar or not a.shape:
            continue
        buf, off = strided_buffer(a, np)
        view = np.lib.stride_tricks.as_strided(
            buf[off:], a.shape, [s * buf.itemsize for s in a.strides])
        if not np.array_equal(view, a.value):
            problems.append(f"{a.name}: strided view does not read back")
        if a.layout and "perm" in a.layout:
            _, _, strides = parse_tensor_type(a.mlir_type())
            if strides != list(a.strides):
                problems.append(f"{a.name}: perm layout parses to {strides}")
        if case.policy == "torch" and any(s < 0 for s in a.strides):
            problems.append(f"{a.name}: negative strides under policy torch")
    values = expected_values(case)
    bounds = error_bounds(case)
    layouts, lib_values = expected_layouts(case)
    # NumPy's stand-in ufuncs (sigmoid, integer div) compute other values.
    stand_in = case.policy == "numpy" and any(
        n.op == "sigmoid" or (n.op == "div" and n.dtype.startswith("i"))
        for n in case.structured())
    for i, r in enumerate(case.results):
        lv = np.asarray(lib_values[i])
        if tuple(layouts[i][0]) != r.shape or values[i].shape != r.shape:
            problems.append(f"result #{i}: shapes generator {r.shape}, "
                            f"library {layouts[i][0]}, values {values[i].shape}")
            continue
        if lv.dtype != values[i].dtype:
            problems.append(f"result #{i}: library dtype {lv.dtype}")
            continue
        if stand_in:
            continue
        why = compare_values(lv, values[i], bounds[i], r.dtype)
        if why:
            problems.append(f"result #{i}: library vs value oracle: {why}")
    return problems
