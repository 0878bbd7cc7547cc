//===- BufferizableOpInterfaceImpl.h - Stride ops in One-Shot ---*- C++ -*-===//

#ifndef STRIDE_CONVERSION_STRIDETOLINALG_BUFFERIZABLEOPINTERFACEIMPL_H
#define STRIDE_CONVERSION_STRIDETOLINALG_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
namespace stride {
/// Lets `stride.broadcast` and `stride.matmul` take part in upstream One-Shot
/// Bufferize: each bufferizes to the same strided-view linalg kernel that
/// convert-stride-to-linalg emits, its result allocated in the propagated
/// layout or written into its destinations in place.
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);
} // namespace stride
} // namespace mlir

#endif // STRIDE_CONVERSION_STRIDETOLINALG_BUFFERIZABLEOPINTERFACEIMPL_H
