// Two Stride libraries (and two Stride objects) link into one C program:
// each entry's <symbol>_metadata names its own library's metadata, the weak
// stride_aot_metadata no longer clashes, and both kernels run. stride-exec
// still finds each library's own metadata.
// RUN: rm -rf %t && mkdir -p %t
// RUN: stride-compile %s --entry neg -o %t/libneg.so --header %t/neg.h
// RUN: stride-compile %s --entry twice -o %t/libtwice.so --header %t/twice.h
// RUN: stride-compile %s --entry neg --emit=obj -o %t/neg.o
// RUN: stride-compile %s --entry twice --emit=obj -o %t/twice.o
// RUN: cc -std=c99 -Wall -Wextra -Werror -pedantic -I%t %S/Inputs/call_two.c %t/libneg.so %t/libtwice.so -Wl,-rpath,%t -lm -o %t/shared
// RUN: %t/shared | FileCheck %s
// RUN: cc -std=c99 -Wall -Wextra -Werror -pedantic -I%t %S/Inputs/call_two.c %t/neg.o %t/twice.o -lm -o %t/static
// RUN: %t/static | FileCheck %s
// RUN: stride-exec %t/libtwice.so --list | FileCheck %s --check-prefix=LIST

// CHECK: neg metadata: stride-aot 4 entry neg stride_neg
// CHECK: twice metadata: stride-aot 4 entry twice stride_twice
// CHECK: neg: -1 -2 -3 -4
// CHECK: twice: 2 4 6 8
// LIST: @twice (stride_twice)
// LIST-NOT: @neg

func.func @neg(%a: tensor<4xf32>) -> tensor<*xf32> {
  %0 = stride.neg %a : tensor<4xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

func.func @twice(%a: tensor<4xf32>) -> tensor<*xf32> {
  %0 = stride.add %a, %a : tensor<4xf32>, tensor<4xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
