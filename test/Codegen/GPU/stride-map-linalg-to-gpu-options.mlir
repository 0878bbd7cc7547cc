// RUN: not stride-opt %s --stride-map-linalg-to-gpu=block-size=2048 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not stride-opt %s --stride-map-linalg-to-gpu=max-blocks=0 2>&1 | FileCheck %s --check-prefix=GRID

// Out-of-range options are refused with the value named.
// BLOCK: error: block-size must be in [1, 1024], got 2048
// GRID: error: max-blocks must be positive, got 0
func.func @f() {
  return
}
