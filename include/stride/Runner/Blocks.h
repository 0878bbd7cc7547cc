//===- Blocks.h - Even blocks of C-order arrays along one dim ---*- C++ -*-===//
//
// A distributed run hands rank r the r-th of N equal blocks of an array
// along its split dim, as a dense C-order array, and assembles results from
// such blocks. Sizes are checked by stride-distribute (the dim divides N).
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_RUNNER_BLOCKS_H
#define STRIDE_RUNNER_BLOCKS_H

#include "stride/Runtime/Npy.h"

namespace stride::runtime {

/// Block `r` of `n` along `dim` of `full` (C order). Precondition:
/// full.shape[dim] % n == 0 and 0 <= r < n.
Array takeBlock(const Array &full, int64_t dim, int64_t r, int64_t n);

/// Writes `block` as block `r` of `n` along `dim` into `full`.
void putBlock(Array &full, const Array &block, int64_t dim, int64_t r,
              int64_t n);

} // namespace stride::runtime

#endif // STRIDE_RUNNER_BLOCKS_H
