"""Builds the stride wheel: CMake builds the extension (into
$STRIDE_BUILD_DIR, default build/, reusing a build that is there), then the
package's Python files, the _stride extension and the GPU runtime library it
loads go into the wheel. At run time it needs only Debian's LLVM/MLIR 22
libraries, which the extension's RUNPATH names (/usr/lib/llvm-22/lib)."""
import glob
import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

ROOT = os.path.dirname(os.path.abspath(__file__))


class BuildWithCMake(build_py):
    def run(self):
        super().run()
        build = os.path.abspath(os.environ.get("STRIDE_BUILD_DIR",
                                               os.path.join(ROOT, "build")))
        if not os.path.exists(os.path.join(build, "build.ninja")):
            subprocess.check_call(
                ["cmake", "-G", "Ninja", "-S", ROOT, "-B", build,
                 "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_C_COMPILER=gcc",
                 "-DCMAKE_CXX_COMPILER=g++"])
        subprocess.check_call(["ninja", "-C", build,
                               f"-j{os.environ.get('STRIDE_JOBS', '2')}",
                               "_stride", "stride_gpu_runtime"])
        target = os.path.join(self.build_lib, "stride")
        built = glob.glob(os.path.join(build, "python", "stride", "_stride*.so"))
        runtime = glob.glob(os.path.join(build, "lib", "libstride_gpu_runtime.so"))
        if len(built) != 1 or len(runtime) != 1:
            raise RuntimeError(f"the CMake build in {build} has no _stride "
                               "extension or GPU runtime library")
        for path in built + runtime:
            shutil.copy2(path, target)


class BinaryDistribution(Distribution):
    """The wheel holds a compiled extension: tag it for this platform."""
    def has_ext_modules(self):
        return True


setup(packages=["stride"], package_dir={"stride": "python/stride"},
      cmdclass={"build_py": BuildWithCMake}, distclass=BinaryDistribution,
      zip_safe=False)
