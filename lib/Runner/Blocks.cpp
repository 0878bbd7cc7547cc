//===- Blocks.cpp - Even blocks of C-order arrays along one dim -----------===//

#include "stride/Runner/Blocks.h"

#include <cstring>

namespace stride::runtime {
namespace {
/// (rows before dim, size of dim, bytes of one index of dim).
struct Geometry {
  int64_t outer = 1, size = 1, inner;
};
Geometry geometry(const Array &a, int64_t dim) {
  Geometry g;
  g.inner = int64_t(elementSize(a.dtype));
  for (int64_t d = 0; d < int64_t(a.shape.size()); ++d) {
    if (d < dim)
      g.outer *= a.shape[d];
    else if (d == dim)
      g.size = a.shape[d];
    else
      g.inner *= a.shape[d];
  }
  return g;
}
} // namespace

Array takeBlock(const Array &full, int64_t dim, int64_t r, int64_t n) {
  Geometry g = geometry(full, dim);
  int64_t rows = g.size / n;
  Array block;
  block.dtype = full.dtype;
  block.shape = full.shape;
  block.shape[dim] = rows;
  block.data.resize(size_t(g.outer * rows * g.inner));
  for (int64_t o = 0; o < g.outer; ++o)
    std::memcpy(block.data.data() + o * rows * g.inner,
                full.data.data() + (o * g.size + r * rows) * g.inner,
                size_t(rows * g.inner));
  return block;
}

void putBlock(Array &full, const Array &block, int64_t dim, int64_t r,
              int64_t n) {
  Geometry g = geometry(full, dim);
  int64_t rows = g.size / n;
  for (int64_t o = 0; o < g.outer; ++o)
    std::memcpy(full.data.data() + (o * g.size + r * rows) * g.inner,
                block.data.data() + o * rows * g.inner, size_t(rows * g.inner));
}

} // namespace stride::runtime
