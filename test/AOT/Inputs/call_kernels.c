/* Calls kernels compiled by stride-compile through their generated header,
   on buffers this program owns, and checks every value it gets back against
   its own computation. */
#include "kernels.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

static void expectClose(const char *what, long index, double got, double want) {
  if (fabs(got - want) <= 1e-5 * (1 + fabs(want)))
    return;
  printf("%s: element %ld is %g, expected %g\n", what, index, got, want);
  ++failures;
}

/* Elements an output needs: 1 + sum of (size - 1) * stride (strides >= 0). */
static long span(const int64_t *shape, const int64_t *strides, int rank) {
  long last = 0;
  int d;
  for (d = 0; d < rank; ++d) {
    if (shape[d] == 0)
      return 0;
    last += (long)((shape[d] - 1) * strides[d]);
  }
  return last + 1;
}

int main(void) {
  /* x is the transpose of the row-major 4x3 array t: x[i][j] = t[j][i]. */
  float t[12], row[4] = {0.5f, -1.0f, 2.0f, 4.0f}, *out;
  int32_t a[5] = {-3, 7, 0, 2, -9}, floorValue = 1, *big;
  stride_memref_f32_2d x, bias, result;
  stride_memref_i32_1d va, vbig;
  stride_memref_i32_0d vfloor;
  float s = 2.0f;
  void *packed[4];
  long i, j, n;

  printf("metadata: %.12s\n", stride_aot_metadata);
  for (j = 0; j < 4; ++j)
    for (i = 0; i < 3; ++i)
      t[j * 3 + i] = (float)(10 * j + i) / 8.0f;
  x.allocated = x.aligned = t;
  x.offset = 0;
  for (i = 0; i < 2; ++i) {
    x.sizes[i] = stride_scale_add_in0_shape[i];
    x.strides[i] = stride_scale_add_in0_strides[i];
  }
  /* The bias row repeats down the rows: stride 0, 4 floats of storage. */
  bias.allocated = bias.aligned = row;
  bias.offset = 0;
  bias.sizes[0] = 3;
  bias.sizes[1] = 4;
  bias.strides[0] = 0;
  bias.strides[1] = 1;

  n = span(stride_scale_add_out0_shape, stride_scale_add_out0_strides, 2);
  out = calloc((size_t)n, sizeof(float));
  result.allocated = result.aligned = out;
  result.offset = 0;
  memcpy(result.sizes, stride_scale_add_out0_shape, sizeof(result.sizes));
  memcpy(result.strides, stride_scale_add_out0_strides, sizeof(result.strides));
  stride_scale_add(&x, &bias, s, &result);
  for (i = 0; i < 3; ++i)
    for (j = 0; j < 4; ++j)
      expectClose("scale_add", i * 4 + j,
                  out[i * result.strides[0] + j * result.strides[1]],
                  t[j * 3 + i] * s + row[j]);
  printf("scale_add: out0 %lldx%lld strides [%lld, %lld]: %s\n",
         (long long)result.sizes[0], (long long)result.sizes[1],
         (long long)result.strides[0], (long long)result.strides[1],
         failures ? "MISMATCH" : "12 values match");

  /* The packed form: one pointer per parameter, in order. */
  memset(out, 0, (size_t)n * sizeof(float));
  s = -1.0f;
  packed[0] = &x;
  packed[1] = &bias;
  packed[2] = &s;
  packed[3] = &result;
  stride_scale_add_packed(packed);
  for (i = 0; i < 3; ++i)
    for (j = 0; j < 4; ++j)
      expectClose("scale_add (packed)", i * 4 + j,
                  out[i * result.strides[0] + j * result.strides[1]],
                  t[j * 3 + i] * s + row[j]);
  printf("scale_add (packed): %s\n", failures ? "MISMATCH" : "12 values match");
  free(out);

  va.allocated = va.aligned = a;
  va.offset = 0;
  va.sizes[0] = 5;
  va.strides[0] = 1;
  vfloor.allocated = vfloor.aligned = &floorValue;
  vfloor.offset = 0;
  big = calloc(5, sizeof(int32_t));
  vbig.allocated = vbig.aligned = big;
  vbig.offset = 0;
  vbig.sizes[0] = stride_largest_out0_shape[0];
  vbig.strides[0] = stride_largest_out0_strides[0];
  stride_largest(&va, &vfloor, &vbig);
  for (i = 0; i < 5; ++i)
    if (big[i * vbig.strides[0]] != (a[i] > floorValue ? a[i] : floorValue)) {
      printf("largest: element %ld is %d\n", i, big[i * vbig.strides[0]]);
      ++failures;
    }
  printf("largest: out0 %lld strides [%lld]: %s\n", (long long)vbig.sizes[0],
         (long long)vbig.strides[0], failures ? "MISMATCH" : "5 values match");
  free(big);
  return failures ? 1 : 0;
}
