//===- GpuBuffers.cpp - Device copies of strided buffers -----------------===//

#include "stride/Driver/GpuBuffers.h"

#include "StrideGpuRuntime.h"

using namespace mlir::stride;

std::string mlir::stride::gpuUnavailableReason() {
  char error[1024] = {0};
  if (strideGpuInit(error, sizeof(error)) == 0)
    return "";
  return error;
}

std::string mlir::stride::gpuDeviceDescription() {
  return strideGpuDeviceDescription();
}

BufferArg DeviceBuffers::add(const BufferArg &host, size_t elementSize) {
  // Element offsets of the lowest and highest addressed elements.
  int64_t lo = 0, hi = 0;
  bool empty = false;
  for (size_t d = 0; d < host.sizes.size(); ++d) {
    if (host.sizes[d] == 0)
      empty = true;
    int64_t extent = (host.sizes[d] - 1) * host.strides[d];
    (extent < 0 ? lo : hi) += extent;
  }
  BufferArg device = host;
  Copy copy{nullptr, nullptr, 0};
  if (!empty) {
    copy.hostFirst = static_cast<char *>(host.aligned) +
                     (host.offset + lo) * static_cast<int64_t>(elementSize);
    copy.bytes = static_cast<size_t>(hi - lo + 1) * elementSize;
    copy.device = mgpuMemAlloc(copy.bytes, nullptr, false);
    mgpuMemcpy(copy.device, copy.hostFirst, copy.bytes, nullptr);
  }
  mgpuStreamSynchronize(nullptr);
  device.allocated = device.aligned = copy.device;
  device.offset = -lo;
  copies.push_back(copy);
  return device;
}

void DeviceBuffers::copyBack(size_t index) {
  Copy &copy = copies[index];
  if (copy.bytes) {
    mgpuMemcpy(copy.hostFirst, copy.device, copy.bytes, nullptr);
    mgpuStreamSynchronize(nullptr);
  }
}

DeviceBuffers::~DeviceBuffers() {
  for (Copy &copy : copies)
    if (copy.device)
      mgpuMemFree(copy.device, nullptr);
}

void *mlir::stride::gpuEventCreate() { return mgpuEventCreate(); }
void mlir::stride::gpuEventRecord(void *event) {
  mgpuEventRecord(event, nullptr);
}
double mlir::stride::gpuEventElapsedMs(void *start, void *stop) {
  return strideGpuEventElapsedMs(start, stop);
}
void mlir::stride::gpuEventDestroy(void *event) { mgpuEventDestroy(event); }
