/* The Stride MPI runtime: a plain C interface over MPI.
 *
 * Nothing of MPI appears here (only int, int64_t and pointers), so one header
 * serves both builds of the runtime, libstride_mpi_openmpi.so and
 * libstride_mpi_mpich.so, which are compiled from the same StrideMpi.c with
 * each implementation's compiler wrapper (the two MPIs have different ABIs).
 * See docs/distributed-runtime.md.
 *
 * Host side: called by a runner or a C program. Every function but
 * stride_mpi_library requires stride_mpi_init to have succeeded. Failures are
 * reported on stderr ("stride-mpi: <function>: ...") and returned as nonzero.
 *
 * Kernel side: called from MLIR-generated code. A memref argument is an
 * unranked memref lowered to two scalars, (int64_t rank, void *desc), desc
 * pointing at the ranked descriptor
 *   { T *allocated; T *aligned; int64_t offset;
 *     int64_t sizes[rank]; int64_t strides[rank]; }
 * (rank <= 16; strides in elements, any value including 0 and negative).
 * These functions are collective over MPI_COMM_WORLD: every rank calls them
 * in the same order with the same shapes. A shape that does not fit, an
 * invalid code or a failing MPI call prints "stride-mpi: <function>: ..." on
 * stderr and ends the whole job with MPI_Abort(MPI_COMM_WORLD, 1).
 */
#ifndef STRIDE_MPI_H
#define STRIDE_MPI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define STRIDE_MPI_API __attribute__((visibility("default")))
#else
#define STRIDE_MPI_API
#endif

/* Element types (the dtype argument). STRIDE_MPI_I1 is a bool stored as one
 * byte holding 0 or 1. */
enum {
  STRIDE_MPI_F32 = 0,
  STRIDE_MPI_F64 = 1,
  STRIDE_MPI_I32 = 2,
  STRIDE_MPI_I64 = 3,
  STRIDE_MPI_I1 = 4
};

/* Reductions (the kind argument). On STRIDE_MPI_I1, MIN is logical and, MAX
 * logical or; SUM and PRODUCT are errors. On floats, MIN and MAX propagate
 * NaN (like numpy.minimum/numpy.maximum). */
enum {
  STRIDE_MPI_SUM = 0,
  STRIDE_MPI_PRODUCT = 1,
  STRIDE_MPI_MIN = 2,
  STRIDE_MPI_MAX = 3
};

/* The largest rank of a memref the kernel-side functions accept. */
#define STRIDE_MPI_MAX_RANK 16

/* ---- Host side ---------------------------------------------------------- */

/* Initializes MPI (unless the program already did) and the runtime's own
 * communicator, a duplicate of MPI_COMM_WORLD. Idempotent. 0 on success. */
STRIDE_MPI_API int stride_mpi_init(void);
/* Frees the runtime's communicator and finalizes MPI if stride_mpi_init
 * initialized it. 0 on success (also when there is nothing to do). */
STRIDE_MPI_API int stride_mpi_finalize(void);
/* This process's rank and the number of ranks; -1 before stride_mpi_init. */
STRIDE_MPI_API int stride_mpi_rank(void);
STRIDE_MPI_API int stride_mpi_size(void);
/* Ends every rank of the job with `code` (MPI_Abort on MPI_COMM_WORLD; exit
 * when MPI is not initialized). Does not return. */
STRIDE_MPI_API void stride_mpi_abort(int code);
STRIDE_MPI_API int stride_mpi_barrier(void);
/* Point-to-point and broadcast of raw bytes. Byte counts may exceed INT_MAX
 * (they are sent in several messages); sender and receiver must agree on the
 * count. recv fails when a message is shorter than expected. */
STRIDE_MPI_API int stride_mpi_send(const void *buf, int64_t bytes, int dest,
                                   int tag);
STRIDE_MPI_API int stride_mpi_recv(void *buf, int64_t bytes, int src, int tag);
STRIDE_MPI_API int stride_mpi_bcast(void *buf, int64_t bytes, int root);
/* The first line of MPI_Get_library_version (works before init), e.g.
 * "Open MPI v4.1.4, ..." or "MPICH Version: 4.0.2". Static storage. */
STRIDE_MPI_API const char *stride_mpi_library(void);

/* ---- Kernel side -------------------------------------------------------- */

STRIDE_MPI_API int32_t stride_mpi_comm_rank(void);
STRIDE_MPI_API int32_t stride_mpi_comm_size(void);

/* out = elementwise reduction of every rank's `in`; out has in's shape (its
 * strides may differ). in and out may be the same memref. */
STRIDE_MPI_API void stride_mpi_allreduce(int64_t inRank, void *in,
                                         int64_t outRank, void *out,
                                         int32_t dtype, int32_t kind);
/* out = the ranks' `in` concatenated in rank order along `dim`:
 * out.sizes[dim] == in.sizes[dim] * commSize, the other sizes equal. */
STRIDE_MPI_API void stride_mpi_allgather(int64_t inRank, void *in,
                                         int64_t outRank, void *out,
                                         int32_t dtype, int64_t dim);
/* MLIR's shard.all_to_all: every rank splits `in` along splitDim into
 * commSize equal pieces and sends piece j to rank j; the received pieces,
 * in rank order, are concatenated along concatDim into `out`:
 * out.sizes[splitDim] == in.sizes[splitDim] / commSize, then
 * out.sizes[concatDim] == (that size along concatDim) * commSize. */
STRIDE_MPI_API void stride_mpi_alltoall(int64_t inRank, void *in,
                                        int64_t outRank, void *out,
                                        int32_t dtype, int64_t splitDim,
                                        int64_t concatDim);

/* ---- Process groups of a grid --------------------------------------------
 * A grid of g0 x g1 x ... ranks (up to 4 dims; a 0 ends the list) whose
 * product is the job's size puts rank r at the row-major coordinates of r
 * (the last dim fastest), as MLIR's shard.process_multi_index does.
 * stride_mpi_grid_group returns a handle (>= 1) to the ranks that share
 * this rank's coordinates on every grid axis outside `axes`, ordered by
 * their coordinates along `axes`, the first listed axis major (shard's
 * grid_axes order). `axes` lists axes in 4-bit nibbles, from the lowest:
 * axis + 1, then 0 (axes [1] is 0x2, axes [0, 1] is 0x21). Collective over
 * all ranks the first time a (grid, axes) pair is asked for; cached after.
 * Handle 0 means all ranks. The _group collectives run over a handle's
 * ranks; "rank order" and "commSize" above then mean the group's. */
STRIDE_MPI_API int32_t stride_mpi_grid_group(int64_t g0, int64_t g1, int64_t g2,
                                             int64_t g3, int64_t axes);
STRIDE_MPI_API void stride_mpi_allreduce_group(int64_t inRank, void *in,
                                               int64_t outRank, void *out,
                                               int32_t dtype, int32_t kind,
                                               int32_t group);
STRIDE_MPI_API void stride_mpi_allgather_group(int64_t inRank, void *in,
                                               int64_t outRank, void *out,
                                               int32_t dtype, int64_t dim,
                                               int32_t group);
STRIDE_MPI_API void stride_mpi_alltoall_group(int64_t inRank, void *in,
                                              int64_t outRank, void *out,
                                              int32_t dtype, int64_t splitDim,
                                              int64_t concatDim, int32_t group);

#ifdef __cplusplus
}
#endif

#endif /* STRIDE_MPI_H */
