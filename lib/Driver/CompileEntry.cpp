//===- CompileEntry.cpp - Entry selection and lowering to LLVM ------------===//

#include "stride/Driver/CompileEntry.h"
#include "stride/Dialect/Stride/Transforms/Passes.h"
#include "stride/Support/GuardedParse.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/TargetSelect.h"

using namespace mlir;
using namespace mlir::stride;

func::FuncOp mlir::stride::selectEntry(ModuleOp module, StringRef wanted,
                                       StringRef fileName, std::string &error) {
  SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
  func::FuncOp entry;
  std::string name = wanted.str();
  if (name.empty() && module.lookupSymbol<func::FuncOp>("main"))
    name = "main";
  if (name.empty() && funcs.size() == 1)
    entry = funcs.front();
  else
    entry = module.lookupSymbol<func::FuncOp>(name);
  if (entry && !entry.isExternal())
    return entry;
  std::string names;
  for (func::FuncOp f : funcs)
    names += (names.empty() ? "@" : ", @") + f.getName().str();
  if (name.empty() && funcs.empty())
    error = "'" + fileName.str() + "' has no functions";
  else if (name.empty())
    error = "'" + fileName.str() + "' has several functions (" + names +
            "); choose one with --entry";
  else
    error = "no function @" + name + " with a body in '" + fileName.str() +
            "' (functions: " + (names.empty() ? "none" : names) + ")";
  return nullptr;
}

/// `isUnsigned`: stride-bufferize made the argument's unsigned integers
/// signless (the `stride.unsigned` argument attribute); the host's arrays
/// keep their dtype.
static KernelParam paramFor(Type type, bool isUnsigned) {
  KernelParam param;
  auto memref = dyn_cast<MemRefType>(type);
  Type element = memref ? memref.getElementType() : type;
  if (isUnsigned)
    element =
        IntegerType::get(type.getContext(), element.getIntOrFloatBitWidth(),
                         IntegerType::Unsigned);
  param.element = elementTypeOf(element);
  llvm::raw_string_ostream(param.typeName) << element;
  if (!memref)
    return param;
  param.isBuffer = true;
  param.shape.assign(memref.getShape().begin(), memref.getShape().end());
  auto [strides, offset] = memref.getStridesAndOffset();
  param.strides.assign(strides.begin(), strides.end());
  return param;
}

std::optional<LoweredEntry>
mlir::stride::lowerEntryToLLVM(ModuleOp module, StringRef entry,
                               const StridePipelineOptions &options,
                               bool emitCInterface, std::string &error) {
  // Only the entry is called from outside: other functions become private,
  // so that the passes may refine their signatures and the entry alone takes
  // its outputs as arguments; what the entry does not call is dropped.
  for (func::FuncOp func : module.getOps<func::FuncOp>())
    if (func.getName() != entry && !func.isExternal())
      func.setPrivate();

  PassManager toLinalg(module.getContext());
  toLinalg.addPass(createSymbolDCEPass());
  buildStrideToLinalgPipeline(toLinalg, options);
  if (failed(toLinalg.run(module))) {
    error = "lowering to linalg failed";
    return std::nullopt;
  }
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func) {
    error = "the entry function disappeared during lowering";
    return std::nullopt;
  }
  int64_t numOutputs = 0;
  if (auto attr = func->getAttrOfType<IntegerAttr>("stride.num_outputs"))
    numOutputs = attr.getInt();
  if (func.getNumResults() != 0) {
    for (auto [i, type] : llvm::enumerate(func.getResultTypes()))
      if (isa<UnrankedMemRefType, UnrankedTensorType>(type)) {
        error = "result #" + std::to_string(i) +
                " of the entry has no one shape: the paths that return it "
                "(scf.if branches, cf blocks) give it different shapes or "
                "ranks, so its output buffer cannot be allocated before the "
                "call";
        return std::nullopt;
      }
    error = "the entry function returns non-tensor values; only tensor "
            "results can be handed back (as output buffers)";
    return std::nullopt;
  }
  LoweredEntry lowered;
  TypeRange argTypes = func.getArgumentTypes();
  size_t numInputs = argTypes.size() - numOutputs;
  for (auto [i, type] : llvm::enumerate(argTypes))
    (i < numInputs ? lowered.inputs : lowered.outputs)
        .push_back(paramFor(type, bool(func.getArgAttr(i, "stride.unsigned"))));
  if (emitCInterface)
    func->setAttr("llvm.emit_c_interface", UnitAttr::get(func.getContext()));

  PassManager toLLVM(module.getContext());
  buildStrideLoweringPipeline(toLLVM, options);
  if (failed(toLLVM.run(module))) {
    error = "lowering to LLVM failed";
    return std::nullopt;
  }
  return lowered;
}

std::unique_ptr<llvm::TargetMachine>
mlir::stride::createHostTargetMachine(bool positionIndependent,
                                      std::string &error) {
  static bool targetsReady = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)targetsReady;
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder) {
    error =
        "cannot describe the host CPU: " + llvm::toString(builder.takeError());
    return nullptr;
  }
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  if (positionIndependent)
    builder->setRelocationModel(llvm::Reloc::PIC_);
  auto targetMachine = builder->createTargetMachine();
  if (!targetMachine) {
    error = "cannot create a target machine for the host CPU: " +
            llvm::toString(targetMachine.takeError());
    return nullptr;
  }
  return std::move(*targetMachine);
}

OwningOpRef<ModuleOp> mlir::stride::parseProgramFile(StringRef path,
                                                     llvm::SourceMgr &sourceMgr,
                                                     MLIRContext &context,
                                                     std::string &error) {
  auto file = openInputFile(path, &error);
  if (!file)
    return nullptr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseStrideSource(sourceMgr, context);
  if (!module)
    error = "cannot parse '" + path.str() + "'";
  return module;
}

LogicalResult mlir::stride::inferLayouts(ModuleOp module,
                                         ::stride::layout::Policy policy) {
  PassManager pm(module.getContext());
  pm.addPass(createStrideInferShapes());
  pm.addPass(
      createStridePropagateLayout(StridePropagateLayoutOptions{policy, false}));
  return pm.run(module);
}
