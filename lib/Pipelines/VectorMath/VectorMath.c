//===- VectorMath.c - Stride's vector math functions, compiled to bitcode -===//
//
// Vector variants of libm functions that the loop vectorizer calls in place
// of glibc's libmvec (see LLVMOptimization.cpp). clang compiles this file to
// LLVM bitcode at build time; the kernel optimizer links the variants a
// vectorized kernel calls into it after LLVM's O3 and inlines them, so a
// vector loop over sin has no call, no spills of live vectors around one,
// and four interleaved copies of the polynomial to overlap.
//
// The code is generic vector IR (clang's vector extensions): the same
// bitcode serves AVX2 and AVX-512 hosts, which select the lane counts their
// registers hold. The kernel optimizer drops the target attributes clang
// puts here, so the inlined code is compiled for the kernel's target.
//
// Each function takes the rare arguments its reduction does not cover
// (huge, non-finite, subnormal) one lane at a time through libm's scalar
// function, on a branch taken only when some lane needs it.
//
//===----------------------------------------------------------------------===//

#include <math.h>
#include <stdint.h>

#define CAT(a, b) CAT_(a, b)
#define CAT_(a, b) a##b

// AVX-512: 8 doubles or 16 floats a register.
#define LANES 8
#include "VectorMathLanes.inc"
#undef LANES

// AVX2: 4 doubles or 8 floats.
#define LANES 4
#include "VectorMathLanes.inc"
#undef LANES

// The scalar twins of the integer divisions (IntegerDivision.inc), which
// the kernel optimizer calls in place of sdiv so that the loop vectorizer
// maps them to the vector variants; a loop's scalar remainder inlines them
// back into one sdiv.
int64_t stride_vm_sdiv_i64(int64_t x, int64_t y) { return x / y; }
int64_t stride_vm_udiv_u64(int64_t x, int64_t y) {
  return (int64_t)((uint64_t)x / (uint64_t)y);
}
int32_t stride_vm_sdiv_i32(int32_t x, int32_t y) { return x / y; }
