// stride-compile --distribute N writes a library of one rank's kernel and
// the single-process parameters; mpirun -np N stride-exec runs it like
// stride-run --distribute, under OpenMPI and MPICH, with the values and
// strides of the single-process run.
// REQUIRES: mpi, mpich
// RUN: rm -rf %t && mkdir -p %t
// RUN: stride-run %S/Inputs/matmul.mlir --random-inputs --seed 5 --output-dir %t/one > /dev/null
// RUN: stride-compile %S/Inputs/matmul.mlir --distribute 2 --distribute-strategy k -o %t/k2.so 2>/dev/null
// RUN: stride-compile %S/Inputs/matmul.mlir --distribute 4 -o %t/rows4.so 2>/dev/null
// RUN: stride-exec %t/k2.so --list | FileCheck %s --check-prefix=LIST
// RUN: %mpirun_mpich -np 2 stride-exec %t/k2.so --random-inputs --seed 5 --output-dir %t/k2 | FileCheck %s
// RUN: %PYTHON %S/Inputs/same-npy.py %t/one %t/k2 | FileCheck %s --check-prefix=SAME
// RUN: %mpirun_openmpi -np 4 stride-exec %t/rows4.so --random-inputs --seed 5 --output-dir %t/rows4 | FileCheck %s
// RUN: %PYTHON %S/Inputs/same-npy.py %t/one %t/rows4 | FileCheck %s --check-prefix=SAME
// RUN: not %mpirun_openmpi -np 2 stride-exec %t/rows4.so --random-inputs 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not stride-exec %t/k2.so --random-inputs 2>&1 | FileCheck %s --check-prefix=LAUNCHER

// LIST: compiled for 2 ranks (mpirun -np 2); single-process parameters:
// LIST-NEXT: argument #0: tensor f64 8x12 strides [12, 1], split along dim 1
// LIST-NEXT: argument #1: tensor f64 12x4 strides [4, 1], split along dim 0
// LIST-NEXT: argument #2: tensor f64 4 strides [1], whole on every rank
// CHECK: output #0: f64 8x4 strides [4, 1]
// CHECK: output #1: f64 8x4 strides [4, 1]
// SAME: same out0.npy float64 (8, 4)
// SAME: same out1.npy float64 (8, 4)
// COUNT: @main (compiled for 4 ranks) needs 4 processes, but mpirun started 2
// LAUNCHER: stride-exec: error: @main (compiled for 2 ranks): not started by mpirun
