// Reductions of elementwise expressions run as one stride.map_reduce kernel
// (stride-fuse) and give NumPy's values: sum(x * y) over rows (lanes) and
// in full, amax(abs(a - b)) with a transposed and a reversed operand,
// mean((x - m) ** 2) with a broadcast mean, any/all of comparisons, an
// integer product and a float64 sum; on the CPU and with the GPU kernels
// run on the host. The lowered sum(x * y) reads x and y in one reduction
// generic and allocates no 4x1000 intermediate.
// RUN: stride-opt %s --stride-to-linalg-pipeline | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t x="rand(4, 1000)" y="rand(1000)" a="rand(6, 5)" b="rand(5, 6)[::-1]" i="np.arange(1, 13, dtype=np.int32).reshape(3, 4)" z="rand(3, 300, dtype=np.float64)"
// RUN: stride-run %s --input %t/x.npy --input %t/y.npy --input %t/a.npy --input %t/b.npy --input %t/i.npy --input %t/z.npy --output-dir %t/cpu
// RUN: stride-run %s --target gpu-host --input %t/x.npy --input %t/y.npy --input %t/a.npy --input %t/b.npy --input %t/i.npy --input %t/z.npy --output-dir %t/gpu
// RUN: %npytool check %t "np.sum(x * y, axis=1)" %t/cpu/out0.npy 1e-5
// RUN: %npytool check %t "np.sum(x * y)" %t/cpu/out1.npy 1e-4
// RUN: %npytool check %t "np.max(np.abs(a.T - b), axis=0, keepdims=True)" %t/cpu/out2.npy
// RUN: %npytool check %t "np.mean((x - np.mean(x, axis=0, keepdims=True)) ** 2, axis=0)" %t/cpu/out3.npy
// RUN: %npytool check %t "np.any(x > 1.99, axis=1)" %t/cpu/out4.npy
// RUN: %npytool check %t "np.all(x < 2, axis=0)" %t/cpu/out5.npy
// RUN: %npytool check %t "np.prod(i * 2, axis=0)" %t/cpu/out6.npy
// RUN: %npytool check %t "np.sum(np.exp(z), axis=-1)" %t/cpu/out7.npy 1e-12
// RUN: %npytool check %t "np.sum(x * y, axis=1)" %t/gpu/out0.npy 1e-5
// RUN: %npytool check %t "np.max(np.abs(a.T - b), axis=0, keepdims=True)" %t/gpu/out2.npy
// RUN: %npytool check %t "np.prod(i * 2, axis=0)" %t/gpu/out6.npy

// CHECK-LABEL: func.func @main
// CHECK-NOT: memref.alloc() {{.*}} : memref<4000xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]{{.*}} ins(%{{.*}}, %{{.*}} : memref<4x15x64xf32, {{.*}}>, memref<4x15x64xf32, strided<[0, 64, 1]{{.*}}>)
// CHECK: arith.mulf
func.func @main(%x: tensor<4x1000xf32>, %y: tensor<1000xf32>, %a: tensor<6x5xf32>,
                %b: tensor<5x6xf32, #stride.layout<strides = [-6, 1]>>, %i: tensor<3x4xi32>,
                %z: tensor<3x300xf64>)
    -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi1>,
        tensor<*xi1>, tensor<*xi64>, tensor<*xf64>) {
  %p = stride.mul %x, %y : tensor<4x1000xf32>, tensor<1000xf32> -> tensor<*xf32>
  %s = stride.sum %p axes [1] : tensor<*xf32> -> tensor<*xf32>
  %p2 = stride.mul %x, %y : tensor<4x1000xf32>, tensor<1000xf32> -> tensor<*xf32>
  %s2 = stride.sum %p2 : tensor<*xf32> -> tensor<*xf32>
  %at = stride.permute %a [1, 0] : tensor<6x5xf32> -> tensor<*xf32>
  %d = stride.sub %at, %b : tensor<*xf32>, tensor<5x6xf32, #stride.layout<strides = [-6, 1]>> -> tensor<*xf32>
  %e = stride.abs %d : tensor<*xf32> -> tensor<*xf32>
  %mx = stride.amax %e axes [0] keepdims : tensor<*xf32> -> tensor<*xf32>
  %mean = stride.mean %x axes [0] keepdims : tensor<4x1000xf32> -> tensor<*xf32>
  %c = stride.sub %x, %mean : tensor<4x1000xf32>, tensor<*xf32> -> tensor<*xf32>
  %sq = stride.mul %c, %c : tensor<*xf32>, tensor<*xf32> -> tensor<*xf32>
  %var = stride.mean %sq axes [0] : tensor<*xf32> -> tensor<*xf32>
  %hi = arith.constant 1.99 : f32
  %gt = stride.cmp gt, %x, %hi : tensor<4x1000xf32>, f32 -> tensor<*xi1>
  %any = stride.any %gt axes [1] : tensor<*xi1> -> tensor<*xi1>
  %two = arith.constant 2.0 : f32
  %lt = stride.cmp lt, %x, %two : tensor<4x1000xf32>, f32 -> tensor<*xi1>
  %all = stride.all %lt axes [0] : tensor<*xi1> -> tensor<*xi1>
  %k = arith.constant 2 : i32
  %i2 = stride.mul %i, %k : tensor<3x4xi32>, i32 -> tensor<*xi32>
  %pr = stride.prod %i2 axes [0] : tensor<*xi32> -> tensor<*xi64>
  %ez = stride.exp %z : tensor<3x300xf64> -> tensor<*xf64>
  %sz = stride.sum %ez axes [-1] : tensor<*xf64> -> tensor<*xf64>
  return %s, %s2, %mx, %var, %any, %all, %pr, %sz
      : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi1>,
        tensor<*xi1>, tensor<*xi64>, tensor<*xf64>
}
