//===- Distributed.h - Scatter and gather of a distributed call -*- C++ -*-===//
//
// One call of a partitioned kernel under mpirun, as stride-run and
// stride-exec make it: rank 0 holds the caller's arrays; rank r gets block r
// of N along each split argument's split dim as a dense C-order array (a
// replicated argument or a scalar goes to every rank whole); after the call
// rank 0 assembles each split result from the ranks' blocks and lays it out
// in the strides of the single-process run. No LLVM, no MPI: the MPI calls
// come from the loaded Stride MPI runtime (runtime/mpi/MpiLoader.h).
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_RUNTIME_DISTRIBUTED_H
#define STRIDE_RUNTIME_DISTRIBUTED_H

#include "stride/Runtime/AotMetadata.h"
#include "stride/Runtime/RunSteps.h"

#include <string>
#include <vector>

namespace stride::mpi {
struct Runtime;
} // namespace stride::mpi

namespace stride::runtime {

/// Block `r` of `n` along `dim` of `full` (C order). Precondition:
/// full.shape[dim] % n == 0 and 0 <= r < n.
Array takeBlock(const Array &full, int64_t dim, int64_t r, int64_t n);
/// Writes `block` as block `r` of `n` along `dim` into `full`.
void putBlock(Array &full, const Array &block, int64_t dim, int64_t r,
              int64_t n);

/// One parameter of a distributed entry, in its global (single-process)
/// form: the caller's static shape and strides, and the split dim (-1:
/// replicated). The same record as a library's global parameters, so that
/// stride-exec hands those over as they are.
using DistributedParam = AotParam;

/// A communicator of `size` ranks; this process is `rank`.
struct Ranks {
  const ::stride::mpi::Runtime &mpi;
  int rank, size;
};

/// True when `ok` holds on every rank (each rank learns the answer), so a
/// failure on one rank stops them all instead of leaving the others waiting.
bool everyRankOk(const Ranks &ranks, bool ok);

/// Rank 0's `global` arguments (ignored elsewhere) become every rank's
/// `local` ones, each tensor a dense C-order block.
std::string scatterInputs(const Ranks &ranks,
                          const std::vector<DistributedParam> &inputs,
                          std::vector<PreparedArg> &global,
                          std::vector<PreparedArg> &local);

/// Every rank's `local` results become rank 0's `global` ones, in the
/// params' global shapes and strides (other ranks get none).
std::string gatherOutputs(const Ranks &ranks,
                          const std::vector<DistributedParam> &outputs,
                          std::vector<PreparedArg> &local,
                          std::vector<PreparedArg> &global);

} // namespace stride::runtime

#endif // STRIDE_RUNTIME_DISTRIBUTED_H
