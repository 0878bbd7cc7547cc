//===- SignlessIntegers.cpp - Unsigned element types to signless bits -----===//
//
// Stride's tensors hold NumPy's unsigned integers as ui8 ... ui64, but arith,
// linalg and the LLVM lowering compute on signless integers only. By the
// time a module bufferizes, every unsigned meaning has been spelled out: the
// scalar bodies chose unsigned ops and cast their operands to signless bits
// (stride-generalize), and the reductions, whose kernels are built during
// bufferization, carry kUnsignedAttr. What remains is a change of types
// with the same bits.
//
//===----------------------------------------------------------------------===//

#include "Preparation.h"

#include "stride/Dialect/Stride/IR/ReduceOps.h"
#include "stride/Dialect/Stride/IR/StrideOps.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::stride;

namespace {
/// The element type a reduction combines: its input's, or for
/// stride.map_reduce the mapped tensor's.
Type reducedElementType(Operation *op) {
  if (auto mapReduce = dyn_cast<MapReduceOp>(op))
    return cast<RankedTensorType>(mapReduce.getMapped()).getElementType();
  if (isReduction(op))
    return getElementTypeOrSelf(op->getOperand(0).getType());
  return {};
}
} // namespace

void mlir::stride::makeIntegersSignless(ModuleOp module) {
  Builder builder(module.getContext());
  // What the host passes keeps its dtype: the drivers read the element
  // types of a lowered entry's arguments, outputs included, from here.
  for (func::FuncOp func : module.getOps<func::FuncOp>())
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
      if (getElementTypeOrSelf(type).isUnsignedInteger())
        func.setArgAttr(i, kUnsignedAttr, builder.getUnitAttr());
  module.walk([&](Operation *op) {
    if (Type element = reducedElementType(op);
        element && element.isUnsignedInteger())
      op->setAttr(kUnsignedAttr, builder.getUnitAttr());
  });
  AttrTypeReplacer replacer;
  replacer.addReplacement([](IntegerType type) -> std::optional<Type> {
    if (!type.isUnsigned())
      return std::nullopt;
    return IntegerType::get(type.getContext(), type.getWidth());
  });
  replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
  // The bodies' casts between unsigned and signless are identities now.
  module.walk([](UnrealizedConversionCastOp cast) {
    if (cast->getNumOperands() == 1 && cast->getNumResults() == 1 &&
        cast.getOperand(0).getType() == cast.getResult(0).getType()) {
      cast.getResult(0).replaceAllUsesWith(cast.getOperand(0));
      cast.erase();
    }
  });
}
