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
int64_t stride_vm_sdiv_by_i64(int64_t x, int64_t y, int64_t magic, int64_t mlo,
                              int64_t mhi, int64_t shift) {
  (void)magic;
  (void)mlo;
  (void)mhi;
  (void)shift;
  return x / y;
}

// floor(2^(64 + shift) / d) and its remainder, for 2^shift < d, by
// restoring long division of the 128-bit dividend, 64 steps: a kernel must
// not need libgcc's __udivti3.
static uint64_t divideWide(int shift, uint64_t d, uint64_t *remainder) {
  uint64_t rem = (uint64_t)1 << shift, quot = 0;
  for (int i = 0; i < 64; ++i) {
    uint64_t carry = rem >> 63;
    rem <<= 1;
    quot <<= 1;
    if (carry || rem >= d) {
      rem -= d;
      quot |= 1;
    }
  }
  *remainder = rem;
  return quot;
}

// The magic numbers of branch-free 64-bit divisions by a divisor d that a
// loop holds fixed but only the run knows (the kernel optimizer's
// prepareInvariantDivisor, once before the loop), as libdivide defines
// them: 2 floor(2^(64 + shift) / d) + 1, plus one more where the doubled
// remainder reaches d, modulo 2^64, with shift = L - 1 for signed and L
// for unsigned divisions (L = floor(log2 d), d not a power of two); 0
// marks a power of two (and 0 and 1, which the callers handle themselves).
static uint64_t magicOf(uint64_t d, int less) {
  if ((d & (d - 1)) == 0)
    return 0;
  uint64_t rem;
  uint64_t quot = divideWide(63 - __builtin_clzll(d) - less, d, &rem);
  uint64_t magic = quot + quot, twiceRem = rem + rem;
  if (twiceRem >= d || twiceRem < rem)
    magic += 1;
  return magic + 1;
}

int64_t stride_vm_sdiv_magic_i64(int64_t d) {
  return (int64_t)magicOf(d < 0 ? 0 - (uint64_t)d : (uint64_t)d, 1);
}

int64_t stride_vm_udiv_magic_u64(int64_t d) {
  return (int64_t)magicOf((uint64_t)d, 0);
}

int64_t stride_vm_udiv_u64(int64_t x, int64_t y) {
  return (int64_t)((uint64_t)x / (uint64_t)y);
}
int32_t stride_vm_sdiv_i32(int32_t x, int32_t y) { return x / y; }
