/* Checks the Stride MPI runtime (runtime/mpi/StrideMpi.h) on every rank of
 * an mpirun job: it builds memref descriptors by hand, as MLIR-generated
 * code passes them (unranked: rank + pointer to the ranked descriptor),
 * calls the kernel-side collectives and compares with values computed
 * locally. Rank 0 prints "ok <name>" when no rank saw a mismatch, else
 * "FAIL <name>"; every rank prints its mismatches. Plain C99, no MPI
 * header: it links one build of the runtime (OpenMPI's or MPICH's).
 *
 *   collectives            all checks
 *   collectives <error>    one misuse that must abort the job (see main)
 */
#include "StrideMpi.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXR 8

/* The ranked descriptor of a rank-r memref: sizes in ss[0, r), strides in
 * ss[r, 2r), the layout of MLIR's {ptr, ptr, i64, [r x i64], [r x i64]}. */
typedef struct {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t ss[2 * MAXR];
} Desc;

typedef struct {
  Desc d;
  int rank;
  int32_t dtype;
  char *data;
} Memref;

static int g_rank, g_size, g_mismatches;

static size_t elem_size(int32_t dtype) {
  switch (dtype) {
  case STRIDE_MPI_F32:
  case STRIDE_MPI_I32:
    return 4;
  case STRIDE_MPI_I1:
    return 1;
  default:
    return 8;
  }
}

static const char *dtype_name(int32_t dtype) {
  static const char *const names[] = {"f32", "f64", "i32", "i64", "i1"};
  return names[dtype];
}

/* A memref over `elements` fresh elements (filled with -99) with the given
 * sizes, strides (NULL: row-major) and offset. */
static Memref make(int32_t dtype, int rank, const int64_t *sizes,
                   const int64_t *strides, int64_t offset, int64_t elements);

static void put(const Memref *m, int64_t at, double v) {
  char *p = m->data + at * (int64_t)elem_size(m->dtype);
  switch (m->dtype) {
  case STRIDE_MPI_F32: {
    float x = (float)v;
    memcpy(p, &x, 4);
    break;
  }
  case STRIDE_MPI_F64:
    memcpy(p, &v, 8);
    break;
  case STRIDE_MPI_I32: {
    int32_t x = (int32_t)v;
    memcpy(p, &x, 4);
    break;
  }
  case STRIDE_MPI_I64: {
    int64_t x = (int64_t)v;
    memcpy(p, &x, 8);
    break;
  }
  default:
    *p = (char)(v != 0);
  }
}

static double get(const Memref *m, int64_t at) {
  const char *p = m->data + at * (int64_t)elem_size(m->dtype);
  switch (m->dtype) {
  case STRIDE_MPI_F32: {
    float x;
    memcpy(&x, p, 4);
    return x;
  }
  case STRIDE_MPI_F64: {
    double x;
    memcpy(&x, p, 8);
    return x;
  }
  case STRIDE_MPI_I32: {
    int32_t x;
    memcpy(&x, p, 4);
    return x;
  }
  case STRIDE_MPI_I64: {
    int64_t x;
    memcpy(&x, p, 8);
    return (double)x;
  }
  default:
    return *p;
  }
}

static Memref make(int32_t dtype, int rank, const int64_t *sizes,
                   const int64_t *strides, int64_t offset, int64_t elements) {
  Memref m;
  memset(&m, 0, sizeof m);
  m.rank = rank;
  m.dtype = dtype;
  m.data =
      (char *)malloc((size_t)(elements > 0 ? elements : 1) * elem_size(dtype));
  m.d.allocated = m.d.aligned = m.data;
  m.d.offset = offset;
  int64_t stride = 1;
  for (int i = rank - 1; i >= 0; --i) {
    m.d.ss[i] = sizes[i];
    m.d.ss[rank + i] = strides ? strides[i] : stride;
    stride *= sizes[i];
  }
  for (int64_t i = 0; i < elements; ++i)
    put(&m, i, -99);
  return m;
}

static Memref dense(int32_t dtype, int rank, const int64_t *sizes) {
  int64_t n = 1;
  for (int i = 0; i < rank; ++i)
    n *= sizes[i];
  return make(dtype, rank, sizes, NULL, 0, n);
}

static int64_t count(const Memref *m) {
  int64_t n = 1;
  for (int i = 0; i < m->rank; ++i)
    n *= m->d.ss[i];
  return n;
}

/* Row-major index `flat` -> element index in the memref's storage. */
static int64_t address(const Memref *m, int64_t flat, int64_t *index) {
  int64_t at = m->d.offset;
  for (int i = m->rank - 1; i >= 0; --i) {
    int64_t size = m->d.ss[i];
    index[i] = flat % size;
    flat /= size;
    at += index[i] * m->d.ss[m->rank + i];
  }
  return at;
}

/* The value rank r holds at row-major index `flat` of test `salt`: small
 * integers (exact in every dtype, products of 4 fit in f32), bools for i1. */
static double value(int32_t dtype, int r, int64_t flat, int salt) {
  if (dtype == STRIDE_MPI_I1)
    return (flat % 5 == 0) || ((flat + r + salt) % 4 == 0);
  return (double)((r * 7 + flat * 3 + salt) % 11 - 5);
}

static void fill(const Memref *m, int r, int salt) {
  int64_t index[MAXR];
  for (int64_t f = 0, n = count(m); f < n; ++f)
    put(m, address(m, f, index), value(m->dtype, r, f, salt));
}

static void expect(const char *name, const Memref *m, int64_t flat,
                   double want) {
  int64_t index[MAXR];
  double got = get(m, address(m, flat, index));
  if (got == want || (isnan(got) && isnan(want)))
    return;
  if (g_mismatches++ < 8) {
    printf("rank %d: %s: [", g_rank, name);
    for (int i = 0; i < m->rank; ++i)
      printf(i ? ",%lld" : "%lld", (long long)index[i]);
    printf("] is %g, expected %g\n", got, want);
    fflush(stdout);
  }
}

/* Rank 0 collects every rank's mismatch count (host-side send/recv, not the
 * collectives under test) and prints the verdict. */
static void verdict(const char *name) {
  int mine = g_mismatches, total = mine;
  g_mismatches = 0;
  if (g_rank == 0) {
    for (int r = 1; r < g_size; ++r) {
      int theirs = 0;
      if (stride_mpi_recv(&theirs, sizeof theirs, r, 1))
        stride_mpi_abort(3);
      total += theirs;
    }
    if (total)
      printf("FAIL %s (%d mismatches)\n", name, total);
    else
      printf("ok %s\n", name);
    fflush(stdout);
  } else if (stride_mpi_send(&mine, sizeof mine, 0, 1)) {
    stride_mpi_abort(3);
  }
}

static void release(Memref *m) { free(m->data); }

/* ---- allreduce ----------------------------------------------------------- */

static double combine(int32_t dtype, int kind, double a, double b) {
  if (dtype == STRIDE_MPI_I1)
    return kind == STRIDE_MPI_MIN ? (a && b) : (a || b);
  switch (kind) {
  case STRIDE_MPI_SUM:
    return a + b;
  case STRIDE_MPI_PRODUCT:
    return a * b;
  case STRIDE_MPI_MIN:
    return isnan(a) || isnan(b) ? NAN : a < b ? a : b;
  default:
    return isnan(a) || isnan(b) ? NAN : a > b ? a : b;
  }
}

static double reduced(int32_t dtype, int kind, int64_t flat, int salt) {
  double acc = value(dtype, 0, flat, salt);
  for (int r = 1; r < g_size; ++r)
    acc = combine(dtype, kind, acc, value(dtype, r, flat, salt));
  return acc;
}

static void check_reduced(const char *name, const Memref *out, int kind,
                          int salt) {
  for (int64_t f = 0, n = count(out); f < n; ++f)
    expect(name, out, f, reduced(out->dtype, kind, f, salt));
}

static const char *const kind_names[] = {"sum", "product", "min", "max"};

static void allreduce_kinds(void) {
  static const int64_t shape[2] = {3, 4};
  for (int32_t dtype = STRIDE_MPI_F32; dtype <= STRIDE_MPI_I64; ++dtype)
    for (int kind = 0; kind < 4; ++kind) {
      char name[64];
      snprintf(name, sizeof name, "allreduce-%s-%s", kind_names[kind],
               dtype_name(dtype));
      Memref in = dense(dtype, 2, shape), out = dense(dtype, 2, shape);
      fill(&in, g_rank, kind);
      stride_mpi_allreduce(2, &in.d, 2, &out.d, dtype, kind);
      check_reduced(name, &out, kind, kind);
      release(&in);
      release(&out);
      verdict(name);
    }
  for (int kind = STRIDE_MPI_MIN; kind <= STRIDE_MPI_MAX; ++kind) {
    const char *name =
        kind == STRIDE_MPI_MIN ? "allreduce-and-i1" : "allreduce-or-i1";
    Memref in = dense(STRIDE_MPI_I1, 2, shape),
           out = dense(STRIDE_MPI_I1, 2, shape);
    fill(&in, g_rank, 0);
    stride_mpi_allreduce(2, &in.d, 2, &out.d, STRIDE_MPI_I1, kind);
    check_reduced(name, &out, kind, 0);
    release(&in);
    release(&out);
    verdict(name);
  }
}

/* NaN at index r on rank r (and at 7 on the last rank): min and max must
 * propagate it wherever it came from, in every rank order. */
static void allreduce_nan(void) {
  static const int64_t shape[1] = {8};
  for (int32_t dtype = STRIDE_MPI_F32; dtype <= STRIDE_MPI_F64; ++dtype)
    for (int kind = 0; kind < 4; ++kind) {
      if (kind == STRIDE_MPI_PRODUCT)
        continue;
      char name[64];
      snprintf(name, sizeof name, "allreduce-nan-%s-%s", kind_names[kind],
               dtype_name(dtype));
      Memref in = dense(dtype, 1, shape), out = dense(dtype, 1, shape);
      fill(&in, g_rank, 1);
      if (g_rank < 8)
        put(&in, g_rank, NAN);
      if (g_rank == g_size - 1)
        put(&in, 7, NAN);
      stride_mpi_allreduce(1, &in.d, 1, &out.d, dtype, kind);
      for (int64_t f = 0; f < 8; ++f) {
        int nan = f < g_size || f == 7;
        expect(name, &out, f, nan ? NAN : reduced(dtype, kind, f, 1));
      }
      release(&in);
      release(&out);
      verdict(name);
    }
}

static void allreduce_layouts(void) {
  static const int64_t shape[2] = {3, 4};
  {
    /* Column-major out: the result is unpacked with strides (1, 3). */
    const char *name = "allreduce-transposed-out";
    static const int64_t strides[2] = {1, 3};
    Memref in = dense(STRIDE_MPI_F64, 2, shape);
    Memref out = make(STRIDE_MPI_F64, 2, shape, strides, 0, 12);
    fill(&in, g_rank, 2);
    stride_mpi_allreduce(2, &in.d, 2, &out.d, STRIDE_MPI_F64, STRIDE_MPI_SUM);
    check_reduced(name, &out, STRIDE_MPI_SUM, 2);
    release(&in);
    release(&out);
    verdict(name);
  }
  {
    /* Both dimensions reversed: strides (-4, -1) from offset 11. */
    const char *name = "allreduce-negative-stride-in";
    static const int64_t strides[2] = {-4, -1};
    Memref in = make(STRIDE_MPI_I32, 2, shape, strides, 11, 12);
    Memref out = dense(STRIDE_MPI_I32, 2, shape);
    fill(&in, g_rank, 3);
    stride_mpi_allreduce(2, &in.d, 2, &out.d, STRIDE_MPI_I32, STRIDE_MPI_MAX);
    check_reduced(name, &out, STRIDE_MPI_MAX, 3);
    release(&in);
    release(&out);
    verdict(name);
  }
  {
    /* A broadcast row (stride 0) in, reversed rows out. */
    const char *name = "allreduce-zero-stride-in";
    static const int64_t inStrides[2] = {0, 1}, outStrides[2] = {-4, 1};
    Memref in = make(STRIDE_MPI_I64, 2, shape, inStrides, 0, 4);
    Memref out = make(STRIDE_MPI_I64, 2, shape, outStrides, 8, 12);
    for (int64_t j = 0; j < 4; ++j)
      put(&in, j, value(STRIDE_MPI_I64, g_rank, j, 4));
    stride_mpi_allreduce(2, &in.d, 2, &out.d, STRIDE_MPI_I64, STRIDE_MPI_SUM);
    for (int64_t f = 0; f < 12; ++f)
      expect(name, &out, f, reduced(STRIDE_MPI_I64, STRIDE_MPI_SUM, f % 4, 4));
    release(&in);
    release(&out);
    verdict(name);
  }
  {
    const char *name = "allreduce-in-place";
    Memref m = dense(STRIDE_MPI_F32, 2, shape);
    fill(&m, g_rank, 5);
    stride_mpi_allreduce(2, &m.d, 2, &m.d, STRIDE_MPI_F32, STRIDE_MPI_SUM);
    check_reduced(name, &m, STRIDE_MPI_SUM, 5);
    release(&m);
    verdict(name);
  }
  {
    /* A transposed view reduced in place into itself. */
    const char *name = "allreduce-in-place-transposed";
    static const int64_t strides[2] = {1, 3};
    Memref m = make(STRIDE_MPI_F64, 2, shape, strides, 0, 12);
    fill(&m, g_rank, 6);
    stride_mpi_allreduce(2, &m.d, 2, &m.d, STRIDE_MPI_F64, STRIDE_MPI_MIN);
    check_reduced(name, &m, STRIDE_MPI_MIN, 6);
    release(&m);
    verdict(name);
  }
  {
    const char *name = "allreduce-rank0";
    Memref in = dense(STRIDE_MPI_F64, 0, NULL),
           out = dense(STRIDE_MPI_F64, 0, NULL);
    fill(&in, g_rank, 7);
    stride_mpi_allreduce(0, &in.d, 0, &out.d, STRIDE_MPI_F64,
                         STRIDE_MPI_PRODUCT);
    check_reduced(name, &out, STRIDE_MPI_PRODUCT, 7);
    release(&in);
    release(&out);
    verdict(name);
  }
  {
    /* Rank 5, out padded (every stride doubled) and in with its first and
     * last dimensions swapped in memory. */
    const char *name = "allreduce-rank5-padded";
    static const int64_t sizes[5] = {2, 1, 3, 2, 2};
    static const int64_t inStrides[5] = {1, 12, 4, 2, 12};
    int64_t outStrides[5] = {24, 24, 8, 4, 2};
    Memref in = make(STRIDE_MPI_I64, 5, sizes, inStrides, 0, 24);
    Memref out = make(STRIDE_MPI_I64, 5, sizes, outStrides, 1, 48);
    fill(&in, g_rank, 8);
    stride_mpi_allreduce(5, &in.d, 5, &out.d, STRIDE_MPI_I64, STRIDE_MPI_SUM);
    check_reduced(name, &out, STRIDE_MPI_SUM, 8);
    /* The padding is untouched. */
    for (int64_t i = 0; i < 48; i += 2)
      if (get(&out, i) != -99)
        expect(name, &out, 0, NAN);
    release(&in);
    release(&out);
    verdict(name);
  }
  {
    const char *name = "allreduce-empty";
    static const int64_t sizes[2] = {3, 0};
    Memref in = dense(STRIDE_MPI_F32, 2, sizes),
           out = dense(STRIDE_MPI_F32, 2, sizes);
    stride_mpi_allreduce(2, &in.d, 2, &out.d, STRIDE_MPI_F32, STRIDE_MPI_SUM);
    release(&in);
    release(&out);
    verdict(name);
  }
}

/* ---- allgather ------------------------------------------------------------
 */

/* out index -> (source rank, in index) for a gather along `dim`. */
static void check_gathered(const char *name, const Memref *in,
                           const Memref *out, int dim, int salt) {
  int64_t index[MAXR];
  for (int64_t f = 0, n = count(out); f < n; ++f) {
    address(out, f, index);
    int64_t block = in->d.ss[dim];
    int r = (int)(index[dim] / block);
    index[dim] %= block;
    int64_t inFlat = 0;
    for (int i = 0; i < in->rank; ++i)
      inFlat = inFlat * in->d.ss[i] + index[i];
    expect(name, out, f, value(in->dtype, r, inFlat, salt));
  }
}

static void allgather(void) {
  const int64_t N = g_size;
  {
    const char *name = "allgather-dim0";
    int64_t inShape[2] = {2, 3}, outShape[2] = {2 * N, 3};
    Memref in = dense(STRIDE_MPI_I32, 2, inShape);
    Memref out = dense(STRIDE_MPI_I32, 2, outShape);
    fill(&in, g_rank, 10);
    stride_mpi_allgather(2, &in.d, 2, &out.d, STRIDE_MPI_I32, 0);
    check_gathered(name, &in, &out, 0, 10);
    release(&in);
    release(&out);
    verdict(name);
  }
  {
    const char *name = "allgather-dim1";
    int64_t inShape[2] = {2, 3}, outShape[2] = {2, 3 * N};
    Memref in = dense(STRIDE_MPI_F64, 2, inShape);
    Memref out = dense(STRIDE_MPI_F64, 2, outShape);
    fill(&in, g_rank, 11);
    stride_mpi_allgather(2, &in.d, 2, &out.d, STRIDE_MPI_F64, 1);
    check_gathered(name, &in, &out, 1, 11);
    release(&in);
    release(&out);
    verdict(name);
  }
  {
    /* in with reversed rows, out column-major. */
    const char *name = "allgather-dim1-strided";
    int64_t inShape[2] = {2, 3}, outShape[2] = {2, 3 * N};
    int64_t inStrides[2] = {-3, 1}, outStrides[2] = {1, 2};
    Memref in = make(STRIDE_MPI_F32, 2, inShape, inStrides, 3, 6);
    Memref out = make(STRIDE_MPI_F32, 2, outShape, outStrides, 0, 6 * N);
    fill(&in, g_rank, 12);
    stride_mpi_allgather(2, &in.d, 2, &out.d, STRIDE_MPI_F32, 1);
    check_gathered(name, &in, &out, 1, 12);
    release(&in);
    release(&out);
    verdict(name);
  }
  {
    const char *name = "allgather-dim0-i1";
    int64_t inShape[2] = {3, 5}, outShape[2] = {3 * N, 5};
    Memref in = dense(STRIDE_MPI_I1, 2, inShape);
    Memref out = dense(STRIDE_MPI_I1, 2, outShape);
    fill(&in, g_rank, 13);
    stride_mpi_allgather(2, &in.d, 2, &out.d, STRIDE_MPI_I1, 0);
    check_gathered(name, &in, &out, 0, 13);
    release(&in);
    release(&out);
    verdict(name);
  }
}

/* ---- alltoall -------------------------------------------------------------
 */

/* out index o: rank r = o[c] / P[c] sent it, as its piece number g_rank
 * along s; P is the piece shape (in's with sizes[s] / N). */
static void check_exchanged(const char *name, const Memref *in,
                            const Memref *out, int s, int c, int salt) {
  int64_t index[MAXR], piece[MAXR];
  for (int i = 0; i < in->rank; ++i)
    piece[i] = in->d.ss[i];
  piece[s] /= g_size;
  for (int64_t f = 0, n = count(out); f < n; ++f) {
    address(out, f, index);
    int r = (int)(index[c] / piece[c]);
    index[c] %= piece[c];
    index[s] += g_rank * piece[s];
    int64_t inFlat = 0;
    for (int i = 0; i < in->rank; ++i)
      inFlat = inFlat * in->d.ss[i] + index[i];
    expect(name, out, f, value(in->dtype, r, inFlat, salt));
  }
}

static void alltoall(void) {
  const int64_t N = g_size;
  {
    const char *name = "alltoall-split1-concat0";
    int64_t inShape[2] = {2, 3 * N}, outShape[2] = {2 * N, 3};
    Memref in = dense(STRIDE_MPI_F32, 2, inShape);
    Memref out = dense(STRIDE_MPI_F32, 2, outShape);
    fill(&in, g_rank, 20);
    stride_mpi_alltoall(2, &in.d, 2, &out.d, STRIDE_MPI_F32, 1, 0);
    check_exchanged(name, &in, &out, 1, 0, 20);
    release(&in);
    release(&out);
    verdict(name);
  }
  {
    const char *name = "alltoall-split0-concat1";
    int64_t inShape[2] = {2 * N, 3}, outShape[2] = {2, 3 * N};
    Memref in = dense(STRIDE_MPI_I64, 2, inShape);
    Memref out = dense(STRIDE_MPI_I64, 2, outShape);
    fill(&in, g_rank, 21);
    stride_mpi_alltoall(2, &in.d, 2, &out.d, STRIDE_MPI_I64, 0, 1);
    check_exchanged(name, &in, &out, 0, 1, 21);
    release(&in);
    release(&out);
    verdict(name);
  }
  {
    const char *name = "alltoall-split0-concat0";
    int64_t shape[2] = {2 * N, 3};
    Memref in = dense(STRIDE_MPI_I32, 2, shape);
    Memref out = dense(STRIDE_MPI_I32, 2, shape);
    fill(&in, g_rank, 22);
    stride_mpi_alltoall(2, &in.d, 2, &out.d, STRIDE_MPI_I32, 0, 0);
    check_exchanged(name, &in, &out, 0, 0, 22);
    release(&in);
    release(&out);
    verdict(name);
  }
  {
    /* 3-D, split 2 concat 0; in column-major, out with dimension 1
     * reversed. */
    const char *name = "alltoall-3d-strided";
    int64_t inShape[3] = {2, 3, 2 * N}, outShape[3] = {2 * N, 3, 2};
    int64_t inStrides[3] = {1, 2, 6};
    int64_t outStrides[3] = {6, -2, 1};
    Memref in = make(STRIDE_MPI_F64, 3, inShape, inStrides, 0, 12 * N);
    Memref out = make(STRIDE_MPI_F64, 3, outShape, outStrides, 4, 12 * N);
    fill(&in, g_rank, 23);
    stride_mpi_alltoall(3, &in.d, 3, &out.d, STRIDE_MPI_F64, 2, 0);
    check_exchanged(name, &in, &out, 2, 0, 23);
    release(&in);
    release(&out);
    verdict(name);
  }
}

/* ---- host side ------------------------------------------------------------
 */

static void host_side(void) {
  {
    const char *name = "comm-rank-size";
    if (stride_mpi_comm_rank() != g_rank || stride_mpi_comm_size() != g_size)
      ++g_mismatches;
    verdict(name);
  }
  {
    /* A ring: rank r sends 1000 bytes to r+1 and receives from r-1 (on one
     * rank, a blocking send to itself may wait forever: OpenMPI's does). */
    const char *name = "send-recv-ring";
    unsigned char out[1000], in[1000];
    int next = (g_rank + 1) % g_size, prev = (g_rank + g_size - 1) % g_size;
    for (int i = 0; i < 1000; ++i)
      out[i] = (unsigned char)(i * 3 + g_rank);
    int rc = 0;
    if (g_size == 1) {
      memcpy(in, out, sizeof in);
    } else if (g_rank == 0) {
      rc |= stride_mpi_send(out, sizeof out, next, 5);
      rc |= stride_mpi_recv(in, sizeof in, prev, 5);
    } else {
      rc |= stride_mpi_recv(in, sizeof in, prev, 5);
      rc |= stride_mpi_send(out, sizeof out, next, 5);
    }
    if (rc)
      ++g_mismatches;
    for (int i = 0; i < 1000; ++i)
      if (in[i] != (unsigned char)(i * 3 + prev))
        ++g_mismatches;
    verdict(name);
  }
  {
    const char *name = "bcast";
    unsigned char buf[1001];
    int root = g_size - 1;
    for (int i = 0; i < 1001; ++i)
      buf[i] = g_rank == root ? (unsigned char)(i * 7) : 0;
    if (stride_mpi_bcast(buf, sizeof buf, root))
      ++g_mismatches;
    for (int i = 0; i < 1001; ++i)
      if (buf[i] != (unsigned char)(i * 7))
        ++g_mismatches;
    verdict(name);
  }
  {
    const char *name = "barrier";
    if (stride_mpi_barrier())
      ++g_mismatches;
    verdict(name);
  }
}

/* ---- misuse ---------------------------------------------------------------
 */

static int misuse(const char *what) {
  const int64_t N = g_size;
  if (!strcmp(what, "allgather-size")) {
    int64_t inShape[2] = {2, 3}, outShape[2] = {2 * N + 1, 3};
    Memref in = dense(STRIDE_MPI_F32, 2, inShape);
    Memref out = dense(STRIDE_MPI_F32, 2, outShape);
    stride_mpi_allgather(2, &in.d, 2, &out.d, STRIDE_MPI_F32, 0);
  } else if (!strcmp(what, "allgather-other-dim")) {
    int64_t inShape[2] = {2, 3}, outShape[2] = {2 * N, 4};
    Memref in = dense(STRIDE_MPI_F32, 2, inShape);
    Memref out = dense(STRIDE_MPI_F32, 2, outShape);
    stride_mpi_allgather(2, &in.d, 2, &out.d, STRIDE_MPI_F32, 0);
  } else if (!strcmp(what, "alltoall-divisible")) {
    int64_t inShape[2] = {3, 2 * N + 1}, outShape[2] = {3 * N, 2};
    Memref in = dense(STRIDE_MPI_I32, 2, inShape);
    Memref out = dense(STRIDE_MPI_I32, 2, outShape);
    stride_mpi_alltoall(2, &in.d, 2, &out.d, STRIDE_MPI_I32, 1, 0);
  } else if (!strcmp(what, "allreduce-bool-sum")) {
    int64_t shape[1] = {4};
    Memref in = dense(STRIDE_MPI_I1, 1, shape);
    stride_mpi_allreduce(1, &in.d, 1, &in.d, STRIDE_MPI_I1, STRIDE_MPI_SUM);
  } else if (!strcmp(what, "allreduce-rank")) {
    int64_t shape[2] = {4, 4};
    Memref in = dense(STRIDE_MPI_F64, 2, shape);
    Memref out = dense(STRIDE_MPI_F64, 1, shape);
    stride_mpi_allreduce(2, &in.d, 1, &out.d, STRIDE_MPI_F64, STRIDE_MPI_SUM);
  } else if (!strcmp(what, "allreduce-dtype")) {
    int64_t shape[1] = {4};
    Memref in = dense(STRIDE_MPI_F64, 1, shape);
    stride_mpi_allreduce(1, &in.d, 1, &in.d, 9, STRIDE_MPI_SUM);
  } else {
    fprintf(stderr, "unknown misuse %s\n", what);
    return 2;
  }
  printf("%s did not abort\n", what);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "no-init")) {
    int64_t shape[1] = {4};
    Memref in = dense(STRIDE_MPI_F64, 1, shape);
    stride_mpi_allreduce(1, &in.d, 1, &in.d, STRIDE_MPI_F64, STRIDE_MPI_SUM);
    printf("no-init did not abort\n");
    return 0;
  }
  if (stride_mpi_rank() != -1 || stride_mpi_init() != 0) {
    fprintf(stderr, "stride_mpi_init failed\n");
    return 1;
  }
  if (stride_mpi_init() != 0) {
    fprintf(stderr, "a second stride_mpi_init failed\n");
    return 1;
  }
  g_rank = stride_mpi_rank();
  g_size = stride_mpi_size();
  if (argc > 1) {
    int rc = misuse(argv[1]);
    stride_mpi_finalize();
    return rc;
  }
  if (g_rank == 0) {
    printf("library: %s\n", stride_mpi_library());
    printf("ranks %d\n", g_size);
    fflush(stdout);
  }
  host_side();
  allreduce_kinds();
  allreduce_nan();
  allreduce_layouts();
  allgather();
  alltoall();
  if (g_rank == 0)
    printf("done\n");
  return stride_mpi_finalize();
}
