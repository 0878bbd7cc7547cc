//===- GridShape.h - Process grids: "4", "2x2" ------------------*- C++ -*-===//
//
// One spelling of a process grid for the pass option, the tools' flags and
// the libraries' metadata, and the one rank order every part agrees on:
// MPI rank r sits at the row-major coordinates of r in the grid, as
// upstream's `shard.process_multi_index` delinearizes the linear index.
// Header-only and free of LLVM: the LLVM-free runner reads grids too.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_SUPPORT_GRIDSHAPE_H
#define STRIDE_SUPPORT_GRIDSHAPE_H

#include <cstdint>
#include <string>
#include <vector>

namespace stride {

/// The most grid dims the MPI runtime's process groups take.
constexpr int kMaxGridDims = 4;

/// Parses "N" or "N1xN2[x...]" (positive sizes, at most kMaxGridDims dims,
/// at most 2^24 ranks in all) into `shape`. Returns "" or what is wrong.
inline std::string parseGridShape(const std::string &text,
                                  std::vector<int64_t> &shape) {
  shape.clear();
  std::string part;
  int64_t total = 1;
  auto bad = [&](const std::string &why) {
    shape.clear();
    return "grid '" + text + "': " + why;
  };
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != 'x') {
      if (text[i] < '0' || text[i] > '9')
        return bad("expected sizes separated by 'x', like 4 or 2x2");
      part += text[i];
      if (part.size() > 8)
        return bad("a size is too large");
      continue;
    }
    if (part.empty())
      return bad("expected sizes separated by 'x', like 4 or 2x2");
    int64_t size = std::stoll(part);
    if (size < 1)
      return bad("every size must be at least 1");
    total *= size;
    if (total > (int64_t(1) << 24))
      return bad("more than 2^24 ranks");
    shape.push_back(size);
    part.clear();
  }
  if (shape.size() > size_t(kMaxGridDims))
    return bad("at most " + std::to_string(kMaxGridDims) + " dims");
  return "";
}

inline std::string formatGridShape(const std::vector<int64_t> &shape) {
  std::string text;
  for (int64_t s : shape)
    text += (text.empty() ? "" : "x") + std::to_string(s);
  return text;
}

inline int64_t gridRanks(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s;
  return n;
}

/// Rank `rank`'s coordinates: row-major, the last grid dim fastest.
inline std::vector<int64_t> gridCoords(int64_t rank,
                                       const std::vector<int64_t> &shape) {
  std::vector<int64_t> coords(shape.size());
  for (size_t a = shape.size(); a-- > 0;) {
    coords[a] = rank % shape[a];
    rank /= shape[a];
  }
  return coords;
}

/// For a tensor whose dims grid axes split (`split[a]`: the dim axis `a`
/// splits, or -1), the number of blocks along `dim` and the index of the
/// block that `coords` holds: the axes splitting one dim count major to
/// minor in axis order, as shard's split_axes lists them.
inline void blockAlong(const std::vector<int64_t> &split,
                       const std::vector<int64_t> &shape,
                       const std::vector<int64_t> &coords, int64_t dim,
                       int64_t &blocks, int64_t &index) {
  blocks = 1;
  index = 0;
  for (size_t a = 0; a < split.size() && a < shape.size(); ++a)
    if (split[a] == dim) {
      blocks *= shape[a];
      index = index * shape[a] + coords[a];
    }
}

} // namespace stride

#endif // STRIDE_SUPPORT_GRIDSHAPE_H
