//===- ShardingInterfaceImpl.h - Stride ops in sharding ---------*- C++ -*-===//

#ifndef STRIDE_DIALECT_STRIDE_TRANSFORMS_SHARDINGINTERFACEIMPL_H
#define STRIDE_DIALECT_STRIDE_TRANSFORMS_SHARDINGINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
namespace stride {
/// Lets every elementwise Stride op (`stride.broadcast` and the named ops)
/// and `stride.matmul` take part in upstream `sharding-propagation` and
/// `shard-partition` through `shard::ShardingInterface`: elementwise loops
/// are parallel, a broadcast (size-1) operand dimension is never split, and a
/// matmul's contracted loop is a sum reduction whose split gives partial
/// products and a `shard.all_reduce`.
void registerShardingInterfaceExternalModels(DialectRegistry &registry);
} // namespace stride
} // namespace mlir

#endif // STRIDE_DIALECT_STRIDE_TRANSFORMS_SHARDINGINTERFACEIMPL_H
