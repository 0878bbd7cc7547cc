// A C program includes the generated header, links the library and calls
// the entries on its own buffers: a transposed input (strides [1, 3]), a row
// broadcast down the rows (stride 0), a scalar, and outputs allocated from
// the header's shape and stride constants; once through the typed function
// and once through the packed one.
// RUN: rm -rf %t && mkdir -p %t
// RUN: stride-compile %s -o %t/libkernels.so --header %t/kernels.h
// RUN: FileCheck %s --check-prefix=HEADER < %t/kernels.h
// RUN: cc -std=c99 -Wall -Wextra -Werror -pedantic -I%t %S/Inputs/call_kernels.c %t/libkernels.so -Wl,-rpath,%t -lm -o %t/call_kernels
// RUN: %t/call_kernels | FileCheck %s --check-prefix=CALL

// HEADER: typedef struct stride_memref_f32_2d {
// HEADER-NEXT:   float *allocated;
// HEADER-NEXT:   float *aligned;
// HEADER-NEXT:   int64_t offset;
// HEADER-NEXT:   int64_t sizes[2];
// HEADER-NEXT:   int64_t strides[2];
// HEADER-NEXT: } stride_memref_f32_2d;
// HEADER: typedef struct stride_memref_i32_0d {
// HEADER-NEXT:   int32_t *allocated;
// HEADER-NEXT:   int32_t *aligned;
// HEADER-NEXT:   int64_t offset;
// HEADER-NEXT: } stride_memref_i32_0d;
// HEADER: static const int64_t stride_scale_add_in0_strides[2] = {1LL, 3LL};
// HEADER: static const int64_t stride_scale_add_in1_strides[2] = {0LL, 1LL};
// HEADER: static const int64_t stride_scale_add_out0_shape[2] = {3LL, 4LL};
// HEADER: void stride_scale_add(const stride_memref_f32_2d *in0, const stride_memref_f32_2d *in1, float in2, stride_memref_f32_2d *out0);
// HEADER: void stride_scale_add_packed(void **args);
// HEADER: void stride_largest(const stride_memref_i32_1d *in0, const stride_memref_i32_0d *in1, stride_memref_i32_1d *out0);

// CALL: metadata: stride-aot 4
// CALL: scale_add: out0 3x4 strides [1, 3]: 12 values match
// CALL: scale_add (packed): 12 values match
// CALL: largest: out0 5 strides [1]: 5 values match

// x * s + bias with x transposed and bias a broadcast row.
func.func @scale_add(%x: tensor<3x4xf32, #stride.layout<strides = [1, 3]>>,
                     %bias: tensor<3x4xf32, #stride.layout<strides = [0, 1]>>,
                     %s: f32) -> tensor<*xf32> {
  %0 = stride.mul %x, %s : tensor<3x4xf32, #stride.layout<strides = [1, 3]>>, f32 -> tensor<*xf32>
  %1 = stride.add %0, %bias : tensor<*xf32>, tensor<3x4xf32, #stride.layout<strides = [0, 1]>> -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

// An i32 maximum against a 0-d tensor.
func.func @largest(%a: tensor<5xi32>, %floor: tensor<i32>) -> tensor<*xi32> {
  %0 = stride.maximum %a, %floor : tensor<5xi32>, tensor<i32> -> tensor<*xi32>
  return %0 : tensor<*xi32>
}
