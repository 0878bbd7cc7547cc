//===- StridedBufferTest.cpp - Arrays in arbitrary strided layouts --------===//
//
// Each layout is checked against an independent recomputation of where every
// element lives, so fill() and gather() cannot agree on a wrong address.
//
//===----------------------------------------------------------------------===//

#include "stride/Runtime/StridedBuffer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <set>

using namespace stride::runtime;
using ::stride::ElementType;
using ::stride::kAllElementTypes;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

StridedBuffer createOk(ElementType dtype, std::vector<int64_t> shape,
                       std::vector<int64_t> strides) {
  auto created = StridedBuffer::create(dtype, shape, strides);
  if (auto *error = std::get_if<std::string>(&created)) {
    ADD_FAILURE() << *error;
    return std::get<StridedBuffer>(StridedBuffer::create(dtype, {}, {}));
  }
  return std::move(std::get<StridedBuffer>(created));
}

std::string createError(ElementType dtype, std::vector<int64_t> shape,
                        std::vector<int64_t> strides) {
  auto created = StridedBuffer::create(dtype, shape, strides);
  EXPECT_TRUE(std::holds_alternative<std::string>(created));
  auto *error = std::get_if<std::string>(&created);
  return error ? *error : "";
}

/// Random values, made equal along each stride-0 dim so that the layout can
/// hold them: every element copies its slice-0 counterpart.
Array broadcastableValues(ElementType dtype, const std::vector<int64_t> &shape,
                          const std::vector<int64_t> &strides, uint64_t seed) {
  Array values = randomArray(dtype, shape, seed);
  size_t itemSize = elementSize(dtype);
  std::vector<int64_t> cStrides = rowMajorStrides(shape);
  for (size_t d = 0; d < shape.size(); ++d) {
    if (strides[d] != 0)
      continue;
    for (int64_t flat = 0; flat < values.numel(); ++flat) {
      int64_t along = flat / cStrides[d] % shape[d];
      std::memcpy(&values.data[flat * itemSize],
                  &values.data[(flat - along * cStrides[d]) * itemSize],
                  itemSize);
    }
  }
  return values;
}

/// Element offset from the origin of C-order element `flat`, recomputed
/// from the multi-index rather than incrementally.
int64_t positionOf(const std::vector<int64_t> &shape,
                   const std::vector<int64_t> &strides, int64_t flat) {
  int64_t position = 0;
  for (size_t d = shape.size(); d-- > 0;) {
    position += (flat % shape[d]) * strides[d];
    flat /= shape[d];
  }
  return position;
}

bool isSentinel(ElementType dtype, const uint8_t *element) {
  if (dtype == ElementType::F32) {
    float v;
    std::memcpy(&v, element, 4);
    return std::isnan(v);
  }
  if (dtype == ElementType::F64) {
    double v;
    std::memcpy(&v, element, 8);
    return std::isnan(v);
  }
  for (size_t i = 0; i < elementSize(dtype); ++i)
    if (element[i] != 0x5A)
      return false;
  return true;
}

/// Fills a buffer of the given layout, then checks the offset and span, that
/// each element sits where its strides say, that everything else still
/// holds the sentinel, and that gather() returns the values unchanged.
void checkLayout(ElementType dtype, const std::vector<int64_t> &shape,
                 const std::vector<int64_t> &strides, int64_t expectedOffset,
                 int64_t expectedSpan) {
  SCOPED_TRACE(std::string(elementTypeName(dtype)) + " " + formatShape(shape) +
               " strides " + formatStrides(strides));
  StridedBuffer buffer = createOk(dtype, shape, strides);
  EXPECT_EQ(buffer.offset(), expectedOffset);
  EXPECT_EQ(buffer.allocatedElements(), expectedSpan);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(buffer.allocated()) % 64, 0u);
  EXPECT_EQ(buffer.aligned(), buffer.allocated());
  EXPECT_NE(buffer.allocated(), nullptr);
  EXPECT_EQ(buffer.dtype(), dtype);
  EXPECT_EQ(buffer.shape(), shape);
  EXPECT_EQ(buffer.strides(), strides);

  Array values = broadcastableValues(dtype, shape, strides, 7);
  ASSERT_EQ(buffer.fill(values), "");

  size_t itemSize = elementSize(dtype);
  const uint8_t *base = static_cast<const uint8_t *>(buffer.aligned());
  std::set<int64_t> used;
  for (int64_t flat = 0; flat < values.numel(); ++flat) {
    int64_t at = buffer.offset() + positionOf(shape, strides, flat);
    ASSERT_GE(at, 0);
    ASSERT_LT(at, buffer.allocatedElements());
    EXPECT_EQ(std::memcmp(base + at * itemSize, &values.data[flat * itemSize],
                          itemSize),
              0)
        << "element " << formatIndex(shape, flat);
    used.insert(at);
  }
  for (int64_t at = 0; at < buffer.allocatedElements(); ++at) {
    if (!used.count(at)) {
      EXPECT_TRUE(isSentinel(dtype, base + at * itemSize))
          << "padding element " << at;
    }
  }

  EXPECT_TRUE(identical(buffer.gather(), values));
}

} // namespace

TEST(RowMajorStrides, TorchConvention) {
  EXPECT_EQ(rowMajorStrides({4, 2, 3}), (std::vector<int64_t>{6, 3, 1}));
  EXPECT_EQ(rowMajorStrides({2, 0, 3}), (std::vector<int64_t>{3, 3, 1}));
  EXPECT_EQ(rowMajorStrides({1, 5}), (std::vector<int64_t>{5, 1}));
  EXPECT_EQ(rowMajorStrides({7}), (std::vector<int64_t>{1}));
  EXPECT_EQ(rowMajorStrides({}), (std::vector<int64_t>{}));
  EXPECT_EQ(formatStrides({4, 0, -1}), "[4, 0, -1]");
  EXPECT_EQ(formatStrides({}), "[]");
}

TEST(StridedBuffer, ContiguousAndPermuted) {
  for (ElementType dtype : kAllElementTypes) {
    checkLayout(dtype, {2, 3, 4}, {12, 4, 1}, 0, 24);
    // Dims stored innermost-first (column-major) and a 3-cycle.
    checkLayout(dtype, {2, 3, 4}, {1, 2, 6}, 0, 24);
    checkLayout(dtype, {4, 2, 3}, {1, 12, 4}, 0, 24);
  }
}

TEST(StridedBuffer, SlicedWithGaps) {
  for (ElementType dtype : kAllElementTypes) {
    // a[::2, ::3] of a 6x10 array, as NumPy views it.
    checkLayout(dtype, {3, 4}, {20, 3}, 0, 50);
    // A padded row pitch: rows of 5 stored 8 apart.
    checkLayout(dtype, {4, 5}, {8, 1}, 0, 29);
  }
}

TEST(StridedBuffer, BroadcastStrideZero) {
  for (ElementType dtype : kAllElementTypes) {
    checkLayout(dtype, {3, 4}, {0, 1}, 0, 4);
    checkLayout(dtype, {3, 4}, {1, 0}, 0, 3);
    checkLayout(dtype, {2, 3, 4}, {0, 0, 0}, 0, 1);
    // A size-1 dim may carry any stride, and it never moves.
    checkLayout(dtype, {1, 3}, {999, 1}, 0, 3);
  }
}

TEST(StridedBuffer, NegativeStrides) {
  for (ElementType dtype : kAllElementTypes) {
    // a[::-1, ::-1] of a 3x4 array: [0, 0] is the last element.
    checkLayout(dtype, {3, 4}, {-4, -1}, 11, 12);
    // One reversed dim inside a permuted layout.
    checkLayout(dtype, {2, 3, 4}, {1, -8, 2}, 16, 24);
    // Reversed, broadcast and gapped at once.
    checkLayout(dtype, {2, 3, 4}, {-1, 0, 6}, 1, 20);
  }
}

TEST(StridedBuffer, RankZeroAndZeroSize) {
  for (ElementType dtype : kAllElementTypes) {
    checkLayout(dtype, {}, {}, 0, 1);
    checkLayout(dtype, {3, 0}, {-5, 1}, 0, 0);
    checkLayout(dtype, {0}, {1}, 0, 0);
  }
}

/// What filling a buffer of `shape` and `strides` says of values that are
/// zero except `value` at row-major element `at`.
template <typename T>
std::string fillWithOneValue(ElementType dtype, std::vector<int64_t> shape,
                             std::vector<int64_t> strides, int64_t at,
                             T value) {
  StridedBuffer buffer = createOk(dtype, shape, strides);
  Array values = zeros(dtype, shape);
  std::memcpy(&values.data[at * sizeof(T)], &value, sizeof(T));
  return buffer.fill(values);
}

TEST(StridedBuffer, BroadcastInconsistencyIsAnError) {
  EXPECT_EQ(fillWithOneValue(ElementType::F32, {2, 3}, {1, 0}, 5, 1.5f),
            "input values differ along dimension 1, which the layout "
            "broadcasts (stride 0): element [1, 2] is 1.5 but element [1, 0] "
            "is 0");
  EXPECT_EQ(fillWithOneValue(ElementType::I64, {3, 2}, {0, 1}, 2, int64_t(7)),
            "input values differ along dimension 0, which the layout "
            "broadcasts (stride 0): element [1, 0] is 7 but element [0, 0] "
            "is 0");
  // Equal bits are required: -0.0 and 0.0 cannot share one slot.
  EXPECT_NE(fillWithOneValue(ElementType::F64, {2}, {0}, 1, -0.0), "");
}

TEST(StridedBuffer, OverlappingNonzeroStrides) {
  // [i, j] lives at i + j: [0, 1] and [1, 0] share position 1.
  Array consistent = zeros(ElementType::I32, {2, 2});
  int32_t values[] = {0, 1, 1, 2};
  std::memcpy(consistent.data.data(), values, sizeof(values));
  StridedBuffer buffer = createOk(ElementType::I32, {2, 2}, {1, 1});
  EXPECT_EQ(buffer.allocatedElements(), 3);
  EXPECT_EQ(buffer.fill(consistent), "");
  EXPECT_TRUE(identical(buffer.gather(), consistent));

  int32_t clash[] = {0, 1, 5, 2};
  std::memcpy(consistent.data.data(), clash, sizeof(clash));
  EXPECT_EQ(buffer.fill(consistent),
            "the layout maps several elements to the same memory and the "
            "input gives them different values: element [0, 1] is 1 but "
            "another element at the same address overwrote it");
}

TEST(StridedBuffer, FillRejectsMismatchedValues) {
  StridedBuffer buffer = createOk(ElementType::F32, {2, 3}, {3, 1});
  EXPECT_EQ(buffer.fill(zeros(ElementType::F64, {2, 3})),
            "cannot fill a buffer of f32 with values of f64");
  EXPECT_EQ(buffer.fill(zeros(ElementType::F32, {3, 2})),
            "cannot fill a buffer of shape 2x3 with values of shape 3x2");
  Array shortData = zeros(ElementType::F32, {2, 3});
  shortData.data.resize(20);
  EXPECT_EQ(buffer.fill(shortData),
            "values hold 20 bytes but shape 2x3 needs 24");
}

TEST(StridedBuffer, CreateErrors) {
  EXPECT_EQ(createError(ElementType::F32, {4, 2, 3}, {6, 1}),
            "layout 4x2x3 with strides [6, 1]: 2 strides for a shape of rank "
            "3");
  EXPECT_EQ(
      createError(ElementType::F32, {2, -3}, {3, 1}),
      "layout 2x-3 with strides [3, 1]: dimension 1 has negative size -3");
  std::string span = "the positions it addresses span more than 2^63 bytes";
  // One stride times its extent overflows.
  EXPECT_NE(createError(ElementType::F32, {3}, {kMax / 2 + 1}).find(span),
            std::string::npos);
  EXPECT_NE(createError(ElementType::F32, {2, 2},
                        {std::numeric_limits<int64_t>::min(), 1})
                .find(span),
            std::string::npos);
  // Each dim fits, their sum does not; likewise in opposite directions.
  int64_t quarter = int64_t(1) << 62;
  EXPECT_NE(createError(ElementType::I1, {2, 2}, {quarter, quarter}).find(span),
            std::string::npos);
  EXPECT_NE(
      createError(ElementType::I1, {2, 2}, {quarter, -quarter}).find(span),
      std::string::npos);
  // The elements fit, their bytes do not.
  EXPECT_NE(createError(ElementType::F64, {2}, {quarter / 2}).find(span),
            std::string::npos);
  // Broadcast makes the span tiny, but gather() would need 2^80 elements.
  EXPECT_EQ(createError(ElementType::F32, {int64_t(1) << 40, int64_t(1) << 40},
                        {0, 0}),
            "layout 1099511627776x1099511627776 with strides [0, 0]: too many "
            "elements (the size in bytes overflows 64 bits)");
}

TEST(StridedBuffer, AllocationFailureIsAnError) {
  // 2^62 bytes: no overflow, but no machine has that much memory.
  std::string error =
      createError(ElementType::F32, {2}, {(int64_t(1) << 60) - 1});
  EXPECT_NE(error.find("cannot allocate"), std::string::npos) << error;
}

TEST(StridedBuffer, CreateFilledAndMove) {
  Array values = randomArray(ElementType::F64, {3, 2}, 11);
  auto created = StridedBuffer::createFilled(values, {1, -3});
  ASSERT_TRUE(std::holds_alternative<StridedBuffer>(created));
  StridedBuffer buffer = std::move(std::get<StridedBuffer>(created));
  EXPECT_EQ(buffer.offset(), 3);
  EXPECT_EQ(buffer.origin(),
            static_cast<uint8_t *>(buffer.aligned()) + 3 * sizeof(double));
  void *storage = buffer.allocated();
  StridedBuffer moved = std::move(buffer);
  EXPECT_EQ(moved.allocated(), storage);
  EXPECT_TRUE(identical(moved.gather(), values));

  auto bad = StridedBuffer::createFilled(zeros(ElementType::F32, {2}), {1, 1});
  ASSERT_TRUE(std::holds_alternative<std::string>(bad));
  EXPECT_EQ(std::get<std::string>(bad),
            "layout 2 with strides [1, 1]: 2 strides for a shape of rank 1");
}
