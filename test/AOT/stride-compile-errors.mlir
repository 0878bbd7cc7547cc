// stride-compile's usage errors and the programs it cannot compile ahead of
// time each give one clear error line and exit status 1.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not stride-compile %s --target=tpu -o %t/x.so 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not stride-compile %s --target=gpu --num-threads 4 -o %t/x.so 2>&1 | FileCheck %s --check-prefix=GPU-THREADS
// RUN: not stride-compile %s --emit=asm -o %t/x.so 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: not stride-compile %s --entry half 2>&1 | FileCheck %s --check-prefix=NO-OUTPUT
// RUN: not stride-compile %s --policy fortran -o %t/x.so 2>&1 | FileCheck %s --check-prefix=POLICY
// RUN: not stride-compile %s --entry nope -o %t/x.so 2>&1 | FileCheck %s --check-prefix=NO-ENTRY
// RUN: not stride-compile %t/absent.mlir -o %t/x.so 2>&1 | FileCheck %s --check-prefix=NO-FILE
// RUN: not stride-compile %s --entry half -o %t/x.so 2>&1 | FileCheck %s --check-prefix=HALF
// RUN: not stride-compile %s --entry odd.name -o %t/x.so 2>&1 | FileCheck %s --check-prefix=IDENTIFIER
// RUN: not stride-compile %s --entry scalar_result -o %t/x.so 2>&1 | FileCheck %s --check-prefix=SCALAR-RESULT
// RUN: not stride-compile %s --entry unranked -o %t/x.so 2>&1 | FileCheck %s --check-prefix=UNRANKED
// RUN: not stride-compile %s --entry dynamic -o %t/x.so 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// RUN: not stride-compile %s --entry neg --entry neg -o %t/x.so 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not stride-compile %s --entry neg --entry neg_metadata -o %t/x.so 2>&1 | FileCheck %s --check-prefix=METADATA-NAME
// RUN: not stride-compile %s --entry neg --entry neg_packed -o %t/x.so 2>&1 | FileCheck %s --check-prefix=PACKED-NAME
// RUN: env CC=stride-no-such-cc not stride-compile %s --entry neg -o %t/x.so 2>&1 | FileCheck %s --check-prefix=NO-CC
// RUN: not stride-compile %s --entry neg -o %t/absent/x.so 2>&1 | FileCheck %s --check-prefix=LINK
// A good entry still compiles to every form.
// RUN: stride-compile %s --entry neg --emit=obj -o %t/neg.o
// RUN: stride-compile %s --entry neg --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: stride-compile %s --entry neg --emit=mlir | FileCheck %s --check-prefix=MLIR
// RUN: stride-compile %s --entry neg --dynamic --symbol-prefix my_ -o %t/libneg.so
// RUN: stride-exec %t/libneg.so --list | FileCheck %s --check-prefix=PREFIX

// TARGET: stride-compile: error: unknown --target 'tpu'; expected cpu or gpu
// GPU-THREADS: stride-compile: error: --num-threads applies to --target=cpu only
// EMIT: stride-compile: error: unknown --emit 'asm'; expected shared, obj, mlir or llvm
// NO-OUTPUT: stride-compile: error: give the output file with -o
// POLICY: for the --policy option: Cannot find option named 'fortran'!
// NO-ENTRY: stride-compile: error: no function @nope with a body in '{{.*}}stride-compile-errors.mlir' (functions: @neg, @half, @odd.name, @scalar_result, @unranked, @dynamic, @neg_metadata, @neg_packed)
// NO-FILE: stride-compile: error: cannot open input file '{{.*}}absent.mlir'
// HALF: stride-compile: error: argument #0 of @half has element type f16, which the runtime does not support (f32, f64, i32, i64, i1, i8, i16, ui8, ui16, ui32, ui64)
// IDENTIFIER: stride-compile: error: cannot export @odd.name: 'stride_odd.name' is not a C identifier
// SCALAR-RESULT: stride-compile: error: cannot compile @scalar_result: the entry function returns non-tensor values; only tensor results can be handed back (as output buffers)
// UNRANKED: stride-compile: error: argument #0 of @unranked is unranked; give its rank
// DYNAMIC: stride-compile: error: result #0 of @dynamic has shape ?x? and strides [?, 1], which depend on the input sizes, and it depends on a tensor made by 'tensor.cast', whose layout stride-compile cannot derive from the inputs
// TWICE: stride-compile: error: @neg is given twice
// METADATA-NAME: stride-compile: error: the symbol 'stride_neg_metadata' of @neg's metadata is taken by another entry's function
// PACKED-NAME: stride-compile: error: the symbol 'stride_neg_packed' of @neg_packed is taken
// NO-CC: stride-compile: error: cannot find the C compiler 'stride-no-such-cc' to link the shared library (install gcc, set CC, or use --emit=obj and link it yourself)
// LINK: stride-compile: error: linking the shared library failed (exit status 1): {{.*}} -shared -o {{.*}}absent/x.so
// LLVM-DAG: define void @stride_neg(ptr
// LLVM-DAG: define void @stride_neg_packed(ptr
// LLVM-DAG: @stride_aot_metadata.text = internal {{.*}}constant {{.*}} c"stride-aot 4\0Aentry neg stride_neg stride_neg_packed\0Ainput tensor f32 1 4 1\0Aoutput tensor f32 1 4 1\0Aend\0A\00"
// LLVM-DAG: @stride_aot_metadata = weak alias {{.*}} @stride_aot_metadata.text
// LLVM-DAG: @stride_neg_metadata = alias {{.*}} @stride_aot_metadata.text
// MLIR: llvm.func @_mlir_ciface_neg
// PREFIX: @neg (my_neg)

func.func @neg(%a: tensor<4xf32>) -> tensor<*xf32> {
  %0 = stride.neg %a : tensor<4xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

func.func @half(%a: tensor<4xf16>) -> tensor<*xf16> {
  %0 = stride.neg %a : tensor<4xf16> -> tensor<*xf16>
  return %0 : tensor<*xf16>
}

func.func @"odd.name"(%a: tensor<4xf32>) -> tensor<*xf32> {
  %0 = stride.neg %a : tensor<4xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

func.func @scalar_result(%a: f32) -> f32 {
  return %a : f32
}

func.func @unranked(%a: tensor<*xf32>) -> tensor<*xf32> {
  %0 = stride.neg %a : tensor<*xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

func.func @dynamic(%a: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<*xf32> {
  %c = tensor.cast %a : tensor<?x?xf32> to tensor<?x?xf32>
  %0 = stride.add %c, %b : tensor<?x?xf32>, tensor<?xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

func.func @neg_metadata(%a: tensor<4xf32>) -> tensor<*xf32> {
  %0 = stride.neg %a : tensor<4xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

func.func @neg_packed(%a: tensor<4xf32>) -> tensor<*xf32> {
  %0 = stride.neg %a : tensor<4xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
