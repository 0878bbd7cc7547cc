//===- MpiLoader.h - Loads the Stride MPI runtime at run time --*- C++ -*-===//
//
// A runner links no MPI: it dlopens the build of the Stride MPI runtime
// (runtime/mpi/StrideMpi.c) that matches the launcher it was started by,
// libstride_mpi_openmpi.so under OpenMPI's mpirun, libstride_mpi_mpich.so
// under MPICH's (hydra). The library is opened RTLD_NOW | RTLD_GLOBAL, so a
// JIT resolving through the process (dlsym(RTLD_DEFAULT, ...)) finds the
// kernel-side stride_mpi_* functions. See docs/distributed-runtime.md.
//
// Rules, in order:
//   $STRIDE_MPI_LIBRARY  a path: that library, whatever the launcher;
//   $OMPI_COMM_WORLD_SIZE set: the OpenMPI build;
//   $PMI_RANK set: the MPICH build;
//   otherwise an error (not started by mpirun).
// The library is looked for in <dir of /proc/self/exe>/../lib, the build
// tree's lib/ and the install prefix's lib/, in that order.
//
// Needs only libdl; no MPI headers or libraries. Not thread-safe: load once,
// early, from one thread.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_RUNTIME_MPI_MPILOADER_H
#define STRIDE_RUNTIME_MPI_MPILOADER_H

#include <cstdint>
#include <string>
#include <vector>

namespace stride {
namespace mpi {

/// The host-side functions of StrideMpi.h, resolved from the loaded library.
struct Runtime {
  int (*init)(void);
  int (*finalize)(void);
  int (*rank)(void);
  int (*size)(void);
  void (*abort)(int code);
  int (*barrier)(void);
  int (*send)(const void *buf, int64_t bytes, int dest, int tag);
  int (*recv)(void *buf, int64_t bytes, int src, int tag);
  int (*bcast)(void *buf, int64_t bytes, int root);
  const char *(*library)(void);
};

/// Which build of the runtime the environment asks for.
enum class Variant { None, OpenMPI, MPICH, Override };

/// The variant the environment selects (None when not under a launcher and
/// $STRIDE_MPI_LIBRARY is unset). Loads nothing.
Variant detectVariant();
/// "OpenMPI", "MPICH", "$STRIDE_MPI_LIBRARY" or "none".
const char *variantName(Variant variant);
/// The library file name of a variant, e.g. "libstride_mpi_openmpi.so"
/// (empty for None and Override).
std::string variantLibraryName(Variant variant);
/// The paths tried for a variant, in order (just $STRIDE_MPI_LIBRARY for
/// Override).
std::vector<std::string> candidatePaths(Variant variant);

/// Loads the runtime the environment selects and resolves every host-side
/// function. Returns false with a message naming the variant and the paths
/// tried. Idempotent: once loaded, returns true.
bool loadRuntime(std::string &error);
/// Whether loadRuntime succeeded.
bool isLoaded();
/// The loaded functions; only valid after loadRuntime succeeded.
const Runtime &runtime();
/// The path of the loaded library; empty before loadRuntime succeeded.
std::string libraryPath();
/// The variant loaded (None before loadRuntime succeeded).
Variant loadedVariant();
/// dlsym in the loaded library (e.g. a kernel-side stride_mpi_* function for
/// a JIT symbol map); nullptr when not loaded or not found.
void *lookup(const char *symbol);

/// This process's part of an mpirun job, as stride-run --distribute and
/// stride-exec start one: loads the runtime, calls MPI_Init and checks the
/// job's size; MPI_Finalize when it is destroyed.
class Job {
public:
  /// `who` heads the error messages ("--distribute 2", "@main (compiled
  /// for 2 ranks)").
  Job(int expectedRanks, const std::string &who);
  ~Job();
  Job(const Job &) = delete;
  Job &operator=(const Job &) = delete;

  /// Empty when this process runs in a job of `expectedRanks` ranks; else
  /// why not: `<who>: <why the runtime did not load>`, `<who>: MPI_Init
  /// failed` or `<who> needs N processes, but mpirun started M (rank R)`.
  const std::string &error() const { return error_; }
  /// This process's rank and the job's size, once MPI_Init succeeded.
  int rank() const { return rank_; }
  int size() const { return size_; }

private:
  std::string error_;
  bool initialized_ = false;
  int rank_ = -1, size_ = 0;
};

} // namespace mpi
} // namespace stride

#endif // STRIDE_RUNTIME_MPI_MPILOADER_H
