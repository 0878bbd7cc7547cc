//===- BufferizableOpInterfaceImpl.h - Stride ops in One-Shot ---*- C++ -*-===//

#ifndef STRIDE_DIALECT_STRIDE_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
#define STRIDE_DIALECT_STRIDE_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
namespace stride {
/// Lets `stride.broadcast` and `stride.matmul` take part in upstream One-Shot
/// Bufferize: each bufferizes to a linalg kernel on strided views of its
/// operands' buffers (see stride-bufferize), its result allocated in the
/// propagated layout or written into its destinations in place.
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);
} // namespace stride
} // namespace mlir

#endif // STRIDE_DIALECT_STRIDE_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
