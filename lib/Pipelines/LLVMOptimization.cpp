//===- LLVMOptimization.cpp - LLVM's O3 for Stride kernels ----------------===//

#include "stride/Pipelines/LLVMOptimization.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/CodeGen/ReplaceWithVeclib.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/DivisionByConstantInfo.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <deque>
#include <mutex>
#include <string>

#if STRIDE_HAS_VECTOR_MATH_BITCODE
#include "VectorMathBitcode.inc"
#endif

using namespace mlir;

const char *mlir::stride::vectorMathLibrary() {
  return STRIDE_VECTOR_MATH_LIBRARY;
}

namespace {
/// libm's math functions declared in `module` (a library function whose
/// parameters and result are all floating point: sin, pow, atan2, ...) do
/// not access memory for Stride: the kernels never read errno, and the
/// vectorizer widens only calls without side effects.
void markMathFunctionsPure(llvm::Module &module,
                           const llvm::TargetLibraryInfoImpl &info) {
  llvm::TargetLibraryInfo tli(info);
  for (llvm::Function &function : module) {
    llvm::LibFunc libFunc;
    if (!function.isDeclaration() || function.isIntrinsic() ||
        !tli.getLibFunc(function, libFunc))
      continue;
    llvm::FunctionType *type = function.getFunctionType();
    if (!type->getReturnType()->isFloatingPointTy() || type->isVarArg() ||
        type->getNumParams() == 0 ||
        !llvm::all_of(type->params(),
                      [](llvm::Type *t) { return t->isFloatingPointTy(); }))
      continue;
    function.setDoesNotAccessMemory();
    function.setDoesNotThrow();
    function.setWillReturn();
  }
}
/// glibc's x86-64 vector function ABI: ISA letter and lanes of a 64-bit and
/// a 32-bit float vector, with the target feature each needs ("b" is SSE,
/// the baseline).
struct VectorIsa {
  char letter;
  unsigned f64Lanes, f32Lanes;
  const char *feature;
};
constexpr VectorIsa kIsas[] = {
    {'b', 2, 4, nullptr}, {'d', 4, 8, "+avx2"}, {'e', 8, 16, "+avx512f"}};

/// libm's functions with libmvec variants (glibc 2.35 has them all; older
/// ones fewer: each variant is checked in the library), by arity.
constexpr std::pair<const char *, unsigned> kVectorMathFunctions[] = {
    {"sin", 1},   {"cos", 1},   {"tan", 1},    {"asin", 1},  {"acos", 1},
    {"atan", 1},  {"sinh", 1},  {"cosh", 1},   {"tanh", 1},  {"asinh", 1},
    {"acosh", 1}, {"atanh", 1}, {"exp", 1},    {"exp2", 1},  {"exp10", 1},
    {"expm1", 1}, {"log", 1},   {"log2", 1},   {"log10", 1}, {"log1p", 1},
    {"cbrt", 1},  {"erf", 1},   {"erfc", 1},   {"atan2", 2}, {"hypot", 2},
    {"pow", 2}};

/// The functions Stride's vector math bitcode (VectorMath/VectorMath.c)
/// defines, as libm names them: `stride_vm_<function>_f64x<lanes>` for a
/// double function, `..._f32x<lanes>` for its float twin `<function>f`, at
/// AVX-512's lane count and, unless `avx512Only`, AVX2's (the bitcode needs
/// FMA, so never SSE's). The AVX-512-only ones read tables by register
/// permutes; AVX2 hosts keep libmvec's variant.
struct OwnVectorFunction {
  const char *name;
  bool f32, avx512Only;
};
constexpr OwnVectorFunction kOwnVectorFunctions[] = {
    {"sin", false, false},   {"cos", false, false},   {"log", false, false},
    {"tanh", true, false},   {"exp", false, false},   {"exp2", false, false},
    {"expm1", false, false}, {"sinh", false, false},  {"cosh", false, false},
    {"tanh", false, false},  {"atan", false, false},  {"atan2", false, false},
    {"asin", false, false},  {"acos", false, false},  {"tan", false, false},
    {"log2", false, false},  {"log10", false, false}, {"log1p", false, false},
    {"sin", true, false},    {"cos", true, false},    {"log", true, false},
    {"exp", true, false},    {"pow", false, true},    {"pow", true, true},
    {"log2", true, false},   {"log10", true, false},  {"exp2", true, false},
    {"expm1", true, false},  {"sinh", true, false},   {"cosh", true, false},
    {"log1p", true, true},   {"asinh", false, true},  {"acosh", false, true},
    {"atanh", false, true},  {"asinh", true, true},   {"acosh", true, true},
    {"atanh", true, true},   {"tan", true, false},    {"atan", true, true},
    {"atan2", true, false},  {"asin", true, false},   {"acos", true, false},
    {"cbrt", true, false},   {"cbrt", false, false}};
constexpr llvm::StringLiteral kOwnPrefix = "stride_vm_";

/// Stride's integer divisions through float64 (IntegerDivision.inc):
/// scalar twin, AVX-512 variant, lanes.
struct OwnDivision {
  const char *scalar, *vector;
  unsigned lanes;
  const char *params = "vv";
};
constexpr OwnDivision kOwnDivisions[] = {
    {"stride_vm_sdiv_i64", "stride_vm_sdiv_i64x8", 8},
    {"stride_vm_sdiv_i64", "stride_vm_sdiv_i64x4", 4},
    {"stride_vm_sdiv_by_i64", "stride_vm_sdiv_by_i64x8", 8, "vvvvvv"},
    {"stride_vm_sdiv_by_i64", "stride_vm_sdiv_by_i64x4", 4, "vvvvvv"},
    {"stride_vm_udiv_u64", "stride_vm_udiv_u64x8", 8},
    {"stride_vm_udiv_u64", "stride_vm_udiv_u64x4", 4},
    {"stride_vm_sdiv_i32", "stride_vm_sdiv_i32x16", 16},
    {"stride_vm_sdiv_i32", "stride_vm_sdiv_i32x8", 8}};

/// Whether kernels for `tm` divide integers through float64: the bitcode
/// defines the variants, and AVX-512 (with DQ's int64 conversions) runs
/// them.
bool dividesInFloat(llvm::TargetMachine *tm) {
  llvm::StringRef features = tm->getTargetFeatureString();
  return STRIDE_HAS_VECTOR_MATH_BITCODE && features.contains("+avx512f") &&
         features.contains("+avx512dq");
}

bool hasOwnVariant(llvm::StringRef function, bool f32, bool avx512) {
  if (!STRIDE_HAS_VECTOR_MATH_BITCODE)
    return false;
  return llvm::any_of(kOwnVectorFunctions, [&](const OwnVectorFunction &own) {
    return function == own.name && f32 == own.f32 &&
           (avx512 || !own.avx512Only);
  });
}

/// The scalar -> vector mappings of libmvec's functions (and of the LLVM
/// intrinsics for them) that `targetMachine`'s ISA can call and the loaded
/// library defines. The names live as long as the process (TLI keeps
/// StringRefs).
std::vector<llvm::VecDesc> vectorMathMappings(llvm::TargetMachine *tm) {
  static std::mutex mutex;
  static std::deque<std::string> names;
  std::lock_guard<std::mutex> lock(mutex);
  auto keep = [&](std::string name) -> llvm::StringRef {
    return names.emplace_back(std::move(name));
  };
  std::string error;
  llvm::sys::DynamicLibrary library =
      llvm::sys::DynamicLibrary::getPermanentLibrary(
          mlir::stride::vectorMathLibrary(), &error);
  std::vector<llvm::VecDesc> mappings;
  if (!library.isValid())
    return mappings;
  llvm::StringRef features = tm->getTargetFeatureString();
  for (const VectorIsa &isa : kIsas) {
    if (isa.feature && !features.contains(isa.feature))
      continue;
    for (auto [function, arity] : kVectorMathFunctions) {
      for (bool f32 : {false, true}) {
        unsigned lanes = f32 ? isa.f32Lanes : isa.f64Lanes;
        std::string scalar = std::string(function) + (f32 ? "f" : "");
        std::string params(arity, 'v');
        std::string vector = std::string("_ZGV") + isa.letter + "N" +
                             std::to_string(lanes) + params + "_" + scalar;
        if (isa.feature && features.contains("+fma") &&
            hasOwnVariant(function, f32, isa.letter == 'e'))
          vector = (kOwnPrefix + function + (f32 ? "_f32x" : "_f64x") +
                    std::to_string(lanes))
                       .str();
        else if (!library.getAddressOfSymbol(vector.c_str()))
          continue;
        llvm::StringRef vectorName = keep(vector);
        llvm::StringRef prefix =
            keep("_ZGV_LLVM_N" + std::to_string(lanes) + params);
        for (std::string name :
             {scalar, "llvm." + std::string(function) + (f32 ? ".f32" : ".f64")})
          mappings.emplace_back(keep(name), vectorName,
                                llvm::ElementCount::getFixed(lanes),
                                /*Masked=*/false, prefix, std::nullopt);
      }
    }
  }
  if (dividesInFloat(tm))
    for (auto [scalar, vector, lanes, params] : kOwnDivisions)
      mappings.emplace_back(
          scalar, vector, llvm::ElementCount::getFixed(lanes),
          /*Masked=*/false,
          keep("_ZGV_LLVM_N" + std::to_string(lanes) + params), std::nullopt);
  return mappings;
}

/// The high 64 bits of the unsigned 128-bit product of `x` (i64) and m,
/// given as its 32-bit halves `mlo` and `mhi`: each of the four products
/// has factors below 2^32, which the loop vectorizer makes `vpmuludq`s,
/// where LLVM's `mulhu` of i64 (an i128 product) has no vector instruction
/// and stays one scalar multiply per lane.
llvm::Value *mulhu64(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *mlo,
                     llvm::Value *mhi) {
  llvm::Type *t = x->getType();
  llvm::Value *low32 = llvm::ConstantInt::get(t, 0xffffffffULL);
  llvm::Value *c32 = llvm::ConstantInt::get(t, 32);
  llvm::Value *xlo = b.CreateAnd(x, low32), *xhi = b.CreateLShr(x, c32);
  llvm::Value *mid = b.CreateAdd(b.CreateMul(xhi, mlo),
                                 b.CreateLShr(b.CreateMul(xlo, mlo), c32));
  llvm::Value *mid2 =
      b.CreateAdd(b.CreateMul(xlo, mhi), b.CreateAnd(mid, low32));
  return b.CreateAdd(
      b.CreateMul(xhi, mhi),
      b.CreateAdd(b.CreateLShr(mid, c32), b.CreateLShr(mid2, c32)));
}

/// The same for a constant m.
llvm::Value *mulhu64(llvm::IRBuilder<> &b, llvm::Value *x,
                     const llvm::APInt &m) {
  llvm::Type *t = x->getType();
  return mulhu64(b, x, llvm::ConstantInt::get(t, m.getLoBits(32)),
                 llvm::ConstantInt::get(t, m.lshr(32)));
}

/// What a 64-bit division by a loop-invariant divisor d needs, computed
/// once where d is defined (libdivide's "branchfree" scheme, with Stride's
/// own magic-number functions): the magic number (0 for a power of two),
/// its 32-bit halves, and the shift. Signed divisions pass them to
/// stride_vm_sdiv_by_i64, whose vector variant divides in float64 below
/// 2^53 and by the magic number beyond; unsigned ones multiply here, with
/// d = 1 selected around (the scheme does not cover it).
struct InvariantDivisor {
  llvm::Value *magic, *shift, *mlo, *mhi, *isOne = nullptr;
};

InvariantDivisor prepareInvariantDivisor(llvm::Function &function,
                                         llvm::Value *d, bool isUnsigned) {
  llvm::Module &module = *function.getParent();
  llvm::Type *t = d->getType();
  // After d where it is an instruction; else (an argument, a constant) at
  // the entry.
  llvm::BasicBlock::iterator at =
      function.getEntryBlock().getFirstInsertionPt();
  if (auto *inst = llvm::dyn_cast<llvm::Instruction>(d))
    at = llvm::isa<llvm::PHINode>(inst)
             ? inst->getParent()->getFirstInsertionPt()
             : std::next(inst->getIterator());
  llvm::IRBuilder<> b(at->getParent(), at);
  llvm::FunctionCallee callee = module.getOrInsertFunction(
      isUnsigned ? "stride_vm_udiv_magic_u64" : "stride_vm_sdiv_magic_i64",
      llvm::FunctionType::get(t, {t}, false));
  if (auto *f = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
    f->setDoesNotAccessMemory();
    f->setDoesNotThrow();
    f->setWillReturn();
  }
  auto constant = [&](uint64_t v) { return llvm::ConstantInt::get(t, v); };
  InvariantDivisor div{};
  div.magic = b.CreateCall(callee, {d});
  llvm::Value *absD = isUnsigned ? d
                                 : b.CreateBinaryIntrinsic(llvm::Intrinsic::abs,
                                                           d, b.getFalse());
  // |d| | 1: no poison from ctlz where d is 0 (never divided by).
  llvm::Value *leading = b.CreateBinaryIntrinsic(
      llvm::Intrinsic::ctlz, b.CreateOr(absD, constant(1)), b.getFalse());
  div.shift = b.CreateSub(constant(63), leading);
  div.mlo = b.CreateAnd(div.magic, constant(0xffffffffULL));
  div.mhi = b.CreateLShr(div.magic, constant(32));
  if (!isUnsigned)
    return div;
  // A power of two shifts by one less after the halving add; 1 (and 0)
  // keep a shift of 0 and are selected around.
  llvm::Value *less = b.CreateAnd(b.CreateICmpEQ(div.magic, constant(0)),
                                  b.CreateICmpNE(div.shift, constant(0)));
  div.shift = b.CreateSub(div.shift, b.CreateZExt(less, t));
  div.isOne = b.CreateICmpEQ(d, constant(1));
  return div;
}

/// `udiv x, d` for a divisor prepared by prepareInvariantDivisor: the
/// high product q, then (((x - q) >> 1) + q) >> shift, x itself where d is
/// 1. Exact for every x and every d but 0.
llvm::Value *udivByInvariant(llvm::IRBuilder<> &b, llvm::Value *x,
                             const InvariantDivisor &div) {
  llvm::Value *q = mulhu64(b, x, div.mlo, div.mhi);
  llvm::Value *t = b.CreateAdd(
      b.CreateLShr(b.CreateSub(x, q), llvm::ConstantInt::get(x->getType(), 1)),
      q);
  return b.CreateSelect(div.isOne, x, b.CreateLShr(t, div.shift));
}

/// `sdiv x, d` for an i64 constant d (not 0 and |d| not a power of two) by
/// a multiply-high with its magic number (Hacker's Delight 10-1, the
/// constants of LLVM's own SelectionDAG expansion): the signed high product
/// is the unsigned one less `m` where x < 0 and less `x` where m < 0.
llvm::Value *sdivByConstant(llvm::IRBuilder<> &b, llvm::Value *x,
                            const llvm::APInt &d) {
  llvm::SignedDivisionByConstantInfo magic =
      llvm::SignedDivisionByConstantInfo::get(d);
  const llvm::APInt &m = magic.Magic;
  llvm::Type *t = x->getType();
  llvm::Value *sign = b.CreateAShr(x, llvm::ConstantInt::get(t, 63));
  llvm::Value *q = b.CreateSub(mulhu64(b, x, m),
                               b.CreateAnd(sign, llvm::ConstantInt::get(t, m)));
  if (m.isNegative())
    q = b.CreateSub(q, x);
  if (d.isStrictlyPositive() && m.isNegative())
    q = b.CreateAdd(q, x);
  if (d.isNegative() && m.isStrictlyPositive())
    q = b.CreateSub(q, x);
  if (magic.ShiftAmount)
    q = b.CreateAShr(q, llvm::ConstantInt::get(t, magic.ShiftAmount));
  // Truncation toward zero: one more where the quotient is negative.
  return b.CreateAdd(q, b.CreateLShr(q, llvm::ConstantInt::get(t, 63)));
}

/// Interleaved copies of a loop that divides by a loop-invariant int64.
constexpr unsigned kInvariantDivisionCopies = 4;

/// The declaration of the scalar twin `name` of one of Stride's vector
/// divisions, taking `arity` operands of `type`, pure.
llvm::Function *ownDivision(llvm::Module &module, llvm::StringRef name,
                            llvm::Type *type, unsigned arity) {
  if (llvm::Function *callee = module.getFunction(name))
    return callee;
  llvm::SmallVector<llvm::Type *> params(arity, type);
  llvm::Function *callee =
      llvm::Function::Create(llvm::FunctionType::get(type, params, false),
                             llvm::GlobalValue::ExternalLinkage, name, module);
  callee->setDoesNotAccessMemory();
  callee->setDoesNotThrow();
  callee->setWillReturn();
  return callee;
}

/// Rewrites each `sdiv` and `srem` of i64 or i32, and `udiv` and `urem` of
/// i64, inside a loop, by a divisor that is not a constant (the backend
/// strength-reduces an int32 constant or a power of two faster), into a
/// call of its `stride_vm_sdiv_*` (`stride_vm_udiv_u64`) twin, which the
/// loop vectorizer maps to the float64 variants of
/// IntegerDivision.inc instead of one idiv per lane: `srem x, y` becomes `x -
/// sdiv(x, y) * y`, sharing the call with the block's `sdiv x, y` (NumPy's
/// floor division computes both). Runs at the vectorizer's start; the calls
/// left scalar are inlined back. An i64 divisor the loop holds fixed takes
/// a magic number's multiply-high instead, in 32-bit halves that vectorize:
/// a signed constant that is not a power of two its own magic number
/// (sdivByConstant), any other loop-invariant divisor, signed or unsigned,
/// libdivide's magic number computed once before the loop (a Python scalar
/// of @stride.jit is such an argument): uint64 by its branch-free scheme
/// here (1M full-range: 0.48 -> 0.18 ms), int64 through
/// stride_vm_sdiv_by_i64, float64 below 2^53 and the magic number beyond
/// (full-range a // 7: 0.73 -> 0.35 ms; small values keep float64's 0.19 ms
/// a division).
struct DivisionsToCallsPass : llvm::PassInfoMixin<DivisionsToCallsPass> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses) {
    llvm::LoopInfo &loops = analyses.getResult<llvm::LoopAnalysis>(function);
    llvm::Module &module = *function.getParent();
    bool changed = false;
    llvm::DenseMap<llvm::Value *, InvariantDivisor> invariantDivisors,
        unsignedInvariantDivisors;
    for (llvm::BasicBlock &block : function) {
      llvm::Loop *loop = loops.getLoopFor(&block);
      if (!loop)
        continue;
      llvm::DenseMap<std::pair<llvm::Value *, llvm::Value *>, llvm::Value *>
          quotients, unsignedQuotients;
      for (llvm::Instruction &inst : llvm::make_early_inc_range(block)) {
        auto *op = llvm::dyn_cast<llvm::BinaryOperator>(&inst);
        if (!op)
          continue;
        llvm::Instruction::BinaryOps opcode = op->getOpcode();
        bool isUnsigned = opcode == llvm::Instruction::UDiv ||
                          opcode == llvm::Instruction::URem;
        bool isDivision = opcode == llvm::Instruction::SDiv ||
                          opcode == llvm::Instruction::UDiv;
        if (!isUnsigned && opcode != llvm::Instruction::SDiv &&
            opcode != llvm::Instruction::SRem)
          continue;
        llvm::Type *type = op->getType();
        llvm::Value *x = op->getOperand(0), *y = op->getOperand(1);
        if (!(type->isIntegerTy(64) || (type->isIntegerTy(32) && !isUnsigned)))
          continue;
        // The backend's multiply-high sequence for a constant is faster for
        // int32 (a // 7 of 1M: 0.16 ms against 0.38), and shifts are for a
        // power of two; int64's mulhi has no vector instruction (1.2 ms
        // against 0.54 through float64), so an i64 constant takes mulhu64.
        llvm::ConstantInt *k = nullptr;
        if (auto *c = llvm::dyn_cast<llvm::Constant>(y)) {
          k = llvm::dyn_cast<llvm::ConstantInt>(c);
          if (!k || type->isIntegerTy(32) || k->isZero() ||
              (isUnsigned ? k->getValue().isPowerOf2()
                          : k->getValue().abs().isPowerOf2()))
            continue;
        }
        llvm::IRBuilder<> b(op);
        llvm::Value *&q = (isUnsigned ? unsignedQuotients : quotients)[{x, y}];
        // An unsigned constant (rare: arith.constant is signless, and a
        // uint64 scalar is a kernel argument) keeps the call.
        if (!q && k && !isUnsigned) {
          q = sdivByConstant(b, x, k->getValue());
        } else if (!q && !k && type->isIntegerTy(64) &&
                   loop->isLoopInvariant(y)) {
          auto &prepared =
              isUnsigned ? unsignedInvariantDivisors : invariantDivisors;
          auto found = prepared.find(y);
          if (found == prepared.end())
            found = prepared
                        .try_emplace(
                            y, prepareInvariantDivisor(function, y, isUnsigned))
                        .first;
          q = isUnsigned
                  ? udivByInvariant(b, x, found->second)
                  : b.CreateCall(
                        ownDivision(module, "stride_vm_sdiv_by_i64", type, 6),
                        {x, y, found->second.magic, found->second.mlo,
                         found->second.mhi, found->second.shift});
          // The vectorizer interleaves a loop of calls once; the inlined
          // variant is a short chain whose copies overlap.
          if (!isUnsigned && loop->isInnermost() &&
              !llvm::findStringMetadataForLoop(loop,
                                               "llvm.loop.interleave.count"))
            llvm::addStringMetadataToLoop(loop, "llvm.loop.interleave.count",
                                          kInvariantDivisionCopies);
        } else if (!q) {
          llvm::StringRef name = isUnsigned              ? "stride_vm_udiv_u64"
                                 : type->isIntegerTy(64) ? "stride_vm_sdiv_i64"
                                                         : "stride_vm_sdiv_i32";
          // Before the first of the pair, so that the other can use it.
          q = b.CreateCall(ownDivision(module, name, type, 2), {x, y});
        }
        llvm::Value *result =
            isDivision ? q : b.CreateSub(x, b.CreateMul(q, y));
        op->replaceAllUsesWith(result);
        op->eraseFromParent();
        changed = true;
      }
    }
    return changed ? llvm::PreservedAnalyses::none()
                   : llvm::PreservedAnalyses::all();
  }
};
/// Stride's vector functions whose inlined bodies keep so many constants
/// live that the loop vectorizer's interleaved copies (it counts the call,
/// not the body it becomes) spill them: their loops get two copies. float64
/// tanh evaluates a polynomial and the exponential's table for every lane
/// (2^20 doubles on the project's AMD EPYC: 0.71 ms with the default
/// interleaving, 0.56 with two copies; exp, sin, sinh, cosh and the float32
/// functions measured the same either way).
constexpr llvm::StringLiteral kNarrowInterleave[] = {"tanh", "llvm.tanh.f64"};

/// Sets `llvm.loop.interleave.count` to 2 on each innermost loop that calls
/// a function of kNarrowInterleave and has no interleave count of its own.
struct NarrowInterleavePass : llvm::PassInfoMixin<NarrowInterleavePass> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses) {
    llvm::LoopInfo &loops = analyses.getResult<llvm::LoopAnalysis>(function);
    for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
      if (!loop->isInnermost() ||
          llvm::findStringMetadataForLoop(loop, "llvm.loop.interleave.count"))
        continue;
      bool heavy = llvm::any_of(loop->blocks(), [](llvm::BasicBlock *block) {
        return llvm::any_of(*block, [](llvm::Instruction &inst) {
          auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
          llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
          return callee &&
                 llvm::is_contained(kNarrowInterleave, callee->getName());
        });
      });
      if (heavy)
        llvm::addStringMetadataToLoop(loop, "llvm.loop.interleave.count", 2);
    }
    // Metadata only: every analysis stays valid.
    return llvm::PreservedAnalyses::all();
  }
};

/// Links the definitions of the `stride_vm_*` functions that `module`'s
/// vectorized loops call (declared by the loop vectorizer or
/// ReplaceWithVeclib from the mappings above) from Stride's vector math
/// bitcode, marked always-inline: each is a few dozen instructions, and a
/// call would make the loop spill its live vectors around it. The pipeline
/// runs the always-inliner and GlobalDCE after it.
llvm::Error linkOwnVectorMath(llvm::Module &module) {
  bool needed = llvm::any_of(module, [](llvm::Function &f) {
    return f.isDeclaration() && f.getName().starts_with(kOwnPrefix);
  });
  if (!needed)
    return llvm::Error::success();
#if STRIDE_HAS_VECTOR_MATH_BITCODE
  llvm::MemoryBufferRef buffer(
      llvm::StringRef(reinterpret_cast<const char *>(kVectorMathBitcode),
                      sizeof(kVectorMathBitcode)),
      "stride-vector-math");
  llvm::Expected<std::unique_ptr<llvm::Module>> library =
      llvm::parseBitcodeFile(buffer, module.getContext());
  if (!library)
    return library.takeError();
  (*library)->setDataLayout(module.getDataLayout());
  (*library)->setTargetTriple(module.getTargetTriple());
  llvm::SmallVector<std::string> own;
  for (llvm::Function &f : **library) {
    // Compiled for the kernel's target once inlined, not for the ISA
    // clang assumed (the bitcode is generic vector IR).
    for (llvm::StringRef attr : {"target-cpu", "target-features", "tune-cpu",
                                 "min-legal-vector-width"})
      f.removeFnAttr(attr);
    if (f.isDeclaration())
      continue;
    // The scalar fallbacks stay out of line (cold).
    if (!f.hasFnAttribute(llvm::Attribute::NoInline))
      f.addFnAttr(llvm::Attribute::AlwaysInline);
    own.push_back(f.getName().str());
  }
  if (llvm::Linker::linkModules(module, std::move(*library),
                                llvm::Linker::Flags::LinkOnlyNeeded))
    return llvm::createStringError("could not link Stride's vector math");
  for (const std::string &name : own)
    if (llvm::Function *f = module.getFunction(name))
      f->setLinkage(llvm::GlobalValue::InternalLinkage);
  // The loop vectorizer keeps every variant it may call in
  // llvm.compiler.used; once inlined, Stride's are dead and go (a kernel
  // would otherwise compile each variant's body, unused).
  llvm::removeFromUsedLists(module, [](llvm::Constant *c) {
    return c->getName().starts_with(kOwnPrefix);
  });
#endif
  for (llvm::Function &f : module)
    if (f.isDeclaration() && f.getName().starts_with(kOwnPrefix))
      return llvm::createStringError(
          "Stride's vector math bitcode does not define " + f.getName());
  return llvm::Error::success();
}

/// linkOwnVectorMath as a module pass; a failure is kept for the caller
/// (a pass cannot return one).
struct LinkOwnVectorMathPass : llvm::PassInfoMixin<LinkOwnVectorMathPass> {
  explicit LinkOwnVectorMathPass(std::string &failure) : failure(&failure) {}
  std::string *failure;

  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &) {
    if (llvm::Error error = linkOwnVectorMath(module))
      *failure = llvm::toString(std::move(error));
    return llvm::PreservedAnalyses::none();
  }
};
} // namespace

std::function<llvm::Error(llvm::Module *)>
mlir::stride::makeKernelOptimizer(llvm::TargetMachine *targetMachine,
                                  bool vectorMath) {
  vectorMath = vectorMath && *vectorMathLibrary();
  return [targetMachine, vectorMath](llvm::Module *module) -> llvm::Error {
    llvm::TargetLibraryInfoImpl libraryInfo(module->getTargetTriple());
    if (vectorMath) {
      libraryInfo.addVectorizableFunctions(vectorMathMappings(targetMachine));
      markMathFunctionsPure(*module, libraryInfo);
    }

    // A module this large is many kernels (an unrolled Python loop traced
    // by @stride.jit: about 300 instructions a write), not one hot loop
    // nest (softmax, a matmul: under 700). O3's extra inlining and LLVM's
    // unrolling of the many short constant-trip loops then cost compile time
    // without speeding any one loop up: the unrolled loops make basic blocks
    // whose instruction scheduling grows as their square. Such modules get
    // O2 without unrolling (its loop and SLP vectorizers are O3's): 64
    // writes of a convolution window compile in 17.8 s at O3, 6.1 s at O2;
    // 1,040 writes of npbench's syrk in 41 s at O2 with unrolling. A kernel
    // of 24 syrk writes (one cut of a trace) has about 2,000 instructions
    // and compiles in 0.35 s instead of 0.65 s; bench/run's largest single
    // kernels (matmul chains) stay under 1,550 and keep O3.
    constexpr size_t kManyKernelsInstructions = 1800;
    size_t instructions = 0;
    for (llvm::Function &function : *module)
      instructions += function.getInstructionCount();
    bool manyKernels = instructions > kManyKernelsInstructions;
    llvm::LoopAnalysisManager loops;
    llvm::FunctionAnalysisManager functions;
    llvm::CGSCCAnalysisManager sccs;
    llvm::ModuleAnalysisManager modules;
    llvm::PipelineTuningOptions tuning;
    tuning.LoopUnrolling = !manyKernels;
    tuning.LoopInterleaving = true;
    tuning.LoopVectorization = true;
    tuning.SLPVectorization = true;
    llvm::PassBuilder builder(targetMachine, tuning);
    if (vectorMath)
      builder.registerVectorizerStartEPCallback(
          [](llvm::FunctionPassManager &passes, llvm::OptimizationLevel) {
            passes.addPass(NarrowInterleavePass());
          });
    if (vectorMath && dividesInFloat(targetMachine))
      builder.registerVectorizerStartEPCallback(
          [](llvm::FunctionPassManager &passes, llvm::OptimizationLevel) {
            passes.addPass(DivisionsToCallsPass());
          });
    // Registered first, so the default registration below keeps it.
    functions.registerPass(
        [&] { return llvm::TargetLibraryAnalysis(libraryInfo); });
    builder.registerModuleAnalyses(modules);
    builder.registerCGSCCAnalyses(sccs);
    builder.registerFunctionAnalyses(functions);
    builder.registerLoopAnalyses(loops);
    builder.crossRegisterProxies(loops, functions, sccs, modules);
    llvm::ModulePassManager passes = builder.buildPerModuleDefaultPipeline(
        manyKernels ? llvm::OptimizationLevel::O2
                    : llvm::OptimizationLevel::O3);
    // Loops MLIR vectorized itself (stride-block-transposes, the matmul
    // micro-kernels) call vector intrinsics such as llvm.exp.v16f32, which
    // the backend would split into one scalar call per lane; map them to
    // libmvec's variants as the loop vectorizer maps scalar calls.
    std::string failure;
    if (vectorMath) {
      passes.addPass(
          llvm::createModuleToFunctionPassAdaptor(llvm::ReplaceWithVeclib()));
      passes.addPass(LinkOwnVectorMathPass(failure));
      passes.addPass(llvm::AlwaysInlinerPass());
      passes.addPass(llvm::GlobalDCEPass());
    }
    passes.run(*module, modules);
    if (!failure.empty())
      return llvm::createStringError(failure);
    return llvm::Error::success();
  };
}
