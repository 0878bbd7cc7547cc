/*===- StrideMpiTyped.c - One entry point per element type ---------------===*
 *
 * A module declares each function it calls with one MLIR type, and an
 * unranked memref's element type is part of it, so the kernels that
 * convert-shard-to-stride-mpi emits call `stride_mpi_<op>_<type>`; each
 * forwards to the generic function with the type's code (StrideMpi.h).
 *
 *===----------------------------------------------------------------------===*/

#include "StrideMpi.h"

#define STRIDE_MPI_TYPED(suffix, code)                                         \
  STRIDE_MPI_API void stride_mpi_allreduce_##suffix(                           \
      int64_t inRank, void *in, int64_t outRank, void *out, int32_t kind) {    \
    stride_mpi_allreduce(inRank, in, outRank, out, code, kind);                \
  }                                                                            \
  STRIDE_MPI_API void stride_mpi_allgather_##suffix(                           \
      int64_t inRank, void *in, int64_t outRank, void *out, int64_t dim) {     \
    stride_mpi_allgather(inRank, in, outRank, out, code, dim);                 \
  }                                                                            \
  STRIDE_MPI_API void stride_mpi_alltoall_##suffix(                            \
      int64_t inRank, void *in, int64_t outRank, void *out, int64_t splitDim,  \
      int64_t concatDim) {                                                     \
    stride_mpi_alltoall(inRank, in, outRank, out, code, splitDim, concatDim);  \
  }                                                                            \
  STRIDE_MPI_API void stride_mpi_allreduce_group_##suffix(                     \
      int64_t inRank, void *in, int64_t outRank, void *out, int32_t kind,      \
      int32_t group) {                                                         \
    stride_mpi_allreduce_group(inRank, in, outRank, out, code, kind, group);   \
  }                                                                            \
  STRIDE_MPI_API void stride_mpi_allgather_group_##suffix(                     \
      int64_t inRank, void *in, int64_t outRank, void *out, int64_t dim,       \
      int32_t group) {                                                         \
    stride_mpi_allgather_group(inRank, in, outRank, out, code, dim, group);    \
  }                                                                            \
  STRIDE_MPI_API void stride_mpi_alltoall_group_##suffix(                      \
      int64_t inRank, void *in, int64_t outRank, void *out, int64_t splitDim,  \
      int64_t concatDim, int32_t group) {                                      \
    stride_mpi_alltoall_group(inRank, in, outRank, out, code, splitDim,        \
                              concatDim, group);                               \
  }

STRIDE_MPI_TYPED(f32, 0)
STRIDE_MPI_TYPED(f64, 1)
STRIDE_MPI_TYPED(i32, 2)
STRIDE_MPI_TYPED(i64, 3)
STRIDE_MPI_TYPED(i1, 4)
