//===- MpiLoader.cpp - Loads the Stride MPI runtime at run time -----------===//
//
// See MpiLoader.h.
//
//===----------------------------------------------------------------------===//

#include "MpiLoader.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <sys/stat.h>
#include <type_traits>

#ifndef STRIDE_MPI_BUILD_LIB_DIR
#define STRIDE_MPI_BUILD_LIB_DIR ""
#endif
#ifndef STRIDE_MPI_INSTALL_LIB_DIR
#define STRIDE_MPI_INSTALL_LIB_DIR ""
#endif

namespace stride {
namespace mpi {
namespace {

struct State {
  void *handle = nullptr;
  Runtime runtime{};
  std::string path;
  Variant variant = Variant::None;
};

State &state() {
  static State s;
  return s;
}

const char *env(const char *name) {
  const char *value = std::getenv(name);
  return value && *value ? value : nullptr;
}

bool isFile(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

/// The directory of the running executable, from /proc/self/exe.
std::string executableDir() {
  std::string buf(4096, '\0');
  ssize_t n = ::readlink("/proc/self/exe", &buf[0], buf.size());
  if (n <= 0 || static_cast<size_t>(n) >= buf.size())
    return "";
  buf.resize(static_cast<size_t>(n));
  size_t slash = buf.rfind('/');
  return slash == std::string::npos ? "" : buf.substr(0, slash);
}

void appendUnique(std::vector<std::string> &paths, const std::string &path) {
  for (const std::string &p : paths)
    if (p == path)
      return;
  paths.push_back(path);
}

} // namespace

Variant detectVariant() {
  if (env("STRIDE_MPI_LIBRARY"))
    return Variant::Override;
  // OpenMPI's mpirun (orterun, PMIx) sets OMPI_COMM_WORLD_* and PMIX_*, not
  // PMI_RANK; MPICH's hydra sets PMI_RANK, PMI_SIZE and PMI_FD.
  if (env("OMPI_COMM_WORLD_SIZE"))
    return Variant::OpenMPI;
  if (env("PMI_RANK"))
    return Variant::MPICH;
  return Variant::None;
}

namespace {

/// What the messages and the search say about each variant but None.
struct VariantInfo {
  Variant variant;
  const char *name;
  const char *library; // the file it is built as (Override: none)
  const char *builtBy; // what CMake must find to build it (Override: none)
};

constexpr VariantInfo kVariants[] = {
    {Variant::OpenMPI, "OpenMPI", "libstride_mpi_openmpi.so",
     "OpenMPI's mpicc"},
    {Variant::MPICH, "MPICH", "libstride_mpi_mpich.so", "MPICH's mpicc.mpich"},
    {Variant::Override, "$STRIDE_MPI_LIBRARY", "", ""},
};

const VariantInfo *infoOf(Variant variant) {
  for (const VariantInfo &info : kVariants)
    if (info.variant == variant)
      return &info;
  return nullptr;
}

} // namespace

const char *variantName(Variant variant) {
  const VariantInfo *info = infoOf(variant);
  return info ? info->name : "none";
}

std::string variantLibraryName(Variant variant) {
  const VariantInfo *info = infoOf(variant);
  return info ? info->library : "";
}

std::vector<std::string> candidatePaths(Variant variant) {
  std::vector<std::string> paths;
  if (variant == Variant::Override) {
    if (const char *path = env("STRIDE_MPI_LIBRARY"))
      paths.push_back(path);
    return paths;
  }
  std::string name = variantLibraryName(variant);
  if (name.empty())
    return paths;
  std::string exeDir = executableDir();
  if (!exeDir.empty())
    appendUnique(paths, exeDir + "/../lib/" + name);
  for (const char *dir : {STRIDE_MPI_BUILD_LIB_DIR, STRIDE_MPI_INSTALL_LIB_DIR})
    if (*dir)
      appendUnique(paths, std::string(dir) + "/" + name);
  return paths;
}

bool loadRuntime(std::string &error) {
  State &s = state();
  if (s.handle)
    return true;
  Variant variant = detectVariant();
  if (variant == Variant::None) {
    error = "not started by mpirun (neither OMPI_COMM_WORLD_SIZE nor "
            "PMI_RANK is set); set STRIDE_MPI_LIBRARY to a Stride MPI "
            "runtime library to choose one";
    return false;
  }

  std::vector<std::string> paths = candidatePaths(variant);
  std::string tried;
  void *handle = nullptr;
  std::string path;
  for (const std::string &candidate : paths) {
    if (!tried.empty())
      tried += ", ";
    tried += candidate;
    // $STRIDE_MPI_LIBRARY may name a library on the loader's search path.
    if (variant != Variant::Override && !isFile(candidate))
      continue;
    handle = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (!handle) {
      const char *why = ::dlerror();
      error = std::string("cannot load the ") + variantName(variant) +
              " Stride MPI runtime " + candidate + ": " +
              (why ? why : "unknown dlopen error");
      return false;
    }
    path = candidate;
    break;
  }
  if (!handle) {
    error = std::string("no ") + variantName(variant) +
            " Stride MPI runtime found (tried " + tried +
            "); it is built when CMake finds " + infoOf(variant)->builtBy;
    return false;
  }

  Runtime rt{};
  std::string missing;
  auto resolve = [&](auto &fn, const char *name) {
    void *sym = ::dlsym(handle, name);
    if (!sym)
      missing += missing.empty() ? name : std::string(", ") + name;
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(sym);
  };
  resolve(rt.init, "stride_mpi_init");
  resolve(rt.finalize, "stride_mpi_finalize");
  resolve(rt.rank, "stride_mpi_rank");
  resolve(rt.size, "stride_mpi_size");
  resolve(rt.abort, "stride_mpi_abort");
  resolve(rt.barrier, "stride_mpi_barrier");
  resolve(rt.send, "stride_mpi_send");
  resolve(rt.recv, "stride_mpi_recv");
  resolve(rt.bcast, "stride_mpi_bcast");
  resolve(rt.library, "stride_mpi_library");
  if (!missing.empty()) {
    error = std::string("the ") + variantName(variant) +
            " Stride MPI runtime " + path + " lacks " + missing;
    ::dlclose(handle);
    return false;
  }
  s.handle = handle;
  s.runtime = rt;
  s.path = path;
  s.variant = variant;
  return true;
}

bool isLoaded() { return state().handle != nullptr; }

const Runtime &runtime() { return state().runtime; }

std::string libraryPath() { return state().path; }

Variant loadedVariant() { return state().variant; }

void *lookup(const char *symbol) {
  void *handle = state().handle;
  return handle ? ::dlsym(handle, symbol) : nullptr;
}

Job::Job(int expectedRanks, const std::string &who) {
  std::string loadError;
  if (!loadRuntime(loadError)) {
    error_ = who + ": " + loadError;
    return;
  }
  if (runtime().init() != 0) {
    error_ = who + ": MPI_Init failed";
    return;
  }
  initialized_ = true;
  rank_ = runtime().rank();
  size_ = runtime().size();
  if (size_ != expectedRanks)
    error_ = who + " needs " + std::to_string(expectedRanks) +
             " processes, but mpirun started " + std::to_string(size_) +
             " (rank " + std::to_string(rank_) + ")";
}

Job::~Job() {
  if (initialized_)
    runtime().finalize();
}

} // namespace mpi
} // namespace stride
