//===- VectorMathTest.cpp - Vector math per target ISA
//---------------------===//
//
// The kernel optimizer's choice of vector math for targets other than the
// host: Stride's own variants (lib/Pipelines/VectorMath) at the lane
// counts of AVX2 and AVX-512 hosts with FMA, inlined after vectorization;
// glibc's libmvec elsewhere (SSE without FMA) and for the functions Stride
// has no variant of. The host's own runs are checked end to end by
// test/AOT/vector-math.mlir and python/tests/test_math_accuracy.py.
//
//===----------------------------------------------------------------------===//

#include "stride/Pipelines/LLVMOptimization.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>

namespace {
/// A loop y[i] = f(x[i]) per function, as the lowering emits them: the
/// intrinsic for sin, libm calls for log, tanhf, pow and asinh.
constexpr const char *kLoops = R"ll(
declare double @llvm.sin.f64(double)
declare double @log(double)
declare float @tanhf(float)
declare double @pow(double, double)
declare double @asinh(double)

define void @loops(ptr noalias %x, ptr noalias %y, ptr noalias %a,
                   ptr noalias %b, ptr noalias %c) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %px = getelementptr double, ptr %x, i64 %i
  %vx = load double, ptr %px
  %s = call double @llvm.sin.f64(double %vx)
  %l = call double @log(double %vx)
  %t = fadd double %s, %l
  %py = getelementptr double, ptr %y, i64 %i
  store double %t, ptr %py
  %pa = getelementptr float, ptr %a, i64 %i
  %va = load float, ptr %pa
  %h = call float @tanhf(float %va)
  %pb = getelementptr float, ptr %b, i64 %i
  store float %h, ptr %pb
  %q = call double @pow(double %vx, double %vx)
  %qa = call double @asinh(double %q)
  %pc = getelementptr double, ptr %c, i64 %i
  store double %qa, ptr %pc
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, 4096
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
)ll";

/// A function @<callee>_loop computing y[i] = callee(x[i]) on float64.
std::string unaryLoop(const std::string &callee) {
  return "declare double @" + callee + "(double)\n" + "define void @" + callee +
         R"ll(_loop(ptr noalias %x, ptr noalias %y) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %px = getelementptr double, ptr %x, i64 %i
  %vx = load double, ptr %px
  %t = call double @)ll" +
         callee + R"ll((double %vx)
  %py = getelementptr double, ptr %y, i64 %i
  store double %t, ptr %py
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, 4096
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
)ll";
}

/// q[i] = x[i] / y[i] and r[i] = x[i] % y[i] on int64, as NumPy's floor
/// division emits them (the divisor kept away from 0 and -1 before).
constexpr const char *kDivisions = R"ll(
define void @divisions(ptr noalias %x, ptr noalias %y, ptr noalias %q,
                       ptr noalias %r) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %px = getelementptr i64, ptr %x, i64 %i
  %vx = load i64, ptr %px
  %py = getelementptr i64, ptr %y, i64 %i
  %vy = load i64, ptr %py
  %d = sdiv i64 %vx, %vy
  %m = srem i64 %vx, %vy
  %pq = getelementptr i64, ptr %q, i64 %i
  store i64 %d, ptr %pq
  %pr = getelementptr i64, ptr %r, i64 %i
  store i64 %m, ptr %pr
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, 4096
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
)ll";

/// The optimized IR of `loops` (kLoops by default) for `cpu` with
/// `features` spelled out, as the drivers' host target machines spell them
/// (the optimizer reads the feature string), or "" when the target is
/// missing.
std::string optimizeFor(const std::string &cpu, const std::string &features,
                        const char *loops = kLoops) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::Triple triple("x86_64-unknown-linux-gnu");
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return "";
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, cpu, features, llvm::TargetOptions(), std::nullopt));
  llvm::LLVMContext context;
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(loops, diagnostic, context);
  EXPECT_TRUE(module) << diagnostic.getMessage().str();
  module->setTargetTriple(triple);
  module->setDataLayout(machine->createDataLayout());
  llvm::Error failed =
      mlir::stride::makeKernelOptimizer(machine.get())(module.get());
  EXPECT_FALSE(failed) << llvm::toString(std::move(failed));
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, nullptr);
  return text;
}

/// Whether some call in `ir` calls a function whose name ends with
/// `suffix` (declarations kept by llvm.compiler.used do not count).
bool calls(const std::string &ir, const std::string &suffix) {
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(ir).split(lines, '\n');
  return llvm::any_of(lines, [&](llvm::StringRef line) {
    return line.contains(" call ") && line.contains(suffix + "(");
  });
}

bool hasVectorMath() {
#if !defined(__x86_64__)
  return false;
#endif
  return *mlir::stride::vectorMathLibrary() != '\0';
}

TEST(VectorMath, Avx512HostsInlineStridesVariants) {
  if (!hasVectorMath())
    GTEST_SKIP() << "no libmvec (or not x86-64): math stays scalar";
  std::string ir =
      optimizeFor("skylake-avx512",
                  "+avx,+avx2,+fma,+avx512f,+avx512dq,+avx512vl,+avx512bw");
  ASSERT_FALSE(ir.empty());
  // The fast paths are inlined: only their cold scalar fallbacks are left
  // as functions, and no vector call of sin, log or tanhf.
  EXPECT_TRUE(calls(ir, "@scalarSin8")) << ir;
  // log's AVX-512 body reduces by vgetmantpd, which returns libm's results
  // for the special arguments: no fallback.
  EXPECT_TRUE(calls(ir, "@llvm.x86.avx512.mask.getmant.pd.512")) << ir;
  EXPECT_FALSE(calls(ir, "@scalarLog8")) << ir;
  EXPECT_EQ(ir.find("@stride_vm_"), std::string::npos) << ir;
  EXPECT_FALSE(calls(ir, "v_sin")) << ir;
  EXPECT_FALSE(calls(ir, "v_log")) << ir;
  EXPECT_FALSE(calls(ir, "v_tanhf")) << ir;
  // pow and asinh are Stride's own on AVX-512 hosts (table reads by
  // permutes).
  EXPECT_TRUE(calls(ir, "@scalarPow8")) << ir;
  EXPECT_FALSE(calls(ir, "vv_pow")) << ir;
  EXPECT_TRUE(calls(ir, "@scalarAsinh8")) << ir;
  EXPECT_FALSE(calls(ir, "v_asinh")) << ir;
}

TEST(VectorMath, TanhLoopsInterleaveTwoCopies) {
  if (!hasVectorMath())
    GTEST_SKIP() << "no libmvec (or not x86-64): math stays scalar";
  // tanh's loop gets two interleaved copies; exp's keeps the vectorizer's
  // choice.
  std::string loops = unaryLoop("tanh") + unaryLoop("exp");
  std::string ir = optimizeFor(
      "znver4", "+avx,+avx2,+fma,+avx512f,+avx512dq,+avx512vl,+avx512bw",
      loops.c_str());
  ASSERT_FALSE(ir.empty());
  auto body = [&](const std::string &name) {
    size_t start = ir.find("define void @" + name);
    EXPECT_NE(start, std::string::npos) << ir;
    return ir.substr(start, ir.find("\n}\n", start) - start);
  };
  auto count = [](const std::string &text, const std::string &what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos;
         at = text.find(what, at + 1))
      ++n;
    return n;
  };
  // float64 tanh divides once a vector ((d - 2) / d): one division per
  // interleaved copy of 8 lanes.
  EXPECT_EQ(count(body("tanh_loop"), "fdiv <8 x double>"), 2u) << ir;
  // exp keeps more copies: its loop's stores of 8 lanes outnumber two.
  EXPECT_GT(count(body("exp_loop"), "store <8 x double>"), 2u) << ir;
}

TEST(VectorMath, Avx2HostsInlineTheFourLaneVariants) {
  if (!hasVectorMath())
    GTEST_SKIP() << "no libmvec (or not x86-64): math stays scalar";
  std::string ir = optimizeFor("haswell", "+avx,+avx2,+fma");
  ASSERT_FALSE(ir.empty());
  EXPECT_TRUE(calls(ir, "@scalarSin4")) << ir;
  EXPECT_TRUE(calls(ir, "@scalarLog4")) << ir;
  EXPECT_EQ(ir.find("@stride_vm_"), std::string::npos) << ir;
  EXPECT_FALSE(calls(ir, "v_sin")) << ir;
  // pow keeps libmvec's AVX2 variant: Stride's reads tables by AVX-512
  // permutes.
  EXPECT_TRUE(calls(ir, "@_ZGVdN4vv_pow")) << ir;
  EXPECT_FALSE(calls(ir, "@scalarPow4")) << ir;
  EXPECT_TRUE(calls(ir, "@_ZGVdN4v_asinh")) << ir;
  // (tanhf shares the loop with doubles, which make it 4 lanes wide here:
  // SSE's libmvec variant, as Stride has 8- and 16-lane float variants.)
  // No 512-bit vectors on an AVX2 host.
  EXPECT_EQ(ir.find("<8 x double>"), std::string::npos) << ir;
}

TEST(VectorMath, HostsWithoutFmaKeepLibmvec) {
  if (!hasVectorMath())
    GTEST_SKIP() << "no libmvec (or not x86-64): math stays scalar";
  std::string ir = optimizeFor("x86-64", "");
  ASSERT_FALSE(ir.empty());
  EXPECT_EQ(ir.find("@scalarSin"), std::string::npos) << ir;
  EXPECT_TRUE(calls(ir, "@_ZGVbN2v_sin")) << ir;
}
TEST(VectorMath, Avx512HostsDivideIntegersThroughFloat64) {
  if (!hasVectorMath())
    GTEST_SKIP() << "no libmvec (or not x86-64): math stays scalar";
  std::string ir = optimizeFor(
      "skylake-avx512",
      "+avx,+avx2,+fma,+avx512f,+avx512dq,+avx512vl,+avx512bw", kDivisions);
  ASSERT_FALSE(ir.empty());
  // One division for both results, in float64 lanes, inlined; vectors
  // with a lane at or beyond 2^53 take the float64 estimate and integer
  // corrections, in vector lanes too (its unsigned conversions and the
  // 64-bit products). (This CPU prefers 256-bit vectors: 4 lanes.)
  EXPECT_NE(ir.find("fdiv <4 x double>"), std::string::npos) << ir;
  EXPECT_NE(ir.find("uitofp <4 x i64>"), std::string::npos) << ir;
  EXPECT_NE(ir.find("mul <4 x i64>"), std::string::npos) << ir;
  // Nothing divides by idiv.
  size_t body = ir.find("define void @divisions");
  ASSERT_NE(body, std::string::npos) << ir;
  std::string loop = ir.substr(body, ir.find("\n}\n", body) - body);
  EXPECT_EQ(loop.find("= sdiv"), std::string::npos) << ir;
  EXPECT_EQ(loop.find("= srem"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("@stride_vm_"), std::string::npos) << ir;
}

TEST(VectorMath, Avx512HostsDivideUnsignedIntegersThroughFloat64) {
  if (!hasVectorMath())
    GTEST_SKIP() << "no libmvec (or not x86-64): math stays scalar";
  // kDivisions with uint64's udiv and urem.
  std::string loops = kDivisions;
  for (auto [from, to] :
       {std::pair<std::string, std::string>{"sdiv", "udiv"}, {"srem", "urem"}})
    loops.replace(loops.find(from), from.size(), to);
  std::string ir = optimizeFor(
      "znver4", "+avx,+avx2,+fma,+avx512f,+avx512dq,+avx512vl,+avx512bw",
      loops.c_str());
  ASSERT_FALSE(ir.empty());
  EXPECT_NE(ir.find("fdiv <8 x double>"), std::string::npos) << ir;
  EXPECT_NE(ir.find("uitofp <8 x i64>"), std::string::npos) << ir;
  size_t body = ir.find("define void @divisions");
  ASSERT_NE(body, std::string::npos) << ir;
  std::string loop = ir.substr(body, ir.find("\n}\n", body) - body);
  EXPECT_EQ(loop.find("= udiv"), std::string::npos) << ir;
  EXPECT_EQ(loop.find("= urem"), std::string::npos) << ir;
}

/// kDivisions with the divisor an argument (one for the whole loop), or a
/// constant when `divisor` names one.
std::string invariantDivisions(const std::string &divisor,
                               const std::string &division) {
  std::string loops = kDivisions;
  loops.replace(loops.find("ptr noalias %r)"), 15, "ptr noalias %r, i64 %k)");
  for (const char *op : {"sdiv i64 %vx, %vy", "srem i64 %vx, %vy"}) {
    std::string to =
        std::string(op).replace(std::string(op).find("%vy"), 3, divisor);
    if (division == "u")
      to = "u" + to.substr(1);
    loops.replace(loops.find(op), std::string(op).size(), to);
  }
  return loops;
}

TEST(VectorMath, Avx512HostsDivideByLoopInvariantInt64WithMagicNumbers) {
  if (!hasVectorMath())
    GTEST_SKIP() << "no libmvec (or not x86-64): math stays scalar";
  const char *features =
      "+avx,+avx2,+fma,+avx512f,+avx512dq,+avx512vl,+avx512bw";
  for (const char *division : {"s", "u"}) {
    std::string ir = optimizeFor("znver4", features,
                                 invariantDivisions("%k", division).c_str());
    ASSERT_FALSE(ir.empty());
    size_t body = ir.find("define void @divisions");
    ASSERT_NE(body, std::string::npos) << ir;
    std::string loop = ir.substr(body, ir.find("\n}\n", body) - body);
    // The magic number once (its long division inlined: ctlz of |k|), the
    // quotient in vector lanes from 32-bit products; no division left.
    EXPECT_NE(loop.find("@llvm.ctlz.i64"), std::string::npos) << ir;
    EXPECT_TRUE(loop.find("mul <8 x i64>") != std::string::npos ||
                loop.find("mul nuw <8 x i64>") != std::string::npos)
        << ir;
    EXPECT_EQ(loop.find("i128"), std::string::npos) << ir;
    EXPECT_EQ(loop.find("div i64"), std::string::npos) << ir;
    EXPECT_EQ(loop.find("rem i64"), std::string::npos) << ir;
    EXPECT_EQ(ir.find("@stride_vm_"), std::string::npos) << ir;
  }
  // A signed constant: its magic number's halves, 7's here.
  std::string ir =
      optimizeFor("znver4", features, invariantDivisions("7", "s").c_str());
  EXPECT_NE(ir.find("splat (i64 613566757)"), std::string::npos) << ir;
  EXPECT_NE(ir.find("splat (i64 1227133513)"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("sdiv"), std::string::npos) << ir;
}

TEST(VectorMath, Avx2HostsKeepIntegerDivision) {
  if (!hasVectorMath())
    GTEST_SKIP() << "no libmvec (or not x86-64): math stays scalar";
  // AVX2 has no int64 <-> float64 conversions.
  std::string ir = optimizeFor("haswell", "+avx,+avx2,+fma", kDivisions);
  ASSERT_FALSE(ir.empty());
  EXPECT_EQ(ir.find("@stride_vm_"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("fdiv"), std::string::npos) << ir;
  EXPECT_NE(ir.find("sdiv"), std::string::npos) << ir;
}
} // namespace
