// A C program calls entries whose result layouts depend on the input sizes:
// the generated header's <entry>_result_layout (libstride_runtime) gives
// each result's sizes and strides, the program allocates the output so and
// calls the kernel on its own buffers (a stride-0 row, a column-major and a
// sliced input). The layouts are those stride-run gives for the same inputs
// (--dynamic for @bcast; a program with the sliced layout written out for
// @any_strides), for sizes 0, 1 and larger. Bad sizes and strides, and a
// transposed input whose result layout the kernel (compiled for rows of
// stride 1) cannot write, make the query fail with a message.
// RUN: rm -rf %t && mkdir -p %t
// RUN: stride-compile %s --entry bcast --entry any_strides -o %t/libdyn.so --header %t/dyn.h
// RUN: cc -std=c99 -Wall -Wextra -Werror -pedantic -I%t %S/Inputs/call_dynamic.c %t/libdyn.so -L%stride_lib_dir -lstride_runtime -Wl,-rpath,%t -Wl,-rpath,%stride_lib_dir -o %t/call_dynamic
// RUN: %t/call_dynamic > %t/calls.txt
// RUN: stride-run %s --entry bcast --dynamic --random-inputs --shape 3x4 --shape 3x4 > %t/run.txt
// RUN: stride-run %s --entry bcast --dynamic --random-inputs --shape 1x4 --shape 1x4 >> %t/run.txt
// RUN: stride-run %s --entry bcast --dynamic --random-inputs --shape 3x1 --shape 3x1 >> %t/run.txt
// RUN: stride-run %s --entry bcast --dynamic --random-inputs --shape 0x4 --shape 0x4 >> %t/run.txt
// RUN: stride-run %s --entry sliced --random-inputs >> %t/run.txt
// RUN: cat %t/calls.txt %t/run.txt | FileCheck %s

// CHECK: bcast 3x4: out0 3x4 strides [[S34:\[.*\]]]: 12 of 12 values match
// CHECK: bcast 1x4: out0 1x4 strides [[S14:\[.*\]]]: 4 of 4 values match
// CHECK: bcast 3x1: out0 3x1 strides [[S31:\[.*\]]]: 3 of 3 values match
// CHECK: bcast 0x4: out0 0x4 strides [[S04:\[.*\]]]: 0 of 0 values match
// CHECK: any_strides 3x4 sliced: out0 3x4 strides [[ST:\[.*\]]]: 12 of 12 values match
// CHECK: any_strides 3x4 transposed: result #0 of @any_strides gets shape 3x4 and strides [1, 3] for these inputs, which the kernel compiled for shape ?x? and strides [?, 1] cannot write
// CHECK: mismatch: 1 the inputs' shapes do not fit @bcast: node #0 (elementwise): cannot broadcast
// CHECK: wrong strides: 1 argument #0 of @bcast needs strides [0, 1] but has [4, 1]
// CHECK: output #0: f32 3x4 strides [[S34]]
// CHECK: output #0: f32 1x4 strides [[S14]]
// CHECK: output #0: f32 3x1 strides [[S31]]
// CHECK: output #0: f32 0x4 strides [[S04]]
// CHECK: output #0: f32 3x4 strides [[ST]]

func.func @bcast(%r: tensor<?x?xf32, #stride.layout<strides = [0, 1]>>, %c: tensor<?x?xf32, #stride.layout<perm = [1, 0]>>) -> tensor<*xf32> {
  %0 = stride.add %r, %c : tensor<?x?xf32, #stride.layout<strides = [0, 1]>>, tensor<?x?xf32, #stride.layout<perm = [1, 0]>> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

func.func @any_strides(%a: tensor<?x?xf32, #stride.layout<strides = [?, ?]>>, %b: tensor<?xf32>) -> tensor<*xf32> {
  %0 = stride.add %a, %b : tensor<?x?xf32, #stride.layout<strides = [?, ?]>>, tensor<?xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

func.func @sliced(%a: tensor<3x4xf32, #stride.layout<strides = [8, 1]>>, %b: tensor<4xf32>) -> tensor<*xf32> {
  %0 = stride.add %a, %b : tensor<3x4xf32, #stride.layout<strides = [8, 1]>>, tensor<4xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
