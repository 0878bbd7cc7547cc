#!/usr/bin/env python3
"""Ahead-of-time compiled kernels against the JIT: same values, same strides.

  aot_vs_run.py generate OUT.mlir --seed S --count N
      writes N random elementwise/matmul programs (@p0 ... @pN-1) with
      row-major, permuted, sliced, broadcast (stride 0), reversed, size-1 and
      zero-size argument layouts, in f32, f64 and i32

  aot_vs_run.py generate OUT.mlir --dynamic --seed S --count N
      writes N random programs whose argument sizes are all dynamic ('?'),
      row-major or dense in a random dim order (#stride.layout<perm>), so
      that their results' shapes and strides depend on the input sizes; each
      with a "// SHAPES @name: ..." line of concrete argument shapes to run
      it with (sizes 0, 1 and larger, broadcast size-1 dims)

  aot_vs_run.py compare --bin DIR --work DIR [--seed S] [--dynamic]
                        [stride-compile options: --policy P --no-fuse
                        --num-threads N] PROGRAM.mlir|DIRECTORY ...
      compiles every program (every .mlir file of a directory) with
      stride-compile, then runs each entry with stride-exec and with
      stride-run on the same seeded random inputs (both lay them out with the
      declared strides and draw them into memory with the same generator),
      and requires byte-identical .npy results and identical report lines
      (shapes and strides). Prints one FAIL line per difference and ends with
      "aot-vs-run: N entries identical, M differ".
      With --dynamic, stride-run compiles as written (--dynamic) and both
      tools run each entry once per argument-shape set listed in the
      program as "// SHAPES @entry: 3x4 4 | 1x4 1 | 0x4 scalar" (one shape
      per argument, sets separated by '|'); a "// SHAPES-FAIL @entry: ..."
      set must make both fail. The results' layouts then come from the
      library's layout graph (stride-exec) and from shape inference on the
      specialized function (stride-run), which must agree. Each shape set
      counts as one entry. A run that both tools refuse because the
      kernel's static output strides do not fit the layout the sizes give
      prints a REFUSED line and counts as refused.

It imports nothing from test/Differential: the programs here are its own, so
the two can change independently.
"""
import argparse
import glob
import os
import random
import subprocess
import sys

FLOAT_UNARY = ["neg", "abs", "exp", "tanh", "sigmoid"]
INT_UNARY = ["neg", "abs"]
BINARY = ["add", "sub", "mul", "maximum", "minimum"]


def tensor_type(shape, dtype, strides=None):
    dims = "x".join(str(s) for s in shape)
    body = (dims + "x" if shape else "") + dtype
    if strides is None:
        return "tensor<%s>" % body
    return "tensor<%s, #stride.layout<strides = [%s]>>" % (
        body, ", ".join(str(s) for s in strides))


def random_layout(rng, shape):
    """None (row-major) or explicit element strides."""
    kind = rng.choice(["rowmajor", "perm", "sliced", "broadcast", "reversed"])
    if kind == "rowmajor" or not shape:
        return None
    order = list(range(len(shape)))
    if kind == "perm":
        rng.shuffle(order)
    strides = [0] * len(shape)
    step = 2 if kind == "sliced" else 1
    for d in reversed(order):  # the last of `order` is innermost
        strides[d] = step
        step *= max(shape[d], 1)
    if kind == "broadcast":
        d = rng.randrange(len(shape))
        strides[d] = 0
    if kind == "reversed":
        d = rng.randrange(len(shape))
        strides[d] = -strides[d]
    return strides


def elementwise_program(rng, name, dtype):
    rank = rng.randint(0, 4)
    out_shape = [rng.choice([0, 1, 1, 2, 3, 5]) for _ in range(rank)]
    if 0 in out_shape and rng.random() < 0.5:
        out_shape = [max(s, 1) for s in out_shape]
    args, params = [], []
    for i in range(rng.randint(1, 3)):
        arg_rank = rng.randint(0, rank)
        shape = [s if rng.random() < 0.7 else 1 for s in out_shape[rank - arg_rank:]]
        t = tensor_type(shape, dtype, random_layout(rng, shape))
        params.append("%%a%d: %s" % (i, t))
        args.append(("%%a%d" % i, t))
    if rng.random() < 0.3:
        params.append("%%s0: %s" % dtype)
        args.append(("%s0", dtype))
    lines, values = [], list(args)
    count = 0
    for _ in range(rng.randint(1, 5)):
        count += 1
        result = "%%v%d" % count
        unranked = "tensor<*x%s>" % dtype
        if rng.random() < 0.35:
            op = rng.choice(FLOAT_UNARY if dtype != "i32" else INT_UNARY)
            x = rng.choice(values)
            if x[1] == dtype:  # unary ops take tensors
                continue
            lines.append("  %s = stride.%s %s : %s -> %s" % (result, op, x[0], x[1], unranked))
        else:
            op = rng.choice(BINARY)
            x, y = rng.choice(values), rng.choice(values)
            if x[1] == dtype and y[1] == dtype:
                continue
            lines.append("  %s = stride.%s %s, %s : %s, %s -> %s" % (
                result, op, x[0], y[0], x[1], y[1], unranked))
        values.append((result, unranked))
    last = values[-1]
    if not last[0].startswith("%v"):
        if last[1] == dtype:
            last = next(v for v in values if v[1] != dtype)
        lines.append("  %%v0 = stride.neg %s : %s -> tensor<*x%s>" % (last[0], last[1], dtype))
        last = ("%v0", "tensor<*x%s>" % dtype)
    return "func.func @%s(%s) -> tensor<*x%s> {\n%s\n  return %s : %s\n}\n" % (
        name, ", ".join(params), dtype, "\n".join(lines), last[0], last[1])


def matmul_program(rng, name):
    m, k, n = rng.choice([1, 3, 4]), rng.choice([1, 2, 5]), rng.choice([1, 3, 6])
    batch = [rng.choice([1, 2, 3]) for _ in range(rng.randint(0, 2))]
    a_shape = [b if rng.random() < 0.6 else 1 for b in batch] + [m, k]
    b_shape = [b if rng.random() < 0.6 else 1 for b in batch] + [k, n]
    if rng.random() < 0.2:
        a_shape = [k]
    elif rng.random() < 0.2:
        b_shape = [k]
    ta = tensor_type(a_shape, "f32", random_layout(rng, a_shape))
    tb = tensor_type(b_shape, "f32", random_layout(rng, b_shape))
    tail = ""
    result = "%m"
    if rng.random() < 0.5:
        tail = "  %%e = stride.%s %%m : tensor<*xf32> -> tensor<*xf32>\n" % rng.choice(FLOAT_UNARY)
        result = "%e"
    return ("func.func @%s(%%a: %s, %%b: %s) -> tensor<*xf32> {\n"
            "  %%m = stride.matmul %%a, %%b : %s, %s -> tensor<*xf32>\n%s"
            "  return %s : tensor<*xf32>\n}\n") % (name, ta, tb, ta, tb, tail, result)


def dynamic_type(rank, dtype, perm):
    body = "?x" * rank + dtype
    if perm is None:
        return "tensor<%s>" % body
    return "tensor<%s, #stride.layout<perm = [%s]>>" % (body, ", ".join(str(d) for d in perm))


def random_perm(rng, rank):
    if rank < 2 or rng.random() < 0.4:
        return None
    perm = list(range(rank))
    while perm == sorted(perm):
        rng.shuffle(perm)
    return perm


def shape_text(shape):
    return "x".join(str(s) for s in shape) if shape else "scalar"


def dynamic_elementwise_program(rng, name, dtype):
    rank = rng.randint(1, 4)
    ranks = [rng.randint(0, rank) for _ in range(rng.randint(1, 3))]
    ranks[rng.randrange(len(ranks))] = rank
    types = [dynamic_type(r, dtype, random_perm(rng, r)) for r in ranks]
    params = ["%%a%d: %s" % (i, t) for i, t in enumerate(types)]
    values = [("%%a%d" % i, t) for i, t in enumerate(types)]
    has_scalar = rng.random() < 0.3
    if has_scalar:
        params.append("%%s0: %s" % dtype)
        values.append(("%s0", dtype))
    lines, count = [], 0
    unranked = "tensor<*x%s>" % dtype
    for _ in range(rng.randint(1, 4)):
        count += 1
        x, y = rng.choice(values), rng.choice(values)
        if x[1] == dtype and y[1] == dtype:
            x = values[0]
        if rng.random() < 0.3:
            op = rng.choice(FLOAT_UNARY if dtype != "i32" else INT_UNARY)
            if x[1] == dtype:
                x = values[0]
            lines.append("  %%v%d = stride.%s %s : %s -> %s" % (count, op, x[0], x[1], unranked))
        else:
            op = rng.choice(BINARY)
            lines.append("  %%v%d = stride.%s %s, %s : %s, %s -> %s" % (
                count, op, x[0], y[0], x[1], y[1], unranked))
        values.append(("%%v%d" % count, unranked))
    # Every argument takes part, so that all of them decide the layout.
    operands = [v for v in values if v[0].startswith("%a")] + [values[-1]]
    acc = operands[0]
    for other in operands[1:]:
        count += 1
        lines.append("  %%v%d = stride.add %s, %s : %s, %s -> %s" % (
            count, acc[0], other[0], acc[1], other[1], unranked))
        acc = ("%%v%d" % count, unranked)
    sets = []
    for _ in range(4):
        out = [rng.choice([0, 1, 1, 2, 3, 4]) for _ in range(rank)]
        shapes = []
        for r in ranks:
            shapes.append(shape_text([s if rng.random() < 0.7 else 1 for s in out[rank - r:]]))
        if has_scalar:
            shapes.append("scalar")
        sets.append(" ".join(shapes))
    return "// SHAPES @%s: %s\nfunc.func @%s(%s) -> %s {\n%s\n  return %s : %s\n}\n" % (
        name, " | ".join(sets), name, ", ".join(params), unranked,
        "\n".join(lines), acc[0], acc[1])


def dynamic_matmul_program(rng, name):
    batch_rank = rng.randint(0, 2)
    ra = rng.choice([1, 2, 2]) + (batch_rank if rng.random() < 0.8 else 0)
    rb = rng.choice([1, 2, 2]) + (batch_rank if rng.random() < 0.8 else 0)
    ta = dynamic_type(ra, "f32", random_perm(rng, ra))
    tb = dynamic_type(rb, "f32", random_perm(rng, rb))
    sets = []
    for _ in range(4):
        m, k, n = (rng.choice([0, 1, 3, 4]) for _ in range(3))
        batch = [rng.choice([0, 1, 2, 3]) for _ in range(max(ra, rb))]
        def operand(rank, core):
            if rank == 1:
                return [k]
            lead = rank - 2
            return [b if rng.random() < 0.7 else 1 for b in batch[len(batch) - lead:]] + core
        sets.append("%s %s" % (shape_text(operand(ra, [m, k])), shape_text(operand(rb, [k, n]))))
    tail, result = "", "%m"
    if rng.random() < 0.5:
        tail = "  %%e = stride.%s %%m : tensor<*xf32> -> tensor<*xf32>\n" % rng.choice(FLOAT_UNARY)
        result = "%e"
    return ("// SHAPES @%s: %s\nfunc.func @%s(%%a: %s, %%b: %s) -> tensor<*xf32> {\n"
            "  %%m = stride.matmul %%a, %%b : %s, %s -> tensor<*xf32>\n%s"
            "  return %s : tensor<*xf32>\n}\n") % (
                name, " | ".join(sets), name, ta, tb, ta, tb, tail, result)


def generate(args):
    rng = random.Random(args.seed)
    parts = ["// Generated by aot_vs_run.py generate%s --seed %d --count %d\n" % (
        " --dynamic" if args.dynamic else "", args.seed, args.count)]
    for i in range(args.count):
        name = "p%d" % i
        if args.dynamic:
            if rng.random() < 0.3:
                parts.append(dynamic_matmul_program(rng, name))
            else:
                parts.append(dynamic_elementwise_program(rng, name, rng.choice(["f32", "f64", "i32"])))
        elif rng.random() < 0.25:
            parts.append(matmul_program(rng, name))
        else:
            parts.append(elementwise_program(rng, name, rng.choice(["f32", "f32", "f64", "i32"])))
    with open(args.out, "w") as f:
        f.write("\n".join(parts))
    return 0


def run(command):
    return subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=300)


def entries_of(exec_tool, library):
    listing = run([exec_tool, library, "--list"])
    if listing.returncode != 0:
        raise RuntimeError("stride-exec --list failed: " + listing.stderr)
    return [line.split()[0][1:] for line in listing.stdout.splitlines() if line.startswith("@")]


def shape_sets_of(program):
    """{entry: [(shapes, must_pass)]} from the program's SHAPES lines."""
    sets = {}
    with open(program) as f:
        for line in f:
            line = line.strip()
            for tag, must_pass in (("// SHAPES @", True), ("// SHAPES-FAIL @", False)):
                if line.startswith(tag):
                    entry, _, rest = line[len(tag):].partition(":")
                    for group in rest.split("|"):
                        sets.setdefault(entry.strip(), []).append((group.split(), must_pass))
    return sets


def same_values(a, b):
    """Two .npy outputs agree: the same bytes, or floats of the same dtype
    and shape at most 2 ulp apart (NaNs in the same places). The vectorizer
    picks libmvec's SSE, AVX2 or AVX-512 variant of exp, sin ... by its cost
    model, which sees the JIT's and the library's modules alike only up to
    such choices."""
    with open(a, "rb") as f, open(b, "rb") as g:
        if f.read() == g.read():
            return True
    import numpy as np
    x, y = np.load(a), np.load(b)
    if x.dtype != y.dtype or x.shape != y.shape or x.dtype.kind != "f":
        return False
    if not np.array_equal(np.isnan(x), np.isnan(y)):
        return False
    ok = ~np.isnan(x)
    try:
        np.testing.assert_array_max_ulp(x[ok], y[ok], maxulp=2)
    except AssertionError:
        return False
    return True


def compare(args):
    tool = lambda name: os.path.join(args.bin, name)
    programs = []
    for path in args.programs:
        programs += sorted(glob.glob(os.path.join(path, "*.mlir"))) if os.path.isdir(path) else [path]
    options = ["--policy", args.policy]
    if args.no_fuse:
        options.append("--no-fuse")
    if args.num_threads:
        options += ["--num-threads", str(args.num_threads)]
    same = differ = refused = 0
    os.makedirs(args.work, exist_ok=True)
    for program in programs:
        stem = os.path.splitext(os.path.basename(program))[0]
        library = os.path.join(args.work, "lib%s.so" % stem)
        compiled = run([tool("stride-compile"), program, "-o", library] + options)
        if compiled.returncode != 0:
            print("FAIL %s: stride-compile: %s" % (program, compiled.stderr.strip()))
            differ += 1
            continue
        shape_sets = shape_sets_of(program) if args.dynamic else {}
        for entry in entries_of(tool("stride-exec"), library):
            runs = shape_sets.get(entry, [(None, True)])
            for index, (shapes, must_pass) in enumerate(runs):
                label = entry if shapes is None else "%s[%s]" % (entry, " ".join(shapes))
                where = os.path.join(args.work, stem, entry, str(index))
                common = ["--entry", entry, "--random-inputs", "--seed", str(args.seed)]
                for shape in shapes or []:
                    common += ["--shape", shape]
                jit = run([tool("stride-run"), program] + common + options +
                          (["--dynamic"] if args.dynamic else []) +
                          ["--output-dir", os.path.join(where, "run")])
                aot = run([tool("stride-exec"), library] + common +
                          ["--output-dir", os.path.join(where, "exec")])
                problem = None
                if not must_pass:
                    if jit.returncode == 0 or aot.returncode == 0:
                        problem = "exit status %d (stride-run) and %d (stride-exec), expected failures: %s %s" % (
                            jit.returncode, aot.returncode, jit.stderr.strip(), aot.stderr.strip())
                elif (args.dynamic and jit.returncode != 0 and aot.returncode != 0
                      and "cannot write" in aot.stderr and "cannot write" in jit.stderr):
                    # The kernel was compiled with static output strides
                    # (from the order representative sizes give) that these
                    # sizes' layout does not have; both tools refuse rather
                    # than let it write elsewhere.
                    print("REFUSED %s @%s %s: %s" % (program, label, " ".join(options),
                                                     aot.stderr.strip()))
                    refused += 1
                    continue
                elif jit.returncode != 0 or aot.returncode != 0:
                    problem = "exit status %d (stride-run) vs %d (stride-exec): %s %s" % (
                        jit.returncode, aot.returncode, jit.stderr.strip(), aot.stderr.strip())
                elif jit.stdout != aot.stdout:
                    problem = "reports differ: %r vs %r" % (jit.stdout, aot.stdout)
                else:
                    for out in sorted(glob.glob(os.path.join(where, "run", "*.npy"))):
                        other = os.path.join(where, "exec", os.path.basename(out))
                        if not same_values(out, other):
                            problem = "%s differs from %s" % (other, out)
                if problem:
                    print("FAIL %s @%s %s: %s" % (program, label, " ".join(options), problem))
                    differ += 1
                else:
                    same += 1
    print("aot-vs-run: %d entries identical, %d differ" % (same, differ) +
          (", %d refused" % refused if args.dynamic else ""))
    return 1 if differ or same == 0 else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate")
    g.add_argument("out")
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--count", type=int, default=20)
    g.add_argument("--dynamic", action="store_true")
    c = sub.add_parser("compare")
    c.add_argument("programs", nargs="+")
    c.add_argument("--bin", required=True)
    c.add_argument("--work", required=True)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--policy", default="torch")
    c.add_argument("--no-fuse", action="store_true")
    # Both sides get the same thread count: a threaded kernel splits its
    # loops elsewhere, so on an AVX-512 host other elements take libmvec's
    # vector exp instead of the scalar expf (1 ulp apart).
    c.add_argument("--num-threads", type=int, default=1)
    c.add_argument("--dynamic", action="store_true")
    args = parser.parse_args()
    return generate(args) if args.command == "generate" else compare(args)


if __name__ == "__main__":
    sys.exit(main())
