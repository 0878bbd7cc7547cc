//===- Registration.cpp - C API: registration and pipelines ---------------===//

#include "stride-c/Registration.h"

#include "stride/InitAllDialects.h"
#include "stride/InitAllPasses.h"
#include "stride/InitAllPipelines.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void strideRegisterAllDialects(MlirDialectRegistry registry) {
  stride::registerAllDialects(*unwrap(registry));
}

void strideRegisterAllPasses(void) { stride::registerAllPasses(); }

void strideRegisterAllPipelines(void) { stride::registerAllPipelines(); }

MlirLogicalResult strideRunPassPipeline(MlirModule module,
                                        MlirStringRef pipeline,
                                        MlirStringCallback onError,
                                        void *userData) {
  auto fail = [&](const std::string &message) {
    if (onError)
      onError(mlirStringRefCreate(message.data(), message.size()), userData);
    return mlirLogicalResultFailure();
  };
  if (mlirModuleIsNull(module))
    return fail("cannot run a pass pipeline on a null module");
  StringRef text = unwrap(pipeline).trim();
  // The pass manager is anchored on the module; an explicit
  // `builtin.module(...)` around the pipeline is accepted and peeled.
  ModuleOp op = unwrap(module);
  StringRef elements = text;
  std::string anchor = ModuleOp::getOperationName().str() + "(";
  if (elements.starts_with(anchor) && elements.ends_with(")"))
    elements = elements.drop_front(anchor.size()).drop_back();

  PassManager pm(op->getName());
  std::string parseError;
  llvm::raw_string_ostream parseErrorStream(parseError);
  if (failed(parsePassPipeline(elements, pm, parseErrorStream)))
    return fail("invalid pass pipeline '" + text.str() + "': " +
                StringRef(parseError).trim().str());

  // Collect the diagnostics for onError and let them propagate to the
  // handlers the caller attached.
  std::string diagnostics;
  ScopedDiagnosticHandler collect(op.getContext(), [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error) {
      llvm::raw_string_ostream os(diagnostics);
      if (!isa<UnknownLoc>(d.getLocation()))
        os << d.getLocation() << ": ";
      os << d << "\n";
    }
    return failure();
  });
  if (failed(pm.run(op)))
    return fail("pass pipeline '" + text.str() + "' failed:\n" + diagnostics);
  return mlirLogicalResultSuccess();
}
