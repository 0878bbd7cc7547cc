//===- DeviceCopies.cpp - stride-exec's device copies for GPU libraries ---===//

#include "DeviceCopies.h"

#include <cstring>
#include <dlfcn.h>

using namespace stride::exec;

namespace {
template <typename F>
bool lookUp(void *library, const char *name, F &function) {
  function = reinterpret_cast<F>(dlsym(library, name));
  return function != nullptr;
}
} // namespace

std::string DeviceCopies::init(void *library, bool &noDevice) {
  noDevice = false;
  int (*gpuInit)(char *, size_t) = nullptr;
  if (!lookUp(library, "strideGpuInit", gpuInit) ||
      !lookUp(library, "mgpuMemAlloc", memAlloc) ||
      !lookUp(library, "mgpuMemFree", memFree) ||
      !lookUp(library, "mgpuMemcpy", copyBytes) ||
      !lookUp(library, "mgpuStreamSynchronize", synchronize) ||
      !lookUp(library, "mgpuEventCreate", eventCreate) ||
      !lookUp(library, "mgpuEventRecord", eventRecord) ||
      !lookUp(library, "mgpuEventDestroy", eventDestroy) ||
      !lookUp(library, "strideGpuEventElapsedMs", elapsedMs))
    return "the library was compiled for the GPU but does not load "
           "libstride_gpu_runtime's functions";
  char why[1024] = {0};
  if (gpuInit(why, sizeof(why)) != 0) {
    noDevice = true;
    return why;
  }
  return "";
}

void DeviceCopies::add(std::vector<int64_t> &words, size_t rank,
                       size_t elementSize) {
  // Element offsets of the lowest and highest addressed elements.
  int64_t lo = 0, hi = 0;
  bool empty = false;
  for (size_t d = 0; d < rank; ++d) {
    int64_t size = words[3 + d], stride = words[3 + rank + d];
    if (size == 0)
      empty = true;
    int64_t extent = (size - 1) * stride;
    (extent < 0 ? lo : hi) += extent;
  }
  char *aligned;
  std::memcpy(&aligned, &words[1], sizeof(void *));
  Copy copy{nullptr, nullptr, 0};
  if (!empty) {
    copy.hostFirst = aligned + (words[2] + lo) * static_cast<int64_t>(elementSize);
    copy.bytes = static_cast<size_t>(hi - lo + 1) * elementSize;
    copy.device = memAlloc(copy.bytes, nullptr, false);
    copyBytes(copy.device, copy.hostFirst, copy.bytes, nullptr);
    synchronize(nullptr);
  }
  std::memcpy(&words[0], &copy.device, sizeof(void *));
  std::memcpy(&words[1], &copy.device, sizeof(void *));
  words[2] = -lo;
  copies.push_back(copy);
}

void DeviceCopies::copyBack(size_t index) {
  Copy &copy = copies[index];
  if (!copy.bytes)
    return;
  copyBytes(copy.hostFirst, copy.device, copy.bytes, nullptr);
  synchronize(nullptr);
}

double DeviceCopies::timeMicros(const std::function<void()> &call) {
  void *start = eventCreate(), *stop = eventCreate();
  eventRecord(start, nullptr);
  call();
  eventRecord(stop, nullptr);
  double micros = 1000.0 * elapsedMs(start, stop);
  eventDestroy(start);
  eventDestroy(stop);
  return micros;
}

DeviceCopies::~DeviceCopies() {
  for (Copy &copy : copies)
    if (copy.device)
      memFree(copy.device, nullptr);
}
