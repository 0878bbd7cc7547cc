//===- AttachModels.h - One external model for a group of ops ---*- C++ -*-===//
//
// The bufferization and sharding models attach one model template to every
// op of a group, found among the ops StrideOps.td defines so that a new op
// gets its models without an edit here: the named elementwise ops (those
// with a scalar body) and the named reductions (those with a static
// getKind()).
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_LIB_DIALECT_STRIDE_TRANSFORMS_ATTACHMODELS_H
#define STRIDE_LIB_DIALECT_STRIDE_TRANSFORMS_ATTACHMODELS_H

#include "stride/Dialect/Stride/IR/StrideOps.h"

#include <type_traits>

namespace mlir::stride {

enum class OpGroup { Elementwise, Reduction };

namespace detail {
/// Whether `Op` has a static getKind() giving its ReduceKind.
template <typename Op, typename = void> constexpr bool isNamedReduction = false;
template <typename Op>
constexpr bool isNamedReduction<
    Op, std::enable_if_t<std::is_same_v<decltype(Op::getKind()), ReduceKind>>> =
    true;

template <OpGroup Group, typename Op>
constexpr bool
    isInGroup = Group == OpGroup::Elementwise
                    ? Op::template hasTrait<ScalarBodyOpInterface::Trait>()
                    : isNamedReduction<Op>;

template <OpGroup Group, template <typename> class Model, typename... Ops>
void attachToEach(MLIRContext *context) {
  auto attach = [context](auto *op) {
    using Op = std::remove_pointer_t<decltype(op)>;
    if constexpr (isInGroup<Group, Op>)
      Op::template attachInterface<Model<Op>>(*context);
  };
  (attach(static_cast<Ops *>(nullptr)), ...);
}
} // namespace detail

/// Attaches Model<Op> to each op of `Group`.
template <OpGroup Group, template <typename> class Model>
void attachToGroup(MLIRContext *context) {
  detail::attachToEach<Group, Model,
#define GET_OP_LIST
#include "stride/Dialect/Stride/IR/StrideOps.cpp.inc"
                       >(context);
}

} // namespace mlir::stride

#endif // STRIDE_LIB_DIALECT_STRIDE_TRANSFORMS_ATTACHMODELS_H
