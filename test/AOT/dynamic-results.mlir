// Entries whose results' shapes and strides depend on the input sizes: the
// library records each one's layout graph and stride-exec allocates outputs
// from it. Under torch and numpy, for sizes 0, 1 and larger, permuted,
// broadcast and matmul operands, stride-exec gives byte-identical results
// with identical shapes and strides to stride-run --dynamic (which
// specializes shape inference and layout propagation to the inputs), for
// the handwritten programs of Inputs/dynamic_programs.mlir (casts and
// promotions included) and 8 generated
// ones. Where the sizes give a layout that the kernel's static output
// strides cannot write, both refuse with the same message (REFUSED lines)
// instead of letting the kernel write elsewhere.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %PYTHON %S/Inputs/aot_vs_run.py compare --dynamic --bin %stride_bin_dir --work %t/torch --seed 1 %S/Inputs/dynamic_programs.mlir | FileCheck %s --check-prefix=TORCH
// RUN: %PYTHON %S/Inputs/aot_vs_run.py compare --dynamic --policy numpy --bin %stride_bin_dir --work %t/numpy --seed 2 %S/Inputs/dynamic_programs.mlir | FileCheck %s --check-prefix=NUMPY
// RUN: %PYTHON %S/Inputs/aot_vs_run.py generate --dynamic %t/generated.mlir --seed 3 --count 8
// RUN: %PYTHON %S/Inputs/aot_vs_run.py compare --dynamic --bin %stride_bin_dir --work %t/gen-torch --seed 3 %t/generated.mlir | FileCheck %s --check-prefix=GENERATED
// RUN: %PYTHON %S/Inputs/aot_vs_run.py compare --dynamic --policy numpy --bin %stride_bin_dir --work %t/gen-numpy --seed 4 %t/generated.mlir | FileCheck %s --check-prefix=GENERATED
//
// The metadata and the listing show the graph.
// RUN: stride-compile %S/Inputs/dynamic_programs.mlir --entry batched --entry two_results -o %t/libdyn.so --header %t/dyn.h
// RUN: stride-exec %t/libdyn.so --list | FileCheck %s --check-prefix=LIST
// RUN: FileCheck %s --check-prefix=HEADER < %t/dyn.h
// RUN: stride-compile %S/Inputs/dynamic_programs.mlir --entry two_results --emit=llvm | FileCheck %s --check-prefix=METADATA

// TORCH-NOT: FAIL
// TORCH: REFUSED {{.*}} @permuted[1x3 4x3] --policy torch --num-threads 1: stride-exec: error: result #0 of @permuted gets shape 4x3 and strides [3, 1] for these inputs, which the kernel compiled for shape ?x? and strides [1, ?] cannot write
// TORCH: REFUSED {{.*}} @where[1x3x1x5 2x3x4x5 1]
// TORCH: aot-vs-run: 58 entries identical, 0 differ, 2 refused
// NUMPY-NOT: FAIL
// NUMPY: REFUSED {{.*}} @permuted[4x3 1x3] --policy numpy
// NUMPY: REFUSED {{.*}} @where[2x2x2x2 1x1x1x1 2] --policy numpy
// NUMPY: aot-vs-run: 58 entries identical, 0 differ, 2 refused
// GENERATED-NOT: FAIL
// GENERATED: aot-vs-run: {{[1-9][0-9]}} entries identical, 0 differ

// LIST: @batched (stride_batched)
// LIST-NEXT:   argument #0: tensor f32 ?x?x? strides [?, ?, 1]
// LIST-NEXT:   argument #1: tensor f32 ?x? strides [1, ?]
// LIST-NEXT:   result #0: tensor f32 ?x?x? strides [?, ?, 1]
// LIST-NEXT:   results follow the input sizes (2 layout nodes, policy torch)
// LIST: @two_results (stride_two_results)
// LIST:   results follow the input sizes (3 layout nodes, policy torch)

// HEADER: /* in1: tensor f32 ?x? strides [1, ?] (dense in dim order [1, 0]) */
// HEADER: extern const char stride_batched_metadata[];
// HEADER: int stride_aot_result_layout(const char *metadata, const char *entry,
// HEADER: static inline int stride_batched_result_layout(const int64_t *const *in_sizes,
// HEADER: return stride_aot_result_layout(stride_batched_metadata, "batched", in_sizes, in_strides,
// HEADER: static inline int stride_two_results_result_layout(

// METADATA: c"stride-aot 4\0Aentry two_results stride_two_results stride_two_results_packed\0Ainput tensor f64 3 ? ? ? ? 1 ? perm 0 2 1\0Ainput tensor f64 1 ? 1\0Ainput scalar f64\0Aoutput tensor f64 3 ? ? ? ? 1 ?\0Aoutput tensor f64 1 ? 1\0Alayout torch\0Anode elementwise a0 a1\0Anode elementwise a2 n0\0Anode elementwise a1 a2\0Aresult n1\0Aresult n2\0Aend\0A\00"
