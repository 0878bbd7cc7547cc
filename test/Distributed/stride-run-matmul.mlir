// A matmul with an elementwise consumer, split by rows (no communication)
// and by its contraction (partial products summed by an all-reduce).
// REQUIRES: mpi, mpich
// RUN: rm -rf %t && mkdir -p %t
// RUN: stride-run %S/Inputs/matmul.mlir --random-inputs --output-dir %t/one | FileCheck %s
// RUN: %mpirun_openmpi -np 2 stride-run %S/Inputs/matmul.mlir --distribute 2 --random-inputs --output-dir %t/rows 2>&1 | FileCheck %s --check-prefixes=CHECK,ROWS
// RUN: %PYTHON %S/Inputs/same-npy.py %t/one %t/rows | FileCheck %s --check-prefix=SAME
// RUN: %mpirun_mpich -np 4 stride-run %S/Inputs/matmul.mlir --distribute 4 --distribute-strategy k --random-inputs --output-dir %t/k 2>&1 | FileCheck %s --check-prefixes=CHECK,K
// RUN: %PYTHON %S/Inputs/same-npy.py %t/one %t/k | FileCheck %s --check-prefix=SAME
// RUN: %mpirun_openmpi -np 2 stride-run %S/Inputs/matmul.mlir --distribute 2 --distribute-strategy k --random-inputs --output-dir %t/k2 | FileCheck %s
// RUN: %PYTHON %S/Inputs/same-npy.py %t/one %t/k2 | FileCheck %s --check-prefix=SAME

// ROWS: split along the rows (dim 0, size 8) of the first stride.matmul
// K: split along the contracted dim (K = 12) of the first stride.matmul, summed by an all-reduce
// CHECK: output #0: f64 8x4 strides [4, 1]
// CHECK: output #1: f64 8x4 strides [4, 1]
// SAME: same out0.npy float64 (8, 4)
// SAME: same out1.npy float64 (8, 4)
