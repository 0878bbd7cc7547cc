#!/usr/bin/env bash
# Builds Stride and runs the main demo: the seed's strided example through
# shape inference, PyTorch layout propagation, generalization and coalescing.
set -euo pipefail
cd "$(dirname "$0")/.."
STRIDE_TARGETS=stride-opt ./scripts/setup.sh
BUILD_DIR=${STRIDE_BUILD_DIR:-build}
echo "== input: examples/demo.mlir"
cat examples/demo.mlir
echo "== stride-opt --stride-infer-shapes --stride-propagate-layout=policy=torch --stride-generalize --stride-coalesce"
"$BUILD_DIR/bin/stride-opt" examples/demo.mlir --stride-infer-shapes \
  '--stride-propagate-layout=policy=torch' --stride-generalize --stride-coalesce
