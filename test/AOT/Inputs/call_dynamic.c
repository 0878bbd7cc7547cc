/* Calls kernels whose result layouts depend on the input sizes through the
   generated header: asks <entry>_result_layout for each result's sizes and
   strides, allocates the output exactly so, calls the kernel on its own
   buffers (a row broadcast with stride 0, a column-major and a transposed
   input) and checks every value. Also shows the query's errors. */
#include "dyn.h"

#include <stdio.h>
#include <stdlib.h>

/* Elements a strided view spans (0 when it has none). */
static int64_t span(const int64_t *sizes, const int64_t *strides, int rank) {
  int64_t end = 1;
  for (int d = 0; d < rank; ++d) {
    if (sizes[d] == 0)
      return 0;
    end += (sizes[d] - 1) * strides[d];
  }
  return end;
}

static void print_layout(const char *what, const int64_t *sizes,
                         const int64_t *strides) {
  printf("%s: out0 %lldx%lld strides [%lld, %lld]", what, (long long)sizes[0],
         (long long)sizes[1], (long long)strides[0], (long long)strides[1]);
}

/* out = r + c with r a row (strides [0, 1]) and c column-major. */
static int call_bcast(int64_t rows, int64_t cols) {
  int64_t r_sizes[2] = {rows, cols}, c_sizes[2] = {rows, cols};
  const int64_t *in_sizes[2] = {r_sizes, c_sizes};
  int64_t out_sizes[2], out_strides[2];
  int64_t *out_sizes_p[1] = {out_sizes}, *out_strides_p[1] = {out_strides};
  char error[256];
  if (stride_bcast_result_layout(in_sizes, NULL, out_sizes_p, out_strides_p,
                                 error, sizeof error)) {
    printf("bcast %lldx%lld: %s\n", (long long)rows, (long long)cols, error);
    return 1;
  }
  float *r = malloc(sizeof(float) * (size_t)(cols + 1));
  float *c = malloc(sizeof(float) * (size_t)(rows * cols + 1));
  int64_t n = span(out_sizes, out_strides, 2);
  float *out = malloc(sizeof(float) * (size_t)(n + 1));
  for (int64_t j = 0; j < cols; ++j)
    r[j] = (float)(j + 1);
  for (int64_t k = 0; k < rows * cols; ++k)
    c[k] = (float)(100 * (k + 1));
  stride_memref_f32_2d rd = {r, r, 0, {rows, cols}, {0, 1}};
  stride_memref_f32_2d cd = {c, c, 0, {rows, cols}, {1, rows}};
  stride_memref_f32_2d od = {out, out, 0, {out_sizes[0], out_sizes[1]},
                             {out_strides[0], out_strides[1]}};
  stride_bcast(&rd, &cd, &od);
  int match = 0, total = 0;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j, ++total)
      match += out[i * out_strides[0] + j * out_strides[1]] ==
               r[j] + c[i + j * rows];
  char what[64];
  snprintf(what, sizeof what, "bcast %lldx%lld", (long long)rows,
           (long long)cols);
  print_layout(what, out_sizes, out_strides);
  printf(": %d of %d values match\n", match, total);
  free(r);
  free(c);
  free(out);
  return 0;
}

/* out = a + b with a a 3x4 view of strides [s0, s1] into 24 floats: the
   entry accepts any strides, so the query is given them. */
static void call_any_strides(const char *what, int64_t s0, int64_t s1) {
  float a[24], b[4], out[12];
  for (int k = 0; k < 24; ++k)
    a[k] = (float)(k * k);
  for (int j = 0; j < 4; ++j)
    b[j] = (float)(-j);
  int64_t a_sizes[2] = {3, 4}, a_strides[2] = {s0, s1}, b_sizes[1] = {4};
  const int64_t *in_sizes[2] = {a_sizes, b_sizes};
  const int64_t *in_strides[2] = {a_strides, NULL};
  int64_t out_sizes[2], out_strides[2];
  int64_t *out_sizes_p[1] = {out_sizes}, *out_strides_p[1] = {out_strides};
  char error[256];
  if (stride_any_strides_result_layout(in_sizes, in_strides, out_sizes_p,
                                       out_strides_p, error, sizeof error)) {
    printf("%s: %s\n", what, error);
    return;
  }
  stride_memref_f32_2d ad = {a, a, 0, {3, 4}, {s0, s1}};
  stride_memref_f32_1d bd = {b, b, 0, {4}, {1}};
  stride_memref_f32_2d od = {out, out, 0, {out_sizes[0], out_sizes[1]},
                             {out_strides[0], out_strides[1]}};
  stride_any_strides(&ad, &bd, &od);
  int match = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      match += out[i * out_strides[0] + j * out_strides[1]] ==
               a[i * s0 + j * s1] + b[j];
  print_layout(what, out_sizes, out_strides);
  printf(": %d of 12 values match\n", match);
}

int main(void) {
  call_bcast(3, 4);
  call_bcast(1, 4);
  call_bcast(3, 1);
  call_bcast(0, 4);
  call_any_strides("any_strides 3x4 sliced", 8, 1);
  /* The kernel was compiled to write rows of stride 1; the layout the policy
     gives a transposed input has another, so the query refuses. */
  call_any_strides("any_strides 3x4 transposed", 1, 3);

  /* Shapes that do not broadcast, and a stride the kernel does not have. */
  int64_t r_sizes[2] = {3, 4}, c_sizes[2] = {2, 4}, bad_strides[2] = {4, 1};
  const int64_t *in_sizes[2] = {r_sizes, c_sizes};
  int64_t out_sizes[2], out_strides[2];
  int64_t *out_sizes_p[1] = {out_sizes}, *out_strides_p[1] = {out_strides};
  char error[256];
  int status = stride_bcast_result_layout(in_sizes, NULL, out_sizes_p,
                                          out_strides_p, error, sizeof error);
  printf("mismatch: %d %s\n", status, error);
  const int64_t *same_sizes[2] = {r_sizes, r_sizes};
  const int64_t *in_strides[2] = {bad_strides, NULL};
  status = stride_bcast_result_layout(same_sizes, in_strides, out_sizes_p,
                                      out_strides_p, error, sizeof error);
  printf("wrong strides: %d %s\n", status, error);
  return 0;
}
