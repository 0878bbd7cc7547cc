//===- TemporaryCache.h - Kernel temporaries, no page faults -*- C++ -*-===//
//
// The JIT's kernels allocate their temporaries (an intermediate that feeds
// two ops, a reduction's lane buffers) through MLIR's generic allocation
// functions, which JitKernel binds to these. Large freed blocks are kept for
// the next call instead of being returned to the system: glibc serves a
// block of a few MiB with a fresh mmap and gives it back on free, so every
// call would fault in (and the kernel zero) every page of every temporary
// again, which costs more than the kernel itself on a softmax-sized array.
//
// Blocks of at least 128 KiB (glibc's default mmap threshold) are kept, the
// smallest fitting one (at most twice the request) is reused, and at most
// $STRIDE_TEMP_CACHE_MB MiB (default 256; 0 turns the cache off) stay
// cached; beyond that the oldest go back.
// Builds with AddressSanitizer cache nothing, so that a kernel's use of a
// freed temporary is still reported.
//
// Plain C++17 with no LLVM/MLIR dependency.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_RUNTIME_TEMPORARYCACHE_H
#define STRIDE_RUNTIME_TEMPORARYCACHE_H

#include <cstddef>

extern "C" {
/// `size` bytes aligned to 16 (MLIR's _mlir_memref_to_llvm_alloc).
void *stride_temp_alloc(size_t size);
/// `size` bytes aligned to `alignment`, a power of two
/// (_mlir_memref_to_llvm_aligned_alloc).
void *stride_temp_aligned_alloc(size_t alignment, size_t size);
/// Frees a block of the two above, or keeps it for reuse
/// (_mlir_memref_to_llvm_free). Null is ignored.
void stride_temp_free(void *ptr);
}

namespace stride {
/// Bytes held in the cache now, and blocks reused since the process
/// started (for tests and stride.cache_info()).
struct TemporaryCacheStats {
  size_t cachedBytes;
  size_t cachedBlocks;
  size_t reuses;
};
TemporaryCacheStats temporaryCacheStats();
/// Returns every cached block to the system.
void releaseTemporaryCache();
} // namespace stride

#endif // STRIDE_RUNTIME_TEMPORARYCACHE_H
