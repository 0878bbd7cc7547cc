// Elementwise on a transposed, a broadcast and a scalar operand, split over
// 2 and 4 ranks under OpenMPI and MPICH: the values and the strides are the
// single-process run's.
// REQUIRES: mpi, mpich
// RUN: rm -rf %t && mkdir -p %t
// RUN: stride-run %S/Inputs/elementwise.mlir --random-inputs --seed 3 --output-dir %t/one | FileCheck %s
// RUN: %mpirun_openmpi -np 2 stride-run %S/Inputs/elementwise.mlir --distribute 2 --random-inputs --seed 3 --output-dir %t/o2 2>&1 | FileCheck %s --check-prefixes=CHECK,REMARK
// RUN: %PYTHON %S/Inputs/same-npy.py %t/one %t/o2 | FileCheck %s --check-prefix=SAME
// RUN: %mpirun_openmpi -np 4 stride-run %S/Inputs/elementwise.mlir --distribute 4 --random-inputs --seed 3 --output-dir %t/o4 | FileCheck %s
// RUN: %PYTHON %S/Inputs/same-npy.py %t/one %t/o4 | FileCheck %s --check-prefix=SAME
// RUN: %mpirun_mpich -np 2 stride-run %S/Inputs/elementwise.mlir --distribute 2 --random-inputs --seed 3 --output-dir %t/m2 | FileCheck %s
// RUN: %PYTHON %S/Inputs/same-npy.py %t/one %t/m2 | FileCheck %s --check-prefix=SAME
// RUN: not %mpirun_mpich -np 4 stride-run %S/Inputs/elementwise.mlir --distribute 2 --distribute-strategy rows --random-inputs --seed 3 2>&1 | FileCheck %s --check-prefix=COUNT

// REMARK: stride-distribute: @main over 2 ranks, split along dim 1 (size 6) of the first result, outermost in memory
// CHECK: output #0: f32 8x6 strides [1, 8]
// SAME: same out0.npy float32 (8, 6)
// COUNT: --distribute 2 needs 2 processes, but mpirun started 4
