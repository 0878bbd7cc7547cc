// RUN: stride-opt %s --split-input-file --verify-diagnostics --stride-gpu-launch-to-host-loops

// Threads run one after another: a kernel that synchronizes them cannot run
// this way and is refused.
func.func @barrier(%n: index) {
  // expected-error @below {{cannot run on the host one thread at a time: the kernel synchronizes threads with gpu.barrier}}
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %n, %g1 = %n, %g2 = %n)
             threads(%t0, %t1, %t2) in (%s0 = %n, %s1 = %n, %s2 = %n) {
    gpu.barrier
    gpu.terminator
  }
  return
}

// -----

// Shared memory is refused too (its contents are shared between threads).
func.func @shared_memory(%n: index) {
  // expected-error @below {{cannot run on the host one thread at a time: the kernel uses workgroup (shared) memory}}
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %n, %g1 = %n, %g2 = %n)
             threads(%t0, %t1, %t2) in (%s0 = %n, %s1 = %n, %s2 = %n)
             workgroup(%tile : memref<32xf32, #gpu.address_space<workgroup>>) {
    gpu.terminator
  }
  return
}
