//===- ModuleStructure.h - Calls and scf regions for Stride's passes -*- C++ -*-===//
//
// stride-infer-shapes and stride-propagate-layout refine types op by op. In a
// module with calls and loops a refined type must also reach the other end
// of every call and every loop-carried value. These helpers do that, apart
// from the per-op rules, so the passes call them around their own walk.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_LIB_DIALECT_STRIDE_TRANSFORMS_MODULESTRUCTURE_H
#define STRIDE_LIB_DIALECT_STRIDE_TRANSFORMS_MODULESTRUCTURE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::stride {

/// What a pass refines, and so how a value of another type is brought to the
/// type a loop carries: a cast for a refined shape, a copy for a layout.
enum class Refinement { Shape, Layout };

/// Runs `runOnFunction` (the pass's op-by-op walk plus its signature update)
/// on every function with a body, callees before callers, and between the
/// runs moves refined types across calls and scf regions, until nothing
/// changes:
/// - the results of every func.call take the callee's result types;
/// - a private function whose call sites all pass the same, more refined
///   argument types takes them as its own;
/// - a call operand whose type differs from the callee's gets a tensor.cast;
/// - loop-carried values of scf.for / scf.while take their initial values'
///   types, scf.while's after-region its condition's; a yielded value of
///   another type is cast (shapes) or copied (layouts) into it; an scf.if
///   result takes the type both branches yield when they agree.
/// A recursive call is an error naming the cycle. When `root` is not a
/// module, `runOnFunction` runs on the functions in it without the rest.
LogicalResult
refineModule(Operation *root, Refinement refinement,
             function_ref<LogicalResult(func::FuncOp)> runOnFunction);

/// Gives `func` the result types its returns agree on: for each result,
/// the type every func.return passes when they all pass the same one; under
/// Refinement::Layout, when they agree on all but the layout, the first
/// return's, into which the others' values are copied. Otherwise the
/// declared type stays and returns passing another type cast to it.
void updateResultTypes(func::FuncOp func, Refinement refinement);

} // namespace mlir::stride

#endif // STRIDE_LIB_DIALECT_STRIDE_TRANSFORMS_MODULESTRUCTURE_H
