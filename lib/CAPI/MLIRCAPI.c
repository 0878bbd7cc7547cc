/* StrideMLIRCAPI has no code of its own: it is MLIR's core C API, linked in
 * whole from Debian's static archives (see CMakeLists.txt). CMake needs one
 * source file to define a library. */
#include "mlir-c/IR.h"
