/* Calls one entry of each of two Stride libraries linked into this program
   and prints each entry's own metadata (first line and entry line). */
#include "neg.h"
#include "twice.h"

#include <stdio.h>
#include <string.h>

static void printMetadata(const char *what, const char *text) {
  const char *line = strchr(text, '\n');
  const char *end = line ? strchr(line + 1, '\n') : NULL;
  int first = line ? (int)(line - text) : (int)strlen(text);
  int entry = end ? (int)(end - line - 1) : 0;
  printf("%s metadata: %.*s %.*s\n", what, first, text, entry,
         line ? line + 1 : "");
}

static void fill(stride_memref_f32_1d *m, float *data) {
  m->allocated = m->aligned = data;
  m->offset = 0;
  m->sizes[0] = 4;
  m->strides[0] = 1;
}

int main(void) {
  float in[4] = {1, 2, 3, 4}, a[4], b[4];
  stride_memref_f32_1d x, y, z;
  int i;
  printMetadata("neg", stride_neg_metadata);
  printMetadata("twice", stride_twice_metadata);
  fill(&x, in);
  fill(&y, a);
  fill(&z, b);
  stride_neg(&x, &y);
  stride_twice(&x, &z);
  printf("neg:");
  for (i = 0; i < 4; ++i)
    printf(" %g", a[i]);
  printf("\ntwice:");
  for (i = 0; i < 4; ++i)
    printf(" %g", b[i]);
  printf("\n");
  return 0;
}
