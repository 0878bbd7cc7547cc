//===- ViewsTest.cpp - Shapes, strides and offsets of views ---------------===//
//
// Expected values were recorded from PyTorch 1.13 and NumPy 1.24 on
// as_strided inputs (strides in elements); most are cases of
// ../shared/reduce-view-corpus.jsonl.
//
//===----------------------------------------------------------------------===//

#include "stride/Layout/Views.h"

#include <gtest/gtest.h>

using namespace stride::layout;

namespace {

void expectView(const ViewResult &r, const Shape &shape, const Strides &strides,
                int64_t offset = 0, bool isView = true) {
  ASSERT_TRUE(r.ok()) << *r.error;
  EXPECT_EQ(r.view.shape, shape);
  EXPECT_EQ(r.view.strides, strides);
  EXPECT_EQ(r.view.offset, offset);
  EXPECT_EQ(r.view.isView, isView);
}

TEST(Views, Permute) {
  expectView(permuteView({5, 1, 3}, {2, 1, 10}, {2, 0, 1}), {3, 5, 1},
             {10, 2, 1});
  EXPECT_FALSE(permuteView({2, 3}, {3, 1}, {0, 0}).ok());
}

TEST(Views, SliceNumpyNegativeAndEmpty) {
  // numpy-slice-11: an empty dim resets to step 1, a reversed one counts back.
  expectView(sliceView(Policy::Numpy, {4, 3, 2, 3, 2}, {72, 24, 12, 4, 2},
                       {{}, {}, {std::nullopt, std::nullopt, -2},
                        {3, std::nullopt, 2}, {2, std::nullopt, -1}}),
             {4, 3, 1, 0, 2}, {72, 24, -24, 4, -2}, 1 * 12 + 1 * 2);
}

TEST(Views, SliceTorch) {
  // torch-slice-58: the clamped start moves the offset of an empty dim.
  expectView(sliceView(Policy::Torch, {3, 3, 1}, {6, 2, 2},
                       {{}, {3, std::nullopt, 1}, {0, std::nullopt, 1}}),
             {3, 0, 1}, {6, 2, 2}, 6);
  EXPECT_FALSE(sliceView(Policy::Torch, {4}, {1},
                         {{std::nullopt, std::nullopt, -1}})
                   .ok());
  EXPECT_FALSE(sliceView(Policy::Numpy, {4}, {1},
                         {{std::nullopt, std::nullopt, 0}})
                   .ok());
}

TEST(Views, Expand) {
  // torch-expand-78 and numpy-expand-79.
  expectView(expandView(Policy::Torch, {1, 4, 1, 5}, {40, 10, 10, 1},
                        {3, 1, 4, 1, 5}),
             {3, 1, 4, 1, 5}, {0, 40, 10, 10, 1});
  expectView(expandView(Policy::Numpy, {1, 5, 5, 4}, {400, 80, 16, 2},
                        {3, 1, 5, 5, 4}),
             {3, 1, 5, 5, 4}, {0, 0, 80, 16, 2});
  // A 0-d tensor expanded by PyTorch: every dim stride 0.
  expectView(expandView(Policy::Torch, {}, {}, {0, 1}), {0, 1}, {0, 0});
  EXPECT_FALSE(expandView(Policy::Torch, {4, 3}, {3, 1}, {4, 5}).ok());
}

TEST(Views, Unsqueeze) {
  // numpy-unsqueeze-7: expand_dims is a reshape.
  expectView(unsqueezeView(Policy::Numpy, {2, 1, 4, 2}, {8, -2, 2, 16}, 0),
             {1, 2, 1, 4, 2}, {16, 8, 8, 2, 16});
  expectView(unsqueezeView(Policy::Torch, {3, 4}, {8, 2}, 0), {1, 3, 4},
             {24, 8, 2});
  expectView(unsqueezeView(Policy::Torch, {3, 4}, {8, 2}, 2), {3, 4, 1},
             {8, 2, 1});
}

TEST(Views, Flip) {
  expectView(flipView(Policy::Numpy, {2, 3, 5}, {30, 5, 1}, {0}), {2, 3, 5},
             {-30, 5, 1}, 30);
  // torch.flip copies like empty_like: a dense permuted layout is kept.
  expectView(flipView(Policy::Torch, {2, 4, 3}, {1, 6, 2}, {0}), {2, 4, 3},
             {1, 6, 2}, 0, false);
}

TEST(Views, Reshape) {
  // torch-reshape-74: a view; torch-reshape-138: a copy.
  expectView(reshapeView(Policy::Torch, {4, 4, 3, 1, 2}, {48, 12, 4, 4, 2},
                         {96}),
             {96}, {2});
  expectView(reshapeView(Policy::Torch, {5, 1, 5, 2, 1}, {2, 200, 40, 10, 200},
                         {2, 25}),
             {2, 25}, {25, 1}, 0, false);
  // numpy-reshape-91: the no-copy attempt carries the outer stride.
  expectView(reshapeView(Policy::Numpy, {1, 1, 5, 5, 5}, {250, 250, -50, 5, 1},
                         {1, 1, 5, 5, 5, 1}),
             {1, 1, 5, 5, 5, 1}, {-250, -250, -50, 5, 1, 1});
  // numpy-reshape-27: a copy.
  expectView(reshapeView(Policy::Numpy, {5, 5, 4, 2, 5},
                         {400, 40, 10, 5, -1}, {25, 4, 2, 5}),
             {25, 4, 2, 5}, {40, 10, 5, 1}, 0, false);
  // torch-reshape-250: -1 with no elements is ambiguous.
  ViewResult ambiguous = reshapeView(Policy::Torch, {3, 0}, {0, 0}, {-1, 0});
  ASSERT_FALSE(ambiguous.ok());
  EXPECT_NE(ambiguous.error->find("ambiguous"), std::string::npos);
  // Unknown sizes: a copy, row-major.
  expectView(reshapeView(Policy::Torch, {kDynamic, 3}, {3, 1}, {-1}),
             {kDynamic}, {1}, 0, false);
}

} // namespace
