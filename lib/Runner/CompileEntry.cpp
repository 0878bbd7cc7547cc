//===- CompileEntry.cpp - Entry selection and lowering to LLVM ------------===//

#include "stride/Runner/CompileEntry.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/TargetSelect.h"

using namespace mlir;
using namespace mlir::stride;

ElementKind mlir::stride::elementKindOf(Type type) {
  if (type.isF32())
    return ElementKind::F32;
  if (type.isF64())
    return ElementKind::F64;
  if (type.isInteger(32))
    return ElementKind::I32;
  if (type.isInteger(64))
    return ElementKind::I64;
  if (type.isInteger(1))
    return ElementKind::I1;
  return ElementKind::Unsupported;
}

const char *mlir::stride::elementKindName(ElementKind kind) {
  switch (kind) {
  case ElementKind::F32: return "f32";
  case ElementKind::F64: return "f64";
  case ElementKind::I32: return "i32";
  case ElementKind::I64: return "i64";
  case ElementKind::I1: return "i1";
  case ElementKind::Unsupported: break;
  }
  return "unsupported";
}

size_t mlir::stride::elementSizeOf(ElementKind kind) {
  switch (kind) {
  case ElementKind::F32:
  case ElementKind::I32:
    return 4;
  case ElementKind::F64:
  case ElementKind::I64:
    return 8;
  case ElementKind::I1:
    return 1;
  case ElementKind::Unsupported:
    break;
  }
  return 0;
}

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

static KernelParam paramFor(Type type) {
  KernelParam param;
  auto memref = dyn_cast<MemRefType>(type);
  Type element = memref ? memref.getElementType() : type;
  param.element = elementKindOf(element);
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
                               const CpuPipelineOptions &options,
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
    error = "the entry function returns non-tensor values; only tensor "
            "results can be handed back (as output buffers)";
    return std::nullopt;
  }
  LoweredEntry lowered;
  TypeRange argTypes = func.getArgumentTypes();
  size_t numInputs = argTypes.size() - numOutputs;
  for (auto [i, type] : llvm::enumerate(argTypes))
    (i < numInputs ? lowered.inputs : lowered.outputs)
        .push_back(paramFor(type));
  if (emitCInterface)
    func->setAttr("llvm.emit_c_interface", UnitAttr::get(func.getContext()));

  PassManager toLLVM(module.getContext());
  buildLinalgToLLVMPipeline(toLLVM, options);
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
    error = "cannot describe the host CPU: " +
            llvm::toString(builder.takeError());
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
