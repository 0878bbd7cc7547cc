//===- StrideAttrs.td - Stride attributes ------------------*- tablegen -*-===//

#ifndef STRIDE_DIALECT_STRIDE_IR_STRIDEATTRS_TD
#define STRIDE_DIALECT_STRIDE_IR_STRIDEATTRS_TD

include "stride/Dialect/Stride/IR/StrideDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/TensorEncoding.td"

def Stride_LayoutAttr : AttrDef<Stride_Dialect, "Layout",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let mnemonic = "layout";
  let summary = "Memory layout of a tensor: element strides or a dense dimension order";
  let description = [{
    The memory layout of a ranked tensor, used as its encoding. It has one of
    two forms:

    - `strides = [...]`: the element stride of every dimension, as
      `torch.Tensor.stride()` reports it (NumPy's byte strides divided by the
      element size). A stride may be `?` (unknown until run time), 0 (a
      broadcast or expanded dimension) or negative (a reversed view).
    - `perm = [...]`: a dense layout given by the order of the dimensions in
      memory, outermost first; `perm = [0, 1, ..., n-1]` is row-major. This
      form is used where sizes are dynamic and strides cannot be written.

    A tensor without an encoding is row-major contiguous.

    Either form may add `offset = N` (or `offset = ?`): the element offset of
    the tensor's first element from the first element of the buffer it is a
    view of, as `torch.Tensor.storage_offset()` reports it. View ops
    (`stride.slice`, `stride.flip`, ...) set it relative to their operand's;
    every other value has offset 0, which is not printed. Buffers take any
    offset at run time (their memrefs have a dynamic offset), so the offset
    never changes how a value is computed: it records where a view starts.

    Example:

    ```mlir
    tensor<4x2x3xf32, #stride.layout<strides = [1, 12, 4]>>
    tensor<?x?x?xf32, #stride.layout<perm = [1, 2, 0]>>
    tensor<2x3x5xf32, #stride.layout<strides = [-15, 5, 1], offset = 15>>
    ```
  }];
  let parameters = (ins
    OptionalArrayRefParameter<"int64_t", "element strides">:$strides,
    OptionalArrayRefParameter<"int64_t", "dimension order, outermost first">:$perm,
    DefaultValuedParameter<"int64_t", "0", "element offset of a view">:$offset);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "::llvm::ArrayRef<int64_t>":$strides), [{
      return $_get($_ctxt, strides, ::llvm::ArrayRef<int64_t>(), 0);
    }]>,
    AttrBuilder<(ins "::llvm::ArrayRef<int64_t>":$strides,
                     "::llvm::ArrayRef<int64_t>":$perm), [{
      return $_get($_ctxt, strides, perm, 0);
    }]>
  ];
  let extraClassDeclaration = [{
    /// Builds the `perm = [...]` form.
    static LayoutAttr getWithPerm(::mlir::MLIRContext *context,
                                  ::llvm::ArrayRef<int64_t> perm);
    bool isPermForm() const { return !getPerm().empty() ||
                                     getStrides().empty(); }
    /// The rank this layout describes.
    size_t getRank() const {
      return isPermForm() ? getPerm().size() : getStrides().size();
    }
    /// Element strides for concrete `sizes`: the explicit strides, or the
    /// dense strides of the perm. Dynamic sizes or strides give kDynamic.
    ::llvm::SmallVector<int64_t> getStridesFor(::llvm::ArrayRef<int64_t> sizes) const;
    /// The dims ordered outermost to innermost: the perm, or the order the
    /// strides imply (ties and dynamic strides keep row-major order).
    ::llvm::SmallVector<int64_t> getDimOrder(::llvm::ArrayRef<int64_t> sizes) const;
    /// True when the layout equals row-major for these sizes.
    bool isRowMajorFor(::llvm::ArrayRef<int64_t> sizes) const;
  }];
}

def Stride_CmpPredicate : I64EnumAttr<"CmpPredicate",
    "comparison predicate of stride.cmp", [
      I64EnumAttrCase<"eq", 0>, I64EnumAttrCase<"ne", 1>,
      I64EnumAttrCase<"lt", 2>, I64EnumAttrCase<"le", 3>,
      I64EnumAttrCase<"gt", 4>, I64EnumAttrCase<"ge", 5>]> {
  let cppNamespace = "::mlir::stride";
  let genSpecializedAttr = 0;
}

def Stride_CmpPredicateAttr : EnumAttr<Stride_Dialect, Stride_CmpPredicate,
                                       "cmp_predicate"> {
  let assemblyFormat = "$value";
}

#endif // STRIDE_DIALECT_STRIDE_IR_STRIDEATTRS_TD
