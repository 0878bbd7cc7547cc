#!/usr/bin/python3
"""Shrinks a kept failing case whose stride-run call fails (an error, a
crash): deletes ops, whole regions, unused arguments and returned values
as long as stride-run still fails with the same first error line.

    test/Grammar/reduce.py /tmp/g/case00017            # writes reduced.mlir, reduced.sh

$STRIDE_RUN, when set, replaces the runner named in cmd.sh.

Value and stride mismatches need the oracle; replay those with run.py.
"""

import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from run import classify_error  # noqa: E402


def signature(text, cmd, work):
    path = os.path.join(work, "try.mlir")
    with open(path, "w") as f:
        f.write(text)
    c = list(cmd)
    c[1] = path
    try:
        p = subprocess.run(c, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "timeout"
    if p.returncode == 0:
        return None
    kind = classify_error(p.stderr, p.returncode)
    if "cannot parse" in p.stderr or "expected" in kind and "parse" in p.stderr:
        return "parse error"
    return kind


def blocks(lines):
    """(start, end) line ranges that can go: one op, or an op with its
    regions (a line ending in '{' up to its matching '}')."""
    out = []
    for i, l in enumerate(lines):
        s = l.strip()
        if s.startswith(("func.func", "return", "scf.yield", "stride.yield", "linalg.yield",
                         "^bb", "}")) or not s:
            continue
        if s.endswith("{"):
            depth, j = 0, i
            while j < len(lines):
                depth += lines[j].count("{") - lines[j].count("}")
                if depth == 0:
                    break
                j += 1
            out.append((i, j + 1))
        else:
            out.append((i, i + 1))
    return out


def drop_unused_args(text, cmd):
    m = re.search(r"func\.func @main\((.*?)\) ->", text)
    if not m:
        return text, cmd
    params = [p.strip() for p in re.split(r",\s*(?=%a\d+:)", m.group(1)) if p.strip()]
    inputs = [i for i, c in enumerate(cmd) if c == "--input"]
    body = text[m.end():]
    keep, keep_inputs = [], []
    for k, p in enumerate(params):
        name = p.split(":")[0]
        if re.search(re.escape(name) + r"\b", body):
            keep.append(p)
            keep_inputs.append(k)
    new_text = text[:m.start(1)] + ", ".join(keep) + text[m.end(1):]
    new_cmd = [c for c in cmd]
    drop = set()
    for k, i in enumerate(inputs):
        if k not in keep_inputs:
            drop.update((i, i + 1))
    new_cmd = [c for i, c in enumerate(new_cmd) if i not in drop]
    return new_text, new_cmd


def reduce(case):
    with open(os.path.join(case, "main.mlir")) as f:
        text = f.read()
    with open(os.path.join(case, "cmd.sh")) as f:
        cmd = shlex.split(f.read())
    if os.environ.get("STRIDE_RUN"):
        cmd[0] = os.environ["STRIDE_RUN"]
    if "--output-dir" in cmd:
        i = cmd.index("--output-dir")
        cmd = cmd[:i] + cmd[i + 2:]
    want = signature(text, cmd, case)
    if want is None or want == "parse error":
        print("stride-run does not fail with an error here (%s)" % want)
        return 1
    print("reducing while stride-run fails with: %s" % want)
    changed = True
    while changed:
        changed = False
        lines = text.split("\n")
        for start, end in reversed(blocks(lines)):
            cand = "\n".join(lines[:start] + lines[end:])
            if signature(cand, cmd, case) == want:
                text, changed = cand, True
                lines = text.split("\n")
                break
        if not changed:
            # Fewer returned values.
            changed = try_fewer_results(text, cmd, case, want)
            if changed:
                text = changed
                changed = True
        # Unused private functions.
        for m in list(re.finditer(r"func\.func private @(\w+)", text)):
            if text.count("@" + m.group(1)) == 1:
                cand = remove_function(text, m.group(1))
                if signature(cand, cmd, case) == want:
                    text, changed = cand, True
    t2, c2 = drop_unused_args(text, cmd)
    if signature(t2, c2, case) == want:
        text, cmd = t2, c2
    with open(os.path.join(case, "reduced.mlir"), "w") as f:
        f.write(text)
    cmd[1] = os.path.join(case, "reduced.mlir")
    with open(os.path.join(case, "reduced.sh"), "w") as f:
        f.write(" ".join(shlex.quote(c) for c in cmd) + "\n")
    print(text)
    print(" ".join(shlex.quote(c) for c in cmd))
    return 0


def remove_function(text, name):
    lines = text.split("\n")
    out, skip = [], False
    for l in lines:
        if l.startswith("func.func private @%s(" % name):
            skip = True
        if not skip:
            out.append(l)
        if skip and l == "}":
            skip = False
    return "\n".join(out)


def try_fewer_results(text, cmd, case, want):
    m = re.search(r"^(  return )(.*) : (.*)$", text.split("func.func @main", 1)[1], re.M)
    head = re.search(r"(func\.func @main\(.*?\) -> )(\(.*\)|[^ ]+) \{", text)
    if not m or not head:
        return None
    vals = [v.strip() for v in m.group(2).split(",")]
    tys = split_types(m.group(3))
    if len(vals) < 2:
        return None
    for k in range(len(vals)):
        nv = vals[:k] + vals[k + 1:]
        nt = tys[:k] + tys[k + 1:]
        ret = "  return %s : %s" % (", ".join(nv), ", ".join(nt))
        res = nt[0] if len(nt) == 1 else "(%s)" % ", ".join(nt)
        cand = text.replace(m.group(0), ret)
        cand = cand[:head.start(2)] + res + cand[head.end(2):]
        if signature(cand, cmd, case) == want:
            return cand
    return None


def split_types(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


if __name__ == "__main__":
    sys.exit(reduce(sys.argv[1]))
