// A user's shardings that disagree between two ops: the partition reshards
// rows to columns with an all-to-all, which runs through the MPI runtime.
// REQUIRES: mpi, mpich
// RUN: rm -rf %t && mkdir -p %t
// RUN: stride-run %S/Inputs/reshard-plain.mlir --random-inputs --output-dir %t/one | FileCheck %s
// RUN: %mpirun_openmpi -np 2 stride-run %S/Inputs/reshard.mlir --distribute 2 --random-inputs --output-dir %t/o2 2>&1 | FileCheck %s --check-prefixes=CHECK,USER
// RUN: %PYTHON %S/Inputs/same-npy.py %t/one %t/o2 | FileCheck %s --check-prefix=SAME
// RUN: %mpirun_mpich -np 2 stride-run %S/Inputs/reshard.mlir --distribute 2 --random-inputs --output-dir %t/m2 | FileCheck %s
// RUN: %PYTHON %S/Inputs/same-npy.py %t/one %t/m2 | FileCheck %s --check-prefix=SAME
// RUN: stride-opt %S/Inputs/reshard.mlir --stride-cpu-pipeline=distribute=2 2>/dev/null | FileCheck %s --check-prefix=IR

// USER: split along the shardings written in the input
// CHECK: output #0: i32 4x6 strides [6, 1]
// SAME: same out0.npy int32 (4, 6)
// IR: llvm.call @stride_mpi_alltoall_i32
