// The cost report needs no MPI and no data: plans for 1,024 ranks are read
// on one machine. Rows of 4096 x 1024 @ 1024 x 2048 over 1024 ranks: rank 0
// sends each other rank 4 rows of x (16 KiB), all of w (8 MiB) and b (8 KiB)
// and receives 4 rows of the result (32 KiB) from each. Split K, every rank
// does the elementwise tail on the whole all-reduced product.
// RUN: stride-run %S/Inputs/mlp-layer.mlir --distribute 1024 --distribute-report | FileCheck %s
// RUN: stride-run %S/Inputs/elementwise.mlir --distribute 64 --distribute-report | FileCheck %s --check-prefix=UNEVEN
// RUN: not stride-run %S/Inputs/elementwise.mlir --distribute-report 2>&1 | FileCheck %s --check-prefix=NEEDS
// On a 32x32 grid the same 1,024 ranks hold blocks of rows of x and of
// columns of w: each other rank receives 768 KiB instead of 8 MiB.
// RUN: stride-run %S/Inputs/mlp-layer.mlir --distribute 32x32 --distribute-report | FileCheck %s --check-prefix=GRID

// CHECK: distribute report: @main over 1024 ranks; one process does 17221812224 flops
// CHECK: strategy auto: split along the rows (dim 0, size 4096) of the first stride.matmul
// CHECK-NEXT: rank 0 sends 8606687232 B and receives 33521664 B; every other rank receives 8413184 B and sends 32768 B
// CHECK-NEXT: in the kernel: none; 0 B sent and received per rank
// CHECK-NEXT: flops per rank: 16818176 (1.02e+03x fewer than one process)
// CHECK: strategy cols: split along the columns (dim 1, size 2048)
// CHECK: strategy k: split along the contracted dim (K = 1024) of the first stride.matmul, summed by an all-reduce
// CHECK: in the kernel: 1 all_reduce; 67043328 B sent and received per rank
// CHECK-NEXT: flops per rank: 58720256 (293x fewer than one process)

// UNEVEN: strategy auto: not possible: stride-distribute: no dim of the result (8x6) that strategy auto may split divides over 64 ranks; uneven shards are not supported
// NEEDS: stride-run: error: --distribute-report needs --distribute N

// GRID: distribute report: @main over a 32x32 grid of 1024 ranks; one process does 17221812224 flops
// GRID: strategy auto: split along the rows and columns (dim 0 (size 4096) and dim 1 (size 2048); grid axis 0 -> dim 0, grid axis 1 -> dim 1) of the first stride.matmul
// GRID-NEXT: rank 0 sends 804781824 B and receives 33521664 B; every other rank receives 786688 B and sends 32768 B
// GRID-NEXT: in the kernel: none; 0 B sent and received per rank
// GRID-NEXT: flops per rank: 16818176 (1.02e+03x fewer than one process)
// GRID: strategy k: split along the contracted dim (K = 1024) of the first stride.matmul, summed by an all-reduce
// GRID-NEXT: rank 0 sends 33521664 B
// GRID-NEXT: in the kernel: 1 all_reduce; 67043328 B sent and received per rank
