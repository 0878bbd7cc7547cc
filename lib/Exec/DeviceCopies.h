//===- DeviceCopies.h - stride-exec's device copies for GPU libraries -----===//
//
// A library compiled with `stride-compile --target=gpu` takes descriptors of
// device memory. stride-exec copies each argument's whole memory span (every
// element its sizes and strides reach, stride 0 and negative strides
// included) to the device and rewrites the descriptor's pointers and offset
// to the copy, so the kernel sees the same layout; outputs are copied back
// over the host spans. The mgpu* functions are looked up in the loaded
// library's dependencies (it links libstride_gpu_runtime), so stride-exec
// itself links neither the runtime nor LLVM/MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_EXEC_DEVICECOPIES_H
#define STRIDE_EXEC_DEVICECOPIES_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace stride::exec {

class DeviceCopies {
public:
  /// Finds the runtime's functions through `library` (a dlopen handle) and
  /// checks for a usable GPU; "" or why not (`noDevice` is then true when
  /// the driver or device is missing rather than the runtime).
  std::string init(void *library, bool &noDevice);
  ~DeviceCopies();

  /// Copies the span of the descriptor `words` (MLIR's C-interface memref:
  /// allocated, aligned, offset, sizes, strides) to the device and points
  /// `words` at the copy.
  void add(std::vector<int64_t> &words, size_t rank, size_t elementSize);
  /// Copies buffer `index` (in the order of add) back to the host.
  void copyBack(size_t index);
  /// Microseconds `call` takes, timed with CUDA events.
  double timeMicros(const std::function<void()> &call);

private:
  struct Copy {
    char *hostFirst;
    void *device;
    size_t bytes;
  };
  std::vector<Copy> copies;
  void *(*memAlloc)(uint64_t, void *, bool) = nullptr;
  void (*memFree)(void *, void *) = nullptr;
  void (*copyBytes)(void *, void *, size_t, void *) = nullptr;
  void (*synchronize)(void *) = nullptr;
  void *(*eventCreate)() = nullptr;
  void (*eventRecord)(void *, void *) = nullptr;
  void (*eventDestroy)(void *) = nullptr;
  float (*elapsedMs)(void *, void *) = nullptr;
};

} // namespace stride::exec

#endif // STRIDE_EXEC_DEVICECOPIES_H
