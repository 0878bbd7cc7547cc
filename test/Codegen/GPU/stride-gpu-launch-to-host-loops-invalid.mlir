// RUN: stride-opt %s --split-input-file --verify-diagnostics --stride-gpu-launch-to-host-loops

// A barrier under a condition on the thread id: only some threads would
// wait, so the body cannot be split there.
func.func @barrier_in_thread_dependent_if(%n: index) {
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %n, %g1 = %n, %g2 = %n)
             threads(%t0, %t1, %t2) in (%s0 = %n, %s1 = %n, %s2 = %n) {
    %c4 = arith.constant 4 : index
    // expected-note @below {{non-uniform value defined here}}
    %low = arith.cmpi ult, %t0, %c4 : index
    // expected-note @below {{the enclosing control flow}}
    scf.if %low {
      // expected-error @below {{'gpu.barrier' op cannot run on the host: it is inside 'scf.if', whose operands are not block-uniform}}
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

// A loop whose trip count depends on the thread id.
func.func @barrier_in_thread_dependent_loop(%n: index) {
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %n, %g1 = %n, %g2 = %n)
             threads(%t0, %t1, %t2) in (%s0 = %n, %s1 = %n, %s2 = %n) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-note @below {{the enclosing control flow}}
    scf.for %i = %c0 to %t1 step %c1 {
      // expected-error @below {{'gpu.barrier' op cannot run on the host: it is inside 'scf.for', whose operands are not block-uniform}}
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

// A loop bound read from memory may differ between threads as far as the
// pass can tell: refused as well.
func.func @barrier_in_loaded_bound(%n: index, %m: memref<index>) {
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %n, %g1 = %n, %g2 = %n)
             threads(%t0, %t1, %t2) in (%s0 = %n, %s1 = %n, %s2 = %n) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-note @below {{non-uniform value defined here}}
    %ub = memref.load %m[] : memref<index>
    // expected-note @below {{the enclosing control flow}}
    scf.for %i = %c0 to %ub step %c1 {
      // expected-error @below {{whose operands are not block-uniform}}
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

// A loop that carries a value across its barrier.
func.func @barrier_in_loop_with_results(%n: index) {
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %n, %g1 = %n, %g2 = %n)
             threads(%t0, %t1, %t2) in (%s0 = %n, %s1 = %n, %s2 = %n) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-note @below {{the enclosing control flow}}
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0) -> (index) {
      // expected-error @below {{'gpu.barrier' op cannot run on the host: it is inside 'scf.for', which yields values}}
      gpu.barrier
      %s = arith.addi %a, %t0 : index
      scf.yield %s : index
    }
    gpu.terminator
  }
  return
}

// -----

// scf.while is not split.
func.func @barrier_in_while(%n: index) {
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %n, %g1 = %n, %g2 = %n)
             threads(%t0, %t1, %t2) in (%s0 = %n, %s1 = %n, %s2 = %n) {
    %false = arith.constant false
    // expected-note @below {{the enclosing control flow}}
    scf.while : () -> () {
      scf.condition(%false)
    } do {
      // expected-error @below {{'gpu.barrier' op cannot run on the host: it is inside 'scf.while', which the host emulation does not split}}
      gpu.barrier
      scf.yield
    }
    gpu.terminator
  }
  return
}

// -----

// A loaded value used after a barrier cannot be recomputed there (the
// memory may have changed): the user and the definition are named.
func.func @load_across_barrier(%n: index, %in: memref<?xf32>, %out: memref<?xf32>) {
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %n, %g1 = %n, %g2 = %n)
             threads(%t0, %t1, %t2) in (%s0 = %n, %s1 = %n, %s2 = %n) {
    // expected-note @below {{the value, defined by 'memref.load'}}
    %v = memref.load %in[%t0] : memref<?xf32>
    gpu.barrier
    // expected-error @below {{'memref.store' op cannot run on the host: it uses a value computed before a gpu.barrier that is not free of memory effects}}
    memref.store %v, %out[%t0] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// Workgroup memory used other than by loads and stores is refused.
func.func @shared_memory_subview(%n: index) {
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %n, %g1 = %n, %g2 = %n)
             threads(%t0, %t1, %t2) in (%s0 = %n, %s1 = %n, %s2 = %n)
             workgroup(%tile : memref<32xf32, #gpu.address_space<workgroup>>) {
    // expected-error @below {{'memref.subview' op uses workgroup attribution #0 other than as the memref of a memref.load or memref.store}}
    %s = memref.subview %tile[0] [16] [1] : memref<32xf32, #gpu.address_space<workgroup>> to memref<16xf32, strided<[1]>, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

// Values exchanged between threads without memory cannot be emulated.
func.func @shuffle(%n: index, %x: f32) {
  // expected-error @below {{cannot run on the host: the kernel exchanges values between threads (gpu.shuffle)}}
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %n, %g1 = %n, %g2 = %n)
             threads(%t0, %t1, %t2) in (%s0 = %n, %s1 = %n, %s2 = %n) {
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %r, %ok = gpu.shuffle xor %x, %c1, %c32 : f32
    gpu.terminator
  }
  return
}

// -----

// An asynchronous launch is refused.
func.func @async_launch(%n: index) {
  %t = gpu.wait async
  // expected-error @below {{cannot run on the host: the kernel is asynchronous}}
  %done = gpu.launch async [%t] blocks(%b0, %b1, %b2) in (%g0 = %n, %g1 = %n, %g2 = %n)
             threads(%t0, %t1, %t2) in (%s0 = %n, %s1 = %n, %s2 = %n) {
    gpu.terminator
  }
  return
}

// -----

// A gpu.all_reduce under thread-dependent control flow: its barriers would
// not be reached by every thread, so the emulation refuses it.
func.func @all_reduce_in_divergent_if(%n: index, %x: f32, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %n, %g1 = %n, %g2 = %n)
             threads(%t0, %t1, %t2) in (%s0 = %n, %s1 = %n, %s2 = %n) {
    // expected-note @below {{non-uniform value defined here}}
    %first = arith.cmpi eq, %t0, %c0 : index
    // expected-note @below {{the enclosing control flow}}
    scf.if %first {
      // expected-error @below {{cannot run on the host: it is inside 'scf.if', whose operands are not block-uniform}}
      %r = gpu.all_reduce add %x uniform {} : (f32) -> f32
      memref.store %r, %out[] : memref<f32>
    }
    gpu.terminator
  }
  return
}
