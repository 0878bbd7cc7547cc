// RUN: not stride-opt %s --stride-distribute=grid=2x2 2>&1 | FileCheck %s --check-prefix=GRID2D
// RUN: not stride-opt %s --stride-distribute=grid=0 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not stride-opt %s --stride-distribute='grid=2 strategy=diagonal' 2>&1 | FileCheck %s --check-prefix=STRATEGY
// RUN: not stride-opt %s --stride-distribute='grid=2 strategy=k' 2>&1 | FileCheck %s --check-prefix=NOMATMUL
// RUN: stride-opt %s --stride-distribute='grid=4 strategy=cols' 2>&1 | FileCheck %s --check-prefix=COLS

// GRID2D: error: stride-distribute: grid=2x2 has several dimensions; only 1-D grids (grid=N) are supported
// ZERO: error: stride-distribute: grid must be a positive number of processes, got '0'
// STRATEGY: error: stride-distribute: unknown strategy 'diagonal' (expected auto, rows, cols or k)
// NOMATMUL: error: stride-distribute: strategy k needs a stride.matmul, and @f has none
// COLS: remark: stride-distribute: @f over 4 ranks, split along dim 1 of the first result (cols)
// COLS: func.func @f(%{{.*}}: tensor<4x4xf32> {stride.split_dim = 1 : i64}) -> (tensor<4x4xf32> {stride.split_dim = 1 : i64})
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = stride.neg %a : tensor<4x4xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
