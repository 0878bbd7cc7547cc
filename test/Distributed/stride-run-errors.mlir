// What --distribute refuses, on every rank, with exit status 1.
// REQUIRES: mpi
// RUN: not %mpirun_openmpi -np 2 stride-run %S/Inputs/uneven.mlir --distribute 2 --random-inputs 2>&1 | FileCheck %s --check-prefix=UNEVEN
// RUN: not %mpirun_openmpi -np 3 stride-run %S/Inputs/elementwise.mlir --distribute 2 --random-inputs 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not stride-run %S/Inputs/elementwise.mlir --distribute 2 --random-inputs 2>&1 | FileCheck %s --check-prefix=LAUNCHER
// RUN: not stride-run %S/Inputs/elementwise.mlir --distribute 2 --dynamic --random-inputs 2>&1 | FileCheck %s --check-prefix=DYNAMIC

// UNEVEN-COUNT-2: no dim of the result (7x3) that strategy auto may split divides over 2 ranks; uneven shards are not supported
// COUNT-DAG: --distribute 2 needs 2 processes, but mpirun started 3 (rank 0)
// COUNT-DAG: --distribute 2 needs 2 processes, but mpirun started 3 (rank 2)
// LAUNCHER: stride-run: error: --distribute 2: not started by mpirun
// DYNAMIC: stride-run: error: --distribute runs static shapes on the CPU
