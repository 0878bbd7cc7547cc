//===- DistributeReport.h - What a distributed run would cost ---*- C++ -*-===//
//
// stride-run --distribute N --distribute-report prints, for each strategy,
// the bytes each rank would send and receive and the flops it would do,
// computed from the partitioned program without running it, so plans for
// 64 or 1,024 ranks can be read on a laptop.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_DRIVER_DISTRIBUTEREPORT_H
#define STRIDE_DRIVER_DISTRIBUTEREPORT_H

#include "stride/Layout/Strides.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::stride {

/// The report for `entry` of `specialized` (static shapes) over a `grid`
/// of processes ("1024", "32x32") under every strategy; a strategy that
/// cannot split the entry gets its reason.
std::string distributeReport(MLIRContext &context, ModuleOp specialized,
                             StringRef entry, StringRef grid,
                             ::stride::layout::Policy policy);

} // namespace mlir::stride

#endif // STRIDE_DRIVER_DISTRIBUTEREPORT_H
