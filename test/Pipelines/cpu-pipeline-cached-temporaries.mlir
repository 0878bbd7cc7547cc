// cached-temporaries=true allocates a kernel's temporaries through MLIR's
// generic functions, which the JIT binds to Stride's cache of freed blocks
// (stride/Runtime/TemporaryCache.h); the default stays on malloc and free,
// as libraries that run without Stride's runtime need. stride-run (a JIT
// driver) runs such a kernel, with its 64-lane buffers, against NumPy.
// fuse-rows=false: a row loop would keep its temporaries on the stack.
// RUN: stride-opt %s --stride-cpu-pipeline="cached-temporaries=true fuse-rows=false" | FileCheck %s --check-prefix=CACHED
// RUN: stride-opt %s --stride-cpu-pipeline=fuse-rows=false | FileCheck %s --check-prefix=MALLOC
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t x="rand(300, 1000)"
// RUN: stride-run %s --input %t/x.npy --output-dir %t --bench 3
// RUN: %npytool check %t "np.exp(x - np.mean(x, axis=1, keepdims=True))" %t/out0.npy

// CACHED-LABEL: llvm.func @main
// CACHED: llvm.call @_mlir_memref_to_llvm_alloc
// CACHED: llvm.call @_mlir_memref_to_llvm_free
// CACHED-NOT: llvm.call @malloc
// MALLOC-LABEL: llvm.func @main
// MALLOC: llvm.call @malloc
// MALLOC-NOT: @_mlir_memref_to_llvm
func.func @main(%x: tensor<300x1000xf32>) -> tensor<*xf32> {
  %s = stride.mean %x axes [1] keepdims : tensor<300x1000xf32> -> tensor<*xf32>
  %d = stride.sub %x, %s : tensor<300x1000xf32>, tensor<*xf32> -> tensor<*xf32>
  %e = stride.exp %d : tensor<*xf32> -> tensor<*xf32>
  return %e : tensor<*xf32>
}
