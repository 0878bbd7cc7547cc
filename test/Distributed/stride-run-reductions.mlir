// Reductions under --distribute: every result and its strides equal the
// single-process run's (policy numpy: results in the input's memory order).
// REQUIRES: mpi, mpich
// RUN: rm -rf %t && mkdir -p %t
// RUN: stride-run %S/Inputs/reductions.mlir --policy numpy --random-inputs --output-dir %t/one | FileCheck %s
// RUN: %mpirun_mpich -np 2 stride-run %S/Inputs/reductions.mlir --policy numpy --distribute 2 --random-inputs --output-dir %t/two | FileCheck %s
// RUN: %PYTHON %S/Inputs/same-npy.py %t/one %t/two | FileCheck %s --check-prefix=SAME
// RUN: stride-run %S/Inputs/full-mean.mlir --random-inputs --output-dir %t/mean1 > /dev/null
// RUN: %mpirun_openmpi -np 4 stride-run %S/Inputs/full-mean.mlir --distribute 4 --random-inputs --output-dir %t/mean4 2>&1 | FileCheck %s --check-prefix=MEAN
// RUN: %PYTHON %S/Inputs/same-npy.py %t/mean1 %t/mean4 | FileCheck %s --check-prefix=SAME-MEAN
// RUN: stride-opt %S/Inputs/full-mean.mlir --stride-cpu-pipeline=distribute=4 2>/dev/null | FileCheck %s --check-prefix=IR
// RUN: stride-run %S/Inputs/arg-reductions.mlir --random-inputs --output-dir %t/arg1 > /dev/null
// RUN: %mpirun_openmpi -np 2 stride-run %S/Inputs/arg-reductions.mlir --distribute 2 --random-inputs --output-dir %t/arg2 2>&1 | FileCheck %s --check-prefix=ARG
// RUN: %PYTHON %S/Inputs/same-npy.py %t/arg1 %t/arg2 | FileCheck %s --check-prefix=SAME-ARG

// CHECK: output #0: f32 6 strides [1]
// CHECK: output #1: f32 8x1 strides [1, 8]
// CHECK: output #2: i64 0-d strides []
// CHECK: output #3: f32 0-d strides []
// CHECK: output #4: i1 6 strides [1]
// CHECK: output #5: f64 8 strides [1]
// SAME-COUNT-6: same out
// MEAN: split along dim 1 (size 8) of the input of the first 'stride.mean', outermost in memory, combined by an all-reduce
// MEAN: output #0: f64 0-d strides []
// SAME-MEAN: same out0.npy float64 ()
// IR: llvm.call @stride_mpi_allreduce_f64
// ARG: split along dim 0 (size 8) of the first result
// ARG: output #1: i64 6 strides [1]
// ARG: output #2: i64 0-d strides []
// SAME-ARG-COUNT-3: same out
