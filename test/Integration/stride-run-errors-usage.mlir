// More stride-run errors, each a clear message and exit status 1: the ones
// stride-run-errors.mlir does not reach (entry lookup corner cases, --shape,
// layouts the runtime cannot allocate or fill, results stride-run cannot
// hold, failing compilation and failing output files).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npytool make %t q="rand(2,2)"
// RUN: not stride-run %s --entry external --random-inputs 2>&1 | FileCheck %s --check-prefix=EXTERNAL
// RUN: echo 'module {}' > %t/empty.mlir
// RUN: not stride-run %t/empty.mlir 2>&1 | FileCheck %s --check-prefix=NO-FUNCTIONS
// RUN: not stride-run %t/empty.mlir --entry main 2>&1 | FileCheck %s --check-prefix=FUNCTIONS-NONE
// RUN: not stride-run %s --entry pair --random-inputs --shape 2x3 2>&1 | FileCheck %s --check-prefix=SHAPE-COUNT
// RUN: not stride-run %s --entry pair --random-inputs --shape 3x3 --shape 2x3 2>&1 | FileCheck %s --check-prefix=SHAPE-FIT
// RUN: not stride-run %s --entry pair --random-inputs --shape scalar --shape 2x3 2>&1 | FileCheck %s --check-prefix=SHAPE-0D
// RUN: not stride-run %s --entry dynamic --random-inputs --shape 4611686018427387904 2>&1 | FileCheck %s --check-prefix=TOO-LARGE
// RUN: not stride-run %s --entry far --random-inputs 2>&1 | FileCheck %s --check-prefix=SPAN
// RUN: not stride-run %s --entry overlap --input %t/q.npy 2>&1 | FileCheck %s --check-prefix=OVERLAP
// RUN: not stride-run %s --entry dynamic --input %t 2>&1 | FileCheck %s --check-prefix=DIRECTORY
// RUN: not stride-run %s --entry scalar_result --random-inputs 2>&1 | FileCheck %s --check-prefix=SCALAR-RESULT
// RUN: not stride-run %s --entry half_result --random-inputs 2>&1 | FileCheck %s --check-prefix=HALF-RESULT
// RUN: not stride-run %s --entry huge_result --random-inputs 2>&1 | FileCheck %s --check-prefix=HUGE-RESULT
// RUN: not stride-run %s --entry in_place --random-inputs 2>&1 | FileCheck %s --check-prefix=NO-COMPILE
// RUN: touch %t/file
// RUN: not stride-run %s --entry pair --random-inputs --output-dir %t/file/sub 2>&1 | FileCheck %s --check-prefix=OUT-DIR
// RUN: mkdir -p %t/taken/out0.npy
// RUN: not stride-run %s --entry pair --random-inputs --output-dir %t/taken 2>&1 | FileCheck %s --check-prefix=OUT-OPEN
// RUN: mkdir -p %t/full && ln -s /dev/full %t/full/out0.npy
// RUN: not stride-run %s --entry pair --random-inputs --output-dir %t/full 2>&1 | FileCheck %s --check-prefix=OUT-WRITE

// A declaration has no body to run; it is still listed among the functions.
// EXTERNAL: stride-run: error: no function @external with a body in '{{.*}}stride-run-errors-usage.mlir' (functions: @external, @pair, @dynamic, @far, @overlap, @scalar_result, @half_result, @huge_result, @in_place)
func.func private @external(tensor<3xf32>) -> tensor<3xf32>

// A file without functions says so; with --entry the list says "none".
// NO-FUNCTIONS: stride-run: error: '{{.*}}empty.mlir' has no functions
// FUNCTIONS-NONE: stride-run: error: no function @main with a body in '{{.*}}empty.mlir' (functions: none)

// --shape: one per argument, each fitting the signature (0-d is spelled so).
// SHAPE-COUNT: stride-run: error: @pair takes 2 arguments but 1 --shape values were given
// SHAPE-FIT: stride-run: error: argument #0 of @pair has shape 2x3 but --shape gives 3x3
// SHAPE-0D: stride-run: error: argument #0 of @pair has shape 2x3 but --shape gives 0-d
// Outputs are written only after the call; a failing output directory or
// file is reported after the result is printed.
// OUT-DIR: stride-run: error: cannot create '{{.*}}file/sub': Not a directory
// OUT-OPEN: stride-run: error: {{.*}}taken/out0.npy: cannot open for writing: Is a directory
// OUT-WRITE: stride-run: error: {{.*}}full/out0.npy: write error: No space left on device
func.func @pair(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<*xf32> {
  %0 = stride.add %a, %b : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// A --shape whose size in bytes overflows 64 bits; a directory given as
// an .npy file.
// TOO-LARGE: stride-run: error: argument #0 of @dynamic: shape 4611686018427387904 is too large
// DIRECTORY: stride-run: error: argument #0 of @dynamic: {{.*}}: read error: Is a directory
func.func @dynamic(%a: tensor<?xf32>) -> tensor<*xf32> {
  %0 = stride.neg %a : tensor<?xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// A layout whose strides address more than 2^63 bytes cannot be allocated.
// SPAN: stride-run: error: argument #0 of @far: layout 2x2 with strides [4611686018427387904, 1]: the positions it addresses span more than 2^63 bytes
func.func @far(%a: tensor<2x2xf32, #stride.layout<strides = [4611686018427387904, 1]>>) -> tensor<*xf32> {
  %0 = stride.neg %a : tensor<2x2xf32, #stride.layout<strides = [4611686018427387904, 1]>> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// A layout that maps two elements to one address cannot hold an input whose
// values there differ (stride-run-errors.mlir's EXPANDED is the stride-0 case).
// OVERLAP: stride-run: error: argument #0 of @overlap: the layout maps several elements to the same memory and the input gives them different values: element [0, 1] is {{.*}} but another element at the same address overwrote it
func.func @overlap(%a: tensor<2x2xf32, #stride.layout<strides = [1, 1]>>) -> tensor<*xf32> {
  %0 = stride.neg %a : tensor<2x2xf32, #stride.layout<strides = [1, 1]>> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// stride-run receives tensors only.
// SCALAR-RESULT: stride-run: error: cannot compile @scalar_result: the entry function returns non-tensor values; only tensor results can be handed back (as output buffers)
func.func @scalar_result(%a: tensor<3xf32>, %s: f32) -> (tensor<*xf32>, f32) {
  %0 = stride.neg %a : tensor<3xf32> -> tensor<*xf32>
  return %0, %s : tensor<*xf32>, f32
}

// A result element type stride-run cannot hold (the kernel itself compiles).
// HALF-RESULT: stride-run: error: result #0 has element type f16, which stride-run does not support
func.func @half_result(%a: tensor<3xf32>) -> tensor<*xf16> {
  %0 = stride.cast %a : tensor<3xf32> -> tensor<*xf16>
  return %0 : tensor<*xf16>
}

// Two broadcast inputs of one element each give a result too large to
// allocate.
// HUGE-RESULT: stride-run: error: result #0: layout 2147483648x2147483648 with strides [2147483648, 1]: too many elements (the size in bytes overflows 64 bits)
func.func @huge_result(%a: tensor<2147483648x1xf32, #stride.layout<strides = [0, 0]>>,
                       %b: tensor<1x2147483648xf32, #stride.layout<strides = [0, 0]>>) -> tensor<*xf32> {
  %0 = stride.add %a, %b : tensor<2147483648x1xf32, #stride.layout<strides = [0, 0]>>, tensor<1x2147483648xf32, #stride.layout<strides = [0, 0]>> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// A lowering diagnostic is shown, then stride-run says compilation failed.
// NO-COMPILE: error: 'stride.broadcast' op destination #0 has stride 0 in dimension 0; a destination must not repeat elements
// NO-COMPILE: stride-run: error: cannot compile @in_place: lowering to linalg failed
func.func @in_place(%x: tensor<4xf32>) -> tensor<4xf32, #stride.layout<strides = [0]>> {
  %d = tensor.empty() : tensor<4xf32, #stride.layout<strides = [0]>>
  %0 = stride.broadcast ins(%x : tensor<4xf32>) outs(%d : tensor<4xf32, #stride.layout<strides = [0]>>) -> tensor<4xf32, #stride.layout<strides = [0]>> {
  ^bb0(%a: f32):
    stride.yield %a : f32
  }
  return %0 : tensor<4xf32, #stride.layout<strides = [0]>>
}
