// The tiled shared-memory matmul kernel of stride-map-linalg-to-gpu runs on
// the host (--target=gpu-host: barriers by loop fission, one shared buffer
// per block, one private accumulator per thread, at most 4 blocks so blocks
// walk several tiles), checked against NumPy: sizes that are not multiples
// of the 64 x 64 x 16 tile, dynamic shapes, broadcast batches, transposed
// operands, f32, f64 and i32, and the small-batch shape of the benchmark.
// RUN: rm -rf %t && mkdir -p %t
// RUN: stride-opt %s --stride-to-gpu-launch-pipeline | FileCheck %s --check-prefix=TILED
// RUN: %npytool make %t a="rand(150,70)" b="rand(70,130)" p="rand(3,1,40,21).astype(np.float64)" q="rand(1,4,21,70).astype(np.float64)" s="rand(64,1,8,8)" t="rand(1,64,8,8)" u="rand(70,50)" v="rand(50,90)" i="(rand(2,33,17)*20-10).astype(np.int32)" j="(rand(17,9)*20-10).astype(np.int32)"
// RUN: stride-run %s --target=gpu-host --entry dynamic --dynamic --input %t/a.npy --input %t/b.npy --output-dir %t | FileCheck %s --check-prefix=DYN
// RUN: %npytool check %t "np.matmul(a, b)" %t/out0.npy 1e-5
// RUN: stride-run %s --target=gpu-host --entry batches64 --dynamic --input %t/p.npy --input %t/q.npy --output-dir %t | FileCheck %s --check-prefix=B64
// RUN: %npytool check %t "np.matmul(p, q)" %t/out0.npy
// RUN: stride-run %s --target=gpu-host --entry small_batches --input %t/s.npy --input %t/t.npy --output-dir %t | FileCheck %s --check-prefix=SMALL
// RUN: %npytool check %t "np.matmul(s, t)" %t/out0.npy 1e-5
// RUN: stride-run %s --target=gpu-host --entry transposed --input %t/u.npy --input %t/v.npy --output-dir %t | FileCheck %s --check-prefix=TRANS
// RUN: %npytool check %t "np.matmul(u, v)" %t/out0.npy 1e-5
// RUN: stride-run %s --target=gpu-host --entry ints --input %t/i.npy --input %t/j.npy --output-dir %t | FileCheck %s --check-prefix=INTS
// RUN: %npytool check %t "np.matmul(i, j)" %t/out0.npy 0

// Every product below is the tiled kernel (workgroup tiles, barriers).
// TILED-LABEL: func.func @dynamic
// TILED:         gpu.launch {{.*}} workgroup(
// TILED:           gpu.barrier
// TILED-LABEL: func.func @batches64
// TILED:         gpu.launch {{.*}} workgroup(%{{.*}} : memref<8x65xf64, #gpu.address_space<workgroup>>
// TILED-LABEL: func.func @small_batches
// TILED:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c8{{.*}}, %{{.*}} = %c8{{.*}}, %{{.*}} = %c1{{.*}}) workgroup(
// TILED-LABEL: func.func @transposed
// TILED:         gpu.launch {{.*}} workgroup(
// TILED-LABEL: func.func @ints
// TILED:         gpu.launch {{.*}} workgroup(

// 150 x 130 is 3 x 3 tiles (the last row and column partial), K = 70 is
// 4 full steps of 16 and a short one of 6.
// DYN: output #0: f32 150x130 strides [130, 1]
func.func @dynamic(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<*xf32> {
  %0 = stride.matmul %a, %b : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// Broadcast batches (stride 0 in each operand), dynamic, f64 (BK = 8).
// B64: output #0: f64 3x4x40x70 strides [11200, 2800, 70, 1]
func.func @batches64(%p: tensor<?x?x?x?xf64>, %q: tensor<?x?x?x?xf64>) -> tensor<*xf64> {
  %0 = stride.matmul %p, %q : tensor<?x?x?x?xf64>, tensor<?x?x?x?xf64> -> tensor<*xf64>
  return %0 : tensor<*xf64>
}

// The benchmark's shape: 4096 batches of 8 x 8 products (8 x 8 threads).
// SMALL: output #0: f32 64x64x8x8 strides [4096, 64, 8, 1]
func.func @small_batches(%s: tensor<64x1x8x8xf32>, %t: tensor<1x64x8x8xf32>) -> tensor<*xf32> {
  %0 = stride.matmul %s, %t : tensor<64x1x8x8xf32>, tensor<1x64x8x8xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// Column-major operands, read in place (A staged m-fastest, B k-fastest).
// TRANS: output #0: f32 70x90 strides [90, 1]
func.func @transposed(%u: tensor<70x50xf32, #stride.layout<perm = [1, 0]>>,
                      %v: tensor<50x90xf32, #stride.layout<perm = [1, 0]>>) -> tensor<*xf32> {
  %0 = stride.matmul %u, %v : tensor<70x50xf32, #stride.layout<perm = [1, 0]>>, tensor<50x90xf32, #stride.layout<perm = [1, 0]>> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// Integers: exact.
// INTS: output #0: i32 2x33x9 strides [297, 9, 1]
func.func @ints(%i: tensor<2x33x17xi32>, %j: tensor<17x9xi32>) -> tensor<*xi32> {
  %0 = stride.matmul %i, %j : tensor<2x33x17xi32>, tensor<17x9xi32> -> tensor<*xi32>
  return %0 : tensor<*xi32>
}
