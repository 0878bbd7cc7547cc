// MLIR 22's custom parsers of linalg.transpose `permutation = ...` and of
// linalg.broadcast / linalg.reduce `dimensions = ...` crash (a null attribute
// reaches NamedAttrList::set) when the value is not a list of integers; the
// fuzzer found it (build-san/fuzz-findings/crash-89850d0b...). Stride's front
// doors (stride-opt, stride-run, stride-compile, Python) parse through a guard that
// reports the list instead. A well-formed list still parses and runs.
// RUN: rm -rf %t && split-file %s %t
// RUN: %PYTHON -c "import numpy as np, sys; np.save(sys.argv[1], np.arange(1, 7, dtype=np.float32).reshape(3, 2))" %t/x.npy
// RUN: not stride-run %t/comma.mlir --input %t/x.npy 2>&1 | FileCheck %s --check-prefix=COMMA
// RUN: not stride-run %t/scalar.mlir --input %t/x.npy 2>&1 | FileCheck %s --check-prefix=SCALAR
// RUN: not stride-run %t/space.mlir --input %t/x.npy 2>&1 | FileCheck %s --check-prefix=SPACE
// RUN: not stride-compile %t/comma.mlir -o %t/k.o 2>&1 | FileCheck %s --check-prefix=COMMA
// RUN: not stride-opt %t/comma.mlir 2>&1 | FileCheck %s --check-prefix=COMMA
// RUN: not stride-opt < %t/scalar.mlir 2>&1 | FileCheck %s --check-prefix=STDIN
// RUN: stride-opt < %t/good.mlir | FileCheck %s --check-prefix=OPT
// RUN: stride-run %t/good.mlir --input %t/x.npy --print | FileCheck %s --check-prefix=GOOD

// A leading comma in a transpose permutation.
// COMMA: comma.mlir:3:{{[0-9]+}}: error: expected a list of integers after 'permutation ='
// COMMA-NOT: Stack dump

// A bare integer as broadcast dimensions.
// SCALAR: scalar.mlir:3:{{[0-9]+}}: error: expected a list of integers after 'dimensions ='

// Two integers without a comma as reduce dimensions.
// SPACE: space.mlir:4:{{[0-9]+}}: error: expected a list of integers after 'dimensions ='

// stride-opt reads stdin once for the check and once to parse.
// STDIN: <stdin>:3:{{[0-9]+}}: error: expected a list of integers after 'dimensions ='
// OPT: linalg.transpose {{.*}} permutation = [1, 0]

// GOOD: output #0: f32 2x3 strides [3, 1]
// GOOD-NEXT: {{\[\[}}1, 3, 5],
// GOOD-NEXT: [2, 4, 6]]

//--- comma.mlir
func.func @main(%x: tensor<3x2xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %t = linalg.transpose ins(%x : tensor<3x2xf32>) outs(%e : tensor<2x3xf32>) permutation = [,1, 0]
  return %t : tensor<2x3xf32>
}
//--- scalar.mlir
func.func @main(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %b = linalg.broadcast ins(%x : tensor<3xf32>) outs(%e : tensor<2x3xf32>) dimensions = 0
  return %b : tensor<2x3xf32>
}
//--- space.mlir
func.func @main(%x: tensor<2x3xf32>) -> tensor<f32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.from_elements %z : tensor<f32>
  %r = linalg.reduce ins(%x : tensor<2x3xf32>) outs(%e : tensor<f32>) dimensions = [0 1]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<f32>
}
//--- good.mlir
func.func @main(%x: tensor<3x2xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %t = linalg.transpose ins(%x : tensor<3x2xf32>) outs(%e : tensor<2x3xf32>) permutation = [1, 0]
  return %t : tensor<2x3xf32>
}
