//===- AotCompiler.cpp - Lower entries and export them as C functions -----===//
//
// Each entry is lowered in its own copy of the module by the JIT's code
// (lowerEntryToLLVM, with MLIR's C interface), translated to LLVM IR, and
// everything but its C-interface function made internal; then the entries'
// modules are linked into one. Each exported function gets a packed twin,
// `<symbol>_packed(void **args)`, so that a generic host such as stride-exec
// can call an entry of any signature without a foreign-function library.
//
//===----------------------------------------------------------------------===//

#include "stride/AOT/AotCompiler.h"
#include "stride/Driver/DistributionPlan.h"

#include "stride/Dialect/Stride/IR/StrideOps.h"
#include "stride/Driver/CompileEntry.h"
#include "stride/Pipelines/GpuPipeline.h"
#include "stride/Pipelines/LLVMOptimization.h"
#include "stride/Support/GridShape.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::stride;
namespace rt = ::stride::runtime;

namespace {

bool isCIdentifier(StringRef name) {
  if (name.empty() || !(llvm::isAlpha(name[0]) || name[0] == '_'))
    return false;
  return llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

int64_t metadataValue(int64_t value) {
  return ShapedType::isDynamic(value) ? rt::kAotDynamic : value;
}

/// The metadata of one lowered parameter; fails for types the runtime cannot
/// move (those without a row in the element-type table).
std::optional<rt::AotParam> metadataParam(const KernelParam &param) {
  if (!param.element)
    return std::nullopt;
  rt::AotParam result;
  result.isTensor = param.isBuffer;
  result.dtype = *param.element;
  for (int64_t size : param.shape)
    result.shape.push_back(metadataValue(size));
  for (int64_t stride : param.strides)
    result.strides.push_back(metadataValue(stride));
  return result;
}

/// void <symbol>_packed(void **args): args[k] points to parameter k (a
/// descriptor for a tensor, the value for a scalar).
void addPackedWrapper(llvm::Module &module, llvm::Function &target,
                      StringRef name) {
  llvm::LLVMContext &context = module.getContext();
  auto *ptrType = llvm::PointerType::getUnqual(context);
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context),
                                       {ptrType}, /*isVarArg=*/false);
  auto *packed = llvm::Function::Create(type, llvm::Function::ExternalLinkage,
                                        name, module);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", packed));
  SmallVector<llvm::Value *> args;
  for (auto [k, arg] : llvm::enumerate(target.args())) {
    llvm::Value *slot =
        builder.CreateConstGEP1_64(ptrType, packed->getArg(0), k);
    llvm::Value *pointer = builder.CreateLoad(ptrType, slot);
    llvm::Type *argType = arg.getType();
    if (argType->isPointerTy()) {
      args.push_back(pointer);
    } else if (argType->isIntegerTy(1)) {
      // A C bool is one byte; read it whole and keep bit 0.
      llvm::Value *byte = builder.CreateLoad(builder.getInt8Ty(), pointer);
      args.push_back(builder.CreateTrunc(byte, argType));
    } else {
      args.push_back(builder.CreateLoad(argType, pointer));
    }
  }
  builder.CreateCall(&target, args);
  builder.CreateRetVoid();
}

} // namespace

std::optional<AotModule>
mlir::stride::compileAot(ModuleOp module, ArrayRef<std::string> entries,
                         const AotOptions &options,
                         llvm::TargetMachine &targetMachine,
                         std::string &error) {
  AotModule result;
  result.context = std::make_unique<llvm::LLVMContext>();
  result.module =
      std::make_unique<llvm::Module>("stride-aot", *result.context);
  result.module->setDataLayout(targetMachine.createDataLayout());
  result.module->setTargetTriple(targetMachine.getTargetTriple());
  llvm::Linker linker(*result.module);

  StridePipelineOptions pipeline;
  pipeline.policy = options.policy;
  pipeline.fuse = options.fuse;
  pipeline.threads = std::max(1u, options.threads);
  pipeline.keepResultLayouts = options.keepResultLayouts;
  if (options.target == Target::GpuHost) {
    error = "a library runs on the CPU or the GPU; gpu-host is for stride-run";
    return std::nullopt;
  }
  pipeline.target = options.target;
  // Without ptxas the kernels stay PTX, which the CUDA driver compiles.
  if (options.target == Target::Gpu && !hasPtxas())
    pipeline.format = "isa";
  pipeline.distribute = options.distribute;
  pipeline.distributeStrategy = options.strategy;

  for (const std::string &name : entries) {
    std::string what = "@" + name;
    std::string symbol = options.symbolPrefix + name;
    if (!isCIdentifier(symbol)) {
      error = "cannot export " + what + ": '" + symbol +
              "' is not a C identifier";
      return std::nullopt;
    }
    if (result.metadata.find(name)) {
      error = what + " is given twice";
      return std::nullopt;
    }
    auto func = module.lookupSymbol<func::FuncOp>(name);
    if (!func || func.isExternal()) {
      error = "no function " + what + " with a body";
      return std::nullopt;
    }
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
      if (isa<UnrankedTensorType>(type)) {
        error = "argument #" + std::to_string(i) + " of " + what +
                " is unranked; give its rank";
        return std::nullopt;
      }
    OwningOpRef<ModuleOp> copy;
    DistributionPlan plan;
    std::vector<int64_t> grid;
    if (!options.distribute.empty()) {
      if (std::string bad = ::stride::parseGridShape(options.distribute, grid);
          !bad.empty()) {
        error = "--distribute: " + bad;
        return std::nullopt;
      }
      if (options.target != Target::Cpu) {
        error = "--distribute runs on the CPU; drop --target=gpu";
        return std::nullopt;
      }
      error = specializeToDeclared(module, func, copy);
      if (error.empty())
        error = planDistribution(*module.getContext(), *copy, name,
                                 options.distribute, options.strategy,
                                 options.policy, /*showRemark=*/false, plan);
      if (!error.empty())
        return std::nullopt;
    } else {
      copy = module.clone();
    }
    std::optional<LoweredEntry> lowered =
        lowerEntryToLLVM(*copy, name, pipeline, /*emitCInterface=*/true, error);
    if (!lowered) {
      error = "cannot compile " + what + ": " + error;
      return std::nullopt;
    }
    rt::AotEntry entry;
    entry.name = name;
    entry.symbol = symbol;
    entry.packedSymbol = symbol + "_packed";
    for (auto [isOutput, params] :
         {std::pair(false, &lowered->inputs), std::pair(true, &lowered->outputs)})
      for (auto [k, param] : llvm::enumerate(*params)) {
        std::string which = (isOutput ? "result #" : "argument #") +
                            std::to_string(k) + " of " + what;
        std::optional<rt::AotParam> described = metadataParam(param);
        if (!described) {
          error = which + " has element type " + param.typeName +
                  ", which the runtime does not support (" +
                  ::stride::elementTypeList(&::stride::ElementTypeInfo::name) +
                  ")";
          return std::nullopt;
        }
        // An input dense in a dim order whose strides depend on its sizes:
        // the order tells a caller (stride-exec) how to lay it out.
        if (!isOutput && k < func.getNumArguments() &&
            llvm::is_contained(described->strides, rt::kAotDynamic))
          if (LayoutAttr layout = getLayout(func.getArgumentTypes()[k]);
              layout && layout.isPermForm())
            described->perm.assign(layout.getPerm().begin(),
                                   layout.getPerm().end());
        // The caller allocates the outputs, so it must know their layout
        // before the call: static, or by the layout graph.
        bool dynamic =
            llvm::is_contained(described->shape, rt::kAotDynamic) ||
            llvm::is_contained(described->strides, rt::kAotDynamic);
        if (isOutput && dynamic && !entry.hasLayoutGraph) {
          std::string why;
          std::optional<::stride::layout::LayoutGraph> graph =
              extractLayoutGraph(func, options.policy, why);
          if (!graph) {
            error = which + " has shape " +
                    rt::formatAotShape(described->shape) + " and strides " +
                    rt::formatAotStrides(described->strides) +
                    ", which depend on the input sizes, and " + why;
            return std::nullopt;
          }
          if (graph->results.size() != lowered->outputs.size()) {
            error = "the layout graph of " + what + " has " +
                    std::to_string(graph->results.size()) +
                    " results but the kernel " +
                    std::to_string(lowered->outputs.size());
            return std::nullopt;
          }
          entry.hasLayoutGraph = true;
          entry.layoutGraph = std::move(*graph);
        }
        (isOutput ? entry.outputs : entry.inputs).push_back(*described);
      }

    if (!options.distribute.empty()) {
      entry.ranks = ::stride::gridRanks(grid);
      entry.grid = grid;
      entry.globalInputs = plan.inputs;
      entry.globalOutputs = plan.outputs;
    }
    llvm::raw_string_ostream(result.loweredMlir) << *copy << "\n";
    std::unique_ptr<llvm::Module> translated =
        translateModuleToLLVMIR(*copy, *result.context, "stride-" + name);
    if (!translated) {
      error = "cannot translate " + what + " to LLVM IR";
      return std::nullopt;
    }
    llvm::Function *cInterface =
        translated->getFunction("_mlir_ciface_" + name);
    if (!cInterface) {
      error = "the C interface of " + what + " is missing after lowering";
      return std::nullopt;
    }
    // Only the exported function keeps its name visible: helpers of
    // different entries may share names.
    for (llvm::Function &f : translated->functions())
      if (!f.isDeclaration() && &f != cInterface)
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
    // llvm.global_ctors (which loads the GPU binary) keeps its appending
    // linkage, so the linker concatenates the entries' constructors.
    for (llvm::GlobalVariable &g : translated->globals())
      if (!g.isDeclaration() && !g.hasAppendingLinkage())
        g.setLinkage(llvm::GlobalValue::InternalLinkage);
    cInterface->setName(symbol);
    if (result.module->getNamedValue(symbol)) {
      error = "the symbol '" + symbol + "' of " + what + " is taken";
      return std::nullopt;
    }
    translated->setDataLayout(result.module->getDataLayout());
    translated->setTargetTriple(result.module->getTargetTriple());
    if (linker.linkInModule(std::move(translated))) {
      error = "cannot link " + what + " into the library";
      return std::nullopt;
    }
    addPackedWrapper(*result.module, *result.module->getFunction(symbol),
                     entry.packedSymbol);
    result.metadata.entries.push_back(std::move(entry));
  }

  if (options.target == Target::Gpu) {
    llvm::Constant *target =
        llvm::ConstantDataArray::getString(*result.context, "gpu");
    new llvm::GlobalVariable(*result.module, target->getType(),
                             /*isConstant=*/true,
                             llvm::GlobalValue::ExternalLinkage, target,
                             rt::kAotTargetSymbol);
  }

  // The text lives in an internal constant. `stride_aot_metadata`, which
  // stride-exec looks up in the library it loaded, is a weak alias of it, so
  // that two Stride libraries or objects link into one program; each entry
  // also gets a strong `<symbol>_metadata` alias, as unique as the entry's
  // own symbol, which the header's wrappers pass to the runtime.
  // The metadata's names must be free: an entry `f_metadata` would be
  // exported as `stride_f_metadata`, the name of @f's metadata.
  for (const rt::AotEntry &entry : result.metadata.entries)
    for (std::string name :
         {entry.symbol + rt::kAotEntryMetadataSuffix,
          std::string(rt::kAotMetadataSymbol)})
      if (result.module->getNamedValue(name)) {
        error = "the symbol '" + name + "' of @" + entry.name +
                "'s metadata is taken by another entry's function";
        return std::nullopt;
      }

  std::string text = rt::formatAotMetadata(result.metadata);
  llvm::Constant *init =
      llvm::ConstantDataArray::getString(*result.context, text);
  auto *data = new llvm::GlobalVariable(
      *result.module, init->getType(), /*isConstant=*/true,
      llvm::GlobalValue::InternalLinkage, init, "stride_aot_metadata.text");
  llvm::GlobalAlias::create(llvm::GlobalValue::WeakAnyLinkage,
                            rt::kAotMetadataSymbol, data);
  for (const rt::AotEntry &entry : result.metadata.entries)
    llvm::GlobalAlias::create(llvm::GlobalValue::ExternalLinkage,
                              entry.symbol + rt::kAotEntryMetadataSuffix,
                              data);

  // Shared libraries reach libmvec through libm's linker script (-lm).
  auto optimize = makeKernelOptimizer(&targetMachine);
  if (llvm::Error e = optimize(result.module.get())) {
    error = "optimizing the library failed: " + llvm::toString(std::move(e));
    return std::nullopt;
  }
  return result;
}

std::string mlir::stride::emitObjectFile(llvm::Module &module,
                                         llvm::TargetMachine &targetMachine,
                                         StringRef path) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return "cannot write '" + path.str() + "': " + ec.message();
  llvm::legacy::PassManager passes;
  if (targetMachine.addPassesToEmitFile(passes, os, nullptr,
                                        llvm::CodeGenFileType::ObjectFile))
    return "the host target cannot emit object files";
  passes.run(module);
  os.flush();
  if (os.has_error())
    return "cannot write '" + path.str() + "': " + os.error().message();
  return "";
}
