//===- Fusion.h - stride.broadcast fusion patterns --------------*- C++ -*-===//

#ifndef STRIDE_DIALECT_STRIDE_TRANSFORMS_FUSION_H
#define STRIDE_DIALECT_STRIDE_TRANSFORMS_FUSION_H

#include "mlir/IR/PatternMatch.h"

#include <functional>

namespace mlir::stride {

/// Decides, for an input `fusedOperand` of a consumer `stride.broadcast`
/// whose producer could legally fuse, whether it should (the recompute rule),
/// in the style of upstream's linalg::ControlFusionFn.
using ControlFusionFn = std::function<bool(OpOperand *fusedOperand)>;

/// Counters the fusion patterns bump; any may be null.
struct FusionCounters {
  std::function<void()> fused, recomputed;
};

/// The pattern that merges a `stride.broadcast` producer into a consumer
/// `stride.broadcast` (legal when the producer has no destinations, one
/// result, and every use of it is an input of a `stride.broadcast` in the
/// same block) where `control` agrees. Each fusion costs the size of the
/// smaller of the two bodies plus the number of inputs. Under the greedy
/// driver, disable constant CSE (GreedyRewriteConfig::enableConstantCSE):
/// it would hoist the constants of a body out of it.
void populateStrideFusionPatterns(RewritePatternSet &patterns,
                                  const ControlFusionFn &control,
                                  FusionCounters counters = {});

/// stride-fuse's recompute rule. A producer is cheap when its body has at
/// most `recomputeLimit` ops, none from the math dialect. One with one use
/// fuses unless the consumer reads it broadcast and it is not cheap; a
/// shared one fuses (is recomputed) only when cheap.
ControlFusionFn recomputeRule(unsigned recomputeLimit);

} // namespace mlir::stride

#endif // STRIDE_DIALECT_STRIDE_TRANSFORMS_FUSION_H
