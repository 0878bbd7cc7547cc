// embed-opt, built against the installed Stride, runs Stride's passes inside
// a pipeline of upstream ones on a module that mixes Stride with tensor and
// linalg: its own C++ pipeline, the same as a textual pipeline, and Stride's
// named pipeline nested in upstream passes. The installed stride-opt agrees.
// RUN: embed-opt %S/Inputs/model.mlir --embed-pipeline | FileCheck %s
// RUN: embed-opt %S/Inputs/model.mlir --pass-pipeline='builtin.module(canonicalize,cse,stride-infer-shapes,stride-propagate-layout,stride-generalize,stride-fuse,stride-coalesce,canonicalize,cse)' | FileCheck %s
// RUN: stride-opt %S/Inputs/model.mlir --pass-pipeline='builtin.module(canonicalize,cse,stride-infer-shapes,stride-propagate-layout,stride-generalize,stride-fuse,stride-coalesce,canonicalize,cse)' | FileCheck %s

// The three Stride ops became one fused kernel whose result has the input's
// (transposed) layout, as PyTorch gives it.
// CHECK-LABEL: func.func @scale_bias(
// CHECK-SAME:    -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>>
// CHECK:         %[[R:.*]] = stride.broadcast ins({{.*}}) -> tensor<4x3xf32, #stride.layout<strides = [1, 4]>>
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:           math.tanh
// CHECK:           stride.yield
// CHECK-NOT:     stride.
// CHECK:         return %[[R]]

// The upstream function went through canonicalize: the cast round trip is
// gone, the linalg and tensor ops stay.
// CHECK-LABEL: func.func @make_bias(
// CHECK-NOT:     tensor.cast
// CHECK:         linalg.fill
// CHECK:         tensor.pad
// CHECK:         linalg.add
// CHECK-NOT:     tensor.cast
// CHECK:         return

// Stride's named pipeline nested in upstream passes, on the Stride function
// alone.
// RUN: embed-opt %S/Inputs/kernel-only.mlir --pass-pipeline='builtin.module(canonicalize,stride-to-linalg-pipeline{policy=numpy},cse)' | FileCheck %s --check-prefix=LINALG
// The result is a destination argument in the input's layout, and the loop
// nest walks memory in order (the 4x3 view is iterated as 3x4).
// LINALG-LABEL: func.func @scale_bias(
// LINALG-SAME:    %{{.*}}: memref<4x3xf32, strided<[1, 4], offset: ?>>, %{{.*}}: f32, %{{.*}}: memref<3xf32, strided<[1], offset: ?>>, %{{.*}}: memref<4x3xf32, strided<[1, 4], offset: ?>>)
// LINALG:         linalg.generic {{.*}} outs(%{{.*}} : memref<3x4xf32, strided<[4, 1], offset: ?>>)
// LINALG:           math.tanh
