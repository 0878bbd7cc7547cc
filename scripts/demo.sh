#!/usr/bin/env bash
# Builds Stride and runs the main demo: the seed's strided example of
# pytorch#42922 compiled by the CPU pipeline and run by the stride-run JIT,
# with its outputs, their strides and the time per call.
set -euo pipefail
cd "$(dirname "$0")/.."
STRIDE_TARGETS="stride-opt stride-run" ./scripts/setup.sh
BUILD_DIR=${STRIDE_BUILD_DIR:-build}
echo "== examples/demo.mlir"
cat examples/demo.mlir
echo
echo "== after shape inference, layout propagation (torch), generalization, coalescing"
"$BUILD_DIR/bin/stride-opt" examples/demo.mlir --stride-infer-shapes \
  '--stride-propagate-layout=policy=torch' --stride-generalize --stride-coalesce
echo "== stride-run examples/demo.mlir --random-inputs --print --bench 1000"
"$BUILD_DIR/bin/stride-run" examples/demo.mlir --random-inputs --seed 1 --print --bench 1000
