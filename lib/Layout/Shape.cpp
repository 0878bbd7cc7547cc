//===- Shape.cpp - Broadcasting and matmul shape rules --------------------===//

#include "stride/Layout/Shape.h"

#include <algorithm>
#include <sstream>

namespace stride::layout {

std::string formatShape(const Shape &shape) {
  if (shape.empty())
    return "0-d";
  std::string text;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      text += 'x';
    text += isDynamic(shape[i]) ? std::string("?") : std::to_string(shape[i]);
  }
  return text;
}

namespace {

/// "a", "a and b", "a, b and c".
std::string joinList(const std::vector<std::string> &items) {
  std::string text;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i)
      text += i + 1 == items.size() ? " and " : ", ";
    text += items[i];
  }
  return text;
}

/// Broadcasting shared by elementwise ops (operands named "operand N") and
/// matmul batch dims (named "lhs batch"/"rhs batch"), so both report errors
/// alike.
BroadcastResult broadcastNamed(const std::vector<Shape> &shapes,
                               const std::vector<std::string> &names) {
  size_t rank = 0;
  for (const Shape &s : shapes)
    rank = std::max(rank, s.size());

  BroadcastResult result;
  result.shape.assign(rank, 1);
  // Walk from the innermost dim outwards so that, like PyTorch, the error
  // names the rightmost dim that does not fit.
  for (size_t back = 0; back < rank; ++back) {
    int64_t size = 1;
    int owner = -1; // operand that fixed a static size other than 1
    for (size_t op = 0; op < shapes.size(); ++op) {
      const Shape &s = shapes[op];
      if (back >= s.size())
        continue;
      int64_t d = s[s.size() - 1 - back];
      if (d == 1)
        continue;
      if (isDynamic(d)) {
        // An unknown size never contradicts: it must turn out to be 1 or the
        // static size, which the run time checks.
        if (size == 1)
          size = kDynamic;
        continue;
      }
      if (size == 1 || isDynamic(size)) {
        size = d;
        owner = static_cast<int>(op);
        continue;
      }
      if (size == d)
        continue;

      ShapeError error;
      error.resultDim = static_cast<int64_t>(rank - 1 - back);
      for (const Shape &t : shapes)
        error.operandDims.push_back(
            back < t.size() ? static_cast<int64_t>(t.size() - 1 - back) : -1);
      std::vector<std::string> listed;
      for (size_t i = 0; i < shapes.size(); ++i)
        listed.push_back(names[i] + " of shape " + formatShape(shapes[i]));
      std::ostringstream msg;
      msg << "cannot broadcast " << joinList(listed)
          << ": result dim " << error.resultDim << " has size " << size
          << " in " << names[owner] << " (its dim "
          << error.operandDims[owner] << ") but size " << d << " in "
          << names[op] << " (its dim " << error.operandDims[op] << ")";
      error.message = msg.str();
      result.shape.clear();
      result.error = std::move(error);
      return result;
    }
    result.shape[rank - 1 - back] = size;
  }
  return result;
}

} // namespace

BroadcastResult broadcastShapes(const std::vector<Shape> &shapes) {
  std::vector<std::string> names;
  for (size_t i = 0; i < shapes.size(); ++i)
    names.push_back("operand " + std::to_string(i));
  return broadcastNamed(shapes, names);
}

MatmulResult matmulShape(const Shape &lhs, const Shape &rhs) {
  MatmulResult out;
  MatmulInfo &info = out.info;
  const std::string shapes =
      "lhs " + formatShape(lhs) + ", rhs " + formatShape(rhs);

  if (lhs.empty() || rhs.empty()) {
    ShapeError error;
    error.operandDims = {-1, -1};
    error.message = std::string("matmul needs operands of rank 1 or more, but ") +
                    (lhs.empty() ? "lhs" : "rhs") + " is 0-d (" + shapes + ")";
    out.error = std::move(error);
    return out;
  }

  const int64_t lhsRank = static_cast<int64_t>(lhs.size());
  const int64_t rhsRank = static_cast<int64_t>(rhs.size());
  info.lhsIsVector = lhsRank == 1;
  info.rhsIsVector = rhsRank == 1;
  info.m = info.lhsIsVector ? 1 : lhs[lhsRank - 2];
  info.n = info.rhsIsVector ? 1 : rhs[rhsRank - 1];
  if (!info.lhsIsVector)
    info.lhsBatch.assign(lhs.begin(), lhs.end() - 2);
  if (!info.rhsIsVector)
    info.rhsBatch.assign(rhs.begin(), rhs.end() - 2);

  const int64_t lhsK = lhsRank - 1;
  const int64_t rhsK = info.rhsIsVector ? 0 : rhsRank - 2;
  const int64_t kl = lhs[lhsK], kr = rhs[rhsK];
  // Contracted dims never broadcast (a 1 does not stretch), so any two
  // different static sizes are an error; an unknown one is checked later.
  if (!isDynamic(kl) && !isDynamic(kr) && kl != kr) {
    ShapeError error;
    error.operandDims = {lhsK, rhsK};
    std::ostringstream msg;
    msg << "contracted dimensions differ: lhs dim " << lhsK << " has size "
        << kl << ", rhs dim " << rhsK << " has size " << kr << " (" << shapes
        << ")";
    error.message = msg.str();
    out.error = std::move(error);
    return out;
  }
  info.k = isDynamic(kl) ? kr : kl;

  BroadcastResult batch =
      broadcastNamed({info.lhsBatch, info.rhsBatch}, {"lhs batch", "rhs batch"});
  if (!batch.ok()) {
    // Batch dims lead both the operands and the result, so the indices
    // computed on the batch shapes are already the right ones.
    out.error = std::move(batch.error);
    out.error->message += " (" + shapes + ")";
    return out;
  }
  info.batch = batch.shape;
  info.result = info.batch;
  if (!info.lhsIsVector)
    info.result.push_back(info.m);
  if (!info.rhsIsVector)
    info.result.push_back(info.n);
  return out;
}

} // namespace stride::layout
