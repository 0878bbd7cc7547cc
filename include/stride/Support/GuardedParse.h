//===- GuardedParse.h - Parsing around MLIR 22 parser crashes -----*- C++
//-*-===//
//
// Every Stride front door (stride-opt, stride-run, stride-compile, Python,
// the fuzzer) parses through these, so that inputs on which MLIR 22's own
// parsers crash are refused with an error instead.
//
//===----------------------------------------------------------------------===//

#ifndef STRIDE_SUPPORT_GUARDEDPARSE_H
#define STRIDE_SUPPORT_GUARDEDPARSE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

namespace mlir::stride {

/// Where in `text` MLIR 22's parser would crash: the offset of the first
/// linalg.transpose `permutation = ...` or linalg.broadcast/linalg.reduce
/// `dimensions = ...` (in their custom form, after `outs(...)`) whose value
/// is not a bracketed list of integers. Their parsers store the null
/// attribute a failed list parse returns and dereference it (upstream
/// mlir-opt crashes the same way). StringRef::npos when there is none.
size_t findUnparsableLinalgList(StringRef text);

/// parseSourceFile of `sourceMgr`'s main buffer, but an input on which
/// findUnparsableLinalgList finds a list is refused with an error at it
/// ("expected a list of integers after '<name> ='") instead of crashing.
OwningOpRef<ModuleOp> parseStrideSource(llvm::SourceMgr &sourceMgr,
                                        MLIRContext &context);

/// The error parseStrideSource gives for the list findUnparsableLinalgList
/// found at `at` in `sourceMgr`'s main buffer, emitted on `context`.
void emitUnparsableLinalgList(llvm::SourceMgr &sourceMgr, size_t at,
                              MLIRContext &context);

} // namespace mlir::stride

#endif // STRIDE_SUPPORT_GUARDEDPARSE_H
