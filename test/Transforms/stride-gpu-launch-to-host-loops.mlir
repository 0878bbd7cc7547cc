// RUN: stride-opt %s --stride-gpu-launch-to-host-loops | FileCheck %s

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
