//===- StrideGpuRuntime.cpp - The mgpu* functions on the CUDA driver -----===//
//
// See StrideGpuRuntime.h for the contract: driver loaded by dlopen once,
// primary context of one device, errors reported in one line with a
// documented exit status.
//
//===----------------------------------------------------------------------===//

#include "StrideGpuRuntime.h"
#include "CudaDriver.h"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

using namespace stride::cuda;

namespace {

struct State {
  Driver api{};
  void *library = nullptr;
  CUdevice device = 0;
  CUcontext context = nullptr;
  std::string error;       // why the driver is unusable; "" when it is
  std::string description; // the device, for messages and --info
};

std::mutex initMutex;
std::atomic<State *> ready{nullptr};
std::atomic<int> defaultDevice{0};
State state;

std::string driverError(const Driver &api, CUresult result) {
  const char *name = nullptr, *text = nullptr;
  if (api.cuGetErrorName)
    api.cuGetErrorName(result, &name);
  if (api.cuGetErrorString)
    api.cuGetErrorString(result, &text);
  std::string s = name ? name : "CUDA error " + std::to_string(result);
  if (text)
    s += std::string(" (") + text + ")";
  return s;
}

template <typename F>
bool resolve(void *library, const char *name, F &slot) {
  slot = reinterpret_cast<F>(dlsym(library, name));
  return slot != nullptr;
}

/// Loads the driver and the device's primary context; returns "" or why not.
std::string load(State &s) {
  const char *path = std::getenv("STRIDE_CUDA_LIBRARY");
  if (!path || !*path)
    path = "libcuda.so.1";
  s.library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!s.library) {
    const char *why = dlerror();
    return std::string("cannot load the CUDA driver library ") + path +
           " (is an NVIDIA driver installed?): " + (why ? why : "unknown");
  }
  Driver &a = s.api;
  const char *missing = nullptr;
#define STRIDE_RESOLVE(field, symbol)                                          \
  if (!missing && !resolve(s.library, symbol, a.field))                        \
    missing = symbol;
  STRIDE_RESOLVE(cuInit, "cuInit")
  STRIDE_RESOLVE(cuDriverGetVersion, "cuDriverGetVersion")
  STRIDE_RESOLVE(cuDeviceGetCount, "cuDeviceGetCount")
  STRIDE_RESOLVE(cuDeviceGet, "cuDeviceGet")
  STRIDE_RESOLVE(cuDeviceGetName, "cuDeviceGetName")
  STRIDE_RESOLVE(cuDeviceGetAttribute, "cuDeviceGetAttribute")
  STRIDE_RESOLVE(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain")
  STRIDE_RESOLVE(cuCtxSetCurrent, "cuCtxSetCurrent")
  STRIDE_RESOLVE(cuGetErrorName, "cuGetErrorName")
  STRIDE_RESOLVE(cuGetErrorString, "cuGetErrorString")
  STRIDE_RESOLVE(cuModuleLoadData, "cuModuleLoadData")
  STRIDE_RESOLVE(cuModuleLoadDataEx, "cuModuleLoadDataEx")
  STRIDE_RESOLVE(cuModuleUnload, "cuModuleUnload")
  STRIDE_RESOLVE(cuModuleGetFunction, "cuModuleGetFunction")
  STRIDE_RESOLVE(cuFuncSetAttribute, "cuFuncSetAttribute")
  STRIDE_RESOLVE(cuLaunchKernel, "cuLaunchKernel")
  STRIDE_RESOLVE(cuStreamCreate, "cuStreamCreate")
  STRIDE_RESOLVE(cuStreamDestroy, "cuStreamDestroy_v2")
  STRIDE_RESOLVE(cuStreamSynchronize, "cuStreamSynchronize")
  STRIDE_RESOLVE(cuStreamWaitEvent, "cuStreamWaitEvent")
  STRIDE_RESOLVE(cuEventCreate, "cuEventCreate")
  STRIDE_RESOLVE(cuEventDestroy, "cuEventDestroy_v2")
  STRIDE_RESOLVE(cuEventRecord, "cuEventRecord")
  STRIDE_RESOLVE(cuEventSynchronize, "cuEventSynchronize")
  STRIDE_RESOLVE(cuEventElapsedTime, "cuEventElapsedTime")
  STRIDE_RESOLVE(cuMemAlloc, "cuMemAlloc_v2")
  STRIDE_RESOLVE(cuMemAllocManaged, "cuMemAllocManaged")
  STRIDE_RESOLVE(cuMemFree, "cuMemFree_v2")
  STRIDE_RESOLVE(cuMemcpyAsync, "cuMemcpyAsync")
  STRIDE_RESOLVE(cuMemsetD32Async, "cuMemsetD32Async")
  STRIDE_RESOLVE(cuMemsetD16Async, "cuMemsetD16Async")
  STRIDE_RESOLVE(cuMemHostRegister, "cuMemHostRegister_v2")
  STRIDE_RESOLVE(cuMemHostUnregister, "cuMemHostUnregister")
#undef STRIDE_RESOLVE
  if (missing)
    return std::string("the CUDA driver library ") + path +
           " lacks the function " + missing + " (driver too old?)";
  // Optional: only cluster launches need it (CUDA 12+).
  resolve(s.library, "cuLaunchKernelEx", a.cuLaunchKernelEx);

  if (CUresult r = a.cuInit(0); r != CUDA_SUCCESS)
    return "cuInit failed: " + driverError(a, r) +
           (r == 34 ? "; this is the toolkit's link-time stub, not a driver"
                    : "");
  int count = 0;
  if (CUresult r = a.cuDeviceGetCount(&count); r != CUDA_SUCCESS)
    return "cuDeviceGetCount failed: " + driverError(a, r);
  int wanted = defaultDevice.load();
  if (count == 0)
    return "the CUDA driver sees no GPU";
  if (wanted < 0 || wanted >= count)
    return "device " + std::to_string(wanted) + " requested but the driver "
           "sees " + std::to_string(count) + " GPU(s)";
  if (CUresult r = a.cuDeviceGet(&s.device, wanted); r != CUDA_SUCCESS)
    return "cuDeviceGet failed: " + driverError(a, r);
  if (CUresult r = a.cuDevicePrimaryCtxRetain(&s.context, s.device);
      r != CUDA_SUCCESS)
    return "cannot create a context on device " + std::to_string(wanted) +
           ": " + driverError(a, r);
  char name[256] = {0};
  a.cuDeviceGetName(name, sizeof(name) - 1, s.device);
  int major = 0, minor = 0, version = 0;
  a.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                         s.device);
  a.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                         s.device);
  a.cuDriverGetVersion(&version);
  s.description = std::string(name) + " (sm_" + std::to_string(major) +
                  std::to_string(minor) + "), driver " +
                  std::to_string(version / 1000) + "." +
                  std::to_string(version % 1000 / 10);
  return "";
}

/// The state with the driver loaded, or null with `error` set. Loading is
/// attempted once; later calls see the same outcome.
State *initialize() {
  if (State *s = ready.load(std::memory_order_acquire))
    return s;
  std::lock_guard<std::mutex> lock(initMutex);
  if (State *s = ready.load(std::memory_order_relaxed))
    return s;
  static bool attempted = false;
  if (!attempted) {
    attempted = true;
    state.error = load(state);
    if (state.error.empty()) {
      ready.store(&state, std::memory_order_release);
      return &state;
    }
  }
  return nullptr;
}

[[noreturn]] void die(int status, const std::string &message) {
  std::fprintf(stderr, "stride-gpu-runtime: error: %s\n", message.c_str());
  std::fflush(stderr);
  std::_Exit(status);
}

/// The driver, with the context current on this thread; exits when there
/// is no usable driver.
const Driver &driver() {
  State *s = initialize();
  if (!s)
    die(STRIDE_GPU_EXIT_NO_DEVICE, state.error);
  thread_local bool current = false;
  if (!current) {
    if (CUresult r = s->api.cuCtxSetCurrent(s->context); r != CUDA_SUCCESS)
      die(STRIDE_GPU_EXIT_DRIVER_ERROR,
          "cuCtxSetCurrent failed: " + driverError(s->api, r));
    current = true;
  }
  return s->api;
}

/// STRIDE_GPU_DEFER_NO_DEVICE=1 and no usable GPU: module loads (which run
/// in a library's constructor, while it is being loaded) return null instead
/// of exiting, so that a host such as stride-exec can load a GPU library,
/// read its metadata and report the missing GPU itself (strideGpuInit).
bool deferNoDevice() {
  const char *defer = std::getenv("STRIDE_GPU_DEFER_NO_DEVICE");
  return defer && std::string(defer) == "1" && !initialize();
}

void check(CUresult result, const char *what) {
  if (result != CUDA_SUCCESS)
    die(STRIDE_GPU_EXIT_DRIVER_ERROR,
        std::string(what) + " failed: " + driverError(state.api, result));
}

CUdeviceptr dptr(void *p) { return reinterpret_cast<CUdeviceptr>(p); }

unsigned dim(intptr_t v, const char *what) {
  if (v < 0 || v > 0x7fffffff)
    die(STRIDE_GPU_EXIT_DRIVER_ERROR,
        std::string("launch ") + what + " " + std::to_string(v) +
            " is out of range");
  return static_cast<unsigned>(v);
}

/// A kernel asking for more than the default 48 KiB of dynamic shared
/// memory must opt in first.
void allowSharedMemory(const Driver &a, void *function, int32_t smem) {
  if (smem > 48 * 1024)
    check(a.cuFuncSetAttribute(static_cast<CUfunction>(function),
                               CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               smem),
          "cuFuncSetAttribute(max dynamic shared memory)");
}

/// The bytes spanned by a strided memref descriptor
/// {allocated, aligned, offset, sizes[rank], strides[rank]}: first element
/// and length, for any strides (zero and negative included).
std::pair<char *, size_t> memrefSpan(int64_t rank, void *descriptor,
                                     int64_t elementSize) {
  struct Header {
    void *allocated;
    char *aligned;
    int64_t offset;
  };
  auto *header = static_cast<Header *>(descriptor);
  auto *sizes = reinterpret_cast<int64_t *>(header + 1);
  int64_t *strides = sizes + rank;
  int64_t lo = 0, hi = 0;
  for (int64_t d = 0; d < rank; ++d) {
    if (sizes[d] == 0)
      return {header->aligned + header->offset * elementSize, 0};
    int64_t extent = (sizes[d] - 1) * strides[d];
    (extent < 0 ? lo : hi) += extent;
  }
  return {header->aligned + (header->offset + lo) * elementSize,
          static_cast<size_t>(hi - lo + 1) * elementSize};
}

} // namespace

extern "C" {

int strideGpuInit(char *error, size_t size) {
  if (initialize())
    return 0;
  if (error && size) {
    std::strncpy(error, state.error.c_str(), size - 1);
    error[size - 1] = '\0';
  }
  return STRIDE_GPU_EXIT_NO_DEVICE;
}

const char *strideGpuDeviceDescription(void) {
  State *s = initialize();
  return s ? s->description.c_str() : "";
}

float strideGpuEventElapsedMs(void *start, void *stop) {
  const Driver &a = driver();
  check(a.cuEventSynchronize(static_cast<CUevent>(stop)),
        "cuEventSynchronize");
  float ms = 0;
  check(a.cuEventElapsedTime(&ms, static_cast<CUevent>(start),
                             static_cast<CUevent>(stop)),
        "cuEventElapsedTime");
  return ms;
}

void mgpuSetDefaultDevice(int32_t device) {
  if (ready.load())
    die(STRIDE_GPU_EXIT_DRIVER_ERROR,
        "mgpuSetDefaultDevice called after the runtime chose device " +
            std::to_string(state.device));
  defaultDevice.store(device);
}

void *mgpuModuleLoad(void *data, size_t /*size*/) {
  if (deferNoDevice())
    return nullptr;
  const Driver &a = driver();
  CUmodule module = nullptr;
  check(a.cuModuleLoadData(&module, data), "cuModuleLoadData");
  return module;
}

void *mgpuModuleLoadJIT(void *ptx, int optLevel) {
  if (deferNoDevice())
    return nullptr;
  const Driver &a = driver();
  char log[8192] = {0};
  int options[] = {CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_ERROR_LOG_BUFFER,
                   CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {reinterpret_cast<void *>(static_cast<intptr_t>(
                        std::clamp(optLevel, 0, 4))),
                    log, reinterpret_cast<void *>(sizeof(log) - 1)};
  CUmodule module = nullptr;
  CUresult r = a.cuModuleLoadDataEx(&module, ptx, 3, options, values);
  if (r != CUDA_SUCCESS)
    die(STRIDE_GPU_EXIT_DRIVER_ERROR,
        "JIT compilation of PTX failed: " + driverError(a, r) +
            (log[0] ? std::string("\n") + log : std::string()));
  return module;
}

void mgpuModuleUnload(void *module) {
  if (!module) // a load deferred by STRIDE_GPU_DEFER_NO_DEVICE
    return;
  check(driver().cuModuleUnload(static_cast<CUmodule>(module)),
        "cuModuleUnload");
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  CUfunction function = nullptr;
  CUresult r = driver().cuModuleGetFunction(
      &function, static_cast<CUmodule>(module), name);
  if (r != CUDA_SUCCESS)
    die(STRIDE_GPU_EXIT_DRIVER_ERROR,
        std::string("kernel '") + name +
            "' not found in its module: " + driverError(state.api, r));
  return function;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t /*paramsCount*/) {
  const Driver &a = driver();
  allowSharedMemory(a, function, smem);
  check(a.cuLaunchKernel(static_cast<CUfunction>(function),
                         dim(gridX, "grid x"), dim(gridY, "grid y"),
                         dim(gridZ, "grid z"), dim(blockX, "block x"),
                         dim(blockY, "block y"), dim(blockZ, "block z"),
                         static_cast<unsigned>(smem),
                         static_cast<CUstream>(stream), params, extra),
        "cuLaunchKernel");
}

void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, void *stream, void **params,
                             void **extra, size_t /*paramsCount*/) {
  const Driver &a = driver();
  if (!a.cuLaunchKernelEx)
    die(STRIDE_GPU_EXIT_DRIVER_ERROR,
        "cluster launch needs cuLaunchKernelEx (CUDA 12 driver or newer)");
  allowSharedMemory(a, function, smem);
  CUlaunchAttribute cluster{};
  cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  cluster.value.clusterDim.x = dim(clusterX, "cluster x");
  cluster.value.clusterDim.y = dim(clusterY, "cluster y");
  cluster.value.clusterDim.z = dim(clusterZ, "cluster z");
  CUlaunchConfig config{};
  config.gridDimX = dim(gridX, "grid x");
  config.gridDimY = dim(gridY, "grid y");
  config.gridDimZ = dim(gridZ, "grid z");
  config.blockDimX = dim(blockX, "block x");
  config.blockDimY = dim(blockY, "block y");
  config.blockDimZ = dim(blockZ, "block z");
  config.sharedMemBytes = static_cast<unsigned>(smem);
  config.hStream = static_cast<CUstream>(stream);
  config.attrs = &cluster;
  config.numAttrs = 1;
  check(a.cuLaunchKernelEx(&config, static_cast<CUfunction>(function), params,
                           extra),
        "cuLaunchKernelEx");
}

void *mgpuStreamCreate(void) {
  CUstream stream = nullptr;
  check(driver().cuStreamCreate(&stream, /*CU_STREAM_NON_BLOCKING=*/1),
        "cuStreamCreate");
  return stream;
}

void mgpuStreamDestroy(void *stream) {
  check(driver().cuStreamDestroy(static_cast<CUstream>(stream)),
        "cuStreamDestroy");
}

void mgpuStreamSynchronize(void *stream) {
  check(driver().cuStreamSynchronize(static_cast<CUstream>(stream)),
        "cuStreamSynchronize (a kernel or copy on this stream failed)");
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  check(driver().cuStreamWaitEvent(static_cast<CUstream>(stream),
                                   static_cast<CUevent>(event), 0),
        "cuStreamWaitEvent");
}

void *mgpuEventCreate(void) {
  CUevent event = nullptr;
  check(driver().cuEventCreate(&event, /*CU_EVENT_DEFAULT=*/0),
        "cuEventCreate");
  return event;
}

void mgpuEventDestroy(void *event) {
  check(driver().cuEventDestroy(static_cast<CUevent>(event)),
        "cuEventDestroy");
}

void mgpuEventSynchronize(void *event) {
  check(driver().cuEventSynchronize(static_cast<CUevent>(event)),
        "cuEventSynchronize");
}

void mgpuEventRecord(void *event, void *stream) {
  check(driver().cuEventRecord(static_cast<CUevent>(event),
                               static_cast<CUstream>(stream)),
        "cuEventRecord");
}

void *mgpuMemAlloc(uint64_t sizeBytes, void * /*stream*/, bool isHostShared) {
  const Driver &a = driver();
  if (sizeBytes == 0)
    return nullptr; // the driver refuses empty allocations
  CUdeviceptr ptr = 0;
  if (isHostShared)
    check(a.cuMemAllocManaged(&ptr, sizeBytes, CU_MEM_ATTACH_GLOBAL),
          "cuMemAllocManaged");
  else
    check(a.cuMemAlloc(&ptr, sizeBytes), "cuMemAlloc");
  return reinterpret_cast<void *>(ptr);
}

void mgpuMemFree(void *ptr, void * /*stream*/) {
  if (ptr)
    check(driver().cuMemFree(dptr(ptr)), "cuMemFree");
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  if (sizeBytes)
    check(driver().cuMemcpyAsync(dptr(dst), dptr(src), sizeBytes,
                                 static_cast<CUstream>(stream)),
          "cuMemcpyAsync");
}

void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream) {
  if (count)
    check(driver().cuMemsetD32Async(dptr(dst), value, count,
                                    static_cast<CUstream>(stream)),
          "cuMemsetD32Async");
}

void mgpuMemset16(void *dst, unsigned short value, size_t count,
                  void *stream) {
  if (count)
    check(driver().cuMemsetD16Async(dptr(dst), value, count,
                                    static_cast<CUstream>(stream)),
          "cuMemsetD16Async");
}

void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  if (sizeBytes)
    check(driver().cuMemHostRegister(ptr, sizeBytes,
                                     CU_MEMHOSTREGISTER_PORTABLE),
          "cuMemHostRegister");
}

void mgpuMemHostUnregister(void *ptr) {
  if (ptr)
    check(driver().cuMemHostUnregister(ptr), "cuMemHostUnregister");
}

void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t elementSizeBytes) {
  auto [ptr, bytes] = memrefSpan(rank, descriptor, elementSizeBytes);
  mgpuMemHostRegister(ptr, bytes);
}

void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes) {
  auto [ptr, bytes] = memrefSpan(rank, descriptor, elementSizeBytes);
  if (bytes)
    mgpuMemHostUnregister(ptr);
}

} // extern "C"
