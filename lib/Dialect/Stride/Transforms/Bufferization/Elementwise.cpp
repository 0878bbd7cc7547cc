//===- Elementwise.cpp - stride.broadcast as a linalg.generic -------------===//

#include "Kernels.h"

#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::stride;

LogicalResult KernelBuilder::emitBroadcast(BroadcastOp op, ValueRange inputs,
                             ValueRange dests, ArrayRef<OpFoldResult> sizes) {
  Location loc = op.getLoc();
  auto resultType = dyn_cast<RankedTensorType>(op.getResult(0).getType());
  if (!resultType)
    return op.emitOpError()
           << "result shape is unknown; run stride-infer-shapes "
              "before bufferization";
  int64_t rank = resultType.getRank();
  // Loops, outermost first, each a group of result dims (outer to inner).
  SmallVector<SmallVector<int64_t>> groups = op.getIterationGroups();
  if (groups.empty()) {
    LayoutAttr layoutAttr = getLayout(resultType);
    SmallVector<int64_t> order =
        layoutAttr ? layoutAttr.getDimOrder(resultType.getShape())
                   : SmallVector<int64_t>();
    if (order.empty())
      for (int64_t d = 0; d < rank; ++d)
        order.push_back(d);
    for (int64_t d : order)
      groups.push_back({d});
  }
  IndexMath math(b, loc);
  // A view of `memref` (right-aligned to the result) with one dim per loop.
  // Fails when a group of dims is not one arithmetic progression in it (the
  // group's index is then in `badGroup`) or a negative stride meets a
  // dynamic size.
  std::optional<size_t> badGroup;
  auto viewOf = [&](Value memref) -> FailureOr<LoopView> {
    badGroup.reset();
    auto type = cast<MemRefType>(memref.getType());
    int64_t lead = rank - type.getRank();
    StridedMetadata meta = getStridedMetadata(b, loc, memref);
    // The stride of result dim `d` in this operand: 0 where it broadcasts.
    auto strideOf = [&](int64_t d) -> OpFoldResult {
      int64_t own = d - lead;
      if (own < 0)
        return math.constant(0);
      return broadcastStride(math, meta, own);
    };
    SmallVector<ViewDim> dims;
    for (auto [loop, group] : llvm::enumerate(groups)) {
      OpFoldResult size = math.constant(1);
      for (int64_t d : group)
        size = math.mul(size, sizes[d]);
      // The loop walks the group's dims as one: every non-trivial dim must
      // continue the progression of the next inner one (TensorIterator's
      // coalescing rule), and its step is the innermost one's stride.
      std::optional<int64_t> innerStride, innerSize;
      OpFoldResult stride = math.constant(0);
      bool first = true;
      for (int64_t d : llvm::reverse(group)) {
        std::optional<int64_t> n = getConstantIntValue(sizes[d]);
        if (group.size() > 1 && !n) {
          badGroup = loop;
          return failure();
        }
        if (group.size() > 1 && *n == 1)
          continue;
        OpFoldResult st = strideOf(d);
        if (first) {
          stride = st;
          first = false;
        } else {
          std::optional<int64_t> c = getConstantIntValue(st);
          if (!c || !innerStride || *innerStride * *innerSize != *c) {
            badGroup = loop;
            return failure();
          }
        }
        innerStride = getConstantIntValue(st);
        innerSize = n;
      }
      dims.push_back({size, stride, static_cast<unsigned>(loop)});
    }
    return makeView(b, loc, memref, meta.offset, dims);
  };
  auto viewError = [&](StringRef what, size_t i) {
    return op.emitOpError()
           << what << " #" << i
           << " cannot be viewed with the loops of 'iteration': a merged "
              "group of dims is not one progression in it, or a negative "
              "stride meets a dynamic size";
  };

  // Coalescing merged dims by the tensors' layouts, but a buffer's layout
  // can be less known than its tensor's: a loop's or a call's result
  // bufferizes to a fully dynamic strided memref even when its tensor is
  // row-major. A merged group that is not provably one progression in some
  // operand is split back into its dims (always valid, only more loops),
  // and the views are built again.
  unsigned numLoops;
  SmallVector<Value> viewInputs, viewOutputs;
  SmallVector<AffineMap> maps;
  auto buildViews = [&]() -> LogicalResult {
    numLoops = groups.size();
    viewInputs.clear();
    viewOutputs.clear();
    maps.clear();
    for (auto [i, input] : llvm::enumerate(inputs)) {
      if (!isa<MemRefType>(input.getType())) {
        viewInputs.push_back(input); // a scalar: the same value everywhere
        maps.push_back(AffineMap::get(numLoops, 0, {}, b.getContext()));
        continue;
      }
      FailureOr<LoopView> view = viewOf(input);
      if (failed(view))
        return badGroup ? failure() : viewError("input", i);
      viewInputs.push_back(view->view);
      maps.push_back(AffineMap::get(numLoops, 0, view->exprs, b.getContext()));
    }
    // A tensor with no elements is never written, whatever its strides.
    bool empty = llvm::any_of(sizes, [](OpFoldResult s) {
      std::optional<int64_t> c = getConstantIntValue(s);
      return c && *c == 0;
    });
    for (auto [i, dest] : llvm::enumerate(dests)) {
      StridedMetadata meta = getStridedMetadata(b, loc, dest);
      for (auto [d, stride] : llvm::enumerate(meta.strides)) {
        std::optional<int64_t> s = getConstantIntValue(stride);
        std::optional<int64_t> n = getConstantIntValue(meta.sizes[d]);
        if (!empty && s && *s == 0 && (!n || *n > 1))
          return op.emitOpError()
                 << "destination #" << i << " has stride 0 in dimension " << d
                 << "; a destination must not repeat elements";
      }
      FailureOr<LoopView> view = viewOf(dest);
      if (failed(view))
        return badGroup ? failure() : viewError("destination", i);
      viewOutputs.push_back(view->view);
      maps.push_back(AffineMap::get(numLoops, 0, view->exprs, b.getContext()));
    }
    return success();
  };
  while (failed(buildViews())) {
    if (!badGroup)
      return failure();
    // Views built so far are dead; the canonicalizer drops them.
    SmallVector<int64_t> group = std::move(groups[*badGroup]);
    groups.erase(groups.begin() + *badGroup);
    for (auto [j, d] : llvm::enumerate(group))
      groups.insert(groups.begin() + *badGroup + j, {d});
  }
  // The loops are parallel, so a loop every view walks backwards (a
  // destination included) may be walked forwards.
  plainLoopIndices(maps, numLoops, b.getContext());
  SmallVector<utils::IteratorType> iterators(numLoops,
                                             utils::IteratorType::parallel);
  Block &body = op.getBodyBlock();
  emitGeneric(loc, viewInputs, viewOutputs, maps, iterators,
              [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
                linalg::YieldOp::create(nested, nestedLoc,
                                        cloneScalarBody(nested, body, args));
              });
  return success();
}
