// RUN: not stride-opt %s --stride-distribute=grid=2y2 2>&1 | FileCheck %s --check-prefix=GRIDTEXT
// RUN: not stride-opt %s --stride-distribute=grid=2x2x1x1x1 2>&1 | FileCheck %s --check-prefix=GRID5D
// RUN: not stride-opt %s --stride-distribute=grid=0 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not stride-opt %s --stride-distribute='grid=2 strategy=diagonal' 2>&1 | FileCheck %s --check-prefix=STRATEGY
// RUN: not stride-opt %s --stride-distribute='grid=2 strategy=k' 2>&1 | FileCheck %s --check-prefix=NOMATMUL
// RUN: stride-opt %s --stride-distribute='grid=4 strategy=cols' 2>&1 | FileCheck %s --check-prefix=COLS

// GRIDTEXT: error: stride-distribute: grid '2y2': expected sizes separated by 'x', like 4 or 2x2
// GRID5D: error: stride-distribute: grid '2x2x1x1x1': at most 4 dims
// ZERO: error: stride-distribute: grid '0': every size must be at least 1
// STRATEGY: error: stride-distribute: unknown strategy 'diagonal' (expected auto, rows, cols or k)
// NOMATMUL: error: stride-distribute: strategy k needs a stride.matmul, and @f has none
// COLS: remark: stride-distribute: @f over 4 ranks, split along dim 1 of the first result (cols)
// COLS: func.func @f(%{{.*}}: tensor<4x4xf32> {stride.split_dims = array<i64: 1>}) -> (tensor<4x4xf32> {stride.split_dims = array<i64: 1>})
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = stride.neg %a : tensor<4x4xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
