/* STREAM triad a[i] = b[i] + s * c[i] over arrays much larger than the caches:
 * the machine's sustainable memory bandwidth, the yardstick bench/run compares
 * bandwidth-bound kernels with. Prints the best GB/s of the repetitions
 * (bytes counted as STREAM does: 3 arrays x 8 bytes per element). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1L << 25;
  int reps = argc > 2 ? atoi(argv[2]) : 10;
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b),
         *c = malloc(n * sizeof *c);
  if (!a || !b || !c) {
    fprintf(stderr, "stream_triad: cannot allocate 3 x %ld doubles\n", n);
    return 1;
  }
#pragma omp parallel for
  for (long i = 0; i < n; ++i) {
    a[i] = 0.0;
    b[i] = 1.0;
    c[i] = 2.0;
  }
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    double t = omp_get_wtime();
#pragma omp parallel for
    for (long i = 0; i < n; ++i)
      a[i] = b[i] + 3.0 * c[i];
    t = omp_get_wtime() - t;
    if (t < best)
      best = t;
  }
  printf("triad %.2f GB/s threads %d check %.1f\n", 3.0 * 8 * n / best / 1e9,
         omp_get_max_threads(), a[n / 2]);
  return 0;
}
