# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "STRIDE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.stride_obj_root, "test")
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "Inputs"]

config.substitutions.append(("%PYTHON", config.python_executable))
config.substitutions.append(("%stride_src_root", config.stride_src_root))
config.substitutions.append(
    ("%npytool", config.python_executable + " " +
     os.path.join(config.test_source_root, "Integration", "Inputs", "npytool.py")))
config.substitutions.append(
    ("%npy_fixtures", os.path.join(config.test_source_root, "Inputs", "npy")))

llvm_config.use_default_substitutions()
# Sanitizer builds are configured through the environment (scripts/test.sh).
llvm_config.with_system_environment(["ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"])
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.stride_tools_dir, config.llvm_tools_dir]
tools = ["stride-opt", "stride-run", "stride-compile", "stride-exec",
         "stride-capi-test", "stride-capi-dialect-handles-test", "stride-lsp-server", "stride-gpu-info",
         ToolSubst("mlir-opt", unresolved="ignore")]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Ahead-of-time tests compile C programs against generated headers and look
# for libstride_runtime.so next to the tools.
config.substitutions.append(("%stride_lib_dir", os.path.join(config.stride_obj_root, "lib")))
config.substitutions.append(("%stride_bin_dir", config.stride_tools_dir))

# GPU binaries need ptxas from a CUDA toolkit (CUDA_HOME, /usr/local/cuda or
# PATH); without one, the tests that need it report UNSUPPORTED.
import shutil
_cuda_bins = [os.path.join(os.environ["CUDA_HOME"], "bin")] if os.environ.get("CUDA_HOME") else []
_cuda_bins += ["/usr/local/cuda/bin", os.environ.get("PATH", "")]
_ptxas = shutil.which("ptxas", path=os.pathsep.join(_cuda_bins))
if _ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", _ptxas))
else:
    lit_config.note("ptxas not found (no CUDA toolkit): GPU binary tests are skipped")
config.substitutions.append(
    ("%cuda_stub", "/usr/local/cuda/lib64/stubs/libcuda.so"))
if os.path.exists("/usr/local/cuda/lib64/stubs/libcuda.so"):
    config.available_features.add("cuda-stub")

# Distributed tests (test/Distributed) run the MPI runtime under each MPI's
# launcher: feature `mpi` for OpenMPI (mpicc and mpirun, preferring Debian's
# unambiguous mpicc.openmpi/mpirun.openmpi since `mpirun` is an alternative
# that may be MPICH's), `mpich` for MPICH (mpicc.mpich, mpirun.mpich). Each
# needs its build of the runtime too (CMake builds it when it finds the
# wrapper; re-run cmake after installing an MPI).
import subprocess

# Under the sanitizers (ASAN_OPTIONS set), LeakSanitizer reports the
# allocations OpenMPI and MPICH make in MPI_Init and never free; their frames
# are uninstrumented, so suppressions cannot name them. Ranks run without leak
# detection; ASan's and UBSan's other checks stay on, and the one-process runs
# in the same tests keep leak detection. UCX (under MPICH) patches mmap's
# code at load time, which jumps into ASan's interceptor and crashes: its
# memory hooks are turned off (UCX_MEM_MMAP_HOOK_MODE=none).
_mpi_env = []
if os.environ.get("ASAN_OPTIONS"):
    _mpi_env = ["env", "ASAN_OPTIONS=%s:detect_leaks=0" % os.environ["ASAN_OPTIONS"]]
    # Outside mpirun too: stride-exec loads an MPI build to list a
    # distributed library.
    config.environment["UCX_MEM_MMAP_HOOK_MODE"] = "none"
    lit_config.note("MPI ranks run with detect_leaks=0: the MPI libraries' own "
                    "allocations in MPI_Init are never freed")

def _stride_mpi(feature, variant, compilers, launchers, markers, launch_args):
    cc = next((shutil.which(c) for c in compilers if shutil.which(c)), None)
    run = next((shutil.which(r) for r in launchers if shutil.which(r)), None)
    lib = os.path.join(config.stride_obj_root, "lib", "libstride_mpi_%s.so" % variant)
    config.substitutions.append(("%%stride_mpi_%s_lib" % variant, lib))
    config.substitutions.append(
        ("%%mpirun_%s" % variant, " ".join(_mpi_env + [run or "mpirun-not-found"] + launch_args)))
    if not cc or not run:
        lit_config.note("%s not found: %s tests are skipped" % (variant, feature))
        return
    try:
        version = subprocess.run([run, "--version"], capture_output=True,
                                 text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        version = ""
    if not any(m in version for m in markers):
        lit_config.note("%s is not %s's launcher: %s tests are skipped" % (run, variant, feature))
    elif not os.path.exists(lib):
        lit_config.note("%s is missing (re-run cmake and build): %s tests are skipped" % (lib, feature))
    else:
        config.available_features.add(feature)

_stride_mpi("mpi", "openmpi", ["mpicc.openmpi", "mpicc"], ["mpirun.openmpi", "mpirun"],
            ["Open MPI", "OpenRTE"], ["--allow-run-as-root", "--oversubscribe"])
_stride_mpi("mpich", "mpich", ["mpicc.mpich"], ["mpirun.mpich"], ["HYDRA"], [])
config.substitutions.append(
    ("%stride_mpi_include", os.path.join(config.stride_src_root, "runtime", "mpi")))
