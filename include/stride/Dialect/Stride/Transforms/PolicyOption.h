//===- PolicyOption.h - The `policy` option's values ------------*- C++ -*-===//
//
// One definition of the values of every `policy` option: the
// stride-propagate-layout pass, the pipelines, stride-run and the Python
// extension all parse the name through it. The names themselves are the
// layout algebra's (policyName).
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_DIALECT_STRIDE_TRANSFORMS_POLICYOPTION_H
#define STRIDE_DIALECT_STRIDE_TRANSFORMS_POLICYOPTION_H

#include "stride/Layout/Strides.h"

#include "llvm/Support/CommandLine.h"

namespace mlir::stride {

inline auto policyOptionValues() {
  using ::stride::layout::Policy;
  using ::stride::layout::policyName;
  return llvm::cl::values(
      clEnumValN(Policy::Torch, policyName(Policy::Torch),
                 "PyTorch's TensorIterator (the default)"),
      clEnumValN(Policy::Numpy, policyName(Policy::Numpy),
                 "NumPy ufuncs with order='K'"),
      clEnumValN(Policy::Contiguous, policyName(Policy::Contiguous),
                 "row-major"));
}

} // namespace mlir::stride

#endif // STRIDE_DIALECT_STRIDE_TRANSFORMS_POLICYOPTION_H
