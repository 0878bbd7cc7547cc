// View ops through the JIT: views bufferize to memref views of their
// operand's buffer (no copy, no kernel of their own), views feed elementwise
// kernels, an entry returning a view returns its values in the view's
// strides, and reshapes the library copies are copies. Values are checked
// against NumPy.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t a="rand(4,3)" b="rand(3,4)" c="rand(5,6)" d="rand(2,3,4)" e="rand(4,1)" f="rand(3)" g="rand(2,5)" h="rand(5)" k="rand(2,2)" z="rand(1,2)"
// RUN: stride-opt %s '--stride-to-linalg-pipeline=policy=numpy' | FileCheck %s --check-prefix=IR
// RUN: stride-run %s --entry permute_add --input %t/a.npy --input %t/b.npy --output-dir %t | FileCheck %s --check-prefix=PERM
// RUN: %npytool check %t "a.T + b" %t/out0.npy
// RUN: stride-run %s --entry slice_out --input %t/c.npy --output-dir %t | FileCheck %s --check-prefix=SLICE
// RUN: %npytool check %t "c[1:-1, 1:5:2]" %t/out0.npy
// RUN: stride-run %s --entry slice_exp --input %t/c.npy --output-dir %t
// RUN: %npytool check %t "np.exp(c[::2, 1:])" %t/out0.npy
// RUN: stride-run %s --entry flip_out --policy numpy --input %t/c.npy --output-dir %t | FileCheck %s --check-prefix=FLIPNP
// RUN: %npytool check %t "np.flip(c, 0)" %t/out0.npy
// RUN: stride-run %s --entry flip_out --input %t/c.npy --output-dir %t | FileCheck %s --check-prefix=FLIPTORCH
// RUN: %npytool check %t "np.flip(c, 0)" %t/out0.npy
// RUN: stride-run %s --entry negative_step_mul --policy numpy --input %t/c.npy --output-dir %t
// RUN: %npytool check %t "c[::-2, ::-1] * c[::2, :]" %t/out0.npy
// RUN: stride-run %s --entry reshape_copy --input %t/a.npy --output-dir %t | FileCheck %s --check-prefix=RESHAPE
// RUN: %npytool check %t "np.reshape(a.T, (2, 6))" %t/out0.npy
// RUN: stride-run %s --entry reshape_view --input %t/d.npy --output-dir %t | FileCheck %s --check-prefix=RESHAPEVIEW
// RUN: %npytool check %t "np.reshape(d, (6, 4)) + 1" %t/out0.npy
// RUN: stride-run %s --entry expand_mul --input %t/e.npy --input %t/f.npy --output-dir %t | FileCheck %s --check-prefix=EXPAND
// RUN: %npytool check %t "np.broadcast_to(e, (2, 4, 3)) * f" %t/out0.npy
// RUN: stride-run %s --entry fused_through_view --input %t/a.npy --input %t/a.npy --input %t/b.npy --output-dir %t | FileCheck %s --check-prefix=FUSED
// RUN: %npytool check %t "(a + a).T * b" %t/out0.npy
// RUN: stride-run %s --entry fused_through_view --no-fuse --input %t/a.npy --input %t/a.npy --input %t/b.npy --output-dir %t | FileCheck %s --check-prefix=FUSED
// RUN: %npytool check %t "(a + a).T * b" %t/out0.npy
// RUN: stride-run %s --entry fused_chain --input %t/g.npy --input %t/h.npy --input %t/k.npy --output-dir %t
// RUN: %npytool check %t "(g - h * np.float32(2))[:, 1::2].T + k" %t/out0.npy
// Slices of dynamic dims, compiled as written: Python's clamping at run
// time, an empty result included.
// RUN: stride-run %s --entry dynamic_slice --dynamic --policy numpy --input %t/c.npy --output-dir %t | FileCheck %s --check-prefix=DYN
// RUN: %npytool check %t "np.exp(c[1:-1, ::2])" %t/out0.npy
// RUN: stride-run %s --entry dynamic_slice --dynamic --policy numpy --input %t/z.npy --output-dir %t | FileCheck %s --check-prefix=DYNZERO
// RUN: %npytool check %t "np.exp(z[1:-1, ::2])" %t/out0.npy
// RUN: stride-run %s --entry dynamic_slice_bounds --dynamic --policy numpy --input %t/c.npy --output-dir %t
// RUN: %npytool check %t "-c[-2:, 1:7:3]" %t/out0.npy
// A reshape of dynamic sizes is a row-major copy, then the row-major view
// of the new shape (the -1 dim counted at run time).
// RUN: stride-run %s --entry dynamic_reshape --dynamic --policy numpy --input %t/c.npy --output-dir %t | FileCheck %s --check-prefix=DYNRESHAPE
// RUN: %npytool check %t "np.exp(np.reshape(c.T, (-1, 2)))" %t/out0.npy
// RUN: stride-run %s --entry squeeze_chain --input %t/e.npy --input %t/d.npy --output-dir %t
// RUN: %npytool check %t "np.swapaxes(np.expand_dims(np.squeeze(e, 1), 0), 0, 1) - d[0:1, :1, :][0]" %t/out0.npy

// No view allocates or computes: each is one memref.reinterpret_cast of its
// operand's buffer that the kernel reads.
// IR-LABEL: func.func @permute_add
// IR-NOT: memref.alloc
// IR: linalg.generic
// IR-NOT: linalg.generic
// IR-LABEL: func.func @slice_out
// IR: memref.reinterpret_cast %arg0 to offset: [%{{.*}}], sizes: [3, 2], strides: [6, 2]
// IR-NOT: memref.alloc
// IR-LABEL: func.func @reshape_copy
// IR: memref.alloc() {{.*}} : memref<12xf32>
// IR-LABEL: func.func @fused_through_view
// IR-NOT: memref.alloc
// IR: linalg.generic
// IR-NOT: linalg.generic
// IR-LABEL: func.func @fused_chain
// IR-NOT: memref.alloc
// IR: linalg.generic
// IR-NOT: linalg.generic
// IR-LABEL: func.func @dynamic_slice

// PERM: output #0: f32 3x4 strides [1, 3]
func.func @permute_add(%a: tensor<4x3xf32>, %b: tensor<3x4xf32>) -> tensor<*xf32> {
  %t = stride.permute %a [1, 0] : tensor<4x3xf32> -> tensor<*xf32>
  %r = stride.add %t, %b : tensor<*xf32>, tensor<3x4xf32> -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// An entry returning a view returns it in the view's strides.
// SLICE: output #0: f32 3x2 strides [6, 2]
func.func @slice_out(%c: tensor<5x6xf32>) -> tensor<*xf32> {
  %s = stride.slice %c [1:-1, 1:5:2] : tensor<5x6xf32> -> tensor<*xf32>
  return %s : tensor<*xf32>
}

func.func @slice_exp(%c: tensor<5x6xf32>) -> tensor<*xf32> {
  %s = stride.slice %c [::2, 1:] : tensor<5x6xf32> -> tensor<*xf32>
  %e = stride.exp %s : tensor<*xf32> -> tensor<*xf32>
  return %e : tensor<*xf32>
}

// NumPy's flip is a view with a negative stride; torch.flip copies.
// FLIPNP: output #0: f32 5x6 strides [-6, 1]
// FLIPTORCH: output #0: f32 5x6 strides [6, 1]
func.func @flip_out(%c: tensor<5x6xf32>) -> tensor<*xf32> {
  %f = stride.flip %c [0] : tensor<5x6xf32> -> tensor<*xf32>
  return %f : tensor<*xf32>
}

func.func @negative_step_mul(%c: tensor<5x6xf32>) -> tensor<*xf32> {
  %r = stride.slice %c [::-2, ::-1] : tensor<5x6xf32> -> tensor<*xf32>
  %s = stride.slice %c [::2, :] : tensor<5x6xf32> -> tensor<*xf32>
  %m = stride.mul %r, %s : tensor<*xf32>, tensor<*xf32> -> tensor<*xf32>
  return %m : tensor<*xf32>
}

// A transposed matrix does not reshape to 2x6 as a view: a row-major copy.
// RESHAPE: output #0: f32 2x6 strides [6, 1]
func.func @reshape_copy(%a: tensor<4x3xf32>) -> tensor<*xf32> {
  %t = stride.permute %a [1, 0] : tensor<4x3xf32> -> tensor<*xf32>
  %r = stride.reshape %t [2, 6] : tensor<*xf32> -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// RESHAPEVIEW: output #0: f32 6x4 strides [4, 1]
func.func @reshape_view(%d: tensor<2x3x4xf32>) -> tensor<*xf32> {
  %r = stride.reshape %d [6, -1] : tensor<2x3x4xf32> -> tensor<*xf32>
  %one = arith.constant 1.0 : f32
  %s = stride.add %r, %one : tensor<*xf32>, f32 -> tensor<*xf32>
  return %s : tensor<*xf32>
}

// EXPAND: output #0: f32 2x4x3 strides [12, 3, 1]
func.func @expand_mul(%e: tensor<4x1xf32>, %f: tensor<3xf32>) -> tensor<*xf32> {
  %x = stride.expand %e [2, 4, 3] : tensor<4x1xf32> -> tensor<*xf32>
  %m = stride.mul %x, %f : tensor<*xf32>, tensor<3xf32> -> tensor<*xf32>
  return %m : tensor<*xf32>
}

func.func @squeeze_chain(%e: tensor<4x1xf32>, %d: tensor<2x3x4xf32>) -> tensor<*xf32> {
  %s = stride.squeeze %e dims [1] : tensor<4x1xf32> -> tensor<*xf32>
  %u = stride.unsqueeze %s [0] : tensor<*xf32> -> tensor<*xf32>
  %t = stride.transpose %u [0, 1] : tensor<*xf32> -> tensor<*xf32>
  %d0 = stride.slice %d [0:1, :1, :] : tensor<2x3x4xf32> -> tensor<*xf32>
  %d1 = stride.squeeze %d0 dims [0] : tensor<*xf32> -> tensor<*xf32>
  %r = stride.sub %t, %d1 : tensor<*xf32>, tensor<*xf32> -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// A view of an intermediate costs nothing: (a + a).T * b is one kernel
// reading a transposed, and the result has the strides it has unfused.
// FUSED: output #0: f32 3x4 strides [1, 3]
func.func @fused_through_view(%a: tensor<4x3xf32>, %a2: tensor<4x3xf32>, %b: tensor<3x4xf32>) -> tensor<*xf32> {
  %s = stride.add %a, %a2 : tensor<4x3xf32>, tensor<4x3xf32> -> tensor<*xf32>
  %t = stride.permute %s [1, 0] : tensor<*xf32> -> tensor<*xf32>
  %r = stride.mul %t, %b : tensor<*xf32>, tensor<3x4xf32> -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// Views of views of a broadcast expression: all sink to the inputs (the
// broadcast vector through a stride-0 expand) and the whole expression is one
// kernel.
func.func @fused_chain(%g: tensor<2x5xf32>, %h: tensor<5xf32>, %k: tensor<2x2xf32>) -> tensor<*xf32> {
  %two = arith.constant 2.0 : f32
  %m = stride.mul %h, %two : tensor<5xf32>, f32 -> tensor<*xf32>
  %s = stride.sub %g, %m : tensor<2x5xf32>, tensor<*xf32> -> tensor<*xf32>
  %v = stride.slice %s [:, 1::2] : tensor<*xf32> -> tensor<*xf32>
  %t = stride.permute %v [1, 0] : tensor<*xf32> -> tensor<*xf32>
  %r = stride.add %t, %k : tensor<*xf32>, tensor<2x2xf32> -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// DYN: output #0: f32 3x3
// DYNZERO: output #0: f32 0x1
func.func @dynamic_slice(%x: tensor<?x?xf32>) -> tensor<*xf32> {
  %s = stride.slice %x [1:-1, ::2] : tensor<?x?xf32> -> tensor<*xf32>
  %e = stride.exp %s : tensor<*xf32> -> tensor<*xf32>
  return %e : tensor<*xf32>
}

func.func @dynamic_slice_bounds(%x: tensor<?x?xf32>) -> tensor<*xf32> {
  %s = stride.slice %x [-2:, 1:7:3] : tensor<?x?xf32> -> tensor<*xf32>
  %e = stride.neg %s : tensor<*xf32> -> tensor<*xf32>
  return %e : tensor<*xf32>
}

// DYNRESHAPE: output #0: f32 15x2 strides [2, 1]
func.func @dynamic_reshape(%x: tensor<?x?xf32>) -> tensor<*xf32> {
  %t = stride.permute %x [1, 0] : tensor<?x?xf32> -> tensor<*xf32>
  %r = stride.reshape %t [-1, 2] : tensor<*xf32> -> tensor<*xf32>
  %e = stride.exp %r : tensor<*xf32> -> tensor<*xf32>
  return %e : tensor<*xf32>
}
