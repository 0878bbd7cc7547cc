//===- GpuBuffers.h - Device copies of strided buffers ----------*- C++ -*-===//
//
// For stride-run --target=gpu: each buffer argument's whole memory span (every
// element its sizes and strides reach, zero and negative strides included) is
// copied to device memory, and the kernel gets a descriptor over the copy with
// the same sizes and strides, so it sees the same layout. Outputs are copied
// back over the host buffers' spans.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_DRIVER_GPUBUFFERS_H
#define STRIDE_DRIVER_GPUBUFFERS_H

#include "stride/Driver/JitKernel.h"

#include <string>
#include <vector>

namespace mlir::stride {

/// "" when the GPU runtime finds a driver and a device, else why not.
std::string gpuUnavailableReason();
/// The device the runtime uses, as "NAME (sm_XY), driver V.v".
std::string gpuDeviceDescription();

class DeviceBuffers {
public:
  DeviceBuffers() = default;
  DeviceBuffers(const DeviceBuffers &) = delete;
  DeviceBuffers &operator=(const DeviceBuffers &) = delete;
  ~DeviceBuffers();

  /// Copies the span of `host` (elements of `elementSize` bytes) to a new
  /// device allocation; returns a descriptor over it with the same sizes
  /// and strides.
  BufferArg add(const BufferArg &host, size_t elementSize);
  /// Copies device buffer `index` (in the order of add) back to the host.
  void copyBack(size_t index);

private:
  struct Copy {
    char *hostFirst; // the host's lowest addressed element
    void *device;
    size_t bytes;
  };
  std::vector<Copy> copies;
};

/// Milliseconds `run` takes on the GPU, measured with CUDA events on the
/// default stream around it (the kernels' launches synchronize before
/// `run` returns).
template <typename F> double timeOnGpuMs(F &&run);

// Implementation detail of timeOnGpuMs.
void *gpuEventCreate();
void gpuEventRecord(void *event);
double gpuEventElapsedMs(void *start, void *stop);
void gpuEventDestroy(void *event);

template <typename F> double timeOnGpuMs(F &&run) {
  void *start = gpuEventCreate(), *stop = gpuEventCreate();
  gpuEventRecord(start);
  run();
  gpuEventRecord(stop);
  double ms = gpuEventElapsedMs(start, stop);
  gpuEventDestroy(start);
  gpuEventDestroy(stop);
  return ms;
}

} // namespace mlir::stride

#endif // STRIDE_DRIVER_GPUBUFFERS_H
