//===- Destinations.cpp - A public function's results become arguments ---===//
//
// The JIT, the ahead-of-time runner and Python allocate every output in the
// layout the compiler reports and pass it in. At the tensor level that is a
// trailing argument per tensor result that the returned value is computed
// into: as the destination of the stride.broadcast producing it when there is
// one (One-Shot then writes the kernel's result there directly), otherwise by
// an explicit copy. After bufferization the results are those arguments and
// dropOutputResults removes them (upstream's drop-equivalent-buffer-results
// leaves public functions alone).
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"
#include "Preparation.h"

#include "stride/Dialect/Stride/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::stride;

/// A broadcast that allocates its results (no destinations, or only
/// tensor.empty ones) can compute its single result into `dest` instead.
static bool canRetarget(BroadcastOp op, Block *block) {
  return op && op->getBlock() == block && op->getNumResults() == 1 &&
         llvm::all_of(op.getInits(), [](Value init) {
           return init.getDefiningOp<tensor::EmptyOp>();
         });
}

static Value copyInto(OpBuilder &b, Location loc, Value value, Value dest) {
  auto copy = BroadcastOp::create(b, loc, TypeRange{dest.getType()},
                                  ValueRange{value}, ValueRange{dest});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&copy.getBodyBlock());
  YieldOp::create(b, loc, copy.getBodyBlock().getArgument(0));
  return copy.getResult(0);
}

void mlir::stride::resultsToDestinations(func::FuncOp func) {
  Builder builder(func.getContext());
  SmallVector<Type> outputTypes;
  for (Type t : func.getResultTypes())
    if (isa<RankedTensorType>(t))
      outputTypes.push_back(t);
  func->setAttr(kNumOutputsAttr, builder.getI64IntegerAttr(outputTypes.size()));
  if (outputTypes.empty())
    return;
  unsigned first = func.getNumArguments();
  for (Type t : outputTypes)
    (void)func.insertArgument(func.getNumArguments(), t, {}, func.getLoc());
  Block &entry = func.front();
  SmallVector<int64_t> positions;
  for (auto [k, type] : llvm::enumerate(func.getResultTypes()))
    if (isa<RankedTensorType>(type))
      positions.push_back(k);
  // Every return (a body with cf branches has several) computes its
  // results into the same output arguments.
  SmallVector<func::ReturnOp> returns;
  func.walk([&](func::ReturnOp ret) { returns.push_back(ret); });
  for (func::ReturnOp ret : returns) {
    OpBuilder b(ret);
    unsigned next = first;
    for (int64_t position : positions) {
      OpOperand &operand = ret->getOpOperand(position);
      Value value = operand.get();
      Value dest = entry.getArgument(next++);
      auto producer = value.getDefiningOp<BroadcastOp>();
      if (ret->getBlock() == &entry && canRetarget(producer, &entry)) {
        producer.getInitsMutable().assign(dest);
        continue;
      }
      // A row loop of stride-fuse-rows writes its blocks into its shared
      // output: that may as well be the output argument.
      if (auto loop = value.getDefiningOp<scf::ForallOp>();
          loop && ret->getBlock() == &entry && loop->getBlock() == &entry &&
          loop->hasAttr(kRowBlockAttr) && loop.getNumResults() == 1 &&
          value.hasOneUse() && value.getType() == dest.getType()) {
        OpOperand &shared = loop.getOutputsMutable()[0];
        if (auto empty = shared.get().getDefiningOp<tensor::EmptyOp>();
            empty && empty->hasOneUse()) {
          shared.set(dest);
          empty.erase();
          continue;
        }
      }
      Value copy = copyInto(b, ret.getLoc(), value, dest);
      copy.getDefiningOp()->setAttr(kOutputCopyAttr, b.getUnitAttr());
      operand.set(copy);
    }
  }
  func->setAttr(kOutputResultsAttr, builder.getDenseI64ArrayAttr(positions));
}

void mlir::stride::dropOutputResults(func::FuncOp func) {
  auto positions = func->getAttrOfType<DenseI64ArrayAttr>(kOutputResultsAttr);
  if (!positions)
    return;
  func->removeAttr(kOutputResultsAttr);
  Block &entry = func.front();
  SmallVector<func::ReturnOp> returns;
  func.walk([&](func::ReturnOp ret) { returns.push_back(ret); });
  SmallVector<Value> kept;
  for (func::ReturnOp ret : returns) {
    kept.clear();
    unsigned next = func.getNumArguments() - positions.size();
    OpBuilder b(ret);
    for (OpOperand &operand : ret->getOpOperands()) {
      Value value = operand.get();
      // Exactly the results resultsToDestinations gave an argument (an
      // unranked one has none, and stays a result).
      if (!llvm::is_contained(positions.asArrayRef(),
                              operand.getOperandNumber())) {
        kept.push_back(value);
        continue;
      }
      Value dest = entry.getArgument(next++);
      Value source = value;
      while (auto cast = source.getDefiningOp<memref::CastOp>())
        source = cast.getSource();
      // One-Shot keeps the result in the argument's buffer; should its
      // analysis ever decide otherwise, the value still reaches the output.
      if (source != dest)
        linalg::CopyOp::create(b, ret.getLoc(), value, dest);
    }
    func::ReturnOp::create(b, ret.getLoc(), kept);
    ret.erase();
  }
  func.setType(FunctionType::get(func.getContext(), func.getArgumentTypes(),
                                 TypeRange(ValueRange(kept))));
}
