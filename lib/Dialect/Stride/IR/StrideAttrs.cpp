//===- StrideAttrs.cpp - Stride attributes --------------------------------===//

#include "stride/Dialect/Stride/IR/StrideAttrs.h"
#include "stride/Dialect/Stride/IR/StrideDialect.h"
#include "stride/Layout/Strides.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <numeric>

using namespace mlir;
using namespace mlir::stride;

#include "stride/Dialect/Stride/IR/StrideEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "stride/Dialect/Stride/IR/StrideAttrs.cpp.inc"

void StrideDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "stride/Dialect/Stride/IR/StrideAttrs.cpp.inc"
      >();
}

static bool isPermutationOf(ArrayRef<int64_t> perm, size_t rank) {
  return ::stride::layout::isPermutation(
      std::vector<int64_t>(perm.begin(), perm.end()), rank);
}

/// Dense strides for `sizes` with dims in `order` (outermost first); a
/// size-0 or size-1 dim advances the running stride by 1, as
/// torch.empty_strided's dense strides do.
static SmallVector<int64_t> denseStrides(ArrayRef<int64_t> sizes,
                                         ArrayRef<int64_t> order) {
  SmallVector<int64_t> strides(sizes.size(), ShapedType::kDynamic);
  int64_t running = 1;
  for (int64_t d : llvm::reverse(order)) {
    strides[d] = running;
    if (ShapedType::isDynamic(running) || ShapedType::isDynamic(sizes[d]))
      running = ShapedType::kDynamic;
    else
      running *= std::max<int64_t>(sizes[d], 1);
  }
  return strides;
}

LayoutAttr LayoutAttr::getWithPerm(MLIRContext *context,
                                   ArrayRef<int64_t> perm) {
  return get(context, ArrayRef<int64_t>(), perm);
}

LogicalResult LayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> strides,
                                 ArrayRef<int64_t> perm, int64_t offset) {
  (void)offset;
  if (!strides.empty() && !perm.empty())
    return emitError() << "layout has both 'strides' and 'perm'; give one";
  if (!isPermutationOf(perm, perm.size()))
    return emitError() << "layout 'perm = [" << perm
                       << "]' is not a permutation of 0.."
                       << static_cast<int64_t>(perm.size()) - 1;
  return success();
}

LogicalResult
LayoutAttr::verifyEncoding(ArrayRef<int64_t> shape, Type elementType,
                           function_ref<InFlightDiagnostic()> emitError) const {
  if (getRank() != shape.size())
    return emitError() << "layout " << *this << " has rank " << getRank()
                       << " but the tensor has rank " << shape.size();
  return success();
}

// Parses `<strides = [1, ?, -2]>` or `<perm = [1, 0]>`.
Attribute LayoutAttr::parse(AsmParser &parser, Type) {
  StringRef key;
  if (parser.parseLess() || parser.parseKeyword(&key) || parser.parseEqual())
    return {};
  if (key != "strides" && key != "perm") {
    parser.emitError(parser.getCurrentLocation(),
                     "expected 'strides' or 'perm' in #stride.layout, got '")
        << key << "'";
    return {};
  }
  SmallVector<int64_t> values;
  auto parseElement = [&]() -> ParseResult {
    if (key == "strides" && succeeded(parser.parseOptionalQuestion())) {
      values.push_back(ShapedType::kDynamic);
      return success();
    }
    int64_t v;
    if (parser.parseInteger(v))
      return failure();
    values.push_back(v);
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     parseElement))
    return {};
  int64_t offset = 0;
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("offset") || parser.parseEqual())
      return {};
    if (succeeded(parser.parseOptionalQuestion()))
      offset = ShapedType::kDynamic;
    else if (parser.parseInteger(offset))
      return {};
  }
  if (parser.parseGreater())
    return {};
  auto emitError = [&] { return parser.emitError(parser.getNameLoc()); };
  if (key == "perm")
    return getChecked(emitError, parser.getContext(), ArrayRef<int64_t>(),
                      values, offset);
  return getChecked(emitError, parser.getContext(), values,
                    ArrayRef<int64_t>(), offset);
}

void LayoutAttr::print(AsmPrinter &printer) const {
  if (!getPerm().empty()) {
    printer << "<perm = [" << getPerm() << "]";
  } else {
    printer << "<strides = [";
    llvm::interleaveComma(getStrides(), printer, [&](int64_t s) {
      if (ShapedType::isDynamic(s))
        printer << "?";
      else
        printer << s;
    });
    printer << "]";
  }
  if (getOffset() != 0) {
    printer << ", offset = ";
    if (ShapedType::isDynamic(getOffset()))
      printer << "?";
    else
      printer << getOffset();
  }
  printer << ">";
}

SmallVector<int64_t> LayoutAttr::getStridesFor(ArrayRef<int64_t> sizes) const {
  if (!getStrides().empty() || sizes.empty())
    return llvm::to_vector(getStrides());
  return denseStrides(sizes, getPerm());
}

SmallVector<int64_t> LayoutAttr::getDimOrder(ArrayRef<int64_t> sizes) const {
  if (!getPerm().empty())
    return llvm::to_vector(getPerm());
  SmallVector<int64_t> order(getStrides().size());
  std::iota(order.begin(), order.end(), 0);
  ArrayRef<int64_t> strides = getStrides();
  if (llvm::any_of(strides, ShapedType::isDynamic))
    return order;
  llvm::stable_sort(order, [&](int64_t a, int64_t b) {
    return std::abs(strides[a]) > std::abs(strides[b]);
  });
  return order;
}

bool LayoutAttr::isRowMajorFor(ArrayRef<int64_t> sizes) const {
  if (isPermForm())
    return llvm::equal(getPerm(), llvm::seq<int64_t>(0, getPerm().size()));
  return getStrides() ==
         ArrayRef(denseStrides(sizes, llvm::to_vector(llvm::seq<int64_t>(
                                          0, sizes.size()))));
}

LayoutAttr mlir::stride::getLayout(Type type) {
  if (auto ranked = dyn_cast<RankedTensorType>(type))
    return dyn_cast_or_null<LayoutAttr>(ranked.getEncoding());
  return {};
}

SmallVector<int64_t> mlir::stride::getStridesOf(RankedTensorType type) {
  if (LayoutAttr layout = getLayout(type))
    return layout.getStridesFor(type.getShape());
  return denseStrides(type.getShape(),
                      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank())));
}

RankedTensorType mlir::stride::withLayout(RankedTensorType type,
                                          LayoutAttr layout) {
  if (!layout ||
      (layout.getOffset() == 0 && layout.isRowMajorFor(type.getShape())))
    return RankedTensorType::get(type.getShape(), type.getElementType());
  return RankedTensorType::get(type.getShape(), type.getElementType(), layout);
}
