//===- DistributionPlan.h - What every rank of a run holds ------*- C++ -*-===//
//
// The runners (stride-run, stride-compile for stride-exec) ask
// stride-distribute how an entry splits and what the single-process run's
// result layouts are, to scatter inputs and gather results.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_DRIVER_DISTRIBUTIONPLAN_H
#define STRIDE_DRIVER_DISTRIBUTIONPLAN_H

#include "stride/Layout/Strides.h"
#include "stride/Runtime/Distributed.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace mlir::stride {

/// The entry's parameters in their global form with their split dims.
struct DistributionPlan {
  std::vector<::stride::runtime::DistributedParam> inputs, outputs;
};

/// A copy of `module` whose `entry` is specialized to its declared static
/// argument shapes and layouts (what every rank of a distributed run
/// compiles); "" or the problem.
std::string specializeToDeclared(ModuleOp module, func::FuncOp entry,
                                 OwningOpRef<ModuleOp> &specialized);

/// Runs shape inference, layout propagation and stride-distribute on a
/// copy of `specialized` and reads the plan off it; "" or the diagnostics.
/// With `showRemark`, the pass's remark (its choice) goes to stderr.
std::string planDistribution(MLIRContext &context, ModuleOp specialized,
                             StringRef entry, StringRef grid,
                             StringRef strategy,
                             ::stride::layout::Policy policy, bool showRemark,
                             DistributionPlan &plan);

} // namespace mlir::stride

#endif // STRIDE_DRIVER_DISTRIBUTIONPLAN_H
