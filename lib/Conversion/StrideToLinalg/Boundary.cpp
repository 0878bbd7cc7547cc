//===- Boundary.cpp - convert-stride-to-linalg: whole functions to DPS ----===//
//
// The legacy route that rewrites each function by hand into destination-
// passing style on memrefs. The kernels themselves come from Kernels.h, the
// same code the bufferization models use.
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"

#include "stride/Conversion/Passes.h"
#include "stride/Dialect/Stride/IR/StrideOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "convert-stride-to-linalg"

namespace mlir::stride {
#define GEN_PASS_DEF_CONVERTSTRIDETOLINALG
#include "stride/Conversion/Passes.h.inc"
} // namespace mlir::stride

using namespace mlir;
using namespace mlir::stride;

namespace {

bool hasTensor(TypeRange types) {
  return llvm::any_of(types, [](Type t) { return isa<TensorType>(t); });
}

/// Lowers one function; see the pass description for the scheme.
class FunctionLowering {
public:
  FunctionLowering(func::FuncOp oldFunc, unsigned threads)
      : oldFunc(oldFunc), b(oldFunc), kernels(b, threads) {}

  LogicalResult run();

private:
  LogicalResult lowerOp(Operation *op);
  LogicalResult lowerBroadcast(BroadcastOp op);
  LogicalResult lowerMatmul(MatmulOp op);
  LogicalResult lowerReturn(func::ReturnOp op);
  /// The buffer result `result` is computed into: a returned value goes
  /// straight to its output argument, anything else to a new allocation.
  Value destinationFor(Value result, ArrayRef<OpFoldResult> sizes);
  Value allocate(RankedTensorType type, ArrayRef<OpFoldResult> sizes);

  func::FuncOp oldFunc, newFunc;
  OpBuilder b;
  KernelBuilder kernels;
  IRMapping mapping;
  SmallVector<Value> outputs;          // the output arguments
  SmallVector<bool> outputWritten;     // computed in place already?
  DenseMap<Value, unsigned> returnedAt; // old value -> first output index
  SmallVector<Value> allocations;
};

Value FunctionLowering::destinationFor(Value result,
                                       ArrayRef<OpFoldResult> sizes) {
  auto it = returnedAt.find(result);
  if (it != returnedAt.end() && !outputWritten[it->second]) {
    outputWritten[it->second] = true;
    return outputs[it->second];
  }
  return allocate(cast<RankedTensorType>(result.getType()), sizes);
}

Value FunctionLowering::allocate(RankedTensorType type,
                                 ArrayRef<OpFoldResult> sizes) {
  Value alloc;
  Value view = kernels.allocate(oldFunc.getLoc(), type, sizes, &alloc);
  allocations.push_back(alloc);
  return view;
}

LogicalResult FunctionLowering::lowerBroadcast(BroadcastOp op) {
  Location loc = op.getLoc();
  auto resultType = dyn_cast<RankedTensorType>(op.getResult(0).getType());
  if (!resultType)
    return op.emitOpError() << "result shape is unknown; run stride-infer-shapes "
                               "before convert-stride-to-linalg";
  SmallVector<Value> inputs;
  for (Value v : op.getInputs())
    inputs.push_back(mapping.lookup(v));
  SmallVector<OpFoldResult> sizes;
  SmallVector<Value> dests;
  bool intoEmpty = llvm::all_of(op.getInits(), [](Value init) {
    return init.getDefiningOp<tensor::EmptyOp>();
  });
  if (!op.getInits().empty() && !intoEmpty) {
    // The result is written into the destination's buffer, so the old value
    // must not be read afterwards.
    for (auto [i, init] : llvm::enumerate(op.getInits()))
      for (Operation *user : init.getUsers())
        if (user != op && user->getBlock() == op->getBlock() &&
            op->isBeforeInBlock(user))
          return op.emitOpError()
                 << "overwrites destination #" << i
                 << " in place, but the old value is used afterwards (by "
                 << user->getName() << "); use this op's result instead";
    for (Value init : op.getInits())
      dests.push_back(mapping.lookup(init));
    sizes = kernels.sizesOf(dests.front());
  } else {
    sizes = kernels.broadcastSizes(loc, resultType, inputs);
    for (Value result : op.getResults())
      dests.push_back(destinationFor(result, sizes));
  }
  for (auto [result, dest] : llvm::zip(op.getResults(), dests))
    mapping.map(result, dest);

  return kernels.emitBroadcast(op, inputs, dests, sizes);
}

LogicalResult FunctionLowering::lowerMatmul(MatmulOp op) {
  return kernels.emitMatmul(
      op, mapping.lookup(op.getLhs()), mapping.lookup(op.getRhs()),
      [&](ArrayRef<OpFoldResult> sizes) {
        Value dest = destinationFor(op.getResult(), sizes);
        mapping.map(op.getResult(), dest);
        return dest;
      });
}

LogicalResult FunctionLowering::lowerReturn(func::ReturnOp op) {
  SmallVector<Value> scalars;
  unsigned next = 0;
  for (Value v : op.getOperands()) {
    if (!isa<TensorType>(v.getType())) {
      scalars.push_back(mapping.lookupOrDefault(v));
      continue;
    }
    unsigned index = next++;
    Value buffer = mapping.lookup(v);
    if (buffer != outputs[index])
      linalg::CopyOp::create(b, op.getLoc(), buffer, outputs[index]);
  }
  for (Value alloc : allocations)
    memref::DeallocOp::create(b, op.getLoc(), alloc);
  func::ReturnOp::create(b, op.getLoc(), scalars);
  return success();
}

LogicalResult FunctionLowering::lowerOp(Operation *op) {
  if (auto broadcast = dyn_cast<BroadcastOp>(op))
    return lowerBroadcast(broadcast);
  if (auto matmul = dyn_cast<MatmulOp>(op))
    return lowerMatmul(matmul);
  if (auto ret = dyn_cast<func::ReturnOp>(op))
    return lowerReturn(ret);
  if (isNamedElementwise(op))
    return op->emitOpError()
           << "must be generalized first (run stride-generalize)";
  if (auto empty = dyn_cast<tensor::EmptyOp>(op)) {
    // An empty tensor that only serves as destinations needs no buffer of
    // its own: each broadcast writes where its result goes.
    if (llvm::all_of(empty->getUses(), [](OpOperand &use) {
          auto broadcast = dyn_cast<BroadcastOp>(use.getOwner());
          return broadcast && use.getOperandNumber() >=
                                  broadcast.getInputs().size();
        }))
      return success();
    SmallVector<OpFoldResult> sizes = empty.getMixedSizes();
    for (OpFoldResult &s : sizes)
      if (auto v = dyn_cast<Value>(s))
        s = mapping.lookupOrDefault(v);
    mapping.map(empty.getResult(), allocate(empty.getType(), sizes));
    return success();
  }
  if (auto dim = dyn_cast<tensor::DimOp>(op)) {
    Value source = mapping.lookup(dim.getSource());
    mapping.map(dim.getResult(),
                memref::DimOp::create(b, dim.getLoc(), source,
                                      mapping.lookupOrDefault(dim.getIndex())));
    return success();
  }
  if (auto castOp = dyn_cast<tensor::CastOp>(op)) {
    auto type = dyn_cast<RankedTensorType>(castOp.getType());
    Value source = mapping.lookup(castOp.getSource());
    if (!type || !memref::CastOp::areCastCompatible(source.getType(),
                                                    memrefTypeFor(type)))
      return op->emitOpError() << "cannot be lowered to a memref cast";
    mapping.map(castOp.getResult(),
                memref::CastOp::create(b, op->getLoc(), memrefTypeFor(type),
                                       source));
    return success();
  }
  if (hasTensor(op->getOperandTypes()) || hasTensor(op->getResultTypes()))
    return op->emitOpError()
           << "on tensors is not supported by convert-stride-to-linalg";
  b.clone(*op, mapping);
  return success();
}

LogicalResult FunctionLowering::run() {
  if (!oldFunc.getBody().hasOneBlock())
    return oldFunc.emitOpError()
           << "has several blocks; convert-stride-to-linalg needs one";
  FunctionType oldType = oldFunc.getFunctionType();
  SmallVector<Type> inputs, results;
  for (Type t : oldType.getInputs()) {
    if (auto ranked = dyn_cast<RankedTensorType>(t))
      inputs.push_back(memrefTypeFor(ranked));
    else if (isa<TensorType>(t))
      return oldFunc.emitOpError()
             << "has an unranked tensor argument; give its rank";
    else
      inputs.push_back(t);
  }
  unsigned numOutputs = 0;
  for (Type t : oldType.getResults()) {
    if (auto ranked = dyn_cast<RankedTensorType>(t)) {
      inputs.push_back(memrefTypeFor(ranked));
      ++numOutputs;
    } else if (isa<TensorType>(t)) {
      return oldFunc.emitOpError()
             << "has an unranked result; run stride-infer-shapes first";
    } else {
      results.push_back(t);
    }
  }
  b.setInsertionPoint(oldFunc);
  newFunc = func::FuncOp::create(b, oldFunc.getLoc(), oldFunc.getName(),
                                 b.getFunctionType(inputs, results));
  newFunc.setVisibility(oldFunc.getVisibility());
  newFunc->setAttr("stride.num_outputs", b.getI64IntegerAttr(numOutputs));
  Block *entry = newFunc.addEntryBlock();
  Block &oldEntry = oldFunc.getBody().front();
  for (auto [old, arg] :
       llvm::zip(oldEntry.getArguments(), entry->getArguments()))
    mapping.map(old, arg);
  for (unsigned i = 0; i < numOutputs; ++i)
    outputs.push_back(entry->getArgument(oldType.getNumInputs() + i));
  outputWritten.assign(numOutputs, false);
  auto ret = cast<func::ReturnOp>(oldEntry.getTerminator());
  unsigned index = 0;
  for (Value v : ret.getOperands())
    if (isa<TensorType>(v.getType())) {
      // A function argument returned as is must still be copied.
      if (!isa<BlockArgument>(v))
        returnedAt.try_emplace(v, index);
      ++index;
    }
  b.setInsertionPointToStart(entry);
  for (Operation &op : oldEntry)
    if (failed(lowerOp(&op))) {
      newFunc.erase();
      return failure();
    }
  newFunc.setName(oldFunc.getName());
  oldFunc.erase();
  return success();
}

struct ConvertStrideToLinalgPass
    : mlir::stride::impl::ConvertStrideToLinalgBase<ConvertStrideToLinalgPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<func::FuncOp> funcs;
    getOperation().walk([&](func::FuncOp func) {
      if (!func.isExternal() &&
          (hasTensor(func.getArgumentTypes()) ||
           hasTensor(func.getResultTypes())))
        funcs.push_back(func);
    });
    for (func::FuncOp func : funcs) {
      func.walk([&](Operation *op) {
        numBroadcasts += isa<BroadcastOp>(op);
        numMatmuls += isa<MatmulOp>(op);
      });
      LLVM_DEBUG(llvm::dbgs() << "[convert-stride-to-linalg] @"
                              << func.getName() << "\n");
      ++numFunctions;
      if (failed(FunctionLowering(func, threads).run()))
        return signalPassFailure();
    }
  }
};
} // namespace
