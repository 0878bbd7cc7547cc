//===- InitAllDialects.h - Register Stride's dialects -----------*- C++ -*-===//
//
// The one call an embedding compiler makes to parse and build Stride IR. It
// registers only Stride's own dialects and the dialects a Stride program is
// written in (func); upstream dialects are the embedder's choice, usually
// mlir::registerAllDialects.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_INITALLDIALECTS_H
#define STRIDE_INITALLDIALECTS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace stride {
/// Adds the Stride dialect and func (the dialect Stride kernels are written
/// in) to `registry`. The dialects Stride's passes produce are loaded by the
/// passes themselves (their dependentDialects).
void registerAllDialects(mlir::DialectRegistry &registry);
} // namespace stride

#endif // STRIDE_INITALLDIALECTS_H
