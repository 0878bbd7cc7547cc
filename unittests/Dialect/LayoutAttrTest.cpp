//===- LayoutAttrTest.cpp - #stride.layout C++ API ------------------------===//

#include "stride/Dialect/Stride/IR/StrideAttrs.h"
#include "stride/Dialect/Stride/IR/StrideDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::stride;

namespace {
class LayoutAttrTest : public ::testing::Test {
protected:
  LayoutAttrTest() { context.loadDialect<StrideDialect>(); }

  LayoutAttr strides(ArrayRef<int64_t> s) {
    return LayoutAttr::get(&context, s);
  }
  LayoutAttr perm(ArrayRef<int64_t> p) {
    return LayoutAttr::getWithPerm(&context, p);
  }

  MLIRContext context;
};

TEST_F(LayoutAttrTest, PermGivesDenseStrides) {
  // The seed's permute(2, 0, 1) of a (2, 3, 4) tensor: dims 1, 2, 0 outer to
  // inner give strides (1, 12, 4) for sizes (4, 2, 3).
  EXPECT_EQ(perm({1, 2, 0}).getStridesFor({4, 2, 3}),
            (SmallVector<int64_t>{1, 12, 4}));
  EXPECT_EQ(perm({0, 1, 2}).getStridesFor({2, 3, 4}),
            (SmallVector<int64_t>{12, 4, 1}));
}

TEST_F(LayoutAttrTest, PermStridesTreatZeroAndOneAsOne) {
  // Like torch.empty_strided: size 0 and 1 dims still advance by one.
  EXPECT_EQ(perm({0, 1, 2}).getStridesFor({2, 0, 3}),
            (SmallVector<int64_t>{3, 3, 1}));
  EXPECT_EQ(perm({0, 2, 3, 1}).getStridesFor({2, 3, 1, 1}),
            (SmallVector<int64_t>{3, 1, 3, 3}));
}

TEST_F(LayoutAttrTest, PermStridesWithDynamicSizes) {
  int64_t dyn = ShapedType::kDynamic;
  EXPECT_EQ(perm({1, 0}).getStridesFor({dyn, 5}),
            (SmallVector<int64_t>{1, dyn}));
}

TEST_F(LayoutAttrTest, ExplicitStridesAreReturnedAsGiven) {
  EXPECT_EQ(strides({2, 24, 8}).getStridesFor({4, 2, 3}),
            (SmallVector<int64_t>{2, 24, 8}));
  EXPECT_FALSE(strides({2, 24, 8}).isPermForm());
  EXPECT_TRUE(perm({0}).isPermForm());
}

TEST_F(LayoutAttrTest, DimOrder) {
  EXPECT_EQ(strides({1, 12, 4}).getDimOrder({4, 2, 3}),
            (SmallVector<int64_t>{1, 2, 0}));
  // Negative strides order by magnitude; ties keep row-major order.
  EXPECT_EQ(strides({-1, 3, 3}).getDimOrder({3, 1, 1}),
            (SmallVector<int64_t>{1, 2, 0}));
  EXPECT_EQ(perm({2, 0, 1}).getDimOrder({}), (SmallVector<int64_t>{2, 0, 1}));
}

TEST_F(LayoutAttrTest, RowMajorDetection) {
  EXPECT_TRUE(strides({12, 4, 1}).isRowMajorFor({2, 3, 4}));
  EXPECT_FALSE(strides({1, 12, 4}).isRowMajorFor({4, 2, 3}));
  EXPECT_TRUE(perm({0, 1}).isRowMajorFor({3, 3}));
  EXPECT_FALSE(perm({1, 0}).isRowMajorFor({3, 3}));
}

TEST_F(LayoutAttrTest, WithLayoutDropsRowMajor) {
  auto f32 = Float32Type::get(&context);
  auto type = RankedTensorType::get({2, 3}, f32);
  EXPECT_FALSE(withLayout(type, strides({3, 1})).getEncoding());
  EXPECT_EQ(withLayout(type, strides({1, 2})).getEncoding(), strides({1, 2}));
  EXPECT_EQ(getStridesOf(type), (SmallVector<int64_t>{3, 1}));
}

TEST_F(LayoutAttrTest, ParsePrintRoundTrip) {
  for (StringRef text : {"#stride.layout<strides = [1, ?, -4, 0]>",
                         "#stride.layout<perm = [1, 2, 0]>"}) {
    Attribute attr = parseAttribute(text, &context);
    ASSERT_TRUE(attr) << text.str();
    std::string printed;
    llvm::raw_string_ostream os(printed);
    attr.print(os);
    EXPECT_EQ(printed, text.str());
  }
}

TEST_F(LayoutAttrTest, RejectsBadPermAndRank) {
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    diagnostics += d.str() + "\n";
    return success();
  });
  EXPECT_FALSE(parseAttribute("#stride.layout<perm = [0, 0]>", &context));
  EXPECT_NE(diagnostics.find("not a permutation"), std::string::npos);
  auto f32 = Float32Type::get(&context);
  auto verify = perm({1, 0}).verifyEncoding(
      {4}, f32, [&] { return emitError(UnknownLoc::get(&context)); });
  EXPECT_TRUE(failed(verify));
  EXPECT_NE(diagnostics.find("has rank 2 but the tensor has rank 1"),
            std::string::npos);
  // The parser takes one form; the C++ builder can be handed both.
  EXPECT_FALSE(LayoutAttr::getChecked(
      [&] { return emitError(UnknownLoc::get(&context)); }, &context,
      ArrayRef<int64_t>{1}, ArrayRef<int64_t>{0}));
  EXPECT_NE(diagnostics.find("layout has both 'strides' and 'perm'"),
            std::string::npos);
}
} // namespace
