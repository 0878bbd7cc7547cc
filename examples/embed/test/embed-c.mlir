// embed-c, a C program linked against the installed Stride's C API, runs
// Stride's passes among upstream ones on the mixed module, then compiles and
// calls @scale_bias on caller-owned buffers in the reported layout.
// RUN: embed-c %S/Inputs/model.mlir | FileCheck %s

// CHECK-LABEL: func.func @scale_bias(
// CHECK:         stride.broadcast
// CHECK:           math.tanh
// CHECK-LABEL: func.func @make_bias(
// CHECK:         linalg.add

// The result takes x's transposed layout (NumPy and PyTorch agree), and the
// values are np.tanh(x * 0.5 + [0.5, -1, 2]) with
// x = (0.25 * np.arange(12) - 1).reshape(3, 4).T.
// CHECK: result layout: sizes [4, 3], strides [1, 4]
// CHECK-NEXT: 0.0000 -0.7616 0.9866
// CHECK-NEXT: 0.1244 -0.7039 0.9896
// CHECK-NEXT: 0.2449 -0.6351 0.9919
// CHECK-NEXT: 0.3584 -0.5546 0.9937
// CHECK-NEXT: max abs error vs C: {{0$|[0-9.]+e-0[7-9]$}}
