//===- DistributionPlan.cpp - What every rank of a run holds --------------===//

#include "stride/Driver/DistributionPlan.h"

#include "stride/Dialect/Stride/IR/StrideAttrs.h"
#include "stride/Dialect/Stride/Transforms/Passes.h"
#include "stride/Driver/JitKernel.h"
#include "stride/Runtime/StridedBuffer.h"
#include "stride/Support/MLIRElementType.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::stride;
namespace rt = ::stride::runtime;

namespace {
std::string typeName(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// stride-distribute's record: per grid axis, the dim it splits (-1: none).
std::vector<int64_t> splitOf(DictionaryAttr attrs, size_t gridDims) {
  if (auto a = attrs ? attrs.getAs<DenseI64ArrayAttr>("stride.split_dims")
                     : DenseI64ArrayAttr())
    return std::vector<int64_t>(a.asArrayRef().begin(), a.asArrayRef().end());
  return std::vector<int64_t>(gridDims, -1);
}
} // namespace

std::string
mlir::stride::specializeToDeclared(ModuleOp module, func::FuncOp entry,
                                   OwningOpRef<ModuleOp> &specialized) {
  std::string entryText = "@" + entry.getName().str();
  specialized = module.clone();
  auto specializedEntry =
      specialized->lookupSymbol<func::FuncOp>(entry.getName());
  std::vector<std::optional<ArgLayout>> layouts;
  for (Type type : entry.getArgumentTypes()) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor) {
      layouts.push_back(std::nullopt);
      continue;
    }
    if (!tensor.hasStaticShape())
      return "--distribute needs static argument shapes; " + entryText +
             " has " + typeName(type);
    std::vector<int64_t> shape(tensor.getShape().begin(),
                               tensor.getShape().end());
    std::vector<int64_t> strides = rt::rowMajorStrides(shape);
    if (LayoutAttr layout = getLayout(tensor)) {
      SmallVector<int64_t> given = layout.getStridesFor(tensor.getShape());
      if (llvm::none_of(given, ShapedType::isDynamic))
        strides.assign(given.begin(), given.end());
    }
    layouts.push_back(ArgLayout{shape, strides});
  }
  std::string error;
  if (failed(specializeEntry(specializedEntry, layouts, error)))
    return error.empty() ? "cannot specialize " + entryText : error;
  return "";
}

std::string mlir::stride::planDistribution(
    MLIRContext &context, ModuleOp specialized, StringRef entryName,
    StringRef grid, StringRef strategy, ::stride::layout::Policy policy,
    bool showRemark, DistributionPlan &plan) {
  OwningOpRef<ModuleOp> probe = specialized.clone();
  std::string diagnostics;
  ScopedDiagnosticHandler capture(&context, [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Remark) {
      if (showRemark)
        llvm::errs() << ("stride-run: " + d.str() + "\n");
      return success();
    }
    llvm::raw_string_ostream os(diagnostics);
    os << d.getLocation() << ": " << d << "\n";
    return success();
  });
  if (failed(inferLayouts(*probe, policy)))
    return "cannot compile @" + entryName.str() + ":\n" + diagnostics;
  auto fn = probe->lookupSymbol<func::FuncOp>(entryName);
  for (Type t : fn.getResultTypes()) {
    auto ranked = dyn_cast<RankedTensorType>(t);
    if (!ranked || !ranked.hasStaticShape())
      return "--distribute needs results of static shape";
    std::optional<ElementType> dtype = elementTypeOf(ranked.getElementType());
    if (!dtype)
      return "a result has element type " + typeName(ranked.getElementType()) +
             ", which the runtime does not support";
    rt::DistributedParam out;
    out.isTensor = true;
    out.dtype = *dtype;
    out.shape.assign(ranked.getShape().begin(), ranked.getShape().end());
    SmallVector<int64_t> strides = getStridesOf(ranked);
    out.strides.assign(strides.begin(), strides.end());
    plan.outputs.push_back(out);
  }
  for (Type t : fn.getArgumentTypes()) {
    rt::DistributedParam in;
    auto ranked = dyn_cast<RankedTensorType>(t);
    in.isTensor = bool(ranked);
    std::optional<ElementType> dtype =
        elementTypeOf(ranked ? ranked.getElementType() : t);
    if (!dtype)
      return "an argument has type " + typeName(t) +
             ", which the runtime does not support";
    in.dtype = *dtype;
    if (ranked) {
      in.shape.assign(ranked.getShape().begin(), ranked.getShape().end());
      SmallVector<int64_t> strides = getStridesOf(ranked);
      in.strides.assign(strides.begin(), strides.end());
    }
    plan.inputs.push_back(in);
  }
  PassManager distribute(&context);
  distribute.addPass(createStrideGeneralize());
  distribute.addPass(createStrideDistribute(
      StrideDistributeOptions{grid.str(), strategy.str()}));
  if (failed(distribute.run(*probe)))
    return "cannot distribute @" + entryName.str() + ":\n" + diagnostics;
  fn = probe->lookupSymbol<func::FuncOp>(entryName);
  size_t gridDims = 1;
  if (auto shape = fn->getAttrOfType<DenseI64ArrayAttr>("stride.grid"))
    gridDims = shape.size();
  for (unsigned i = 0; i < fn.getNumArguments(); ++i)
    plan.inputs[i].split = splitOf(fn.getArgAttrDict(i), gridDims);
  for (unsigned j = 0; j < fn.getNumResults(); ++j)
    plan.outputs[j].split = splitOf(fn.getResultAttrDict(j), gridDims);
  return "";
}
