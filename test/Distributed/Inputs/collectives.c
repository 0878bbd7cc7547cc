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

/* Element `at` of m's storage, as a double; first set to *store (converted
 * to the element type; i1: nonzero is 1) when `store` is not NULL. */
#define ACCESS_AS(T)                                                           \
  do {                                                                         \
    T x;                                                                       \
    if (store) {                                                               \
      x = (T)*store;                                                           \
      memcpy(p, &x, sizeof x);                                                 \
    } else {                                                                   \
      memcpy(&x, p, sizeof x);                                                 \
    }                                                                          \
    return (double)x;                                                          \
  } while (0)

static double element_at(const Memref *m, int64_t at, const double *store) {
  char *p = m->data + at * (int64_t)elem_size(m->dtype);
  switch (m->dtype) {
  case STRIDE_MPI_F32:
    ACCESS_AS(float);
  case STRIDE_MPI_F64:
    ACCESS_AS(double);
  case STRIDE_MPI_I32:
    ACCESS_AS(int32_t);
  case STRIDE_MPI_I64:
    ACCESS_AS(int64_t);
  default:
    if (store)
      *p = (char)(*store != 0);
    return *p;
  }
}
#undef ACCESS_AS

static void put(const Memref *m, int64_t at, double v) {
  element_at(m, at, &v);
}

static double get(const Memref *m, int64_t at) {
  return element_at(m, at, NULL);
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

/* Frees a check's memrefs (one, when it ran in place) and prints its
 * verdict. */
static void finish(const char *name, Memref *in, Memref *out) {
  release(in);
  if (out != in)
    release(out);
  verdict(name);
}

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

/* Fills `in` with test `salt`'s values, reduces it into `out` by `kind` and
 * checks the result. */
static void reduce_and_check(const char *name, Memref *in, Memref *out,
                             int kind, int salt) {
  fill(in, g_rank, salt);
  stride_mpi_allreduce(in->rank, &in->d, out->rank, &out->d, in->dtype, kind);
  check_reduced(name, out, kind, salt);
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
      reduce_and_check(name, &in, &out, kind, kind);
      finish(name, &in, &out);
    }
  for (int kind = STRIDE_MPI_MIN; kind <= STRIDE_MPI_MAX; ++kind) {
    const char *name =
        kind == STRIDE_MPI_MIN ? "allreduce-and-i1" : "allreduce-or-i1";
    Memref in = dense(STRIDE_MPI_I1, 2, shape),
           out = dense(STRIDE_MPI_I1, 2, shape);
    reduce_and_check(name, &in, &out, kind, 0);
    finish(name, &in, &out);
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

/* allreduce-zero-stride-in: in's 4 stored elements are one row, broadcast
 * (stride 0) to every row. */
static void fill_row(const Memref *m, int r, int salt) {
  for (int64_t j = 0; j < 4; ++j)
    put(m, j, value(m->dtype, r, j, salt));
}

static void check_row(const char *name, const Memref *out, int kind, int salt) {
  for (int64_t f = 0, n = count(out); f < n; ++f)
    expect(name, out, f, reduced(out->dtype, kind, f % 4, salt));
}

/* allreduce-rank5-padded: the result, and the padding (every other element
 * of out's buffer) untouched. */
static void check_padded(const char *name, const Memref *out, int kind,
                         int salt) {
  check_reduced(name, out, kind, salt);
  for (int64_t i = 0; i < 48; i += 2)
    if (get(out, i) != -99)
      expect(name, out, 0, NAN);
}

/* Where a memref's elements are: `strides` (NULL: row-major, over exactly
 * its elements) from `offset` in a buffer of `elements`. */
typedef struct {
  const int64_t *strides;
  int64_t offset, elements;
} Layout;

/* An allreduce of memrefs of `sizes` laid out as `in` and `out` say (or in
 * place), filled by `fill` and checked by `check` (NULL: fill and
 * check_reduced). */
typedef struct {
  const char *name;
  int32_t dtype;
  int kind, salt, rank;
  const int64_t *sizes;
  Layout in, out;
  int inPlace;
  void (*fill)(const Memref *, int, int);
  void (*check)(const char *, const Memref *, int, int);
} LayoutCheck;

#define SHAPE_3X4 ((const int64_t[]){3, 4})
static const LayoutCheck kLayoutChecks[] = {
    /* Column-major out: the result is unpacked with strides (1, 3). */
    {"allreduce-transposed-out", STRIDE_MPI_F64, STRIDE_MPI_SUM, 2, 2,
     SHAPE_3X4, .out = {(const int64_t[]){1, 3}, 0, 12}},
    /* Both dimensions reversed: strides (-4, -1) from offset 11. */
    {"allreduce-negative-stride-in", STRIDE_MPI_I32, STRIDE_MPI_MAX, 3, 2,
     SHAPE_3X4, .in = {(const int64_t[]){-4, -1}, 11, 12}},
    /* A broadcast row (stride 0) in, reversed rows out. */
    {"allreduce-zero-stride-in",
     STRIDE_MPI_I64,
     STRIDE_MPI_SUM,
     4,
     2,
     SHAPE_3X4,
     {(const int64_t[]){0, 1}, 0, 4},
     {(const int64_t[]){-4, 1}, 8, 12},
     .fill = fill_row,
     .check = check_row},
    {"allreduce-in-place", STRIDE_MPI_F32, STRIDE_MPI_SUM, 5, 2, SHAPE_3X4,
     .inPlace = 1},
    /* A transposed view reduced in place into itself. */
    {"allreduce-in-place-transposed", STRIDE_MPI_F64, STRIDE_MPI_MIN, 6, 2,
     SHAPE_3X4, .in = {(const int64_t[]){1, 3}, 0, 12}, .inPlace = 1},
    {"allreduce-rank0", STRIDE_MPI_F64, STRIDE_MPI_PRODUCT, 7, 0,
     .sizes = NULL},
    /* Rank 5, out padded (every stride doubled) and in with its first and
     * last dimensions swapped in memory. */
    {"allreduce-rank5-padded",
     STRIDE_MPI_I64,
     STRIDE_MPI_SUM,
     8,
     5,
     (const int64_t[]){2, 1, 3, 2, 2},
     {(const int64_t[]){1, 12, 4, 2, 12}, 0, 24},
     {(const int64_t[]){24, 24, 8, 4, 2}, 1, 48},
     .check = check_padded},
    {"allreduce-empty", STRIDE_MPI_F32, STRIDE_MPI_SUM, 0, 2,
     .sizes = (const int64_t[]){3, 0}},
};
#undef SHAPE_3X4

static Memref laid_out(int32_t dtype, int rank, const int64_t *sizes,
                       const Layout *layout) {
  return layout->strides ? make(dtype, rank, sizes, layout->strides,
                                layout->offset, layout->elements)
                         : dense(dtype, rank, sizes);
}

static void allreduce_layouts(void) {
  for (size_t i = 0; i < sizeof kLayoutChecks / sizeof *kLayoutChecks; ++i) {
    const LayoutCheck *c = &kLayoutChecks[i];
    Memref in = laid_out(c->dtype, c->rank, c->sizes, &c->in), out;
    Memref *o = &in;
    if (!c->inPlace) {
      out = laid_out(c->dtype, c->rank, c->sizes, &c->out);
      o = &out;
    }
    (c->fill ? c->fill : fill)(&in, g_rank, c->salt);
    stride_mpi_allreduce(c->rank, &in.d, c->rank, &o->d, c->dtype, c->kind);
    (c->check ? c->check : check_reduced)(c->name, o, c->kind, c->salt);
    finish(c->name, &in, o);
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

/* An allgather (split < 0: along dimension `concat`) or an alltoall: in
 * is `piece` with dimension `split` times the ranks, out `piece` with
 * dimension `concat` times the ranks, each row-major unless its strides
 * are given (nonzero; then over exactly its elements, from its offset). */
typedef struct {
  const char *name;
  int32_t dtype;
  int rank, split, concat, salt;
  int64_t piece[3];
  int64_t inStrides[3], inOffset, outStrides[3], outOffset;
} ExchangeCheck;

static const ExchangeCheck kExchangeChecks[] = {
    {"allgather-dim0", STRIDE_MPI_I32, 2, -1, 0, 10, .piece = {2, 3}},
    {"allgather-dim1", STRIDE_MPI_F64, 2, -1, 1, 11, .piece = {2, 3}},
    /* in with reversed rows, out column-major. */
    {"allgather-dim1-strided", STRIDE_MPI_F32, 2, -1, 1, 12, .piece = {2, 3},
     .inStrides = {-3, 1}, .inOffset = 3, .outStrides = {1, 2}},
    {"allgather-dim0-i1", STRIDE_MPI_I1, 2, -1, 0, 13, .piece = {3, 5}},
    {"alltoall-split1-concat0", STRIDE_MPI_F32, 2, 1, 0, 20, .piece = {2, 3}},
    {"alltoall-split0-concat1", STRIDE_MPI_I64, 2, 0, 1, 21, .piece = {2, 3}},
    {"alltoall-split0-concat0", STRIDE_MPI_I32, 2, 0, 0, 22, .piece = {2, 3}},
    /* 3-D, split 2 concat 0; in column-major, out with dimension 1
     * reversed. */
    {"alltoall-3d-strided", STRIDE_MPI_F64, 3, 2, 0, 23, .piece = {2, 3, 2},
     .inStrides = {1, 2, 6}, .outStrides = {6, -2, 1}, .outOffset = 4},
};

/* One side of `c`: `piece` with dimension `scaled` times the ranks. */
static Memref exchanged(const ExchangeCheck *c, int scaled,
                        const int64_t *strides, int64_t offset) {
  int64_t sizes[MAXR], n = 1;
  for (int i = 0; i < c->rank; ++i) {
    sizes[i] = c->piece[i] * (i == scaled ? g_size : 1);
    n *= sizes[i];
  }
  return make(c->dtype, c->rank, sizes, strides[0] ? strides : NULL,
              strides[0] ? offset : 0, n);
}

static void allgather_and_alltoall(void) {
  for (size_t i = 0; i < sizeof kExchangeChecks / sizeof *kExchangeChecks;
       ++i) {
    const ExchangeCheck *c = &kExchangeChecks[i];
    Memref in = exchanged(c, c->split, c->inStrides, c->inOffset);
    Memref out = exchanged(c, c->concat, c->outStrides, c->outOffset);
    fill(&in, g_rank, c->salt);
    if (c->split < 0) {
      stride_mpi_allgather(c->rank, &in.d, c->rank, &out.d, c->dtype,
                           c->concat);
      check_gathered(c->name, &in, &out, c->concat, c->salt);
    } else {
      stride_mpi_alltoall(c->rank, &in.d, c->rank, &out.d, c->dtype, c->split,
                          c->concat);
      check_exchanged(c->name, &in, &out, c->split, c->concat, c->salt);
    }
    finish(c->name, &in, &out);
  }
}

/* ---- process groups of a grid --------------------------------------------
 * The job as a g0 x g1 grid (2 columns when the size is even, else one):
 * rank r sits at (r / g1, r % g1). Each check gathers or reduces one i64
 * per rank holding its rank, so the result names who took part, in what
 * order. */

static void grid_groups(void) {
  const int64_t g1 = g_size % 2 == 0 ? 2 : 1, g0 = g_size / g1;
  const int64_t c0 = g_rank / g1, c1 = g_rank % g1;
  const int64_t one[1] = {1};
  struct {
    const char *name;
    int64_t axes; /* nibbles: axis + 1, first listed axis lowest */
    int64_t size; /* ranks in the group */
  } checks[] = {{"grid-allgather-axis1", 0x2, g1},
                {"grid-allgather-axis0", 0x1, g0},
                {"grid-allgather-axes01", 0x21, g0 * g1},
                {"grid-allgather-axes10", 0x12, g0 * g1},
                {"grid-allgather-no-axes", 0x0, 1}};
  for (size_t i = 0; i < sizeof checks / sizeof *checks; ++i) {
    int32_t group = stride_mpi_grid_group(g0, g1, 0, 0, checks[i].axes);
    /* Asking again gives the cached handle. */
    if (stride_mpi_grid_group(g0, g1, 0, 0, checks[i].axes) != group)
      ++g_mismatches;
    Memref in = dense(STRIDE_MPI_I64, 1, one);
    int64_t outShape[1] = {checks[i].size};
    Memref out = dense(STRIDE_MPI_I64, 1, outShape);
    put(&in, 0, g_rank);
    stride_mpi_allgather_group(1, &in.d, 1, &out.d, STRIDE_MPI_I64, 0, group);
    for (int64_t k = 0; k < checks[i].size; ++k) {
      int64_t want;
      switch (checks[i].axes) {
      case 0x2: /* the row: same c0, c1 = k */
        want = c0 * g1 + k;
        break;
      case 0x1: /* the column: c0 = k, same c1 */
        want = k * g1 + c1;
        break;
      case 0x21: /* every rank, axis 0 major: rank order */
        want = k;
        break;
      case 0x12: /* every rank, axis 1 major: k = c1 * g0 + c0 */
        want = (k % g0) * g1 + k / g0;
        break;
      default: /* no axes: this rank alone */
        want = g_rank;
      }
      expect(checks[i].name, &out, k, (double)want);
    }
    finish(checks[i].name, &in, &out);
  }
  /* A sum over the row and an all-to-all down the column. */
  int32_t row = stride_mpi_grid_group(g0, g1, 0, 0, 0x2);
  Memref in = dense(STRIDE_MPI_I64, 1, one);
  Memref out = dense(STRIDE_MPI_I64, 1, one);
  put(&in, 0, g_rank);
  stride_mpi_allreduce_group(1, &in.d, 1, &out.d, STRIDE_MPI_I64,
                             STRIDE_MPI_SUM, row);
  expect("grid-allreduce-axis1", &out, 0,
         (double)(c0 * g1 * g1 + g1 * (g1 - 1) / 2));
  finish("grid-allreduce-axis1", &in, &out);
  int32_t column = stride_mpi_grid_group(g0, g1, 0, 0, 0x1);
  int64_t shape[1] = {g0};
  in = dense(STRIDE_MPI_I64, 1, shape);
  out = dense(STRIDE_MPI_I64, 1, shape);
  for (int64_t k = 0; k < g0; ++k)
    put(&in, k, g_rank * 100 + k); /* piece k goes to column member k */
  stride_mpi_alltoall_group(1, &in.d, 1, &out.d, STRIDE_MPI_I64, 0, 0, column);
  for (int64_t k = 0; k < g0; ++k) /* from member k: its piece c0 */
    expect("grid-alltoall-axis0", &out, k, (double)((k * g1 + c1) * 100 + c0));
  finish("grid-alltoall-axis0", &in, &out);
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
  allgather_and_alltoall();
  grid_groups();
  if (g_rank == 0)
    printf("done\n");
  return stride_mpi_finalize();
}
