/*===- stride-gpu-info.c - Is there a usable GPU? -------------------------===
 *
 * Prints the device the Stride GPU runtime would use and exits 0, or prints
 * the runtime's one-line reason and exits 69 (STRIDE_GPU_EXIT_NO_DEVICE).
 * With --stream it then makes one runtime call (stream create/destroy),
 * which on failure exits the way generated code would.
 *===----------------------------------------------------------------------===*/

#include "StrideGpuRuntime.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  int stream = argc > 1 && strcmp(argv[1], "--stream") == 0;
  if (stream) {
    /* Straight into an mgpu* call, as a compiled kernel's host code does. */
    mgpuStreamDestroy(mgpuStreamCreate());
    printf("stream ok: %s\n", strideGpuDeviceDescription());
    return 0;
  }
  char error[1024];
  int status = strideGpuInit(error, sizeof(error));
  if (status != 0) {
    fprintf(stderr, "stride-gpu-info: %s\n", error);
    return status;
  }
  printf("%s\n", strideGpuDeviceDescription());
  return 0;
}
