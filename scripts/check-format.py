#!/usr/bin/env python3
"""Checks that the C/C++ lines a change adds or modifies follow .clang-format.

Runs `clang-format --dry-run --Werror --lines=...` on each C/C++ file of the
change, limited to the lines the change touches, so that untouched legacy
code (most of the tree predates .clang-format) never fails the check.

What "the change" is:
  1. the work tree against the merge base of HEAD and origin/main (a branch's
     commits plus uncommitted edits), when that differs from nothing;
  2. otherwise (a clean clone of main, where HEAD is origin/main; or no
     origin/main), the work tree against HEAD~1: the last commit and any
     uncommitted edits;
  3. untracked, not ignored C/C++ files count as wholly added.
Without clang-format, outside a git checkout, or in a clone without the
commit to compare with (a shallow clone of one commit), it prints why it
skips and exits 0.

clang-format: $STRIDE_CLANG_FORMAT, else clang-format-22 (LLVM 22's, the
toolchain's), else clang-format on PATH (Debian 12: version 14).

Usage: scripts/check-format.py [--base REV] [-v]
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

EXTENSIONS = (".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp")


def git(*args, check=True):
    result = subprocess.run(["git", *args], capture_output=True, text=True)
    if check and result.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {result.stderr.strip()}")
    return result


def find_clang_format():
    candidates = [os.environ.get("STRIDE_CLANG_FORMAT"),
                  "/usr/lib/llvm-22/bin/clang-format",
                  shutil.which("clang-format-22"),
                  shutil.which("clang-format")]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


def choose_range(base):
    """The revision to diff the work tree against and a sentence saying what
    it is; None and a reason to skip."""
    if base:
        return base, f"changes since {base}"
    if git("rev-parse", "--verify", "-q", "origin/main^{commit}",
           check=False).returncode == 0:
        merge_base = git("merge-base", "HEAD", "origin/main",
                         check=False).stdout.strip()
        if merge_base:
            head = git("rev-parse", "HEAD").stdout.strip()
            dirty = git("diff", "--quiet", merge_base, "--",
                        check=False).returncode != 0
            if merge_base != head or dirty:
                return merge_base, (f"changes since the merge base with "
                                    f"origin/main ({merge_base[:12]})")
    if git("rev-parse", "--verify", "-q", "HEAD~1^{commit}",
           check=False).returncode == 0:
        return "HEAD~1", "the last commit and uncommitted edits (since HEAD~1)"
    return None, ("no change to check: HEAD is origin/main (or there is no "
                  "origin/main) and its parent is not here (a shallow clone?)")


HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")


def changed_lines(rev):
    """{path: [(first, last), ...]} of the lines the diff adds or changes."""
    out = git("diff", "-U0", "--no-color", "--no-ext-diff", "-M",
              "--diff-filter=ACMR", rev, "--").stdout
    ranges, path = {}, None
    for line in out.splitlines():
        if line.startswith("+++ "):
            name = line[4:]
            path = name[2:] if name.startswith("b/") else None
            if path and not path.endswith(EXTENSIONS):
                path = None
        elif path and line.startswith("@@"):
            m = HUNK.match(line)
            first, count = int(m.group(1)), int(m.group(2) or "1")
            if count:
                ranges.setdefault(path, []).append((first, first + count - 1))
    for name in git("ls-files", "--others", "--exclude-standard",
                    "--", *[f"*{e}" for e in EXTENSIONS]).stdout.split():
        ranges[name] = None  # new file: every line
    return ranges


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", help="compare the work tree with this "
                        "revision instead of choosing one")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()

    clang_format = find_clang_format()
    if not clang_format:
        print("clang-format check skipped: no clang-format found "
              "(install clang-format, or set STRIDE_CLANG_FORMAT)")
        return 0
    if git("rev-parse", "--is-inside-work-tree", check=False).returncode:
        print("clang-format check skipped: not a git checkout")
        return 0
    os.chdir(git("rev-parse", "--show-toplevel").stdout.strip())

    rev, what = choose_range(args.base)
    if rev is None:
        print(f"clang-format check skipped: {what}")
        return 0
    ranges = changed_lines(rev)
    version = subprocess.run([clang_format, "--version"], capture_output=True,
                             text=True).stdout.strip()
    print(f"clang-format check: C/C++ lines of {what}, {len(ranges)} file(s), "
          f"with {clang_format} ({version})")
    failed = []
    for path, spans in sorted(ranges.items()):
        if not os.path.isfile(path):
            continue
        cmd = [clang_format, "--dry-run", "--Werror", "--style=file"]
        cmd += [f"--lines={a}:{b}" for a, b in spans or []]
        result = subprocess.run(cmd + [path], capture_output=True, text=True)
        if args.verbose:
            print(" ", path, "ok" if result.returncode == 0 else "NOT FORMATTED")
        if result.returncode != 0:
            failed.append(path)
            sys.stdout.write(result.stderr)
    if failed:
        print(f"{len(failed)} file(s) have changed lines that are not "
              f"clang-formatted: {' '.join(failed)}")
        print("fix with: git clang-format <base> (formats only the changed "
              "lines), or clang-format -i --lines=A:B FILE")
        return 1
    print("clang-format check: ok")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except RuntimeError as e:
        print(f"clang-format check failed to run: {e}")
        sys.exit(1)
