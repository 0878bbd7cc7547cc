"""stride.compile(..., distribute=comm) through mpi4py (issue 29): the
script mpi/distributed_compile.py runs on 2 ranks and on a 2x2 grid of 4
under OpenMPI's mpirun (Debian's mpi4py is built on OpenMPI) and compares
each rank's blocks, gathered, with NumPy and the one-process kernel. The
argument checks run in this process."""
import os
import shutil
import subprocess
import sys

import pytest

import stride

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "mpi", "distributed_compile.py")


def _launcher():
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        return None, "mpi4py is not installed (apt-get install python3-mpi4py)"
    run = shutil.which("mpirun.openmpi")
    if not run:
        return None, "mpirun.openmpi is not installed"
    return run, ""


@pytest.mark.parametrize("ranks,grid", [(2, None), (4, "2x2")])
def test_blocks_match_numpy(ranks, grid):
    run, why = _launcher()
    if not run:
        print(f"skipped: {why}")
        pytest.skip(why)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    cmd = [run, "--allow-run-as-root", "--oversubscribe", "-np", str(ranks),
           "-x", "PYTHONPATH", sys.executable, SCRIPT] + ([grid] if grid else [])
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = [l for l in proc.stdout.splitlines() if l.startswith("ok ")]
    names = [l.split()[1] for l in lines]
    assert names == ["matmul-auto-relu", "matmul-auto-product", "matmul-k-relu",
                     "matmul-k-product", "elementwise-sum", "wrong-block"], \
        proc.stdout + proc.stderr
    # Results come back in the single-process strides.
    assert "ok matmul-auto-relu (8, 4) (4, 1)" in lines
    assert "ok elementwise-sum (8,) (1,)" in lines
    block = {None: "(4, 6)", "2x2": "(2, 6)"}[grid]
    assert f"holds a block of shape {block} of the whole (8, 6)" in proc.stdout


def test_distribute_needs_a_communicator():
    with pytest.raises(TypeError, match="expects an mpi4py communicator"):
        stride.compile("func.func @f() { return }", "f", distribute=4)


def test_grid_needs_distribute():
    with pytest.raises(ValueError, match="grid= and strategy= need distribute="):
        stride.compile("func.func @f() { return }", "f", grid="2x2")


def test_distribute_refuses_the_disk_cache():
    with pytest.raises(ValueError, match="does not combine with cache="):
        stride.compile("func.func @f() { return }", "f", distribute=object(),
                       cache=True)
