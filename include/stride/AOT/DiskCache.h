//===- DiskCache.h - Compiled kernels kept on disk --------------*- C++ -*-===//
//
// A kernel compiled once is kept as the shared library stride-compile would
// write (machine code plus its layout metadata), named by a key the caller
// derives from everything that decides the code. A later process loads it
// instead of compiling. Every failure of the cache (a missing, truncated,
// corrupted or foreign file; a directory that cannot be written; two
// processes writing at once) ends in a correct kernel: loaded, recompiled,
// or compiled in memory only.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_AOT_DISKCACHE_H
#define STRIDE_AOT_DISKCACHE_H

#include "stride/AOT/AotCompiler.h"
#include "stride/Driver/JitKernel.h"

#include <memory>
#include <string>

namespace mlir::stride {

/// What the cache did for one kernel.
enum class DiskCacheOutcome {
  Hit,        // loaded from the file
  Written,    // compiled, written and loaded
  Replaced,   // the file was unusable (truncated, corrupt, another
              // kernel's): recompiled and rewritten
  Unwritable, // compiled in memory; the file could not be written
};

/// The prefix of the exported symbols of the cache file of `key`.
std::string diskCacheSymbolPrefix(StringRef key);

/// "hit", "written", "replaced", "unwritable".
const char *diskCacheOutcomeName(DiskCacheOutcome outcome);

struct DiskCacheResult {
  std::unique_ptr<JitKernel> kernel;
  DiskCacheOutcome outcome = DiskCacheOutcome::Unwritable;
  /// Why a file was replaced or could not be written (for cache_info).
  std::string note;
};

/// The kernel of `entry` of `module`, whose tensor arguments are specialized
/// to static shapes and strides, through the cache file `<dir>/<key>.so`.
/// A file is used only if it loads, its metadata parses and it declares
/// `entry` with exactly these argument types. Null kernel with `error` only
/// when the program itself does not compile.
DiskCacheResult compileWithDiskCache(ModuleOp module, StringRef entry,
                                     const AotOptions &options,
                                     const std::string &dir,
                                     const std::string &key,
                                     std::string &error);

} // namespace mlir::stride

#endif // STRIDE_AOT_DISKCACHE_H
