#!/usr/bin/env bash
# Builds Stride and runs every test suite: lit/FileCheck (including the JIT
# integration tests), GoogleTest, the layout corpora and the differential
# test. Prints each runner's summary, then one total line.
set -uo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh || exit 1
BUILD_DIR=${STRIDE_BUILD_DIR:-build}
export PATH="/usr/lib/llvm-22/bin:$PATH"

passed=0; failed=0
record() { # record NAME STATUS
  if [ "$2" = 0 ]; then passed=$((passed + 1)); echo "== $1: ok";
  else failed=$((failed + 1)); echo "== $1: FAILED"; fi
}

echo "== lit (test/)"
lit -sv "$BUILD_DIR/test"; record lit $?

for t in StrideLayoutTests StrideDialectTests StrideRuntimeTests; do
  echo "== GoogleTest $t"
  "$BUILD_DIR/bin/$t" --gtest_brief=1; record "$t" $?
done

for corpus in ../shared/layout-corpus.jsonl ../shared/layout-corpus-numpy.jsonl; do
  echo "== corpus $corpus"
  if [ -f "$corpus" ]; then
    /usr/bin/python3 utils/check-corpus --stride-opt "$BUILD_DIR/bin/stride-opt" "$corpus"
    record "corpus $(basename "$corpus")" $?
    echo "== corpus $corpus after fusion and coalescing (layouts must not change)"
    /usr/bin/python3 utils/check-corpus --fuse --stride-opt "$BUILD_DIR/bin/stride-opt" "$corpus"
    record "corpus $(basename "$corpus") --fuse" $?
  else
    echo "corpus $corpus not found (it lives in the project's shared/ folder)"
    record "corpus $(basename "$corpus")" 1
  fi
done

echo "== pytest (python/tests, the stride package)"
PYTHONPATH="$BUILD_DIR/python" /usr/bin/python3 -m pytest python/tests -q -p no:cacheprovider
record pytest $?

echo "== differential test (random programs through stride-run vs NumPy/PyTorch)"
/usr/bin/python3 test/Differential/differential.py --stride-run "$BUILD_DIR/bin/stride-run" \
  --count "${STRIDE_DIFFERENTIAL_COUNT:-200}" --seed 1
record differential $?
echo "== differential test without fusion (fusion must not change values or strides)"
/usr/bin/python3 test/Differential/differential.py --stride-run "$BUILD_DIR/bin/stride-run" \
  --count "${STRIDE_DIFFERENTIAL_COUNT:-200}" --seed 1 --no-fuse
record "differential --no-fuse" $?

echo "suites: $passed passed, $failed failed"
[ "$failed" = 0 ]
