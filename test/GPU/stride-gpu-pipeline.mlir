// stride-gpu-pipeline up to NVVM (binary=false needs no CUDA toolkit): one
// kernel per fused loop nest, launch sizes from the iteration space (static
// or computed at run time), kernels in NVVM with the sm_90 target, PTX 8.0
// and libdevice attached, math calls to libdevice's __nv_* functions.
// RUN: stride-opt %s --split-input-file --stride-gpu-pipeline=binary=false | FileCheck %s
// RUN: stride-opt %s --split-input-file "--stride-gpu-pipeline=binary=false chip=sm_80 features=+ptx75 block-size=128" | FileCheck %s --check-prefix=OPTS

// Static shapes (the demo): 24 points fit one block of 256 threads; the
// grid's size is a constant and the kernel knows it.
// CHECK-LABEL: func.func @demo
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : index
// CHECK:         gpu.launch_func @demo_kernel::@demo_kernel blocks in (%[[C1]], %[[C1]], %[[C1]]) threads in (%[[C256]], %[[C1]], %[[C1]])
// CHECK:       gpu.module @demo_kernel [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80", link = ["{{.*}}libdevice.10.bc"]>]
// CHECK:         llvm.func @__nv_expf(f32) -> f32
// CHECK:         llvm.func @demo_kernel({{.*}}) attributes {gpu.kernel, gpu.known_block_size = array<i32: 256, 1, 1>, gpu.known_grid_size = array<i32: 1, 1, 1>, nvvm.kernel
// CHECK:           nvvm.read.ptx.sreg.tid.x
// CHECK:           llvm.call @__nv_expf
// OPTS-LABEL: func.func @demo
// OPTS:         gpu.launch_func @demo_kernel::@demo_kernel blocks in ({{.*}}) threads in (%c128,
// OPTS:       gpu.module @demo_kernel [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx75"
func.func @demo(%a: tensor<4x2x3xf32, #stride.layout<strides = [2, 24, 8]>>,
                %bias: tensor<3xf32>) -> tensor<*xf32> {
  %e = stride.exp %a : tensor<4x2x3xf32, #stride.layout<strides = [2, 24, 8]>> -> tensor<*xf32>
  %s = stride.add %e, %bias : tensor<*xf32>, tensor<3xf32> -> tensor<*xf32>
  return %s : tensor<*xf32>
}

// -----

// Dynamic shapes: the number of blocks is ceil(points / 256), at least 1 and
// at most 8192, computed on the host before the launch.
// CHECK-LABEL: func.func @dynamic
// CHECK:         %[[N:.*]] = arith.muli
// CHECK:         %[[B:.*]] = arith.ceildivui %[[N]], %c256
// CHECK:         %[[B1:.*]] = arith.maxui %[[B]], %c1
// CHECK:         %[[B2:.*]] = arith.minui %[[B1]], %c8192
// CHECK:         gpu.launch_func @dynamic_kernel::@dynamic_kernel blocks in (%[[B2]], %c1, %c1) threads in (%c256, %c1, %c1)
// CHECK:       gpu.module @dynamic_kernel
// CHECK:         llvm.func @dynamic_kernel
// CHECK:           nvvm.read.ptx.sreg.ctaid.x
// CHECK:           nvvm.read.ptx.sreg.tid.x
// CHECK:           nvvm.read.ptx.sreg.nctaid.x
// CHECK:           nvvm.read.ptx.sreg.ntid.x
func.func @dynamic(%a: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<*xf32> {
  %0 = stride.add %a, %b : tensor<?x?xf32>, tensor<?xf32> -> tensor<*xf32>
  %1 = stride.tanh %0 : tensor<*xf32> -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

// -----

// Batched matmul followed by an elementwise op: the zero fill, the product
// (the tiled kernel: its two staged tiles are workgroup globals in address
// space 3, its steps separated by barriers) and the sigmoid are three
// kernels; the
// intermediate lives in device memory (async alloc and dealloc, each waited
// on at once: the form gpu-to-llvm lowers).
// CHECK-LABEL: func.func @matmul
// CHECK:         %[[W:.*]] = gpu.wait async
// CHECK:         %[[T:.*]], %[[A:.*]] = gpu.alloc async [%[[W]]] () : memref<180xf64>
// CHECK:         gpu.wait [%[[A]]]
// CHECK:         gpu.launch_func @matmul_kernel::@matmul_kernel
// CHECK:         gpu.launch_func @matmul_kernel_0::@matmul_kernel
// CHECK:         gpu.launch_func @matmul_kernel_1::@matmul_kernel
// CHECK:         %[[W2:.*]] = gpu.wait async
// CHECK:         %[[D:.*]] = gpu.dealloc async [%[[W2]]] %[[T]]
// CHECK:         gpu.wait [%[[D]]]
// CHECK:       gpu.module @matmul_kernel_0
// CHECK:         llvm.mlir.global internal @[[WA:__wg_matmul_kernel_[0-9]]]() {addr_space = 3 : i32} : !llvm.array<{{[0-9]+}} x f64>
// CHECK:         llvm.mlir.global internal @[[WB:__wg_matmul_kernel_[0-9]]]() {addr_space = 3 : i32} : !llvm.array<{{[0-9]+}} x f64>
// CHECK:         llvm.func @matmul_kernel
// CHECK:         nvvm.barrier0
// CHECK:         llvm.fmul {{.*}} : f64
// CHECK:         llvm.fadd {{.*}} : f64
func.func @matmul(%a: tensor<3x1x2x4xf64>, %b: tensor<1x5x4x6xf64>) -> tensor<*xf64> {
  %0 = stride.matmul %a, %b : tensor<3x1x2x4xf64>, tensor<1x5x4x6xf64> -> tensor<*xf64>
  %1 = stride.sigmoid %0 : tensor<*xf64> -> tensor<*xf64>
  return %1 : tensor<*xf64>
}
