// RUN: stride-opt %s --split-input-file --stride-gpu-launch-to-host-loops | FileCheck %s

// The launch becomes loops over block z, y, x then thread z, y, x with the
// launch's sizes as bounds; block and thread ids and sizes, whether region
// arguments or gpu.*_id / *_dim ops, become the loop indices and the bounds.
// CHECK-LABEL: func.func @ids_and_dims
// CHECK-SAME:    (%[[GX:.*]]: index, %[[BX:.*]]: index, %[[OUT:.*]]: memref<?xindex>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK:         scf.for %[[BZ:.*]] = %[[C0]] to %[[C1]] step %[[C1]]
// CHECK-NEXT:      scf.for %[[BY:.*]] = %[[C0]] to %[[C3]] step %[[C1]]
// CHECK-NEXT:        scf.for %[[BID:.*]] = %[[C0]] to %[[GX]] step %[[C1]]
// CHECK-NEXT:          scf.for %[[TZ:.*]] = %[[C0]] to %[[C1]] step %[[C1]]
// CHECK-NEXT:            scf.for %[[TY:.*]] = %[[C0]] to %[[C1]] step %[[C1]]
// CHECK-NEXT:              scf.for %[[TID:.*]] = %[[C0]] to %[[BX]] step %[[C1]]
// CHECK-NEXT:                %[[M:.*]] = arith.muli %[[BID]], %[[BX]]
// CHECK-NEXT:                %[[G:.*]] = arith.addi %[[M]], %[[TID]]
// CHECK-NEXT:                %[[S:.*]] = arith.muli %[[GX]], %[[BY]]
// CHECK-NEXT:                %[[T:.*]] = arith.addi %[[G]], %[[S]]
// CHECK-NEXT:                memref.store %[[T]], %[[OUT]][%[[G]]]
// CHECK-NOT:     gpu.
func.func @ids_and_dims(%gx: index, %bx: index, %out: memref<?xindex>) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %gx, %g1 = %c3, %g2 = %c1)
             threads(%t0, %t1, %t2) in (%s0 = %bx, %s1 = %c1, %s2 = %c1) {
    %m = arith.muli %b0, %s0 : index
    %g = arith.addi %m, %t0 : index
    %gd = gpu.grid_dim x
    %by = gpu.block_id y
    %s = arith.muli %gd, %by : index
    %t = arith.addi %g, %s : index
    memref.store %t, %out[%g] : memref<?xindex>
    gpu.terminator
  }
  return
}

// -----

// Loop fission at a barrier: the workgroup buffer becomes one host buffer
// per block; the body before the barrier runs for every thread of the block
// (its own thread loops), then the rest in a second set of thread loops.
// The global index %i, computed before the barrier from ids only, is
// recomputed after it.
// CHECK-LABEL: func.func @reverse_in_shared
// CHECK-SAME:    (%[[IN:.*]]: memref<?xf32>, %[[OUT:.*]]: memref<?xf32>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         scf.for %{{.*}} = %[[C0]] to %[[C1]] step %[[C1]]
// CHECK-NEXT:      scf.for %{{.*}} = %[[C0]] to %[[C1]] step %[[C1]]
// CHECK-NEXT:        scf.for %[[B:.*]] = %[[C0]] to %[[C2]] step %[[C1]]
// CHECK-NEXT:          %[[TILE:.*]] = memref.alloc() : memref<4xf32>
// CHECK:               scf.for %{{.*}} = %[[C0]] to %[[C1]]
// CHECK-NEXT:            scf.for %{{.*}} = %[[C0]] to %[[C1]]
// CHECK-NEXT:              scf.for %[[T:.*]] = %[[C0]] to %[[C4]]
// CHECK-NEXT:                %[[BASE:.*]] = arith.muli %[[B]], %[[C4]]
// CHECK-NEXT:                %[[I:.*]] = arith.addi %[[BASE]], %[[T]]
// CHECK-NEXT:                %[[V:.*]] = memref.load %[[IN]][%[[I]]]
// CHECK-NEXT:                memref.store %[[V]], %[[TILE]][%[[T]]] : memref<4xf32>
// CHECK-NOT:                 memref.load
// CHECK:               scf.for %{{.*}} = %[[C0]] to %[[C1]]
// CHECK-NEXT:            scf.for %{{.*}} = %[[C0]] to %[[C1]]
// CHECK-NEXT:              scf.for %[[T2:.*]] = %[[C0]] to %[[C4]]
// CHECK-NEXT:                %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:                %[[R:.*]] = arith.subi %[[C3]], %[[T2]]
// CHECK-NEXT:                %[[W:.*]] = memref.load %[[TILE]][%[[R]]]
// CHECK-NEXT:                %[[BASE2:.*]] = arith.muli %[[B]], %[[C4]]
// CHECK-NEXT:                %[[I2:.*]] = arith.addi %[[BASE2]], %[[T2]]
// CHECK-NEXT:                memref.store %[[W]], %[[OUT]][%[[I2]]]
// CHECK:               memref.dealloc %[[TILE]]
// CHECK-NOT:     gpu.
func.func @reverse_in_shared(%in: memref<?xf32>, %out: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1)
             workgroup(%tile : memref<4xf32, #gpu.address_space<workgroup>>) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %in[%i] : memref<?xf32>
    memref.store %v, %tile[%tx] : memref<4xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %c3 = arith.constant 3 : index
    %r = arith.subi %c3, %tx : index
    %w = memref.load %tile[%r] : memref<4xf32, #gpu.address_space<workgroup>>
    memref.store %w, %out[%i] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// Barriers inside a block-uniform scf.for (bounds from outside the kernel
// and the block id): the loop is re-created at block level around the
// thread loops of its two segments. The private accumulator becomes one
// buffer of blockDim.z x blockDim.y x blockDim.x copies, indexed first by
// the thread ids; it carries each thread's sum across the barriers.
// CHECK-LABEL: func.func @uniform_loop_private
// CHECK-SAME:    (%[[N:.*]]: index, %[[IN:.*]]: memref<?xf32>, %[[OUT:.*]]: memref<8xf32>)
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK:         scf.for
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        scf.for %[[B:.*]] = %{{.*}} to %{{.*}}
// CHECK-NEXT:      %[[TILE:.*]] = memref.alloc() : memref<8xf32>
// CHECK-NEXT:      %[[ACC:.*]] = memref.alloc(%{{.*}}, %{{.*}}, %[[C8]]) : memref<?x?x?x1xf32>
// CHECK:           scf.for %[[TZ0:.*]] =
// CHECK-NEXT:        scf.for %[[TY0:.*]] =
// CHECK-NEXT:          scf.for %[[TX0:.*]] = %{{.*}} to %[[C8]]
// CHECK:                 memref.store %{{.*}}, %[[ACC]][%[[TZ0]], %[[TY0]], %[[TX0]], %{{.*}}] : memref<?x?x?x1xf32>
// CHECK:           scf.for %[[K:.*]] = %[[B]] to %[[N]] step %[[C8]]
// CHECK-NOT:         gpu.barrier
// CHECK:             scf.for
// CHECK-NEXT:          scf.for
// CHECK-NEXT:            scf.for %[[TX1:.*]] = %{{.*}} to %[[C8]]
// CHECK-NEXT:              %[[J:.*]] = arith.addi %[[K]], %[[TX1]]
// CHECK-NEXT:              %[[X:.*]] = memref.load %[[IN]][%[[J]]]
// CHECK-NEXT:              memref.store %[[X]], %[[TILE]][%[[TX1]]]
// CHECK:             scf.for %[[TZ2:.*]] =
// CHECK-NEXT:          scf.for %[[TY2:.*]] =
// CHECK-NEXT:            scf.for %[[TX2:.*]] = %{{.*}} to %[[C8]]
// CHECK:                   memref.load %[[TILE]]
// CHECK:                   memref.load %[[ACC]][%[[TZ2]], %[[TY2]], %[[TX2]], %{{.*}}]
// CHECK:                   memref.store %{{.*}}, %[[ACC]][%[[TZ2]], %[[TY2]], %[[TX2]], %{{.*}}]
// CHECK:           memref.dealloc %[[TILE]]
// CHECK-NEXT:      memref.dealloc %[[ACC]]
func.func @uniform_loop_private(%n: index, %in: memref<?xf32>, %out: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1)
             workgroup(%tile : memref<8xf32, #gpu.address_space<workgroup>>)
             private(%acc : memref<1xf32, #gpu.address_space<private>>) {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    memref.store %zero, %acc[%c0] : memref<1xf32, #gpu.address_space<private>>
    scf.for %k = %bx to %n step %sx {
      %j = arith.addi %k, %tx : index
      %x = memref.load %in[%j] : memref<?xf32>
      memref.store %x, %tile[%tx] : memref<8xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c7 = arith.constant 7 : index
      %r = arith.subi %c7, %tx : index
      %y = memref.load %tile[%r] : memref<8xf32, #gpu.address_space<workgroup>>
      %s = memref.load %acc[%c0] : memref<1xf32, #gpu.address_space<private>>
      %t = arith.addf %s, %y : f32
      memref.store %t, %acc[%c0] : memref<1xf32, #gpu.address_space<private>>
      gpu.barrier
    }
    %f = memref.load %acc[%c0] : memref<1xf32, #gpu.address_space<private>>
    memref.store %f, %out[%tx] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// gpu.all_reduce: each thread stores its value into a slot of a host buffer
// (one per thread of the block), a barrier, thread 0 folds the slots in
// thread order with the operation into a result slot, a barrier, and every
// thread reads the result: three segments, each in its own thread loops.
// The buffers live outside the block loops and are freed after them.
// CHECK-LABEL: func.func @all_reduce
// CHECK-SAME:    (%[[N:.*]]: index, %[[IN:.*]]: memref<?xf32>, %[[OUT:.*]]: memref<?xf32>)
// CHECK:         %[[SLOTS:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK:         %[[RES:.*]] = memref.alloc() : memref<1xf32>
// CHECK:         scf.for %[[BX:.*]] =
// CHECK:           scf.for %[[T1:.*]] = %{{.*}} to %[[N]]
// CHECK:             %[[V:.*]] = memref.load %[[IN]][%[[T1]]]
// CHECK:             memref.store %[[V]], %[[SLOTS]][%{{.*}}]
// CHECK:           scf.for %[[T2:.*]] = %{{.*}} to %[[N]]
// CHECK:             scf.if
// CHECK:               %[[FIRST:.*]] = memref.load %[[SLOTS]][%{{.*}}]
// CHECK:               %[[SUM:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[FIRST]])
// CHECK:                 %[[NEXT:.*]] = memref.load %[[SLOTS]][%[[I]]]
// CHECK:                 arith.maximumf %[[ACC]], %[[NEXT]]
// CHECK:               memref.store %[[SUM]], %[[RES]][
// CHECK:           scf.for %[[T3:.*]] = %{{.*}} to %[[N]]
// CHECK:             %[[R:.*]] = memref.load %[[RES]][
// CHECK:             memref.store %[[R]], %[[OUT]][%[[T3]]]
// CHECK:         memref.dealloc %[[SLOTS]]
// CHECK:         memref.dealloc %[[RES]]
func.func @all_reduce(%n: index, %in: memref<?xf32>, %out: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %c1, %g1 = %c1, %g2 = %c1)
             threads(%t0, %t1, %t2) in (%s0 = %n, %s1 = %c1, %s2 = %c1) {
    %v = memref.load %in[%t0] : memref<?xf32>
    %r = gpu.all_reduce maximumf %v uniform {} : (f32) -> f32
    memref.store %r, %out[%t0] : memref<?xf32>
    gpu.terminator
  }
  return
}
