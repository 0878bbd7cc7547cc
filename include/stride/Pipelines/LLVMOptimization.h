//===- LLVMOptimization.h - LLVM's O3 for Stride kernels --------*- C++ -*-===//
//
// The LLVM-level optimization the JIT and the ahead-of-time compiler run on
// lowered kernels: LLVM's O3 with the target's vectorization, plus the two
// things it needs to vectorize math functions the way NumPy's SIMD loops
// do. The loop vectorizer widens a call to `sin`/`llvm.sin.f64` only when
// TargetLibraryInfo names a vector variant (glibc's libmvec:
// `_ZGVeN8v_sin`), and only when the call cannot write memory; libm's scalar
// functions are declared as writing `errno`, which Stride's ops never read.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_PIPELINES_LLVMOPTIMIZATION_H
#define STRIDE_PIPELINES_LLVMOPTIMIZATION_H

#include "llvm/Support/Error.h"

#include <functional>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace mlir::stride {

/// The shared library with the vector variants of libm's functions
/// (glibc's libmvec) that kernels optimized with vectorMath call; "" when
/// CMake found none (then the math functions stay scalar).
const char *vectorMathLibrary();

/// LLVM's O3 for `targetMachine`. With `vectorMath` (and a vector math
/// library), libm's math functions (the library functions whose operands
/// and result are all floating point) are marked as not touching memory and
/// TargetLibraryInfo maps them to libmvec's variants, so loops over them
/// vectorize; the JIT then loads vectorMathLibrary(), and shared libraries
/// reach it through libm's linker script.
std::function<llvm::Error(llvm::Module *)>
makeKernelOptimizer(llvm::TargetMachine *targetMachine, bool vectorMath = true);

} // namespace mlir::stride

#endif // STRIDE_PIPELINES_LLVMOPTIMIZATION_H
