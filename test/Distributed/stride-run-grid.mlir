// Grids of two dims (--distribute 2x2) on 4 ranks, OpenMPI and MPICH,
// against one process: a matmul in 2-D blocks (rows over grid axis 0,
// columns over axis 1), its K split summed over both axes, elementwise ops
// on a transposed input split over two dims, reductions, a user's
// resharding that swaps the axes (single-axis steps over process groups),
// a library run by stride-exec, and a wrong rank count.
// REQUIRES: mpi, mpich
// RUN: rm -rf %t && mkdir -p %t
// RUN: stride-run %S/Inputs/matmul.mlir --random-inputs --output-dir %t/mm1 | FileCheck %s --check-prefix=MM
// RUN: %mpirun_openmpi -np 4 stride-run %S/Inputs/matmul.mlir --distribute 2x2 --random-inputs --output-dir %t/mm4 2>&1 | FileCheck %s --check-prefixes=MM,BLOCKS
// RUN: %PYTHON %S/Inputs/same-npy.py %t/mm1 %t/mm4 | FileCheck %s --check-prefix=SAME-MM
// RUN: %mpirun_mpich -np 4 stride-run %S/Inputs/matmul.mlir --distribute 2x2 --distribute-strategy k --random-inputs --output-dir %t/k4 2>&1 | FileCheck %s --check-prefixes=MM,K
// RUN: %PYTHON %S/Inputs/same-npy.py %t/mm1 %t/k4 | FileCheck %s --check-prefix=SAME-MM
// RUN: stride-run %S/Inputs/elementwise.mlir --random-inputs --seed 3 --output-dir %t/e1 > /dev/null
// RUN: %mpirun_mpich -np 4 stride-run %S/Inputs/elementwise.mlir --distribute 2x2 --random-inputs --seed 3 --output-dir %t/e4 2>&1 | FileCheck %s --check-prefix=EW
// RUN: %PYTHON %S/Inputs/same-npy.py %t/e1 %t/e4 | FileCheck %s --check-prefix=SAME-EW
// RUN: stride-run %S/Inputs/reductions.mlir --policy numpy --random-inputs --output-dir %t/r1 > /dev/null
// RUN: %mpirun_openmpi -np 4 stride-run %S/Inputs/reductions.mlir --policy numpy --distribute 2x2 --random-inputs --output-dir %t/r4 > /dev/null
// RUN: %PYTHON %S/Inputs/same-npy.py %t/r1 %t/r4 | FileCheck %s --check-prefix=SAME-RED
// RUN: stride-run %S/Inputs/reshard-grid-plain.mlir --random-inputs --output-dir %t/s1 > /dev/null
// RUN: %mpirun_openmpi -np 4 stride-run %S/Inputs/reshard-grid.mlir --distribute 2x2 --random-inputs --output-dir %t/s4 > /dev/null
// RUN: %PYTHON %S/Inputs/same-npy.py %t/s1 %t/s4 | FileCheck %s --check-prefix=SAME-RESHARD
// RUN: %mpirun_mpich -np 4 stride-run %S/Inputs/reshard-grid.mlir --distribute 2x2 --random-inputs --output-dir %t/m4 > /dev/null
// RUN: %PYTHON %S/Inputs/same-npy.py %t/s1 %t/m4 | FileCheck %s --check-prefix=SAME-RESHARD
// RUN: stride-compile %S/Inputs/matmul.mlir --distribute 2x2 -o %t/grid.so 2>/dev/null
// RUN: stride-exec %t/grid.so --list | FileCheck %s --check-prefix=LIST
// RUN: stride-run %S/Inputs/matmul.mlir --random-inputs --seed 5 --output-dir %t/x1 > /dev/null
// RUN: %mpirun_openmpi -np 4 stride-exec %t/grid.so --random-inputs --seed 5 --output-dir %t/x4 | FileCheck %s --check-prefix=MM
// RUN: %PYTHON %S/Inputs/same-npy.py %t/x1 %t/x4 | FileCheck %s --check-prefix=SAME-MM
// RUN: not %mpirun_mpich -np 2 stride-run %S/Inputs/matmul.mlir --distribute 2x2 --random-inputs 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not stride-run %S/Inputs/matmul.mlir --distribute 2y2 --random-inputs 2>&1 | FileCheck %s --check-prefix=BAD

// BLOCKS: @main over a 2x2 grid (4 ranks), split along the rows and columns (dim 0 (size 8) and dim 1 (size 4); grid axis 0 -> dim 0, grid axis 1 -> dim 1) of the first stride.matmul
// K: split along the contracted dim (K = 12) of the first stride.matmul, summed by an all-reduce
// MM: output #0: f64 8x4 strides [4, 1]
// MM: output #1: f64 8x4 strides [4, 1]
// SAME-MM: same out0.npy float64 (8, 4)
// SAME-MM: same out1.npy float64 (8, 4)
// EW: split along dim 1 (size 6) and dim 0 (size 8); grid axis 0 -> dim 1, grid axis 1 -> dim 0 of the first result
// EW: output #0: f32 8x6 strides [1, 8]
// SAME-EW: same out0.npy float32 (8, 6)
// SAME-RED-COUNT-6: same out
// SAME-RESHARD: same out0.npy float32 (4, 6)
// SAME-RESHARD: same out1.npy float32 (6,)
// LIST: compiled for a 2x2 grid of 4 ranks (mpirun -np 4)
// LIST: argument #0: tensor f64 8x12 strides [12, 1], split along dim 0 (grid axis 0)
// LIST: argument #1: tensor f64 12x4 strides [4, 1], split along dim 1 (grid axis 1)
// LIST: result #0: tensor f64 8x4 strides [4, 1], split along dim 0 (grid axis 0) and dim 1 (grid axis 1)
// COUNT: --distribute 2x2 needs 4 processes, but mpirun started 2
// BAD: stride-run: error: --distribute: grid '2y2': expected sizes separated by 'x', like 4 or 2x2
