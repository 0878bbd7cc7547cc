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

/// The dense row-major block of row-major `full` that `rank` of `grid`
/// holds when grid axis a splits dim split[a] (-1: none; see
/// stride/Support/GridShape.h). Precondition: the blocks divide the dims.
Array takeBlock(const Array &full, const std::vector<int64_t> &split,
                const std::vector<int64_t> &grid, int64_t rank);
/// Writes `block` into `full` where takeBlock would have taken it.
void putBlock(Array &full, const Array &block,
              const std::vector<int64_t> &split,
              const std::vector<int64_t> &grid, int64_t rank);

/// One parameter of a distributed entry, in its global (single-process)
/// form: the caller's static shape and strides, and the split dim (-1:
/// replicated). The same record as a library's global parameters, so that
/// stride-exec hands those over as they are.
using DistributedParam = AotParam;

/// A communicator of `size` ranks laid out as `grid` (row-major; its
/// product is `size`); this process is `rank`.
struct Ranks {
  const ::stride::mpi::Runtime &mpi;
  int rank, size;
  std::vector<int64_t> grid;
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
