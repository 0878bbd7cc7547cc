//===- TemporaryCacheTest.cpp - The JIT kernels' temporaries -------------===//

#include "stride/Runtime/TemporaryCache.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

using namespace stride;

namespace {
bool alignedTo(void *p, size_t alignment) {
  return reinterpret_cast<uintptr_t>(p) % alignment == 0;
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kCaching = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kCaching = false;
#else
constexpr bool kCaching = true;
#endif
#else
constexpr bool kCaching = true;
#endif

TEST(TemporaryCacheTest, SmallBlocksAreAlignedAndNeverCached) {
  releaseTemporaryCache();
  for (size_t alignment : {16, 64, 128, 4096}) {
    void *p = stride_temp_aligned_alloc(alignment, 100);
    ASSERT_NE(p, nullptr);
    EXPECT_TRUE(alignedTo(p, alignment)) << alignment;
    std::memset(p, 0xab, 100);
    stride_temp_free(p);
  }
  void *q = stride_temp_alloc(24);
  EXPECT_TRUE(alignedTo(q, 16));
  stride_temp_free(q);
  stride_temp_free(nullptr);
  EXPECT_EQ(temporaryCacheStats().cachedBlocks, 0u);
  EXPECT_EQ(stride_temp_aligned_alloc(48, 10), nullptr); // not a power of 2
}

TEST(TemporaryCacheTest, LargeBlocksAreReusedAtTheirSize) {
  if (!kCaching)
    GTEST_SKIP() << "AddressSanitizer build: the cache is off, so that uses "
                    "of freed temporaries are reported";
  releaseTemporaryCache();
  size_t reuses = temporaryCacheStats().reuses;
  size_t big = size_t(16) << 20;
  void *a = stride_temp_aligned_alloc(64, big);
  ASSERT_NE(a, nullptr);
  EXPECT_TRUE(alignedTo(a, 64));
  std::memset(a, 1, big);
  stride_temp_free(a);
  EXPECT_EQ(temporaryCacheStats().cachedBlocks, 1u);
  EXPECT_GE(temporaryCacheStats().cachedBytes, big);
  // The same size again: the block comes back, whole and aligned.
  void *b = stride_temp_aligned_alloc(64, big);
  EXPECT_EQ(temporaryCacheStats().reuses, reuses + 1);
  EXPECT_EQ(temporaryCacheStats().cachedBlocks, 0u);
  EXPECT_TRUE(alignedTo(b, 64));
  std::memset(b, 2, big);
  // A request of less than half the block does not take it.
  stride_temp_free(b);
  void *small = stride_temp_alloc(size_t(4) << 20);
  EXPECT_EQ(temporaryCacheStats().reuses, reuses + 1);
  EXPECT_EQ(temporaryCacheStats().cachedBlocks, 1u);
  // A stricter alignment fits into a cached block too.
  void *page = stride_temp_aligned_alloc(4096, big - 8192);
  EXPECT_TRUE(alignedTo(page, 4096));
  EXPECT_EQ(temporaryCacheStats().reuses, reuses + 2);
  std::memset(page, 3, big - 8192);
  stride_temp_free(page);
  stride_temp_free(small);
  releaseTemporaryCache();
  EXPECT_EQ(temporaryCacheStats().cachedBlocks, 0u);
  EXPECT_EQ(temporaryCacheStats().cachedBytes, 0u);
}

TEST(TemporaryCacheTest, TheCacheIsBounded) {
  if (!kCaching)
    GTEST_SKIP() << "AddressSanitizer build: the cache is off";
  releaseTemporaryCache();
  // Twenty 32 MiB blocks held at once, then freed: at most the default
  // 256 MiB (or $STRIDE_TEMP_CACHE_MB) stay cached.
  void *blocks[20];
  for (void *&p : blocks)
    p = stride_temp_alloc(size_t(32) << 20);
  for (void *p : blocks)
    stride_temp_free(p);
  EXPECT_LE(temporaryCacheStats().cachedBytes, size_t(256) << 20);
  EXPECT_GT(temporaryCacheStats().cachedBlocks, 0u);
  releaseTemporaryCache();
}
} // namespace
