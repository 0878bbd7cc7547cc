//===- ModuleStructure.cpp - Calls and scf regions for Stride's passes ----===//

#include "ModuleStructure.h"

#include "stride/Dialect/Stride/IR/StrideOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::stride;

namespace {

/// `value` without the tensor.casts the passes put in front of users that
/// kept an older type.
Value throughCasts(Value value) {
  while (auto cast = value.getDefiningOp<tensor::CastOp>())
    value = cast.getSource();
  return value;
}

/// Marks the copies `convert` makes, which a later round may undo when the
/// types it reconciled have come to agree.
constexpr StringLiteral kLayoutCopyAttr = "stride.layout_copy";

/// `value` without casts and without the copies of earlier rounds.
Value throughLayoutCopies(Value value) {
  while (true) {
    value = throughCasts(value);
    auto copy = value.getDefiningOp<BroadcastOp>();
    if (!copy || !copy->hasAttr(kLayoutCopyAttr))
      return value;
    value = copy.getInputs()[0];
  }
}

/// Erases `value`'s chain of casts and layout copies as far as nothing else
/// uses it.
void eraseIfDead(Value value) {
  while (value && value.use_empty()) {
    Operation *op = value.getDefiningOp();
    if (!op || !(isa<tensor::CastOp>(op) ||
                 (isa<BroadcastOp>(op) && op->hasAttr(kLayoutCopyAttr))))
      return;
    Value next = op->getOperand(0);
    SmallVector<Value> inits;
    if (auto copy = dyn_cast<BroadcastOp>(op))
      inits.append(copy.getInits().begin(), copy.getInits().end());
    op->erase();
    for (Value init : inits)
      if (init.use_empty())
        if (auto empty = init.getDefiningOp<tensor::EmptyOp>())
          empty.erase();
    value = next;
  }
}

/// Whether `to` may replace `from`: same element type and compatible shapes
/// (a refinement, or the same shape in another layout).
bool replaceable(Type from, Type to) {
  auto fromTensor = dyn_cast<TensorType>(from);
  auto toTensor = dyn_cast<RankedTensorType>(to);
  return fromTensor && toTensor && from != to &&
         fromTensor.getElementType() == toTensor.getElementType() &&
         succeeded(verifyCompatibleShape(fromTensor, toTensor));
}

/// Gives `value` the type `type`; users that need the old type exactly
/// (everything but Stride ops, returns and the yields fixed up later) see
/// it through a tensor.cast.
void retype(Value value, Type type) {
  Type old = value.getType();
  value.setType(type);
  for (OpOperand &use : llvm::make_early_inc_range(value.getUses())) {
    Operation *user = use.getOwner();
    if (isa<StrideDialect>(user->getDialect()) ||
        user->hasTrait<OpTrait::ReturnLike>() || isa<scf::ConditionOp>(user))
      continue;
    OpBuilder b(user);
    use.set(tensor::CastOp::create(b, user->getLoc(), old, value));
  }
}

/// `value` as a `type` value before `user`: itself without casts if that
/// has the type, a cast for a shape, a copy into a new tensor for a layout.
Value convert(OpBuilder &b, Location loc, Value value, Type type,
              Refinement refinement) {
  Value source = throughCasts(value);
  if (source.getType() == type)
    return source;
  if (value.getType() == type)
    return value;
  auto ranked = dyn_cast<RankedTensorType>(type);
  auto sourceType = dyn_cast<RankedTensorType>(source.getType());
  // Two spellings of one layout (`perm = [1, 0]`, `strides = [1, 4]`) are
  // the same buffer: a cast, not a copy.
  bool sameStrides = ranked && sourceType && ranked.hasStaticShape() &&
                     sourceType.getShape() == ranked.getShape() &&
                     getStridesOf(sourceType) == getStridesOf(ranked);
  if (refinement == Refinement::Layout && ranked && sourceType &&
      sourceType.getShape() == ranked.getShape() &&
      sourceType.getEncoding() != ranked.getEncoding() && !sameStrides) {
    Value copy = buildCopy(b, loc, source, ranked);
    copy.getDefiningOp()->setAttr(kLayoutCopyAttr, b.getUnitAttr());
    return copy;
  }
  return tensor::CastOp::create(b, loc, type, sameStrides ? source : value);
}

/// Set when a yielded value cannot take the type its loop carries.
bool incompatibleYield = false;

/// Brings the operands of `terminator` to `types`.
bool reconcileOperands(Operation *terminator, OperandRange operands,
                       TypeRange types, Refinement refinement) {
  // An empty range has no begin index to read (a loop that carries nothing),
  // and a count that differs is left to the verifier.
  if (types.empty() || operands.size() != types.size())
    return false;
  bool changed = false;
  OpBuilder b(terminator);
  unsigned first = operands.getBeginOperandIndex();
  for (auto [i, type] : llvm::enumerate(types)) {
    OpOperand &operand = terminator->getOpOperand(first + i);
    Value value = operand.get();
    Value source = throughLayoutCopies(value);
    if (!isa<TensorType>(type))
      continue;
    // The value before the copies of earlier rounds, else a copy that
    // already gives the type, is yielded as it is.
    Value exact;
    if (source.getType() == type)
      exact = source;
    else if (throughCasts(value).getType() == type)
      exact = throughCasts(value);
    if (exact) {
      if (value != exact) {
        operand.set(exact);
        eraseIfDead(value);
        changed = true;
      }
      continue;
    }
    auto haveTensor = dyn_cast<TensorType>(source.getType());
    auto wantTensor = cast<TensorType>(type);
    if (!haveTensor ||
        haveTensor.getElementType() != wantTensor.getElementType() ||
        failed(verifyCompatibleShape(haveTensor, wantTensor))) {
      terminator->emitOpError()
          << "operand #" << first + i << " has type " << source.getType()
          << " but the region's value has type " << type
          << "; a loop-carried or yielded value keeps one shape";
      incompatibleYield = true;
      continue;
    }
    // A refined shape may stay behind its cast; another layout is copied.
    if (value.getType() == type &&
        (refinement == Refinement::Shape || value == source))
      continue;
    Value converted = convert(b, terminator->getLoc(),
                              source == throughCasts(value) ? value : source,
                              type, refinement);
    operand.set(converted);
    if (converted != value)
      eraseIfDead(value);
    changed = true;
  }
  return changed;
}

/// Whether a value of `type` repeats elements along a dim (stride 0 where
/// the size is not 1: an expanded argument), so that a loop cannot carry
/// other values in its layout.
bool repeatsAlongADim(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked || !isa_and_nonnull<LayoutAttr>(ranked.getEncoding()))
    return false;
  // A value without elements repeats none (NumPy gives it strides 0).
  if (llvm::is_contained(ranked.getShape(), 0))
    return false;
  SmallVector<int64_t> strides = getStridesOf(ranked);
  for (auto [size, stride] : llvm::zip(ranked.getShape(), strides))
    if (stride == 0 && size != 1)
      return true;
  return false;
}

/// The policy's copy of `value`, right after it.
Value copyForPolicy(Value value) {
  OpBuilder b(value.getContext());
  b.setInsertionPointAfterValue(value);
  return buildClone(b, value.getLoc(), value);
}

/// Loop-carried values take the types of the values they start from. A
/// value that repeats elements starts the loop as the policy's copy of it:
/// each iteration writes a new value in the carried layout, as PyTorch and
/// NumPy give `x = f(x)` a dense result when `x` was expanded.
bool refineCarried(ValueRange inits, MutableArrayRef<OpOperand> initOperands,
                   ValueRange regionArgs, ValueRange results,
                   Refinement refinement) {
  bool changed = false;
  for (auto [i, init] : llvm::enumerate(inits)) {
    Value source = throughCasts(init);
    bool copied = false;
    if (repeatsAlongADim(source.getType())) {
      // The shape pass carries the shape only, so that no region (an
      // scf.if yielding the carried value) takes the repeating layout
      // before the layout pass makes the copy.
      if (refinement == Refinement::Shape) {
        auto ranked = cast<RankedTensorType>(source.getType());
        auto plain =
            RankedTensorType::get(ranked.getShape(), ranked.getElementType());
        if (init.getType() == plain) {
          source = init;
        } else {
          OpBuilder b(source.getContext());
          b.setInsertionPointAfterValue(source);
          source = tensor::CastOp::create(b, source.getLoc(), plain, source);
        }
      } else {
        source = copyForPolicy(source);
      }
      copied = init != source;
    }
    Type type = source.getType();
    if (!replaceable(regionArgs[i].getType(), type)) {
      if (copied) {
        initOperands[i].set(source);
        changed = true;
      }
      continue;
    }
    initOperands[i].set(source);
    retype(regionArgs[i], type);
    if (results.size() > i)
      retype(results[i], type);
    changed = true;
  }
  return changed;
}

/// Before the function's ops are refined: loop-carried values take the
/// types of the values that enter the loop.
bool refineCarriedTypes(func::FuncOp func, Refinement refinement) {
  bool changed = false;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      changed |= refineCarried(loop.getInitArgs(), loop.getInitArgsMutable(),
                               loop.getRegionIterArgs(), loop.getResults(),
                               refinement);
    } else if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      changed |= refineCarried(loop.getInits(), loop.getInitsMutable(),
                               loop.getBeforeArguments(), {}, refinement);
      scf::ConditionOp condition = loop.getConditionOp();
      for (auto [i, arg] : llvm::enumerate(condition.getArgs())) {
        Type type = throughCasts(arg).getType();
        if (!replaceable(loop.getAfterArguments()[i].getType(), type))
          continue;
        retype(loop.getAfterArguments()[i], type);
        retype(loop.getResult(i), type);
        changed = true;
      }
    }
  });
  return changed;
}

/// The type an scf.if result takes from its branches' types: the shape
/// pass needs them to agree on the shape only (a layout is the next pass's
/// business), the layout pass on the strides (`perm = [1, 0]` and `strides
/// = [1, 4]` are one layout of a 4x3 tensor); null where they disagree.
Type agreedType(Type thenType, Type elseType, Refinement refinement) {
  if (thenType == elseType)
    return thenType;
  auto a = dyn_cast<RankedTensorType>(thenType);
  auto b = dyn_cast<RankedTensorType>(elseType);
  if (!a || !b || a.getShape() != b.getShape() ||
      a.getElementType() != b.getElementType())
    return Type();
  if (refinement == Refinement::Shape)
    return RankedTensorType::get(a.getShape(), a.getElementType());
  if (a.hasStaticShape() && getStridesOf(a) == getStridesOf(b))
    return a;
  return Type();
}

/// After the function's ops are refined: yields are brought to the types
/// their regions carry, innermost first, and scf.if results refined.
bool reconcileYields(func::FuncOp func, Refinement refinement) {
  bool changed = false;
  func.walk([&](Operation *op) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      Operation *yield = loop.getBody()->getTerminator();
      changed |= reconcileOperands(yield, yield->getOperands(),
                                   ValueRange(loop.getRegionIterArgs()).getTypes(),
                                   refinement);
    } else if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      scf::ConditionOp condition = loop.getConditionOp();
      changed |= reconcileOperands(condition, condition.getArgs(),
                                   ValueRange(loop.getAfterArguments()).getTypes(),
                                   refinement);
      Operation *yield = loop.getAfterBody()->getTerminator();
      changed |= reconcileOperands(yield, yield->getOperands(),
                                   ValueRange(loop.getBeforeArguments()).getTypes(),
                                   refinement);
    } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
      if (branch.getNumResults() == 0 || !branch.elseBlock())
        return;
      Operation *thenYield = branch.thenBlock()->getTerminator();
      Operation *elseYield = branch.elseBlock()->getTerminator();
      for (auto [i, result] : llvm::enumerate(branch.getResults())) {
        Type thenType = throughLayoutCopies(thenYield->getOperand(i)).getType();
        Type elseType = throughLayoutCopies(elseYield->getOperand(i)).getType();
        Type agreed = agreedType(thenType, elseType, refinement);
        if (agreed && replaceable(result.getType(), agreed)) {
          retype(result, agreed);
          changed = true;
        }
      }
      changed |= reconcileOperands(thenYield, thenYield->getOperands(),
                                   branch.getResultTypes(), refinement);
      changed |= reconcileOperands(elseYield, elseYield->getOperands(),
                                   branch.getResultTypes(), refinement);
    }
  });
  return changed;
}

/// Functions of `module`, callees first; an error on a cycle.
FailureOr<SmallVector<func::FuncOp>> calleesFirst(ModuleOp module) {
  SmallVector<func::FuncOp> order;
  DenseMap<Operation *, int> state; // 1: on the stack, 2: done
  SmallVector<func::FuncOp> stack;
  SymbolTable symbols(module);
  std::function<LogicalResult(func::FuncOp)> visit =
      [&](func::FuncOp func) -> LogicalResult {
    int &s = state[func];
    if (s == 2)
      return success();
    if (s == 1) {
      std::string cycle;
      llvm::raw_string_ostream os(cycle);
      auto start = llvm::find(stack, func);
      for (auto it = start; it != stack.end(); ++it)
        os << "@" << it->getName() << " -> ";
      os << "@" << func.getName();
      return func.emitOpError()
             << "is recursive (" << cycle
             << "); Stride's shape and layout passes need a call graph "
                "without cycles";
    }
    s = 1;
    stack.push_back(func);
    WalkResult walk = func.walk([&](func::CallOp call) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (callee && failed(visit(callee)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    stack.pop_back();
    if (walk.wasInterrupted())
      return failure();
    state[func] = 2;
    order.push_back(func);
    return success();
  };
  for (func::FuncOp func : module.getOps<func::FuncOp>())
    if (failed(visit(func)))
      return failure();
  return order;
}

bool updateCalls(func::FuncOp func, MutableArrayRef<func::CallOp> calls) {
  bool changed = false;
  FunctionType type = func.getFunctionType();
  for (func::CallOp call : calls) {
    for (auto [result, want] : llvm::zip(call.getResults(), type.getResults()))
      if (result.getType() != want) {
        retype(result, want);
        changed = true;
      }
    OpBuilder b(call);
    for (auto [operand, want] :
         llvm::zip(call->getOpOperands(), type.getInputs()))
      if (operand.get().getType() != want) {
        Value source = throughCasts(operand.get());
        operand.set(source.getType() == want
                        ? source
                        : tensor::CastOp::create(b, call.getLoc(), want,
                                                 operand.get()));
        changed = true;
      }
  }
  return changed;
}

/// A private function takes the argument types all its call sites agree on.
bool refineArguments(func::FuncOp func, MutableArrayRef<func::CallOp> calls) {
  if (!func.isPrivate() || func.isExternal() || calls.empty())
    return false;
  bool changed = false;
  SmallVector<Type> inputs(func.getArgumentTypes());
  for (auto [i, declared] : llvm::enumerate(inputs)) {
    Type agreed = throughCasts(calls.front().getOperand(i)).getType();
    if (!replaceable(declared, agreed) ||
        llvm::any_of(calls, [&, i = i](func::CallOp call) {
          return throughCasts(call.getOperand(i)).getType() != agreed;
        }))
      continue;
    retype(func.getArgument(i), agreed);
    inputs[i] = agreed;
    changed = true;
  }
  if (changed)
    func.setType(FunctionType::get(func.getContext(), inputs,
                                   func.getResultTypes()));
  return changed;
}

/// A hash of the types of every value `func` defines: whether a pass's run
/// refined any of them.
llvm::hash_code valueTypes(func::FuncOp func) {
  llvm::hash_code hash = llvm::hash_value(func.getFunctionType().getAsOpaquePointer());
  func.walk([&](Operation *op) {
    for (Value v : op->getResults())
      hash = llvm::hash_combine(hash, v.getType().getAsOpaquePointer());
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          hash = llvm::hash_combine(hash, arg.getType().getAsOpaquePointer());
  });
  return hash;
}

/// How many copies of one private function specializeCallees makes at most:
/// beyond that, call sites that still disagree share the declared types.
constexpr unsigned kMaxSpecializations = 8;

/// A private function whose call sites pass arguments of different, more
/// refined types than it declares (shapes or layouts) gets a copy per
/// distinct set of argument types, so that each call's results get the
/// shapes and strides the eager library would give for its inputs (and
/// shape inference can decide them at all: one function called on a 4x3
/// and a 3 tensor would otherwise keep `tensor<*xf32>` inside). Returns
/// whether it made any copy.
bool specializeCallees(ModuleOp module) {
  SymbolTable symbols(module);
  SymbolTableCollection tables;
  SymbolUserMap users(tables, module);
  bool changed = false;
  for (func::FuncOp func : llvm::to_vector(module.getOps<func::FuncOp>())) {
    if (!func.isPrivate() || func.isExternal())
      continue;
    SmallVector<std::pair<SmallVector<Type>, SmallVector<func::CallOp>>> groups;
    bool onlyCalls = true;
    for (Operation *user : users.getUsers(func)) {
      auto call = dyn_cast<func::CallOp>(user);
      if (!call) {
        onlyCalls = false; // taken by address: leave its types alone
        break;
      }
      SmallVector<Type> types;
      for (auto [operand, declared] :
           llvm::zip(call.getOperands(), func.getArgumentTypes())) {
        Type agreed = throughCasts(operand).getType();
        types.push_back(replaceable(declared, agreed) ? agreed : declared);
      }
      auto *group = llvm::find_if(groups, [&](auto &g) { return g.first == types; });
      if (group == groups.end()) {
        groups.push_back({types, {}});
        group = std::prev(groups.end());
      }
      group->second.push_back(call);
    }
    if (!onlyCalls || groups.size() < 2 || groups.size() > kMaxSpecializations)
      continue;
    for (auto &group : llvm::drop_begin(groups)) {
      auto copy = cast<func::FuncOp>(func->clone());
      symbols.insert(copy, std::next(Block::iterator(func)));
      for (func::CallOp call : group.second)
        call.setCallee(copy.getName());
      changed = true;
    }
  }
  return changed;
}

} // namespace

LogicalResult mlir::stride::refineModule(
    Operation *root, Refinement refinement,
    function_ref<LogicalResult(func::FuncOp)> runOnFunction) {
  auto module = dyn_cast<ModuleOp>(root);
  if (!module) {
    SmallVector<func::FuncOp> funcs;
    if (auto func = dyn_cast<func::FuncOp>(root))
      funcs.push_back(func);
    else
      root->walk([&](func::FuncOp f) { funcs.push_back(f); });
    for (func::FuncOp func : funcs)
      if (!func.isExternal() && failed(runOnFunction(func)))
        return failure();
    return success();
  }
  FailureOr<SmallVector<func::FuncOp>> order = calleesFirst(module);
  if (failed(order))
    return failure();
  incompatibleYield = false;
  // Each round moves types at least one call or loop level further; the
  // bound only guards against a rule that would not settle.
  unsigned limit = 4 * (order->size() + 4);
  for (unsigned round = 0; round < limit; ++round) {
    bool changed = false;
    if (specializeCallees(module)) {
      order = calleesFirst(module);
      if (failed(order))
        return failure();
      limit += 4;
    }
    SymbolTableCollection tables;
    SymbolUserMap users(tables, module);
    for (func::FuncOp func : *order) {
      SmallVector<func::CallOp> calls;
      for (Operation *user : users.getUsers(func))
        if (auto call = dyn_cast<func::CallOp>(user))
          calls.push_back(call);
      if (!func.isExternal()) {
        changed |= refineArguments(func, calls);
        FunctionType before = func.getFunctionType();
        changed |= refineCarriedTypes(func, refinement);
        llvm::hash_code typesBefore = valueTypes(func);
        if (failed(runOnFunction(func)))
          return failure();
        // Values the run refined may start loops or feed calls (a Stride
        // result as an iter_arg's initial value or a call operand): another
        // round carries them, even when the signature stayed the same.
        changed |= valueTypes(func) != typesBefore;
        changed |= reconcileYields(func, refinement);
        changed |= func.getFunctionType() != before;
      }
      changed |= updateCalls(func, calls);
    }
    if (incompatibleYield)
      return failure();
    if (!changed)
      return success();
  }
  return success();
}

void mlir::stride::updateResultTypes(func::FuncOp func,
                                     Refinement refinement) {
  if (func.isExternal())
    return;
  SmallVector<func::ReturnOp> returns;
  func.walk([&](func::ReturnOp ret) { returns.push_back(ret); });
  if (returns.empty())
    return;
  // An entry's results become buffers the caller allocates, which must not
  // repeat elements: a returned expanded argument is the policy's copy of
  // it (its layout is decided in the next round).
  if (refinement == Refinement::Layout && func.isPublic())
    for (func::ReturnOp ret : returns)
      for (OpOperand &operand : ret->getOpOperands())
        if (repeatsAlongADim(operand.get().getType()))
          operand.set(copyForPolicy(operand.get()));
  SmallVector<Type> results(func.getResultTypes());
  for (auto [i, declared] : llvm::enumerate(func.getResultTypes())) {
    Type first = returns.front().getOperand(i).getType();
    bool same = llvm::all_of(returns, [&, i = i](func::ReturnOp ret) {
      return ret.getOperand(i).getType() == first;
    });
    auto firstTensor = dyn_cast<RankedTensorType>(first);
    bool sameButLayout =
        !same && refinement == Refinement::Layout && firstTensor &&
        llvm::all_of(returns, [&, i = i](func::ReturnOp ret) {
          auto t = dyn_cast<RankedTensorType>(ret.getOperand(i).getType());
          return t && t.getShape() == firstTensor.getShape() &&
                 t.getElementType() == firstTensor.getElementType();
        });
    Type want = same || sameButLayout ? first : declared;
    results[i] = want;
    for (func::ReturnOp ret : returns) {
      Value value = ret.getOperand(i);
      if (value.getType() == want)
        continue;
      OpBuilder b(ret);
      ret.setOperand(i, convert(b, ret.getLoc(), value, want, refinement));
    }
  }
  if (TypeRange(results) != func.getResultTypes())
    func.setType(FunctionType::get(func.getContext(), func.getArgumentTypes(),
                                   results));
}
