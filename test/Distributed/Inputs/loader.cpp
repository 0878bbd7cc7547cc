// Loads the Stride MPI runtime through StrideMpiLoader (runtime/mpi/
// MpiLoader.h), as stride-run does, and uses it: rank 0 prints the variant,
// the library path and MPI's version line; every rank takes part in a
// broadcast; the kernel-side symbols must be visible process-wide
// (RTLD_GLOBAL) for a JIT.
#include "MpiLoader.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <string>

int main() {
  namespace mpi = stride::mpi;
  std::printf("detected: %s\n", mpi::variantName(mpi::detectVariant()));
  std::fflush(stdout);
  std::string error;
  if (!mpi::loadRuntime(error)) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    return 1;
  }
  if (!mpi::loadRuntime(error) || !mpi::isLoaded()) {
    std::fprintf(stderr, "error: a second loadRuntime failed\n");
    return 1;
  }
  const mpi::Runtime &rt = mpi::runtime();
  if (rt.init() != 0)
    return 1;
  int rank = rt.rank(), size = rt.size();
  long long value = rank == 0 ? 1234567890123LL : 0;
  if (rt.bcast(&value, sizeof value, 0) != 0 || value != 1234567890123LL) {
    std::fprintf(stderr, "rank %d: bcast failed\n", rank);
    rt.abort(2);
  }
  bool global = ::dlsym(RTLD_DEFAULT, "stride_mpi_allreduce") != nullptr &&
                ::dlsym(RTLD_DEFAULT, "stride_mpi_alltoall") != nullptr &&
                mpi::lookup("stride_mpi_allgather") != nullptr;
  if (rank == 0) {
    std::printf("loaded: %s\n", mpi::variantName(mpi::loadedVariant()));
    std::printf("path: %s\n", mpi::libraryPath().c_str());
    std::printf("library: %s\n", rt.library());
    std::printf("ranks: %d\n", size);
    std::printf("kernel symbols global: %s\n", global ? "yes" : "no");
  }
  return rt.finalize();
}
