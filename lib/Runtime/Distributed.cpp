//===- Distributed.cpp - Scatter and gather of a distributed call ---------===//

#include "stride/Runtime/Distributed.h"

#include "MpiLoader.h"

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

constexpr int kOkTag = 1 << 20, kResultTag = 1 << 21;

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
    if (param.split >= 0)
      block.shape[param.split] /= ranks.size;
    block.data.resize(size_t(block.numel()) * elementSize(param.dtype));
    Array full;
    if (root)
      full = global[i].buffer->gather();
    if (param.split < 0) {
      if (root)
        block = std::move(full);
      mpi.bcast(block.data.data(), int64_t(block.data.size()), 0);
    } else if (root) {
      for (int r = 1; r < ranks.size; ++r) {
        Array theirs = takeBlock(full, param.split, r, ranks.size);
        mpi.send(theirs.data.data(), int64_t(theirs.data.size()), r, int(i));
      }
      block = takeBlock(full, param.split, 0, ranks.size);
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
      if (param.split >= 0)
        mpi.send(block.data.data(), int64_t(block.data.size()), 0,
                 kResultTag + int(j));
      continue;
    }
    Array full;
    if (param.split < 0) {
      full = std::move(block);
    } else {
      full.dtype = param.dtype;
      full.shape = param.shape;
      full.data.resize(size_t(full.numel()) * elementSize(param.dtype));
      putBlock(full, block, param.split, 0, ranks.size);
      for (int r = 1; r < ranks.size; ++r) {
        mpi.recv(block.data.data(), int64_t(block.data.size()), r,
                 kResultTag + int(j));
        putBlock(full, block, param.split, r, ranks.size);
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
