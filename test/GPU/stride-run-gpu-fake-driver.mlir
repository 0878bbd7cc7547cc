// stride-run --target=gpu against a stand-in driver (Inputs/fake-cuda.c:
// device memory is host memory, launches are logged, not run): the kernels'
// binary is loaded by the JIT's constructors, each argument's whole span is
// copied to the device (the demo's input a, sizes 4x2x3 with strides
// [2, 24, 8], spans 3*2 + 1*24 + 2*8 + 1 = 47 floats = 188 bytes; the bias 12
// bytes; the output 24 floats), the kernel is launched with the grid and
// block the compiler chose, the output is copied back, and --bench times
// calls with events. Values cannot be checked this way (nothing runs the
// PTX); test/Integration/gpu-host.mlir checks the kernels' values.
// RUN: cc -shared -fPIC -o %t.fake-cuda.so %S/Inputs/fake-cuda.c
// RUN: env STRIDE_CUDA_LIBRARY=%t.fake-cuda.so stride-run %stride_src_root/examples/demo.mlir --target=gpu --random-inputs --bench 2 2>&1 | FileCheck %s

// CHECK: fake-cuda: module {{(JIT )?}}load ({{fatbin|PTX}})
// CHECK: fake-cuda: alloc 188 bytes
// CHECK: fake-cuda: copy 188 bytes
// CHECK: fake-cuda: alloc 12 bytes
// CHECK: fake-cuda: copy 12 bytes
// CHECK: fake-cuda: alloc 96 bytes
// CHECK: fake-cuda: copy 96 bytes
// CHECK: fake-cuda: launch demo_kernel grid (1, 1, 1) block (256, 1, 1)
// CHECK: fake-cuda: copy 96 bytes
// CHECK: bench: 2 calls, median 500.000 us
// CHECK: output #0: f32 4x2x3 strides [1, 12, 4]
