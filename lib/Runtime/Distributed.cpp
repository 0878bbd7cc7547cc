//===- Distributed.cpp - Scatter and gather of a distributed call ---------===//

#include "stride/Runtime/Distributed.h"

#include "MpiLoader.h"

#include "stride/Support/GridShape.h"

#include <cstring>

namespace stride::runtime {
namespace {

/// Copies the box [start, start + sizes) of row-major `full` to or from the
/// dense row-major `block`, one contiguous run of the innermost dims at a
/// time.
void copyBox(Array &full, Array &block, const std::vector<int64_t> &start,
             const std::vector<int64_t> &sizes, bool toBlock) {
  const int64_t rank = int64_t(full.shape.size());
  const int64_t es = int64_t(elementSize(full.dtype));
  // The innermost dims taken whole join the run.
  int64_t inner = rank, run = es;
  while (inner > 0 && sizes[inner - 1] == full.shape[inner - 1]) {
    --inner;
    run *= full.shape[inner];
  }
  if (inner > 0) {
    run *= sizes[inner - 1];
    --inner;
  }
  for (int64_t d = 0; d < rank; ++d)
    if (sizes[d] == 0)
      return;
  std::vector<int64_t> fullStrides = rowMajorStrides(full.shape);
  std::vector<int64_t> index(size_t(inner), 0);
  int64_t blockOffset = 0;
  for (;;) {
    int64_t fullOffset = 0;
    for (int64_t d = 0; d < rank; ++d)
      fullOffset +=
          (start[d] + (d < inner ? index[size_t(d)] : 0)) * fullStrides[d];
    char *f = reinterpret_cast<char *>(full.data.data()) + fullOffset * es;
    char *k = reinterpret_cast<char *>(block.data.data()) + blockOffset;
    if (toBlock)
      std::memcpy(k, f, size_t(run));
    else
      std::memcpy(f, k, size_t(run));
    blockOffset += run;
    int64_t d = inner - 1;
    for (; d >= 0; --d) {
      if (++index[size_t(d)] < sizes[d])
        break;
      index[size_t(d)] = 0;
    }
    if (d < 0)
      return;
  }
}

/// The box of `shape` that grid coordinates `coords` hold under `split`.
void boxOf(const std::vector<int64_t> &shape, const std::vector<int64_t> &split,
           const std::vector<int64_t> &grid, const std::vector<int64_t> &coords,
           std::vector<int64_t> &start, std::vector<int64_t> &sizes) {
  start.assign(shape.size(), 0);
  sizes = shape;
  for (int64_t d = 0; d < int64_t(shape.size()); ++d) {
    int64_t blocks, index;
    blockAlong(split, grid, coords, d, blocks, index);
    sizes[size_t(d)] = shape[size_t(d)] / blocks;
    start[size_t(d)] = index * sizes[size_t(d)];
  }
}

constexpr int kOkTag = 1 << 20, kResultTag = 1 << 21;

} // namespace

Array takeBlock(const Array &full, const std::vector<int64_t> &split,
                const std::vector<int64_t> &grid, int64_t rank) {
  std::vector<int64_t> start, sizes;
  boxOf(full.shape, split, grid, gridCoords(rank, grid), start, sizes);
  Array block;
  block.dtype = full.dtype;
  block.shape = sizes;
  block.data.resize(size_t(block.numel()) * elementSize(full.dtype));
  copyBox(const_cast<Array &>(full), block, start, sizes, /*toBlock=*/true);
  return block;
}

void putBlock(Array &full, const Array &block,
              const std::vector<int64_t> &split,
              const std::vector<int64_t> &grid, int64_t rank) {
  std::vector<int64_t> start, sizes;
  boxOf(full.shape, split, grid, gridCoords(rank, grid), start, sizes);
  copyBox(full, const_cast<Array &>(block), start, sizes, /*toBlock=*/false);
}

bool everyRankOk(const Ranks &ranks, bool ok) {
  int32_t all = ok ? 1 : 0;
  if (ranks.rank == 0) {
    for (int r = 1; r < ranks.size; ++r) {
      int32_t theirs = 0;
      ranks.mpi.recv(&theirs, sizeof theirs, r, kOkTag);
      all = all && theirs;
    }
  } else {
    ranks.mpi.send(&all, sizeof all, 0, kOkTag);
  }
  ranks.mpi.bcast(&all, sizeof all, 0);
  return all != 0;
}

std::string scatterInputs(const Ranks &ranks,
                          const std::vector<DistributedParam> &inputs,
                          std::vector<PreparedArg> &global,
                          std::vector<PreparedArg> &local) {
  const ::stride::mpi::Runtime &mpi = ranks.mpi;
  bool root = ranks.rank == 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const DistributedParam &param = inputs[i];
    if (!param.isTensor) {
      PreparedArg scalar;
      if (root)
        scalar.scalar = global[i].scalar;
      mpi.bcast(&scalar.scalar, sizeof scalar.scalar, 0);
      local.push_back(std::move(scalar));
      continue;
    }
    Array block;
    block.dtype = param.dtype;
    block.shape = param.shape;
    {
      std::vector<int64_t> start;
      boxOf(param.shape, param.split, ranks.grid,
            gridCoords(ranks.rank, ranks.grid), start, block.shape);
    }
    block.data.resize(size_t(block.numel()) * elementSize(param.dtype));
    Array full;
    if (root)
      full = global[i].buffer->gather();
    if (!param.isSplit()) {
      if (root)
        block = std::move(full);
      mpi.bcast(block.data.data(), int64_t(block.data.size()), 0);
    } else if (root) {
      for (int r = 1; r < ranks.size; ++r) {
        Array theirs = takeBlock(full, param.split, ranks.grid, r);
        mpi.send(theirs.data.data(), int64_t(theirs.data.size()), r, int(i));
      }
      block = takeBlock(full, param.split, ranks.grid, 0);
    } else {
      mpi.recv(block.data.data(), int64_t(block.data.size()), 0, int(i));
    }
    std::string error;
    std::optional<PreparedArg> arg =
        prepareTensor(block, rowMajorStrides(block.shape), error);
    if (!arg)
      return "argument #" + std::to_string(i) + ": " + error;
    local.push_back(std::move(*arg));
  }
  return "";
}

std::string gatherOutputs(const Ranks &ranks,
                          const std::vector<DistributedParam> &outputs,
                          std::vector<PreparedArg> &local,
                          std::vector<PreparedArg> &global) {
  const ::stride::mpi::Runtime &mpi = ranks.mpi;
  bool root = ranks.rank == 0;
  for (size_t j = 0; j < outputs.size(); ++j) {
    const DistributedParam &param = outputs[j];
    Array block = local[j].buffer->gather();
    if (!root) {
      if (param.isSplit())
        mpi.send(block.data.data(), int64_t(block.data.size()), 0,
                 kResultTag + int(j));
      continue;
    }
    Array full;
    if (!param.isSplit()) {
      full = std::move(block);
    } else {
      full.dtype = param.dtype;
      full.shape = param.shape;
      full.data.resize(size_t(full.numel()) * elementSize(param.dtype));
      putBlock(full, block, param.split, ranks.grid, 0);
      for (int r = 1; r < ranks.size; ++r) {
        mpi.recv(block.data.data(), int64_t(block.data.size()), r,
                 kResultTag + int(j));
        putBlock(full, block, param.split, ranks.grid, r);
      }
    }
    std::string error;
    std::optional<PreparedArg> out =
        prepareOutput(param.dtype, param.shape, param.strides, error);
    if (!out)
      return "result #" + std::to_string(j) + ": " + error;
    if (error = out->buffer->fill(full); !error.empty())
      return "result #" + std::to_string(j) + ": " + error;
    global.push_back(std::move(*out));
  }
  return "";
}

} // namespace stride::runtime
