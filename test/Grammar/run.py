#!/usr/bin/python3
"""Runs grammar-generated Stride modules through stride-run and checks each
against its oracle (README.md): the module must compile and run, every
result must have NumPy's values (exactly for integers, booleans and values
computed without rounding; within a tolerance for other floats) and, where
the strides oracle predicts them, the policy library's strides.

    test/Grammar/run.py --count 100 --seed 1 --jobs 2
    test/Grammar/run.py --seed 1 --case 17 --keep /tmp/g --verbose

Ends with `grammar: N programs, P passed, F failed`; exit status 1 when
anything failed.
"""

import argparse
import collections
import json
import multiprocessing
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402

from check_outputs import compare_outputs, parse_report  # noqa: E402
from generate import FLAGS, generate  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))


def find_stride_run(path):
    if path:
        return os.path.abspath(path)
    for base in (os.getcwd(), REPO):
        p = os.path.join(base, "build", "bin", "stride-run")
        if os.path.exists(p):
            return p
    return os.path.join(REPO, "build", "bin", "stride-run")


def write_case(prog, d, stride_run):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "main.mlir"), "w") as f:
        f.write(prog.text)
    cmd = [stride_run, os.path.join(d, "main.mlir"), "--entry", "main"]
    for i, a in enumerate(prog.inputs):
        p = os.path.join(d, "in%d.npy" % i)
        np.save(p, a)
        cmd += ["--input", p]
    cmd += ["--policy", prog.policy] + prog.options + ["--output-dir", os.path.join(d, "out")]
    for i, r in enumerate(prog.results):
        np.save(os.path.join(d, "expected%d.npy" % i), r["values"])
    with open(os.path.join(d, "expected.json"), "w") as f:
        json.dump(prog.expected_json(), f, indent=1)
    with open(os.path.join(d, "cmd.sh"), "w") as f:
        f.write(" ".join(shlex.quote(c) for c in cmd) + "\n")
    return cmd


def run_case(job):
    """One program: generate, run, compare. Returns a result dict."""
    seed, index, opts = job
    t0 = time.time()
    try:
        prog = generate(seed, index, policy=opts["policy"], flags=opts["flags"],
                        no_fuse=opts["no_fuse"])
    except Exception as e:  # a generator bug is a failure of the test itself
        import traceback
        return {"index": index, "ok": False, "kind": "generator error",
                "detail": traceback.format_exc(), "features": {}}
    keep = opts["keep"]
    d = os.path.join(keep, "case%05d" % index) if keep else tempfile.mkdtemp(prefix="grammar")
    cmd = write_case(prog, d, opts["stride_run"])
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=opts["timeout"])
        out, err, rc = p.stdout, p.stderr, p.returncode
    except subprocess.TimeoutExpired:
        out, err, rc = "", "timeout after %ds" % opts["timeout"], -1
    except OSError as e:   # e.g. the runner is being rebuilt
        out, err, rc = "", "stride-run: error: cannot run %s: %s" % (cmd[0], e), 126
    with open(os.path.join(d, "stdout.txt"), "w") as f:
        f.write(out)
    with open(os.path.join(d, "stderr.txt"), "w") as f:
        f.write(err)
    res = {"index": index, "policy": prog.policy, "features": dict(prog.features),
           "dir": d if keep else None, "cmd": " ".join(shlex.quote(c) for c in cmd),
           "seconds": time.time() - t0}
    if rc != 0:
        res.update(ok=False, kind=classify_error(err, rc), detail=err.strip()[-3000:])
    else:
        problems = compare_outputs(prog, parse_report(out), os.path.join(d, "out"))
        res.update(ok=not problems, kind=problems[0][0] if problems else None,
                   detail="\n".join(p[1] for p in problems))
    if not res["ok"]:
        res["program"] = prog.text
        if keep:
            with open(os.path.join(d, "failure.txt"), "w") as f:
                f.write(res["kind"] + "\n" + res["detail"] + "\n")
    if not keep or (res["ok"] and not opts["keep_all"]):
        shutil.rmtree(d, ignore_errors=True)
        res["dir"] = None
    return res


def classify_error(err, rc):
    """A short class for a failing stride-run, for the summary."""
    if rc == -1:
        return "timeout"
    if rc < 0:
        return "crash (signal %d)" % -rc
    lines = [l for l in err.splitlines() if "error:" in l]
    if not lines:
        return "exit %d" % rc
    first = lines[0]
    msg = first.split("error:", 1)[1].strip()
    msg = re.sub(r"'[^']*'", "'...'", msg)
    msg = re.sub(r"%\w+", "%x", msg)
    msg = re.sub(r"\d+", "N", msg)
    return "error: " + msg[:140]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stride-run")
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first program index")
    ap.add_argument("--case", type=int, action="append", help="run only program I (repeatable)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--keep", help="keep failing cases under DIR/caseNNNNN/")
    ap.add_argument("--keep-all", action="store_true", help="with --keep: passing cases too")
    ap.add_argument("--policy", choices=["torch", "numpy", "contiguous"],
                    help="one policy for every program (default: drawn per program)")
    ap.add_argument("--no-fuse", action="store_true", default=None,
                    help="--no-fuse for every program (default: drawn per program)")
    ap.add_argument("--flag", action="append", default=[], choices=sorted(FLAGS) + ["all"],
                    help="enable a known-bug class: " + "; ".join(
                        "%s: %s" % kv for kv in sorted(FLAGS.items())))
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--progress", type=int, default=0, metavar="N",
                    help="print a progress line every N programs")
    ap.add_argument("--stats", action="store_true", help="print how often each construct appeared")
    args = ap.parse_args()

    if "all" in args.flag:
        args.flag = sorted(FLAGS)
    stride_run = find_stride_run(args.stride_run)
    if not os.path.exists(stride_run):
        print("grammar: no stride-run at %s (build it first)" % stride_run)
        return 2
    keep_dir = os.path.abspath(args.keep) if args.keep else None
    opts = {"policy": args.policy, "flags": args.flag, "no_fuse": args.no_fuse,
            "stride_run": stride_run, "timeout": args.timeout, "keep": keep_dir,
            "keep_all": args.keep_all}
    indices = args.case or list(range(args.start, args.start + args.count))
    jobs = [(args.seed, i, opts) for i in indices]
    t0 = time.time()
    results = []
    if args.jobs > 1 and len(jobs) > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            for r in pool.imap_unordered(run_case, jobs):
                results.append(r)
                report(r, args, keep_dir, opts)
    else:
        for j in jobs:
            r = run_case(j)
            results.append(r)
            report(r, args, keep_dir, opts)
    failed = [r for r in results if not r["ok"]]
    if args.stats:
        feats = collections.Counter()
        for r in results:
            feats.update(r["features"])
        for k in sorted(feats):
            print("  %-40s %d" % (k, feats[k]))
    if failed:
        print("failure classes:")
        for kind, n in collections.Counter(r["kind"] for r in failed).most_common():
            ids = sorted(r["index"] for r in failed if r["kind"] == kind)
            print("  %4d  %s  (cases %s)" % (n, kind, ", ".join(map(str, ids[:12]))
                                             + (", ..." if len(ids) > 12 else "")))
    print("grammar: %d programs, %d passed, %d failed (seed %d, %.0f s)" % (
        len(results), len(results) - len(failed), len(failed), args.seed, time.time() - t0))
    return 1 if failed else 0


def report(r, args, keep_dir, opts):
    report.done = getattr(report, "done", 0) + 1
    report.failed = getattr(report, "failed", 0) + (not r["ok"])
    if args.progress and report.done % args.progress == 0:
        print("progress: %d done, %d failed" % (report.done, report.failed), flush=True)
    if r["ok"]:
        if args.verbose:
            print("PASS case %d (%s)" % (r["index"], r.get("policy")))
        return
    print("FAIL case %d (%s): %s" % (r["index"], r.get("policy"), r["kind"]))
    if args.verbose or r["kind"] == "generator error":
        print("  " + r["detail"].replace("\n", "\n  "))
    if args.verbose and r.get("program"):
        print("  " + r["program"].replace("\n", "\n  "))
    if r.get("dir"):
        print("  kept in %s (sh %s/cmd.sh)" % (r["dir"], r["dir"]))
    else:
        flags = "".join(" --flag " + f for f in opts["flags"])
        print("  replay: %s --seed %d --case %d%s --keep DIR --verbose" % (
            os.path.relpath(__file__), args.seed, r["index"], flags))


if __name__ == "__main__":
    sys.exit(main())
