/* The Stride MPI runtime (see StrideMpi.h and docs/distributed-runtime.md).
 *
 * Compiled twice, once with OpenMPI's mpicc and once with MPICH's, into
 * libstride_mpi_openmpi.so and libstride_mpi_mpich.so. Plain C99 on the MPI-3
 * C API; no LLVM, no MLIR.
 *
 * All traffic goes over a duplicate of MPI_COMM_WORLD with MPI_ERRORS_RETURN,
 * so it never matches a program's own messages and every failing MPI call is
 * reported by name.
 *
 * Kernel-side collectives read the memref descriptors into a View (base
 * address, sizes, strides in bytes), pack strided data into contiguous
 * buffers with one generic odometer loop (element sizes 1, 4 and 8), run one
 * MPI collective on bytes or on the element type, and unpack. Packing is
 * skipped where a memref is already laid out as MPI needs it.
 */
#define _POSIX_C_SOURCE 200112L /* nanosleep */

#include "StrideMpi.h"

#include <mpi.h>

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- State ----------------------------------------------------------------
 */

static MPI_Comm g_comm = MPI_COMM_NULL; /* duplicate of MPI_COMM_WORLD */
static int g_initialized_mpi;           /* stride_mpi_init called MPI_Init */
static int g_rank = -1, g_size = -1;
/* The largest count passed to one MPI call: byte counts and element counts
 * above it are split into several calls (send/recv/bcast/allreduce) or sent
 * as one derived datatype (allgather/alltoall). INT_MAX, or
 * $STRIDE_MPI_MAX_COUNT (a testing knob that makes small buffers take the
 * large-count paths). */
static int64_t g_max_count = INT_MAX;
/* NaN-propagating min/max: f32 max, f64 max, f32 min, f64 min. */
static MPI_Op g_float_ops[4] = {MPI_OP_NULL, MPI_OP_NULL, MPI_OP_NULL,
                                MPI_OP_NULL};
/* Process groups of grids (stride_mpi_grid_group): handle h >= 1 is
 * g_groups[h - 1]; handle 0 is g_comm. */
#define STRIDE_MPI_MAX_GROUPS 64
typedef struct {
  int64_t grid[4], axes;
  MPI_Comm comm;
  int size;
} Group;
static Group g_groups[STRIDE_MPI_MAX_GROUPS];
static int g_num_groups;

/* ---- Errors ---------------------------------------------------------------
 */

static int mpi_is_running(void) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}

static void vreport(const char *fn, const char *fmt, va_list ap) {
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  /* One write per message, so ranks sharing stderr do not interleave. */
  if (g_rank >= 0)
    fprintf(stderr, "stride-mpi: %s: %s (rank %d of %d)\n", fn, msg, g_rank,
            g_size);
  else
    fprintf(stderr, "stride-mpi: %s: %s\n", fn, msg);
  fflush(stderr);
}

#if defined(__GNUC__)
#define STRIDE_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define STRIDE_NORETURN __attribute__((noreturn))
#else
#define STRIDE_PRINTF(f, a)
#define STRIDE_NORETURN
#endif

static void report(const char *fn, const char *fmt, ...) STRIDE_PRINTF(2, 3);
static void report(const char *fn, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport(fn, fmt, ap);
  va_end(ap);
}

/* Ends the whole job (MPI_Abort), or this process without MPI. */
static void abort_job(int code) STRIDE_NORETURN;
static void abort_job(int code) {
  fflush(stdout);
  fflush(stderr);
  if (mpi_is_running()) {
    /* MPICH's launcher may kill the job before it has forwarded what was
     * just written (an error message lost in about 1 of 15 aborts): give
     * it a moment. */
    struct timespec pause = {0, 200 * 1000 * 1000};
    nanosleep(&pause, NULL);
    MPI_Abort(MPI_COMM_WORLD, code);
  }
  exit(code);
}

/* Reports and ends the whole job. */
static void die(const char *fn, const char *fmt, ...)
    STRIDE_PRINTF(2, 3) STRIDE_NORETURN;
static void die(const char *fn, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport(fn, fmt, ap);
  va_end(ap);
  abort_job(1);
}

static const char *mpi_error_text(int rc, char *buf) {
  int len = 0;
  if (MPI_Error_string(rc, buf, &len) != MPI_SUCCESS)
    snprintf(buf, MPI_MAX_ERROR_STRING, "MPI error %d", rc);
  return buf;
}

/* Host side: reports a failed MPI call and returns its error code. */
static int host_check(int rc, const char *fn, const char *call) {
  if (rc != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING];
    report(fn, "%s failed: %s", call, mpi_error_text(rc, text));
  }
  return rc;
}

/* Kernel side: a failed MPI call ends the job. */
static void check(int rc, const char *fn, const char *call) {
  if (rc != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING];
    die(fn, "%s failed: %s", call, mpi_error_text(rc, text));
  }
}

static int host_ready(const char *fn) {
  if (g_comm != MPI_COMM_NULL)
    return 1;
  report(fn, "stride_mpi_init was not called");
  return 0;
}

static void require_init(const char *fn) {
  if (g_comm == MPI_COMM_NULL)
    die(fn, "stride_mpi_init was not called");
}

static void *xmalloc(const char *fn, int64_t bytes) {
  void *p = malloc(bytes > 0 ? (size_t)bytes : 1);
  if (!p)
    die(fn, "out of memory allocating %" PRId64 " bytes", bytes);
  return p;
}

/* ---- Host side ------------------------------------------------------------
 */

int stride_mpi_init(void) {
  const char *fn = "stride_mpi_init";
  int initialized = 0, finalized = 0, rc;
  if (g_comm != MPI_COMM_NULL)
    return 0;
  const char *knob = getenv("STRIDE_MPI_MAX_COUNT");
  if (knob && *knob) {
    char *end = NULL;
    long long v = strtoll(knob, &end, 10);
    if (*end || v < 1 || v > INT_MAX) {
      report(fn, "STRIDE_MPI_MAX_COUNT=%s is not a count in [1, %d]", knob,
             INT_MAX);
      return 1;
    }
    g_max_count = v;
  }
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (finalized) {
    report(fn, "MPI is already finalized");
    return 1;
  }
  if (!initialized) {
    int provided = 0;
    rc = MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
    if (host_check(rc, fn, "MPI_Init_thread"))
      return rc;
    g_initialized_mpi = 1;
  }
  rc = MPI_Comm_dup(MPI_COMM_WORLD, &g_comm);
  if (host_check(rc, fn, "MPI_Comm_dup")) {
    g_comm = MPI_COMM_NULL;
    return rc;
  }
  MPI_Comm_set_errhandler(g_comm, MPI_ERRORS_RETURN);
  MPI_Comm_rank(g_comm, &g_rank);
  MPI_Comm_size(g_comm, &g_size);
  return 0;
}

int stride_mpi_finalize(void) {
  int rc = MPI_SUCCESS;
  if (g_comm == MPI_COMM_NULL)
    return 0;
  for (int i = 0; i < 4; ++i)
    if (g_float_ops[i] != MPI_OP_NULL)
      MPI_Op_free(&g_float_ops[i]);
  for (int i = 0; i < g_num_groups; ++i)
    MPI_Comm_free(&g_groups[i].comm);
  g_num_groups = 0;
  MPI_Comm_free(&g_comm);
  g_comm = MPI_COMM_NULL;
  g_rank = g_size = -1;
  if (g_initialized_mpi) {
    g_initialized_mpi = 0;
    rc = host_check(MPI_Finalize(), "stride_mpi_finalize", "MPI_Finalize");
  }
  return rc;
}

int stride_mpi_rank(void) { return g_rank; }
int stride_mpi_size(void) { return g_size; }

void stride_mpi_abort(int code) { abort_job(code); }

int stride_mpi_barrier(void) {
  const char *fn = "stride_mpi_barrier";
  if (!host_ready(fn))
    return -1;
  return host_check(MPI_Barrier(g_comm), fn, "MPI_Barrier");
}

static int host_bytes_ok(const char *fn, int64_t bytes) {
  if (bytes >= 0)
    return 1;
  report(fn, "negative byte count %" PRId64, bytes);
  return 0;
}

/* One message per g_max_count bytes (at least one, also for 0 bytes); both
 * sides split the same count the same way. */
int stride_mpi_send(const void *buf, int64_t bytes, int dest, int tag) {
  const char *fn = "stride_mpi_send";
  if (!host_ready(fn) || !host_bytes_ok(fn, bytes))
    return -1;
  const char *p = (const char *)buf;
  do {
    int n = (int)(bytes < g_max_count ? bytes : g_max_count);
    int rc =
        host_check(MPI_Send(p, n, MPI_BYTE, dest, tag, g_comm), fn, "MPI_Send");
    if (rc)
      return rc;
    p += n;
    bytes -= n;
  } while (bytes > 0);
  return 0;
}

int stride_mpi_recv(void *buf, int64_t bytes, int src, int tag) {
  const char *fn = "stride_mpi_recv";
  if (!host_ready(fn) || !host_bytes_ok(fn, bytes))
    return -1;
  char *p = (char *)buf;
  int64_t done = 0;
  do {
    int n = (int)(bytes - done < g_max_count ? bytes - done : g_max_count);
    MPI_Status status;
    int got = 0;
    int rc = host_check(MPI_Recv(p, n, MPI_BYTE, src, tag, g_comm, &status), fn,
                        "MPI_Recv");
    if (rc)
      return rc;
    MPI_Get_count(&status, MPI_BYTE, &got);
    if (got != n) {
      report(fn, "received %" PRId64 " bytes from rank %d, expected %" PRId64,
             done + got, status.MPI_SOURCE, bytes);
      return -1;
    }
    p += n;
    done += n;
  } while (done < bytes);
  return 0;
}

int stride_mpi_bcast(void *buf, int64_t bytes, int root) {
  const char *fn = "stride_mpi_bcast";
  if (!host_ready(fn) || !host_bytes_ok(fn, bytes))
    return -1;
  char *p = (char *)buf;
  while (bytes > 0) {
    int n = (int)(bytes < g_max_count ? bytes : g_max_count);
    int rc =
        host_check(MPI_Bcast(p, n, MPI_BYTE, root, g_comm), fn, "MPI_Bcast");
    if (rc)
      return rc;
    p += n;
    bytes -= n;
  }
  return 0;
}

const char *stride_mpi_library(void) {
  static char text[MPI_MAX_LIBRARY_VERSION_STRING + 1];
  int len = 0;
  if (MPI_Get_library_version(text, &len) != MPI_SUCCESS)
    return "unknown MPI";
  text[len < 0 ? 0 : len] = '\0';
  text[strcspn(text, "\r\n")] = '\0';
  /* Runs of blanks (MPICH's "MPICH Version:\t4.0.2") become one space. */
  size_t n = 0;
  for (size_t i = 0; text[i]; ++i) {
    int blank = text[i] == ' ' || text[i] == '\t';
    if (blank && (n == 0 || text[n - 1] == ' '))
      continue;
    text[n++] = blank ? ' ' : text[i];
  }
  while (n > 0 && text[n - 1] == ' ')
    --n;
  text[n] = '\0';
  return text;
}

/* ---- Strided views --------------------------------------------------------
 */

typedef struct {
  char *base; /* address of element (0, ..., 0) */
  int rank;
  int64_t sizes[STRIDE_MPI_MAX_RANK];
  int64_t strides[STRIDE_MPI_MAX_RANK]; /* in bytes */
} View;

static size_t dtype_size(const char *fn, int32_t dtype) {
  switch (dtype) {
  case STRIDE_MPI_F32:
  case STRIDE_MPI_I32:
    return 4;
  case STRIDE_MPI_F64:
  case STRIDE_MPI_I64:
    return 8;
  case STRIDE_MPI_I1:
    return 1;
  default:
    die(fn, "unknown dtype code %d (0=f32 1=f64 2=i32 3=i64 4=i1)", dtype);
  }
}

/* Reads an unranked memref, (rank, pointer to the ranked descriptor). */
static void read_view(const char *fn, const char *name, int64_t rank,
                      const void *desc, size_t es, View *v) {
  if (rank < 0 || rank > STRIDE_MPI_MAX_RANK)
    die(fn, "%s has rank %" PRId64 "; ranks 0 to %d are supported", name, rank,
        STRIDE_MPI_MAX_RANK);
  if (!desc)
    die(fn, "%s has a null descriptor", name);
  const char *d = (const char *)desc;
  char *aligned;
  int64_t offset;
  memcpy(&aligned, d + sizeof(void *), sizeof aligned);
  d += 2 * sizeof(void *);
  memcpy(&offset, d, sizeof offset);
  v->rank = (int)rank;
  memcpy(v->sizes, d + sizeof(int64_t), (size_t)rank * sizeof(int64_t));
  memcpy(v->strides, d + (size_t)(1 + rank) * sizeof(int64_t),
         (size_t)rank * sizeof(int64_t));
  for (int i = 0; i < v->rank; ++i) {
    if (v->sizes[i] < 0)
      die(fn, "%s has negative size %" PRId64 " along dimension %d", name,
          v->sizes[i], i);
    v->strides[i] *= (int64_t)es;
  }
  v->base = aligned + offset * (int64_t)es;
}

static int64_t view_count(const char *fn, const View *v) {
  int64_t n = 1;
  for (int i = 0; i < v->rank; ++i)
    if (__builtin_mul_overflow(n, v->sizes[i], &n))
      die(fn, "the element count overflows int64");
  return n;
}

/* Row-major and dense (dimensions of size 1 may have any stride). */
static int view_contiguous(const View *v, size_t es) {
  int64_t expected = (int64_t)es;
  for (int i = 0; i < v->rank; ++i)
    if (v->sizes[i] == 0)
      return 1;
  for (int i = v->rank - 1; i >= 0; --i) {
    if (v->sizes[i] != 1 && v->strides[i] != expected)
      return 0;
    expected *= v->sizes[i];
  }
  return 1;
}

/* Whether dimensions before `dim` all have size 1: then the blocks of a
 * contiguous view along `dim` are consecutive in memory. */
static int leading_ones(const View *v, int dim) {
  for (int i = 0; i < dim; ++i)
    if (v->sizes[i] != 1)
      return 0;
  return 1;
}

/* Whether the byte ranges spanned by two views intersect. */
static int views_overlap(const View *a, const View *b, size_t es,
                         int64_t countA, int64_t countB) {
  if (countA == 0 || countB == 0)
    return 0;
  uintptr_t lo[2], hi[2];
  const View *v[2] = {a, b};
  for (int k = 0; k < 2; ++k) {
    intptr_t low = 0, high = 0;
    for (int i = 0; i < v[k]->rank; ++i) {
      intptr_t span = (intptr_t)((v[k]->sizes[i] - 1) * v[k]->strides[i]);
      if (span < 0)
        low += span;
      else
        high += span;
    }
    lo[k] = (uintptr_t)v[k]->base + (uintptr_t)low;
    hi[k] = (uintptr_t)v[k]->base + (uintptr_t)high + es;
  }
  return lo[0] < hi[1] && lo[1] < hi[0];
}

static View subview(const View *v, int dim, int64_t start, int64_t size) {
  View s = *v;
  s.base += start * v->strides[dim];
  s.sizes[dim] = size;
  return s;
}

#define STRIDE_INNER_COPY(ES)                                                  \
  do {                                                                         \
    if (pack)                                                                  \
      for (int64_t i = 0; i < inner; ++i)                                      \
        memcpy(buf + i * (ES), p + i * step, (ES));                            \
    else                                                                       \
      for (int64_t i = 0; i < inner; ++i)                                      \
        memcpy(p + i * step, buf + i * (ES), (ES));                            \
  } while (0)

/* pack: view -> contiguous buf (row-major); else buf -> view. An odometer
 * over all dimensions but the last, whose row is copied in one loop. */
static void view_copy(const View *v, size_t es, char *buf, int pack) {
  for (int i = 0; i < v->rank; ++i)
    if (v->sizes[i] == 0)
      return;
  if (v->rank == 0) {
    if (pack)
      memcpy(buf, v->base, es);
    else
      memcpy(v->base, buf, es);
    return;
  }
  const int last = v->rank - 1;
  const int64_t inner = v->sizes[last];
  const int64_t step = v->strides[last];
  const int64_t rowBytes = inner * (int64_t)es;
  int64_t index[STRIDE_MPI_MAX_RANK] = {0};
  char *p = v->base;
  for (;;) {
    if (step == (int64_t)es) {
      if (pack)
        memcpy(buf, p, (size_t)rowBytes);
      else
        memcpy(p, buf, (size_t)rowBytes);
    } else if (es == 8) {
      STRIDE_INNER_COPY(8);
    } else if (es == 4) {
      STRIDE_INNER_COPY(4);
    } else {
      STRIDE_INNER_COPY(1);
    }
    buf += rowBytes;
    int d = last - 1;
    for (; d >= 0; --d) {
      if (++index[d] < v->sizes[d]) {
        p += v->strides[d];
        break;
      }
      p -= (v->sizes[d] - 1) * v->strides[d];
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}

/* `bytes` as (count, datatype) for one collective call: MPI_BYTE when the
 * count fits, else one derived type of extent `bytes` (chunks of
 * g_max_count bytes plus a remainder). *owned says whether to free it. */
static void bytes_type(const char *fn, int64_t bytes, int *count,
                       MPI_Datatype *type, int *owned) {
  *owned = 0;
  if (bytes <= g_max_count) {
    *count = (int)bytes;
    *type = MPI_BYTE;
    return;
  }
  const int64_t chunk = g_max_count;
  const int64_t q = bytes / chunk, r = bytes % chunk;
  if (q > INT_MAX)
    die(fn, "%" PRId64 " bytes are too many for one message", bytes);
  MPI_Datatype chunkType, body, rest, parts[2];
  check(MPI_Type_contiguous((int)chunk, MPI_BYTE, &chunkType), fn,
        "MPI_Type_contiguous");
  check(MPI_Type_contiguous((int)q, chunkType, &body), fn,
        "MPI_Type_contiguous");
  if (r == 0) {
    *type = body;
  } else {
    check(MPI_Type_contiguous((int)r, MPI_BYTE, &rest), fn,
          "MPI_Type_contiguous");
    int lengths[2] = {1, 1};
    MPI_Aint displacements[2] = {0, (MPI_Aint)(q * chunk)};
    parts[0] = body;
    parts[1] = rest;
    check(MPI_Type_create_struct(2, lengths, displacements, parts, type), fn,
          "MPI_Type_create_struct");
    MPI_Type_free(&body);
    MPI_Type_free(&rest);
  }
  MPI_Type_free(&chunkType);
  check(MPI_Type_commit(type), fn, "MPI_Type_commit");
  *count = 1;
  *owned = 1;
}

/* ---- Kernel side ----------------------------------------------------------
 */

int32_t stride_mpi_comm_rank(void) {
  require_init("stride_mpi_comm_rank");
  return g_rank;
}

int32_t stride_mpi_comm_size(void) {
  require_init("stride_mpi_comm_size");
  return g_size;
}

int32_t stride_mpi_grid_group(int64_t g0, int64_t g1, int64_t g2, int64_t g3,
                              int64_t axes) {
  const char *fn = "stride_mpi_grid_group";
  require_init(fn);
  const int64_t grid[4] = {g0, g1, g2, g3};
  int dims = 0;
  int64_t total = 1;
  while (dims < 4 && grid[dims] > 0)
    total *= grid[dims++];
  for (int d = dims; d < 4; ++d)
    if (grid[d] != 0)
      die(fn, "grid size %" PRId64 " after a 0 (sizes are g0..g3, 0 unused)",
          grid[d]);
  if (dims == 0 || total != g_size)
    die(fn, "a grid of %" PRId64 " ranks (%d dims) in a job of %d ranks", total,
        dims, g_size);
  int listed[4], count = 0, used = 0;
  for (int64_t rest = axes; rest != 0; rest >>= 4) {
    int axis = (int)(rest & 15) - 1;
    if (count == 4 || axis < 0 || axis >= dims || (used >> axis & 1))
      die(fn,
          "axes code 0x%" PRIx64 " is not a list of distinct axes of a "
          "%d-dim grid (nibble i, from the lowest: axis + 1, then 0)",
          axes, dims);
    used |= 1 << axis;
    listed[count++] = axis;
  }
  for (int i = 0; i < g_num_groups; ++i)
    if (!memcmp(g_groups[i].grid, grid, sizeof grid) &&
        g_groups[i].axes == axes)
      return i + 1;
  if (g_num_groups == STRIDE_MPI_MAX_GROUPS)
    die(fn, "more than %d process groups", STRIDE_MPI_MAX_GROUPS);
  /* Row-major coordinates of this rank; the color is the position outside
   * the group's axes, the key the position along them (listed order). */
  int64_t coords[4], rest = g_rank, color = 0, key = 0;
  for (int d = dims - 1; d >= 0; --d) {
    coords[d] = rest % grid[d];
    rest /= grid[d];
  }
  for (int d = 0; d < dims; ++d)
    if (!(used >> d & 1))
      color = color * grid[d] + coords[d];
  for (int i = 0; i < count; ++i)
    key = key * grid[listed[i]] + coords[listed[i]];
  Group *group = &g_groups[g_num_groups];
  check(MPI_Comm_split(g_comm, (int)color, (int)key, &group->comm), fn,
        "MPI_Comm_split");
  MPI_Comm_set_errhandler(group->comm, MPI_ERRORS_RETURN);
  MPI_Comm_size(group->comm, &group->size);
  memcpy(group->grid, grid, sizeof grid);
  group->axes = axes;
  return ++g_num_groups;
}

/* The communicator and size of group handle `group`. */
static MPI_Comm group_comm(const char *fn, int32_t group, int *size) {
  require_init(fn);
  if (group == 0) {
    *size = g_size;
    return g_comm;
  }
  if (group < 0 || group > g_num_groups)
    die(fn, "unknown process group %d", group);
  *size = g_groups[group - 1].size;
  return g_groups[group - 1].comm;
}

/* numpy.maximum/minimum: a NaN operand gives NaN; +0 is above -0. */
#define STRIDE_FLOAT_OP(NAME, T, IS_MAX)                                       \
  static void NAME(void *in, void *inout, int *len, MPI_Datatype *type) {      \
    (void)type;                                                                \
    const T *a = (const T *)in;                                                \
    T *b = (T *)inout;                                                         \
    for (int i = 0; i < *len; ++i) {                                           \
      T x = a[i], y = b[i];                                                    \
      if (isnan(y))                                                            \
        continue;                                                              \
      if (isnan(x) || (IS_MAX ? x > y : x < y) ||                              \
          (x == y && (IS_MAX ? !signbit(x) : signbit(x))))                     \
        b[i] = x;                                                              \
    }                                                                          \
  }
STRIDE_FLOAT_OP(max_f32, float, 1)
STRIDE_FLOAT_OP(max_f64, double, 1)
STRIDE_FLOAT_OP(min_f32, float, 0)
STRIDE_FLOAT_OP(min_f64, double, 0)

static MPI_Op float_op(const char *fn, int index) {
  static MPI_User_function *const functions[4] = {max_f32, max_f64, min_f32,
                                                  min_f64};
  if (g_float_ops[index] == MPI_OP_NULL)
    check(MPI_Op_create(functions[index], 1, &g_float_ops[index]), fn,
          "MPI_Op_create");
  return g_float_ops[index];
}

static void reduction(const char *fn, int32_t dtype, int32_t kind,
                      MPI_Datatype *type, MPI_Op *op) {
  static const char *const kindNames[4] = {"sum", "product", "min", "max"};
  if (kind < 0 || kind > 3)
    die(fn, "unknown reduction kind %d (0=sum 1=product 2=min 3=max)", kind);
  switch (dtype) {
  case STRIDE_MPI_I1:
    if (kind == STRIDE_MPI_SUM || kind == STRIDE_MPI_PRODUCT)
      die(fn,
          "%s is not defined on i1 (bool); only min (logical and) and max "
          "(logical or) are",
          kindNames[kind]);
    /* Logical operators give 0/1 whatever nonzero byte a bool holds. */
    *type = MPI_UNSIGNED_CHAR;
    *op = kind == STRIDE_MPI_MIN ? MPI_LAND : MPI_LOR;
    return;
  case STRIDE_MPI_F32:
  case STRIDE_MPI_F64:
    *type = dtype == STRIDE_MPI_F32 ? MPI_FLOAT : MPI_DOUBLE;
    if (kind == STRIDE_MPI_MIN || kind == STRIDE_MPI_MAX) {
      /* MPI_MIN/MPI_MAX may drop a NaN. */
      *op = float_op(fn, (kind == STRIDE_MPI_MIN ? 2 : 0) +
                             (dtype == STRIDE_MPI_F64 ? 1 : 0));
      return;
    }
    break;
  case STRIDE_MPI_I32:
    *type = MPI_INT32_T;
    break;
  case STRIDE_MPI_I64:
    *type = MPI_INT64_T;
    break;
  default:
    dtype_size(fn, dtype); /* reports the unknown code */
  }
  switch (kind) {
  case STRIDE_MPI_SUM:
    *op = MPI_SUM;
    break;
  case STRIDE_MPI_PRODUCT:
    *op = MPI_PROD;
    break;
  case STRIDE_MPI_MIN:
    *op = MPI_MIN;
    break;
  default:
    *op = MPI_MAX;
    break;
  }
}

static void check_rank(const char *fn, int64_t inRank, int64_t outRank) {
  if (inRank != outRank)
    die(fn, "in has rank %" PRId64 " but out has rank %" PRId64, inRank,
        outRank);
}

static void allreduce_on(const char *fn, int32_t group, int64_t inRank,
                         void *in, int64_t outRank, void *out, int32_t dtype,
                         int32_t kind) {
  int groupSize;
  MPI_Comm comm = group_comm(fn, group, &groupSize);
  const size_t es = dtype_size(fn, dtype);
  MPI_Datatype type;
  MPI_Op op;
  reduction(fn, dtype, kind, &type, &op);
  View vi, vo;
  read_view(fn, "in", inRank, in, es, &vi);
  read_view(fn, "out", outRank, out, es, &vo);
  check_rank(fn, inRank, outRank);
  for (int d = 0; d < vi.rank; ++d)
    if (vo.sizes[d] != vi.sizes[d])
      die(fn,
          "out size %" PRId64 " along dimension %d differs from in size "
          "%" PRId64,
          vo.sizes[d], d, vi.sizes[d]);
  const int64_t n = view_count(fn, &vi);
  const int inContiguous = view_contiguous(&vi, es);
  const int outContiguous = view_contiguous(&vo, es);
  const int same = inContiguous && outContiguous && vi.base == vo.base;
  const int overlap = views_overlap(&vi, &vo, es, n, n);

  /* The reduction runs on `buf`, in place unless `in` can be sent as is. */
  const char *send = NULL; /* NULL: MPI_IN_PLACE */
  char *buf, *tmp = NULL;
  if (outContiguous && (same || !overlap)) {
    buf = vo.base;
    if (!same) {
      if (inContiguous)
        send = vi.base;
      else
        view_copy(&vi, es, buf, 1);
    }
  } else {
    buf = tmp = (char *)xmalloc(fn, n * (int64_t)es);
    view_copy(&vi, es, buf, 1);
  }
  int64_t done = 0;
  do {
    int c = (int)(n - done < g_max_count ? n - done : g_max_count);
    const int64_t at = done * (int64_t)es;
    check(MPI_Allreduce(send ? (const void *)(send + at) : MPI_IN_PLACE,
                        buf + at, c, type, op, comm),
          fn, "MPI_Allreduce");
    done += c;
  } while (done < n);
  if (tmp) {
    view_copy(&vo, es, tmp, 0);
    free(tmp);
  }
}

void stride_mpi_allreduce(int64_t inRank, void *in, int64_t outRank, void *out,
                          int32_t dtype, int32_t kind) {
  allreduce_on("stride_mpi_allreduce", 0, inRank, in, outRank, out, dtype,
               kind);
}

void stride_mpi_allreduce_group(int64_t inRank, void *in, int64_t outRank,
                                void *out, int32_t dtype, int32_t kind,
                                int32_t group) {
  allreduce_on("stride_mpi_allreduce_group", group, inRank, in, outRank, out,
               dtype, kind);
}

static void check_dim(const char *fn, const char *what, int64_t dim, int rank) {
  if (rank == 0)
    die(fn, "%s %" PRId64 " given for rank-0 memrefs", what, dim);
  if (dim < 0 || dim >= rank)
    die(fn, "%s %" PRId64 " is out of range for rank-%d memrefs", what, dim,
        rank);
}

/* What allgather and alltoall begin with: the runtime is initialized, and
 * `in` and `out` are memrefs of `dtype` of one rank, read into *vi and *vo.
 * Returns the element size. */
static size_t read_in_out(const char *fn, int64_t inRank, void *in,
                          int64_t outRank, void *out, int32_t dtype, View *vi,
                          View *vo) {
  require_init(fn);
  const size_t es = dtype_size(fn, dtype);
  read_view(fn, "in", inRank, in, es, vi);
  read_view(fn, "out", outRank, out, es, vo);
  check_rank(fn, inRank, outRank);
  return es;
}

/* MPI_Allgather's and MPI_Alltoall's signature. */
typedef int (*Exchange)(const void *, int, MPI_Datatype, void *, int,
                        MPI_Datatype, MPI_Comm);

/* Runs `call` (named `callName`), which sends `vi` as `sendBlocks` equal
 * blocks along dimension `sendDim` and receives one such block from each
 * rank, in rank order, as the blocks of `vo` along `recvDim`. Each side is
 * passed as is when its memory is contiguous, its blocks consecutive and
 * apart from the other side's, else packed into (or unpacked from) a
 * temporary. */
static void exchange_blocks(const char *fn, const char *callName, Exchange call,
                            MPI_Comm comm, int N, const View *vi, int sendDim,
                            int sendBlocks, const View *vo, int recvDim,
                            size_t es) {
  const int64_t n = view_count(fn, vi), outN = view_count(fn, vo);
  const int64_t blockBytes = n / sendBlocks * (int64_t)es;
  const int overlap = views_overlap(vi, vo, es, n, outN);
  const int64_t sendSize = vi->sizes[sendDim] / sendBlocks;
  const int64_t recvSize = vo->sizes[recvDim] / N;

  const char *send;
  char *sendTmp = NULL, *recv, *recvTmp = NULL;
  if (view_contiguous(vi, es) && leading_ones(vi, sendDim) && !overlap) {
    send = vi->base;
  } else {
    send = sendTmp = (char *)xmalloc(fn, n * (int64_t)es);
    for (int j = 0; j < sendBlocks; ++j) {
      View block = subview(vi, sendDim, j * sendSize, sendSize);
      view_copy(&block, es, sendTmp + j * blockBytes, 1);
    }
  }
  if (view_contiguous(vo, es) && leading_ones(vo, recvDim) && !overlap)
    recv = vo->base;
  else
    recv = recvTmp = (char *)xmalloc(fn, outN * (int64_t)es);

  int count, owned;
  MPI_Datatype type;
  bytes_type(fn, blockBytes, &count, &type, &owned);
  check(call(send, count, type, recv, count, type, comm), fn, callName);
  if (owned)
    MPI_Type_free(&type);
  free(sendTmp);
  if (recvTmp) {
    for (int r = 0; r < N; ++r) {
      View block = subview(vo, recvDim, r * recvSize, recvSize);
      view_copy(&block, es, recvTmp + r * blockBytes, 0);
    }
    free(recvTmp);
  }
}

static void allgather_on(const char *fn, int32_t group, int64_t inRank,
                         void *in, int64_t outRank, void *out, int32_t dtype,
                         int64_t dim) {
  View vi, vo;
  const size_t es = read_in_out(fn, inRank, in, outRank, out, dtype, &vi, &vo);
  int N;
  MPI_Comm comm = group_comm(fn, group, &N);
  check_dim(fn, "dimension", dim, vi.rank);
  const int g = (int)dim;
  for (int d = 0; d < vi.rank; ++d) {
    if (d == g) {
      int64_t want;
      if (__builtin_mul_overflow(vi.sizes[d], (int64_t)N, &want) ||
          vo.sizes[d] != want)
        die(fn,
            "out size %" PRId64 " along dimension %d should be %" PRId64
            " (in size %" PRId64 " times %d ranks)",
            vo.sizes[d], d, vi.sizes[d] * N, vi.sizes[d], N);
    } else if (vo.sizes[d] != vi.sizes[d]) {
      die(fn,
          "out size %" PRId64 " along dimension %d differs from in size "
          "%" PRId64 " (only dimension %d is gathered)",
          vo.sizes[d], d, vi.sizes[d], g);
    }
  }
  exchange_blocks(fn, "MPI_Allgather", MPI_Allgather, comm, N, &vi, 0, 1, &vo,
                  g, es);
}

void stride_mpi_allgather(int64_t inRank, void *in, int64_t outRank, void *out,
                          int32_t dtype, int64_t dim) {
  allgather_on("stride_mpi_allgather", 0, inRank, in, outRank, out, dtype, dim);
}

void stride_mpi_allgather_group(int64_t inRank, void *in, int64_t outRank,
                                void *out, int32_t dtype, int64_t dim,
                                int32_t group) {
  allgather_on("stride_mpi_allgather_group", group, inRank, in, outRank, out,
               dtype, dim);
}

static void alltoall_on(const char *fn, int32_t group, int64_t inRank, void *in,
                        int64_t outRank, void *out, int32_t dtype,
                        int64_t splitDim, int64_t concatDim) {
  View vi, vo;
  const size_t es = read_in_out(fn, inRank, in, outRank, out, dtype, &vi, &vo);
  int N;
  MPI_Comm comm = group_comm(fn, group, &N);
  check_dim(fn, "split dimension", splitDim, vi.rank);
  check_dim(fn, "concat dimension", concatDim, vi.rank);
  const int s = (int)splitDim, c = (int)concatDim;
  if (vi.sizes[s] % N != 0)
    die(fn,
        "in size %" PRId64 " along split dimension %d is not divisible by %d "
        "ranks",
        vi.sizes[s], s, N);
  /* The shape of one piece, sent and received. */
  View piece = vi;
  piece.sizes[s] /= N;
  for (int d = 0; d < vi.rank; ++d) {
    int64_t want = piece.sizes[d];
    if (d == c && __builtin_mul_overflow(want, (int64_t)N, &want))
      die(fn, "out size along concat dimension %d overflows", d);
    if (vo.sizes[d] == want)
      continue;
    if (d == c && d == s)
      die(fn,
          "out size %" PRId64 " along dimension %d should be %" PRId64
          " (split and concat dimension: in size %" PRId64 ")",
          vo.sizes[d], d, want, vi.sizes[d]);
    if (d == c)
      die(fn,
          "out size %" PRId64 " along concat dimension %d should be %" PRId64
          " (in size %" PRId64 " times %d ranks)",
          vo.sizes[d], d, want, vi.sizes[d], N);
    if (d == s)
      die(fn,
          "out size %" PRId64 " along split dimension %d should be %" PRId64
          " (in size %" PRId64 " divided by %d ranks)",
          vo.sizes[d], d, want, vi.sizes[d], N);
    die(fn,
        "out size %" PRId64 " along dimension %d differs from in size "
        "%" PRId64,
        vo.sizes[d], d, vi.sizes[d]);
  }
  exchange_blocks(fn, "MPI_Alltoall", MPI_Alltoall, comm, N, &vi, s, N, &vo, c,
                  es);
}

void stride_mpi_alltoall(int64_t inRank, void *in, int64_t outRank, void *out,
                         int32_t dtype, int64_t splitDim, int64_t concatDim) {
  alltoall_on("stride_mpi_alltoall", 0, inRank, in, outRank, out, dtype,
              splitDim, concatDim);
}

void stride_mpi_alltoall_group(int64_t inRank, void *in, int64_t outRank,
                               void *out, int32_t dtype, int64_t splitDim,
                               int64_t concatDim, int32_t group) {
  alltoall_on("stride_mpi_alltoall_group", group, inRank, in, outRank, out,
              dtype, splitDim, concatDim);
}
