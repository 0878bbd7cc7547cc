//===- ElementType.h - The element types Stride supports --------*- C++ -*-===//
//
// The one table of element types. Everything that names, sizes, reads,
// writes, prints or converts an element is derived from a row here: the
// compiler's kernel parameters, the runtime's arrays and .npy files, the
// generated C headers, the C API's enum (checked against this table), the
// Python extension and, through `_stride.element_types()`, the Python
// package's dtype maps. Adding an element type is adding one row (and a test
// that uses it).
//
// Plain C++17 with no LLVM/MLIR dependency: the runtime libraries and
// stride-exec include it. The MLIR half (element type <-> mlir::Type) is
// stride/Support/MLIRElementType.h.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_SUPPORT_ELEMENTTYPE_H
#define STRIDE_SUPPORT_ELEMENTTYPE_H

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

/// X(Enum, id, CType, npyDescr, numpyName, Class, BuilderGetter), one row per
/// element type, in the order of the enum (and of the C API's
/// StrideElementKind, which is ABI):
///  - Enum: the ElementType enumerator.
///  - id: the MLIR spelling ("f32", stringized) and the name of the
///    ScalarValue member (and of the C API's StrideScalar member).
///  - CType: the C and C++ type of one element; its sizeof is the element's
///    size and its spelling the type in generated C headers.
///  - npyDescr: NumPy's little-endian `dtype.str`, the .npy header's 'descr'.
///  - numpyName: NumPy's dtype name (`np.dtype(name)`).
///  - Class: ElementClass: Float, Integer (signed, two's complement),
///    Unsigned or Bool (one byte holding 0 or 1).
///  - BuilderGetter: the mlir::Builder method that makes the MLIR type; only
///    a token here, used by MLIRElementType.cpp.
#define STRIDE_ELEMENT_TYPES(X)                                                \
  X(F32, f32, float, "<f4", "float32", Float, getF32Type)                      \
  X(F64, f64, double, "<f8", "float64", Float, getF64Type)                     \
  X(I32, i32, int32_t, "<i4", "int32", Integer, getI32Type)                    \
  X(I64, i64, int64_t, "<i8", "int64", Integer, getI64Type)                    \
  X(I1, i1, bool, "|b1", "bool", Bool, getI1Type)                              \
  X(I8, i8, int8_t, "|i1", "int8", Integer, getI8Type)                         \
  X(I16, i16, int16_t, "<i2", "int16", Integer, getI16Type)                    \
  X(U8, ui8, uint8_t, "|u1", "uint8", Unsigned, getUI8Type)                    \
  X(U16, ui16, uint16_t, "<u2", "uint16", Unsigned, getUI16Type)               \
  X(U32, ui32, uint32_t, "<u4", "uint32", Unsigned, getUI32Type)               \
  X(U64, ui64, uint64_t, "<u8", "uint64", Unsigned, getUI64Type)

namespace stride {

enum class ElementType : uint8_t {
#define STRIDE_ELEMENT_ENUM(E, id, T, descr, numpy, cls, getter) E,
  STRIDE_ELEMENT_TYPES(STRIDE_ELEMENT_ENUM)
#undef STRIDE_ELEMENT_ENUM
};

/// What kind of values an element type holds; decides how elements are
/// compared, drawn at random and printed.
enum class ElementClass : uint8_t { Float, Integer, Unsigned, Bool };

struct ElementTypeInfo {
  ElementType type;
  const char *name;      // MLIR spelling: "f32"
  const char *cType;     // "float", "int32_t", "bool"
  size_t size;           // bytes per element
  const char *npyDescr;  // "<f4", "|b1"
  const char *numpyName; // "float32", "bool"
  ElementClass cls;
};

inline constexpr ElementTypeInfo kElementTypes[] = {
#define STRIDE_ELEMENT_INFO(E, id, T, descr, numpy, cls, getter)               \
  {ElementType::E, #id, #T, sizeof(T), descr, numpy, ElementClass::cls},
    STRIDE_ELEMENT_TYPES(STRIDE_ELEMENT_INFO)
#undef STRIDE_ELEMENT_INFO
};
inline constexpr size_t kNumElementTypes = std::size(kElementTypes);

// Arrays, .npy files and kernels hold a bool as one byte, 0 or 1.
static_assert(sizeof(bool) == 1, "the bool row needs a one-byte bool");

/// Every element type in table order, for loops over them.
inline constexpr ElementType kAllElementTypes[] = {
#define STRIDE_ELEMENT_VALUE(E, id, T, descr, numpy, cls, getter)              \
  ElementType::E,
    STRIDE_ELEMENT_TYPES(STRIDE_ELEMENT_VALUE)
#undef STRIDE_ELEMENT_VALUE
};

constexpr const ElementTypeInfo &elementTypeInfo(ElementType type) {
  return kElementTypes[static_cast<size_t>(type)];
}
/// Bytes per element: 4, 8, 4, 8, 1, 1, 2, 1, 2, 4, 8.
constexpr size_t elementSize(ElementType type) {
  return elementTypeInfo(type).size;
}
/// "f32", "f64", "i32", "i64" or "i1" (the MLIR element type spelling).
constexpr const char *elementTypeName(ElementType type) {
  return elementTypeInfo(type).name;
}
constexpr bool isFloat(ElementType type) {
  return elementTypeInfo(type).cls == ElementClass::Float;
}
constexpr bool isBool(ElementType type) {
  return elementTypeInfo(type).cls == ElementClass::Bool;
}
constexpr bool isUnsigned(ElementType type) {
  return elementTypeInfo(type).cls == ElementClass::Unsigned;
}

/// Inverse of elementTypeName; anything else gives std::nullopt.
constexpr std::optional<ElementType> parseElementType(std::string_view name) {
  for (const ElementTypeInfo &info : kElementTypes)
    if (name == info.name)
      return info.type;
  return std::nullopt;
}

/// The element type of a .npy 'descr' type code without its byte-order
/// character ("f4", "b1"); anything else gives std::nullopt.
constexpr std::optional<ElementType> parseNpyTypeCode(std::string_view code) {
  for (const ElementTypeInfo &info : kElementTypes)
    if (code == std::string_view(info.npyDescr).substr(1))
      return info.type;
  return std::nullopt;
}

/// One text column joined for messages, every row in table order:
/// elementTypeList(&ElementTypeInfo::name) is "f32, f64, i32, i64, i1, i8,
/// i16, ui8, ui16, ui32, ui64"; elementTypeList(&ElementTypeInfo::numpyName,
/// " or ") is "float32, ..., uint32 or uint64".
inline std::string elementTypeList(const char *ElementTypeInfo::*column,
                                   const char *lastSeparator = ", ") {
  std::string list;
  for (size_t i = 0; i < kNumElementTypes; ++i)
    list += std::string(i == 0                      ? ""
                        : i + 1 == kNumElementTypes ? lastSeparator
                                                    : ", ") +
            kElementTypes[i].*column;
  return list;
}

/// One scalar of any element type, read as the type its user declares: the
/// slot a kernel's scalar parameter points to. Every member starts at offset
/// 0, so copying elementSize(type) bytes of an element into it sets the
/// member of that type.
union ScalarValue {
#define STRIDE_ELEMENT_MEMBER(E, id, T, descr, numpy, cls, getter) T id;
  STRIDE_ELEMENT_TYPES(STRIDE_ELEMENT_MEMBER)
#undef STRIDE_ELEMENT_MEMBER
};

template <typename T> struct ElementTag { using type = T; };

/// Calls `fn(ElementTag<CType>{})` with the C++ type of `type`: the one
/// switch over element types, so code that handles each type the same way
/// apart from the C++ type is written once as a generic lambda.
template <typename Fn>
decltype(auto) visitElementType(ElementType type, Fn &&fn) {
  switch (type) {
#define STRIDE_ELEMENT_CASE(E, id, T, descr, numpy, cls, getter)               \
  case ElementType::E:                                                         \
    return fn(ElementTag<T>{});
    STRIDE_ELEMENT_TYPES(STRIDE_ELEMENT_CASE)
#undef STRIDE_ELEMENT_CASE
  }
  std::abort(); // not an enumerator: memory corruption
}

} // namespace stride

#endif // STRIDE_SUPPORT_ELEMENTTYPE_H
