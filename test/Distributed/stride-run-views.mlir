// Views distribute: permute, transpose, squeeze and unsqueeze take a
// block of their operand to a block of their result, on 2 ranks, on a 2x2
// grid and on 6 ranks holding one row each (where a rank's block has size
// 1 along a dim the squeeze keeps). Compared with one process, values and
// strides.
// REQUIRES: mpi, mpich
// RUN: rm -rf %t && mkdir -p %t
// RUN: stride-run %S/Inputs/views.mlir --random-inputs --output-dir %t/one | FileCheck %s
// RUN: %mpirun_openmpi -np 2 stride-run %S/Inputs/views.mlir --distribute 2 --random-inputs --output-dir %t/two | FileCheck %s
// RUN: %PYTHON %S/Inputs/same-npy.py %t/one %t/two | FileCheck %s --check-prefix=SAME
// RUN: %mpirun_mpich -np 4 stride-run %S/Inputs/views.mlir --distribute 2x2 --random-inputs --output-dir %t/grid | FileCheck %s
// RUN: %PYTHON %S/Inputs/same-npy.py %t/one %t/grid | FileCheck %s --check-prefix=SAME
// RUN: %mpirun_mpich -np 6 stride-run %S/Inputs/views.mlir --distribute 6 --distribute-strategy rows --random-inputs --output-dir %t/six | FileCheck %s
// RUN: %PYTHON %S/Inputs/same-npy.py %t/one %t/six | FileCheck %s --check-prefix=SAME

// CHECK: output #0: f32 6x8 strides [1, 6]
// CHECK: output #1: f32 8x1x6 strides [6, 48, 1]
// SAME: same out0.npy float32 (6, 8)
// SAME: same out1.npy float32 (8, 1, 6)
