//===- StrideViewOps.td - Stride view operations -----------*- tablegen -*-===//
//
// Views: ops whose result is the operand's elements seen with another shape,
// order or subset. Their result layouts (strides and offset) are the ones
// PyTorch 1.13 or NumPy 1.24 give the view, set by stride-propagate-layout
// from the operand's layout (lib/Layout/Views.cpp); they bufferize to memref
// views of the operand's buffer, never copies, except where the policy's
// library copies (a reshape with no view, torch's flip), which
// stride-propagate-layout marks with `copy`.
//
// Included at the end of StrideOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_DIALECT_STRIDE_IR_STRIDEVIEWOPS_TD
#define STRIDE_DIALECT_STRIDE_IR_STRIDEVIEWOPS_TD

class Stride_ViewOp<string mnemonic, list<Trait> traits = []>
    : Stride_Op<mnemonic, !listconcat(traits, [Pure,
        DeclareOpInterfaceMethods<Stride_InferResultShapeOpInterface,
            ["inferResultShape", "getBroadcastOperands"]>,
        DeclareOpInterfaceMethods<Stride_LayoutRuleOpInterface>])> {
  let results = (outs Stride_Tensor:$result);
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The view's shape, strides, offset and whether it is one, as
    /// `policy`'s library computes them for an operand of `shape` and
    /// `strides` (kDynamic where unknown); an error when the library
    /// refuses.
    ::stride::layout::ViewResult computeView(::stride::layout::Policy policy,
        const ::stride::layout::Shape &shape,
        const ::stride::layout::Strides &strides);
  }];
  let extraClassDefinition = [{
    ::mlir::FailureOr<::mlir::RankedTensorType> $cppClass::inferResultShape() {
      return ::mlir::stride::inferViewResult(*this);
    }
    ::mlir::ValueRange $cppClass::getBroadcastOperands() {
      return ::mlir::ValueRange();
    }
    ::llvm::LogicalResult $cppClass::verify() {
      return ::mlir::stride::verifyViewOp(*this);
    }
    ::mlir::stride::LayoutRule $cppClass::getLayoutRule() {
      return {::mlir::stride::LayoutRuleKind::View,
              {getOperation()->getOperand(0)}};
    }
  }];
}

def Stride_PermuteOp : Stride_ViewOp<"permute"> {
  let summary = "view with the dimensions reordered (permute, transpose, .T)";
  let description = [{
    Result dimension `i` is operand dimension `perm[i]`, like
    `torch.permute(x, perm)` and `numpy.transpose(x, perm)`; the strides are
    permuted with the sizes and the offset is the operand's. `.T` is the
    permutation that reverses the dimensions; `stride.transpose` swaps two.

    Example:

    ```mlir
    %t = stride.permute %x [2, 0, 1] : tensor<4x2x3xf32> -> tensor<3x4x2xf32, #stride.layout<strides = [1, 6, 3]>>
    ```
  }];
  let arguments = (ins Stride_Tensor:$input, DenseI64ArrayAttr:$perm);
  let assemblyFormat = [{
    $input $perm attr-dict `:` type($input) `->` type($result)
  }];
}

def Stride_TransposeOp : Stride_ViewOp<"transpose"> {
  let summary = "view with two dimensions swapped (transpose, swapaxes)";
  let description = [{
    Swaps dimensions `dims[0]` and `dims[1]`, like `torch.transpose(x, a, b)`
    and `numpy.swapaxes(x, a, b)`: a `stride.permute` that exchanges two
    dimensions (the same one twice is the identity).

    Example:

    ```mlir
    %t = stride.transpose %x [0, 2] : tensor<4x2x3xf32> -> tensor<3x2x4xf32, #stride.layout<strides = [1, 3, 6]>>
    ```
  }];
  let arguments = (ins Stride_Tensor:$input, DenseI64ArrayAttr:$dims);
  let assemblyFormat = [{
    $input $dims attr-dict `:` type($input) `->` type($result)
  }];
}

def Stride_SliceOp : Stride_ViewOp<"slice"> {
  let summary = "basic slicing with start, stop and step per dimension";
  let description = [{
    Selects `start:stop:step` along each leading dimension, like Python's
    `x[a:b:c, ...]` on a NumPy array or a PyTorch tensor: each part may be
    omitted, negative bounds count from the end and out-of-range bounds
    clamp (`slice.indices`); dimensions without a slice are kept whole. The
    result's stride is the operand's times the step and its offset moves to
    the first selected element. A negative step is valid under policy
    `numpy` only: PyTorch refuses it, and `stride-propagate-layout` with
    policy `torch` reports it. An empty dimension gets NumPy's start 0 and
    step 1, or PyTorch's clamped start.

    Example:

    ```mlir
    %s = stride.slice %x [1:-1, ::2] : tensor<5x6xf32> -> tensor<3x3xf32, #stride.layout<strides = [6, 2], offset = 6>>
    ```
  }];
  let arguments = (ins Stride_Tensor:$input, DenseI64ArrayAttr:$starts,
                       DenseI64ArrayAttr:$stops, DenseI64ArrayAttr:$steps);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// The value of `starts`, `stops` and `steps` for an omitted part.
    static constexpr int64_t kNone = ::mlir::ShapedType::kDynamic;
    /// The slices as the layout algebra takes them.
    ::std::vector<::stride::layout::SliceSpec> getSlices();
    ::stride::layout::ViewResult computeView(::stride::layout::Policy policy,
        const ::stride::layout::Shape &shape,
        const ::stride::layout::Strides &strides);
  }];
}

def Stride_ExpandOp : Stride_ViewOp<"expand"> {
  let summary = "view broadcast to a larger shape (expand, broadcast_to)";
  let description = [{
    Broadcasts the operand to `shape`, like `torch.Tensor.expand(shape)` and
    `numpy.broadcast_to(x, shape)`: operand dimensions align on the right,
    a size-1 dimension stretches to any size and new leading dimensions are
    added, all with stride 0; `-1` keeps an existing dimension's size.
    NumPy also gives a size-1 dimension that stays 1 stride 0, PyTorch
    keeps its stride.

    Example:

    ```mlir
    %e = stride.expand %x [2, 4, 3] : tensor<4x1xf32> -> tensor<2x4x3xf32, #stride.layout<strides = [0, 1, 0]>>
    ```
  }];
  let arguments = (ins Stride_Tensor:$input, DenseI64ArrayAttr:$shape);
  let assemblyFormat = [{
    $input $shape attr-dict `:` type($input) `->` type($result)
  }];
}

def Stride_SqueezeOp : Stride_ViewOp<"squeeze"> {
  let summary = "view with size-1 dimensions removed";
  let description = [{
    Removes the listed dimensions, each of which must have size 1, or
    without `dims` every dimension of size 1, like `numpy.squeeze(x, dims)`
    (`torch.squeeze(x, d)` leaves a dimension of another size in place: a
    front end drops it from the list). The other dimensions keep their
    strides.

    Example:

    ```mlir
    %s = stride.squeeze %x dims [1] : tensor<4x1x3xf32> -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Stride_Tensor:$input,
                       OptionalAttr<DenseI64ArrayAttr>:$dims);
  let assemblyFormat = [{
    $input (`dims` $dims^)? attr-dict `:` type($input) `->` type($result)
  }];
}

def Stride_UnsqueezeOp : Stride_ViewOp<"unsqueeze"> {
  let summary = "view with a size-1 dimension inserted (unsqueeze, None)";
  let description = [{
    Inserts a dimension of size 1 before operand dimension `dim` (at the
    end for `dim` equal to the rank), like `torch.unsqueeze(x, dim)`,
    `numpy.expand_dims(x, dim)` and indexing with `None`. PyTorch gives it
    the stride size times stride of the dimension it precedes (1 at the
    end); NumPy's `expand_dims` is a reshape, whose rule may also restride
    the other size-1 dimensions.

    Example:

    ```mlir
    %u = stride.unsqueeze %x [1] : tensor<4x3xf32> -> tensor<4x1x3xf32>
    ```
  }];
  let arguments = (ins Stride_Tensor:$input, I64Attr:$dim);
  let assemblyFormat = [{
    $input `[` $dim `]` attr-dict `:` type($input) `->` type($result)
  }];
}

def Stride_FlipOp : Stride_ViewOp<"flip"> {
  let summary = "the listed dimensions reversed";
  let description = [{
    Reverses the elements along each listed dimension, like
    `numpy.flip(x, dims)`: under policy `numpy` a view with those strides
    negated and the offset at their last element. `torch.flip` copies: under
    policy `torch` the result is a new tensor laid out like `empty_like`
    (marked `copy` by `stride-propagate-layout`).

    Example:

    ```mlir
    %f = stride.flip %x [0] : tensor<2x3xf32> -> tensor<2x3xf32, #stride.layout<strides = [-3, 1], offset = 3>>
    ```
  }];
  let arguments = (ins Stride_Tensor:$input, DenseI64ArrayAttr:$dims,
                       UnitAttr:$copy);
  let assemblyFormat = [{
    $input $dims attr-dict `:` type($input) `->` type($result)
  }];
}

def Stride_ReshapeOp : Stride_ViewOp<"reshape"> {
  let summary = "the elements in row-major order with a new shape";
  let description = [{
    The operand's elements, read in row-major order, with shape `shape`
    (one entry may be `-1`, inferred from the element count), like
    `torch.reshape` and `numpy.reshape`. It is a view exactly when the
    library gives one: PyTorch's view stride computation (`computeStride`),
    NumPy's same-shape view, C-contiguous fast path and no-copy reshape
    attempt. Otherwise the library copies into a new row-major array:
    `stride-propagate-layout` then marks the op `copy`, and it lowers to a
    copy into a new buffer.

    Example:

    ```mlir
    %r = stride.reshape %x [3, -1] : tensor<2x3x2xf32> -> tensor<3x4xf32>
    ```
  }];
  let arguments = (ins Stride_Tensor:$input, DenseI64ArrayAttr:$shape,
                       UnitAttr:$copy);
  let assemblyFormat = [{
    $input $shape attr-dict `:` type($input) `->` type($result)
  }];
}

#endif // STRIDE_DIALECT_STRIDE_IR_STRIDEVIEWOPS_TD
