/*===- StrideGpuRuntime.h - The mgpu* functions on the CUDA driver -*- C -*-===
 *
 * What MLIR 22's gpu-to-llvm lowering calls (module load and JIT load,
 * functions, launches and cluster launches, streams, events, memory), on
 * the CUDA driver API with libcuda.so.1 loaded by dlopen at first use.
 * No LLVM/MLIR dependency. Every function is thread-safe: the driver is
 * loaded and the device's primary context retained once, and each calling
 * thread makes that context current before its first driver call.
 *
 * The mgpu* functions return nothing, so a failure cannot be handed back to
 * the generated code. They print one line
 *   stride-gpu-runtime: error: <what failed>: <driver error name and text>
 * to stderr and exit the process with
 *   69 (EX_UNAVAILABLE)  no usable driver or device (libcuda.so.1 missing,
 *                        cuInit failed, no device): see STRIDE_GPU_EXIT_NO_DEVICE
 *   70 (EX_SOFTWARE)     a driver call failed afterwards (bad kernel image,
 *                        launch failure, out of memory, ...)
 * A host that wants to report the problem itself calls strideGpuInit first.
 *
 * STRIDE_GPU_DEFER_NO_DEVICE=1 makes mgpuModuleLoad(JIT) return NULL
 * instead of exiting when there is no usable GPU (they run in a library's
 * constructor): the host can then load the library and call strideGpuInit
 * to report the problem itself, as stride-exec does.
 *
 * STRIDE_CUDA_LIBRARY, if set, names the driver library to load instead of
 * libcuda.so.1 (tests use it to exercise the no-driver path anywhere).
 *===----------------------------------------------------------------------===*/

#ifndef STRIDE_GPU_RUNTIME_H
#define STRIDE_GPU_RUNTIME_H

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#define STRIDE_GPU_EXIT_NO_DEVICE 69
#define STRIDE_GPU_EXIT_DRIVER_ERROR 70

#ifdef __cplusplus
extern "C" {
#endif

/* Loads the driver and sets up device 0 (or the one mgpuSetDefaultDevice
 * chose). Returns 0, or STRIDE_GPU_EXIT_NO_DEVICE with a message in `error`
 * (NUL-terminated, truncated to `size`). Never exits. */
int strideGpuInit(char *error, size_t size);
/* After a successful strideGpuInit: "NAME (sm_XY), driver V.v". */
const char *strideGpuDeviceDescription(void);
/* Milliseconds between two recorded events (both synchronized first). */
float strideGpuEventElapsedMs(void *start, void *stop);

void mgpuSetDefaultDevice(int32_t device);
void *mgpuModuleLoad(void *data, size_t size);
void *mgpuModuleLoadJIT(void *ptx, int optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount);
void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, void *stream, void **params,
                             void **extra, size_t paramsCount);
void *mgpuStreamCreate(void);
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamWaitEvent(void *stream, void *event);
void *mgpuEventCreate(void);
void mgpuEventDestroy(void *event);
void mgpuEventSynchronize(void *event);
void mgpuEventRecord(void *event, void *stream);
void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream);
void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream);
void mgpuMemset16(void *dst, unsigned short value, size_t count,
                  void *stream);
void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes);
void mgpuMemHostUnregister(void *ptr);
void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t elementSizeBytes);
void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes);

#ifdef __cplusplus
}
#endif

#endif /* STRIDE_GPU_RUNTIME_H */
