//===- ElementTypeTest.cpp - The element-type table's invariants ----------===//
//
// Every consumer trusts the table's rows to agree with the C++ type, MLIR's
// type and NumPy's descr; these tests check that they do, so that a new row
// with a wrong column fails here rather than as corrupted data at run time.
//
//===----------------------------------------------------------------------===//

#include "stride/Support/ElementType.h"
#include "stride/Support/MLIRElementType.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <set>
#include <string>
#include <type_traits>

using mlir::stride::ElementType;
using ::stride::ElementClass;
using ::stride::ElementTypeInfo;
using ::stride::kElementTypes;
using ::stride::ScalarValue;

namespace {

std::string printed(mlir::Type type) {
  std::string text;
  llvm::raw_string_ostream(text) << type;
  return text;
}

TEST(ElementTypeTable, RowsAreInEnumOrderWithUniqueNames) {
  std::set<std::string> names, descrs, numpyNames;
  for (size_t i = 0; i < ::stride::kNumElementTypes; ++i) {
    const ElementTypeInfo &info = kElementTypes[i];
    EXPECT_EQ(static_cast<size_t>(info.type), i) << info.name;
    EXPECT_EQ(&::stride::elementTypeInfo(info.type), &info) << info.name;
    EXPECT_TRUE(names.insert(info.name).second) << info.name;
    EXPECT_TRUE(descrs.insert(info.npyDescr).second) << info.npyDescr;
    EXPECT_TRUE(numpyNames.insert(info.numpyName).second) << info.numpyName;
  }
}

TEST(ElementTypeTable, SizesAreTheCTypesAndTheNpyDescrs) {
  for (const ElementTypeInfo &info : kElementTypes) {
    size_t cSize = ::stride::visitElementType(info.type, [](auto tag) {
      return sizeof(typename decltype(tag)::type);
    });
    EXPECT_EQ(info.size, cSize) << info.name;
    EXPECT_EQ(::stride::elementSize(info.type), cSize) << info.name;
    // "<f4": byte order, kind letter, bytes. One-byte types have no order.
    std::string descr = info.npyDescr;
    ASSERT_EQ(descr.size(), 3u) << info.name;
    EXPECT_EQ(descr[0], info.size == 1 ? '|' : '<') << info.name;
    EXPECT_EQ(std::string(1, descr[2]), std::to_string(info.size)) << info.name;
    char kind = info.cls == ElementClass::Float      ? 'f'
                : info.cls == ElementClass::Integer  ? 'i'
                : info.cls == ElementClass::Unsigned ? 'u'
                                                     : 'b';
    EXPECT_EQ(descr[1], kind) << info.name;
  }
}

TEST(ElementTypeTable, ClassesMatchTheCTypes) {
  for (const ElementTypeInfo &info : kElementTypes) {
    // Integer rows are signed two's complement, Unsigned rows unsigned.
    std::optional<ElementClass> fromType =
        ::stride::visitElementType(info.type, [](auto tag) {
          using T = typename decltype(tag)::type;
          if constexpr (std::is_same_v<T, bool>)
            return std::optional(ElementClass::Bool);
          else if constexpr (std::is_floating_point_v<T>)
            return std::optional(ElementClass::Float);
          else if constexpr (std::is_signed_v<T>)
            return std::optional(ElementClass::Integer);
          else
            return std::optional(ElementClass::Unsigned);
        });
    EXPECT_EQ(info.cls, fromType) << info.name;
    EXPECT_EQ(::stride::isFloat(info.type), info.cls == ElementClass::Float);
    EXPECT_EQ(::stride::isBool(info.type), info.cls == ElementClass::Bool);
    EXPECT_EQ(::stride::isUnsigned(info.type),
              info.cls == ElementClass::Unsigned);
  }
}

TEST(ElementTypeTable, NamesRoundTrip) {
  for (const ElementTypeInfo &info : kElementTypes) {
    EXPECT_EQ(::stride::parseElementType(info.name), info.type) << info.name;
    EXPECT_STREQ(::stride::elementTypeName(info.type), info.name);
    EXPECT_EQ(::stride::parseNpyTypeCode(std::string(info.npyDescr).substr(1)),
              info.type)
        << info.npyDescr;
  }
  EXPECT_EQ(::stride::parseElementType("f16"), std::nullopt);
  EXPECT_EQ(::stride::parseElementType("F32"), std::nullopt);
  EXPECT_EQ(::stride::parseElementType(""), std::nullopt);
  EXPECT_EQ(::stride::parseNpyTypeCode("<f4"), std::nullopt); // code only
  EXPECT_EQ(::stride::parseNpyTypeCode("f2"), std::nullopt);
  EXPECT_EQ(::stride::parseNpyTypeCode("c8"), std::nullopt);
}

TEST(ElementTypeTable, ListsForMessages) {
  EXPECT_EQ(::stride::elementTypeList(&ElementTypeInfo::name),
            "f32, f64, i32, i64, i1, i8, i16, ui8, ui16, ui32, ui64");
  EXPECT_EQ(::stride::elementTypeList(&ElementTypeInfo::numpyName, " or "),
            "float32, float64, int32, int64, bool, int8, int16, uint8, uint16, "
            "uint32 or uint64");
}

TEST(ElementTypeTable, ScalarValueMembersAreTheRowsTypes) {
  // Copying an element's bytes into a ScalarValue sets the member named by
  // the row, which is what kernels read.
  ScalarValue value{};
  float f = 1.5f;
  std::memcpy(&value, &f, ::stride::elementSize(ElementType::F32));
  EXPECT_EQ(value.f32, 1.5f);
  int64_t big = -(int64_t(1) << 40);
  std::memcpy(&value, &big, ::stride::elementSize(ElementType::I64));
  EXPECT_EQ(value.i64, big);
  bool yes = true;
  std::memcpy(&value, &yes, ::stride::elementSize(ElementType::I1));
  EXPECT_TRUE(value.i1);
  size_t largest = 0;
  for (const ElementTypeInfo &info : kElementTypes)
    largest = std::max(largest, info.size);
  EXPECT_EQ(sizeof(ScalarValue), largest);
}

class MLIRElementTypeTest : public ::testing::Test {
protected:
  mlir::MLIRContext context;
};

TEST_F(MLIRElementTypeTest, EachRowIsTheMLIRTypeItNames) {
  for (const ElementTypeInfo &info : kElementTypes) {
    mlir::Type type = mlir::stride::getMLIRElementType(info.type, &context);
    EXPECT_EQ(printed(type), info.name);
    EXPECT_EQ(type, mlir::parseType(info.name, &context)) << info.name;
    EXPECT_EQ(mlir::stride::elementTypeOf(type), info.type) << info.name;
    // Bits: bool is one bit in one byte; every other type fills its bytes.
    unsigned bits = type.getIntOrFloatBitWidth();
    EXPECT_EQ((bits + 7) / 8, info.size) << info.name;
    EXPECT_EQ(mlir::isa<mlir::FloatType>(type), info.cls == ElementClass::Float)
        << info.name;
    EXPECT_EQ(type.isSignlessInteger(1), info.cls == ElementClass::Bool)
        << info.name;
    EXPECT_EQ(type.isUnsignedInteger(), info.cls == ElementClass::Unsigned)
        << info.name;
  }
}

TEST_F(MLIRElementTypeTest, OtherTypesHaveNoRow) {
  for (const char *text :
       {"f16", "bf16", "f80", "i4", "ui4", "si8", "si32", "ui1", "si64",
        "index", "complex<f32>", "vector<4xf32>", "tensor<4xf32>", "none"}) {
    mlir::Type type = mlir::parseType(text, &context);
    ASSERT_TRUE(type) << text;
    EXPECT_EQ(mlir::stride::elementTypeOf(type), std::nullopt) << text;
  }
}

} // namespace
