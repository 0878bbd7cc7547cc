/* A stand-in for libcuda.so.1 for tests on machines without a GPU: device
 * memory is host memory, copies are memcpy, and a launch does not run the
 * kernel (there is nothing to run PTX) but logs its name, grid, block and
 * parameter count to stderr, as do allocations and copies with their sizes.
 * It lets tests check the runtime's and stride-run's plumbing: symbol
 * lookup, module loading, argument spans and descriptors, copies back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
static char names[64][256];
static int numNames;

#define OK return 0
CUresult cuInit(unsigned f) { OK; }
CUresult cuDriverGetVersion(int *v) { *v = 13000; OK; }
CUresult cuDeviceGetCount(int *n) { *n = 1; OK; }
CUresult cuDeviceGet(int *d, int i) { *d = i; OK; }
CUresult cuDeviceGetName(char *n, int len, int d) { strncpy(n, "Fake GPU", len); OK; }
CUresult cuDeviceGetAttribute(int *v, int a, int d) { *v = a == 75 ? 9 : 0; OK; }
CUresult cuDevicePrimaryCtxRetain(void **c, int d) { *c = (void *)1; OK; }
CUresult cuCtxSetCurrent(void *c) { OK; }
CUresult cuGetErrorName(CUresult r, const char **s) { *s = "CUDA_ERROR_FAKE"; OK; }
CUresult cuGetErrorString(CUresult r, const char **s) { *s = "fake"; OK; }
CUresult cuModuleLoadData(void **m, const void *image) {
  fprintf(stderr, "fake-cuda: module load (%s)\n",
          memcmp(image, "P\xed\x55\xba", 4) == 0 ? "fatbin" : "other image");
  *m = (void *)1;
  OK;
}
CUresult cuModuleLoadDataEx(void **m, const void *image, unsigned n, int *o,
                            void **v) {
  fprintf(stderr, "fake-cuda: module JIT load (%s)\n",
          strstr((const char *)image, ".entry") ? "PTX" : "other image");
  *m = (void *)1;
  OK;
}
CUresult cuModuleUnload(void *m) { OK; }
CUresult cuModuleGetFunction(void **f, void *m, const char *name) {
  strncpy(names[numNames], name, 255);
  *f = names[numNames++];
  OK;
}
CUresult cuFuncSetAttribute(void *f, int a, int v) { OK; }
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned smem,
                        void *stream, void **params, void **extra) {
  fprintf(stderr, "fake-cuda: launch %s grid (%u, %u, %u) block (%u, %u, %u)\n",
          (const char *)f, gx, gy, gz, bx, by, bz);
  OK;
}
CUresult cuStreamCreate(void **s, unsigned f) { *s = malloc(1); OK; }
CUresult cuStreamDestroy_v2(void *s) { free(s); OK; }
CUresult cuStreamSynchronize(void *s) { OK; }
CUresult cuStreamWaitEvent(void *s, void *e, unsigned f) { OK; }
CUresult cuEventCreate(void **e, unsigned f) { *e = malloc(1); OK; }
CUresult cuEventDestroy_v2(void *e) { free(e); OK; }
CUresult cuEventRecord(void *e, void *s) { OK; }
CUresult cuEventSynchronize(void *e) { OK; }
CUresult cuEventElapsedTime(float *ms, void *a, void *b) { *ms = 0.5f; OK; }
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n) {
  fprintf(stderr, "fake-cuda: alloc %zu bytes\n", n);
  *p = (CUdeviceptr)calloc(1, n);
  OK;
}
CUresult cuMemAllocManaged(CUdeviceptr *p, size_t n, unsigned f) {
  return cuMemAlloc_v2(p, n);
}
CUresult cuMemFree_v2(CUdeviceptr p) { free((void *)p); OK; }
CUresult cuMemcpyAsync(CUdeviceptr d, CUdeviceptr s, size_t n, void *st) {
  fprintf(stderr, "fake-cuda: copy %zu bytes\n", n);
  memcpy((void *)d, (void *)s, n);
  OK;
}
CUresult cuMemsetD32Async(CUdeviceptr d, unsigned v, size_t n, void *s) { OK; }
CUresult cuMemsetD16Async(CUdeviceptr d, unsigned short v, size_t n, void *s) { OK; }
CUresult cuMemHostRegister_v2(void *p, size_t n, unsigned f) { OK; }
CUresult cuMemHostUnregister(void *p) { OK; }
