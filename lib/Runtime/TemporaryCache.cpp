//===- TemporaryCache.cpp - Kernel temporaries without page faults --------===//

#include "stride/Runtime/TemporaryCache.h"

#include <cstdint>
#include <cstdlib>
#include <deque>
#include <mutex>

#if defined(__SANITIZE_ADDRESS__)
#define STRIDE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STRIDE_ASAN 1
#endif
#endif

namespace {
/// Stored just before the pointer a kernel gets: the malloc'ed block it
/// lies in and that block's size.
struct Header {
  void *raw;
  size_t rawBytes;
};

/// glibc's default mmap threshold: from this size on, glibc may serve a
/// block with its own mmap and unmap it on free (a reduction's 512 KiB lane
/// buffers were faulted in on every call below the former 1 MiB).
constexpr size_t kMinCachedBytes = size_t(128) << 10;
constexpr size_t kRounding = size_t(64) << 10;

struct Block {
  void *raw;
  size_t rawBytes;
};

struct Cache {
  std::mutex mutex;
  std::deque<Block> blocks; // oldest first
  size_t cachedBytes = 0;
  size_t reuses = 0;
  size_t limit;

  Cache() {
#ifdef STRIDE_ASAN
    limit = 0;
#else
    limit = size_t(256) << 20;
    if (const char *text = std::getenv("STRIDE_TEMP_CACHE_MB")) {
      char *end = nullptr;
      unsigned long long mb = std::strtoull(text, &end, 10);
      if (end != text && *end == '\0' && mb < (1ull << 24))
        limit = size_t(mb) << 20;
    }
#endif
  }
};

Cache &cache() {
  static Cache *instance = new Cache(); // never destroyed: kernels may run late
  return *instance;
}

void *place(void *raw, size_t rawBytes, size_t alignment) {
  uintptr_t p = reinterpret_cast<uintptr_t>(raw) + sizeof(Header);
  p = (p + alignment - 1) & ~(uintptr_t(alignment) - 1);
  Header *header = reinterpret_cast<Header *>(p) - 1;
  header->raw = raw;
  header->rawBytes = rawBytes;
  return reinterpret_cast<void *>(p);
}

void *allocate(size_t alignment, size_t size) {
  if (alignment < alignof(Header))
    alignment = alignof(Header);
  if (alignment & (alignment - 1))
    return nullptr; // not a power of two
  if (size > SIZE_MAX / 2)
    return nullptr;
  size_t needed = size + sizeof(Header) + alignment - 1;
  if (needed >= kMinCachedBytes) {
    Cache &c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    auto best = c.blocks.end();
    for (auto it = c.blocks.begin(); it != c.blocks.end(); ++it)
      if (it->rawBytes >= needed && it->rawBytes / 2 <= needed &&
          (best == c.blocks.end() || it->rawBytes < best->rawBytes))
        best = it;
    if (best != c.blocks.end()) {
      Block block = *best;
      c.blocks.erase(best);
      c.cachedBytes -= block.rawBytes;
      ++c.reuses;
      return place(block.raw, block.rawBytes, alignment);
    }
    // Rounded up, so that a slightly larger request later fits too.
    needed = (needed + kRounding - 1) / kRounding * kRounding;
  }
  void *raw = std::malloc(needed);
  if (!raw)
    return nullptr;
  return place(raw, needed, alignment);
}
} // namespace

extern "C" void *stride_temp_alloc(size_t size) { return allocate(16, size); }

extern "C" void *stride_temp_aligned_alloc(size_t alignment, size_t size) {
  return allocate(alignment, size);
}

extern "C" void stride_temp_free(void *ptr) {
  if (!ptr)
    return;
  Header header = *(reinterpret_cast<Header *>(ptr) - 1);
  if (header.rawBytes >= kMinCachedBytes) {
    Cache &c = cache();
    std::deque<Block> evicted;
    {
      std::lock_guard<std::mutex> lock(c.mutex);
      if (header.rawBytes <= c.limit) {
        while (c.cachedBytes + header.rawBytes > c.limit) {
          evicted.push_back(c.blocks.front());
          c.cachedBytes -= c.blocks.front().rawBytes;
          c.blocks.pop_front();
        }
        c.blocks.push_back({header.raw, header.rawBytes});
        c.cachedBytes += header.rawBytes;
        header.raw = nullptr;
      }
    }
    for (const Block &block : evicted)
      std::free(block.raw);
  }
  std::free(header.raw);
}

stride::TemporaryCacheStats stride::temporaryCacheStats() {
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return {c.cachedBytes, c.blocks.size(), c.reuses};
}

void stride::releaseTemporaryCache() {
  Cache &c = cache();
  std::deque<Block> blocks;
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    blocks.swap(c.blocks);
    c.cachedBytes = 0;
  }
  for (const Block &block : blocks)
    std::free(block.raw);
}
