//===- StrideDialect.td - Stride dialect definition --------*- tablegen -*-===//

#ifndef STRIDE_DIALECT_STRIDE_IR_STRIDEDIALECT_TD
#define STRIDE_DIALECT_STRIDE_IR_STRIDEDIALECT_TD

include "mlir/IR/OpBase.td"

def Stride_Dialect : Dialect {
  let name = "stride";
  let summary = "Elementwise broadcasting and batched matmul over strided tensors";
  let description = [{
    The `stride` dialect models the tensor programs of eager array libraries:
    elementwise ("broadcast") operations with NumPy broadcasting and batched
    matrix products with NumPy `matmul` semantics, over operands of any memory
    layout. Layouts are carried as the `#stride.layout` encoding of builtin
    ranked tensors; passes decide result shapes, result strides (as PyTorch's
    TensorIterator or NumPy's `order='K'` would), loop order and dimension
    coalescing at compile time.
  }];
  let cppNamespace = "::mlir::stride";
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

#endif // STRIDE_DIALECT_STRIDE_IR_STRIDEDIALECT_TD
