"""@stride.jit(cache=True) and stride.compile(..., cache=True): kernels kept
on disk across processes, and every way the cache can fail ending in the
right answer (a recompiled or in-memory kernel), never a crash or another
kernel. Each case runs fresh processes, as the cache exists for."""
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import stride

# A program whose answer the child checks against NumPy itself; the kind
# picks one of two kernels of the same signature (same shapes and strides),
# which a cache that trusted signatures alone would confuse.
CHILD = r'''
import json, sys, time
import numpy as np
import stride
kind = sys.argv[1]

@stride.jit(cache=True)
def add(a, b):
    return np.tanh(a) + b * 2.0

@stride.jit(cache=True)
def mul(a, b):
    return np.tanh(a) * b - 1.0

f, ref = (add, lambda a, b: np.tanh(a) + b * 2.0) if kind == "add" else \
         (mul, lambda a, b: np.tanh(a) * b - 1.0)
rng = np.random.default_rng(0)
a = rng.standard_normal((40, 30)); b = rng.standard_normal(30)
t = time.perf_counter()
r = f(a, b)
first_ms = (time.perf_counter() - t) * 1e3
ok = bool(np.allclose(r, ref(a, b), rtol=1e-12, atol=1e-12))
info = stride.cache_info()
print(json.dumps({"ok": ok, "first_ms": first_ms, "hits": info.disk_hits,
                  "writes": info.disk_writes, "failures": info.disk_failures}))
'''


def run_child(cache_dir, kind="add"):
    env = dict(os.environ, STRIDE_CACHE_DIR=str(cache_dir))
    proc = subprocess.run([sys.executable, "-c", CHILD, kind], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def entries(cache_dir):
    return sorted(pathlib.Path(cache_dir).glob("*.so"))


def test_second_process_loads_the_kernel(tmp_path):
    first = run_child(tmp_path)
    assert first == dict(first, ok=True, hits=0, writes=1, failures=0)
    assert len(entries(tmp_path)) == 1
    second = run_child(tmp_path)
    assert second == dict(second, ok=True, hits=1, writes=0, failures=0)
    # The figure docs/performance.md records; generous here, since a loaded
    # 2-core test machine is slower than the 5 ms target's.
    assert second["first_ms"] < 100, second


@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty"])
def test_a_damaged_entry_is_recompiled(tmp_path, damage):
    run_child(tmp_path)
    (so,) = entries(tmp_path)
    data = so.read_bytes()
    so.write_bytes({"garbage": b"\x7fELF not really" * 100,
                    "truncated": data[: len(data) // 2],
                    "empty": b""}[damage])
    again = run_child(tmp_path)
    assert again == dict(again, ok=True, hits=0, writes=1, failures=0)
    assert run_child(tmp_path) == dict(again, hits=1, writes=0,
                                       first_ms=pytest.approx(0, abs=1e9))


def test_another_kernels_file_is_not_taken(tmp_path):
    """The file of mul (same argument shapes and strides) copied over add's
    name: loading it would give mul's answer; the cache recompiles add."""
    add_dir, mul_dir = tmp_path / "add", tmp_path / "mul"
    run_child(add_dir, "add")
    run_child(mul_dir, "mul")
    (add_so,), (mul_so,) = entries(add_dir), entries(mul_dir)
    assert add_so.name != mul_so.name
    add_so.write_bytes(mul_so.read_bytes())
    again = run_child(add_dir, "add")
    assert again == dict(again, ok=True, hits=0, writes=1)


def test_an_unwritable_directory_compiles_in_memory(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    result = run_child(blocker / "cache")
    assert result == dict(result, ok=True, hits=0, writes=0, failures=1)


def test_two_processes_writing_one_entry(tmp_path):
    env = dict(os.environ, STRIDE_CACHE_DIR=str(tmp_path))
    procs = [subprocess.Popen([sys.executable, "-c", CHILD, "add"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(2)]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        assert json.loads(out.strip().splitlines()[-1])["ok"]
    assert len(entries(tmp_path)) == 1
    assert not [p for p in tmp_path.iterdir() if p.suffix != ".so"]
    assert run_child(tmp_path)["hits"] == 1


def test_compile_of_hand_written_ir(tmp_path, monkeypatch):
    monkeypatch.setenv("STRIDE_CACHE_DIR", str(tmp_path))
    ir = """
    func.func @f(%a: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<*xf32> {
      %0 = stride.mul %a, %b : tensor<?x?xf32>, tensor<?xf32> -> tensor<*xf32>
      return %0 : tensor<*xf32>
    }"""
    f = stride.compile(ir, "f", cache=True)
    a = np.arange(12, dtype=np.float32).reshape(3, 4).T  # a transposed view
    b = np.arange(3, dtype=np.float32)
    before = stride.cache_info()
    np.testing.assert_array_equal(f(a, b), a * b)
    after = stride.cache_info()
    assert after.disk_writes == before.disk_writes + 1
    assert len(entries(tmp_path)) == 1
    stride.clear_cache()  # forget the kernel in memory; the file stays
    np.testing.assert_array_equal(f(a, b), a * b)
    assert stride.cache_info().disk_hits == 1
    assert stride.cache_dir() == str(tmp_path)


def test_cache_must_be_a_bool():
    with pytest.raises(TypeError, match="cache must be True or False"):
        stride.jit(lambda a: a, cache="yes")
    with pytest.raises(TypeError, match="cache must be True or False"):
        stride.compile("", "f", cache=1)
