// Every stride-run usage error is a clear message and exit status 1.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t m="rand(2,3)" v="rand(4)" d="rand(2,3).astype(np.float64)" r="rand(4,3)"
// RUN: not stride-run %s --entry nope --random-inputs 2>&1 | FileCheck %s --check-prefix=NO-ENTRY
// RUN: not stride-run %s --random-inputs 2>&1 | FileCheck %s --check-prefix=SEVERAL
// RUN: not stride-run %s --entry two --input %t/m.npy 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not stride-run %s --entry two --input %t/v.npy --input %t/m.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not stride-run %s --entry two --input %t/d.npy --input %t/m.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not stride-run %s --entry two --input %npy_fixtures/truncated.npy --input %t/m.npy 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// RUN: not stride-run %s --entry two --input %npy_fixtures/bad_magic.npy --input %t/m.npy 2>&1 | FileCheck %s --check-prefix=MAGIC
// RUN: not stride-run %s --entry two --input %npy_fixtures/complex_c8.npy --input %t/m.npy 2>&1 | FileCheck %s --check-prefix=COMPLEX
// RUN: not stride-run %s --entry two --input %t/missing.npy --input %t/m.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not stride-run %s --entry expanded --input %t/r.npy 2>&1 | FileCheck %s --check-prefix=EXPANDED
// RUN: not stride-run %s --entry two --random-inputs --policy fortran 2>&1 | FileCheck %s --check-prefix=POLICY
// RUN: not stride-run %s --entry two --random-inputs --shape 2by3 --shape 2x3 2>&1 | FileCheck %s --check-prefix=BAD-SHAPE
// RUN: not stride-run %s --entry two --random-inputs --input %t/m.npy 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not stride-run %s --entry dynamic --random-inputs 2>&1 | FileCheck %s --check-prefix=NEEDS-SHAPE
// RUN: not stride-run %s --entry unranked --random-inputs 2>&1 | FileCheck %s --check-prefix=UNRANKED
// RUN: not stride-run %s --entry half --random-inputs 2>&1 | FileCheck %s --check-prefix=HALF
// RUN: not stride-run %s --entry two_shapes --random-inputs 2>&1 | FileCheck %s --check-prefix=TWO-SHAPES
// TWO-SHAPES: stride-run: error: cannot compile @two_shapes: result #0 of the entry has no one shape: the paths that return it (scf.if branches, cf blocks) give it different shapes or ranks, so its output buffer cannot be allocated before the call
// RUN: not stride-run %t/absent.mlir 2>&1 | FileCheck %s --check-prefix=NO-FILE
// RUN: echo 'func.func @main() { %%0 = stride.oops }' > %t/bad.mlir
// RUN: not stride-run %t/bad.mlir 2>&1 | FileCheck %s --check-prefix=BAD-IR

// NO-ENTRY: stride-run: error: no function @nope with a body in '{{.*}}' (functions: @two, @expanded, @dynamic, @unranked, @half, @two_shapes)
// SEVERAL: stride-run: error: '{{.*}}' has several functions (@two, @expanded, @dynamic, @unranked, @half, @two_shapes); choose one with --entry
// COUNT: stride-run: error: @two takes 2 arguments but 1 --input files were given
// SHAPE: stride-run: error: argument #0 of @two has shape 2x3 but '{{.*}}v.npy' has shape 4
// DTYPE: stride-run: error: argument #0 of @two has element type f32 but '{{.*}}d.npy' holds f64
// TRUNCATED: stride-run: error: argument #0 of @two: {{.*}}truncated.npy: truncated
// MAGIC: stride-run: error: argument #0 of @two: {{.*}}bad_magic.npy: not a .npy file (bad magic)
// COMPLEX: stride-run: error: argument #0 of @two: {{.*}}complex_c8.npy: unsupported dtype '<c8'
// MISSING: stride-run: error: argument #0 of @two: {{.*}}missing.npy
// EXPANDED: stride-run: error: argument #0 of @expanded: input values differ along dimension 0, which the layout broadcasts (stride 0)
// POLICY: stride-run: for the --policy option: Cannot find option named 'fortran'!
// BAD-SHAPE: stride-run: error: --shape '2by3' is not a shape like 4x3 or 'scalar'
// BOTH: stride-run: error: give either --input files or --random-inputs, not both
// NEEDS-SHAPE: stride-run: error: argument #0 of @dynamic has dynamic dims; give its shape with --shape
// UNRANKED: stride-run: error: argument #0 of @unranked is unranked; give its rank
// HALF: stride-run: error: argument #0 of @half has element type f16, which stride-run does not support (f32, f64, i32, i64, i1, i8, i16, ui8, ui16, ui32, ui64)
// NO-FILE: stride-run: error: {{.*}}absent.mlir
// BAD-IR: error: custom op 'stride.oops' is unknown
// BAD-IR: stride-run: error: cannot parse

func.func @two(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<*xf32> {
  %0 = stride.add %a, %b : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

func.func @expanded(%a: tensor<4x3xf32, #stride.layout<strides = [0, 1]>>) -> tensor<*xf32> {
  %0 = stride.neg %a : tensor<4x3xf32, #stride.layout<strides = [0, 1]>> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

func.func @dynamic(%a: tensor<?xf32>) -> tensor<*xf32> {
  %0 = stride.neg %a : tensor<?xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

func.func @unranked(%a: tensor<*xf32>) -> tensor<*xf32> {
  %0 = stride.neg %a : tensor<*xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

func.func @half(%a: tensor<3xf16>) -> tensor<*xf16> {
  %0 = stride.neg %a : tensor<3xf16> -> tensor<*xf16>
  return %0 : tensor<*xf16>
}

// The result's shape depends on the branch taken: no output buffer fits.
func.func @two_shapes(%a: tensor<4x3xf32>, %b: tensor<2x3xf32>, %flag: i1) -> tensor<*xf32> {
  %r = scf.if %flag -> tensor<*xf32> {
    %e = stride.exp %a : tensor<4x3xf32> -> tensor<*xf32>
    scf.yield %e : tensor<*xf32>
  } else {
    %n = stride.neg %b : tensor<2x3xf32> -> tensor<*xf32>
    scf.yield %n : tensor<*xf32>
  }
  return %r : tensor<*xf32>
}
