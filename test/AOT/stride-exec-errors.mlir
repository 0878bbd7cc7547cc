// stride-exec checks everything against the library's metadata before the
// kernel runs: one error line per mismatched argument, exit status 1, and a
// clear message for unusable libraries, entries and options. A failed
// run-time check inside the kernel (a dynamic size) is an ordinary error too.
// RUN: rm -rf %t && mkdir -p %t
// RUN: stride-compile %s -o %t/libprog.so
// RUN: %npytool make %t a23="rand(2,3)" a3="rand(3)" a4="rand(4)" d23="rand(2,3).astype(np.float64)" e3="rand(3)" f5="rand(5)" i4="np.arange(4,dtype=np.int32)" s="np.int32(3)" s64="np.int64(3)"
// RUN: stride-exec %t/libprog.so --list | FileCheck %s --check-prefix=LIST
// RUN: stride-exec %t/libprog.so --entry scaled --input %t/i4.npy --input %t/s.npy --print | FileCheck %s --check-prefix=SCALED
// RUN: not stride-exec %t/libprog.so 2>&1 | FileCheck %s --check-prefix=SEVERAL
// RUN: not stride-exec %t/libprog.so --entry nope 2>&1 | FileCheck %s --check-prefix=NO-ENTRY
// RUN: not stride-exec %t/libprog.so --entry two --input %t/a23.npy 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not stride-exec %t/libprog.so --entry two --input %t/d23.npy --input %t/a4.npy 2>&1 | FileCheck %s --check-prefix=MISMATCHES
// RUN: not stride-exec %t/libprog.so --entry two --input %t/a3.npy --input %t/a3.npy 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: not stride-exec %t/libprog.so --entry scaled --input %t/i4.npy --input %t/s64.npy 2>&1 | FileCheck %s --check-prefix=SCALAR
// RUN: not stride-exec %t/libprog.so --entry scaled --input %t/i4.npy --input %t/i4.npy 2>&1 | FileCheck %s --check-prefix=NOT-SCALAR
// RUN: not stride-exec %t/libprog.so --entry two --input %t/a23.npy --input %t/missing.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not stride-exec %t/libprog.so --entry fixed --input %t/e3.npy --input %t/f5.npy 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: not stride-exec %t/libprog.so --entry fixed --random-inputs 2>&1 | FileCheck %s --check-prefix=NEEDS-SHAPE
// RUN: not stride-exec %t/libprog.so --entry fixed --random-inputs --shape 3 --shape 4 2>&1 | FileCheck %s --check-prefix=SHAPE-FIT
// RUN: not stride-exec %t/libprog.so --entry two --random-inputs --input %t/a23.npy 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not stride-exec %stride_lib_dir/libstride_runtime.so 2>&1 | FileCheck %s --check-prefix=NOT-STRIDE
// RUN: not stride-exec %s 2>&1 | FileCheck %s --check-prefix=NOT-ELF
// RUN: not stride-exec %t/absent.so 2>&1 | FileCheck %s --check-prefix=ABSENT
// RUN: not stride-exec %t/libprog.so --bogus 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not stride-exec %t/libprog.so --bench x 2>&1 | FileCheck %s --check-prefix=BENCH
// RUN: not stride-exec 2>&1 | FileCheck %s --check-prefix=NO-LIBRARY
// RUN: not stride-exec %t/libprog.so --entry two --input %t/a23.npy --input %t/a3.npy --output-dir %t/libprog.so/sub 2>&1 | FileCheck %s --check-prefix=OUT-DIR

// LIST: @two (stride_two)
// LIST-NEXT:   argument #0: tensor f32 2x3 strides [3, 1]
// LIST-NEXT:   argument #1: tensor f32 3 strides [1]
// LIST-NEXT:   result #0: tensor f32 2x3 strides [3, 1]
// LIST: @fixed (stride_fixed)
// LIST-NEXT:   argument #0: tensor f32 ? strides [1]
// LIST: @scaled (stride_scaled)
// LIST:   argument #1: scalar i32
// SCALED: output #0: i32 4 strides [1]
// SCALED-NEXT: [0, 3, 6, 9]
// SEVERAL: stride-exec: error: '{{.*}}libprog.so' has several entries (@two, @fixed, @scaled); choose one with --entry
// NO-ENTRY: stride-exec: error: no entry @nope in '{{.*}}libprog.so' (entries: @two, @fixed, @scaled)
// COUNT: stride-exec: error: @two takes 2 arguments but 1 --input files were given
// MISMATCHES: stride-exec: error: argument #0 of @two has element type f32 but '{{.*}}d23.npy' holds f64
// MISMATCHES-NEXT: stride-exec: error: argument #1 of @two has shape 3 but '{{.*}}a4.npy' has shape 4
// RANK: stride-exec: error: argument #0 of @two has shape 2x3 but '{{.*}}a3.npy' has shape 3
// RANK-NOT: argument #1
// SCALAR: stride-exec: error: argument #1 of @scaled has element type i32 but '{{.*}}s64.npy' holds i64
// NOT-SCALAR: stride-exec: error: argument #1 of @scaled has shape 0-d but '{{.*}}i4.npy' has shape 4
// MISSING: stride-exec: error: argument #1 of @two: {{.*}}missing.npy: cannot open
// KERNEL: operand #0 dim 0 has a run-time size that does not broadcast: it must be 1 or 5
// KERNEL: stride-exec: error: a run-time check in the kernel failed (see the message above)
// NEEDS-SHAPE: stride-exec: error: argument #0 of @fixed has dynamic dims; give its shape with --shape
// SHAPE-FIT: stride-exec: error: argument #1 of @fixed has shape 5 but --shape gives 4
// BOTH: stride-exec: error: give either --input files or --random-inputs, not both
// NOT-STRIDE: stride-exec: error: '{{.*}}libstride_runtime.so' is not a library written by stride-compile (it has no stride_aot_metadata symbol)
// NOT-ELF: stride-exec: error: cannot load '{{.*}}stride-exec-errors.mlir': {{.*}}
// ABSENT: stride-exec: error: cannot load '{{.*}}absent.so': {{.*}}No such file or directory
// OPTION: stride-exec: error: unknown option '--bogus' (see stride-exec --help)
// BENCH: stride-exec: error: option --bench takes a non-negative integer, not 'x'
// NO-LIBRARY: stride-exec: error: give the library to run (see stride-exec --help)
// OUT-DIR: stride-exec: error: cannot create '{{.*}}libprog.so/sub': Not a directory

func.func @two(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<*xf32> {
  %0 = stride.add %a, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

func.func @fixed(%e: tensor<?xf32>, %f: tensor<5xf32>) -> tensor<*xf32> {
  %0 = stride.add %e, %f : tensor<?xf32>, tensor<5xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

func.func @scaled(%a: tensor<4xi32>, %s: i32) -> tensor<*xi32> {
  %0 = stride.mul %a, %s : tensor<4xi32>, i32 -> tensor<*xi32>
  return %0 : tensor<*xi32>
}
